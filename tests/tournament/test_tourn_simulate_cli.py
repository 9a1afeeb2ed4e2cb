"""``riverboat tournament simulate`` (issue #11 item 9): one JSON line on stdout with the required fields, the
progress bar on stderr; bad options refused with exit code 2."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from riverboat.cli import app

FIELDS = {"entrants", "finished", "hands", "places", "prize_pool", "paid_total", "overlay", "chips_conserved",
          "max_table_gap_after_balancing", "tables_broken", "moves", "ledger_balanced", "wall_s"}


def test_simulate_mtt_prints_one_json_line_with_every_field() -> None:
    """Issue #11 item 9 / R-TOURN-GEN-5 / R-TOURN-BAL: a 30-entrant PKO MTT simulated to the winner."""
    res = CliRunner().invoke(app, ["tournament", "simulate", "--kind", "mtt", "--entrants", "30", "--seats", "6",
                                   "--game", "holdem", "--structure", "NL", "--pko", "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert FIELDS <= set(out)
    assert out["finished"] and out["entrants"] == 30 and sorted(out["places"]) == sorted(set(out["places"]))
    assert out["chips_conserved"] and out["ledger_balanced"] and out["paid_total"] == out["prize_pool"]
    assert out["max_table_gap_after_balancing"] <= 1 and out["tables_broken"] == 4
    assert out["bounties_paid"] == 30 * 250  # every bounty paid out, the winner's own included (PKO-3 reading)


def test_simulate_refuses_two_knockout_kinds() -> None:
    res = CliRunner().invoke(app, ["tournament", "simulate", "--entrants", "10", "--ko", "--pko", "--json"])
    assert res.exit_code == 2


def test_simulate_refuses_an_unknown_structure_in_one_line() -> None:
    """Found by the outside walk (2026-12-03): ``--structure QQ`` ended in a traceback (``ValueError: 'QQ' is not a
    valid Structure``, from the spec's game list built before its structure was checked)."""
    res = CliRunner().invoke(app, ["tournament", "simulate", "--kind", "sng", "--entrants", "9", "--structure", "QQ",
                                   "--json"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "unknown structure 'QQ'" in res.output and "Traceback" not in res.output
