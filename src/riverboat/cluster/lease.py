"""A table host's node lease (a part of :class:`~riverboat.cluster.host.TableHostNode`, issue #29; docs/cluster.md
"Ownership, leases and fencing"): its key in the ``nodes`` bucket, renewed every ``lease/4`` s with a revision
check. While a renewal is late the host sends no frames and answers no commands (other hosts may own its tables);
a renewal that was merely late lets what waited go out, in order; a lost lease first drops every table whose record
is not ours any more, then drops the frames that waited (the tables kept send their views again) and answers only
the commands of the tables it kept."""

from __future__ import annotations

import asyncio
import functools
import logging
import time

from nats.js.errors import KeyWrongLastSequenceError

from riverboat.cluster.answering import Answering
from riverboat.cluster.link import Link
from riverboat.cluster.liveness import Liveness
from riverboat.cluster.metrics import NodeMetrics
from riverboat.cluster.ownership import Ownership
from riverboat.cluster.wire import NodeInfo
from riverboat.room import Room
from riverboat.room.table import Table

log = logging.getLogger("riverboat.cluster")


class Lease:
    """This node's lease: when it was last renewed, and its key's revision."""

    def __init__(self, node: str, link: Link, seconds: float, started: float) -> None:
        self.node = node
        self.link = link
        self.seconds = seconds
        self.info = NodeInfo(node=node, role="tables", started=started).model_dump_json().encode()
        self.renewed_at = time.monotonic()
        self.rev = 0

    def ok(self) -> bool:
        """Our node lease was renewed less than a lease period ago. When not (we were paused, or NATS was away),
        other hosts may own our tables: send no frames and answer no commands until we know (the store's fence
        stops any money of ours anyway)."""
        return time.monotonic() - self.renewed_at < self.seconds

    async def register(self) -> None:
        self.rev = int(await self.link.nodes.put(self.node, self.info))
        self.renewed_at = time.monotonic()


class Heartbeat:
    """Renews the lease and acts on what a renewal says (late, lost), then measures NATS and looks at the
    gateways."""

    def __init__(self, lease: Lease, room: Room, answering: Answering, ownership: Ownership, liveness: Liveness,
                 metrics: NodeMetrics) -> None:
        self.lease = lease
        self.room = room
        self.answering = answering
        self.router = answering.players.router
        self.ownership = ownership
        self.liveness = liveness
        self.metrics = metrics

    async def loop(self) -> None:
        lease = self.lease
        period = lease.seconds / 4
        while True:
            await asyncio.sleep(period)
            try:
                lease.rev = int(await lease.link.nodes.update(lease.node, lease.info, last=lease.rev))
                late = time.monotonic() - lease.renewed_at >= lease.seconds
                lease.renewed_at = time.monotonic()
                if late or self.answering.held or self.router.held_now:
                    if late:
                        log.warning("%s: lease renewal was late (loop or NATS slow); %d frames and %d commands "
                                    "waited for it", lease.node, self.router.held_now, len(self.answering.held))
                    self.confirmed()
            except KeyWrongLastSequenceError:
                # our node lease expired (paused, or NATS was away): hosts may have taken our tables
                log.warning("%s: node lease lost; checking every table", lease.node)
                try:
                    await self.ownership.verify_owned()  # first: until then we stay silent (lease.ok is false)
                    await lease.register()
                    self.was_lost()
                except Exception:
                    log.warning("%s: could not renew", lease.node, exc_info=True)
            except Exception:
                continue  # NATS is away: the reconnection brings us back
            if rtt := await lease.link.measure_rtt():
                self.metrics.nats_rtt.set(rtt)
            self.metrics.nats_reconnects.set(lease.link.reconnects)
            await self.liveness.check_gateways()

    def confirmed(self) -> None:
        """A renewal succeeded (the node key was never lost, so no other host took our tables): what waited for
        it goes out now: the frames and the commands."""
        self.router.release()
        self.answering.answer_held()

    def was_lost(self) -> None:
        """Our node key expired and ``verify_owned`` dropped the tables other hosts took: the frames that waited
        are dropped (the tables we kept send their views again, so every player there sees the table as it is,
        with their turn); the commands that waited are answered for the tables we kept (the others' new owners
        answered them)."""
        dropped = self.router.drop_held()
        owned = self.ownership.owned
        for tid in list(owned):
            table = self.room.tables.get(tid)
            if table is not None:
                table.actor.post(functools.partial(_resend_views, table))
        kept, waited = self.answering.answer_held(keep=lambda tid: tid in owned)
        log.warning("%s: lease lost and renewed: %d waiting frames dropped (views sent again), %d of %d waiting "
                    "commands answered", self.lease.node, dropped, kept, waited)


async def _resend_views(table: Table) -> None:
    """Every player and spectator of ``table`` gets its full view again (run inside the table's actor)."""
    table.broadcast_state()
