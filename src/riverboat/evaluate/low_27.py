"""Deuce-to-seven low, R-LOW-27: scored as a standard high hand with the ace high only and no A-2-3-4-5 straight;
straights, flushes and pairs count against the hand; the lowest score wins. Best hand 7-5-4-3-2."""

from __future__ import annotations

from riverboat.evaluate.base import Ranking
from riverboat.evaluate.high import HIGH_ORDER
from riverboat.evaluate.spec import RankSpec, run_masks

LOW_27 = RankSpec(
    ranking=Ranking.LOW_27,
    ranks=tuple(range(13)),
    order=HIGH_ORDER,
    straights=run_masks(0, 12, 5, wheel=False),
    low=True,
)
