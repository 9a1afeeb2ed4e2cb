"""A table host decides that a gateway died only when the gateway's node key is gone (riverboat.cluster.host,
issue #15): after a stall of the host's own loop (a loaded machine, seen at 10,000 bots) the watcher's renewals of a
live gateway are still queued, and taking that gateway for dead disconnected all its players (R-DISC-1)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from nats.js.errors import KeyNotFoundError
from tests.store_fixtures import migrated_sqlite_template, sqlite_store  # noqa: F401 (fixtures)

from riverboat.cluster.host import HostOptions, TableHostNode
from riverboat.cluster.wire import NodeInfo
from riverboat.store import Store


class _Nodes:
    """The ``nodes`` bucket as the host reads it directly: only ``get``."""

    def __init__(self, present: set[str]) -> None:
        self.present = present
        self.reads: list[str] = []

    async def get(self, key: str) -> Any:
        self.reads.append(key)
        if key not in self.present:
            raise KeyNotFoundError
        return object()


def _host(store: Store, present: set[str]) -> tuple[TableHostNode, _Nodes]:
    host = TableHostNode(store, HostOptions(node="h-test", store_process=False))
    nodes = _Nodes(present)
    host.link.nodes = nodes  # type: ignore[assignment]
    now = time.monotonic()
    for gw in ("gw-1", "gw-2"):
        host.nodes.items[gw] = (NodeInfo(node=gw, role="gateway", started=0.0), 1)
    host.last_seen.update({"gw-1": now - 10.0, "gw-2": now})  # gw-1's renewals not seen for 10 s (> the 4 s lease)
    host.routes.update({7: "gw-1", 8: "gw-2"})
    return host, nodes


def test_r_disc_1_a_gateway_whose_key_is_there_keeps_its_players(sqlite_store: Store) -> None:  # noqa: F811
    host, nodes = _host(sqlite_store, {"gw-1", "gw-2"})
    try:
        asyncio.run(host.liveness.check_gateways())
        assert nodes.reads == ["gw-1"]  # only the one not seen lately is read
        assert host.routes == {7: "gw-1", 8: "gw-2"}
        assert time.monotonic() - host.last_seen["gw-1"] < 1.0
    finally:
        host.gateway.close()


def test_r_disc_1_a_gateway_whose_key_is_gone_loses_its_players(sqlite_store: Store) -> None:  # noqa: F811
    """... once its key has stayed gone for ``gateway_grace_seconds`` (a live gateway too busy to renew in time
    puts it back within a second or two: its players stay)."""
    host, nodes = _host(sqlite_store, {"gw-2"})
    try:
        asyncio.run(host.liveness.check_gateways())
        assert host.routes == {7: "gw-1", 8: "gw-2"}  # first found gone: not yet
        host.liveness.missing_since["gw-1"] -= host.opt.gateway_grace_seconds  # still gone a grace period later
        asyncio.run(host.liveness.check_gateways())
        assert host.routes == {8: "gw-2"}  # gw-1's player is disconnected (R-DISC), gw-2's stays
    finally:
        host.gateway.close()


def test_r_disc_1_a_gateway_whose_key_comes_back_within_the_grace_keeps_its_players(sqlite_store: Store  # noqa: F811
                                                                                     ) -> None:
    host, nodes = _host(sqlite_store, {"gw-2"})
    try:
        asyncio.run(host.liveness.check_gateways())
        nodes.present.add("gw-1")  # it renews again (its renewal is seen by the watcher or read directly)
        host.last_seen["gw-1"] -= 10.0
        asyncio.run(host.liveness.check_gateways())
        assert host.routes == {7: "gw-1", 8: "gw-2"} and "gw-1" not in host.liveness.missing_since
    finally:
        host.gateway.close()


def test_r_disc_1_a_gateway_taken_for_dead_that_renews_again_gets_its_players_back(sqlite_store: Store  # noqa: F811
                                                                                    ) -> None:
    """A gateway's key expired while its loop was slow (its connections lived): the host disconnected its players.
    When the gateway renews its key again, the players the presence bucket still shows on it are routed there again
    (a reconnection: their tables' views are sent). Before, they stayed unrouted -- no frames, so no turn to act
    on -- until each sent a command of its own."""
    host, _nodes = _host(sqlite_store, {"gw-2"})
    host.presence.items.update({"7": ("gw-1", 3), "8": ("gw-2", 4), "9": ("gw-1", 5)})
    host.routes[9] = "gw-1"
    attached: list[int] = []
    host.room.attach = lambda pid, sink, *, immediate=None: attached.append(pid)  # type: ignore[method-assign]

    async def main() -> None:
        await host.liveness.check_gateways()
        host.liveness.missing_since["gw-1"] -= host.opt.gateway_grace_seconds
        await host.liveness.check_gateways()
        assert host.routes == {8: "gw-2"}
        host.liveness.seen("gw-1", NodeInfo(node="gw-1", role="gateway", started=0.0))  # its renewal is seen again
        assert host.routes == {7: "gw-1", 8: "gw-2", 9: "gw-1"}
        assert sorted(attached) == [7, 9]
        host.liveness.seen("gw-1", NodeInfo(node="gw-1", role="gateway", started=0.0))  # later renewals: nothing
        assert sorted(attached) == [7, 9]

    try:
        asyncio.run(main())
    finally:
        host.gateway.close()


def test_r_server_1_commands_wait_for_a_late_lease_renewal(sqlite_store: Store) -> None:  # noqa: F811
    """A command that reaches a host whose lease renewal is late is answered once the renewal succeeds (it was
    ignored before: the gateway answered table_timeout after 5 s and the player's action was lost); if the lease
    was lost, only the commands of the tables the host kept are answered (the others' new owners answer)."""
    host, _nodes = _host(sqlite_store, {"gw-1", "gw-2"})
    answered: list[str] = []

    async def answer(msg: Any, *, peer: bool = False) -> None:
        answered.append(msg.subject)

    host.answering.answer = answer  # type: ignore[method-assign]

    class Msg:
        def __init__(self, table: str) -> None:
            self.subject = host.names.command(table)

    async def main() -> None:
        host.lease.renewed_at = time.monotonic() - 10.0  # the renewal is late
        await host.answering.on_command(Msg("t1"))
        await asyncio.sleep(0)
        assert answered == []
        host.lease.renewed_at = time.monotonic()
        host.heartbeat.confirmed()
        await asyncio.sleep(0)
        assert answered == [host.names.command("t1")]
        answered.clear()
        host.lease.renewed_at = time.monotonic() - 10.0
        await host.answering.on_command(Msg("kept"))
        await host.answering.on_command(Msg("taken"))
        host.owned["kept"] = object()  # type: ignore[assignment]
        host.lease.renewed_at = time.monotonic()
        host.heartbeat.was_lost()
        await asyncio.sleep(0)
        assert answered == [host.names.command("kept")]

    try:
        asyncio.run(main())
    finally:
        host.gateway.close()


def test_r_disc_1_the_gateway_tries_a_failed_presence_write_again() -> None:
    """A host that takes a player's table later routes them by the presence bucket: a write that timed out (under
    load at 10,000 bots) is tried again while the player stays connected (without it the player got no frames on the
    table's new host -- no turn -- until they sent a command); nothing is written for a player gone meanwhile."""
    from riverboat.cluster.remote import RemoteRoom

    class _Presence:
        def __init__(self, failures: int) -> None:
            self.failures = failures
            self.puts: list[tuple[str, bytes]] = []

        async def put(self, key: str, value: bytes) -> int:
            if self.failures:
                self.failures -= 1
                raise TimeoutError
            self.puts.append((key, value))
            return 1

    room = RemoteRoom("nats://127.0.0.1:1", "gw-p")
    presence = _Presence(failures=2)
    room.link.presence = presence  # type: ignore[assignment,method-assign]
    room._immediate[5] = lambda frame: None

    async def main() -> None:
        await room._put_presence(5, backoff=0.001)
        assert presence.puts == [("5", b"gw-p")]
        presence.failures = 1
        room._immediate.pop(5)  # disconnected before the next try
        await room._put_presence(5, backoff=0.001)
        assert presence.puts == [("5", b"gw-p")]

    asyncio.run(main())


def test_r_disc_1_a_gateway_forgetting_presences_while_nats_is_slow_raises_nothing(caplog: Any) -> None:
    """A stopping gateway drops every player at once and forgets each one's presence; when NATS answers too slowly
    those lookups time out. Each failure is one debug line, never an unretrieved task exception (10,000 tracebacks
    in a gateway's log at the end of a 10,000-bot run) and never an error for the caller."""
    from nats.errors import TimeoutError as NatsTimeout

    from riverboat.cluster.remote import RemoteRoom

    class _SlowPresence:
        def __init__(self) -> None:
            self.reads = 0

        async def get(self, key: str) -> Any:
            self.reads += 1
            raise NatsTimeout

    room = RemoteRoom("nats://127.0.0.1:1", "gw-slow")
    presence = _SlowPresence()
    room.link.presence = presence  # type: ignore[assignment]

    async def forget_all() -> list[Any]:
        return await asyncio.gather(*(room._forget(pid) for pid in range(50)), return_exceptions=True)

    with caplog.at_level("DEBUG", logger="riverboat.cluster"):
        results = asyncio.run(forget_all())
    assert results == [None] * 50 and presence.reads == 50
    assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]


def test_a_stopping_gateway_forgets_its_players_presences_in_batches() -> None:
    """SIGTERM: a gateway forgets every player's presence before it leaves (the hosts then stop routing to it).
    One at a time, 10,000 players were 20,000 NATS round trips; in batches the stop takes a few round trips."""
    from riverboat.cluster.remote import RemoteRoom

    class _Presence:
        def __init__(self) -> None:
            self.gets = 0
            self.in_flight = self.most = 0

        async def get(self, key: str) -> Any:
            self.gets += 1
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
            await asyncio.sleep(0.02)  # a NATS round trip under load
            self.in_flight -= 1
            raise KeyNotFoundError

    room = RemoteRoom("nats://127.0.0.1:1", "gw-stop")
    presence = _Presence()
    room.link.presence = presence  # type: ignore[assignment]
    for pid in range(1000):
        room._immediate[pid] = lambda frame: None

    t = time.monotonic()
    asyncio.run(room.stop())
    assert presence.gets == 1000
    assert presence.most > 1
    assert time.monotonic() - t < 5.0  # one at a time: 20 s


def test_r_server_1_a_stopping_host_hands_its_tables_back_in_batches(sqlite_store: Store) -> None:  # noqa: F811
    """SIGTERM: a table host hands every table back (owner cleared in the ``tables`` bucket) so that the others
    take them at once (R-SERVER-1). One at a time, a host with 833 tables was still at it 120 s after SIGTERM
    while NATS was busy (10,000 bots, every node stopping): the bench killed it."""
    from riverboat.cluster.host import Owned
    from riverboat.cluster.wire import TableRecord

    host, _nodes = _host(sqlite_store, {"gw-1", "gw-2"})
    cleared: list[str] = []
    in_flight = most = 0

    class _Tables:
        async def update(self, key: str, value: bytes, last: int) -> int:
            nonlocal in_flight, most
            in_flight += 1
            most = max(most, in_flight)
            await asyncio.sleep(0.02)
            in_flight -= 1
            assert TableRecord.decode(value).owner == ""
            cleared.append(key)
            return last + 1

    host.link.tables = _Tables()  # type: ignore[assignment]
    host.ownership.record_of = lambda tid: host.records.items[tid][0]  # (no table actors here)
    ids = [f"t{i}" for i in range(300)]
    for tid in ids:
        host.records.items[tid] = (TableRecord(id=tid, kind="cash", entry={}, owner=host.node), 1)
        host.owned[tid] = Owned(epoch=1, rev=1)

    t = time.monotonic()
    asyncio.run(host.stop())
    assert sorted(cleared) == sorted(ids) and not host.owned
    assert most > 1
    assert time.monotonic() - t < 5.0  # one at a time: 6 s here, minutes under load


def test_r_server_1_balancing_never_hands_off_a_table_that_is_dealing(sqlite_store: Store) -> None:  # noqa: F811
    """Balancing hands idle tables to their preferred host between two hands. A table whose deal is being stored
    (``start_hand`` in flight: no hand driver yet, its actor busy) is not idle: handing it off then made the new
    owner void that hand (seen when a second host joined a demo room: "1 hand(s) voided")."""
    from types import SimpleNamespace

    from riverboat.cluster.host import Owned
    from riverboat.cluster.names import preferred_host
    from riverboat.cluster.wire import TableRecord

    host, _nodes = _host(sqlite_store, {"gw-1", "gw-2"})
    other = "h-other"
    ids = [t for t in (f"t{i}" for i in range(200)) if preferred_host([host.node, other], t) == other][:6]
    released: list[str] = []

    async def release(tid: str) -> None:
        released.append(tid)
        host.owned.pop(tid, None)

    host.ownership.release = release  # type: ignore[method-assign]
    for tid in ids:
        host.records.items[tid] = (TableRecord(id=tid, kind="cash", entry={}, owner=host.node), 1)
        host.owned[tid] = Owned(epoch=1, rev=1)
    host.room.tables.update({  # type: ignore[dict-item]
        ids[0]: SimpleNamespace(driver=None, actor=SimpleNamespace(busy=True)),   # dealing: start_hand in flight
        ids[1]: SimpleNamespace(driver=object(), actor=SimpleNamespace(busy=False)),  # a hand in play
        ids[2]: SimpleNamespace(driver=None, actor=SimpleNamespace(busy=False)),  # idle
        ids[3]: SimpleNamespace(driver=None, actor=SimpleNamespace(busy=False)),  # idle
    })
    try:
        asyncio.run(host.ownership.balance([host.node, other]))
        assert ids[0] not in released and ids[1] not in released
        assert released == [ids[2], ids[3]]  # 6 owned, share 3: three to hand off, two of them idle
    finally:
        host.room.tables.clear()
        host.gateway.close()
