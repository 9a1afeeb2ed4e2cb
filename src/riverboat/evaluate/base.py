"""Shared vocabulary of the evaluators: :class:`Ranking`, :class:`CardUse`, :class:`Category`, :class:`HandValue`.

Strength encoding (all rankings): a strength is a positive ``int``; higher is always better, also for low rankings.
Before a low ranking inverts it, a hand's *value* packs a category level and up to five tie-break ranks:
``value = level << 20 | t1 << 16 | t2 << 12 | t3 << 8 | t4 << 4 | t5`` (``t1`` most significant). High rankings use
``strength = value`` (levels start at 1); low rankings use ``strength = LOW_BASE - value`` so that the lowest hand
has the highest strength. ``THIRTY_TWO_SUITED`` appends ten bits of suit tie-breaks (``value << 10 | suits``).
``0`` is never a strength: batch results use it for "no qualifying hand" (LOW_8B).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from riverboat.cards import Card

LEVEL_SHIFT = 20
LOW_BASE = 1 << 24
SUIT_BITS = 10


class HandError(ValueError):
    """Cards given to an evaluator are invalid (wrong count, duplicate, not in the ranking's deck)."""


class Ranking(StrEnum):
    HIGH = "high"
    SIX_PLUS = "six_plus"
    SHORT_DECK_PHH = "short_deck_phh"
    THIRTY_TWO = "thirty_two"
    THIRTY_TWO_SUITED = "thirty_two_suited"
    SOKO = "soko"
    LOW_8B = "low_8b"
    LOW_A5 = "low_a5"
    LOW_27 = "low_27"
    BADUGI = "badugi"  # PHH "FB" only (riverboat.evaluate.badugi): 1-4 cards, not a five-card ranking


#: the rankings of five-card hands (every ranking but BADUGI): the tables, batch and seven-card paths serve these
FIVE_CARD_RANKINGS: tuple[Ranking, ...] = tuple(r for r in Ranking if r is not Ranking.BADUGI)


class CardUse(StrEnum):
    ANY = "any"
    OMAHA = "omaha"


class Category(StrEnum):
    """Hand categories; each ranking orders the ones it uses (see ``spec.RankSpec.order``)."""

    HIGH_CARD = "High Card"
    PAIR = "One Pair"
    TWO_PAIR = "Two Pair"
    FOUR_STRAIGHT = "4-Straight"
    FOUR_FLUSH = "4-Flush"
    TRIPS = "Three of a Kind"
    STRAIGHT = "Straight"
    FLUSH = "Flush"
    FULL_HOUSE = "Full House"
    QUADS = "Four of a Kind"
    STRAIGHT_FLUSH = "Straight Flush"


def encode(level: int, ranks: Sequence[int]) -> int:
    """Pack a category level and tie-break ranks (most significant first, at most five) into a value."""
    v = level
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


def decode(value: int) -> tuple[int, tuple[int, int, int, int, int]]:
    """Inverse of :func:`encode`: ``(level, (t1, t2, t3, t4, t5))``."""
    return value >> LEVEL_SHIFT, (
        (value >> 16) & 15,
        (value >> 12) & 15,
        (value >> 8) & 15,
        (value >> 4) & 15,
        value & 15,
    )


@dataclass(frozen=True, eq=False)
class HandValue:
    """A made hand under one ranking. Compared (``<``, ``==``, ...) by strength only, within one ranking."""

    ranking: Ranking
    strength: int
    cards: tuple[Card, ...]
    label: str

    def _other(self, other: object) -> HandValue:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare HandValue with {type(other).__name__}")
        if other.ranking is not self.ranking:
            raise TypeError(f"cannot compare {self.ranking.value} and {other.ranking.value} hands")
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.ranking is other.ranking and self.strength == other.strength

    def __hash__(self) -> int:
        return hash((self.ranking, self.strength))

    def __lt__(self, other: Any) -> bool:
        return self.strength < self._other(other).strength

    def __le__(self, other: Any) -> bool:
        return self.strength <= self._other(other).strength

    def __gt__(self, other: Any) -> bool:
        return self.strength > self._other(other).strength

    def __ge__(self, other: Any) -> bool:
        return self.strength >= self._other(other).strength

    def __str__(self) -> str:
        return f"{self.label} ({' '.join(str(c) for c in self.cards)})"
