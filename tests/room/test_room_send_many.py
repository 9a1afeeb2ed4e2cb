"""One public frame, many recipients (``Room.send_many`` and its ``group_sink``, issue #15 speed): a cluster table
host's router takes each public event ONCE with all the players it reaches instead of once per player. The frames
every player gets, their order and their secrecy (R-GEN-5) must not change with it."""

from __future__ import annotations

import asyncio
from typing import Any

from riverboat.cards import seeded_rng
from riverboat.room import FakeClock, Room, TableSpec
from riverboat.store import Store

from .conftest import Recorder, make_players, play_hand_passively

SPEC = TableSpec(name="Many", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
                 min_buy_in=200, max_buy_in=1000, settings={"min_players": 4})


def _public_events(frames: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """A player's public events from the first hand on, as (kind, seat) (the seats filled before it differ by
    when the player sat down)."""
    kinds = [(f["event"]["kind"], f["event"].get("seat")) for f in frames
             if f["type"] == "event" and f["event"].get("kind") != "dealt"]
    first = next(i for i, k in enumerate(kinds) if k[0] == "hand_started")
    return kinds[first:]


async def test_r_gen_5_public_frames_go_once_to_the_group_sink_and_every_player_gets_the_same(store: Store) -> None:
    room = Room(store, clock=FakeClock(), rng=seeded_rng(11))
    await room.start()
    calls: list[tuple[list[int], dict[str, Any]]] = []
    got: dict[int, list[dict[str, Any]]] = {}

    def sink(pids: list[int], frame: Any) -> None:
        calls.append((list(pids), frame))
        for pid in pids:
            got[pid].append(frame)

    room.group_sink = sink
    players = make_players(store, 4)
    queued = Recorder(players[3])  # this one has no immediate callable: its frames go through its queue
    try:
        for pid in players[:3]:
            got[pid] = []
            room.attach(pid, Recorder(pid), immediate=lambda frame, pid=pid: got[pid].append(frame))
        room.attach(players[3], queued)
        tid = await room.open_table(SPEC)
        for seat, pid in enumerate(players):
            await room.sit(pid, tid, seat, 500)
        await room.quiesce()
        await play_hand_passively(room, tid)
        await room.quiesce()
        for _ in range(5):  # the queued player's delivery task drains its queue
            await asyncio.sleep(0)
    finally:
        await room.stop()

    assert calls, "the table's public events went through the group sink"
    assert len({id(frame) for _, frame in calls}) == len(calls)  # each frame object once
    for pids, frame in calls:
        assert players[3] not in pids  # the sink gets only the players it reaches at once
        ev = frame.get("event") or {}
        if ev.get("kind") == "dealt" and not ev.get("up"):  # a player's own cards: with them alone
            assert len(pids) == 1
    shared = [c for c in calls if len(c[0]) == 3]
    assert len(shared) >= 10  # the hands' public events: one call for the three players each
    # every player got every public event, in the same order, through either way
    public = [_public_events(got[pid]) for pid in players[:3]]
    queued_public = _public_events(queued.messages)
    assert public[0] == public[1] == public[2] == queued_public
    assert sum(1 for kind, _ in queued_public if kind == "hand_started") == 1
    assert sum(1 for kind, _ in queued_public if kind == "acted") >= 8  # 4 players check/call to the river
    assert queued.violations == []
