"""Rank-only hand values shared by every ranking: a :class:`RankSpec` describes one ranking's deck, category order,
straights and low/high direction; :meth:`RankSpec.value` scores five (or fewer) ranks plus a flush flag.

This is the slow, readable reference. The lookup tables in :mod:`riverboat.evaluate.tables` are built from it.
Ranks here are rank indices 0..12 (2..A). Internally a ranking may re-map them to "value ranks" (A-5 lows count the
ace as 0, below the deuce).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from riverboat.cards import Rank
from riverboat.evaluate.base import LEVEL_SHIFT, LOW_BASE, Category, Ranking, decode, encode

ACE = 12


def run_masks(low: int, high: int, length: int, wheel: bool) -> dict[int, int]:
    """Masks of ``length`` consecutive ranks with tops from ``low + length - 1`` to ``high`` -> top rank.

    With ``wheel`` the ace also plays below ``low`` (A-2-3-4-5, A-6-7-8-9, A-7-8-9-T, A-2-3-4); no wrap-around.
    """
    out: dict[int, int] = {}
    for top in range(low + length - 1, high + 1):
        out[sum(1 << r for r in range(top - length + 1, top + 1))] = top
    if wheel:
        top = low + length - 2
        out[(1 << ACE) | sum(1 << r for r in range(low, top + 1))] = top
    return out


@dataclass(frozen=True)
class RankSpec:
    ranking: Ranking
    ranks: tuple[int, ...]
    order: tuple[Category, ...]  # weakest first
    straights: Mapping[int, int] = field(default_factory=dict)
    four_straights: Mapping[int, int] = field(default_factory=dict)
    low: bool = False
    ace_low: bool = False
    flush_counts: bool = True
    qualifier: int | None = None  # LOW_8B: highest allowed value rank of an unpaired low

    @property
    def deck_mask(self) -> int:
        return sum(1 << r for r in self.ranks)

    def level(self, cat: Category) -> int:
        return self.order.index(cat) + 1

    def vrank(self, r: int) -> int:
        return (r + 1) % 13 if self.ace_low else r

    def rank_of_vrank(self, v: int) -> Rank:
        return Rank((v - 1) % 13) if self.ace_low else Rank(v)

    # --- scoring -------------------------------------------------------------------------------------------
    def classify(self, ranks: Sequence[int], flush: bool) -> tuple[Category, tuple[int, ...]]:
        """Category and tie-break value ranks of up to five ranks; ``flush``: all five cards share a suit."""
        vr = [self.vrank(r) for r in ranks]
        counts: dict[int, int] = {}
        for r in vr:
            counts[r] = counts.get(r, 0) + 1
        groups = sorted(counts.items(), key=lambda t: (t[1], t[0]), reverse=True)
        shape = [n for _, n in groups] + [0]
        tb = tuple(r for r, _ in groups)
        five = len(vr) == 5
        allmask = 0
        for r in vr:
            allmask |= 1 << r
        top = self.straights.get(allmask) if five and len(counts) == 5 else None
        fl = flush and five and self.flush_counts
        if top is not None and fl:
            return Category.STRAIGHT_FLUSH, (top,)
        if shape[0] == 4:
            return Category.QUADS, tb
        if shape[0] == 3 and shape[1] == 2:
            return Category.FULL_HOUSE, tb
        if fl:
            return Category.FLUSH, tb
        if top is not None:
            return Category.STRAIGHT, (top,)
        if shape[0] == 3:
            return Category.TRIPS, tb
        if shape[0] == 2 and shape[1] == 2:
            return Category.TWO_PAIR, tb
        if five and self.four_straights:
            best = -1
            run = 0
            for m, t in self.four_straights.items():
                if allmask & m == m and t > best:
                    best, run = t, m
            if best >= 0:
                fifth = tb[0] if shape[0] == 2 else (allmask & ~run).bit_length() - 1
                return Category.FOUR_STRAIGHT, (best, fifth)
        if shape[0] == 2:
            return Category.PAIR, tb
        return Category.HIGH_CARD, tb

    def value(self, ranks: Sequence[int], flush: bool) -> int:
        cat, tb = self.classify(ranks, flush)
        return encode(self.level(cat), tb)

    def strength_of_value(self, value: int) -> int:
        return LOW_BASE - value if self.low else value

    def value_of_strength(self, strength: int) -> int:
        return LOW_BASE - strength if self.low else strength

    def qualifies(self, value: int) -> bool:
        if self.qualifier is None:
            return True
        level, tb = decode(value)
        return level == self.level(Category.HIGH_CARD) and tb[0] <= self.qualifier

    def strength(self, ranks: Sequence[int], flush: bool) -> int:
        """Strength of rank-only hand (0 when a qualifier is not met)."""
        v = self.value(ranks, flush)
        if not self.qualifies(v):
            return 0
        return self.strength_of_value(v)

    # --- labels --------------------------------------------------------------------------------------------
    def category_of(self, strength: int) -> Category:
        return self.order[(self.value_of_strength(strength) >> LEVEL_SHIFT) - 1]

    def describe(self, strength: int) -> str:
        value = self.value_of_strength(strength)
        level, tb = decode(value)
        if not 1 <= level <= len(self.order):
            raise ValueError(f"not a {self.ranking.value} strength: {strength}")
        cat = self.order[level - 1]

        def one(i: int) -> str:
            return self.rank_of_vrank(tb[i]).singular

        def many(i: int) -> str:
            return self.rank_of_vrank(tb[i]).plural

        if cat is Category.HIGH_CARD:
            if self.low:
                return f"{one(0)}-{one(1)} low"
            return f"High Card, {one(0)} high"
        if cat is Category.PAIR:
            return f"One Pair, {many(0)}"
        if cat is Category.TWO_PAIR:
            return f"Two Pair, {many(0)} and {many(1)}"
        if cat is Category.TRIPS:
            return f"Three of a Kind, {many(0)}"
        if cat is Category.STRAIGHT:
            return f"Straight, {one(0)} high"
        if cat is Category.FLUSH:
            return f"Flush, {one(0)} high"
        if cat is Category.FULL_HOUSE:
            return f"Full House, {many(0)} over {many(1)}"
        if cat is Category.QUADS:
            return f"Four of a Kind, {many(0)}"
        if cat is Category.STRAIGHT_FLUSH:
            return "Royal Flush" if tb[0] == ACE else f"Straight Flush, {one(0)} high"
        if cat is Category.FOUR_FLUSH:
            return f"4-Flush, {one(0)} high"
        return f"4-Straight, {one(0)} high"

    def display_order(self, cards: Sequence[int], strength: int) -> tuple[int, ...]:
        """The cards of a made hand in natural display order (groups first, high to low; wheel ace last)."""
        cat = self.category_of(strength) if strength else Category.HIGH_CARD
        ace_low = self.ace_low
        vr = {c: ((c >> 2) + 1) % 13 if ace_low else c >> 2 for c in cards}  # self.vrank, inlined (showdown path)
        counts = [0] * 13
        for v in vr.values():
            counts[v] += 1
        key = {c: counts[v] << 8 | v << 2 | (c & 3) for c, v in vr.items()}  # (count, value rank, suit)
        out = sorted(cards, key=key.__getitem__, reverse=True)
        if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.FOUR_STRAIGHT):
            top = decode(self.value_of_strength(strength))[1][0]
            if top != ACE and any(vr[c] == ACE for c in out):
                aces = [c for c in out if vr[c] == ACE]
                out = [c for c in out if vr[c] != ACE] + aces
        if cat is Category.FOUR_FLUSH:
            suits = [c & 3 for c in out]
            four = max(range(4), key=suits.count)
            out = [c for c in out if c & 3 == four] + [c for c in out if c & 3 != four]
        return tuple(out)
