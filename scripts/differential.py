"""Run the engine-vs-PokerKit differential for many hands (off CI), e.g. a million per variant.

    .venv/bin/python scripts/differential.py --variant NT --hands 1000000 --seed 1
    .venv/bin/python scripts/differential.py --variant all --hands 20000 --seed 1 --workers 2
    .venv/bin/python scripts/differential.py --variant FT --hands 5000 --profile short   # all-in corner cases
    .venv/bin/python scripts/differential.py --variant all --hands 1000 --records   # PokerKit's PHH, replayed

Hands ``seed, seed+1, ...`` of each variant are played on both engines (see ``riverboat.verify.differential``):
same deck order, same random actions, every decision compared, finishing stacks compared. A rich progress bar
shows hands, failures and the rate. Failing hands are printed with their full reproduction (first
``--show`` of them) and written to ``--failures FILE`` (JSON lines) if given. The last line is one JSON summary
object. Exit code 1 if any hand differs in a way that is not a documented difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from riverboat.verify.differential import HandOutcome, play_hand, problem_class
from riverboat.verify.pokerkit_side import VARIANT_CODES
from riverboat.verify.setups import PROFILES

CHUNK = 250


def _chunk(code: str, start: int, count: int, profile: str = "mixed", records: bool = False) -> dict[str, Any]:
    """Play ``count`` hands from seed ``start`` (in a worker process); return counts and failing reproductions.
    ``records``: PokerKit plays alone and writes PHH, the replay reads it (riverboat.verify.pokerkit_records)."""
    import warnings

    warnings.filterwarnings("ignore", module="pokerkit")
    if records:
        return _records_chunk(code, start, count, profile)
    problems: Counter[str] = Counter()
    known: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    decisions = 0
    for seed in range(start, start + count):
        o: HandOutcome = play_hand(code, seed, profile=profile)
        decisions += o.decisions
        known.update(set(o.known))
        if not o.ok:
            problems[problem_class(o.problem)] += 1
            failures.append(
                {
                    "variant": code,
                    "seed": seed,
                    "profile": profile,
                    "problem": o.problem,
                    "reproduction": o.reproduction(),
                }
            )
    return {
        "hands": count,
        "decisions": decisions,
        "problems": problems,
        "known": known,
        "failures": failures,
    }


def _records_chunk(code: str, start: int, count: int, profile: str) -> dict[str, Any]:
    from riverboat.verify.pokerkit_records import check_replay
    from riverboat.verify.setups import VARIANTS

    problems: Counter[str] = Counter()
    known: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    for seed in range(start, start + count):
        c = check_replay(code, seed, profile=profile)
        if c.players > VARIANTS[code].max_players:
            known["(more players than a table seats)"] += 1
        if c.reshuffled:
            known["(PokerKit reshuffled cards out of play)"] += 1
        if c.match:
            continue
        if c.known is not None:
            known[c.known] += 1
            continue
        problems[problem_class(c.problem)] += 1
        failures.append({"variant": code, "seed": seed, "profile": profile, "problem": c.problem,
                         "reproduction": f"{c.problem}\n{c.record}"})
    return {"hands": count, "decisions": 0, "problems": problems, "known": known, "failures": failures}


class Tally:
    """Running totals of one variant, fed by finished chunks."""

    def __init__(self, code: str, console: Console, failure_file: Any, show: int) -> None:
        self.code = code
        self.console = console
        self.failure_file = failure_file
        self.show = show
        self.hands = self.decisions = self.failures = 0
        self.problems: Counter[str] = Counter()
        self.known: Counter[str] = Counter()
        self.started = time.perf_counter()

    def absorb(self, part: dict[str, Any]) -> None:
        self.hands += part["hands"]
        self.decisions += part["decisions"]
        self.failures += len(part["failures"])
        self.problems.update(part["problems"])
        self.known.update(part["known"])
        for f in part["failures"]:
            if self.failure_file is not None:
                self.failure_file.write(json.dumps(f) + "\n")
            if self.show > 0:
                self.console.print(
                    f"[red]difference[/red] {f['variant']} seed {f['seed']}:\n{f['reproduction']}"
                )
                self.show -= 1

    @property
    def rate(self) -> float:
        return self.hands / max(time.perf_counter() - self.started, 1e-9)

    def summary(self) -> dict[str, Any]:
        seconds = time.perf_counter() - self.started
        return {
            "hands": self.hands,
            "decisions": self.decisions,
            "failures": self.failures,
            "problems": dict(self.problems.most_common()),
            "known_differences": dict(self.known.most_common()),
            "seconds": round(seconds, 1),
            "hands_per_s": round(self.hands / seconds, 1) if seconds else None,
        }


def run_variant(code: str, args: argparse.Namespace, tally: Tally) -> None:
    end = args.seed + args.hands
    jobs = [(code, s, min(CHUNK, end - s), args.profile, args.records) for s in range(args.seed, end, CHUNK)]
    columns = (
        TextColumn(f"[bold]{code:6}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("failures {task.fields[failures]}  {task.fields[rate]} hands/s"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=tally.console) as bar:
        task = bar.add_task(code, total=args.hands, failures=0, rate="-")

        def done(part: dict[str, Any]) -> None:
            tally.absorb(part)
            bar.update(task, advance=part["hands"], failures=tally.failures, rate=f"{tally.rate:,.0f}")
            if not tally.console.is_terminal:  # a log file: one line per finished chunk instead of a live bar
                tally.console.print(
                    f"{code}: {tally.hands}/{args.hands} hands, {tally.failures} failures, {tally.rate:,.1f} hands/s"
                )

        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                for fut in as_completed([pool.submit(_chunk, *job) for job in jobs]):
                    done(fut.result())
        else:
            for job in jobs:
                done(_chunk(*job))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine vs PokerKit differential, many hands.")
    parser.add_argument("--variant", default="NT", help=f"one of {', '.join(VARIANT_CODES)}, or 'all'")
    parser.add_argument("--hands", type=int, default=10_000, help="hands per variant")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine has 2 cores)")
    parser.add_argument(
        "--profile",
        default="mixed",
        choices=PROFILES,
        help="stacks: mixed (default) or short (1 chip to 3 big bets)",
    )
    parser.add_argument("--records", action="store_true",
                        help="PokerKit plays each hand alone and writes it as PHH; `riverboat replay` must reach "
                             "its finishing stacks (the known and info counts say how many hands seated more "
                             "players than a table or reshuffled)")
    parser.add_argument("--show", type=int, default=3, help="reproductions to print")
    parser.add_argument("--failures", help="write failing hands as JSON lines to this file")
    args = parser.parse_args(argv)
    codes = list(VARIANT_CODES) if args.variant.lower() == "all" else [args.variant]
    for code in codes:
        if code not in VARIANT_CODES:
            parser.error(f"unknown variant {code!r}; use one of {', '.join(VARIANT_CODES)} or all")
    console = Console(stderr=True)
    results: dict[str, dict[str, Any]] = {}
    failure_file = open(args.failures, "w") if args.failures else None  # noqa: SIM115
    start_all = time.perf_counter()
    show = args.show
    try:
        for code in codes:
            tally = Tally(code, console, failure_file, show)
            run_variant(code, args, tally)
            show = tally.show
            results[code] = tally.summary()
            console.print(f"{code}: {json.dumps(results[code])}")
    finally:
        if failure_file is not None:
            failure_file.close()
    total_failures = sum(r["failures"] for r in results.values())
    summary = {
        "differential": "pokerkit-records-replayed" if args.records else "riverboat-vs-pokerkit",
        "seed": args.seed,
        "profile": args.profile,
        "hands_per_variant": args.hands,
        "total_hands": sum(r["hands"] for r in results.values()),
        "total_failures": total_failures,
        "seconds": round(time.perf_counter() - start_all, 1),
        "variants": results,
    }
    print(json.dumps(summary))
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
