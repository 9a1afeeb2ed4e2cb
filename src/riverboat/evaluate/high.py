"""Standard high hands, R-CARD-3/-4/-5: A-2-3-4-5 is the lowest straight, no wrap-around, suits never break ties."""

from __future__ import annotations

from riverboat.evaluate.base import Category, Ranking
from riverboat.evaluate.spec import RankSpec, run_masks

HIGH_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.TRIPS,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.QUADS,
    Category.STRAIGHT_FLUSH,
)

FLUSH_OVER_FULL_HOUSE_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.TRIPS,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.QUADS,
    Category.STRAIGHT_FLUSH,
)
"""The standard order with Flush above Full House: 32-card games (R-RANK-32-3) and PHH's short deck ("NS")."""

HIGH = RankSpec(
    ranking=Ranking.HIGH,
    ranks=tuple(range(13)),
    order=HIGH_ORDER,
    straights=run_masks(0, 12, 5, wheel=True),
)
