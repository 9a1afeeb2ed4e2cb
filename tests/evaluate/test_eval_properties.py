"""Hypothesis properties per ranking: the order is total and consistent with categories; strengths are invariant
under suit permutation wherever suits do not rank (R-CARD-7, R-SUIT-3; not THIRTY_TWO_SUITED, R-RANK-32-6);
best-of-seven equals the best five-card subset; batch, per-call and fast paths agree."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverboat.evaluate import FIVE_CARD_RANKINGS, Ranking, best_hand, category, evaluate5, evaluate7
from riverboat.evaluate.batch import evaluate_batch
from riverboat.evaluate.rankings import deck_of
from riverboat.evaluate.tables import SPECS

ALL = pytest.mark.parametrize("r", list(FIVE_CARD_RANKINGS), ids=[r.value for r in FIVE_CARD_RANKINGS])


def hands(r: Ranking, n: int = 5) -> st.SearchStrategy[list[int]]:
    deck = [int(c) for c in deck_of(r)]
    return st.lists(st.sampled_from(deck), min_size=n, max_size=n, unique=True)


def strength(r: Ranking, cards: list[int]) -> int:
    return evaluate5(r, cards) or 0


@ALL
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_r_card_7_suit_permutation_invariance(r: Ranking, data: st.DataObject) -> None:
    cards = data.draw(hands(r))
    perm = data.draw(st.permutations([0, 1, 2, 3]))
    moved = [(c & ~3) | perm[c & 3] for c in cards]
    if r is Ranking.THIRTY_TWO_SUITED:
        # suits rank here (R-RANK-32-6): a suit permutation keeps the rank part, only the suit tie-break bits move
        assert strength(r, moved) >> 10 == strength(r, cards) >> 10
    else:
        assert strength(r, moved) == strength(r, cards)


@ALL
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_order_is_total_and_consistent_with_categories(r: Ranking, data: st.DataObject) -> None:
    x = data.draw(hands(r))
    y = data.draw(hands(r))
    sx, sy = strength(r, x), strength(r, y)
    # a strength depends on the set of cards only, so any two hands compare the same way whatever their order
    assert strength(r, list(reversed(x))) == sx and strength(r, sorted(y)) == sy
    if sx and sy:
        order = SPECS[r].order
        cx, cy = order.index(category(r, sx)), order.index(category(r, sy))
        if cx != cy:
            assert (cx < cy) == (sx < sy) if not SPECS[r].low else (cx < cy) == (sx > sy)
    if r is Ranking.THIRTY_TWO_SUITED and sorted(x) != sorted(y):
        assert sx != sy


@ALL
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_best_of_seven_is_the_best_five_card_subset(r: Ranking, data: st.DataObject) -> None:
    cards = data.draw(hands(r, 7))
    expected = max(strength(r, list(f)) for f in itertools.combinations(cards, 5))
    v = best_hand(r, cards[:2], cards[2:])
    assert (v.strength if v else 0) == expected
    assert int(evaluate_batch(r, np.array([cards]))[0]) == expected
    if r is Ranking.HIGH:
        assert evaluate7(*cards) == expected
