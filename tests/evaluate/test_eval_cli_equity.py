"""The ``riverboat equity`` command: exact and Monte Carlo output, JSON, and clear errors with exit code 2."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from riverboat.cli import app

runner = CliRunner()


def test_equity_command_exact_preflop() -> None:
    r = runner.invoke(app, ["equity", "AhKh", "QsQd"])
    assert r.exit_code == 0, r.output
    assert "46.2145%" in r.output and "53.7855%" in r.output and "1,712,304 boards" in r.output


def test_equity_command_json_with_board_and_dead_cards() -> None:
    r = runner.invoke(app, ["equity", "AhKh", "QsQd", "--board", "Qh7c2d", "--dead", "3s", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["exact"] is True and data["boards"] == 45 * 44 // 2 - 44
    assert [p["hand"] for p in data["players"]] == ["AhKh", "QsQd"]
    assert abs(sum(p["equity"] for p in data["players"]) - 1) < 1e-12


def test_equity_command_monte_carlo_with_seed_is_reproducible() -> None:
    args = [
        "equity",
        "AhKhQd2c",
        "JsTs9h8h",
        "--game",
        "omaha-hl",
        "--trials",
        "5000",
        "--seed",
        "4",
        "--json",
    ]
    a, b = runner.invoke(app, args), runner.invoke(app, args)
    assert a.exit_code == 0 and a.output == b.output
    assert json.loads(a.output)["exact"] is False


def test_equity_command_bad_card_exits_2_with_message() -> None:
    r = runner.invoke(app, ["equity", "AhKx", "QsQd"])
    assert r.exit_code == 2
    assert "not a card" in r.output and "Traceback" not in r.output


def test_equity_command_duplicate_and_bad_game_exit_2() -> None:
    dup = runner.invoke(app, ["equity", "AhKh", "AhQd"])
    assert dup.exit_code == 2 and "duplicate card: Ah" in dup.output
    game = runner.invoke(app, ["equity", "AhKh", "QsQd", "--game", "stud"])
    assert game.exit_code == 2 and "unknown game" in game.output
