"""The draws (R-TWIST-3/7/8, R-AOG-2/7/8, R-WILD-3/4): 200,000 seeded draws per table through the production code
path, checked with a chi-square goodness-of-fit test against the normalised table.

Threshold: a table passes when p >= 0.001. The seeds are fixed, so each test computes the same statistic every
run and cannot be flaky; the threshold says how unlikely the observed counts would be if the code drew from the
table, and :func:`test_chi_square_detects_a_table_off_by_one_point` shows that the same test rejects a draw from
a table with one percentage point moved between two rows. Cells whose expected count is below 5 are pooled with
the next row (the usual validity condition of the chi-square approximation): at 200,000 draws that joins the
1000x prize of the EUR 1-20 table (expected 4.0) to the 50x row.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from riverboat.twister import (
    DeckState,
    PrizeRow,
    PrizeTable,
    TwisterError,
    draw_from_deck,
    draw_multiplier,
    load_tables,
    multiplier_at,
    sample_counts,
    table_for,
    uniform_below,
)

from .stats import chi_square

N = 200_000
P_THRESHOLD = 0.001


def _pooled(table: PrizeTable, counts: dict[int, int], n: int) -> tuple[dict[int, int], dict[int, Fraction]]:
    obs: dict[int, int] = {}
    probs: dict[int, Fraction] = {}
    carry_c, carry_p = 0, Fraction(0)
    for r in table.rows:  # highest (rarest) first
        carry_c += counts[r.multiplier]
        carry_p += table.probability(r.multiplier)
        if carry_p * n >= 5:
            obs[r.multiplier], probs[r.multiplier] = carry_c, carry_p
            carry_c, carry_p = 0, Fraction(0)
    assert carry_c == 0 and carry_p == 0
    return obs, probs


@pytest.mark.parametrize(("name", "seed"), [("twister-1-20", 2026), ("twister-50-100", 2027), ("aog", 2028),
                                            ("wild", 2029)])
def test_r_twist_7_r_aog_7_r_wild_3_200000_seeded_draws_fit_the_table(name: str, seed: int) -> None:
    """R-TWIST-7/8, R-AOG-7/8, R-WILD-3: 200,000 draws (seeded) pass a chi-square test at p >= 0.001. For Wild
    Twister these are the first 200,000 cards of a deck cycle (without replacement the counts vary less than
    independent draws, so the test is conservative)."""
    table = next(t for t in load_tables() if t.name == name)
    counts = sample_counts(table, N, random.Random(seed))
    assert sum(counts.values()) == N
    obs, probs = _pooled(table, counts, N)
    stat, dof, p = chi_square(obs, probs)
    print(f"{name}: chi2 = {stat:.3f}, dof = {dof}, p = {p:.4f}, counts = {counts}")
    assert p >= P_THRESHOLD, (name, stat, dof, p, counts)


def test_chi_square_detects_a_table_off_by_one_point() -> None:
    """The test above can fail: draws from the EUR 1-20 table with one point moved from 3x to 2x (21.00% and
    65.41% instead of 22.00% and 64.41%) are rejected far below the threshold."""
    good = table_for("twister", 100)
    rows = list(good.rows)
    rows[-2] = PrizeRow(3, "21.00", 21_000)
    rows[-1] = PrizeRow(2, "65.41", 65_410)
    weights = [r.weight for r in rows]
    wrong = PrizeTable("wrong", "twister", "-", "-", good.buy_ins, tuple(rows),
                       tuple(sum(weights[:i + 1]) for i in range(len(weights))), good.multipliers)
    counts = sample_counts(wrong, N, random.Random(2026))
    _stat, _dof, p = chi_square(*_pooled(good, counts, N))
    assert p < 1e-9


def test_r_wild_4_every_cycle_of_250000_pays_exactly_the_published_counts() -> None:
    """R-WILD-4: the prize deck holds exactly the R-WILD-3 games per cycle of 250,000; two cycles in a row (the
    second one started by the deck itself) each pay exactly 50/450/1,000/10,000/42,500/196,000."""
    table = table_for("wild", 50)
    rng = random.Random(7)
    state = DeckState.fresh(table)
    published = [r.weight for r in table.rows]
    index = {m: i for i, m in enumerate(table.multipliers)}
    for cycle in (1, 2):
        counts = [0] * len(published)
        for position in range(250_000):
            d, state = draw_from_deck(table, state, rng)
            assert (d.cycle, d.position) == (cycle, position)
            counts[index[d.multiplier]] += 1
        assert counts == published
        assert state.remaining == (0,) * len(published) and state.position == 250_000


def test_r_wild_4_the_deck_order_is_random_not_sorted() -> None:
    """R-WILD-4 (shuffled): the 50 top prizes of a cycle are spread over it, not bunched at one end, and two
    seeds give different orders."""
    table = table_for("wild", 50)
    tops = []
    rng = random.Random(11)
    state = DeckState.fresh(table)
    for i in range(250_000):
        d, state = draw_from_deck(table, state, rng)
        if d.multiplier == 100:
            tops.append(i)
    assert len(tops) == 50
    assert tops[0] < 50_000 and tops[-1] > 200_000  # 50 uniform positions: both fail with chance < 1e-4


def test_draw_is_a_pure_function_of_the_random_value() -> None:
    """Audit (issue item 5): the stored random value reproduces the multiplier; the first and last values of each
    row's range select that row."""
    for table in (t for t in load_tables() if t.cycle_games is None):
        start = 0
        for r, end in zip(table.rows, table.cumulative, strict=True):
            assert multiplier_at(table, start) == multiplier_at(table, end - 1) == r.multiplier
            start = end
        d = draw_multiplier(table, random.Random(3))
        assert multiplier_at(table, d.random_value) == d.multiplier and d.random_range == table.total_weight
        with pytest.raises(TwisterError):
            multiplier_at(table, table.total_weight)


def test_uniform_below_is_unbiased_on_a_small_range() -> None:
    """The rejection sampler gives every value below n the same chance (n = 3: 2 bits, value 3 rejected)."""
    rng = random.Random(5)
    counts = [0, 0, 0]
    for _ in range(30_000):
        counts[uniform_below(rng, 3)] += 1
    _stat, _dof, p = chi_square(dict(enumerate(counts)), {i: Fraction(1, 3) for i in range(3)})
    assert p >= P_THRESHOLD
    with pytest.raises(TwisterError):
        uniform_below(rng, 0)


def test_the_default_source_is_the_csprng() -> None:
    """Secrecy: without a seed the draws come from secrets.SystemRandom (the operating system's CSPRNG)."""
    import secrets

    from riverboat.twister import system_source

    assert isinstance(system_source(), secrets.SystemRandom)
