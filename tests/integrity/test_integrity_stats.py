"""The statistics behind the R-INTEG-2..4 detectors (docs/integrity.md): exact tails and the multiple-comparison
correction, checked against direct sums."""

from __future__ import annotations

import math

import pytest

from riverboat.integrity.stats import (
    bh_adjust,
    binom_sf,
    binom_sum_sf,
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


def _sum_direct(k: int, parts: list[tuple[int, float]]) -> float:
    dist = [1.0]
    for n, p in parts:
        pmf = [math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(n + 1)]
        dist = [sum(dist[i] * pmf[t - i] for i in range(len(dist)) if 0 <= t - i <= n)
                for t in range(len(dist) + n)]
    return sum(dist[k:])


def test_sum_of_binomials_tail_matches_direct_sum_issue_34() -> None:
    parts = [(8, 0.999), (7, 0.97), (6, 0.074), (7, 0.097)]
    for k in range(0, 30):
        assert binom_sum_sf(k, parts) == pytest.approx(_sum_direct(k, parts), rel=1e-9, abs=1e-15)
    assert binom_sum_sf(1, [(0, 0.5)]) == 0.0


def test_soft_play_rare_passive_hands_tested_exactly_issue_34() -> None:
    """Issue #34 (precision on every seed; R-INTEG-4): an honest pair in the simulation (seed 2) was flagged for
    soft play on 6 passive decisions in the strongest equity band where their habits predicted 1.1. A normal
    approximation of that sum made it p = 1e-5; the exact tail of the sum of binomials is 3e-4."""
    from riverboat.integrity.detect import ScanConfig, _Tests
    from riverboat.integrity.state import ScanState

    st = ScanState()
    strong = st.passive[-1]
    for actor, other, hits, trials in (("a", "b", 3, 6), ("b", "a", 3, 7)):
        for i in range(trials):
            strong.add(actor, other, i < hits, f"h{i}")
    for actor, hits, trials in (("a", 17, 144), ("b", 6, 101)):  # each one's habit with everyone else
        for i in range(trials):
            strong.add(actor, f"x{i % 9}", i < hits, f"g{i}")
            strong.add(f"x{i % 9}", actor, i % 10 == 0, f"g{i}")
    t = _Tests(st, ScanConfig(rate_uncertainty=False))  # the rates taken as exact: the sum of binomials
    p, k, n, expected = t._passive("a", "b")
    assert (k, n) == (6, 13) and expected < 2.0
    exact = _sum_direct(6, [(6, t.passive[-1].rate("a", "b")), (7, t.passive[-1].rate("b", "a"))])
    assert p == pytest.approx(exact, rel=1e-9)
    assert p > 1e-4
    # and with the rates as the estimates they are (Beta-binomial, the default since the stud pass): larger still
    assert _Tests(st, ScanConfig())._passive("a", "b")[0] > p


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
