"""Rake tables (R-RAKE-6, R-RAKE-7, R-RAKE-9, R-RAKE-10) row by row, caps, no flop no drop, play money.

The expected tables below are typed from RULES.md section 22 in its own notation (euro strings), independently
of ``rake_tables.json``; every (row, stakes endpoint, player count) becomes one test case.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from riverboat.room.rake import compute_rake, get_schedule


def cents(euro: str) -> int:
    value = Decimal(euro.replace("€", "")) * 100
    assert value == int(value)
    return int(value)


def big_blinds(blinds: str) -> list[int]:
    """'0.01/0.02 - 0.02/0.05' -> [2, 5]; '3.00/6.00' -> [600] (big blind of each endpoint)."""
    return [cents(part.split("/")[1]) for part in blinds.split(" - ")]


def players(spec: str) -> list[int]:
    lo, _, hi = spec.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


# R-RAKE-6: iPoker Pot-Limit and No-Limit (blinds, players, rake per pot, max rake)
IPOKER_PL_NL = [
    ("0.01/0.02 - 0.02/0.05", "2-10", "0.01 per 0.15", "0.50"),
    ("0.05/0.10", "2", "0.01 per 0.15", "1"),
    ("0.05/0.10", "3-10", "0.01 per 0.15", "2"),
    ("0.10/0.20", "2", "0.01 per 0.20", "1"),
    ("0.10/0.20", "3-10", "0.01 per 0.20", "2"),
    ("0.25/0.50", "2", "0.01 per 0.20", "1"),
    ("0.25/0.50", "3-10", "0.01 per 0.20", "3"),
    ("0.50/1.00", "2", "0.01 per 0.20", "1"),
    ("0.50/1.00", "3-10", "0.01 per 0.20", "4"),
]

# R-RAKE-7: iPoker Limit
IPOKER_LIMIT = [
    ("0.02/0.04 - 0.05/0.10", "2-10", "0.01 per 0.25", "0.04"),
    ("0.10/0.20", "2-10", "0.01 per 0.25", "0.10"),
    ("0.25/0.50 - 0.50/1.00", "2-10", "0.02 per 0.50", "0.40"),
    ("1.00/2.00", "2-10", "0.02 per 0.50", "1.00"),
    ("2.00/4.00", "2", "0.02 per 0.50", "1.00"),
    ("2.00/4.00", "3-4", "0.02 per 0.50", "2.00"),
    ("2.00/4.00", "5-10", "0.02 per 0.50", "3.00"),
    ("3.00/6.00 - 10.00/20.00", "2", "0.40 per 10", "1.00"),
    ("3.00/6.00 - 10.00/20.00", "3-4", "0.40 per 10", "2.00"),
    ("3.00/6.00 - 10.00/20.00", "5-10", "0.40 per 10", "3.00"),
    ("20.00/40.00", "2", "0.75 per 20", "1.00"),
    ("20.00/40.00", "3-4", "0.75 per 20", "2.00"),
    ("20.00/40.00", "5-10", "0.75 per 20", "3.00"),
]

# R-RAKE-9: 002 -- one rule for NL, PL, HPL, FL, SL: 0.01 per 0.20; caps 0.75 / 2.00 / 3.00 for 2 / 3 / 4-10 players
UVS_002 = [("2", "0.75"), ("3", "2.00"), ("4-10", "3.00")]

# R-RAKE-10: 004 -- (structures, stakes as bet limits, rate, cap 2p, cap 3p, cap 4-10p, small pots)
UVS_004 = [
    ("NL PL HPL", None, "0.05 per 1.00", "0.75", "2.00", "3.00", ("4.00", "0.01 per 0.20")),
    ("FL SL", "0.02/0.04 - 0.50/1.00", "0.05 per 1.00", "0.75", "0.75", "1.00", ("2.00", "0.01 per 0.20")),
    ("FL SL", "1.00/2.00", "0.25 per 5.00", "0.75", "0.75", "2.00", None),
    ("FL SL", "2.00/4.00 and higher", "0.50 per 10.00", "0.75", "0.75", "2.00", None),
]


def rate(text: str) -> tuple[int, int]:
    per, _, step = text.partition(" per ")
    return cents(per), cents(step)


def expected(pot: int, per: int, step: int, cap: int) -> int:
    """R-RAKE-4 as written in RULES.md: per_step x floor(total_pot / step), then capped."""
    return min(per * (pot // step), cap)


def _cases_ipoker() -> list[tuple[str, str, int, int, int, int, int]]:
    out = []
    for table, structures in ((IPOKER_PL_NL, ("NL", "PL")), (IPOKER_LIMIT, ("FL",))):
        for blinds, who, rate_text, cap_text in table:
            per, step = rate(rate_text)
            for structure in structures:
                for bb in big_blinds(blinds):
                    for n in players(who):
                        out.append((structure, blinds, bb, n, per, step, cents(cap_text)))
    return out


IPOKER_CASES = _cases_ipoker()


@pytest.mark.parametrize(("structure", "blinds", "bb", "n", "per", "step", "cap"), IPOKER_CASES)
def test_r_rake_6_7_ipoker_row(structure: str, blinds: str, bb: int, n: int, per: int, step: int, cap: int) -> None:
    """R-RAKE-6 / R-RAKE-7: each iPoker row, each stakes endpoint and player count: steps and cap."""
    schedule = get_schedule("ipoker")
    row = schedule.row_for(structure, bb, n)
    assert row is not None, (structure, blinds, n)
    for pot in (step - 1, step, 3 * step + step - 1, 7 * step, cap // per * step - 1, cap // per * step, 10**7):
        got = schedule.rake(structure, bb, n, pot)
        assert got == expected(pot, per, step, cap), (pot, got)
    assert schedule.rake(structure, bb, n, 10**7) == cap
    assert schedule.rake(structure, bb, n, step - 1) == 0


def test_r_rake_6_7_ipoker_every_row_is_tested() -> None:
    """Every data row is reached by some case of the RULES.md transcription (no extra, untested rows)."""
    schedule = get_schedule("ipoker")
    reached = {schedule.row_for(s, bb, n) for s, _b, bb, n, *_ in IPOKER_CASES}
    assert set(schedule.rows) == reached


def test_r_rake_6_literal_examples() -> None:
    """R-RAKE-6: €0.05/€0.10, 6 players: €0.01 per €0.15 -- a €10 pot gives 66 cents; €50 pot hits the €2 cap."""
    s = get_schedule("ipoker")
    assert s.rake("NL", 10, 6, 1000) == 66
    assert s.rake("NL", 10, 6, 5000) == 200
    assert s.rake("NL", 10, 2, 5000) == 100  # heads-up cap €1
    assert s.rake("PL", 100, 9, 10_000) == 400  # €0.50/€1.00, €100 pot, cap €4


@pytest.mark.parametrize(("who", "cap_text"), UVS_002)
@pytest.mark.parametrize("structure", ["NL", "PL", "HPL", "FL", "SL"])
@pytest.mark.parametrize("bb", [2, 50, 1000])
def test_r_rake_9_uvs_002_row(who: str, cap_text: str, structure: str, bb: int) -> None:
    """R-RAKE-9: €0.01 per €0.20 for every structure, cap €0.75 (2), €2.00 (3), €3.00 (4-10 players)."""
    schedule = get_schedule("uvs_002")
    cap = cents(cap_text)
    for n in players(who):
        for pot in (19, 20, 399, 1234, 10**6):
            assert schedule.rake(structure, bb, n, pot) == expected(pot, 1, 20, cap)


def _uvs_004_cases() -> list[tuple[str, int, int, str, str, int, tuple[str, str] | None]]:
    out = []
    for structures, stakes, rate_text, cap2, cap3, cap4, small in UVS_004:
        if stakes is None:
            bbs = [2, 100, 5000]
        elif stakes.endswith("and higher"):
            bbs = [cents(stakes.split()[0].split("/")[0]), 10_000]
        else:  # bet limits: the big blind is the lower limit (R-FL-3 default big_blind = small_bet)
            bbs = [cents(part.split("/")[0]) for part in stakes.split(" - ")]
        for structure in structures.split():
            for bb in bbs:
                for n, cap in [(2, cap2), (3, cap3)] + [(k, cap4) for k in range(4, 11)]:
                    out.append((structure, bb, n, rate_text, stakes or "any", cents(cap), small))
    return out


@pytest.mark.parametrize(("structure", "bb", "n", "rate_text", "stakes", "cap", "small"), _uvs_004_cases())
def test_r_rake_10_uvs_004_row(
    structure: str, bb: int, n: int, rate_text: str, stakes: str, cap: int, small: tuple[str, str] | None
) -> None:
    """R-RAKE-10: each structure/stakes row and player count; small-pot step below its threshold; caps."""
    schedule = get_schedule("uvs_004")
    per, step = rate(rate_text)
    for pot in (19, 20, 199, 200, 399, 400, 419, 999, 1000, 4999, 5000, 12_345, 10**7):
        if small is not None and pot < cents(small[0]):
            s_per, s_step = rate(small[1])
            want = expected(pot, s_per, s_step, cap)
        else:
            want = expected(pot, per, step, cap)
        assert schedule.rake(structure, bb, n, pot) == want, (pot, stakes)


def test_r_rake_10_small_pot_boundary_literal() -> None:
    """R-RAKE-10: NL pot €3.99 -> 19 cents (small step), €4.00 -> 20 cents (main step), €100 -> cap."""
    s = get_schedule("uvs_004")
    assert s.rake("NL", 10, 5, 399) == 19
    assert s.rake("NL", 10, 5, 400) == 20
    assert s.rake("NL", 10, 5, 10_000) == 300
    assert s.rake("FL", 100, 2, 100_000) == 75


def test_r_rake_2_no_flop_no_drop_and_r_gen_3_play_money() -> None:
    """R-RAKE-2: no rake unless the trigger happened; R-GEN-3: play money is never raked."""
    s = get_schedule("ipoker")
    args = dict(structure="NL", big_blind=10, players_dealt=6, pot_total=5000)
    assert compute_rake(s, triggered=False, play_money=False, **args) == 0  # type: ignore[arg-type]
    assert compute_rake(s, triggered=True, play_money=True, **args) == 0  # type: ignore[arg-type]
    assert compute_rake(s, triggered=True, play_money=False, **args) == 200  # type: ignore[arg-type]


def test_r_rake_5_unlisted_stakes_have_no_row() -> None:
    """R-RAKE-5: a table whose stakes are in no row of its room's table is refused when opened (covers False)."""
    s = get_schedule("ipoker")
    assert not s.covers("NL", 15, 6)
    assert s.covers("NL", 20, 10)
    assert get_schedule("none").covers("NL", 15, 6)
