"""Events applied exactly once (issue #14 part 1 item 1): a table numbers its event frames (``seq``) and every
``table_state`` says which event it already includes (``view.seq``). The hand's opening events (blinds posted,
hole cards dealt, R-GEN-5: each player's own down cards only to them) must reach a player before a snapshot that
already includes them, never after it: before the fix the snapshot sent with ``hand_started`` held the posted
blinds and dealt cards and the ``posted``/``dealt`` events came after it, so the client counted them twice.
"""

from __future__ import annotations

import random
from typing import Any

from riverboat.room import FakeClock, TableSpec
from riverboat.store import Store

from .test_room_frames import play_table, scenario


def _check_stream(messages: list[dict[str, Any]], tid: str) -> tuple[int, int]:
    """Walk one player's frames of table ``tid`` as the client does; returns (events, snapshots with a hand)."""
    last_event = 0
    snapshot_seq = 0
    snapshot_hand: str | None = None
    events = snapshots = 0
    for m in messages:
        if m.get("table") != tid:
            continue
        if m["type"] == "table_state":
            view = m["view"]
            assert isinstance(view.get("seq"), int), m
            # a snapshot includes every event numbered before it
            assert view["seq"] >= last_event, (view["seq"], last_event)
            snapshot_seq = view["seq"]
            if view["hand"] is not None:
                snapshot_hand = view["hand_id"]
                snapshots += 1
            continue
        if m["type"] != "event":
            continue
        seq = m.get("seq")
        assert isinstance(seq, int), m
        assert seq > last_event, f"event numbers go up: {seq} after {last_event}"
        # nothing the last snapshot already includes arrives after it
        assert seq > snapshot_seq, f"event {seq} arrived after a snapshot that includes it ({snapshot_seq})"
        last_event = seq
        events += 1
        kind = m["event"]["kind"]
        if kind == "hand_started":
            snapshot_hand = None
        elif kind in ("posted", "dealt") and snapshot_hand is not None:
            # hold'em: blinds and hole cards come only at the start; the snapshot of this hand held them
            raise AssertionError(f"{kind} of hand {snapshot_hand} arrived after its snapshot: {m}")
    return events, snapshots


async def test_table_events_are_numbered_and_no_snapshot_is_followed_by_an_event_it_includes(
        store: Store, clock: FakeClock) -> None:
    """R-GEN-5, issue #14 item 1: numbered events, snapshots that say what they include, the opening posts and
    deals before the snapshot of their hand, for three players and a spectator over several hands."""
    async with scenario(store, clock, 21, 4) as (room, players, sinks, _seen):
        tid = await room.open_table(TableSpec(name="Seq", small_blind=5, big_blind=10, min_buy_in=200,
                                              max_buy_in=1000))
        await room.watch(players[3], tid)
        for seat, pid in enumerate(players[:3]):
            await room.sit(pid, tid, seat, 600)
        await play_table(room, clock, tid, sinks, 6, random.Random(3))
        for pid in players:
            events, snapshots = _check_stream(sinks[pid].messages, tid)
            assert events > 30 and snapshots >= 6, (pid, events, snapshots)
