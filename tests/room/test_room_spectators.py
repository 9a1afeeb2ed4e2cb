"""Spectators in the room (R-GEN-5 secrecy; the lobby's "watch a table"): ``Room.watch`` / ``unwatch``, a cap on
watched tables, no frames to a spectator who disconnected, and the watched tables' views again on reconnect."""

from __future__ import annotations

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.room import spectators as spectators_module
from riverboat.room.replies import Watching
from riverboat.store import Store

from .conftest import Recorder, make_players, play_hand_passively

NL = TableSpec(name="Watched", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


async def _next_hand(room: Room, clock: FakeClock, tid: str) -> None:
    """Let the pause between hands pass (FakeClock) and play the new hand down passively."""
    table = room.tables[tid]
    before = table.hand_no
    await clock.advance(5)
    await room.quiesce()
    assert table.hand_no > before, "a new hand started"
    await play_hand_passively(room, tid)
    await room.quiesce()


async def test_r_gen_5_unwatch_and_disconnect_stop_frames_and_reconnect_resumes(
    room: Room, store: Store, clock: FakeClock
) -> None:
    a, b, watcher = make_players(store, 3)
    tid = await room.open_table(NL)
    rec = Recorder(watcher)
    room.attach(watcher, rec)
    assert await room.watch(watcher, tid) == Watching(table=tid, watching=True)
    assert room.watched_by(watcher) == [tid]
    await room.sit(a, tid, 0, 300)
    await room.sit(b, tid, 1, 300)
    await play_hand_passively(room, tid)
    await room.quiesce()
    assert rec.events("hand_started") and rec.violations == []

    # unwatch: no more frames of that table
    assert await room.unwatch(watcher, tid) == Watching(table=tid, watching=False)
    assert room.watched_by(watcher) == []
    seen = len(rec.messages)
    await _next_hand(room, clock, tid)
    assert rec.messages[seen:] == []

    # watch again, then disconnect: nothing is sent to the gone spectator ...
    await room.watch(watcher, tid)
    await room.quiesce()
    room.detach(watcher)
    await room.quiesce()
    assert watcher not in room.tables[tid].watchers
    # ... and reconnecting brings the watched table's view back, then its frames (without a new watch call)
    rec2 = Recorder(watcher)
    room.attach(watcher, rec2)
    await room.quiesce()
    states = [m for m in rec2.messages if m.get("type") == "table_state" and m.get("table") == tid]
    assert states and states[0]["view"]["you"] is None
    await _next_hand(room, clock, tid)
    assert rec2.events("hand_started") and rec2.events("acted") and rec2.violations == [] and rec.violations == []


async def test_watch_refusals_change_nothing(room: Room, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad table id is refused; a player may watch at most MAX_WATCHED tables at a time."""
    (watcher,) = make_players(store, 1)
    with pytest.raises(RoomError):
        await room.watch(watcher, "no-such-table")
    assert room.watched_by(watcher) == []
    monkeypatch.setattr(spectators_module, "MAX_WATCHED", 2)
    tids = [await room.open_table(NL) for _ in range(3)]
    room.attach(watcher, Recorder(watcher))
    await room.watch(watcher, tids[0])
    await room.watch(watcher, tids[1])
    await room.watch(watcher, tids[1])  # watching the same table again is not a new one
    with pytest.raises(RoomError) as err:
        await room.watch(watcher, tids[2])
    assert err.value.code == "too_many_watched"
    assert room.watched_by(watcher) == sorted(tids[:2])
    assert watcher not in room.tables[tids[2]].watchers
