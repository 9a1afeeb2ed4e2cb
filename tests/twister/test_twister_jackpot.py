"""Age of the Gods jackpot arithmetic (R-AOG-4/5/6, R-WALLET-9) in integer minor units."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from riverboat.twister import TIERS, TwisterSettings
from riverboat.twister.jackpot import contributions, draw_jackpots, tier_totals, trigger_threshold

from .stats import chi_square

DEFAULT = TwisterSettings()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([100, 500, 1000]), min_size=1, max_size=60))
def test_r_aog_5_contributions_add_up_to_0_99_percent_within_one_minor_unit_per_tier(buy_ins: list[int]) -> None:
    """R-AOG-5: after any sequence of games each tier holds its share of 0.99% of all stakes, less than one minor
    unit short; no contribution is negative; the pieces add up to the formula exactly."""
    total, received = 0, [0] * len(TIERS)
    for b in buy_ins:
        parts = contributions(total, 3 * b, DEFAULT)
        assert all(p >= 0 for p in parts)
        total += 3 * b
        received = [r + p for r, p in zip(received, parts, strict=True)]
    assert tuple(received) == tier_totals(total, DEFAULT)
    for r, share in zip(received, DEFAULT.jackpot_tier_shares_bp, strict=True):
        exact = Fraction(total * 99 * share, 10**8)
        assert 0 <= exact - r < 1
    assert 0 <= Fraction(total * 99, 10**4) - sum(received) < len(TIERS)


def test_r_aog_5_one_eur_1_game_worth_of_stakes() -> None:
    """A EUR 1 game stakes 300 cents: 0.99% is 2.97 cents; Power (40%) gets 1.188 -> 1 cent, Extra (30%) 0.891 ->
    0, Super (20%) 0.594 -> 0, Ultimate (10%) 0.297 -> 0. The fractions are paid by later games."""
    assert contributions(0, 300, DEFAULT) == (1, 0, 0, 0)
    assert contributions(300, 300, DEFAULT) == (1, 1, 1, 0)  # totals 2.376, 1.782, 1.188, 0.594
    assert tier_totals(300 * 1000, DEFAULT) == (1188, 891, 594, 297)


def test_r_aog_6_trigger_chance_follows_the_setting_and_grows_with_the_buy_in() -> None:
    """R-AOG-3/6: each stake triggers with ppm * buy_in / 10**8 (0.1% at EUR 1, 1% at EUR 10 by default); the
    draw does not look at anything but the random source (not the result)."""
    assert trigger_threshold(100, DEFAULT) == (100_000, 100_000_000)
    assert trigger_threshold(1000, DEFAULT) == (1_000_000, 100_000_000)
    always = TwisterSettings(jackpot_trigger_ppm_per_100=1_000_000)
    assert trigger_threshold(1000, always) == (100_000_000, 100_000_000)
    hot = TwisterSettings(jackpot_trigger_ppm_per_100=100_000)  # 10% per EUR 1 stake
    rng = random.Random(99)
    hits = sum(d.tier is not None for _ in range(20_000) for d in draw_jackpots(3, 100, hot, rng))
    _s, _d, p = chi_square({1: hits, 0: 60_000 - hits}, {1: Fraction(1, 10), 0: Fraction(9, 10)})
    assert p >= 0.001, hits


def test_r_aog_4_tier_draw_follows_the_tier_weights() -> None:
    """R-AOG-4: a jackpot game awards Power, Extra Power, Super Power or Ultimate Power by the tier weights."""
    always = TwisterSettings(jackpot_trigger_ppm_per_100=1_000_000)
    rng = random.Random(1234)
    counts = dict.fromkeys(TIERS, 0)
    for _ in range(20_000):
        for d in draw_jackpots(3, 100, always, rng):
            assert d.tier is not None
            counts[d.tier] += 1
    probs = {t: Fraction(w, 10_000) for t, w in zip(TIERS, always.jackpot_tier_weights_bp, strict=True)}
    _s, _d, p = chi_square(counts, probs)
    assert p >= 0.001, counts
