"""The integrity detectors on a large simulated population (docs/integrity.md; the small version is
tests/integrity/test_integrity_simulation.py).

    .venv/bin/python scripts/integrity_simulation.py --players 40 --sessions 250 --seed 1 --save /tmp/sim1.phhs
    .venv/bin/python scripts/integrity_simulation.py --load /tmp/sim1.phhs --seed 1     # re-scan saved hands

Planted pairs dump chips or soft-play at several strengths (the share of their hands together in which they
cheat); two honest pairs of friends sit together as often as the planted pairs; everyone else is an honest
StrengthBot. Prints the precision and recall on the planted pairs and the false positives among honest pairs, per
strength, as one JSON line at the end (``--quiet``: only that line).
"""

from __future__ import annotations

import argparse
import json
import time

from rich.progress import Progress

from riverboat.bots.collusion import Plant, Population, simulate
from riverboat.bots.collusion_eval import evaluate
from riverboat.history import dumps_many, load
from riverboat.integrity import ScanConfig, hand_facts, scan_full

STRENGTHS = (0.25, 0.5, 1.0)


def plants_and_friends(strengths: tuple[float, ...]) -> tuple[list[Plant], tuple[tuple[str, str], ...]]:
    plants: list[Plant] = []
    k = 0
    for mode in ("dump", "soft"):
        for s in strengths:
            plants.append(Plant(f"bot{k:02d}", f"bot{k + 1:02d}", mode, s))
            k += 2
    friends = ((f"bot{k:02d}", f"bot{k + 1:02d}"), (f"bot{k + 2:02d}", f"bot{k + 3:02d}"))
    return plants, friends


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--sessions", type=int, default=250)
    ap.add_argument("--hands-per-session", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="holdem")
    ap.add_argument("--strengths", default=",".join(str(s) for s in STRENGTHS))
    ap.add_argument("--min-hands", type=int, default=30)
    ap.add_argument("--save", help="write the simulated hands to this .phhs file")
    ap.add_argument("--load", help="scan these saved hands instead of simulating (same --strengths)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    plants, friends = plants_and_friends(tuple(float(x) for x in args.strengths.split(",")))
    pop = Population(players=args.players, plants=tuple(plants), sessions=args.sessions,
                     hands_per_session=args.hands_per_session, seed=args.seed, friends=friends, game=args.game)
    start = time.perf_counter()
    if args.load:
        records = load(args.load)
    else:
        total = args.sessions * args.hands_per_session
        with Progress(transient=True) as bar:
            task = bar.add_task("hands", total=total)
            records = list(simulate(pop, lambda: bar.advance(task)))
        if args.save:
            with open(args.save, "w", encoding="utf-8") as fh:
                fh.write(dumps_many(r.fields for r in records))
    played = time.perf_counter() - start
    start = time.perf_counter()
    result = scan_full((hand_facts(r) for r in records), ScanConfig(min_hands=args.min_hands))
    scanned = time.perf_counter() - start
    ev = evaluate(result.flags, plants, result.tested_pairs, friends)
    if not args.quiet:
        for f in result.flags:
            print(json.dumps({k: v for k, v in f.to_dict().items() if k not in ("evidence", "reasons")}))
    summary = {"game": args.game, "hands": result.hands, "players": result.players,
               "tested_pairs": len(result.tested_pairs), "seed": args.seed, "simulate_s": round(played, 1),
               "scan_s": round(scanned, 1),
               "hands_per_s_scan": round(result.hands / scanned, 1) if scanned else None} | ev.to_dict()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
