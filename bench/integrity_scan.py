"""The integrity scan of a room that has dealt a million hands (issue #34): how long a full re-scan of the database
takes, how much memory it holds, and what one incremental scan of the newest hands costs.

    .venv/bin/python bench/integrity_scan.py --hands 1000000 --db /tmp/integrity-1m.sqlite3 \
        --templates /tmp/sim1.phhs [--players 3000]

Building the database: the engine deals about 50-100 simulated hands a second on this machine, so a million
engine hands would take hours. The database is filled instead from **templates**: hands the simulation played
(``scripts/integrity_simulation.py --save``), each copy with a fresh random relabelling of the 52 cards (a
bijection, so the record stays consistent: the same cards are dealt, shown and on the board; equities are new for
every hand, as in a real room, not answered from the cache), new players drawn from a pool (``--players``; the
same six for a table session of 40 hands) and a new table, written with the room's PHH text into the ``hands``
table by plain ``sqlite3`` inserts (the scan reads only that table). The money and the actions are the template's.

The scan is ``store.integrity.scan`` (what ``riverboat integrity scan --database-url`` and the server's
scheduled scan run), in this process: full (every hand, counts from nothing) and then incremental (the stored
counts, and only the hands added since: ``--increment`` more). Wall-clock times and the process's peak memory
(``ru_maxrss``) are printed, with the load average, as one JSON line at the end: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import sqlite3
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from riverboat.cards import Card
from riverboat.history import dumps, load
from riverboat.integrity import ScanConfig
from riverboat.store import Store

CARD = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")
NAMES = [str(Card(c)) for c in range(52)]


def _relabel(actions: list[str], perm: list[int], code: dict[str, int]) -> list[str]:
    def sub(m: re.Match[str]) -> str:
        t = m.group(1)
        return "".join(NAMES[perm[code[t[i:i + 2]]]] for i in range(0, len(t), 2))

    return [CARD.sub(sub, a) if a.startswith("d ") or " sm " in a else a for a in actions]


def build(db: Path, n: int, templates: list[dict[str, object]], players: int, seed: int, start: int = 0) -> float:
    """Append ``n`` hands (numbered from ``start``) to the database; seconds taken."""
    t0 = time.perf_counter()
    rng = random.Random(seed + start)
    code = {name: i for i, name in enumerate(NAMES)}
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    now = datetime(2026, 12, 6, tzinfo=UTC).isoformat(sep=" ")
    rows = []
    seated: list[str] = []
    for i in range(start, start + n):
        tpl = templates[i % len(templates)]
        seats = len(tpl["starting_stacks"])  # type: ignore[arg-type]
        if i % 40 == 0 or len(seated) < seats:
            seated = [str(p) for p in rng.sample(range(1, players + 1), 9)]
        perm = list(range(52))
        rng.shuffle(perm)
        fields = dict(tpl)
        fields["players"] = seated[:seats]
        fields["table"] = f"T{i // 40}"
        fields["hand"] = str(i % 40 + 1)
        fields["actions"] = _relabel(tpl["actions"], perm, code)  # type: ignore[arg-type]
        rows.append((fields["table"], fields["hand"], None, "recorded", now, now, 0, dumps(fields), "[]"))
        if len(rows) >= 20_000:
            _insert(con, rows)
            rows = []
    _insert(con, rows)
    con.close()
    return time.perf_counter() - t0


def _insert(con: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    con.executemany("INSERT INTO hands (table_id, hand_id, currency, status, started_at, ended_at, rake, phh, events)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    con.commit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--increment", type=int, default=10_000, help="hands added before the incremental scan")
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--templates", type=Path, nargs="+", required=True)
    ap.add_argument("--players", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reuse", action="store_true", help="the database is already built: scan only")
    ap.add_argument("--build-only", action="store_true", help="build the database and stop (scan later: --reuse)")
    args = ap.parse_args()
    url = f"sqlite:///{args.db}"
    out: dict[str, object] = {"hands": args.hands, "players": args.players}
    if not args.reuse:
        templates = [r.fields for path in args.templates for r in load(path)]
        if args.db.exists():
            args.db.unlink()
        with Store(url) as store:
            store.upgrade()
        out["build_s"] = round(build(args.db, args.hands, templates, args.players, args.seed), 1)
        print(json.dumps({"built": args.hands, "build_s": out["build_s"]}), file=sys.stderr, flush=True)
        out["db_mb"] = round(args.db.stat().st_size / 1e6)
        if args.build_only:
            print(json.dumps(out))
            return
    cfg = ScanConfig()
    with Store(url) as store:
        t0, c0 = time.perf_counter(), time.process_time()
        seen = [0]

        def tick() -> None:
            seen[0] += 1
            if seen[0] % 50_000 == 0:
                print(json.dumps({"scanned": seen[0], "wall_s": round(time.perf_counter() - t0, 1),
                                  "cpu_s": round(time.process_time() - c0, 1), "load": os.getloadavg()[0],
                                  "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}),
                      file=sys.stderr, flush=True)

        full = store.integrity.scan(cfg, incremental=True, progress=tick)  # from nothing: every hand, counts stored
        out["full_scan_s"] = round(time.perf_counter() - t0, 1)
        out["full_scan_cpu_s"] = round(time.process_time() - c0, 1)
        out["full_hands"] = full.read
        out["flags"] = len(full.result.flags)
        out["pairs_tested"] = len(full.result.tested_pairs)
        out["peak_rss_mb_after_full"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        out["load_after_full"] = os.getloadavg()[0]
        # the templates are read only now, so the peak memory of the full scan is the scan's own
        templates = [r.fields for path in args.templates for r in load(path)]
        out["add_s"] = round(build(args.db, args.increment, templates, args.players, args.seed, start=args.hands), 1)
        t0, c0 = time.perf_counter(), time.process_time()
        inc = store.integrity.scan(cfg, incremental=True)
        out["incremental_scan_s"] = round(time.perf_counter() - t0, 1)
        out["incremental_scan_cpu_s"] = round(time.process_time() - c0, 1)
        out["incremental_hands"] = inc.read
        out["state_mb"] = round(len(store.integrity.scan_state()[1].to_bytes()) / 1e6, 1)  # type: ignore[union-attr]
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    out["load_end"] = os.getloadavg()[0]
    out["hands_per_s_full"] = round(full.read / max(float(str(out["full_scan_s"])), 1e-9))
    out["hands_per_cpu_s_full"] = round(full.read / max(float(str(out["full_scan_cpu_s"])), 1e-9))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
