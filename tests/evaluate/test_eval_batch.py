"""Batch API: agrees with the per-call API for 5, 6 and 7 cards in every ranking (R-CARD-2 best five), returns 0
for no qualifying low (R-LOW-8B-1), and rejects bad arrays with a clear error."""

from __future__ import annotations

import random

import numpy as np
import pytest

from riverboat.evaluate import FIVE_CARD_RANKINGS, HandError, Ranking, best_hand, evaluate7
from riverboat.evaluate.batch import evaluate_batch
from riverboat.evaluate.rankings import deck_of


@pytest.mark.parametrize("ranking", list(FIVE_CARD_RANKINGS))
@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_matches_best_hand(ranking: Ranking, k: int) -> None:
    rng = random.Random(list(FIVE_CARD_RANKINGS).index(ranking) * 10 + k)
    deck = [int(c) for c in deck_of(ranking)]
    rows = [rng.sample(deck, k) for _ in range(400)]
    got = evaluate_batch(ranking, np.array(rows, dtype=np.uint8)).tolist()
    want = []
    for r in rows:
        v = best_hand(ranking, r)
        want.append(0 if v is None else v.strength)
    assert got == want


def test_batch_seven_card_high_matches_evaluate7() -> None:
    rng = np.random.default_rng(3)
    rows = np.argsort(rng.random((5000, 52)), axis=1)[:, :7]
    assert evaluate_batch(Ranking.HIGH, rows).tolist() == [evaluate7(*r) for r in rows.tolist()]


def test_r_low_8b_1_batch_zero_means_no_qualifying_low() -> None:
    rows = np.array([[48, 0, 4, 8, 24], [48, 0, 4, 8, 28]])  # A-2-3-4-8 qualifies, A-2-3-4-9 does not
    out = evaluate_batch(Ranking.LOW_8B, rows)
    assert out[0] > 0 and out[1] == 0


@pytest.mark.parametrize(
    ("ranking", "rows", "match"),
    [
        (Ranking.HIGH, [[0, 1, 2, 3]], "k >= 5"),
        (Ranking.HIGH, [0, 1, 2, 3, 4], "shape"),
        (Ranking.HIGH, [[0, 1, 2, 3, 3]], "repeats"),
        (Ranking.HIGH, [[0, 1, 2, 3, 52]], "0..51"),
        (Ranking.SIX_PLUS, [[0, 40, 41, 42, 43]], "not in the Six Plus"),
        (Ranking.HIGH, [[0.0, 1.0, 2.0, 3.0, 4.0]], "integers"),
    ],
)
def test_batch_rejects_bad_arrays(ranking: Ranking, rows: list[object], match: str) -> None:
    with pytest.raises(HandError, match=match):
        evaluate_batch(ranking, np.array(rows))
