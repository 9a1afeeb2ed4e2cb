"""``riverboat replay FILE...``: replay PHH hands through the engine and check the finishing stacks."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from riverboat.history.phh import PhhError, load
from riverboat.history.replay import ReplayResult, replay


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in (".phh", ".phhs") and q.is_file()))
        else:
            out.append(p)
    return out


def run_replay(paths: list[Path], as_json: bool, summary: bool) -> int:
    """Replay every hand; returns the exit code (1 if any hand does not match or cannot be replayed).

    Records of games Riverboat does not deal (PHH ``FB``, badugi) are reported as skipped, not as mismatches."""
    total = matched = skipped = unchecked = 0
    failures: list[ReplayResult] = []
    skips: list[ReplayResult] = []
    by_variant: dict[str, list[int]] = {}  # variant -> [hands, matches, skipped]
    for path in _files(paths):
        try:
            records = load(path)
        except PhhError as exc:
            results = [ReplayResult(str(path), 0, "", False, None, None, str(exc))]
        else:
            results = [replay(r) for r in records]
        for res in results:
            if res.unsupported:
                skipped += 1
                skips.append(res)
            else:
                total += 1
                matched += res.match
                unchecked += not res.checked
            tally = by_variant.setdefault(res.variant or "?", [0, 0, 0])
            tally[0] += 1
            tally[1] += res.match
            tally[2] += res.unsupported
            if not res.match and not res.unsupported:
                failures.append(res)
            if summary:
                continue
            if as_json:
                typer.echo(json.dumps(res.to_dict()))
            else:
                status = "match" if res.match else ("SKIPPED" if res.unsupported else "MISMATCH")
                line = f"{res.file}#{res.index} {res.variant}: {status} {res.finishing_stacks}"
                if not res.variant and res.error:  # the file itself could not be read: no hand, no stacks
                    line = f"ERROR {res.error}"  # the message names the file
                elif not res.match:
                    line += f" expected {res.expected}" + (f" error: {res.error}" if res.error else "")
                typer.echo(line)
    if summary:
        for variant, (n, ok, skip) in sorted(by_variant.items()):
            typer.echo(f"{variant:8s} {n} skipped (not a Riverboat game)" if skip == n else f"{variant:8s} {ok}/{n} match")
        for res in failures:
            if not res.variant and res.error:
                typer.echo(f"ERROR {res.error}")
            else:
                typer.echo(f"MISMATCH {res.file}#{res.index} {res.variant}: {res.error or res.finishing_stacks}")
        for res in skips:
            typer.echo(f"SKIPPED {res.file}#{res.index}: {res.error}")
        typer.echo(f"total: {matched}/{total} hands match, {total - matched} mismatches, "
                   f"{skipped} skipped (games Riverboat does not deal), {unchecked} without a recorded result")
    return 0 if matched == total and total else 1


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_cmd(
        files: list[Path] = typer.Argument(..., help="PHH files (.phh, .phhs) or folders of them"),  # noqa: B008
        as_json: bool = typer.Option(False, "--json", help="one JSON object per hand"),
        summary: bool = typer.Option(False, "--summary", help="print totals per variant and the mismatches"),
    ) -> None:
        """Replay PHH hands through the engine; exit code 1 on any mismatch or error."""
        code = run_replay(files, as_json, summary)
        raise typer.Exit(code)
