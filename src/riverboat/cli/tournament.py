"""``riverboat tournament``: operator commands for tournaments.

``riverboat tournament compensation FILE.json`` (``-`` reads standard input) prints the compensation of an
interrupted tournament (R-TOURN-INT) as one JSON object and nothing else on stdout: ``{"payouts": {player: int},
"from_pool": int, "from_house": int}`` in minor units. Bad input: a message on stderr, exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

tournament_app = typer.Typer(help="Tournament operator commands (compensation quotes, simulations).",
                             no_args_is_help=True)


@tournament_app.command("compensation")
def compensation(
    file: str = typer.Argument(..., help="a JSON file with the interrupted tournament's state, or - for stdin"),
) -> None:
    """Quote what each remaining player of an interrupted tournament is paid (R-TOURN-INT-2..11)."""
    from riverboat.room.tournament.compensation import CompensationError, CompensationInput, compensate

    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text()
    except OSError as exc:
        typer.echo(f"error: cannot read {file}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        typer.echo(f"error: {file} is not JSON: {exc}", err=True)
        raise typer.Exit(code=2) from None
    try:
        result = compensate(CompensationInput.from_dict(data))
    except CompensationError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo(json.dumps(result.to_dict()))


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
