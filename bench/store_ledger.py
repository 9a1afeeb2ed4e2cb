"""Ledger write speed: Riverboat's ``settle_hand`` against a minimal hand-written double-entry peer.

Run: ``.venv/bin/python bench/store_ledger.py [--hands 300] [--pg URL] [--no-pg] [--room-phh]``.

Workload: one 6-max cash table; each hand is ``start_hand`` then ``settle_hand`` with five losers, one winner
and rake (so 7 ledger entries, the hand history text and events, all in one transaction per call) - what a room
writes per hand. The peer does the same bookkeeping by hand with the DB-API driver (``sqlite3`` / ``psycopg``):
one transaction inserting the hand row, a transaction row, 7 entry rows and 7 balance updates, then marking the
hand settled - no ORM, no idempotency check, no row locks, no validation. Both run against the same database
kind in the same run: SQLite on a file in a temporary directory (WAL, synchronous=FULL for both) and, unless
``--no-pg``, PostgreSQL (a scratch schema, dropped afterwards). Wall-clock time (this is I/O bound), so figures
move with machine load. The last line printed is one JSON object with every figure.

``--room-phh``: Riverboat settles a real 6-max no-limit hold'em hand's text as the room writes it (every player
named by their id, a raise and calls to a showdown) instead of the placeholder text, so what ``settle_hand`` reads
from the text (the search keys, the players' play flags: issue #31) costs what it costs on a real hand.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from argon2 import PasswordHasher

from riverboat.store import Store

FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PHH = "variant = 'NT'\n" + "actions = ['d dh p1 ????'] # placeholder hand text of realistic size\n" * 8
SEATS = 6


def _changes(i: int, players: list[int]) -> tuple[dict[int, int], int]:
    winner = players[i % SEATS]
    losers = {p: -(20 + (i * 7 + k) % 50) for k, p in enumerate(players) if p != winner}
    pot = -sum(losers.values())
    rake = pot // 20
    return {**losers, winner: pot - rake}, rake


def room_phh(players: list[int]) -> str:
    """A 6-max NLHE hand as the room writes it: the first to act raises, everyone calls, checks to a showdown."""
    import random

    from riverboat.engine import Action, ActionKind, Hand, HandConfig
    from riverboat.games import Stakes, Structure, get_game
    from riverboat.history import hand_to_phh

    game = get_game("holdem")
    seats = list(range(1, SEATS + 1))
    hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=25, big_blind=50),
                           seats=seats, stacks=[10_000] * SEATS, button=1, deck=game.deck.shuffled(random.Random(7))))
    raised = False
    while not hand.is_over:
        la = hand.legal_actions()
        if not raised and ActionKind.RAISE in la.kinds:
            hand.act(Action(la.seat, ActionKind.RAISE, la.min_to))
            raised = True
        else:
            hand.act(Action(la.seat, ActionKind.CHECK if ActionKind.CHECK in la.kinds else ActionKind.CALL))
    return hand_to_phh(hand, table="bench", hand=1, players=dict(zip(seats, map(str, players), strict=True)))


def bench_riverboat(url: str, hands: int, real_phh: bool = False) -> tuple[float, float]:
    st = Store(url, password_hasher=FAST)
    st.upgrade()
    players = []
    for k in range(SEATS):
        p = st.accounts.register(f"bench{uuid.uuid4().hex[:8]}{k}", "password123").id
        st.ledger.deposit(p, "EUR", 10_000_000, f"bench-dep-{p}")
        st.ledger.buy_in(p, "bench", 5_000_000, f"bench-bi-{p}")
        players.append(p)
    stacks = st.ledger.table_stacks("bench")
    phh = room_phh(players) if real_phh else PHH
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(hands):
        changes, rake = _changes(i, players)
        st.ledger.start_hand("bench", f"h{i}", stacks)
        st.ledger.settle_hand("bench", f"h{i}", changes, rake, phh, [{"i": i}])
        for p, c in changes.items():
            stacks[p] += c
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    st.ledger.verify()
    st.dispose()
    return hands / elapsed, cpu / hands * 1000


PEER_SCHEMA = [
    "CREATE TABLE acc (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL)",
    "CREATE TABLE txn (id INTEGER PRIMARY KEY, idem TEXT UNIQUE NOT NULL)",
    "CREATE TABLE ent (id INTEGER PRIMARY KEY, txn_id INTEGER NOT NULL, acc_id INTEGER NOT NULL, amount BIGINT)",
    "CREATE TABLE hand (id INTEGER PRIMARY KEY, hid TEXT UNIQUE NOT NULL, status TEXT, phh TEXT, events TEXT)",
]


def _peer_loop(conn: Any, hands: int, ph: str) -> float:
    cur = conn.cursor()
    players = list(range(1, SEATS + 1))
    t0 = time.perf_counter()
    for i in range(hands):
        changes, rake = _changes(i, players)
        cur.execute(f"INSERT INTO hand (id, hid, status) VALUES ({ph}, {ph}, 'started')", (i + 1, f"h{i}"))
        conn.commit()
        cur.execute(f"INSERT INTO txn (id, idem) VALUES ({ph}, {ph})", (i + 1, f"settle:{i}"))
        for p, c in [*changes.items(), (0, rake)]:
            cur.execute(f"INSERT INTO ent (txn_id, acc_id, amount) VALUES ({ph}, {ph}, {ph})", (i + 1, p, c))
            cur.execute(f"UPDATE acc SET balance = balance + {ph} WHERE id = {ph}", (c, p))
        cur.execute(f"UPDATE hand SET status = 'settled', phh = {ph}, events = {ph} WHERE id = {ph}",
                    (PHH, json.dumps([{"i": i}]), i + 1))
        conn.commit()
    return hands / (time.perf_counter() - t0)


def bench_peer_sqlite(path: Path, hands: int) -> float:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    for stmt in PEER_SCHEMA:
        conn.execute(stmt)
    conn.executemany("INSERT INTO acc (id, balance) VALUES (?, ?)", [(p, 5_000_000) for p in range(SEATS + 1)])
    conn.commit()
    rate = _peer_loop(conn, hands, "?")
    conn.close()
    return rate


def bench_peer_pg(dsn: str, schema: str, hands: int) -> float:
    with psycopg.connect(dsn, options=f"-csearch_path={schema}") as conn:
        with conn.cursor() as cur:
            for stmt in PEER_SCHEMA:
                cur.execute(stmt.replace("INTEGER PRIMARY KEY", "BIGSERIAL PRIMARY KEY"))
            for p in range(SEATS + 1):
                cur.execute("INSERT INTO acc (id, balance) VALUES (%s, %s)", (p, 5_000_000))
        conn.commit()
        return _peer_loop(conn, hands, "%s")


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--no-pg", action="store_true")
    ap.add_argument("--room-phh", action="store_true", help="settle a real hand's text (see the module's doc)")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"hands": args.hands, "seats": SEATS, "room_phh": args.room_phh}
    with tempfile.TemporaryDirectory() as tmp:
        ours, cpu = bench_riverboat(f"sqlite:///{Path(tmp) / 'rb.sqlite3'}", args.hands, args.room_phh)
        peer = bench_peer_sqlite(Path(tmp) / "peer.sqlite3", args.hands)
    print(f"SQLite      Riverboat {ours:8.1f} hands/s   raw sqlite3 peer {peer:8.1f} hands/s   "
          f"ratio {peer / ours:5.2f}x   (Riverboat CPU {cpu:.1f} ms/hand)", flush=True)
    report["sqlite"] = {"riverboat_hands_per_s": round(ours, 1), "peer_hands_per_s": round(peer, 1),
                        "riverboat_cpu_ms_per_hand": round(cpu, 2)}
    if not args.no_pg:
        for_pg = []
        for _ in range(2):
            schema = f"rb_bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(args.pg, autocommit=True) as admin:
                admin.execute(f'CREATE SCHEMA "{schema}"')
            for_pg.append(schema)
        try:
            url = f"postgresql+psycopg://{args.pg.split('://', 1)[1]}?options=-csearch_path%3D{for_pg[0]}"
            ours, cpu = bench_riverboat(url, args.hands, args.room_phh)
            peer = bench_peer_pg(args.pg, for_pg[1], args.hands)
        finally:
            with psycopg.connect(args.pg, autocommit=True) as admin:
                for schema in for_pg:
                    admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        print(f"PostgreSQL  Riverboat {ours:8.1f} hands/s   raw psycopg peer {peer:8.1f} hands/s   "
              f"ratio {peer / ours:5.2f}x   (Riverboat CPU {cpu:.1f} ms/hand)", flush=True)
        report["postgresql"] = {"riverboat_hands_per_s": round(ours, 1), "peer_hands_per_s": round(peer, 1),
                                "riverboat_cpu_ms_per_hand": round(cpu, 2)}
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
