"""What a start finds in the store after a crash (issue #16 part 5, R-SERVER-1/2/3): the room's ``_after_crash``
on a store left as a killed process leaves it (the real-process kill -9 test is tests/server/test_server_restart.py).
"""

from __future__ import annotations

import pytest

from riverboat.room import FakeClock, Room, TableSpec
from riverboat.store import Store

from .conftest import make_players

SPEC = TableSpec(name="Kept", min_buy_in=40, max_buy_in=400, max_seats=6)


def _crashed_store(store: Store) -> list[int]:
    """Three players with chips on tables as a killed process leaves them: A at seat 3 and B (no seat on record,
    as before the seats were stored) at table t1-kept, C at a table no longer in the list."""
    a, b, c = make_players(store, 3)
    store.ledger.buy_in(a, "t1-kept", 300, "a", seat=3)
    store.ledger.buy_in(b, "t1-kept", 200, "b")
    store.ledger.buy_in(c, "t9-gone", 100, "c", seat=1)
    store.ledger.start_hand("t1-kept", "h1", {a: 300, b: 200})  # the hand the crash interrupted
    return [a, b, c]


@pytest.mark.parametrize("room_flag", [False, True])
async def test_r_server_3_setting_off_restores_seats_room_flag_for_tables_not_open(
        store: Store, clock: FakeClock, room_flag: bool) -> None:
    """R-SERVER-1: the interrupted hand is void, every stack its pre-hand value. R-SERVER-3 with the table's
    setting off: A is back in seat 3, B in the first free seat, both sat out and disconnected until they come back;
    the stack of a table not open here follows the room's flag (on: to the balance; off: it stays)."""
    a, b, c = _crashed_store(store)
    room = Room(store, clock=clock, cash_out_on_crash=room_flag)
    await room.open_table(_with(SPEC, False), table_id="t1-kept")
    voided = await room.start()
    try:
        assert voided == [("t1-kept", "h1")]
        table = room.tables["t1-kept"]
        assert {s: (st.player_id, st.stack, st.sitting_out) for s, st in table.seats.items()} == {
            3: (a, 300, True), 0: (b, 200, True)}
        assert not room.is_connected(a) and not room.is_connected(b)
        assert table.hand is None  # nobody deals until the players are back
        assert store.ledger.table_stack(c, "t9-gone") == (0 if room_flag else 100)
        assert store.ledger.balance(c) == (10_000 if room_flag else 9_900)
    finally:
        await room.stop()
    for pid in (a, b):
        assert store.ledger.balance(pid) == 10_000  # a clean stop returns the stacks
    if not room_flag:
        store.ledger.cash_out(c, "t9-gone", "c-out")


async def test_r_server_3_setting_on_returns_the_stacks(store: Store, clock: FakeClock) -> None:
    """R-SERVER-3 with the table's setting on (whatever the room's flag): the stacks are in the balances and the
    table is empty."""
    a, b, c = _crashed_store(store)
    room = Room(store, clock=clock, cash_out_on_crash=False)
    await room.open_table(_with(SPEC, True), table_id="t1-kept")
    await room.start()
    try:
        assert room.tables["t1-kept"].seats == {}
        assert store.ledger.balance(a) == store.ledger.balance(b) == 10_000
    finally:
        await room.stop()
    store.ledger.cash_out(c, "t9-gone", "c-out")


def _with(spec: TableSpec, cash_out: bool) -> TableSpec:
    from dataclasses import replace

    return replace(spec, settings={"cash_out_on_crash": cash_out})
