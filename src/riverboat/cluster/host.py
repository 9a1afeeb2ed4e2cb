"""The table host (``riverboat serve --role tables``): owns tables through leases, plays them in a local
:class:`~riverboat.room.Room`, answers commands on each table's subject and sends the frames to the gateways.

Ownership (docs/cluster.md "Ownership, leases and fencing"): a host is alive while its key in the ``nodes``
bucket is (renewed every ``lease/4`` s with a revision check; the bucket TTL expires it ``lease`` s after the last
renewal). A table is owned by the host named in its ``tables`` record; the owner is changed only by a revision
check (compare-and-set), so exactly one host wins a table, and the revision of that write is the host's epoch for
the table: it claims the table in the store with it (:mod:`riverboat.store.fencing`: the unsettled hand is voided,
R-SERVER-1) and every money call of the table carries it (:class:`~riverboat.cluster.fencing.FencedGateway`).

A host takes a table that has no owner, or whose owner's node key is gone: at once if it is the table's preferred
host (rendezvous hash over the live table hosts), otherwise after ``grace`` seconds. A host that holds more than
its share hands a table off between two hands to its preferred host (balancing). A host that finds its node key
expired, a table record changed under it or a store refusal ``fenced`` drops the table at once, without touching
its money (its new owner has it).

The node is composed of its parts (issue #29), each in its own module: :class:`~.lease.Lease` and
:class:`~.lease.Heartbeat` (its node lease), :class:`~.liveness.Liveness` (the other nodes),
:class:`~.routes.PlayerRoutes` (the players' gateways, the presence watcher and the frames' router),
:class:`~.ownership.Ownership` (taking, balancing and losing tables: placement and failover),
:class:`~.records.RecordKeeper` (the tables' records), :class:`~.answering.Answering` (what comes on its NATS
subjects) and :class:`~.tourney.TournamentHosting` (its tournaments and the tables it deals for others').
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from dataclasses import asdict
from typing import Any

from nats.js.errors import KeyWrongLastSequenceError

from riverboat.cluster.answering import Answering
from riverboat.cluster.batches import gather_in_batches
from riverboat.cluster.elsewhere import OtherHosts
from riverboat.cluster.fencing import FencedGateway
from riverboat.cluster.identity import claim_room, database_identity
from riverboat.cluster.lease import Heartbeat, Lease
from riverboat.cluster.link import Link
from riverboat.cluster.liveness import Liveness
from riverboat.cluster.metrics import NodeMetrics
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.names import record_id, table_id_for
from riverboat.cluster.options import HostOptions
from riverboat.cluster.ownership import Owned, Ownership, Spec, spec_from_record
from riverboat.cluster.records import RecordKeeper, tournament_spec
from riverboat.cluster.routes import PlayerRoutes
from riverboat.cluster.tourney import TournamentHosting
from riverboat.cluster.tourney_tables import Peers
from riverboat.cluster.twister import HostedTwisters
from riverboat.cluster.wire import NodeInfo, TableRecord
from riverboat.room import RealClock, Room, SpeedSpec
from riverboat.room.commands import TWISTER_OFFER
from riverboat.room.tournament_commands import register_tournament_commands
from riverboat.room.twister.offers import TwisterOffers

__all__ = ["HostOptions", "Owned", "TableHostNode", "spec_from_record", "spec_record"]

RELEASE_BATCH = 64  # tables handed back at once when the host stops


def spec_record(spec: Spec) -> dict[str, Any]:
    return asdict(spec)


class TableHostNode:
    """A table host: its parts, wired together, started and stopped (see the module docstring)."""

    def __init__(self, store: Any, options: HostOptions) -> None:
        self.store = store
        self.opt = options
        self.node = options.node
        self.names = options.names
        self.started = time.time()
        self.link = Link(options.nats_url, options.names, lease_seconds=options.lease_seconds,
                         name=options.node)
        url = str(getattr(store, "url", ""))
        self.gateway = FencedGateway(store, on_fenced=self._fenced, workers=4,
                                     process=options.store_process and url.startswith("postgresql"))
        self.room = Room(store, clock=RealClock(), gateway=self.gateway,
                         cash_out_on_crash=options.cash_out_on_crash)
        self.lease = Lease(self.node, self.link, options.lease_seconds, self.started)
        self.metrics = NodeMetrics(self.node, "tables")
        self.records: KvMirror[TableRecord] = KvMirror(lambda: self.link.tables, TableRecord.decode,
                                                       name="tables", key_of=record_id)
        # the tournaments this host runs (docs/cluster.md); an operator's edit declares a new one, taken here at once
        self.peers = Peers(self.node, self.link, self.names, self.live_hosts)
        self.room.elsewhere = OtherHosts(self.peers)  # R-SITOUT-4 reaches the player's tables on the other hosts
        self.tourneys = TournamentHosting(self.room, self.link, self.peers,
                                          functools.partial(tournament_spec, self.records), self.gateway.epochs)
        self.players = PlayerRoutes(self.node, self.room, self.tourneys, self.link, self.names,
                                    hold=lambda: not self.lease.ok(), window=options.delivery_window_seconds)
        self.routes = self.players.routes
        self.router = self.players.router
        # every player this room reaches at once is routed (``route``): a public frame goes to the router in one call
        self.room.group_sink = self.router.send_many
        self.liveness = Liveness(self.node, self.link, options, gone=self.players.gateway_gone,
                                 renewed=self.players.gateway_renewed)
        self.nodes, self.presence, self.last_seen = self.liveness.nodes, self.players.presence, self.liveness.last_seen
        self.answering = Answering(self.node, self.names, self.room, self.tourneys, self.players, self.metrics,
                                   lease_ok=self.lease.ok)
        self.ownership = Ownership(self.node, self.link, self.names, options, store, self.gateway, self.room,
                                   self.tourneys, self.records, self.liveness, self.players, self.metrics,
                                   on_command=self.answering.on_command)
        self.owned = self.ownership.owned
        self.tourneys.edited = self.ownership.edited
        # the Twister offer, run here while this host owns its record; its Sit & Go's are tournament records this
        # host takes at once (cluster.twister); the offer's fill bots play in this host's tournaments
        self.twister = TwisterOffers.from_config(
            self.room, options.twister, bots=self.tourneys.lobby.bots,
            tables=HostedTwisters(self.tourneys, self.link, self.peers, self.ownership.take, self.ownership.forget))
        # the players' tournament and Twister commands run with the tournaments this host runs (issue #29)
        register_tournament_commands(self.room.commands, self.tourneys.lobby, self.twister)
        self.keeper = RecordKeeper(self.node, self.link, options.record_seconds, self.records, self.room,
                                   self.tourneys, self.twister, self.owned, lose=self.ownership.lose)
        self.ownership.record_of = self.keeper.record
        self.heartbeat = Heartbeat(self.lease, self.room, self.answering, self.ownership, self.liveness,
                                   self.metrics)
        self.metrics.tables.set_function(lambda: float(len(self.owned)))
        self.metrics.players.set_function(lambda: float(len(self.routes)))
        self.metrics.track_hands(self.hands_total)
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        await self.link.connect()
        # the room's database is this node's, or it stops here (RoomMismatch): before it takes any table record
        await claim_room(self.link.room, self.names.prefix, database_identity(self.store))
        self.link.on_reconnect(self._reconnected)
        await self.room.start(void_unsettled=False)
        await self.lease.register()
        await self.nodes.start()
        await self.presence.start()
        await self.records.start()
        with contextlib.suppress(KeyWrongLastSequenceError):  # the room's Twister offer: one record, any host runs it
            await self.link.tables.create(TWISTER_OFFER, TableRecord(id=TWISTER_OFFER, kind="twister",
                                                                     entry={}).encode())
        await self.link.client.subscribe(self.names.peer(self.node), cb=self.answering.on_peer)
        loop = asyncio.get_running_loop()
        for name, body in (("heartbeat", self.heartbeat.loop), ("scan", self.ownership.scan_loop),
                           ("records", self.keeper.loop)):
            self._tasks.append(loop.create_task(body(), name=f"{self.node}:{name}"))

    async def open_room(self, specs: list[Spec]) -> list[str] | None:
        """Create the room's tables once per room (the first host to get here): their records, without owner;
        the hosts then take them. Returns the table ids, or None if another host already opened the room."""
        try:
            await self.link.room.create("init", self.node.encode())
        except KeyWrongLastSequenceError:
            return None
        ids = []
        for i, spec in enumerate(specs):
            speed = isinstance(spec, SpeedSpec)
            tid = table_id_for(i, spec.name, speed)
            rec = TableRecord(id=tid, kind="speed" if speed else "cash", entry=spec_record(spec))
            with contextlib.suppress(KeyWrongLastSequenceError):
                await self.link.tables.create(tid, rec.encode())
            ids.append(tid)
        return ids

    async def stop(self) -> None:
        """Hand every table back (its next owner voids the hand in progress, R-SERVER-1, and reopens it with the
        stacks) and leave the cluster. The money stays on the tables."""
        self.ownership.stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # a batch at a time: one at a time, a host with 800 tables took over 120 s to stop while NATS was busy
        await gather_in_batches(self.ownership.release, list(self.owned), RELEASE_BATCH, return_exceptions=True)
        await self.tourneys.service.close()
        with contextlib.suppress(Exception):
            await self.link.nodes.delete(self.node)
        for mirror in (self.records, self.presence, self.nodes):
            await mirror.stop()
        await self.link.close()
        self.gateway.close()

    def lease_ok(self) -> bool:
        """Our node lease is current (:meth:`Lease.ok`): frames go out and commands are answered."""
        return self.lease.ok()

    async def _reconnected(self) -> None:
        for mirror in (self.nodes, self.presence, self.records):
            await mirror.restart()
        self.liveness.lease_for_all()  # nobody renewed while NATS was away: give every node a new lease period

    def _fenced(self, tid: str) -> None:
        self.ownership.fenced(tid)

    def hands_total(self) -> int:
        return sum(t.hand_no for t in self.room.tables.values()) + sum(
            p.hands_settled for p in self.room.pools.values())

    def live_hosts(self) -> list[str]:
        return self.liveness.live_hosts()

    def live_gateways(self) -> list[NodeInfo]:
        return self.liveness.live_gateways()
