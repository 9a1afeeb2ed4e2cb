"""``riverboat simulate``: play random legal hands of any game and structure, checking chip conservation.

Example: ``riverboat simulate --game holdem --structure NL --players 6 --hands 10000 --seed 1``.
Stacks carry over from hand to hand (busted players buy in again), the button moves, and after every hand the
chips at the table plus the rake must equal the chips before it; a violation stops the run with exit code 1.
Without ``--seed`` the deck is shuffled with the CSPRNG.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

from riverboat.games import GAMES, Structure, get_game

if TYPE_CHECKING:
    from riverboat.verify.randomplay import RandomTable

_STRUCTURES = (
    {s.value: s for s in Structure} | {s.name: s for s in Structure} | {"½PL": Structure.HALF_POT_LIMIT}
)


def _structure(text: str | None, default: Structure) -> Structure:
    if text is None:
        return default
    key = text.strip()
    found = _STRUCTURES.get(key) or _STRUCTURES.get(key.upper())
    if found is None:
        raise typer.BadParameter(f"unknown structure {text!r}; use one of FL, SL, PL, HPL, NL")
    return found


def simulate(
    game: str = typer.Option("holdem", "--game", "-g", help=f"game id: {', '.join(sorted(GAMES))}"),
    structure: str | None = typer.Option(
        None, "--structure", "-s", help="FL, SL, PL, HPL or NL (default: the game's usual structure)"
    ),
    players: int = typer.Option(6, "--players", "-p", min=2, help="players at the table"),
    hands: int = typer.Option(1000, "--hands", "-n", min=1, help="hands to play"),
    seed: int | None = typer.Option(None, "--seed", help="seed for reproducible decks and actions"),
    as_json: bool = typer.Option(False, "--json", help="print only a JSON summary line"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar"),
) -> None:
    """Play random legal hands and check chip conservation after every hand."""
    from riverboat.verify.randomplay import RandomTable

    try:
        g = get_game(game)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0]), param_hint="--game") from None
    st = _structure(structure, g.default_structure)
    rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
    try:
        table = RandomTable(g, st, players, rng)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None

    error: str | None = None
    start = time.perf_counter()
    if progress and not as_json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (
            TextColumn(f"{g.name} {st.label}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task("hands", total=hands)
            error = _play(table, hands, lambda: bar.advance(task))
    else:
        error = _play(table, hands, None)
    seconds = time.perf_counter() - start
    stats = table.stats
    rate = stats.hands / seconds if seconds > 0 else 0.0
    summary = {
        "game": g.id,
        "structure": st.value,
        "players": players,
        "hands": stats.hands,
        "decisions": stats.decisions,
        "showdowns": stats.showdowns,
        "rebuys": stats.rebuys,
        "largest_pot": stats.largest_pot,
        "seconds": round(seconds, 3),
        "hands_per_s": round(rate, 1),
        "seed": seed,
        "chips_conserved": error is None,
        "error": error,
    }
    if not as_json:
        typer.echo(
            f"{g.name} {st.label}, {players} players: {stats.hands} hands in {seconds:.2f} s "
            f"= {rate:,.0f} hands/s ({stats.decisions} decisions, {stats.showdowns} showdowns)"
        )
        typer.echo(
            "chips conserved after every hand" if error is None else f"CHIP CONSERVATION VIOLATED: {error}"
        )
    typer.echo(json.dumps(summary))
    if error is not None:
        raise typer.Exit(code=1)


def _play(table: RandomTable, hands: int, tick: Callable[[], None] | None) -> str | None:
    """Play ``hands`` hands; the conservation error message, or None."""
    from riverboat.verify.randomplay import ConservationError

    for _ in range(hands):
        try:
            table.play_hand()
        except ConservationError as exc:
            return str(exc)
        if tick is not None:
            tick()
    return None


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)
