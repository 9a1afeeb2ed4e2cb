"""The waiting list of a full cash table (issue #14 part 2, lobby detail): the lobby counts who waits; when a seat
is free the first player of the list is offered it privately (``seat_offered``) and leaves the list by sitting
(R-CASH-3: a player who leaves frees the seat after cashing out)."""

from __future__ import annotations

from typing import Any

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.store import Store

from .conftest import Recorder, make_players, seat_players

FULL = TableSpec(name="Full", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=2,
                 min_buy_in=200, max_buy_in=1000)


async def _free_seat_1(room: Room, clock: FakeClock, table: Any, leaver: int, tid: str) -> None:
    """The player at seat 1 leaves; the seat is free once the cash-out is done (R-CASH-3)."""
    await room.leave(leaver, tid)
    for _ in range(20):
        await clock.advance(1)
        if 1 not in table.seats:
            break
    await room.quiesce()


def _offers(sinks: dict[int, Recorder]) -> dict[int, list[dict[str, Any]]]:
    """The ``seat_offered`` events each player received."""
    return {p: [m["event"] for m in s.messages if m.get("type") == "event" and m["event"]["kind"] == "seat_offered"]
            for p, s in sinks.items()}


async def test_waiting_list_offers_the_free_seat_to_the_first_in_line(room: Room, store: Store,
                                                                      clock: FakeClock) -> None:
    tid, table, seated = await seat_players(room, store, FULL, 2, 500)
    first, second = make_players(store, 2, deposit=5_000)
    sinks = {p: Recorder(p) for p in (first, second)}
    for p, sink in sinks.items():
        room.attach(p, sink)
    assert (await room.waitlist(first, tid)).position == 1
    assert (await room.waitlist(second, tid)).position == 2
    assert {e["id"]: e for e in room.lobby()}[tid]["waiting"] == 2
    with pytest.raises(RoomError):
        await room.waitlist(seated[0], tid)  # a seated player cannot wait for a seat
    await _free_seat_1(room, clock, table, seated[1], tid)
    offers = _offers(sinks)
    assert offers[first] == [{"kind": "seat_offered", "seat": 1}]
    assert offers[second] == []  # one free seat: only the first in line is told
    await room.sit(first, tid, 1, 300)
    assert table.waiting == [second]
    await room.unwaitlist(second, tid)
    assert {e["id"]: e for e in room.lobby()}[tid]["waiting"] == 0


async def test_issue_30_a_blocked_player_leaves_the_waiting_list_and_cannot_join_it(room: Room, store: Store,
                                                                                   clock: FakeClock) -> None:
    """Issue #30 (no new play under a time-out or self-exclusion): a player who excludes themselves while waiting
    is taken off the list when a seat frees, so the offer goes to the next in line instead of waiting on them; and
    a blocked player cannot join a list (``play_blocked``, in plain words; the list is unchanged)."""
    tid, table, seated = await seat_players(room, store, FULL, 2, 500)
    first, second, third = make_players(store, 3, deposit=5_000)
    sinks = {p: Recorder(p) for p in (first, second)}
    for p, sink in sinks.items():
        room.attach(p, sink)
    await room.waitlist(first, tid)
    await room.waitlist(second, tid)
    store.protections.self_exclude(first, 6)
    store.protections.take_timeout(third, 24)
    with pytest.raises(RoomError) as refused:
        await room.waitlist(third, tid)
    assert refused.value.code == "play_blocked" and "time-out" in str(refused.value)
    assert table.waiting == [first, second]  # nothing changed by the refusal
    await _free_seat_1(room, clock, table, seated[1], tid)
    offers = _offers(sinks)
    assert offers == {first: [], second: [{"kind": "seat_offered", "seat": 1}]}
    assert table.waiting == [second]
    await room.sit(second, tid, 1, 300)
    store.ledger.verify()
