"""The gateway's index of the room's tables (riverboat.cluster.remote, issue #15 speed): the server asks
``room.pools`` at every ``act`` (a Speed Poker action names its pool, R-SPEED-1), so the gateway keeps the pools'
and cash tables' ids as the ``tables`` records come and go instead of scanning every record per action."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from nats.js.kv import KV_DEL, KeyValue

from riverboat.cluster.remote import RemoteRoom
from riverboat.cluster.wire import TableRecord


def _entry(key: str, rec: TableRecord | None, rev: int) -> KeyValue.Entry:
    return KeyValue.Entry(bucket="tables", key=key, value=rec.encode() if rec else None, revision=rev, delta=None,
                          created=None, operation=KV_DEL if rec is None else None)


async def _feed(room: RemoteRoom, entries: list[KeyValue.Entry | None]) -> None:
    """What the ``tables`` bucket's watcher gives the gateway's mirror (None: the end of the initial replay)."""

    async def watcher() -> AsyncIterator[KeyValue.Entry | None]:
        for e in entries:
            yield e

    await room.records._run(watcher())  # type: ignore[arg-type]


def _rec(tid: str, kind: Any) -> TableRecord:
    return TableRecord(id=tid, kind=kind, entry={"name": tid})


def test_r_speed_1_the_gateway_knows_pools_and_tables_as_records_change() -> None:
    room = RemoteRoom("nats://127.0.0.1:1", "gw-index")
    pools = room.pools  # a live set, kept current: the same object after every change (no scan per call)
    asyncio.run(_feed(room, [_entry("t1", _rec("t1", "cash"), 1), _entry("s1", _rec("s1", "speed"), 2),
                             _entry("m1", _rec("m1", "tournament"), 3), None]))
    assert room.pools == {"s1"} and room.tables == {"t1"}
    asyncio.run(_feed(room, [_entry("t2", _rec("t2", "cash"), 4), _entry("t1", None, 5),
                             _entry("s1", _rec("s1", "speed"), 6)]))
    assert room.pools == {"s1"} and room.tables == {"t2"}
    assert room.pools is pools
    # the initial replay after a reconnection drops what the bucket no longer holds
    asyncio.run(_feed(room, [_entry("t2", _rec("t2", "cash"), 7), None]))
    assert room.pools == set() and room.tables == {"t2"}
