"""Chi-square goodness of fit for the draw tests, in closed form (no scipy): for an integer number of degrees of
freedom ``k`` the survival function of the chi-square distribution is a finite sum (even ``k``) or ``erfc`` plus a
finite sum (odd ``k``), so the p-value is exact to floating-point precision."""

from __future__ import annotations

import math
from fractions import Fraction


def chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for X ~ chi-square with k degrees of freedom."""
    if k < 1:
        raise ValueError("k >= 1")
    if x <= 0:
        return 1.0
    half = x / 2
    if k % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, k // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(x) * math.exp(-half) * math.sqrt(2 / math.pi)
    for i in range(1, (k + 1) // 2):
        total += term
        term *= x / (2 * i + 1)
    return total


def chi_square(counts: dict[int, int], probabilities: dict[int, Fraction]) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of observed ``counts`` against exact ``probabilities``."""
    n = sum(counts.values())
    stat = 0.0
    for key, p in probabilities.items():
        expected = float(p) * n
        stat += (counts.get(key, 0) - expected) ** 2 / expected
    dof = len(probabilities) - 1
    return stat, dof, chi2_sf(stat, dof)
