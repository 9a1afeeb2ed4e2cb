"""``riverboat tournament``: operator commands for tournaments.

``riverboat tournament compensation FILE.json`` (``-`` reads standard input) prints the compensation of an
interrupted tournament (R-TOURN-INT) as one JSON object and nothing else on stdout: ``{"payouts": {player: int},
"from_pool": int, "from_house": int}`` in minor units. Bad input: a message on stderr, exit code 2.

``riverboat tournament simulate --kind mtt|sng --entrants N --seats 9 --game holdem --structure NL [--rebuys]
[--ko|--pko|--bounty] [--seed S] [--database-url URL] --json`` runs the real director, tables and store with
in-process bots on a fake clock, shows a progress bar on stderr and prints one JSON line (see
``riverboat.room.tournament.simulate.SimReport``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from riverboat.room.tournament.simulate import SimReport
    from riverboat.room.tournament.spec import TournamentSpec

tournament_app = typer.Typer(help="Tournament operator commands (compensation quotes, simulations).",
                             no_args_is_help=True)


@tournament_app.command("compensation")
def compensation(
    file: str = typer.Argument(..., help="a JSON file with the interrupted tournament's state, or - for stdin"),
) -> None:
    """Quote what each remaining player of an interrupted tournament is paid (R-TOURN-INT-2..11)."""
    from riverboat.room.tournament.compensation import CompensationError, CompensationInput, compensate

    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot read {file}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    except UnicodeDecodeError:
        typer.echo(f"error: {file} is not JSON: not UTF-8 text", err=True)
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


@tournament_app.command("simulate")
def simulate(
    kind: str = typer.Option("mtt", "--kind", help="mtt or sng"),
    entrants: int = typer.Option(..., "--entrants", min=2, help="number of bot entrants"),
    seats: int = typer.Option(9, "--seats", min=2, help="players per table (a Sit & Go: the field)"),
    game: str = typer.Option("holdem", "--game"),
    structure: str = typer.Option("NL", "--structure"),
    rebuys: bool = typer.Option(False, "--rebuys", help="a re-buy period of 3 levels and an add-on"),
    ko: bool = typer.Option(False, "--ko", help="knockout: 250 of every 1000 buy-in is a bounty"),
    pko: bool = typer.Option(False, "--pko", help="progressive knockout (50% cash, 50% to the own bounty)"),
    bounty: bool = typer.Option(False, "--bounty", help="bounties of 500 on 1% of the players (named)"),
    seed: int = typer.Option(1, "--seed"),
    database_url: str | None = typer.Option(None, "--database-url", help="default: a temporary SQLite file"),
    json_out: bool = typer.Option(False, "--json", help="print the report as one JSON line"),
    check_every: int = typer.Option(0, "--check-every",
                                    help="besides the per-hand checks (O(seats) each), scan every table and stack "
                                         "every N hands (0: every entrants/10 hands)"),
) -> None:
    """Play a whole tournament with bots and report places, prizes, balancing and invariants (issue #11)."""
    import asyncio

    from riverboat.room.errors import RoomError
    from riverboat.room.tournament import simulate as sim

    if kind not in ("mtt", "sng") or sum((ko, pko, bounty)) > 1:
        typer.echo("error: --kind is mtt or sng; at most one of --ko, --pko, --bounty", err=True)
        raise typer.Exit(code=2)
    if kind == "sng":
        seats = entrants
    try:
        spec = sim.default_spec(kind, entrants, seats, game, structure, rebuys=rebuys,
                                ko="pko" if pko else "ko" if ko else None)
    except RoomError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        raise typer.Exit(code=2) from None
    every = check_every or max(1, entrants // 10)
    report = asyncio.run(_simulate(spec, entrants, seed, database_url, every, max(1, entrants // 100)
                                   if bounty else 0))
    out = report.to_dict()
    typer.echo(json.dumps(out) if json_out else json.dumps(out, indent=2))


async def _simulate(spec: TournamentSpec, entrants: int, seed: int, url: str | None, every: int,
                    named: int) -> SimReport:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from riverboat.room.tournament import simulate as sim
    from riverboat.room.tournament.director import Director
    from riverboat.store import Store

    folder = None
    if url is None:
        store, folder = sim.temp_store()
    else:
        store = Store(url)
        store.upgrade()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with Progress(*columns, console=_stderr_console(), transient=False) as bar:
            task = bar.add_task("eliminated", total=entrants - 1)

            def progress(d: Director) -> None:
                bar.update(task, completed=max(0, d.entries - max(1, d.alive)),
                           description=f"hands {d.stats.hands:,} tables {len(d.tables):,}")

            return await sim.run(spec, entrants, store=store, seed=seed, check_every=every, progress=progress,
                                 named=named, tournament_id=f"sim-{seed}-{entrants}-{id(bar) % 10_000}")
    finally:
        if folder is not None:
            sim.remove_store(store, folder)
        else:
            store.dispose()


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
