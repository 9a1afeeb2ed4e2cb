"""The room's store gateway groups concurrent store calls into one transaction (group commit), one SAVEPOINT each.

Checked against a real SQLite store: many tables' buy-ins, hand starts and settlements issued at once really are
grouped (the gateway counts its batches), every refused call is answered with its own error and changes nothing
(R-BUYIN-1, R-WALLET-1/3), every accepted one is stored, and chips are conserved (the autouse ledger audit)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from tests.store_fixtures import migrated_pg_url, migrated_sqlite_template, tstore  # noqa: F401 (fixtures)

from riverboat.room.errors import RoomError
from riverboat.room.gateway import OWN_THREAD_CALLS, PG_STORE_WORKERS, PROCESS_CALLS, StoreGateway, worker_of
from riverboat.store import Store

from .conftest import make_players

CUR = "EUR"


async def test_r_wallet_group_commit_answers_each_call_and_refusals_change_nothing(store: Store) -> None:
    """R-WALLET-1/R-BUYIN-1 through the gateway: 60 concurrent buy-ins, every third one for more than the player
    has. The refused ones get ``insufficient_funds`` and leave their balance whole; the others are stored; the
    calls went through in grouped transactions (fewer commits than calls)."""
    players = make_players(store, 60, deposit=5_000)
    gate = StoreGateway(store)
    # hold the worker so that the 60 calls queue up and are committed together
    block = threading.Event()
    hold = asyncio.ensure_future(gate.call(block.wait))
    await asyncio.sleep(0.05)
    calls = [
        gate.call(store.ledger.buy_in, pid, f"T{i % 5}", 9_000 if i % 3 == 0 else 2_000, f"bi:{pid}", currency=CUR)
        for i, pid in enumerate(players)
    ]
    tasks = [asyncio.ensure_future(c) for c in calls]
    await asyncio.sleep(0.05)
    block.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await hold
    try:
        assert gate.batches >= 1 and gate.batched_calls >= 30
        for i, (pid, res) in enumerate(zip(players, results, strict=True)):
            if i % 3 == 0:
                assert isinstance(res, RoomError) and res.code == "insufficient_funds", res
                assert store.ledger.balance(pid, CUR) == 5_000
                assert store.ledger.table_stack(pid, f"T{i % 5}", CUR) == 0
            else:
                assert isinstance(res, int), res
                assert store.ledger.balance(pid, CUR) == 3_000
                assert store.ledger.table_stack(pid, f"T{i % 5}", CUR) == 2_000
    finally:
        gate.close()


async def test_r_server_group_commit_of_hands_from_many_tables(store: Store) -> None:
    """R-WALLET-3 / R-SERVER: 20 tables start and settle hands through the gateway at the same time; one table's
    settlement is wrong (its changes do not add up to minus the rake: refused before any write) and another names
    a player not dealt in (refused inside its savepoint). Both are answered ``invalid`` (InvalidRequest, the error registry) and leave their hand
    open with the stacks unchanged; all other hands are settled; nothing is lost or created."""
    players = make_players(store, 40, deposit=10_000)
    tables = {f"T{i}": (players[2 * i], players[2 * i + 1]) for i in range(20)}
    for tid, (a, b) in tables.items():
        store.ledger.buy_in(a, tid, 5_000, f"bi:{a}", currency=CUR)
        store.ledger.buy_in(b, tid, 5_000, f"bi:{b}", currency=CUR)
    gate = StoreGateway(store)
    try:
        await asyncio.gather(*(gate.call(store.ledger.start_hand, tid, "h1", {a: 5_000, b: 5_000}, currency=CUR)
                               for tid, (a, b) in tables.items()))

        async def settle(tid: str, a: int, b: int) -> object:
            if tid == "T3":
                changes = {a: 100, b: -50}  # does not add up
            elif tid == "T7":
                changes = {a: 100, players[0]: -100}  # players[0] sits at T0, not T7
            else:
                changes = {a: 100, b: -100}
            return await gate.call(store.ledger.settle_hand, tid, "h1", changes, 0, f"phh {tid}", [])

        block = threading.Event()
        hold = asyncio.ensure_future(gate.call(block.wait))
        await asyncio.sleep(0.05)
        tasks = [asyncio.ensure_future(settle(tid, a, b)) for tid, (a, b) in tables.items()]
        await asyncio.sleep(0.05)
        block.set()
        results = dict(zip(tables, await asyncio.gather(*tasks, return_exceptions=True), strict=True))
        await hold
        assert gate.batched_calls >= 15
        for tid, (a, b) in tables.items():
            record = store.hands.get(tid, "h1")
            assert record is not None
            if tid in ("T3", "T7"):
                res = results[tid]
                assert isinstance(res, RoomError) and res.code == "invalid", res
                assert record.status == "started"
                assert store.ledger.table_stacks(tid, CUR) == {a: 5_000, b: 5_000}
            else:
                assert isinstance(results[tid], int)
                assert record.status == "settled"
                assert store.ledger.table_stacks(tid, CUR) == {a: 5_100, b: 4_900}
        assert sorted(store.ledger.void_unsettled_hands()) == [("T3", "h1"), ("T7", "h1")]
    finally:
        gate.close()


@pytest.mark.parametrize("group_commit", [True, False])
async def test_r_wallet_gateway_same_answers_with_and_without_group_commit(store: Store, group_commit: bool) -> None:
    """The gateway gives the same answers whether or not it groups calls: a cash-out after a buy-in returns the
    stack, a second buy-in at the same table is refused (R-BUYIN: use top-up)."""
    (pid,) = make_players(store, 1, deposit=5_000)
    gate = StoreGateway(store, group_commit=group_commit)
    try:
        first, second, balance = await asyncio.gather(
            gate.call(store.ledger.buy_in, pid, "T1", 2_000, "bi:1", currency=CUR),
            gate.call(store.ledger.buy_in, pid, "T1", 1_000, "bi:2", currency=CUR),
            gate.call(store.ledger.balance, pid, CUR),
            return_exceptions=True,
        )
        assert isinstance(first, int)
        assert isinstance(second, RoomError) and second.code == "invalid"
        assert balance == 3_000
        assert await gate.call(store.ledger.cash_out, pid, "T1", "co:1", currency=CUR) == 2_000
        assert store.ledger.balance(pid, CUR) == 5_000
    finally:
        gate.close()


async def test_r_wallet_store_process_answers_like_the_thread_and_keeps_refusals_atomic(store: Store) -> None:
    """The store process (``process=True``): concurrent buy-ins go to a child process with its own Store on the same
    database, grouped in one transaction; refused ones come back as the same ``RoomError`` codes and change nothing
    (R-BUYIN-1, R-WALLET-1); a hand started and settled there is visible here (R-WALLET-3)."""
    players = make_players(store, 12, deposit=5_000)
    gate = StoreGateway(store, process=True)
    try:
        assert gate.uses_process
        results = await asyncio.gather(
            *(gate.call(store.ledger.buy_in, pid, "T1" if i < 6 else "T2", 9_000 if i % 4 == 0 else 2_000,
                        f"bi:{pid}", currency=CUR) for i, pid in enumerate(players)),
            return_exceptions=True)
        for i, (pid, res) in enumerate(zip(players, results, strict=True)):
            if i % 4 == 0:
                assert isinstance(res, RoomError) and res.code == "insufficient_funds", res
                assert store.ledger.balance(pid, CUR) == 5_000
            else:
                assert isinstance(res, int), res
                assert store.ledger.balance(pid, CUR) == 3_000
        a, b = players[1], players[2]
        await gate.call(store.ledger.start_hand, "T1", "h1", {a: 2_000, b: 2_000}, currency=CUR)
        with pytest.raises(RoomError) as refused:
            await gate.call(store.ledger.settle_hand, "T1", "h1", {a: 10, b: -5}, 0, "phh", [])
        assert refused.value.code == "invalid"
        await gate.call(store.ledger.settle_hand, "T1", "h1", {a: 300, b: -300}, 0, "phh", [{"kind": "x"}])
        record = store.hands.get("T1", "h1")
        assert record is not None and record.status == "settled" and record.changes == {a: 300, b: -300}
        assert await gate.call(store.ledger.table_stack, a, "T1", CUR) == 2_300
        # a callable that is not a store method runs on the gateway's thread, not in the child
        assert await gate.call(lambda: threading.current_thread().name) == "room-store-0"
    finally:
        gate.close()


async def test_r_server_store_process_that_dies_is_replaced(store: Store) -> None:
    """If the store process dies (each call is one transaction there, so nothing is half-done), the next call
    starts a new one on the same database and is served normally, seeing everything committed before."""
    (pid,) = make_players(store, 1, deposit=5_000)
    gate = StoreGateway(store, process=True)
    try:
        assert await gate.call(store.ledger.buy_in, pid, "T1", 2_000, "bi:1", currency=CUR) > 0
        proc = gate._process
        assert proc is not None and proc._proc is not None
        first = proc._proc
        first.kill()
        first.join(10)
        assert await gate.call(store.ledger.table_stack, pid, "T1", CUR) == 2_000
        assert proc._proc is not first and proc._proc.is_alive()
        assert await gate.call(store.ledger.cash_out, pid, "T1", "co:1", currency=CUR) == 2_000
        assert store.ledger.balance(pid, CUR) == 5_000
    finally:
        gate.close()


async def test_r_server_gateway_routes_store_calls_by_its_explicit_lists(store: Store) -> None:
    """Issue #10 item 4: the gateway names a call by looking the callable up in its explicit lists (never by taking a
    bound method apart): the money and session calls of PROCESS_CALLS go to a store process, password hashing
    (OWN_THREAD_CALLS) to a thread of its own outside the group commit, anything else to the worker thread."""
    assert not PROCESS_CALLS & OWN_THREAD_CALLS
    gate = StoreGateway(store, process=True)
    try:
        assert gate.name_of(store.ledger.buy_in) == "ledger.buy_in"
        assert gate.name_of(store.accounts.login) == "accounts.login"
        assert gate.name_of(store.notes.save) is None and gate.name_of(lambda: 1) is None
        info = await gate.run(store.accounts.register, "gateway_user", "long-enough-password")
        token = await gate.run(store.accounts.login, "gateway_user", "long-enough-password")
        assert (await gate.run(store.accounts.authenticate, token)).id == info.id  # served by the store process
        assert await gate.call(lambda: threading.current_thread().name) == "room-store-0"
    finally:
        gate.close()


async def test_r_wallet_store_process_on_postgresql_runs_groups_at_once_in_each_things_order(tstore: Store  # noqa: F811
                                                                                             ) -> None:
    """On PostgreSQL the store process runs several group commits at once (PG_STORE_WORKERS threads, each on its
    own connection: its time there is mostly waiting for the database), one on SQLite. The calls about one thing
    (their first argument: a player, a table, a tournament) keep the order they were sent in even when they are in
    flight together: each player's buy-in and then cash-out, sent without waiting, cash out the whole buy-in. Many
    tables' hands started and settled at once are each stored once; chips are conserved (the audited store)."""
    pg = str(tstore.url).startswith("postgresql")
    players = make_players(tstore, 12, deposit=5_000)
    gate = StoreGateway(tstore, process=True)
    try:
        assert gate._process is not None and gate._process.workers == (PG_STORE_WORKERS if pg else 1)
        sent = [(gate.call(tstore.ledger.buy_in, pid, f"T{i % 4}", 2_000, f"bi:{pid}", currency=CUR),
                 gate.call(tstore.ledger.cash_out, pid, f"T{i % 4}", f"co:{pid}", currency=CUR))
                for i, pid in enumerate(players)]
        results = await asyncio.gather(*(c for pair in sent for c in pair))
        assert results[1::2] == [2_000] * len(players)  # every cash-out ran after its buy-in
        assert all(tstore.ledger.balance(pid, CUR) == 5_000 for pid in players)
        for i, pid in enumerate(players):
            await gate.call(tstore.ledger.buy_in, pid, f"T{i % 4}", 2_000, f"bi2:{pid}", currency=CUR)
        seats = {t: [p for i, p in enumerate(players) if i % 4 == t] for t in range(4)}
        await asyncio.gather(*(gate.call(tstore.ledger.start_hand, f"T{t}", "h1", {p: 2_000 for p in ps},
                                         currency=CUR) for t, ps in seats.items()))
        await asyncio.gather(*(gate.call(tstore.ledger.settle_hand, f"T{t}", "h1", {ps[0]: 500, ps[1]: -500}, 0,
                                         "phh", []) for t, ps in seats.items()))
        for ps in seats.values():
            assert tstore.ledger.table_stack(ps[0], f"T{list(seats.values()).index(ps)}", CUR) == 2_500
        assert {worker_of("ledger.start_hand", (f"T{t}",), 4) for t in range(16)} == {0, 1, 2, 3}
        assert worker_of("ledger.buy_in", (7, "T1"), 4) == worker_of("ledger.cash_out", (7, "T2"), 4)
    finally:
        gate.close()
