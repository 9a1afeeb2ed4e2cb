"""Tournament speed: ``riverboat tournament simulate`` (the real director, tables and store, in-process bots, fake
clock, SQLite in a temporary directory) at 1,000, 10,000 and 100,000 entrants (issue #11).

Run: ``.venv/bin/python bench/tournament.py [--sizes 1000,10000,100000] [--seed 1]``.

Per size: wall time (split into the bots' accounts and registrations, and the play to the winner), hands and hands
per second, hands per store commit (group commit), peak memory (maximum resident set of the simulate process, as
it reports it), the load average at the start and the end, and the balancing cost per elimination: Riverboat's
balancer reads at most ``seats + 1`` buckets per query (``balancing_work_per_elimination``, bucket reads); the peer
is the naive balancer that scans every table after each elimination (``naive_scan_per_elimination``, tables read),
computed on the same run. The goal: a 100,000-
entrant MTT to the winner in under 30 minutes on the 2-core machine, and a balancing cost that does not grow with
the field. The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(entrants: int, seed: int) -> dict[str, object]:
    cmd = [str(Path(sys.executable).parent / "riverboat"), "tournament", "simulate", "--kind", "mtt", "--entrants",
           str(entrants), "--seats", "9", "--game", "holdem", "--structure", "NL", "--seed", str(seed), "--json"]
    load_before = os.getloadavg()[0]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    report = json.loads(out.stdout.strip().splitlines()[-1])
    return {"entrants": entrants, "finished": report["finished"], "wall_s": round(wall, 1),
            "sim_wall_s": report["wall_s"], "setup_s": report["setup_s"], "play_s": report["play_s"],
            "hands": report["hands"], "hands_per_s": report["hands_per_s"],
            "play_hands_per_s": round(report["hands"] / max(report["play_s"], 1e-9), 1),
            "hands_per_commit": report["hands_per_commit"], "peak_rss_mb": report["peak_rss_mb"],
            "balancing_work_per_elimination": report["balancing_work_per_elimination"],
            "naive_scan_per_elimination": report["naive_scan_per_elimination"],
            "max_table_gap_after_balancing": report["max_table_gap_after_balancing"],
            "tables_broken": report["tables_broken"], "moves": report["moves"],
            "chips_conserved": report["chips_conserved"], "seating_ok": report["seating_ok"],
            "places_ok": report["places_ok"], "ledger_balanced": report["ledger_balanced"],
            "payments_are_ledger_entries": report["payments_are_ledger_entries"],
            "paid_total": report["paid_total"], "prize_pool": report["prize_pool"],
            "full_scans": report["full_scans"], "loadavg_1m_start": round(load_before, 2),
            "loadavg_1m_end": report["loadavg_1m"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    results = []
    for n in sorted(int(x) for x in args.sizes.split(",")):
        r = run(n, args.seed)
        print(f"{n:>7} entrants: {r['wall_s']} s (accounts and registration {r['setup_s']} s, play "
              f"{r['play_s']} s), {r['hands']} hands ({r['hands_per_s']}/s overall, {r['play_hands_per_s']}/s "
              f"in play, {r['hands_per_commit']} per commit), balancing {r['balancing_work_per_elimination']} "
              f"bucket reads/elimination vs naive {r['naive_scan_per_elimination']} tables, peak "
              f"{r['peak_rss_mb']} MB, load {r['loadavg_1m_start']} -> {r['loadavg_1m_end']}", flush=True)
        results.append(r)
    print(json.dumps({"bench": "tournament", "results": results}))


if __name__ == "__main__":
    main()
