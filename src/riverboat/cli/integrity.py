"""``riverboat integrity scan``: look for collusion, chip dumping, soft play and artificial all-in abuse
(R-INTEG-2..8, R-AAI-3) in PHH files or in the room's database; docs/integrity.md.

    riverboat integrity scan session1.phhs session2.phhs --min-hands 50 --json
    riverboat integrity scan --database-url postgresql+psycopg://... --json

Players are the PHH ``players`` names (the room writes player ids). With ``--json`` every flagged pair is one JSON
object per line, most suspicious first: ``{"players": [a, b], "pattern": ..., "score": ..., "hands": n,
"evidence": [hand ids]}`` (``--detail`` adds the p-value and the counts). A progress bar goes to stderr.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import typer

from riverboat.integrity import FactsError, Flag, HandFacts, ScanConfig, facts_from_text, hand_facts, scan


def _file_facts(files: list[Path], skipped: list[str]) -> tuple[int, Iterator[HandFacts]]:
    from riverboat.history import PhhError, load

    records = []
    for path in files:
        try:
            records.extend(load(path))
        except PhhError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None

    def gen() -> Iterator[HandFacts]:
        for r in records:
            try:
                yield hand_facts(r)
            except FactsError as exc:
                skipped.append(str(exc))

    return len(records), gen()


def _db_facts(url: str, skipped: list[str], devices: dict[str, set[str]]
              ) -> tuple[int, Iterator[HandFacts], Callable[[], None]]:
    from riverboat.store import Store

    store = Store(url)
    total = store.hands.count()
    devices.update(store.integrity.addresses())  # the multi-accounting signal (R-INTEG-7)

    def gen() -> Iterator[HandFacts]:
        for rec in store.hands.iter_all():
            if not rec.phh:
                continue
            try:
                yield facts_from_text(rec.phh, f"{rec.table_id}/{rec.hand_id}",
                                    f"{rec.table_id}@{rec.started_at.date().isoformat()}")
            except FactsError as exc:
                skipped.append(str(exc))

    return total, gen(), store.dispose


def _print(flags: list[Flag], as_json: bool, detail: bool) -> None:
    for f in flags:
        if as_json:
            d = dict(f.to_dict())
            if not detail:
                d = {k: d[k] for k in ("players", "pattern", "score", "hands", "evidence")}
            typer.echo(json.dumps(d))
        else:
            typer.echo(f"{f.score:.4f}  {f.pattern:<24} {' / '.join(f.players):<32} {f.hands:>6} hands  "
                       f"evidence: {', '.join(f.evidence[:5])}{' ...' if len(f.evidence) > 5 else ''}")


def integrity_scan(
    files: list[Path] = typer.Argument(None, help="PHH files (.phh, .phhs) to scan"),
    database_url: str | None = typer.Option(None, "--database-url", help="scan the room's database (SQLAlchemy URL)"),
    min_hands: int = typer.Option(30, "--min-hands", min=1, help="shared hands before a pair is tested"),
    alpha: float = typer.Option(0.01, "--alpha", min=1e-12, max=0.5, help="false discovery rate per pattern"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per flag"),
    detail: bool = typer.Option(False, "--detail", help="with --json: add p_value and the counts behind a flag"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="progress bar on stderr"),
) -> None:
    """Flag pairs of players (and single players) whose play together is far beyond chance."""
    if not files and database_url is None:
        raise typer.BadParameter("give PHH files or --database-url")
    skipped: list[str] = []
    devices: dict[str, set[str]] = {}
    close: Callable[[], None] = lambda: None  # noqa: E731
    if database_url is not None:
        total, facts, close = _db_facts(database_url, skipped, devices)
        if files:
            n, more = _file_facts(list(files), skipped)
            total, facts = total + n, _chain(facts, more)
    else:
        total, facts = _file_facts(list(files), skipped)
    cfg = ScanConfig(min_hands=min_hands, alpha=alpha)
    try:
        if progress:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (TextColumn("integrity scan"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
            with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("hands", total=total)
                flags = scan(facts, cfg, devices=devices, progress=lambda: bar.advance(task))
        else:
            flags = scan(facts, cfg, devices=devices)
    finally:
        close()
    if skipped:
        typer.echo(f"skipped {len(skipped)} unusable record(s); first: {skipped[0]}", err=True)
    _print(flags, as_json, detail)


def _chain(a: Iterator[HandFacts], b: Iterator[HandFacts]) -> Iterator[HandFacts]:
    yield from a
    yield from b


def register(app: typer.Typer) -> None:
    integrity_app = typer.Typer(help="Integrity: collusion, chip dumping, soft play (R-INTEG).", no_args_is_help=True)
    integrity_app.command("scan")(integrity_scan)
    app.add_typer(integrity_app, name="integrity")
