"""``riverboat simulate`` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from riverboat.cli import app
from riverboat.engine import Hand
from riverboat.verify import randomplay

runner = CliRunner()


def _summary(output: str) -> dict[str, object]:
    return json.loads(output.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("game", "structure", "players"),
    [
        ("holdem", "NL", 6),
        ("omaha_hl", "PL", 8),
        ("stud", "FL", 8),
        ("razz", "FL", 7),
        ("triple_draw_27", "FL", 6),
        ("draw32", "HPL", 5),
        ("soko", "SL", 8),
        ("americana", "NL", 6),
    ],
)
def test_r_allin_simulate_plays_random_hands_and_conserves_chips(
    game: str, structure: str, players: int
) -> None:
    """R-ALLIN-5 / R-POT-1: random legal play of each game; chips conserved after every hand; exit code 0."""
    result = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            game,
            "--structure",
            structure,
            "--players",
            str(players),
            "--hands",
            "40",
            "--seed",
            "7",
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "hands/s" in result.output
    assert "chips conserved after every hand" in result.output
    summary = _summary(result.output)
    assert summary["hands"] == 40 and summary["chips_conserved"] is True and summary["error"] is None
    assert summary["game"] == game and summary["structure"] == structure and summary["players"] == players
    assert isinstance(summary["decisions"], int) and summary["decisions"] > 40


def test_simulate_is_reproducible_with_a_seed() -> None:
    """Same seed, same hands: the deck order and the random actions come from the seeded generator only."""
    args = ["simulate", "-g", "omaha", "-s", "PL", "-p", "4", "-n", "30", "--seed", "11", "--json"]
    first = _summary(runner.invoke(app, args).output)
    second = _summary(runner.invoke(app, args).output)
    for key in ("hands", "decisions", "showdowns", "rebuys", "largest_pot"):
        assert first[key] == second[key]


def test_simulate_default_structure_and_progress_bar() -> None:
    """Without --structure the game's usual structure is used (stud: fixed limit, R-STUD)."""
    result = runner.invoke(app, ["simulate", "--game", "stud", "--hands", "5", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert _summary(result.output)["structure"] == "FL"


def test_r_allin_simulate_exits_non_zero_when_chips_are_not_conserved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hand that loses a chip is reported and the command exits with code 1 (conservation check is real)."""
    real = randomplay.play_random_hand

    def leaky(*args: object, **kwargs: object) -> Hand:
        hand = real(*args, **kwargs)  # type: ignore[arg-type]
        assert hand.result is not None
        first = next(iter(hand.result.stacks))
        hand.result.stacks[first] -= 1
        return hand

    monkeypatch.setattr(randomplay, "play_random_hand", leaky)
    result = runner.invoke(app, ["simulate", "-g", "holdem", "-n", "10", "--seed", "3", "--no-progress"])
    assert result.exit_code == 1
    assert "CHIP CONSERVATION VIOLATED" in result.output
    summary = _summary(result.output)
    assert summary["chips_conserved"] is False and summary["hands"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "backgammon"], "unknown game"),
        (["--game", "draw32", "--players", "9"], "2 to 5 players"),
        (["--game", "razz", "--structure", "NL"], "not played NO_LIMIT"),
        (["--game", "holdem", "--structure", "XL"], "unknown structure"),
        (["--game", "holdem", "--hands", "0"], "hands"),
    ],
)
def test_simulate_rejects_bad_options_with_a_clear_error(args: list[str], message: str) -> None:
    """Bad input gets a clear error (exit code 2) and plays nothing."""
    result = runner.invoke(app, ["simulate", *args, "--no-progress"])
    assert result.exit_code == 2
    assert message in result.output
