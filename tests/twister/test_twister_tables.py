"""The prize tables as data (R-TWIST-7, R-AOG-7, R-WILD-3), normalised by R-TWIST-8 / R-AOG-8, checked against the
published tables as the rules print them (parsed here independently of prize_tables.json): docs/rules.md part 3,
which carries RULES.md's tables word for word (issue #32, tests/games/test_rules_doc.py), so the check runs in a
clone on its own; $RIVERBOAT_RULES names another copy (e.g. ../shared/RULES.md)."""

from __future__ import annotations

import os
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from riverboat.twister import TwisterError, TwisterSettings, load_tables, split_prize, table_for

RULES = Path(os.environ.get("RIVERBOAT_RULES", Path(__file__).resolve().parents[2] / "docs" / "rules.md"))


def _rules_rows(start: str, stop: str) -> list[list[str]]:
    text = RULES.read_text("utf-8")
    section = text[text.index(start):text.index(stop)]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.strip().startswith("|") and re.match(r"^\d+x?$", cells[0]):
            rows.append(cells)
    return rows


def _published(start: str, stop: str, n_prizes: int) -> list[tuple[int, str, list[int]]]:
    """(multiplier, probability percent, prize per buy-in column in cents) of a RULES.md table."""
    out = []
    for cells in _rules_rows(start, stop):
        prizes = [int(Decimal(c.replace("€", "").replace(",", "")) * 100) for c in cells[1:1 + n_prizes]]
        out.append((int(cells[0].rstrip("x")), cells[-1].rstrip("%"), prizes))
    return out


TWISTER_LOW = ("Buy-ins €1 to €20", "Buy-ins €50 and €100", 5)
TWISTER_HIGH = ("Buy-ins €50 and €100", "- **R-TWIST-8**", 2)
AOG = ("- **R-AOG-7**", "- **R-AOG-8**", 3)


@pytest.mark.parametrize(("name", "where"), [("twister-1-20", TWISTER_LOW), ("twister-50-100", TWISTER_HIGH),
                                             ("aog", AOG)])
def test_r_twist_7_r_aog_7_data_files_hold_exactly_the_published_tables(name: str, where: tuple) -> None:
    """R-TWIST-7 / R-AOG-7: multipliers, probabilities as printed, and every prize of the table equal to
    multiplier x buy-in for the buy-ins the data file lists (the derived multipliers of RULES.md)."""
    table = next(t for t in load_tables() if t.name == name)
    published = _published(*where)
    assert [(r.multiplier, r.probability_percent) for r in table.rows] == [(m, p) for m, p, _ in published]
    for m, _p, prizes in published:
        assert prizes == [m * b for b in table.buy_ins]


def test_r_wild_3_data_file_holds_the_published_games_and_probabilities() -> None:
    """R-WILD-3 / R-WILD-4: games per 250,000-game cycle and the ticket prizes of a EUR 0.50 buy-in."""
    table = table_for("wild", 50)
    rows = _rules_rows("- **R-WILD-3**", "- **R-WILD-4**")
    expected = [(int(c[0]), int(c[2].replace(",", "")), c[4].rstrip("%"), int(Decimal(c[1].lstrip("€")) * 100))
                for c in rows]
    assert [(r.multiplier, r.weight, r.probability_percent, r.multiplier * 50) for r in table.rows] == expected
    assert table.cycle_games == 250_000 == table.total_weight


def test_r_twist_8_r_aog_8_normalisation_uses_the_printed_values_as_integer_weights() -> None:
    """R-TWIST-8 / R-AOG-8 Reading: the printed sums (99.992%, 100.005%, 100.01%) are weights, normalised exactly."""
    low, high, aog = table_for("twister", 100), table_for("twister", 5000), table_for("aog", 100)
    assert (low.published_total_percent, high.published_total_percent, aog.published_total_percent) == (
        Decimal("99.992"), Decimal("100.005"), Decimal("100.01"))
    assert [r.weight for r in low.rows] == [2, 50, 4000, 9530, 22000, 64410] and low.total_weight == 99_992
    assert [r.weight for r in high.rows] == [10, 100, 500, 1500, 15000, 25710, 57185]
    assert high.total_weight == 100_005 and aog.total_weight == 10_001
    assert low.probability(1000) == Fraction(2, 99_992)
    assert sum(low.probability(m) for m in low.multipliers) == 1


def test_r_twist_8_derived_return_to_player() -> None:
    """R-TWIST-8 / R-AOG-8 / R-WILD-4 derived figures: about 2.79x (93%), 2.84x (94.7%), 2.76x (92%), 94%."""
    rtp = {t.name: t.return_to_player() for t in load_tables()}
    assert rtp["twister-1-20"] == Fraction(278_970, 3 * 99_992)  # 0.929974...
    assert rtp["twister-50-100"] == Fraction(284_000, 3 * 100_005)  # 0.946619...
    assert rtp["aog"] == Fraction(27_606, 3 * 10_001)  # 0.920108...
    assert rtp["wild"] == Fraction(94, 100)
    assert round(float(table_for("twister", 100).expected_multiplier()), 2) == 2.79
    assert round(float(table_for("twister", 5000).expected_multiplier()), 2) == 2.84
    assert round(float(table_for("aog", 100).expected_multiplier()), 2) == 2.76


def test_r_twist_10_the_default_threshold_splits_exactly_the_listed_prizes() -> None:
    """R-TWIST-10: at EUR 1000 or more (80/10/10) are the 1000x prize at every buy-in, 50x at EUR 20, 100x at
    EUR 50 and EUR 100, and 10x at EUR 100; R-AOG-8 reading: the AoG 100x at EUR 10 too."""
    s = TwisterSettings()
    split = set()
    for kind in ("twister", "aog", "wild"):
        for t in (t for t in load_tables() if t.kind == kind):
            for b in t.buy_ins:
                for m in t.multipliers:
                    if len(split_prize(m * b, *s.split_for(kind))) > 1:
                        split.add((kind, b, m))
    expected = {("twister", b, 1000) for b in (100, 200, 500, 1000, 2000, 5000, 10000)}
    expected |= {("twister", 2000, 50), ("twister", 5000, 100), ("twister", 10000, 100), ("twister", 10000, 10),
                 ("aog", 1000, 100)}
    assert split == expected
    no_aog = TwisterSettings(split_applies_to_aog=False)
    assert split_prize(100_000, *no_aog.split_for("aog")) == (100_000,)


def test_r_twist_5_split_is_exact_in_minor_units_and_the_winner_gets_the_remainder() -> None:
    """R-TWIST-5: 80/10/10 of an integer prize; places 2 and 3 get the floor, the winner the rest."""
    assert split_prize(100_000, 100_000, (8000, 1000, 1000)) == (80_000, 10_000, 10_000)
    assert split_prize(99_999, 100_000, (8000, 1000, 1000)) == (99_999,)
    assert split_prize(100_009, 100_000, (8000, 1000, 1000)) == (80_009, 10_000, 10_000)
    assert split_prize(200_005, 1, (7000, 2000, 1000)) == (140_004, 40_001, 20_000)
    for bad in ((8000, 1000), (8000, 1000, 1000, 0), (10_000, 0)):
        with pytest.raises(TwisterError):
            split_prize(100_000, 1, bad)


def test_unpublished_buy_ins_and_unknown_types_are_refused() -> None:
    """R-TWIST-7: odds exist only for the published buy-ins; anything else is a clear error."""
    with pytest.raises(TwisterError, match="published buy-ins: 100, 200, 500, 1000, 2000, 5000, 10000"):
        table_for("twister", 300)
    with pytest.raises(TwisterError, match="one of twister, aog, wild"):
        table_for("spin", 100)
    assert table_for("aog", 1000).name == "aog"


def test_settings_refuse_unfunded_tiers_and_bad_splits() -> None:
    """Issue #12: every jackpot tier must get a share and be winnable; R-WILD-5 types must exist."""
    with pytest.raises(TwisterError, match="every tier funded"):
        TwisterSettings(jackpot_tier_shares_bp=(5000, 5000, 0, 0))
    with pytest.raises(TwisterError, match="every tier funded"):
        TwisterSettings(jackpot_tier_weights_bp=(9000, 1000, 0, 0))
    with pytest.raises(TwisterError):
        TwisterSettings(split_bp=(9000, 500))
    with pytest.raises(TwisterError, match="enabled_kinds"):
        TwisterSettings(enabled_kinds=("twister", "spin"))
    assert TwisterSettings.from_dict({"enabled_kinds": ["twister", "wild"]}).enabled_kinds == ("twister", "wild")
    with pytest.raises(TwisterError, match="unknown"):
        TwisterSettings.from_dict({"jackpot": 1})
