"""A-5 low: Razz (R-LOW-RAZZ) and eight-or-better (R-LOW-8B).

Aces are low, straights and flushes are ignored. ``LOW_A5`` (Razz, R-LOW-RAZZ-2 Reading): any unpaired hand beats
any paired hand; paired hands compare as high hands with the ace low, the lowest wins. ``LOW_8B``: only five
different ranks, each 8 or lower, qualify (R-LOW-8B-1); a qualifying low has the same strength as under LOW_A5.
"""

from __future__ import annotations

from riverboat.evaluate.base import Category, Ranking
from riverboat.evaluate.spec import RankSpec

A5_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.TRIPS,
    Category.FULL_HOUSE,
    Category.QUADS,
)

EIGHT_LOW = 7  # value rank of the eight with the ace counted as 0

LOW_A5 = RankSpec(
    ranking=Ranking.LOW_A5,
    ranks=tuple(range(13)),
    order=A5_ORDER,
    low=True,
    ace_low=True,
    flush_counts=False,
)

LOW_8B = RankSpec(
    ranking=Ranking.LOW_8B,
    ranks=tuple(range(13)),
    order=A5_ORDER,
    low=True,
    ace_low=True,
    flush_counts=False,
    qualifier=EIGHT_LOW,
)
