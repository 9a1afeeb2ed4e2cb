"""The server's outgoing frame path under load (issue #5): a room message shared by its recipients is named with
aliases (R-ALIAS-1) and encoded ONCE for all of them; a message naming a player whose alias is not cached yet is
looked up in the real store without reordering the frames behind it; and the paced garbage collector still
reclaims cyclic garbage. Uses a real SQLite store; the WebSocket itself is not needed for these (the frames are
read from the connection's send queue, exactly what its writer task sends)."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from riverboat.server.gcpace import GcPacer
from riverboat.server.hub import Hub
from riverboat.server.ws import Connection
from riverboat.store import Store

from .fake_room import FakeRoom


class _Ws:
    """The two attributes a Connection reads before it is run (query parameters)."""

    query_params: dict[str, str] = {}


def _store(tmp_path: Path) -> Store:
    st = Store(f"sqlite:///{tmp_path / 'frames.sqlite3'}",
               password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    st.upgrade()
    return st


async def test_r_alias_1_shared_event_is_named_and_encoded_once_for_all_recipients(tmp_path: Path) -> None:
    """R-ALIAS-1: a public event naming a player reaches every recipient with that player's alias, and the six
    recipients get the very same encoded text object (encoded once, not once per player)."""
    store = _store(tmp_path)
    try:
        info = store.accounts.register("alice", "correct horse battery")
        store.accounts.login("alice", "correct horse battery")  # assigns an alias on first login
        alias = store.accounts.get(info.id).alias
        assert alias
        hub = Hub(store, room=FakeRoom())
        hub.aliases[info.id] = alias
        conns = [Connection(hub, _Ws()) for _ in range(6)]  # type: ignore[arg-type]
        message: dict[str, Any] = {"type": "event", "table": "t1",
                                   "event": {"kind": "action", "player": info.id, "seat": 2, "action": "call"}}
        for c in conns:
            c.deliver(message)
        items = [c.queue.get_nowait() for c in conns]
        assert all(isinstance(i, str) for i in items)
        assert all(i is items[0] for i in items)  # one encoding shared by all six
        frame = json.loads(items[0])  # type: ignore[arg-type]
        assert frame == {"v": 1, "type": "event", "table": "t1",
                         "event": {"kind": "action", "player": info.id, "seat": 2, "action": "call", "alias": alias}}
        assert "alias" not in message["event"]  # the room's dict is never modified
    finally:
        store.dispose()


async def test_r_alias_1_unknown_alias_is_looked_up_without_reordering_frames(tmp_path: Path) -> None:
    """A frame naming a player whose alias is not cached waits for the store lookup, and the frames queued after
    it stay behind it: the client sees them in the order the room produced them."""
    store = _store(tmp_path)
    try:
        info = store.accounts.register("bobby", "correct horse battery")
        store.accounts.login("bobby", "correct horse battery")
        alias = store.accounts.get(info.id).alias
        hub = Hub(store, room=FakeRoom())
        conn = Connection(hub, _Ws())  # type: ignore[arg-type]
        conn.deliver({"type": "event", "table": "t1", "event": {"kind": "seated", "player": info.id, "seat": 0}})
        conn.deliver({"type": "event", "table": "t1", "event": {"kind": "turn", "seat": 0}})
        conn.push({"type": "ack", "ref": 7, "command": "sit", "result": {}})
        items = [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]
        # the lookup holds the first place (the writer awaits it before sending what follows)
        assert isinstance(items[0], asyncio.Task) and all(isinstance(i, str) for i in items[1:])
        texts = []
        for item in items:
            assert item is not None
            texts.append(item if isinstance(item, str) else await item)
        frames = [json.loads(text) for text in texts]
        assert [f.get("event", {}).get("kind", f["type"]) for f in frames] == ["seated", "turn", "ack"]
        assert frames[0]["event"]["alias"] == alias
        assert hub.aliases[info.id] == alias  # cached for the next frames
    finally:
        store.dispose()


async def test_gc_pacer_still_reclaims_cyclic_garbage() -> None:
    """The pacer takes full collections off the automatic schedule but must not leak: a cycle that dies young is
    reclaimed by the (still automatic) young collections, and a cycle that was frozen while alive by the periodic
    full collection."""

    class Node:
        def __init__(self) -> None:
            self.me = self

    pacer = GcPacer(freeze_every=3600, full_every=3600)
    pacer.start()
    try:
        assert gc.get_threshold()[2] >= 10**9
        young = Node()
        young_ref = weakref.ref(young)
        del young
        gc.collect(1)  # what the automatic young collections do
        assert young_ref() is None
        frozen = Node()
        frozen_ref = weakref.ref(frozen)
        gc.freeze()  # what the pacer does every second: alive now, so frozen
        del frozen
        gc.collect(1)
        assert frozen_ref() is not None  # frozen garbage waits for the full collection...
        assert pacer.full_collection() >= 1
        assert frozen_ref() is None  # ...which reclaims it
    finally:
        pacer.stop()
    assert gc.get_freeze_count() == 0


async def test_gc_pacer_young_threshold_collects_automatically_and_is_restored() -> None:
    """The pacer raises the youngest generation's threshold (fewer young collections of objects that reference
    counting frees anyway, docs/performance.md) but the young collections stay automatic: a cycle that dies young
    is reclaimed after that many allocations with no explicit ``gc.collect``; ``stop()`` restores the thresholds."""

    class Node:
        def __init__(self) -> None:
            self.me = self

    before = gc.get_threshold()
    pacer = GcPacer(freeze_every=3600, full_every=3600, young_threshold=5_000)
    pacer.start()
    try:
        assert gc.get_threshold()[0] == 5_000
        assert gc.get_threshold()[2] >= 10**9
        cycle = Node()
        ref = weakref.ref(cycle)
        del cycle
        keep = [[] for _ in range(1_000)]  # fewer allocations than the threshold: no collection yet
        assert ref() is not None
        keep += [[] for _ in range(10_000)]  # past it: the automatic young collection ran
        assert ref() is None
        del keep
    finally:
        pacer.stop()
    assert gc.get_threshold() == before
