"""The statistics behind the R-INTEG-2..4 detectors (docs/integrity.md): exact tails and the multiple-comparison
correction, checked against direct sums."""

from __future__ import annotations

import math

import pytest

from riverboat.integrity.stats import (
    bh_adjust,
    binom_sf,
    fisher_combine,
    hypergeom_sf,
    normal_sf,
    shrunk_rate,
)


def _binom_direct(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))


@pytest.mark.parametrize(("k", "n", "p"), [(0, 10, 0.3), (3, 10, 0.3), (10, 10, 0.5), (7, 40, 0.05), (11, 10, 0.5)])
def test_binomial_tail_matches_direct_sum_r_integ_3(k: int, n: int, p: float) -> None:
    assert binom_sf(k, n, p) == pytest.approx(_binom_direct(k, n, p) if k <= n else 0.0, rel=1e-9, abs=1e-15)


def test_hypergeometric_tail_matches_direct_sum_r_integ_2() -> None:
    pop, succ, draws = 50, 12, 9
    for k in range(0, 10):
        direct = sum(math.comb(succ, j) * math.comb(pop - succ, draws - j) for j in range(k, min(succ, draws) + 1))
        assert hypergeom_sf(k, pop, succ, draws) == pytest.approx(direct / math.comb(pop, draws), rel=1e-9)


def test_benjamini_hochberg_known_values_r_integ_8() -> None:
    # p = (0.01, 0.04, 0.03, 0.005), m = 4: sorted 0.005, 0.01, 0.03, 0.04 -> 0.02, 0.02, 0.04, 0.04
    assert bh_adjust([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])


def test_fisher_and_normal_r_integ_4() -> None:
    assert fisher_combine([1.0, 1.0]) == pytest.approx(1.0)
    # one test: Fisher's method gives the p-value back
    assert fisher_combine([0.037]) == pytest.approx(0.037, rel=1e-9)
    assert normal_sf(1.959964) == pytest.approx(0.025, rel=1e-4)
    assert shrunk_rate(0, 0, 0.3) == pytest.approx(0.3)
    assert shrunk_rate(10, 10, 0.0, prior_weight=10) == pytest.approx(0.5)
