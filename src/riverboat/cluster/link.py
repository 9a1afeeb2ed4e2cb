"""The NATS connection of a node: reconnects for ever, JetStream KV buckets, round-trip measurement.

The buckets (created if missing, so any node may start first):

- ``nodes`` — one key per live node (:class:`~riverboat.cluster.wire.NodeInfo`), with the bucket TTL
  ``lease_seconds``: a node renews its key every ``lease_seconds / 4``; a key that is gone means the node is gone
  (NATS 2.9 has no per-message TTL, and an expiry sends watchers nothing, so survivors poll it);
- ``tables`` — one :class:`~riverboat.cluster.wire.TableRecord` per table (no TTL), by record id (:class:`Records`);
- ``presence`` — player id → gateway id (no TTL);
- ``room`` — one-off keys such as ``init`` (which node opened the room's tables).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

import nats
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.errors import BucketNotFoundError
from nats.js.kv import KeyValue

from riverboat.cluster.names import Names, record_key

log = logging.getLogger("riverboat.cluster")

LEASE_SECONDS = 4.0


class Records:
    """The ``tables`` bucket by record id (a table, pool, tournament or the Twister offer): an id's ``:`` (a Twister's
    ``twister:...``), which a KV key cannot hold, is stored as ``=`` (:func:`~riverboat.cluster.names.record_key`);
    a mirror of the bucket reads the ids back with :func:`~riverboat.cluster.names.record_id`."""

    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv

    async def create(self, record: str, value: bytes) -> int:
        return int(await self.kv.create(record_key(record), value))

    async def get(self, record: str) -> KeyValue.Entry:
        return await self.kv.get(record_key(record))

    async def update(self, record: str, value: bytes, last: int | None = None) -> int:
        return int(await self.kv.update(record_key(record), value, last=last))

    async def delete(self, record: str, last: int | None = None) -> bool:
        return bool(await self.kv.delete(record_key(record), last=last))

    async def watchall(self) -> KeyValue.KeyWatcher:
        return await self.kv.watchall()


class Link:
    """One node's NATS connection and KV handles. ``on_reconnect`` callbacks run after every reconnection."""

    def __init__(self, url: str, names: Names, *, lease_seconds: float = LEASE_SECONDS, name: str = "") -> None:
        self.url = url
        self.names = names
        self.lease_seconds = lease_seconds
        self.name = name
        self.nc: Client | None = None
        self.nodes: KeyValue
        self.tables: Records
        self.presence: KeyValue
        self.room: KeyValue
        self.rtt_seconds: float | None = None
        self._echo_subject: str | None = None  # this node's round-trip echo (measure_rtt), subscribed once
        self.connected = False
        self.reconnects = 0
        self._on_reconnect: list[Callable[[], Coroutine[Any, Any, None]]] = []

    def on_reconnect(self, fn: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._on_reconnect.append(fn)

    async def connect(self) -> None:
        async def disconnected() -> None:
            self.connected = False
            log.warning("%s: NATS connection lost; reconnecting", self.name)

        async def reconnected() -> None:
            self.connected = True
            self.reconnects += 1
            log.warning("%s: NATS reconnected", self.name)
            for fn in self._on_reconnect:
                asyncio.get_running_loop().create_task(fn())

        async def error(exc: Exception) -> None:
            log.debug("%s: NATS: %r", self.name, exc)

        self.nc = await nats.connect(
            self.url, name=self.name, max_reconnect_attempts=-1, reconnect_time_wait=0.25, connect_timeout=2,
            ping_interval=5, max_outstanding_pings=2, allow_reconnect=True, disconnected_cb=disconnected,
            reconnected_cb=reconnected, error_cb=error, pending_size=64 * 1024 * 1024,
        )
        self.connected = True
        await self.open_buckets()

    async def open_buckets(self) -> None:
        js = self.js
        self.nodes = await self._bucket(js, self.names.nodes_bucket, ttl=self.lease_seconds)
        self.tables = Records(await self._bucket(js, self.names.tables_bucket))
        self.presence = await self._bucket(js, self.names.presence_bucket)
        self.room = await self._bucket(js, self.names.room_bucket)

    @staticmethod
    async def _bucket(js: JetStreamContext, bucket: str, ttl: float | None = None) -> KeyValue:
        kv: KeyValue
        try:
            kv = await js.key_value(bucket)
            return kv
        except BucketNotFoundError:
            pass
        try:
            kv = await js.create_key_value(bucket=bucket, history=1, ttl=ttl)
        except Exception:  # another node created it at the same moment
            kv = await js.key_value(bucket)
        return kv

    @property
    def client(self) -> Client:
        assert self.nc is not None, "connect() first"
        return self.nc

    @property
    def js(self) -> JetStreamContext:
        return self.client.jetstream(timeout=2.0)

    async def measure_rtt(self, timeout: float = 2.0) -> float | None:
        """The NATS round trip, kept in ``rtt_seconds``: a request to this node's own echo subject and its answer,
        both through the server (``None`` when it takes over ``timeout`` seconds or NATS is down).

        Not ``Client.flush()`` (a PING and its PONG): nats-py's ``flush(timeout)`` cancels its PONG future when
        it times out, and the PONG that arrives later raises ``InvalidStateError`` in the client's read loop,
        which drops the connection and reconnects (seen on a gateway at a load average of 6: every delivery in
        flight was lost). A request that times out only forgets its reply token."""
        client = self.client
        if self._echo_subject is None:
            subject = self.names.echo(self.name or "node", secrets.token_hex(4))

            async def echo(msg: Msg) -> None:
                await msg.respond(b"")

            await client.subscribe(subject, cb=echo)
            self._echo_subject = subject
        t0 = time.perf_counter()
        try:
            await client.request(self._echo_subject, b"", timeout=timeout)
        except Exception:
            self.rtt_seconds = None
            return None
        self.rtt_seconds = time.perf_counter() - t0
        return self.rtt_seconds

    async def close(self) -> None:
        if self.nc is not None:
            try:
                await self.nc.drain()
            except Exception:
                try:
                    await self.nc.close()
                except Exception:
                    pass
            self.nc = None


async def drop_room(url: str, names: Names) -> None:
    """Delete a room's buckets from the NATS server (tests and benchmarks leave nothing behind)."""
    nc = await nats.connect(url, connect_timeout=5)
    try:
        js = nc.jetstream()
        for bucket in (names.nodes_bucket, names.tables_bucket, names.presence_bucket, names.room_bucket):
            try:
                await js.delete_key_value(bucket)
            except Exception:  # noqa: BLE001 - never created
                pass
    finally:
        await nc.close()
