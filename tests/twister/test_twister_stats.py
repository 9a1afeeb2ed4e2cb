"""The chi-square helper the draw tests rely on, checked against published critical values."""

from __future__ import annotations

import pytest

from .stats import chi2_sf


@pytest.mark.parametrize(("x", "k", "p"), [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (5.991465, 2, 0.05), (11.070498, 5, 0.05),
    (20.515006, 5, 0.001), (12.591587, 6, 0.05), (22.457744, 6, 0.001), (16.918978, 9, 0.05),
])
def test_chi2_survival_matches_critical_value_tables(x: float, k: int, p: float) -> None:
    """Critical values of the chi-square distribution (standard tables) give back their tail probability."""
    assert chi2_sf(x, k) == pytest.approx(p, rel=1e-5)
