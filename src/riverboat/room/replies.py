"""The room's typed answers (issue #29): one frozen model per shape of a command's reply, and which command answers
with which (:data:`REPLY_TYPES`).

A command's handler returns one of these values (``Room.execute`` and a cluster gateway's ``RemoteRoom.execute``
alike: the table's host serialises it at the NATS edge and the gateway parses it back by the command's reply
type, :func:`parse_reply`); the server's ``ack`` carries :meth:`CommandReply.wire`, the same JSON object the browser
client has always read (``result``). ``tests/room/test_room_commands.py`` fails if a room command has no reply
type here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

__all__ = ["REPLY_TYPES", "CommandReply", "parse_reply"]


class CommandReply(BaseModel):
    """A command's answer: a JSON object with exactly these fields, in this order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def wire(self) -> dict[str, object]:
        """The ``ack``'s ``result`` (and what crosses NATS): the fields as JSON values."""
        return self.model_dump(mode="json")


# ------------------------------------------------------------------ cash tables
class Seated(CommandReply):
    """``sit``: the seat taken and the chips brought."""

    table: str
    seat: int
    stack: int


class Acted(CommandReply):
    """``act`` at a cash table, ``tournament_act``: the action was taken."""

    ok: Literal[True] = True


class SpeedActed(CommandReply):
    """``act`` in a Speed Poker pool: taken, in hand ``hand``."""

    ok: Literal[True] = True
    hand: str


class SatOut(CommandReply):
    """``sit_out``: this table, and the player's other cash tables sat out with it (R-SITOUT-4)."""

    table: str
    sitting_out: Literal[True] = True
    also_sat_out: list[str]


class SatIn(CommandReply):
    """``sit_in``: back in, owing a big blind or a small one (R-NEWPLAYER, R-MISSED), and the player's other cash
    tables sat in with it (R-SITOUT-4)."""

    table: str
    sitting_out: Literal[False] = False
    owes_bb: bool
    missed_sb: bool
    also_sat_in: list[str] = []


class Options(CommandReply):
    """A seat's table options (the view's ``you.options``)."""

    auto_post: bool
    sit_out_next_bb: bool
    wait_for_bb: bool
    auto_muck: bool


class OptionsSet(CommandReply):
    """``options``: all of the seat's options after the change."""

    table: str
    options: Options


class Waiting(CommandReply):
    """``waitlist``: on the list, at ``position`` (1: offered the next free seat)."""

    table: str
    waiting: Literal[True] = True
    position: int


class NotWaiting(CommandReply):
    """``unwaitlist``: off the list."""

    table: str
    waiting: Literal[False] = False


class Left(CommandReply):
    """``leave`` (a cash table): ``pending`` while the hand the player is in goes on (cashed out after it), else the
    chips cashed out."""

    table: str
    pending: bool
    cashed_out: int | None


class ToppedUp(CommandReply):
    """``top_up``: ``pending`` until the hand in progress is over (R-BUYIN-1); the stack now."""

    table: str
    pending: bool
    stack: int


class Watching(CommandReply):
    """``watch`` / ``unwatch``."""

    table: str
    watching: bool


# ------------------------------------------------------------------ Speed Poker
class JoinedPool(CommandReply):
    """``join_speed``: the chips brought to the pool."""

    pool: str
    stack: int


class FastFolded(CommandReply):
    """``fast_fold``: the hand folded (R-SPEED-1)."""

    pool: str
    folded: str


class LeftPool(CommandReply):
    """``leave_speed``: as :class:`Left`, for the pool."""

    pool: str
    pending: bool
    cashed_out: int | None


# ------------------------------------------------------------------ tournaments and Twister
class Registered(CommandReply):
    """``tournament_register``: in, with ``entrants`` registered (or entries, late)."""

    tournament: str
    registered: Literal[True] = True
    entrants: int


class Unregistered(CommandReply):
    """``tournament_unregister``: out, buy-in and fee back (R-TOURN-REG-3)."""

    tournament: str
    registered: Literal[False] = False


class ReboughtChips(CommandReply):
    """``tournament_rebuy`` (a re-buy or the add-on): the player's chips after it."""

    tournament: str
    chips: int


class DeclinedRebuy(CommandReply):
    """``tournament_decline_rebuy``."""

    tournament: str
    declined: Literal[True] = True


class TournamentSatOut(CommandReply):
    """``tournament_sit_out``: sitting out or back (R-SITOUT-1/2)."""

    tournament: str
    sitting_out: bool


class TwisterRegistered(CommandReply):
    """``twister_play``: registered in the open Sit & Go ``tournament`` of that type and buy-in (R-TWIST-11)."""

    tournament: str
    registered: Literal[True] = True
    entrants: int
    kind: str
    buy_in: int
    currency: str


class PlayEnded(CommandReply):
    """``end_play`` (issue #30): left (a table or pool) or refunded (a tournament or Twister not yet started)."""

    target: str
    ended: Literal["left", "refunded"]


#: command type -> the models of its replies (more than one: told apart by their fields, ``extra="forbid"``)
REPLY_TYPES: Mapping[str, tuple[type[CommandReply], ...]] = {
    "sit": (Seated,),
    "act": (Acted, SpeedActed),
    "sit_out": (SatOut,),
    "sit_in": (SatIn,),
    "options": (OptionsSet,),
    "waitlist": (Waiting,),
    "unwaitlist": (NotWaiting,),
    "leave": (Left,),
    "top_up": (ToppedUp,),
    "join_speed": (JoinedPool,),
    "fast_fold": (FastFolded,),
    "leave_speed": (LeftPool,),
    "watch": (Watching,),
    "unwatch": (Watching,),
    "twister_play": (TwisterRegistered,),
    "tournament_act": (Acted,),
    "tournament_register": (Registered,),
    "tournament_unregister": (Unregistered,),
    "tournament_rebuy": (ReboughtChips,),
    "tournament_decline_rebuy": (DeclinedRebuy,),
    "tournament_sit_out": (TournamentSatOut,),
    "end_play": (PlayEnded,),
}


def parse_reply(command_type: str, data: Mapping[str, object]) -> CommandReply:
    """The typed reply of a ``command_type`` command from its JSON object (a cluster host's answer)."""
    models = REPLY_TYPES[command_type]
    for model in models[:-1]:
        try:
            return model.model_validate(data)
        except ValidationError:
            continue
    return models[-1].model_validate(data)


#: the answer to every action taken (one value: nothing in it varies)
ACTED = Acted()
