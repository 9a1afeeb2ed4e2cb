"""Soko / Canadian Stud hands, R-RANK-SOKO: standard high hands plus 4-Flush and 4-Straight between Two Pairs and
One Pair (4-Flush beats 4-Straight).

Tie-breaks (R-RANK-SOKO-3 Reading): 4-Flush compares the four suited cards high to low, then the fifth card;
4-Straight compares the top of the four, then the fifth card. A-2-3-4 and J-Q-K-A are 4-Straights (no wrap-around).
A hand that is both counts as the 4-Flush. The 4-Straight part is rank-only (in the tables); the 4-Flush needs suits
and is applied by :func:`with_four_flush`.
"""

from __future__ import annotations

from collections.abc import Sequence

from riverboat.evaluate.base import Category, Ranking, encode
from riverboat.evaluate.spec import RankSpec, run_masks

SOKO = RankSpec(
    ranking=Ranking.SOKO,
    ranks=tuple(range(13)),
    order=(
        Category.HIGH_CARD,
        Category.PAIR,
        Category.FOUR_STRAIGHT,
        Category.FOUR_FLUSH,
        Category.TWO_PAIR,
        Category.TRIPS,
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.QUADS,
        Category.STRAIGHT_FLUSH,
    ),
    straights=run_masks(0, 12, 5, wheel=True),
    four_straights=run_masks(0, 12, 4, wheel=True),
)

FOUR_FLUSH_LEVEL = SOKO.level(Category.FOUR_FLUSH)
TWO_PAIR_FLOOR = encode(SOKO.level(Category.TWO_PAIR), ())


def four_flush_value(cards: Sequence[int]) -> int:
    """Value of the 4-Flush in five cards (exactly four of one suit), or 0 when there is none."""
    counts = [0, 0, 0, 0]
    for c in cards:
        counts[c & 3] += 1
    for suit in range(4):
        if counts[suit] == 4:
            four = sorted((c >> 2 for c in cards if c & 3 == suit), reverse=True)
            fifth = next(c >> 2 for c in cards if c & 3 != suit)
            return encode(FOUR_FLUSH_LEVEL, (*four, fifth))
    return 0


def with_four_flush(cards: Sequence[int], strength: int) -> int:
    """Upgrade a rank-only Soko strength below Two Pairs to a 4-Flush when the cards hold one."""
    if strength < TWO_PAIR_FLOOR:
        ff = four_flush_value(cards)
        if ff:
            return ff
    return strength
