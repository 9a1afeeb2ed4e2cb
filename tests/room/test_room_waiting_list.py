"""The waiting list of a full cash table (issue #14 part 2, lobby detail): the lobby counts who waits; when a seat
is free the first player of the list is offered it privately (``seat_offered``) and leaves the list by sitting
(R-CASH-3: a player who leaves frees the seat after cashing out)."""

from __future__ import annotations

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.store import Store

from .conftest import Recorder, make_players, seat_players

FULL = TableSpec(name="Full", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=2,
                 min_buy_in=200, max_buy_in=1000)


async def test_waiting_list_offers_the_free_seat_to_the_first_in_line(room: Room, store: Store,
                                                                      clock: FakeClock) -> None:
    tid, table, seated = await seat_players(room, store, FULL, 2, 500)
    first, second = make_players(store, 2, deposit=5_000)
    sinks = {p: Recorder(p) for p in (first, second)}
    for p, sink in sinks.items():
        room.attach(p, sink)
    assert (await room.waitlist(first, tid))["position"] == 1
    assert (await room.waitlist(second, tid))["position"] == 2
    assert {e["id"]: e for e in room.lobby()}[tid]["waiting"] == 2
    with pytest.raises(RoomError):
        await room.waitlist(seated[0], tid)  # a seated player cannot wait for a seat
    await room.leave(seated[1], tid)
    for _ in range(20):
        await clock.advance(1)
        if 1 not in table.seats:
            break
    await room.quiesce()
    offers = {p: [m["event"] for m in s.messages if m.get("type") == "event" and m["event"]["kind"] == "seat_offered"]
              for p, s in sinks.items()}
    assert offers[first] == [{"kind": "seat_offered", "seat": 1}]
    assert offers[second] == []  # one free seat: only the first in line is told
    await room.sit(first, tid, 1, 300)
    assert table.waiting == [second]
    await room.unwaitlist(second, tid)
    assert {e["id"]: e for e in room.lobby()}[tid]["waiting"] == 0
