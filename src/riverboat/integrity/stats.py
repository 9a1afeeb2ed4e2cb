"""The statistics of the detectors (docs/integrity.md): exact tail probabilities, shrunk baselines, and the
Benjamini-Hochberg correction for testing every pair of players at once."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

_LOG_FACT = np.zeros(1)  # log(n!) for n < len(_LOG_FACT), grown on demand


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def binom_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed exactly in log space."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    p = min(max(p, 1e-12), 1 - 1e-12)
    lp, lq = math.log(p), math.log1p(-p)
    terms = [_log_comb(n, j) + j * lp + (n - j) * lq for j in range(k, n + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def _log_fact(n: int) -> np.ndarray:
    global _LOG_FACT
    if n >= len(_LOG_FACT):
        size = max(n + 1, 2 * len(_LOG_FACT))
        _LOG_FACT = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, size, dtype=np.float64)))))
    return _LOG_FACT


def binom_sum_sf(k: int, parts: Sequence[tuple[int, float]]) -> float:
    """P(S >= k) for S the sum of independent X_j ~ Binomial(n_j, p_j) (``parts``: (n_j, p_j)), exactly: the
    distributions convolved (probabilities below ~1e-308 are lost, so the smallest answer is 0). Used where the
    expected count is small and a normal approximation of the sum would overstate a few rare events (issue #34)."""
    if k <= 0:
        return 1.0
    total = sum(n for n, _ in parts)
    if k > total:
        return 0.0
    lf = _log_fact(total)
    dist = np.ones(1)
    for n, p in parts:
        if n <= 0:
            continue
        p = min(max(p, 1e-12), 1 - 1e-12)
        j = np.arange(n + 1)
        pmf = np.exp(lf[n] - lf[j] - lf[n - j] + j * math.log(p) + (n - j) * math.log1p(-p))
        dist = np.convolve(dist, pmf)
    return float(min(1.0, dist[k:].sum()))


def _betabinom_pmf(n: int, p: float, m: float, lf: np.ndarray) -> np.ndarray:
    """The Beta-binomial pmf over 0..n: n trials at a rate that is itself only known as a Beta of mean ``p`` worth
    ``m`` trials (``m`` = inf: the binomial)."""
    p = min(max(p, 1e-12), 1 - 1e-12)
    j = np.arange(n + 1)
    log_comb = lf[n] - lf[j] - lf[n - j]
    if not math.isfinite(m):
        return np.asarray(np.exp(log_comb + j * math.log(p) + (n - j) * math.log1p(-p)))
    a, b = p * m, (1 - p) * m
    i = np.arange(n, dtype=np.float64)
    up_a = np.concatenate(([0.0], np.cumsum(np.log(a + i))))  # log Gamma(a + j) - log Gamma(a), j = 0..n
    up_b = np.concatenate(([0.0], np.cumsum(np.log(b + i))))
    down = float(np.sum(np.log(a + b + i)))  # log Gamma(a + b + n) - log Gamma(a + b)
    return np.asarray(np.exp(log_comb + up_a[j] + up_b[n - j] - down))


def betabinom_sum_sf(k: int, parts: Sequence[tuple[int, float, float]]) -> float:
    """P(S >= k) for S the sum of independent Beta-binomials (``parts``: (n_j, p_j, m_j): n_j trials at a rate
    known as a Beta of mean p_j worth m_j trials), exactly (the pmfs convolved). A rate estimated from a few
    hundred of a player's decisions is not known exactly; treating it as known makes an honest pair's ordinary
    excess look rare (issue #34: two honest pairs flagged for soft play in stud). With every m_j infinite this is
    :func:`binom_sum_sf`."""
    if k <= 0:
        return 1.0
    total = sum(n for n, _, _ in parts)
    if k > total:
        return 0.0
    lf = _log_fact(total)
    dist = np.ones(1)
    for n, p, m in parts:
        if n > 0:
            dist = np.convolve(dist, _betabinom_pmf(n, p, m, lf))
    return float(min(1.0, dist[k:].sum()))


def hypergeom_sf(k: int, population: int, successes: int, draws: int) -> float:
    """P(X >= k) for X hypergeometric: ``draws`` without replacement from ``population`` holding
    ``successes``."""
    lo, hi = max(k, 0, draws - (population - successes)), min(draws, successes)
    if lo > hi:
        return 0.0 if k > hi else 1.0
    denom = _log_comb(population, draws)
    terms = [_log_comb(successes, j) + _log_comb(population - successes, draws - j) - denom for j in range(lo, hi + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def shrunk_rate(hits: int, trials: int, prior_rate: float, prior_weight: float = 20.0) -> float:
    """A per-player rate pulled towards the population rate (a Beta prior worth ``prior_weight`` trials):
    empirical Bayes, so a player seen a few times is judged mostly by the population."""
    return (hits + prior_rate * prior_weight) / (trials + prior_weight)


def bh_adjust(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        out[i] = min(1.0, running)
    return out


def fisher_combine(pvalues: Sequence[float]) -> float:
    """Fisher's method: one p-value for independent tests (chi-square with 2k degrees of freedom)."""
    ps = [max(p, 1e-300) for p in pvalues]
    if not ps:
        return 1.0
    x = -2.0 * sum(math.log(p) for p in ps)
    k = len(ps)
    # survival of chi-square with 2k dof: exp(-x/2) * sum_{i<k} (x/2)^i / i!
    half = x / 2.0
    term, total = 1.0, 1.0
    for i in range(1, k):
        term *= half / i
        total += term
    return min(1.0, math.exp(-half) * total)


def min_combine(pvalues: Sequence[float]) -> float:
    """One p-value for tests that may depend on each other (Bonferroni over the smallest: k times the smallest of
    k): valid whatever the dependence, where :func:`fisher_combine` needs independent tests."""
    return min(1.0, len(pvalues) * min(pvalues)) if pvalues else 1.0
