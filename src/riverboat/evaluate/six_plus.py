"""Six Plus / short deck (36 cards, ranks 6..A), R-RANK-6P.

``SIX_PLUS`` (R-RANK-6P-2): Three of a Kind beats Straight and Flush beats Full House. ``SHORT_DECK_PHH``: the
PHH/PokerKit "NS" reading, used only to replay PHH hands: Straight beats Three of a Kind, Flush beats Full House.
Both: A-6-7-8-9 is the lowest straight (R-RANK-6P-3 Reading), no other wrap-around.
"""

from __future__ import annotations

from riverboat.evaluate.base import Category, Ranking
from riverboat.evaluate.high import FLUSH_OVER_FULL_HOUSE_ORDER
from riverboat.evaluate.spec import RankSpec, run_masks

SIX = 4  # rank index of the six

SIX_PLUS = RankSpec(
    ranking=Ranking.SIX_PLUS,
    ranks=tuple(range(SIX, 13)),
    order=(
        Category.HIGH_CARD,
        Category.PAIR,
        Category.TWO_PAIR,
        Category.STRAIGHT,
        Category.TRIPS,
        Category.FULL_HOUSE,
        Category.FLUSH,
        Category.QUADS,
        Category.STRAIGHT_FLUSH,
    ),
    straights=run_masks(SIX, 12, 5, wheel=True),
)

SHORT_DECK_PHH = RankSpec(
    ranking=Ranking.SHORT_DECK_PHH,
    ranks=tuple(range(SIX, 13)),
    order=FLUSH_OVER_FULL_HOUSE_ORDER,
    straights=run_masks(SIX, 12, 5, wheel=True),
)
