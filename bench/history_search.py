"""The hand-history search (issue #31): the store's SQL query (``Hands.search``) against the Python filter it
replaced (the player's last 2,000 hands read with ``Hands.for_player`` and filtered by parsing each record), in
the same run on the same database; and the price on the write path (``search_keys``: the game and stakes read
from each hand's PHH text when it is written).

Run: ``.venv/bin/python bench/history_search.py [--hands 3000] [--repeat 7] [--pg URL] [--no-pg]``.

Workload: one player with ``--hands`` hands (NL hold'em at two stakes, some stud; half won, half lost) written
with ``Hands.record``; each query asks for the first page (50) of ``game=holdem, stakes=20, result=won`` and of
no filter, page 20 (offset 1,000). Wall-clock median of ``--repeat`` runs per query. SQLite on a file in a
temporary directory and, unless ``--no-pg``, PostgreSQL (a scratch schema, dropped afterwards). The old filter
sees only the last 2,000 hands (what it could answer), the new query every hand. The last line printed is one
JSON object with every figure.
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
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from pg_schema import scratch_schema  # bench/pg_schema.py (the script's folder is on sys.path)
from riverboat.history.keys import search_keys
from riverboat.server import hand_views
from riverboat.store import Store
from riverboat.store.hands import HandFilter, HandRecord

FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
NT = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [{sb}, {bb}]\nmin_bet = {bb}\n'
      'starting_stacks = [1500, 1500]\nseats = [1, 2]\nplayers = ["{a}", "{b}"]\n'
      'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p1 cbr 60", "p2 cc", "d db 2h3h4h", "p1 cbr 100", "p2 f"]\n')
STUD = ('variant = "F7S"\nantes = [10, 10]\nbring_in = 25\nsmall_bet = 100\nbig_bet = 200\n'
        'starting_stacks = [1500, 1500]\nactions = ["d dh p1 AcAd2c", "d dh p2 KcKd3c", "p2 pb", "p1 f"]\n')
OLD_SCAN = 2000


def _old_filter(records: list[HandRecord], pid: int, game: str, stakes: int, result: str) -> list[HandRecord]:
    """The filter history_api.py ran before (issue #31's first pass), on records already read."""
    out = []
    for r in records:
        if hand_views.game_of(r)[0] != game:
            continue
        st = hand_views._stakes(hand_views.phh_fields(r))
        if stakes not in (st["big_blind"], st["small_bet"]):
            continue
        net = int((r.changes or {}).get(pid, 0))
        if {"won": net <= 0, "lost": net >= 0, "even": net != 0}[result]:
            continue
        out.append(r)
    return out


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 2)


def _fill(st: Store, hands: int) -> int:
    a = st.accounts.register(f"bench_a_{uuid.uuid4().hex[:6]}", "correct horse battery").id
    b = st.accounts.register(f"bench_b_{uuid.uuid4().hex[:6]}", "correct horse battery").id
    for i in range(hands):
        phh = STUD if i % 10 == 9 else NT.format(sb=10 if i % 3 else 50, bb=20 if i % 3 else 100, a=a, b=b)
        won = 30 if i % 2 else -30
        st.hands.record("bench-t1", f"h{i}", {a: 1500, b: 1500}, phh, [], {a: won, b: -won})
    return a


def bench(url: str, hands: int, repeat: int) -> dict[str, Any]:
    st = Store(url, password_hasher=FAST)
    st.upgrade()
    try:
        pid = _fill(st, hands)
        f = HandFilter(game="holdem", stakes=20, result="won")
        old_page = _old_filter(st.hands.for_player(pid, limit=OLD_SCAN), pid, "holdem", 20, "won")[:50]
        new_total, new_page = st.hands.search(pid, f, limit=50)
        assert [r.hand_id for r in new_page] == [r.hand_id for r in old_page], "the two disagree"
        return {
            "matching": new_total,
            "filtered_old_ms": _median_ms(lambda: _old_filter(st.hands.for_player(pid, limit=OLD_SCAN), pid,
                                                              "holdem", 20, "won")[:50], repeat),
            "filtered_new_ms": _median_ms(lambda: st.hands.search(pid, f, limit=50), repeat),
            "page_20_old_ms": _median_ms(lambda: st.hands.for_player(pid, limit=OLD_SCAN)[1000:1050], repeat),
            "page_20_new_ms": _median_ms(lambda: st.hands.search(pid, HandFilter(), offset=1000, limit=50),
                                         repeat),
        }
    finally:
        st.dispose()


def _keys_us(n: int = 2000) -> float:
    text = NT.format(sb=10, bb=20, a=1, b=2)
    t0 = time.perf_counter()
    for _ in range(n):
        search_keys(text)
    return round((time.perf_counter() - t0) / n * 1e6, 1)


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--no-pg", action="store_true")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"hands": args.hands, "old_scan": OLD_SCAN, "search_keys_us_per_hand": _keys_us()}
    with tempfile.TemporaryDirectory() as tmp:
        out["sqlite"] = bench(f"sqlite:///{Path(tmp) / 'search.sqlite3'}", args.hands, args.repeat)
    print("SQLite     ", out["sqlite"])
    if not args.no_pg:
        with scratch_schema(args.pg, "rb_bench_search") as (_schema, url):
            out["postgresql"] = bench(url, args.hands, args.repeat)
        print("PostgreSQL ", out["postgresql"])
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
