"""The room's commands (issue #29): the pydantic models of the client frames that reach the room, and the registry
that runs each of them (:class:`Commands`, ``Room.execute``).

A frame is a frozen value from the socket to the table: the server parses it (``server.protocol`` builds the
client-frame union from these models and its own session frames: auth, ping, lobby, chat, resync), and
``Room.execute(player, command, key)`` runs the handler registered for its type. A cluster gateway forwards the
same value over NATS (``cluster.remote``), and the table's host runs it with its own ``Room.execute``: one path for
every command in both deployments. Cash tables and Speed Poker pools register their handlers in the room
(:mod:`riverboat.room.room`), the tournaments and Twister theirs when the room gets them
(:mod:`riverboat.room.tournament_commands`); ``tests/room/test_room_commands.py`` walks this registry and the
client-frame union, and fails if a frame type has no handler or a handler no frame.

``key``: the idempotency key of a command that moves money (:data:`MONEY_COMMANDS`), made once from the player and
the frame id (``server.replies.store_key``) and passed to the ledger: a repeat after the reply cache forgot the
first copy moves no money (``id_reused``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, StringConstraints

from riverboat.room.errors import RoomError
from riverboat.room.replies import CommandReply

#: Largest amount (in minor units) a frame may carry: 10^12 cents = 10 billion euro. Anything larger is refused
#: by validation before it reaches the room.
MAX_AMOUNT = 10**12

Amount = Annotated[StrictInt, Field(ge=0, le=MAX_AMOUNT)]
PositiveAmount = Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)]
MsgId = Annotated[StrictStr, StringConstraints(max_length=64)] | Annotated[StrictInt, Field(ge=0, le=2**53)]
TableRef = Annotated[StrictStr, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Seat = Annotated[StrictInt, Field(ge=0, le=10)]
CardText = Annotated[StrictStr, StringConstraints(min_length=2, max_length=3, pattern=r"^(?:10|[2-9TJQKAtjqka])[cdhsCDHS]$")]
ActKind = Annotated[StrictStr, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z_]+$")]


class ClientFrameBase(BaseModel):
    """Every client frame: the protocol version and the client's message id (echoed as ``ref``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = Field(description="Protocol version; must be 1.")
    id: MsgId | None = Field(default=None, description="Client message id, echoed as `ref` in the reply.")


class SitFrame(ClientFrameBase):
    """Take ``seat`` at cash table ``table`` bringing ``buy_in`` minor units from the balance (R-BUYIN, R-CASH-2)."""

    type: Literal["sit"]
    table: TableRef
    seat: Seat
    buy_in: PositiveAmount
    wait_for_bb: StrictBool = Field(default=True, description="True: wait for the big blind; False: post now (R-NEWPLAYER).")


class ActFrame(ClientFrameBase):
    """A game action in the hand at ``table``: ``kind`` is one of the legal action kinds offered in the view
    (fold, check, call, bet, raise, complete, bring_in, discard, stand_pat, ...). ``amount`` is the bet/raise-to
    total where the kind needs one; ``cards`` lists the cards to discard for ``discard``."""

    type: Literal["act"]
    table: TableRef
    kind: ActKind
    amount: Amount | None = None
    cards: Annotated[list[CardText], Field(max_length=7)] | None = None


class SitOutFrame(ClientFrameBase):
    """Sit out from the next hand (R-SITOUT; in cash games this applies at all the player's cash tables)."""

    type: Literal["sit_out"]
    table: TableRef


class SitInFrame(ClientFrameBase):
    """Come back from sitting out (posts a blind as R-NEWPLAYER / R-MISSED require)."""

    type: Literal["sit_in"]
    table: TableRef
    post: StrictBool = Field(default=False, description="True: post the big blind (+ dead small blind) now; else wait.")


class OptionsFrame(ClientFrameBase):
    """Change table options of the player's seat (only the fields given); the ack's ``result.options`` holds them
    all (the view's ``you.options``)."""

    type: Literal["options"]
    table: TableRef
    auto_post: StrictBool | None = Field(default=None, description="False: sat out instead of posting a blind.")
    sit_out_next_bb: StrictBool | None = Field(default=None, description="True: sat out before the next big blind.")
    wait_for_bb: StrictBool | None = Field(default=None, description="Sitting in waits for the big blind.")


class WaitlistFrame(ClientFrameBase):
    """Join the waiting list of a full cash table: a private ``seat_offered`` event says when a seat is free."""

    type: Literal["waitlist"]
    table: TableRef


class UnwaitlistFrame(ClientFrameBase):
    """Leave the waiting list of a table."""

    type: Literal["unwaitlist"]
    table: TableRef


class LeaveFrame(ClientFrameBase):
    """Leave the table; the stack goes back to the balance (R-CASH-3)."""

    type: Literal["leave"]
    table: TableRef


class TopUpFrame(ClientFrameBase):
    """Add ``amount`` minor units from the balance to the stack between hands (R-BUYIN)."""

    type: Literal["top_up"]
    table: TableRef
    amount: PositiveAmount


class JoinSpeedFrame(ClientFrameBase):
    """Join the Speed Poker pool ``pool`` with ``buy_in`` minor units (R-SPEED)."""

    type: Literal["join_speed"]
    pool: TableRef
    buy_in: PositiveAmount


class FastFoldFrame(ClientFrameBase):
    """Speed Fold: fold now and move to a new hand at another table of the pool (R-SPEED-1, R-SPEED-2)."""

    type: Literal["fast_fold"]
    pool: TableRef


class LeaveSpeedFrame(ClientFrameBase):
    """Leave the Speed Poker pool; the stack goes back to the balance."""

    type: Literal["leave_speed"]
    pool: TableRef


class WatchFrame(ClientFrameBase):
    """Watch a table without sitting (a spectator): the ack carries nothing secret; from then on the connection
    receives the table's public ``table_state`` and events (never a face-down card, R-GEN-5) until ``unwatch``,
    sitting down (then as a player), or the table closes. After a reconnect the watched tables send their view
    again, as seated tables do."""

    type: Literal["watch"]
    table: TableRef


class UnwatchFrame(ClientFrameBase):
    """Stop watching a table."""

    type: Literal["unwatch"]
    table: TableRef


class TwisterPlayFrame(ClientFrameBase):
    """The lobby's Twister "Play" (R-TWIST-11): register for the open Sit & Go of ``kind`` (``twister``, ``aog``
    or ``wild``, the types the room offers, R-WILD-5) at ``buy_in`` (a published buy-in, R-TWIST-7), paid from the
    balance or with the Twister ticket ``ticket`` of that value (R-WILD-1). The ack says the tournament and how
    many are in; when the third is in the three are seated at random (R-TWIST-2) and ``tournament`` frames follow
    (``started``, ``twister_spin``, ``state``...). Idempotent by frame id, like the other money frames."""

    type: Literal["twister_play"]
    kind: Literal["twister", "aog", "wild"]
    buy_in: PositiveAmount
    ticket: Annotated[StrictInt, Field(ge=1, le=2**53)] | None = None


class TournamentActFrame(ClientFrameBase):
    """A game action at the player's table of tournament ``tournament`` (as ``act`` at a cash table: ``kind`` one
    of the legal kinds of the ``state`` event's hand view, ``amount`` the bet/raise-to total)."""

    type: Literal["tournament_act"]
    tournament: TableRef
    kind: ActKind
    amount: Amount | None = None
    cards: Annotated[list[CardText], Field(max_length=7)] | None = None


Secret = Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]


class TournamentRegisterFrame(ClientFrameBase):
    """Register for tournament ``tournament`` (a Sit & Go or an MTT of the lobby's tabs): buy-in + fee from the
    balance (R-FEE-1), or the ticket ``ticket`` (R-TOURN-GEN-2); a private one needs ``promo_code`` AND
    ``password`` (R-TOURN-PRIV-1). A Sit & Go starts when its last seat is taken (R-TOURN-SNG-1). Idempotent by
    frame id, like the other money frames."""

    type: Literal["tournament_register"]
    tournament: TableRef
    promo_code: Secret | None = None
    password: Secret | None = None
    ticket: Annotated[StrictInt, Field(ge=1, le=2**53)] | None = None


class TournamentUnregisterFrame(ClientFrameBase):
    """Unregister before the start and the unregistration deadline: buy-in and fee back (R-TOURN-REG-3)."""

    type: Literal["tournament_unregister"]
    tournament: TableRef


class TournamentRebuyFrame(ClientFrameBase):
    """A re-buy (during the re-buy period, stack at or below the limit) or the add-on (in its level):
    ``what`` is ``rebuy`` or ``addon`` (R-TOURN-REBUY-3). Idempotent by frame id."""

    type: Literal["tournament_rebuy"]
    tournament: TableRef
    what: Literal["rebuy", "addon"] = "rebuy"


class TournamentDeclineRebuyFrame(ClientFrameBase):
    """Decline the re-buy offered after a bust (``rebuy_offer``, R-TOURN-REBUY-3): the player's place is fixed now
    (else when the offer's time runs out)."""

    type: Literal["tournament_decline_rebuy"]
    tournament: TableRef


class TournamentSitOutFrame(ClientFrameBase):
    """Sit out of tournament ``tournament`` (``out`` true: dealt in, blinds and antes paid, checked/folded at once
    until back, R-SITOUT-1/2, R-TOURN-DISC-1) or sit back in (``out`` false). The ack's result is
    ``{"tournament", "sitting_out"}``; the next ``state`` says ``sitting_out`` and each seat view ``away``."""

    type: Literal["tournament_sit_out"]
    tournament: TableRef
    out: StrictBool = True


class EndPlayFrame(ClientFrameBase):
    """Issue #30: a time-out or self-exclusion is in force, so the player's play at ``target`` ends: at a cash table
    they leave (the stack returns to the balance at the end of the current hand, R-CASH-3), a Speed Poker pool is
    left, a registration in a tournament or Twister not yet started is cancelled and refunded (the unregistration
    deadline does not keep it). Refused (``not_blocked``) while no block is in force. The server sends it for the
    player to every place the store says holds their money when they take a time-out or exclude themselves; a
    cluster gateway forwards it to the host of ``target`` like any command. The ack's result:
    ``{"target", "ended": "left" | "refunded"}``."""

    type: Literal["end_play"]
    target: TableRef


RoomCommand: TypeAlias = (
    SitFrame | ActFrame | SitOutFrame | SitInFrame | OptionsFrame | WaitlistFrame | UnwaitlistFrame | LeaveFrame
    | TopUpFrame | JoinSpeedFrame | FastFoldFrame | LeaveSpeedFrame | WatchFrame | UnwatchFrame | TwisterPlayFrame
    | TournamentActFrame | TournamentRegisterFrame | TournamentUnregisterFrame | TournamentRebuyFrame
    | TournamentDeclineRebuyFrame | TournamentSitOutFrame | EndPlayFrame
)
#: every room command's model (the client-frame union adds the server's session frames to these)
ROOM_COMMANDS: tuple[type[ClientFrameBase], ...] = (
    SitFrame, ActFrame, SitOutFrame, SitInFrame, OptionsFrame, WaitlistFrame, UnwaitlistFrame, LeaveFrame,
    TopUpFrame, JoinSpeedFrame, FastFoldFrame, LeaveSpeedFrame, WatchFrame, UnwatchFrame, TwisterPlayFrame,
    TournamentActFrame, TournamentRegisterFrame, TournamentUnregisterFrame, TournamentRebuyFrame,
    TournamentDeclineRebuyFrame, TournamentSitOutFrame, EndPlayFrame,
)
#: the commands that move money: each carries the idempotency key made from the player and its frame id
MONEY_COMMANDS = frozenset({"sit", "top_up", "join_speed", "twister_play", "tournament_register",
                            "tournament_rebuy"})

#: a command's answer: a typed reply (:mod:`riverboat.room.replies`; :data:`~riverboat.room.replies.REPLY_TYPES`
#: names each command's), whose ``wire()`` JSON object is the ``ack``'s ``result``
Result: TypeAlias = CommandReply
#: the target of Twister's "Play" (``twister_play``): the room's Twister offer (one process: ``TwisterOffers``; a
#: cluster: the record of that name, whose host runs the offer and the Sit & Go's it starts, ``cluster.host``)
TWISTER_OFFER = "twister"


def target_of(command: RoomCommand) -> str:
    """The table, Speed Poker pool, tournament or offer a command is for (Twister's "Play": :data:`TWISTER_OFFER`)."""
    if isinstance(command, (JoinSpeedFrame, FastFoldFrame, LeaveSpeedFrame)):
        return command.pool
    if isinstance(command, (TournamentActFrame, TournamentRegisterFrame, TournamentUnregisterFrame,
                            TournamentRebuyFrame, TournamentDeclineRebuyFrame, TournamentSitOutFrame)):
        return command.tournament
    if isinstance(command, TwisterPlayFrame):
        return TWISTER_OFFER
    if isinstance(command, EndPlayFrame):
        return command.target
    return command.table


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent a command: the player, and the idempotency key of a money command (None: not a money command, or a
    frame without an id, whose ledger call gets a fresh key)."""

    player: int
    key: str | None = None


Handler = Callable[[Caller, RoomCommand], Awaitable[Result]]


class Commands:
    """The room's command registry: one handler per command type."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def register(self, model: type[ClientFrameBase], handler: Handler) -> None:
        kind = command_type(model)
        self._handlers[kind] = handler

    def handler(self, model: type[ClientFrameBase]) -> Handler:
        """The handler registered for ``model`` (one registered later for it may pass on to this one)."""
        return self._handlers[command_type(model)]

    def handled(self) -> frozenset[str]:
        return frozenset(self._handlers)

    async def execute(self, caller: Caller, command: RoomCommand) -> Result:
        handler = self._handlers.get(command.type)
        if handler is None:
            raise RoomError("not_offered", f"this room does not take {command.type!r} commands")
        return await handler(caller, command)


def command_type(model: type[ClientFrameBase]) -> str:
    """The ``type`` literal of a command model."""
    args = get_args(model.model_fields["type"].annotation)
    kind = args[0] if len(args) == 1 else None
    assert isinstance(kind, str), model
    return kind
