"""A local copy of a JetStream KV bucket, kept current by a watcher (the lobby, the table records, presence).

``items`` maps each key to ``(value, revision)``; ``on_change(key, value or None)`` runs for every update (None:
deleted). After a NATS reconnection :meth:`restart` replays the bucket (the watcher's consumer may not have
survived a server restart), so the copy converges again without a restart of the node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from nats.js.kv import KV_DEL, KV_PURGE, KeyValue

log = logging.getLogger("riverboat.cluster")
V = TypeVar("V")


class Watchable(Protocol):
    async def watchall(self) -> KeyValue.KeyWatcher: ...


class KvMirror(Generic[V]):
    def __init__(self, kv: Callable[[], Watchable], decode: Callable[[bytes], V],
                 on_change: Callable[[str, V | None], None] | None = None, name: str = "kv",
                 key_of: Callable[[str], str] | None = None) -> None:
        self._kv = kv
        self.key_of = key_of  # the name ``items`` uses for a bucket key (the tables bucket: the record's id)
        self.decode = decode
        self.on_change = on_change
        self.name = name
        self.items: dict[str, tuple[V, int]] = {}
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._watcher: KeyValue.KeyWatcher | None = None

    async def start(self) -> None:
        await self._stop_watch()
        self.ready.clear()
        self._watcher = await self._kv().watchall()
        self._task = asyncio.get_running_loop().create_task(self._run(self._watcher), name=f"mirror:{self.name}")
        await asyncio.wait_for(self.ready.wait(), timeout=10)

    async def restart(self) -> None:
        try:
            await self.start()
        except Exception:
            log.warning("mirror %s: restart failed; retrying", self.name, exc_info=True)
            await asyncio.sleep(0.5)
            asyncio.get_running_loop().create_task(self.restart())

    async def _run(self, watcher: KeyValue.KeyWatcher) -> None:
        seen: set[str] = set()
        initial = True
        async for entry in watcher:
            if entry is None:  # the end of the initial replay: what was not replayed is gone
                if initial:
                    for key in [k for k in self.items if k not in seen]:
                        del self.items[key]
                        self._changed(key, None)
                    initial = False
                    self.ready.set()
                continue
            key = entry.key if self.key_of is None else self.key_of(entry.key)
            if initial:
                seen.add(key)
            if entry.operation in (KV_DEL, KV_PURGE) or entry.value is None:
                if self.items.pop(key, None) is not None:
                    self._changed(key, None)
                continue
            try:
                value = self.decode(entry.value)
            except Exception:
                log.warning("mirror %s: unreadable value under %s", self.name, key, exc_info=True)
                continue
            self.items[key] = (value, int(entry.revision or 0))
            self._changed(key, value)

    def _changed(self, key: str, value: V | None) -> None:
        if self.on_change is not None:
            try:
                self.on_change(key, value)
            except Exception:
                log.exception("mirror %s: change handler failed for %s", self.name, key)

    async def _stop_watch(self) -> None:
        if self._watcher is not None:
            with contextlib.suppress(Exception):
                await self._watcher.stop()  # type: ignore[no-untyped-call]
            self._watcher = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def stop(self) -> None:
        await self._stop_watch()
