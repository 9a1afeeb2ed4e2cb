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
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from nats.errors import Error as NatsError
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from pydantic import ValidationError

from riverboat.cluster.batches import gather_in_batches
from riverboat.cluster.delivery import DELIVERY_WINDOW_S, Router
from riverboat.cluster.elsewhere import OtherHosts
from riverboat.cluster.fencing import FencedGateway
from riverboat.cluster.identity import claim_room, database_identity
from riverboat.cluster.link import LEASE_SECONDS, Link
from riverboat.cluster.metrics import NodeMetrics
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.names import Names, preferred_host, record_id, table_id_for
from riverboat.cluster.tourney import TournamentHosting
from riverboat.cluster.tourney_tables import Peers
from riverboat.cluster.twister import HostedTwisters
from riverboat.cluster.wire import (
    COMMAND,
    PEER,
    AliasChanged,
    Execute,
    FlightOver,
    Info,
    NodeInfo,
    PlayerSitOut,
    Relay,
    Reply,
    TableRecord,
    TournamentAct,
    TournamentDetail,
    TournamentOperate,
    TournamentRebuy,
    TournamentRegister,
    TournamentUnregister,
)
from riverboat.errors import RiverboatError, wire_error
from riverboat.room import RealClock, Room, RoomError, SpeedSpec, TableSpec
from riverboat.room.commands import TWISTER_OFFER
from riverboat.room.frames import RoomFrame
from riverboat.room.speed import SpeedPool
from riverboat.room.table import Table
from riverboat.room.tournament.lifecycle import OVER
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament_commands import register_tournament_commands
from riverboat.room.twister.offers import TwisterOffers

log = logging.getLogger("riverboat.cluster")

Spec = TableSpec | SpeedSpec
TAKE_BATCH = 16  # tables taken over at once
RELEASE_BATCH = 64  # tables handed back at once when the host stops
OVER_STATUSES = frozenset(s.value for s in OVER)  # a tournament's lobby status once it is over


@dataclass
class HostOptions:
    nats_url: str = "nats://127.0.0.1:4222"
    node: str = "tables-1"
    names: Names = field(default_factory=Names)
    lease_seconds: float = LEASE_SECONDS
    grace_seconds: float = 2.0  # a table without owner waits this long for its preferred host
    scan_seconds: float = 0.5
    record_seconds: float = 1.0  # lobby / seats written at most this often per table
    cash_out_on_crash: bool = False  # R-SERVER-3 room flag; a table's settings may say otherwise
    store_process: bool = True
    # the router flushes the host's frames to the gateways at most once per this many seconds (cluster/delivery.py;
    # 0: at every loop turn)
    delivery_window_seconds: float = DELIVERY_WINDOW_S
    # a gateway whose key is gone is taken for dead only if it is still gone this long after it was first missed:
    # a live gateway whose loop was too busy to renew in time (seating 10,000 bots) puts its key back within a
    # second or two, and taking it for dead disconnected (R-DISC) and then re-sent every table to its ~10,000
    # players (a 6 s stall of the host's loop, measured)
    gateway_grace_seconds: float = 3.0
    # the room's Twister section (ServerConfig.twister: TwisterSettings fields, currency, table_settings, fill_bots):
    # give every table host the same; the host of the offer runs it (cluster.twister)
    twister: dict[str, Any] = field(default_factory=dict)


@dataclass
class Owned:
    epoch: int
    rev: int
    sub: Any = None
    fingerprint: Any = None


def spec_record(spec: Spec) -> dict[str, Any]:
    return asdict(spec)


def spec_from_record(rec: TableRecord) -> Spec:
    cls: type[TableSpec] | type[SpeedSpec] = SpeedSpec if rec.kind == "speed" else TableSpec
    known = {f.name for f in fields(cls)}
    kwargs = {k: v for k, v in rec.entry.items() if k in known}
    if "spread" in kwargs:
        kwargs["spread"] = tuple(kwargs["spread"])
    return cls(**kwargs)


class TableHostNode:
    def __init__(self, store: Any, options: HostOptions) -> None:
        self.store = store
        self.opt = options
        self.node = options.node
        self.names = options.names
        self.link = Link(options.nats_url, options.names, lease_seconds=options.lease_seconds,
                         name=options.node)
        url = str(getattr(store, "url", ""))
        self.gateway = FencedGateway(store, on_fenced=self._fenced, workers=4,
                                     process=options.store_process and url.startswith("postgresql"))
        self.room = Room(store, clock=RealClock(), gateway=self.gateway,
                         cash_out_on_crash=options.cash_out_on_crash)
        # the tournaments this host runs (docs/cluster.md); an operator's edit declares a new one, taken here at once
        self.peers = Peers(self.node, self.link, self.names, self.live_hosts)
        self.room.elsewhere = OtherHosts(self.peers)  # R-SITOUT-4 reaches the player's tables on the other hosts
        self.tourneys = TournamentHosting(self.room, self.link, self.peers, self._spec_of, edited=self._edited)
        # the Twister offer, run here while this host owns its record; its Sit & Go's are tournament records this
        # host takes at once (cluster.twister); the offer's fill bots play in this host's tournaments
        self.twister = TwisterOffers.from_config(
            self.room, options.twister, bots=self.tourneys.lobby.bots,
            tables=HostedTwisters(self.tourneys, self.link, self.peers, self._take, self._forget))
        # the players' tournament and Twister commands run with the tournaments this host runs (issue #29)
        register_tournament_commands(self.room.commands, self.tourneys.lobby, self.twister)
        self.routes: dict[int, str] = {}  # player -> the gateway that holds their connection
        # while a lease renewal is late the frames wait (not dropped: a late renewal is not a lost lease)
        # routed by the dict itself (``routes.get``): the router looks up every recipient of every frame
        self.router = Router(self._publish, self.routes.get, hold=lambda: not self.lease_ok(),
                             window=options.delivery_window_seconds)
        # every player this room reaches at once is routed (``_route``): a public frame goes to the router in one call
        self.room.group_sink = self.router.send_many
        self._held: list[tuple[Any, bool]] = []  # commands (msg, peer) that came while the lease was unconfirmed
        self._gone_gateways: set[str] = set()  # gateways taken for dead whose players' routes were dropped
        self._missing_since: dict[str, float] = {}  # gateway -> when its key was first found gone
        self._renewed_at = time.monotonic()
        self.owned: dict[str, Owned] = {}
        self.records: KvMirror[TableRecord] = KvMirror(lambda: self.link.tables, TableRecord.decode,
                                                       name="tables", key_of=record_id)
        self.presence: KvMirror[str] = KvMirror(lambda: self.link.presence, bytes.decode,
                                                self._presence_changed, name="presence")
        self.nodes: KvMirror[NodeInfo] = KvMirror(lambda: self.link.nodes, NodeInfo.model_validate_json,
                                                  self._node_seen, name="nodes")
        self.last_seen: dict[str, float] = {}
        self.unowned_since: dict[str, float] = {}
        self.metrics = NodeMetrics(self.node, "tables")
        self.metrics.tables.set_function(lambda: float(len(self.owned)))
        self.metrics.players.set_function(lambda: float(len(self.routes)))
        self.metrics.track_hands(self.hands_total)
        self._node_rev = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._taking: set[str] = set()
        self._owned_version = 0  # changes whenever a table is taken or lost (balancing's memo)
        self._elsewhere_key: tuple[tuple[str, ...], int] | None = None
        self._elsewhere: list[str] = []
        self._stopping = False
        self.started = time.time()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        await self.link.connect()
        # the room's database is this node's, or it stops here (RoomMismatch): before it takes any table record
        await claim_room(self.link.room, self.names.prefix, database_identity(self.store))
        self.link.on_reconnect(self._reconnected)
        await self.room.start(void_unsettled=False)
        self._node_rev = await self._register()
        await self.nodes.start()
        await self.presence.start()
        await self.records.start()
        with contextlib.suppress(KeyWrongLastSequenceError):  # the room's Twister offer: one record, any host runs it
            await self.link.tables.create(TWISTER_OFFER, TableRecord(id=TWISTER_OFFER, kind="twister",
                                                                     entry={}).encode())
        await self.link.client.subscribe(self.names.peer(self.node), cb=self._on_peer)
        loop = asyncio.get_running_loop()
        for name, body in (("heartbeat", self._heartbeat_loop), ("scan", self._scan_loop),
                           ("records", self._record_loop)):
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
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # a batch at a time: one at a time, a host with 800 tables took over 120 s to stop while NATS was busy
        await gather_in_batches(self._release, list(self.owned), RELEASE_BATCH, return_exceptions=True)
        await self.tourneys.service.close()
        with contextlib.suppress(Exception):
            await self.link.nodes.delete(self.node)
        for mirror in (self.records, self.presence, self.nodes):
            await mirror.stop()
        await self.link.close()
        self.gateway.close()

    async def _register(self) -> int:
        info = NodeInfo(node=self.node, role="tables", started=self.started).model_dump_json().encode()
        rev = int(await self.link.nodes.put(self.node, info))
        self._renewed_at = time.monotonic()
        return rev

    def lease_ok(self) -> bool:
        """Our node lease was renewed less than a lease period ago. When not (we were paused, or NATS was away),
        other hosts may own our tables: send no frames and answer no commands until we know (the store's fence
        stops any money of ours anyway)."""
        return time.monotonic() - self._renewed_at < self.opt.lease_seconds

    def _lease_confirmed(self) -> None:
        """A renewal succeeded (the node key was never lost, so no other host took our tables): what waited for
        it goes out now: the frames and the commands."""
        self.router.release()
        held, self._held = self._held, []
        loop = asyncio.get_running_loop()
        for msg, peer in held:
            loop.create_task(self._answer(msg, peer=peer))

    def _lease_was_lost(self) -> None:
        """Our node key expired and ``_verify_owned`` dropped the tables other hosts took: the frames that waited
        are dropped (the tables we kept send their views again, so every player there sees the table as it is,
        with their turn); the commands that waited are answered for the tables we kept (the others' new owners
        answered them)."""
        dropped = self.router.drop_held()
        for tid in list(self.owned):
            table = self.room.tables.get(tid)
            if table is not None:
                table.actor.post(functools.partial(_resend_views, table))
        held, self._held = self._held, []
        loop = asyncio.get_running_loop()
        kept = 0
        for msg, peer in held:
            tid = msg.subject[len(self.names.command("")):]
            if peer or tid in self.owned:
                kept += 1
                loop.create_task(self._answer(msg, peer=peer))
        log.warning("%s: lease lost and renewed: %d waiting frames dropped (views sent again), %d of %d waiting "
                    "commands answered", self.node, dropped, kept, len(held))

    async def _reconnected(self) -> None:
        for mirror in (self.nodes, self.presence, self.records):
            await mirror.restart()
        now = time.monotonic()
        for n in list(self.last_seen):
            self.last_seen[n] = now  # nobody renewed while NATS was away: give every node a new lease period

    def hands_total(self) -> int:
        return sum(t.hand_no for t in self.room.tables.values()) + sum(
            p.hands_settled for p in self.room.pools.values())

    # ------------------------------------------------------------------ liveness
    def _node_seen(self, node: str, info: NodeInfo | None) -> None:
        if info is None:
            self.last_seen.pop(node, None)
            if node != self.node:
                self._gateway_gone(node)
        else:
            self.last_seen[node] = time.monotonic()
            self._missing_since.pop(node, None)
            if node in self._gone_gateways:
                self._gateway_back(node)

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

    async def _heartbeat_loop(self) -> None:
        period = self.opt.lease_seconds / 4
        info = NodeInfo(node=self.node, role="tables", started=self.started).model_dump_json().encode()
        while True:
            await asyncio.sleep(period)
            try:
                self._node_rev = int(await self.link.nodes.update(self.node, info, last=self._node_rev))
                late = time.monotonic() - self._renewed_at >= self.opt.lease_seconds
                self._renewed_at = time.monotonic()
                if late or self._held or self.router.held_now:
                    if late:
                        log.warning("%s: lease renewal was late (loop or NATS slow); %d frames and %d commands "
                                    "waited for it", self.node, self.router.held_now, len(self._held))
                    self._lease_confirmed()
            except KeyWrongLastSequenceError:
                # our node lease expired (paused, or NATS was away): hosts may have taken our tables
                log.warning("%s: node lease lost; checking every table", self.node)
                try:
                    await self._verify_owned()  # first: until then we stay silent (lease_ok is false)
                    self._node_rev = await self._register()
                    self._lease_was_lost()
                except Exception:
                    log.warning("%s: could not renew", self.node, exc_info=True)
            except Exception:
                continue  # NATS is away: the reconnection brings us back
            if rtt := await self.link.measure_rtt():
                self.metrics.nats_rtt.set(rtt)
            self.metrics.nats_reconnects.set(self.link.reconnects)
            await self._check_gateways()

    async def _verify_owned(self) -> None:
        for tid, own in list(self.owned.items()):
            try:
                entry = await self.link.tables.get(tid)
            except KeyNotFoundError:
                entry = None
            if entry is None or entry.revision != own.rev or TableRecord.decode(entry.value or b"").owner != self.node:
                log.warning("%s: table %s was taken over; dropping it", self.node, tid)
                await self._lose(tid)

    async def _check_gateways(self) -> None:
        """A gateway whose renewals we have not seen for a lease is gone only if its key is gone (a direct read, as
        for hosts in :meth:`_is_dead`): after a stall of this host's loop (a loaded machine) the watcher's renewals
        are still queued behind it, and taking a live gateway for dead disconnected all its players (R-DISC)."""
        now = time.monotonic()
        for node, (info, _) in list(self.nodes.items.items()):
            if info.role == "gateway" and now - self.last_seen.get(node, now) > self.opt.lease_seconds:
                try:
                    dead = await self._is_dead(node, now)
                except Exception:  # NATS is away: decide nothing now
                    continue
                if not dead:
                    self._missing_since.pop(node, None)
                    self.last_seen[node] = time.monotonic()
                elif now - self._missing_since.setdefault(node, now) >= self.opt.gateway_grace_seconds:
                    self._missing_since.pop(node, None)
                    self._gateway_gone(node)

    def _gateway_gone(self, gateway: str) -> None:
        """A gateway died: its players are disconnected (R-DISC) until they reconnect through another one."""
        gone = [p for p, g in self.routes.items() if g == gateway]
        for pid in gone:
            del self.routes[pid]
            self.room.detach(pid)
            self.tourneys.lobby.disconnected(pid)  # R-DISC-1/2 in this host's tournaments
        if gone:
            self._gone_gateways.add(gateway)
            log.warning("%s: gateway %s is gone: %d players disconnected", self.node, gateway, len(gone))

    def _gateway_back(self, gateway: str) -> None:
        """A gateway taken for dead renews its key again (its key had expired while its loop or NATS was slow,
        but its connections lived): the players the ``presence`` bucket still shows on it are routed there again
        and get their tables' views (R-DISC: a reconnection). Without this they stayed disconnected for the host
        -- no frames, so no turn to act on -- until they sent a command of their own."""
        self._gone_gateways.discard(gateway)
        back = [int(key) for key, (gw, _) in list(self.presence.items.items())
                if gw == gateway and key.isdigit() and self.routes.get(int(key)) != gateway]
        for pid in back:
            self._route(pid, gateway)
        log.warning("%s: gateway %s is back: %d players routed to it again", self.node, gateway, len(back))

    # ------------------------------------------------------------------ players
    def _presence_changed(self, key: str, gateway: str | None) -> None:
        try:
            pid = int(key)
        except ValueError:
            return
        if gateway is None:
            if self.routes.pop(pid, None) is not None:
                self.room.detach(pid)
                # the tournaments run here hear it too: the reconnect window in turn, away at the deal (R-DISC-1/2)
                self.tourneys.disconnected(pid)  # and the tournament hands dealt here for other hosts
        else:
            self._route(pid, gateway)
            if self.tourneys.lobby.directors or self.tourneys.service.shadows:  # (R-TOURN-REG-5, R-DISC-1)
                asyncio.get_running_loop().create_task(self.tourneys.connected(pid))

    def _route(self, pid: int, gateway: str) -> None:
        self.routes[pid] = gateway
        self.room.attach(pid, _no_sink, immediate=functools.partial(self.router.send, pid))

    async def _publish(self, gateway: str, data: bytes) -> None:
        await self.link.client.publish(self.names.gateway(gateway), data)

    # ------------------------------------------------------------------ ownership
    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.opt.scan_seconds)
            try:
                await self._scan()
            except (TimeoutError, NatsError):
                continue
            except Exception:
                log.exception("%s: ownership scan failed", self.node)

    async def _scan(self) -> None:
        now = time.monotonic()
        hosts = self.live_hosts()
        dead: dict[str, bool] = {}
        wanted: list[tuple[str, TableRecord, int]] = []
        for tid, (rec, rev) in list(self.records.items.items()):
            if tid in self.owned or tid in self._taking:
                continue
            owner = rec.owner
            if owner and owner != self.node:
                if owner not in dead:
                    dead[owner] = await self._is_dead(owner, now)
                if not dead[owner]:
                    self.unowned_since.pop(tid, None)
                    continue
            since = self.unowned_since.setdefault(tid, now)
            best = preferred_host(hosts, tid)
            if best == self.node or now - since >= self.opt.grace_seconds:
                wanted.append((tid, rec, rev))
        await gather_in_batches(lambda w: self._take(*w), wanted, TAKE_BATCH)
        await self._balance(hosts)
        await self.tourneys.check_hosts(self.live_hosts())  # now: the scan's list may be older than a deal
        await self.tourneys.service.sweep(self._tournament_over)

    async def _is_dead(self, owner: str, now: float) -> bool:
        if now - self.last_seen.get(owner, 0.0) < self.opt.lease_seconds:
            return False
        try:
            await self.link.nodes.get(owner)
        except KeyNotFoundError:
            return True
        return False

    async def _edited(self, old: str, new: str) -> None:
        """An operator edited tournament ``old`` (R-OPER-2): the edited one, ``new``, is taken here at once (its
        detail is read next); ``old`` (cancelled in the store) leaves the cluster."""
        if new not in self.owned and new not in self._taking:
            entry = await self.link.tables.get(new)
            rec = TableRecord.decode(entry.value or b"")
            if not rec.owner:
                await self._take(new, rec, int(entry.revision or 0))
        await self._forget(old)

    async def _forget(self, tid: str) -> None:
        """A tournament over (an edited one's old id, a finished Twister): dropped here and its record deleted."""
        own = self.owned.get(tid)
        await self._lose(tid)
        if own is not None:
            with contextlib.suppress(KeyWrongLastSequenceError):
                await self.link.tables.delete(tid, last=own.rev)

    async def _take(self, tid: str, rec: TableRecord, rev: int) -> None:
        self._taking.add(tid)
        try:
            new = rec.model_copy(update={"owner": self.node})
            try:
                epoch = int(await self.link.tables.update(tid, new.encode(), last=rev))
            except KeyWrongLastSequenceError:
                return  # another host was faster
            claim = await self.gateway.call(self.store.fences.claim, tid, self.node, epoch)
            self.gateway.epochs[tid] = epoch
            failover = bool(rec.owner)
            if failover:
                self.metrics.failovers.inc()
            self.metrics.voided.inc(len(claim.voided))
            try:
                await self._reopen(tid, rec, claim.stacks, epoch, failover, max(rec.hands_played, claim.hands))
                if "twister" in rec.entry and self.tourneys.get(tid) is None:  # nothing to run (a Twister
                    self.gateway.epochs.pop(tid, None)  # cancelled in registration, or over): the record goes
                    with contextlib.suppress(KeyWrongLastSequenceError):
                        await self.link.tables.delete(tid, last=epoch)
                    return
                sub = await self.link.client.subscribe(self.names.command(tid), cb=self._on_command)
            except Exception:
                self.gateway.epochs.pop(tid, None)
                await self.room.drop(tid)
                raise
            self.owned[tid] = Owned(epoch=epoch, rev=epoch, sub=sub)
            self._owned_version += 1
            self.unowned_since.pop(tid, None)
            log.warning("%s: took table %s (epoch %d%s, %d hand(s) voided)", self.node, tid, epoch,
                        ", failover" if failover else "", len(claim.voided))
        except Exception:
            log.exception("%s: taking table %s failed", self.node, tid)
        finally:
            self._taking.discard(tid)

    async def _reopen(self, tid: str, rec: TableRecord, stacks: dict[str, dict[int, int]], epoch: int,
                      failover: bool, hands_played: int) -> None:
        """Open the table here with the stacks as after its last settled hand; with ``cash_out_on_crash`` (R-SERVER-3)
        after a failover, or for a Speed Poker pool (whose players re-join), the stacks go back to the balances."""
        if rec.kind == "tournament":  # the whole tournament runs here: resumed from its last completed hands
            await self.tourneys.open(tid, rec)
            return
        if rec.kind == "twister":  # the offer: ``self.twister`` answers its commands from now on
            return
        spec = spec_from_record(rec)
        mine = stacks.get(spec.currency, {})
        if isinstance(spec, SpeedSpec) or (failover and self.room.cashes_out_on_crash(spec)):
            for currency, by_player in stacks.items():
                for pid in by_player:
                    await self.gateway.call(self.store.ledger.cash_out, pid, tid, f"failover:{tid}:{epoch}:{pid}",
                                            currency=currency)
            mine = {}
        if isinstance(spec, SpeedSpec):
            await self.room.open_speed_pool(spec, pool_id=tid)
            return
        await self.room.open_table(spec, table_id=tid)
        table = self.room.tables[tid]
        placed = {pid: seat for seat, pid in rec.seats.items() if pid in mine and 0 <= seat < spec.max_seats}
        free = [s for s in range(spec.max_seats) if s not in placed.values()]
        for pid in sorted(mine):  # chips on the table but no seat on record (seated just before the crash)
            if pid not in placed and free:
                placed[pid] = free.pop(0)
        seats = [(pid, seat, mine[pid], await self.room.alias_of(pid)) for pid, seat in sorted(placed.items())]
        table.reopen(seats, hands_played, rec.button)
        for pid, *_ in seats:
            if pid in self.routes:
                self._route(pid, self.routes[pid])
            else:
                self.room.detach(pid)  # not connected: sat out (R-DISC-3) until they come back

    def _fenced(self, tid: str) -> None:
        asyncio.get_running_loop().create_task(self._lose(tid))

    async def _lose(self, tid: str) -> None:
        """The table belongs to another host now: forget it here, money untouched."""
        own = self.owned.pop(tid, None)
        self._owned_version += 1
        self.gateway.epochs.pop(tid, None)
        if own is not None and own.sub is not None:
            with contextlib.suppress(Exception):
                await own.sub.unsubscribe()
        await self.tourneys.close(tid)
        await self.room.drop(tid)

    async def _release(self, tid: str) -> None:
        """Hand a table back (balancing, or this host stops): drop it here, then clear its owner."""
        own = self.owned.get(tid)
        if own is None:
            return
        rec = self._record(tid)
        await self._lose(tid)
        if rec is not None:
            with contextlib.suppress(KeyWrongLastSequenceError):
                await self.link.tables.update(tid, rec.model_copy(update={"owner": ""}).encode(), last=own.rev)

    def _preferred_elsewhere(self, hosts: list[str]) -> list[str]:
        """The tables we own whose preferred host is another one of ``hosts``: worked out again only when the live
        hosts or the tables we own change. (Balancing went through every table it owns at each scan, twice a second:
        a host one table over its share whose tables all preferred it looked up 835 tables for nothing each time.)"""
        key = (tuple(hosts), self._owned_version)
        if key != self._elsewhere_key:
            self._elsewhere_key = key
            self._elsewhere = [tid for tid in self.owned if preferred_host(hosts, tid) != self.node]
        return self._elsewhere

    async def _balance(self, hosts: list[str]) -> None:
        """More than our share of tables while other hosts are live: hand idle ones to their preferred host."""
        if len(hosts) < 2 or self._stopping:
            return
        share = math.ceil(len(self.records.items) / len(hosts))
        extra = len(self.owned) - share
        if extra <= 0:
            return
        for tid in list(self._preferred_elsewhere(hosts)):
            if extra <= 0:
                break
            if tid not in self.owned:
                continue
            table = self.room.tables.get(tid)
            if table is None or table.driver is not None or table.actor.busy:
                continue  # pools stay; a table is handed off between two hands only (a deal whose start_hand is
                # being stored has no driver yet but its actor is busy: handing it off then voided that hand)
            await self._release(tid)
            extra -= 1

    # ------------------------------------------------------------------ records (lobby, seats)
    def _record(self, tid: str) -> TableRecord | None:
        base = self.records.items.get(tid)
        if base is None:
            return None
        rec = base[0]
        if rec.kind == "twister":
            return rec.model_copy(update={"owner": self.node, "offer": self.twister.lobby()})
        if rec.kind == "tournament":
            row = self.tourneys.record(tid)
            return None if row is None else rec.model_copy(update={"owner": self.node, "tournament": row})
        table = self.room.tables.get(tid)
        if table is not None:
            return rec.model_copy(update={
                "owner": self.node, "seats": {s: st.player_id for s, st in table.seats.items()},
                "button": table.button, "hands_played": table.hand_no, "lobby": table.lobby_entry()})
        pool = self.room.pools.get(tid)
        if pool is not None:
            return rec.model_copy(update={"owner": self.node, "hands_played": pool.hands_settled,
                                          "lobby": pool.lobby_entry()})
        return None

    def _fingerprint(self, tid: str) -> Any:
        if tid == TWISTER_OFFER:  # what changes in the offer's lobby: the players waiting (lobby() costs 0.5 ms)
            return tuple(sorted((key, len(d.registered)) for key, d in self.twister.open.items()))
        if (row := self.tourneys.record(tid)) is not None:
            return row
        table: Table | None = self.room.tables.get(tid)
        if table is not None:
            return table.hand_no, tuple(table.seats), table.button, len(table.watchers)
        pool: SpeedPool | None = self.room.pools.get(tid)
        return None if pool is None else (pool.hands_settled, len(pool.players))

    async def _record_loop(self) -> None:
        while True:
            await asyncio.sleep(self.opt.record_seconds)
            for tid, own in list(self.owned.items()):
                fp = self._fingerprint(tid)
                if fp == own.fingerprint:
                    continue
                rec = self._record(tid)
                if rec is None:
                    continue
                try:
                    own.rev = int(await self.link.tables.update(tid, rec.encode(), last=own.rev))
                    own.fingerprint = fp
                except KeyWrongLastSequenceError:
                    log.warning("%s: table %s record changed under us; dropping it", self.node, tid)
                    await self._lose(tid)
                except Exception:
                    break  # NATS is away

    # ------------------------------------------------------------------ commands
    async def _on_command(self, msg: Any) -> None:
        if self.lease_ok():
            asyncio.get_running_loop().create_task(self._answer(msg))
        else:  # answered once the lease is renewed; dropped if the table's new owner has it (it answers)
            self._held.append((msg, False))

    async def _on_peer(self, msg: Any) -> None:
        """Another host: R-SITOUT-4 from its room (``cluster/elsewhere.py``), or about a tournament's tables."""
        if self.lease_ok():
            asyncio.get_running_loop().create_task(self._answer(msg, peer=True))
        else:
            self._held.append((msg, True))

    def _tournament_over(self, tournament_id: str) -> bool:
        rec = self.records.items.get(tournament_id)
        row = rec[0].tournament if rec is not None else None
        return rec is None or (row is not None and row.get("status") in OVER_STATUSES)

    def _spec_of(self, tournament_id: str) -> TournamentSpec | None:
        rec = self.records.items.get(tournament_id)
        if rec is None or rec[0].kind != "tournament":
            return None
        return TournamentSpec.from_dict(rec[0].entry["spec"])

    async def _answer(self, msg: Any, *, peer: bool = False) -> None:
        t0 = time.perf_counter()
        tid = msg.subject[len(self.names.command("")):]  # a tournament id may hold dots (an edited one)
        gateway: str | None = None
        try:
            cmd = (PEER if peer else COMMAND).validate_json(msg.data)
        except ValidationError as exc:
            reply = Reply(ok=False, code="bad_request", message=str(exc))
        else:
            if not peer:
                gateway = cmd.gateway
                if self.routes.get(cmd.player) != gateway:
                    self._route(cmd.player, gateway)
            self.router.answering += 1
            try:
                result = await (self._peer(cmd) if peer else self._dispatch(tid, cmd))
                reply = Reply(ok=True, result=dict(result) if result is not None else {})
            except RiverboatError as exc:  # a refusal: the registry's code, as REST and the WebSocket give it
                wire = wire_error(exc)
                assert wire is not None
                reply = Reply(ok=False, code=wire.code, message=wire.message)
            except Exception:
                log.exception("%s: command %s at %s failed", self.node, cmd.op, tid)
                reply = Reply(ok=False, code="internal", message="internal error; the command may not have applied")
            finally:
                self.router.answering -= 1
        data = reply.model_dump_json(exclude_none=True).encode()
        if gateway is not None and (token := self._reply_token(gateway, msg.reply)) is not None:
            self.router.reply(gateway, token, data)  # with the gateway's next frames
        else:
            with contextlib.suppress(Exception):
                await msg.respond(data)
        self.metrics.command.observe(time.perf_counter() - t0)

    async def _peer(self, msg: Any) -> dict[str, Any]:
        """A message from another host: R-SITOUT-4 from a table there (this room applies the rule at its own
        tables of the player), or about a tournament's tables (``cluster/tourney_tables.py``)."""
        if isinstance(msg, PlayerSitOut):
            here = self.room.sit_out_here if msg.out else self.room.sit_in_here
            return {"tables": await here(msg.player)}
        if isinstance(msg, FlightOver):  # R-TOURN-FLIGHT-3: Day 2 (if it runs here) looks whether it may start
            day2 = self.tourneys.get(msg.day2)
            if day2 is not None:
                day2.actor.post(day2.registration.tick)
            return {"day2": msg.day2, "here": day2 is not None}
        return await self.tourneys.peer(msg)

    def _reply_token(self, gateway: str, reply_to: str | None) -> str | None:
        """The token of a gateway's command whose reply may ride in that gateway's deliveries (its reply subject
        is ``Names.replies(gateway).<token>``); None: answer on the reply subject itself."""
        if not reply_to:
            return None
        prefix = self.names.replies(gateway) + "."
        if not reply_to.startswith(prefix):
            return None
        token = reply_to[len(prefix):]
        return token if token and "." not in token else None

    async def _dispatch(self, tid: str, cmd: Any) -> Any:
        room, p = self.room, cmd.player
        match cmd:
            case Execute():  # a player's command, as they sent it (issue #29): the room runs it
                return await room.execute(p, cmd.command, cmd.key)
            case Info():
                return room.table_info(tid)
            case Relay():
                return await room.relay(p, tid, cmd.frame)
            case AliasChanged():
                await room.alias_changed(p, cmd.alias)
                return {"table": tid}
            case TournamentRegister() | TournamentUnregister() | TournamentRebuy() | TournamentAct() | \
                    TournamentDetail() | TournamentOperate():
                return await self.tourneys.dispatch(tid, cmd)
        raise RoomError("bad_request", f"unknown command {cmd.op!r}")


async def _resend_views(table: Table) -> None:
    """Every player and spectator of ``table`` gets its full view again (run inside the table's actor)."""
    table.broadcast_state()


async def _no_sink(frame: RoomFrame) -> None:  # the router's ``immediate`` takes every frame
    return None
