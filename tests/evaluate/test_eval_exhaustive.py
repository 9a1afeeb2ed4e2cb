"""Exhaustive checks over every five-card hand of each deck, through the batch API.

Expected numbers are computed here by combinatorics over rank and suit choices (binomials), never taken from the
evaluator. Rules: R-CARD-4, R-RANK-6P-2/-3, R-RANK-32-2/-4/-6, R-RANK-SOKO-1/-3, R-LOW-8B-1, R-LOW-RAZZ-2, R-LOW-27-1.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest

from riverboat.cards import DECK_32, DECK_36, DECK_52
from riverboat.evaluate import Category, Ranking
from riverboat.evaluate.batch import category_levels, evaluate_batch
from riverboat.evaluate.tables import SPECS

pytestmark = pytest.mark.slow

C = Category


def all_fives(deck: list[int]) -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(deck, 5)), dtype=np.int8)
    return flat.reshape(-1, 5)


@pytest.fixture(scope="module")
def hands52() -> np.ndarray:
    return all_fives([int(c) for c in DECK_52])


def counts_by_category(ranking: Ranking, strengths: np.ndarray) -> dict[Category, int]:
    levels = category_levels(ranking, strengths)
    order = SPECS[ranking].order
    return {
        order[lv - 1]: int(n) for lv, n in zip(*np.unique(levels, return_counts=True), strict=True) if lv > 0
    }


def distinct_by_category(ranking: Ranking, strengths: np.ndarray) -> dict[Category, int]:
    u = np.unique(strengths)
    return counts_by_category(ranking, u)


def standard_counts(n: int, straights: int) -> dict[Category, int]:
    """Hands per category for a deck of ``n`` ranks x 4 suits with ``straights`` straight rank sets."""
    no_pair_sets = comb(n, 5)
    return {
        C.STRAIGHT_FLUSH: straights * 4,
        C.QUADS: n * (n - 1) * 4,
        C.FULL_HOUSE: n * (n - 1) * comb(4, 3) * comb(4, 2),
        C.FLUSH: (no_pair_sets - straights) * 4,
        C.STRAIGHT: straights * (4**5 - 4),
        C.TRIPS: n * comb(n - 1, 2) * comb(4, 3) * 4**2,
        C.TWO_PAIR: comb(n, 2) * (n - 2) * comb(4, 2) ** 2 * 4,
        C.PAIR: n * comb(n - 1, 3) * comb(4, 2) * 4**3,
        C.HIGH_CARD: (no_pair_sets - straights) * (4**5 - 4),
    }


def standard_distinct(n: int, straights: int) -> dict[Category, int]:
    """Distinct values per category (suits never matter)."""
    return {
        C.STRAIGHT_FLUSH: straights,
        C.QUADS: n * (n - 1),
        C.FULL_HOUSE: n * (n - 1),
        C.FLUSH: comb(n, 5) - straights,
        C.STRAIGHT: straights,
        C.TRIPS: n * comb(n - 1, 2),
        C.TWO_PAIR: comb(n, 2) * (n - 2),
        C.PAIR: n * comb(n - 1, 3),
        C.HIGH_CARD: comb(n, 5) - straights,
    }


def assert_order_consistent(ranking: Ranking, strengths: np.ndarray) -> None:
    """Every hand of a better category beats every hand of a worse one (category intervals are ordered)."""
    levels = category_levels(ranking, strengths)
    prev_max = -1
    for lv in sorted(set(levels.tolist()) - {0}):
        sel = strengths[levels == lv]
        assert sel.min() > prev_max
        prev_max = sel.max()


def test_r_card_4_all_2598960_high_hands_by_category(hands52: np.ndarray) -> None:
    s = evaluate_batch(Ranking.HIGH, hands52, check=False)
    assert len(s) == comb(52, 5) == 2_598_960
    expected = standard_counts(13, 10)
    assert expected == {
        C.STRAIGHT_FLUSH: 40, C.QUADS: 624, C.FULL_HOUSE: 3744, C.FLUSH: 5108, C.STRAIGHT: 10200,
        C.TRIPS: 54912, C.TWO_PAIR: 123552, C.PAIR: 1098240, C.HIGH_CARD: 1302540,
    }  # fmt: skip
    assert counts_by_category(Ranking.HIGH, s) == expected
    assert len(np.unique(s)) == sum(standard_distinct(13, 10).values()) == 7462
    assert distinct_by_category(Ranking.HIGH, s) == standard_distinct(13, 10)
    # 4 royal flushes: the strongest value, held by exactly one hand per suit
    assert int((s == s.max()).sum()) == 4
    assert_order_consistent(Ranking.HIGH, s)


def test_r_low_27_1_all_hands_deuce_to_seven(hands52: np.ndarray) -> None:
    s = evaluate_batch(Ranking.LOW_27, hands52, check=False)
    # A-2-3-4-5 is not a straight in 2-7: 9 straight rank sets
    assert counts_by_category(Ranking.LOW_27, s) == standard_counts(13, 9)
    assert distinct_by_category(Ranking.LOW_27, s) == standard_distinct(13, 9)
    best = hands52[s == s.max()]
    assert len(best) == 4**5 - 4  # 7-5-4-3-2 in every suit pattern except flushes
    assert sorted(int(c) >> 2 for c in best[0]) == [0, 1, 2, 3, 5]
    # low: a better category means a weaker low, so category intervals are in reverse
    levels = category_levels(Ranking.LOW_27, s)
    prev_min = np.inf
    for lv in sorted(set(levels.tolist())):
        sel = s[levels == lv]
        assert sel.max() < prev_min
        prev_min = sel.min()


def test_r_low_razz_2_all_hands_a5_low(hands52: np.ndarray) -> None:
    s = evaluate_batch(Ranking.LOW_A5, hands52, check=False)
    n = 13
    expected = {
        C.HIGH_CARD: comb(n, 5) * 4**5,  # straights and flushes do not count
        C.PAIR: n * comb(n - 1, 3) * comb(4, 2) * 4**3,
        C.TWO_PAIR: comb(n, 2) * (n - 2) * comb(4, 2) ** 2 * 4,
        C.TRIPS: n * comb(n - 1, 2) * comb(4, 3) * 4**2,
        C.FULL_HOUSE: n * (n - 1) * comb(4, 3) * comb(4, 2),
        C.QUADS: n * (n - 1) * 4,
    }
    assert counts_by_category(Ranking.LOW_A5, s) == expected
    assert (
        len(np.unique(s))
        == comb(13, 5) + 13 * comb(12, 3) + comb(13, 2) * 11 + 13 * comb(12, 2) + 2 * 13 * 12
    )
    best = hands52[s == s.max()]
    assert len(best) == 4**5 and sorted(int(c) >> 2 for c in best[0]) == [0, 1, 2, 3, 12]  # 5-4-3-2-A
    # any unpaired hand beats any paired hand
    levels = category_levels(Ranking.LOW_A5, s)
    assert s[levels == 1].min() > s[levels > 1].max()


def test_r_low_8b_1_qualifying_lows(hands52: np.ndarray) -> None:
    s = evaluate_batch(Ranking.LOW_8B, hands52, check=False)
    qualifying = comb(8, 5) * 4**5  # five different ranks among A,2..8, any suits
    assert int((s > 0).sum()) == qualifying == 57_344
    assert len(np.unique(s[s > 0])) == comb(8, 5)
    # a qualifying low has the same strength as under Razz ranking (R-LOW-8B-3 comparison)
    razz = evaluate_batch(Ranking.LOW_A5, hands52[s > 0], check=False)
    assert (razz == s[s > 0]).all()


def rank_sets_with_four_run_only(n_ranks: int = 13) -> int:
    """Five-rank sets holding four consecutive ranks (ace high or low) but no five-card straight."""

    def runs(length: int) -> list[set[int]]:
        out = [set(range(t - length + 1, t + 1)) for t in range(length - 1, n_ranks)]
        out.append({12, *range(0, length - 1)})
        return out

    fours, fives = runs(4), runs(5)
    total = 0
    for rs in itertools.combinations(range(n_ranks), 5):
        s = set(rs)
        if any(f <= s for f in fours) and not any(f <= s for f in fives):
            total += 1
    return total


def test_r_rank_soko_1_all_hands_soko(hands52: np.ndarray) -> None:
    s = evaluate_batch(Ranking.SOKO, hands52, check=False)
    std = standard_counts(13, 10)
    suits_exactly_four = 4 * 3 * 5  # suit of the four, suit of the fifth, position of the fifth
    four_flush_all = 4 * comb(13, 4) * 39  # four cards of one suit + any card of another suit
    four_flush_straights = 10 * 5 * 4 * 3
    four_flush = four_flush_all - four_flush_straights
    four_flush_pairs = 4 * comb(13, 4) * 4 * 3
    run_sets = rank_sets_with_four_run_only()
    four_straight_unpaired = run_sets * (4**5 - 4 - suits_exactly_four)
    four_straight_paired = 11 * 4 * (comb(4, 2) * 4**3 - 4 * 3)  # 11 four-runs, paired rank, no 4-flush
    expected = {
        **{k: v for k, v in std.items() if k not in (C.PAIR, C.HIGH_CARD)},
        C.FOUR_FLUSH: four_flush,
        C.FOUR_STRAIGHT: four_straight_unpaired + four_straight_paired,
        C.PAIR: std[C.PAIR] - four_flush_pairs - four_straight_paired,
        C.HIGH_CARD: std[C.HIGH_CARD] - (four_flush - four_flush_pairs) - four_straight_unpaired,
    }
    assert sum(expected.values()) == comb(52, 5)
    assert counts_by_category(Ranking.SOKO, s) == expected
    assert_order_consistent(Ranking.SOKO, s)


@pytest.mark.parametrize(
    ("ranking", "deck", "n_ranks", "straights"),
    [
        (Ranking.SIX_PLUS, DECK_36, 9, 6),
        (Ranking.SHORT_DECK_PHH, DECK_36, 9, 6),
        (Ranking.THIRTY_TWO, DECK_32, 8, 5),
    ],
)
def test_r_rank_6p_2_and_r_rank_32_4_short_deck_counts(
    ranking: Ranking, deck: object, n_ranks: int, straights: int
) -> None:
    hands = all_fives([int(c) for c in deck])  # type: ignore[attr-defined]
    s = evaluate_batch(ranking, hands)
    assert len(s) == comb(4 * n_ranks, 5)
    assert counts_by_category(ranking, s) == standard_counts(n_ranks, straights)
    assert distinct_by_category(ranking, s) == standard_distinct(n_ranks, straights)
    assert_order_consistent(ranking, s)
    # the lowest straight is ace-low (A-6-7-8-9 / A-7-8-9-T): the ace plays below the deck's lowest rank
    levels = category_levels(ranking, s)
    straight = SPECS[ranking].level(C.STRAIGHT)
    lowest = hands[levels == straight][np.argmin(s[levels == straight])]
    low_rank = 13 - n_ranks
    assert sorted(int(c) >> 2 for c in lowest) == [*range(low_rank, low_rank + 4), 12]


def test_r_rank_32_6_suited_all_201376_hands_distinct() -> None:
    hands = all_fives([int(c) for c in DECK_32])
    s = evaluate_batch(Ranking.THIRTY_TWO_SUITED, hands)
    assert len(s) == comb(32, 5) == 201_376
    assert len(np.unique(s)) == len(s)
    # suits only break ties: the suited order refines the Americana order
    base = evaluate_batch(Ranking.THIRTY_TWO, hands)
    order = np.argsort(s, kind="stable")
    assert (np.diff(base[order]) >= 0).all()
    assert Counter(category_levels(Ranking.THIRTY_TWO_SUITED, s).tolist()) == Counter(
        category_levels(Ranking.THIRTY_TWO, base).tolist()
    )
