"""The player's statistics (``GET /api/stats``, issue #31 second pass): the store's SQL (``Hands.statistics``: play
counts from the flags written with each hand, the session, the profit per game from a window query) against the
Python it replaced (the last 2,000 hands read with ``Hands.for_player`` and every PHH record parsed:
tests/stats_reference.py, the first pass's code kept verbatim), in the same run on the same database.

Run: ``.venv/bin/python bench/player_stats.py [--hands 3000] [--repeat 5] [--pg URL] [--no-pg]`` from the repository
root (it imports the reference from ``tests``).

Workload: one player and five others; ``--hands`` random hands of every game (60 distinct records written as the
room writes them, the player in each, cycled), two in three settled at a play-money table through the ledger, one
in three recorded as tournament hands; one hand every 40 s, sessions of 200 hands two hours apart. Wall-clock median of ``--repeat`` runs. SQLite on a file
in a temporary directory and, unless ``--no-pg``, PostgreSQL (a scratch schema, dropped afterwards). The last
line printed is one JSON object with every figure; the answer's size (JSON bytes) is printed for both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from pg_schema import scratch_schema  # bench/pg_schema.py (the script's folder is on sys.path)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.history.random_play import random_room_hand  # noqa: E402
from tests.stats_reference import play_stats as old_play_stats  # noqa: E402
from tests.stats_reference import statistics as old_statistics  # noqa: E402

from riverboat.server.player_stats import stats_answer  # noqa: E402
from riverboat.store import Store  # noqa: E402

FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
OLD_SCAN = 2000
SESSION = 200  # hands per session (a pause of two hours between two)


class _Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC) - timedelta(days=30)

    def __call__(self) -> datetime:
        return self.now


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 2)


def _fill(st: Store, clock: _Clock, hands: int) -> int:
    players = [st.accounts.register(f"bs{k}_{uuid.uuid4().hex[:6]}", "correct horse battery").id for k in range(6)]
    me = players[0]
    texts = [h for h in (random_room_hand(i, players) for i in range(300)) if me in h[1]][:60]
    for p in players:
        st.ledger.deposit(p, "PLAY", 10**9, f"dep-{p}")
        st.ledger.buy_in(p, "bench-play", 10**9, f"bi-{p}", currency="PLAY")
    stacks = dict.fromkeys(players, 10**9)
    for i in range(hands):
        clock.now += timedelta(seconds=40 if i % SESSION else 7200)
        phh, changes = texts[i % len(texts)]
        if i % 3 == 0:
            st.hands.record("bench/t1", f"t{i}", dict.fromkeys(changes, 1000), phh, [], changes)
            continue
        st.ledger.start_hand("bench-play", f"h{i}", {p: stacks[p] for p in changes}, currency="PLAY")
        st.ledger.settle_hand("bench-play", f"h{i}", changes, 0, phh)
        for p, c in changes.items():
            stacks[p] += c
    return me


def bench(url: str, hands: int, repeat: int) -> dict[str, Any]:
    clock = _Clock()
    st = Store(url, password_hasher=FAST, clock=clock)
    st.upgrade()
    try:
        me = _fill(st, clock, hands)
        now = clock.now + timedelta(minutes=1)

        def old() -> dict[str, Any]:
            records = st.hands.for_player(me, limit=OLD_SCAN)
            return old_statistics(records, me, now) | {"play": old_play_stats(records, me)}

        def new() -> dict[str, Any]:
            return stats_answer(st.hands.statistics(me, now))

        o, n = old(), new()
        return {"old_hands_counted": o["play"]["hands"] + o["play"]["other_hands"],
                "new_hands_counted": n["play"]["hands"] + n["play"]["other_hands"],
                "old_ms": _median_ms(old, repeat), "new_ms": _median_ms(new, repeat),
                "old_bytes": len(json.dumps(o)), "new_bytes": len(json.dumps(n))}
    finally:
        st.dispose()


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--no-pg", action="store_true")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"hands": args.hands, "old_scan": OLD_SCAN}
    with tempfile.TemporaryDirectory() as tmp:
        out["sqlite"] = bench(f"sqlite:///{Path(tmp) / 'stats.sqlite3'}", args.hands, args.repeat)
    print("SQLite     ", out["sqlite"], flush=True)
    if not args.no_pg:
        with scratch_schema(args.pg, "rb_bench_stats") as (_schema, url):
            out["postgresql"] = bench(url, args.hands, args.repeat)
        print("PostgreSQL ", out["postgresql"])
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
