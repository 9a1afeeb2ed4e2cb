"""Actions a player can take, the legal-action offer at a decision point, and the error for illegal ones."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from riverboat.engine.views import LegalView


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # amount = bet-to (total this betting round)
    RAISE = "raise"  # amount = raise-to (total this betting round)
    BRING_IN = "bring_in"  # stud forced opening (R-BRINGIN)
    COMPLETE = "complete"  # stud: complete the bring-in to a full bet; amount = complete-to
    STRADDLE = "straddle"  # R-STRADDLE: a raise to 2 x BB by the first pre-flop actor
    DRAW = "draw"  # discard ``cards`` (possibly none) and draw replacements
    STAND_PAT = "stand_pat"  # DRAW with no cards
    AGREE_SPLIT = "agree_split"  # R-SPLIT
    DECLINE_SPLIT = "decline_split"  # R-SPLIT (only offered to all-in players during a vote)
    RUN_TWICE = "run_twice"  # R-RIT vote yes
    RUN_ONCE = "run_once"  # R-RIT vote no


AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.STRADDLE})


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    kind: ActionKind
    amount: int = 0  # "to" amount for BET/RAISE/COMPLETE/STRADDLE (the player's total bet this round)
    cards: tuple[int, ...] = ()  # DRAW: the cards discarded


@dataclass(slots=True)
class LegalActions:
    """Everything the player to act may do now.

    ``call`` is the number of chips a CALL adds (capped by the stack). ``min_to``/``max_to`` bound the amount of
    the aggressive kind offered (BET, RAISE or COMPLETE; in fixed limit ``min_to == max_to`` except the stud
    open-pair street, where only those two values are allowed). ``bring_in`` is the BRING_IN amount.
    ``max_discards`` applies to DRAW. ``allowed_to``: when not empty, the only aggressive amounts allowed.
    Treat it as read-only (it is not frozen only because that is faster).
    """

    seat: int
    kinds: frozenset[ActionKind]
    call: int = 0
    min_to: int = 0
    max_to: int = 0
    bring_in: int = 0
    max_discards: int = 0
    allowed_to: tuple[int, ...] = ()

    def to_dict(self) -> LegalView:
        return {
            "seat": self.seat,
            "kinds": sorted(k.value for k in self.kinds),
            "call": self.call,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "bring_in": self.bring_in,
            "max_discards": self.max_discards,
            "allowed_to": list(self.allowed_to),
        }


class IllegalAction(ValueError):
    """An action that is not legal now; the hand state is unchanged. The message says why."""
