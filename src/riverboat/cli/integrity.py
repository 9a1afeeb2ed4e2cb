"""``riverboat integrity scan``: look for chip dumping, soft play, collusion and artificial all-in abuse
(R-INTEG-2..8, R-AAI-3) in PHH files or in the room's database; docs/integrity.md.

    riverboat integrity scan session1.phhs session2.phhs --min-hands 50 --json
    riverboat integrity scan --database-url postgresql+psycopg://... --json [--incremental]

Players are the PHH ``players`` names; in the room's database (which records player ids) they are shown by username
and alias. With ``--json`` every flag is one JSON object per line, most suspicious first: ``{"players": [a, b],
"pattern": ..., "score": ..., "hands": n, "why": "...", "evidence": [hand ids]}`` (``--detail`` adds what happened
in each evidence hand, the p-value and the counts). A progress bar goes to stderr. ``--incremental`` (database
only) starts from the counts the last incremental scan stored and reads only the hands recorded since, then stores
the counts again: the scheduled scan of the server does the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer

from riverboat.integrity import FactsError, Flag, HandFacts, ScanConfig, hand_facts, plain, scan_full


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


def _with_bar(total: int, show: bool, work: Callable[[Callable[[], None] | None], Any]) -> Any:
    if not show:
        return work(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("integrity scan"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("hands", total=total)
        return work(lambda: bar.advance(task))


def _scan_database(url: str, cfg: ScanConfig, incremental: bool, progress: bool
                   ) -> tuple[list[Flag], dict[str, tuple[str, str | None]], int]:
    from riverboat.store import Store

    store = Store(url)
    try:
        total = store.integrity.pending_hands() if incremental else store.hands.count()
        run = _with_bar(total, progress, lambda tick: store.integrity.scan(cfg, incremental=incremental,
                                                                         progress=tick))
        accounts = store.integrity.accounts_of({p for f in run.result.flags for p in f.players})
        return run.result.flags, accounts, run.skipped
    finally:
        store.dispose()


def _print(flags: list[Flag], accounts: dict[str, tuple[str, str | None]], as_json: bool, detail: bool) -> None:
    names = {pid: f"{u} ({a})" if a and a != u else u for pid, (u, a) in accounts.items()}
    for raw in flags:
        f = raw.renamed({pid: u for pid, (u, _) in accounts.items()})
        if as_json:
            d: dict[str, Any] = dict(f.to_dict())
            if accounts:
                d["aliases"] = [accounts[p][1] if p in accounts else None for p in raw.players]
                d["player_ids"] = list(raw.players)
            if not detail:
                d = {k: d[k] for k in ("players", "aliases", "pattern", "score", "hands", "why", "evidence") if k in d}
            typer.echo(json.dumps(d))
        else:
            shown = raw.renamed(names)
            typer.echo(f"{f.score:.4f}  {f.pattern:<24} {' / '.join(shown.players):<40} {f.hands:>6} hands")
            typer.echo(f"        why: {plain(shown.why)}")
            for hand, why in list(zip(f.evidence, shown.reasons or [""] * len(f.evidence), strict=False))[:5]:
                typer.echo(f"        {hand}{': ' + plain(why) if why else ''}")


def integrity_scan(
    files: list[Path] = typer.Argument(None, help="PHH files (.phh, .phhs) to scan"),
    database_url: str | None = typer.Option(None, "--database-url", help="scan the room's database (SQLAlchemy URL)"),
    incremental: bool = typer.Option(False, "--incremental", help="database: only the hands since the last "
                                     "incremental scan, then store the counts"),
    min_hands: int = typer.Option(30, "--min-hands", min=1, help="shared hands before a pair is tested"),
    alpha: float = typer.Option(0.01, "--alpha", min=1e-12, max=0.5, help="false discovery rate per pattern"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per flag"),
    detail: bool = typer.Option(False, "--detail", help="with --json: add reasons, p_value and the counts"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="progress bar on stderr"),
) -> None:
    """Flag pairs of players (and single players) whose play together is far beyond chance."""
    if not files and database_url is None:
        raise typer.BadParameter("give PHH files or --database-url")
    if files and database_url is not None:
        raise typer.BadParameter("give PHH files or --database-url, not both")
    if incremental and database_url is None:
        raise typer.BadParameter("--incremental needs --database-url (the counts are kept in the database)")
    cfg = ScanConfig(min_hands=min_hands, alpha=alpha)
    accounts: dict[str, tuple[str, str | None]] = {}
    if database_url is not None:
        flags, accounts, n_skipped = _scan_database(database_url, cfg, incremental, progress)
        if n_skipped:
            typer.echo(f"skipped {n_skipped} void or unusable record(s)", err=True)
    else:
        skipped: list[str] = []
        total, facts = _file_facts(list(files), skipped)
        flags = _with_bar(total, progress, lambda tick: scan_full(facts, cfg, progress=tick)).flags
        if skipped:
            typer.echo(f"skipped {len(skipped)} unusable record(s); first: {skipped[0]}", err=True)
    _print(flags, accounts, as_json, detail)


def register(app: typer.Typer) -> None:
    integrity_app = typer.Typer(help="Integrity: collusion, chip dumping, soft play (R-INTEG).", no_args_is_help=True)
    integrity_app.command("scan")(integrity_scan)
    app.add_typer(integrity_app, name="integrity")
