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
        asyncio.run(host._check_gateways())
        assert nodes.reads == ["gw-1"]  # only the one not seen lately is read
        assert host.routes == {7: "gw-1", 8: "gw-2"}
        assert time.monotonic() - host.last_seen["gw-1"] < 1.0
    finally:
        host.gateway.close()


def test_r_disc_1_a_gateway_whose_key_is_gone_loses_its_players(sqlite_store: Store) -> None:  # noqa: F811
    host, nodes = _host(sqlite_store, {"gw-2"})
    try:
        asyncio.run(host._check_gateways())
        assert host.routes == {8: "gw-2"}  # gw-1's player is disconnected (R-DISC), gw-2's stays
    finally:
        host.gateway.close()
