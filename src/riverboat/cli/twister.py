"""``riverboat twister``: the published odds of the Twister family, drawn with the production code path.

* ``riverboat twister draws --type twister|aog|wild --buy-in MINOR_UNITS --count N [--seed S] [--json]`` draws N
  prizes exactly as the room does (the spin; for Wild Twister a prize deck from a fresh cycle) and prints the
  counts per multiplier and the return to player (prizes over the three buy-ins collected).
* ``riverboat twister audit [--database-url URL] [--json]`` re-derives every prize spin stored in the database
  from its random value and prints the counts per table.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import typer

BIG = 100_000  # counts from here get a progress bar on stderr


def _draws(kind: str, buy_in: int, count: int, seed: int | None) -> dict[str, Any]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from riverboat.twister import SEATS, sample_counts, system_source, table_for

    table = table_for(kind, buy_in)
    rng = random.Random(seed) if seed is not None else system_source()
    progress = Progress(TextColumn("drawing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=Console(stderr=True), transient=True, disable=count < BIG)
    with progress:
        task = progress.add_task("draws", total=count)
        counts = sample_counts(table, count, rng, on_progress=lambda n: progress.advance(task, n))
    paid = sum(m * n for m, n in counts.items())
    return {"type": kind, "buy_in": buy_in, "count": count, "counts": {str(m): n for m, n in counts.items()},
            "return_to_player": paid / (SEATS * count)}


def register(app: typer.Typer) -> None:
    tw = typer.Typer(help="Twister, Age of the Gods Twister and Wild Twister: published odds and audit.",
                     no_args_is_help=True)

    @tw.command("draws")
    def draws(
        kind: str = typer.Option(..., "--type", help="twister, aog or wild"),
        buy_in: int = typer.Option(..., "--buy-in", help="buy-in in minor units (a published one, e.g. 100)"),
        count: int = typer.Option(..., "--count", help="number of prizes to draw"),
        seed: int | None = typer.Option(None, "--seed", help="seed a reproducible generator (default: CSPRNG)"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Draw COUNT prizes with the room's code path and print their frequencies (R-TWIST-7, R-AOG-7, R-WILD-3)."""
        from riverboat.twister import TwisterError, table_for

        if count < 1:
            typer.echo("error: --count must be at least 1", err=True)
            raise typer.Exit(2)
        try:
            out = _draws(kind, buy_in, count, seed)
        except TwisterError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            sys.stdout.write(json.dumps(out) + "\n")
            return
        from rich.console import Console
        from rich.table import Table

        table = table_for(kind, buy_in)
        view = Table(title=f"{count:,} draws: {table.title} ({table.rule})")
        for col in ("multiplier", "prize", "draws", "drawn %", "published %"):
            view.add_column(col, justify="right")
        for r in table.rows:
            n = out["counts"][str(r.multiplier)]
            view.add_row(f"{r.multiplier}x", str(r.multiplier * buy_in), f"{n:,}", f"{100 * n / count:.4f}",
                         r.probability_percent)
        console = Console()
        console.print(view)
        console.print(f"return to player: {out['return_to_player']:.6f} (table: "
                      f"{float(table.return_to_player()):.6f})")

    @tw.command("audit")
    def audit(
        database_url: str | None = typer.Option(
            None, "--database-url", help="SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or the local SQLite file."
        ),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Re-derive every stored spin from its random value; print the drawn counts per table."""
        from riverboat.store import LedgerCorrupt, Store

        store = Store(database_url)
        try:
            report = store.twister.audit()
        except LedgerCorrupt as exc:
            typer.echo(f"audit FAILED: {exc}", err=True)
            raise typer.Exit(1) from None
        finally:
            store.dispose()
        if as_json:
            sys.stdout.write(json.dumps({name: {"draws": r["draws"], "counts": {str(m): n for m, n in
                                                                                 r["counts"].items()}}
                                         for name, r in report.items()}) + "\n")
            return
        for name, r in report.items():
            counts = ", ".join(f"{m}x: {n}" for m, n in r["counts"].items())
            typer.echo(f"{name}: {r['draws']} draws ({counts})")
        typer.echo("audit OK: every stored spin follows its table")

    app.add_typer(tw, name="twister")
