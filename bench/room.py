"""Room throughput: hands per second through the whole room stack, against the bare engine and PokerKit.

Measured in one run:

- ``room_cash``: one 6-max No-Limit Hold'em cash table driven through :class:`riverboat.room.Room` (the table actor,
  timers, per-player messages, blind planning) with every hand recorded and settled in a real SQLite store
  (``start_hand`` + ``settle_hand`` with its PHH text, one transaction each). Bots check or call at once; the
  FakeClock jumps over the pause between hands.
- ``room_speed``: a Speed Poker pool of 30 bots (5 hands at a time), the same policy plus random speed folds.
- ``engine``: the same 6-max check/call hands played on bare :class:`riverboat.engine.Hand` objects (no room).
- ``pokerkit`` (peer): 6-max NLHE check/call hands on PokerKit's ``State`` with its automations.
- ``store_tables``: the room's store path alone under many tables: ``--tables`` tables (6 players each) each
  recording and settling hands back to back (``start_hand`` + ``settle_hand`` with a PHH text and 25 events) through
  :class:`riverboat.room.gateway.StoreGateway`: one transaction per call (as before issue #5), with group commit on
  a thread, and with group commit in a store process (what ``riverboat serve`` uses).

The store lives in /dev/shm when it exists (``--disk`` puts it on disk: then fsync cost dominates). The last line
is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from riverboat.cards import DECK_52, seeded_rng
from riverboat.engine import Action, ActionKind, Hand, HandConfig
from riverboat.games import Stakes, Structure, get_game
from riverboat.room import FakeClock, Room, SpeedSpec, TableSpec
from riverboat.room.move import Move
from riverboat.store import Store

PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.RUN_ONCE, ActionKind.STAND_PAT)


def passive(kinds: frozenset[ActionKind]) -> str:
    return next((k.value for k in PASSIVE if k in kinds), "fold")


def make_store(disk: bool) -> tuple[Store, Path]:
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="rb-bench-room-", dir=None if disk or not shm.is_dir() else shm))
    store = Store(f"sqlite:///{folder / 'bench.sqlite3'}",
                  password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    store.upgrade()
    return store, folder


def players(store: Store, n: int, deposit: int) -> list[int]:
    out = []
    for i in range(n):
        pid = store.accounts.register(f"bench{i:03d}", "bench password").id
        store.ledger.deposit(pid, "EUR", deposit, f"bench-dep-{pid}")
        out.append(pid)
    return out


async def room_cash(hands: int, disk: bool) -> float:
    store, folder = make_store(disk)
    clock = FakeClock()
    room = Room(store, clock=clock, rng=seeded_rng(1))
    await room.start()
    try:
        ids = players(store, 6, 10**7)
        tid = await room.open_table(TableSpec(name="Bench", small_blind=5, big_blind=10, max_seats=6,
                                              min_buy_in=200, max_buy_in=10**6))
        table = room.tables[tid]
        for seat, pid in enumerate(ids):
            await room.sit(pid, tid, seat, 10**6)
        await room.quiesce()
        t0 = time.perf_counter()
        start = table.hand_no
        while table.hand_no - start < hands:
            hand = table.hand
            if hand is None or hand.to_act is None:
                await clock.advance(2)
                continue
            seat = hand.to_act
            await room.act(table.seats[seat].player_id, tid, Move.parse(passive(hand.legal_actions().kinds)))
            await room.quiesce()
        elapsed = time.perf_counter() - t0
        return hands / elapsed
    finally:
        await room.stop()
        store.dispose()
        shutil.rmtree(folder, ignore_errors=True)


async def room_speed(hands: int, disk: bool) -> float:
    store, folder = make_store(disk)
    clock = FakeClock()
    room = Room(store, clock=clock, rng=seeded_rng(2))
    await room.start()
    rng = random.Random(3)
    try:
        ids = players(store, 30, 10**7)
        pool_id = await room.open_speed_pool(SpeedSpec(name="Bench", small_blind=5, big_blind=10, table_size=6,
                                                       min_buy_in=200, max_buy_in=10**6))
        pool = room.pools[pool_id]
        for pid in ids:
            await room.join_speed(pid, pool_id, 10**6)
        await room.quiesce()
        t0 = time.perf_counter()
        while pool.hands_settled < hands:
            todo = [(sh.hand_id, sh.hand.to_act) for sh in pool.hands.values() if sh.hand.to_act is not None]
            if not todo:
                await clock.advance(1)
                continue
            for key, seat in todo:
                sh = pool.hands.get(key)
                if sh is None or seat is None or sh.hand.to_act != seat:
                    continue
                pid = sh.players[seat]
                if rng.random() < 0.2:
                    await room.fast_fold(pid, pool_id)
                else:
                    await room.speed_act(pid, pool_id, Move.parse(passive(sh.hand.legal_actions().kinds)))
            await room.quiesce()
        return pool.hands_settled / (time.perf_counter() - t0)
    finally:
        await room.stop()
        store.dispose()
        shutil.rmtree(folder, ignore_errors=True)


async def store_tables(tables: int, hands: int, disk: bool, *, group_commit: bool, process: bool) -> float:
    """Hands settled per second by ``tables`` tables at once through the room's store gateway (store work only)."""
    from riverboat.room.gateway import StoreGateway

    store, folder = make_store(disk)
    try:
        with store._db.batch():
            ids = players(store, 6 * tables, 10**7)
            for i, pid in enumerate(ids):
                store.ledger.buy_in(pid, f"T{i // 6}", 10**5, f"bench-bi-{pid}")
        gate = StoreGateway(store, group_commit=group_commit, process=process)
        events = [{"kind": "action", "seat": i % 6, "action": "call", "amount": 10, "visible_to": None}
                  for i in range(25)]
        phh = "variant = 'NT'\n" + "actions = [" + ", ".join(f"'p{i % 6 + 1} cc'" for i in range(120)) + "]\n"

        async def table(t: int) -> None:
            seats = ids[6 * t: 6 * t + 6]
            stacks = dict.fromkeys(seats, 10**5)
            for h in range(hands):
                hid = f"h{h}"
                await gate.call(store.ledger.start_hand, f"T{t}", hid, dict(stacks), currency="EUR")
                win, lose = seats[h % 6], seats[(h + 1) % 6]
                await gate.call(store.ledger.settle_hand, f"T{t}", hid, {win: 50, lose: -50}, 0, phh, events)
                stacks[win] += 50
                stacks[lose] -= 50

        try:
            t0 = time.perf_counter()
            await asyncio.gather(*(table(t) for t in range(tables)))
            return tables * hands / (time.perf_counter() - t0)
        finally:
            gate.close()
    finally:
        store.dispose()
        shutil.rmtree(folder, ignore_errors=True)


def engine_only(hands: int) -> float:
    game = get_game("holdem")
    rng = seeded_rng(4)
    t0 = time.perf_counter()
    for i in range(hands):
        hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=5, big_blind=10),
                               seats=list(range(6)), stacks=[1000] * 6, button=i % 6, deck=DECK_52.shuffled(rng)))
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.act(Action(legal.seat, ActionKind(passive(legal.kinds))))
    return hands / (time.perf_counter() - t0)


def pokerkit_peer(hands: int) -> float:
    warnings.filterwarnings("ignore", module="pokerkit")
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    t0 = time.perf_counter()
    for _ in range(hands):
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (5, 10), 10, (1000,) * 6, 6)
        while state.status:
            state.check_or_call()
    return hands / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per room measurement")
    parser.add_argument("--peer-hands", type=int, default=300, help="hands for the engine and PokerKit runs")
    parser.add_argument("--disk", action="store_true", help="put the SQLite store on disk instead of /dev/shm")
    parser.add_argument("--tables", type=int, default=100, help="tables for the store-throughput measurement")
    parser.add_argument("--table-hands", type=int, default=10, help="hands per table there")
    args = parser.parse_args(argv)
    cash = asyncio.run(room_cash(args.hands, args.disk))
    print(f"room, cash table (6-max NLHE, SQLite): {cash:,.1f} hands/s")
    speed = asyncio.run(room_speed(args.hands, args.disk))
    print(f"room, Speed Poker pool (30 bots):     {speed:,.1f} hands/s")
    eng = engine_only(args.peer_hands)
    print(f"bare engine (same hands, no room):     {eng:,.1f} hands/s")
    pk = pokerkit_peer(args.peer_hands)
    print(f"PokerKit State (peer, check/call):     {pk:,.1f} hands/s")
    stores = {}
    for label, gc_on, proc in (("one_txn_per_call", False, False), ("group_commit_thread", True, False),
                               ("group_commit_process", True, True)):
        stores[label] = round(asyncio.run(store_tables(args.tables, args.table_hands, args.disk,
                                                       group_commit=gc_on, process=proc)), 1)
        print(f"store only, {args.tables} tables at once, {label}: {stores[label]:,.1f} hands settled/s")
    out = {
        "hands": args.hands,
        "store": "disk" if args.disk else "/dev/shm",
        "room_cash_hands_per_s": round(cash, 1),
        "room_speed_hands_per_s": round(speed, 1),
        "engine_hands_per_s": round(eng, 1),
        "pokerkit_hands_per_s": round(pk, 1),
        "room_cash_vs_pokerkit": round(cash / pk, 2),
        "room_speed_vs_pokerkit": round(speed / pk, 2),
        "store_tables": args.tables,
        "store_hands_per_s": stores,
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
