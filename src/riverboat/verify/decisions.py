"""Engine-neutral decisions and actions, and the seeded random actor used by the differential harness.

Both sides of a differential (Riverboat's engine and PokerKit) are translated into the same small vocabulary so
that they can be compared at every decision point:

* a :class:`Decision` says who acts and what they may do: the set of action kinds, the amount to call and the
  minimum/maximum "to" amounts for a bet/raise/complete (amounts are the player's total for the street, in chips);
* an :class:`Action` is the choice made, in the same vocabulary, and is applied to both sides.

Kinds: ``fold``, ``check``, ``call``, ``raise`` (any bet, raise or completion: an amount "to"), ``bring_in``
(post the stud bring-in), ``draw`` (discard 0..n cards; 0 = stand pat).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

FOLD = "fold"
CHECK = "check"
CALL = "call"
RAISE = "raise"
BRING_IN = "bring_in"
DRAW = "draw"

KINDS = (FOLD, CHECK, CALL, RAISE, BRING_IN, DRAW)


@dataclass(frozen=True, slots=True)
class Decision:
    """What the player to act may do. ``actor`` is a 0-based index in PokerKit's player order."""

    actor: int
    kinds: frozenset[str]
    call_amount: int = 0
    min_to: int | None = None
    max_to: int | None = None
    bring_in_amount: int | None = None
    hand: tuple[str, ...] = ()  # the actor's current cards (draw decisions only), as "Ah" strings
    max_discards: int | None = None

    def describe(self) -> str:
        parts = [f"p{self.actor}", "{" + ",".join(sorted(self.kinds)) + "}"]
        if CALL in self.kinds:
            parts.append(f"call={self.call_amount}")
        if RAISE in self.kinds:
            parts.append(f"to={self.min_to}..{self.max_to}")
        if BRING_IN in self.kinds:
            parts.append(f"bring_in={self.bring_in_amount}")
        if DRAW in self.kinds:
            parts.append(f"hand={''.join(self.hand)} max_discards={self.max_discards}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    amount: int | None = None  # raise: total "to" for the street
    cards: tuple[str, ...] = field(default=())  # draw: the discarded cards

    def describe(self) -> str:
        if self.kind == RAISE:
            return f"raise to {self.amount}"
        if self.kind == DRAW:
            return f"discard {''.join(self.cards) or '-'}"
        return self.kind


@dataclass(frozen=True, slots=True)
class Style:
    """Relative weights of the action kinds; a per-hand style keeps hands varied (short folds to deep all-ins)."""

    fold: float = 1.0
    passive: float = 4.0  # check or call
    aggressive: float = 2.0  # bet/raise/complete


STYLES: tuple[Style, ...] = (
    Style(1.0, 4.0, 2.0),
    Style(0.5, 3.0, 3.0),
    Style(2.0, 5.0, 1.0),
    Style(0.2, 2.0, 4.0),
)


class RandomActor:
    """Chooses uniformly-weighted random legal actions from a seeded ``random.Random``.

    Amounts: a third of the time the minimum, a sixth the maximum, otherwise uniform between them (inclusive), so
    that both edges are exercised often. Draws discard a uniform random number of cards (0..max) chosen at random.
    """

    def __init__(self, rng: random.Random, style: Style | None = None) -> None:
        self.rng = rng
        self.style = style if style is not None else rng.choice(STYLES)

    def choose(self, decision: Decision) -> Action:
        rng = self.rng
        kinds = decision.kinds
        if DRAW in kinds:
            limit = len(decision.hand) if decision.max_discards is None else decision.max_discards
            count = rng.randint(0, min(limit, len(decision.hand)))
            return Action(DRAW, cards=tuple(rng.sample(list(decision.hand), count)))
        options: list[tuple[str, float]] = []
        if FOLD in kinds and CHECK not in kinds:
            options.append((FOLD, self.style.fold))
        if CHECK in kinds:
            options.append((CHECK, self.style.passive))
        if CALL in kinds:
            options.append((CALL, self.style.passive))
        if BRING_IN in kinds:
            options.append((BRING_IN, self.style.passive))
        if RAISE in kinds:
            options.append((RAISE, self.style.aggressive))
        if not options:
            raise ValueError(f"no action to choose from in {decision.describe()}")
        kind = _weighted(rng, options)
        if kind != RAISE:
            return Action(kind)
        assert decision.min_to is not None and decision.max_to is not None
        return Action(RAISE, amount=pick_amount(rng, decision.min_to, decision.max_to))


def pick_amount(rng: random.Random, low: int, high: int) -> int:
    roll = rng.random()
    if roll < 1 / 3 or high <= low:
        return low
    if roll < 0.5:
        return high
    return rng.randint(low, high)


def _weighted(rng: random.Random, options: Sequence[tuple[str, float]]) -> str:
    total = sum(w for _, w in options)
    x = rng.random() * total
    for kind, weight in options:
        x -= weight
        if x < 0:
            return kind
    return options[-1][0]


def compare_decisions(ours: Decision, theirs: Decision) -> list[str]:
    """The differences between two decisions (empty list = same), comparing only what both sides define."""
    diffs: list[str] = []
    if ours.actor != theirs.actor:
        diffs.append(f"actor {ours.actor} != {theirs.actor}")
    if ours.kinds != theirs.kinds:
        diffs.append(f"kinds {sorted(ours.kinds)} != {sorted(theirs.kinds)}")
    both = ours.kinds & theirs.kinds
    if CALL in both and ours.call_amount != theirs.call_amount:
        diffs.append(f"call {ours.call_amount} != {theirs.call_amount}")
    if RAISE in both and (ours.min_to, ours.max_to) != (theirs.min_to, theirs.max_to):
        diffs.append(f"raise-to {ours.min_to}..{ours.max_to} != {theirs.min_to}..{theirs.max_to}")
    if BRING_IN in both and ours.bring_in_amount != theirs.bring_in_amount:
        diffs.append(f"bring-in {ours.bring_in_amount} != {theirs.bring_in_amount}")
    if DRAW in both and sorted(ours.hand) != sorted(theirs.hand):
        diffs.append(f"hand {sorted(ours.hand)} != {sorted(theirs.hand)}")
    return diffs
