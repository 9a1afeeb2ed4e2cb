"""A player's decision at a table, as one frozen value from the frame to the engine (issue #29): :class:`Move`.

The server's ``act`` and ``tournament_act`` frames become a ``Move`` once (:meth:`Move.parse`, which refuses what
the engine could not take with the room's error codes: an unknown kind or a bad card ``illegal_action``, an amount
that is not an integer ``bad_amount``); every hop after that -- the room, a cash table, a Speed Poker pool, a
tournament's director, a cluster host's shadow of a tournament table, the :class:`~riverboat.room.hand_driver.
HandDriver` -- carries that value as it is, and the driver turns it into the engine's
:class:`~riverboat.engine.Action` for the seat (:meth:`Move.action`). Whether it is legal now is the engine's
question (``illegal_action`` then too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from riverboat.cards import Card
from riverboat.engine import Action, ActionKind
from riverboat.room.errors import RoomError

if TYPE_CHECKING:
    from riverboat.room.commands import ActFrame, TournamentActFrame

__all__ = ["Move"]


@dataclass(frozen=True, slots=True)
class Move:
    """What the player chose: ``kind``, the bet/raise-to total ``amount`` where the kind takes one, and the cards
    to discard (engine card codes) for a draw."""

    kind: ActionKind
    amount: int | None = None
    cards: tuple[int, ...] | None = None

    @classmethod
    def parse(cls, kind: object, amount: object = None, cards: object = None) -> Move:
        """A move from a client's fields (a frame's ``kind``, ``amount``, ``cards``, or a test's): refused with
        ``RoomError`` when malformed -- ``illegal_action`` for an unknown kind or a card that is not one,
        ``bad_amount`` for an amount that is not an integer. The one place a move's input is checked."""
        try:
            if not isinstance(kind, str):
                raise ValueError(kind)
            k = ActionKind(kind)
        except ValueError:
            allowed = ", ".join(k.value for k in ActionKind)
            raise RoomError("illegal_action", f"unknown action {kind!r}; actions are: {allowed}") from None
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise RoomError("bad_amount", f"amount must be an integer number of minor units, got {amount!r}")
        return cls(k, amount, None if cards is None else _card_codes(cards))

    @classmethod
    def of(cls, frame: ActFrame | TournamentActFrame) -> Move:
        """The move of an ``act`` or ``tournament_act`` frame (its fields already have their JSON types and sizes:
        :mod:`riverboat.room.commands`)."""
        return cls.parse(frame.kind, frame.amount, frame.cards)

    def action(self, seat: int) -> Action:
        """The engine's action of this move by ``seat``: a call carries no amount (the engine knows it), a draw of no
        cards is standing pat."""
        kind = self.kind
        amount = 0 if self.amount is None or kind is ActionKind.CALL else self.amount
        cards = self.cards or ()
        if kind is ActionKind.DRAW and not cards:
            kind = ActionKind.STAND_PAT
        return Action(seat, kind, amount, cards)


def _card_codes(cards: object) -> tuple[int, ...]:
    if isinstance(cards, str):
        cards = cards.split()
    if not isinstance(cards, list | tuple):
        raise RoomError("illegal_action", "cards must be a list of cards such as ['Ah', 'Td']")
    try:
        return tuple(int(Card(c)) for c in cards)
    except (ValueError, TypeError) as exc:
        raise RoomError("illegal_action", f"bad card: {exc}") from None
