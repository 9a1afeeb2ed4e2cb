"""Which nodes of the room are alive, as a table host sees them (a part of :class:`~riverboat.cluster.host.
TableHostNode`, issue #29): the ``nodes`` bucket watched (every renewal seen), the live table hosts (for the
rendezvous hash: placement, balancing, tournament tables) and gateways, and whether a node is dead: its key is gone
(a direct read; a gateway only once it has stayed gone for ``gateway_grace_seconds``: after a stall of this host's
loop the watcher's renewals are still queued, and taking a live gateway for dead disconnected all its players,
R-DISC)."""

from __future__ import annotations

import time
from collections.abc import Callable

from nats.js.errors import KeyNotFoundError

from riverboat.cluster.link import Link
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.options import HostOptions
from riverboat.cluster.wire import NodeInfo


class Liveness:
    """The room's nodes as this host last saw them renew their lease. ``gone(node)``: another node's key is gone (a
    gateway's players are disconnected); ``renewed(node)``: a node renewed its key (a gateway taken for dead that
    renews again gets its players back)."""

    def __init__(self, node: str, link: Link, options: HostOptions, *, gone: Callable[[str], None],
                 renewed: Callable[[str], None]) -> None:
        self.node = node
        self.link = link
        self.opt = options
        self.gone = gone
        self.renewed = renewed
        self.nodes: KvMirror[NodeInfo] = KvMirror(lambda: self.link.nodes, NodeInfo.model_validate_json,
                                                  self.seen, name="nodes")
        self.last_seen: dict[str, float] = {}
        self.missing_since: dict[str, float] = {}  # gateway -> when its key was first found gone

    def seen(self, node: str, info: NodeInfo | None) -> None:
        if info is None:
            self.last_seen.pop(node, None)
            if node != self.node:
                self.gone(node)
        else:
            self.last_seen[node] = time.monotonic()
            self.missing_since.pop(node, None)
            self.renewed(node)

    def lease_for_all(self) -> None:
        """NATS is back: nobody could renew while it was away, so every node gets a new lease period."""
        now = time.monotonic()
        for n in list(self.last_seen):
            self.last_seen[n] = now

    def live_hosts(self) -> list[str]:
        now = time.monotonic()
        hosts = {n for n, (info, _) in self.nodes.items.items()
                 if info.role == "tables" and now - self.last_seen.get(n, 0.0) < self.opt.lease_seconds}
        hosts.add(self.node)
        return sorted(hosts)

    def live_gateways(self) -> list[NodeInfo]:
        now = time.monotonic()
        return [info for n, (info, _) in self.nodes.items.items()
                if info.role == "gateway" and now - self.last_seen.get(n, 0.0) < self.opt.lease_seconds]

    async def check_gateways(self) -> None:
        """A gateway whose renewals we have not seen for a lease is gone only if its key is gone (a direct read, as
        for hosts in :meth:`is_dead`): after a stall of this host's loop (a loaded machine) the watcher's renewals
        are still queued, and taking a live gateway for dead disconnected all its players (R-DISC)."""
        now = time.monotonic()
        for node, (info, _) in list(self.nodes.items.items()):
            if info.role == "gateway" and now - self.last_seen.get(node, now) > self.opt.lease_seconds:
                try:
                    dead = await self.is_dead(node, now)
                except Exception:  # NATS is away: decide nothing now
                    continue
                if not dead:
                    self.missing_since.pop(node, None)
                    self.last_seen[node] = time.monotonic()
                elif now - self.missing_since.setdefault(node, now) >= self.opt.gateway_grace_seconds:
                    self.missing_since.pop(node, None)
                    self.gone(node)

    async def is_dead(self, owner: str, now: float) -> bool:
        if now - self.last_seen.get(owner, 0.0) < self.opt.lease_seconds:
            return False
        try:
            await self.link.nodes.get(owner)
        except KeyNotFoundError:
            return True
        return False
