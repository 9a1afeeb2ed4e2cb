"""Which tables a table host owns, and failover (a part of :class:`~riverboat.cluster.host.TableHostNode`, issue
#29; docs/cluster.md "Ownership, leases and fencing"). A host takes a table that has no owner, or whose owner's node
key is gone: at once if it is the table's preferred host (rendezvous hash over the live table hosts), otherwise
after ``grace`` seconds; the revision of the record write that made it the owner is its epoch for the table, with
which it claims the table in the store (the unsettled hand voided, R-SERVER-1) and reopens it with the stacks as
after the last settled hand (R-SERVER-3). A host over its share hands idle tables to their preferred host between
two hands (balancing). A table lost (its record changed under us, the store says ``fenced``, the host stops) is
dropped here without touching its money."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

from riverboat.cluster.batches import gather_in_batches
from riverboat.cluster.fencing import FencedGateway
from riverboat.cluster.link import Link
from riverboat.cluster.liveness import Liveness
from riverboat.cluster.metrics import NodeMetrics
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.names import Names, preferred_host
from riverboat.cluster.options import HostOptions
from riverboat.cluster.routes import PlayerRoutes
from riverboat.cluster.tourney import TournamentHosting
from riverboat.cluster.wire import TableRecord
from riverboat.room import Room, SpeedSpec, TableSpec
from riverboat.room.tournament.lifecycle import OVER
from riverboat.store import Store

log = logging.getLogger("riverboat.cluster")

Spec = TableSpec | SpeedSpec
TAKE_BATCH = 16  # tables taken over at once
OVER_STATUSES = frozenset(s.value for s in OVER)  # a tournament's lobby status once it is over


@dataclass
class Owned:
    epoch: int
    rev: int
    sub: Subscription | None = None  # this host's subscription to the table's command subject
    fingerprint: object = None  # what the table's record was last written from (records.py: compared, never read)


def spec_from_record(rec: TableRecord) -> Spec:
    cls: type[TableSpec] | type[SpeedSpec] = SpeedSpec if rec.kind == "speed" else TableSpec
    known = {f.name for f in fields(cls)}
    kwargs = {k: v for k, v in rec.entry.items() if k in known}
    if "spread" in kwargs:
        kwargs["spread"] = tuple(kwargs["spread"])
    return cls(**kwargs)


class Ownership:
    """The tables, pools and tournaments this host owns (``owned``), taken, reopened, balanced and lost.
    ``on_command``: what answers a table's subject once this host owns it; ``record_of``: a table's record as
    this host would write it now (handed back with it)."""

    def __init__(self, node: str, link: Link, names: Names, options: HostOptions, store: Store,
                 gateway: FencedGateway, room: Room, tourneys: TournamentHosting, records: KvMirror[TableRecord],
                 liveness: Liveness, players: PlayerRoutes, metrics: NodeMetrics, *,
                 on_command: Callable[[Msg], Awaitable[None]]) -> None:
        self.node, self.link, self.names, self.opt = node, link, names, options
        self.store = store
        self.gateway = gateway
        self.room = room
        self.tourneys = tourneys
        self.records = records
        self.liveness = liveness
        self.players = players
        self.metrics = metrics
        self.on_command = on_command
        self.record_of: Callable[[str], TableRecord | None] = lambda tid: None
        self.owned: dict[str, Owned] = {}
        self.unowned_since: dict[str, float] = {}
        self.stopping = False
        self._taking: set[str] = set()
        self._owned_version = 0  # changes whenever a table is taken or lost (balancing's memo)
        self._elsewhere_key: tuple[tuple[str, ...], int] | None = None
        self._elsewhere: list[str] = []

    # ------------------------------------------------------------------ the scan: tables to take, balancing
    async def scan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.opt.scan_seconds)
            try:
                await self.scan()
            except (TimeoutError, NatsError):
                continue
            except Exception:
                log.exception("%s: ownership scan failed", self.node)

    async def scan(self) -> None:
        now = time.monotonic()
        hosts = self.liveness.live_hosts()
        dead: dict[str, bool] = {}
        wanted: list[tuple[str, TableRecord, int]] = []
        for tid, (rec, rev) in list(self.records.items.items()):
            if tid in self.owned or tid in self._taking:
                continue
            owner = rec.owner
            if owner and owner != self.node:
                if owner not in dead:
                    dead[owner] = await self.liveness.is_dead(owner, now)
                if not dead[owner]:
                    self.unowned_since.pop(tid, None)
                    continue
            since = self.unowned_since.setdefault(tid, now)
            best = preferred_host(hosts, tid)
            if best == self.node or now - since >= self.opt.grace_seconds:
                wanted.append((tid, rec, rev))
        await gather_in_batches(lambda w: self.take(*w), wanted, TAKE_BATCH)
        await self.balance(hosts)
        await self.tourneys.check_hosts(self.liveness.live_hosts())  # now: the scan's list may be older than a deal
        await self.tourneys.service.sweep(self.tournament_over)

    def tournament_over(self, tournament_id: str) -> bool:
        rec = self.records.items.get(tournament_id)
        row = rec[0].tournament if rec is not None else None
        return rec is None or (row is not None and row.get("status") in OVER_STATUSES)

    def preferred_elsewhere(self, hosts: list[str]) -> list[str]:
        """The tables we own whose preferred host is another one of ``hosts``: worked out again only when the live
        hosts or the tables we own change. (Balancing went through every table it owns at each scan, twice a second:
        a host one table over its share whose tables all preferred it looked up 835 tables for nothing each time.)"""
        key = (tuple(hosts), self._owned_version)
        if key != self._elsewhere_key:
            self._elsewhere_key = key
            self._elsewhere = [tid for tid in self.owned if preferred_host(hosts, tid) != self.node]
        return self._elsewhere

    async def balance(self, hosts: list[str]) -> None:
        """More than our share of tables while other hosts are live: hand idle ones to their preferred host."""
        if len(hosts) < 2 or self.stopping:
            return
        share = math.ceil(len(self.records.items) / len(hosts))
        extra = len(self.owned) - share
        if extra <= 0:
            return
        for tid in list(self.preferred_elsewhere(hosts)):
            if extra <= 0:
                break
            if tid not in self.owned:
                continue
            table = self.room.tables.get(tid)
            if table is None or table.driver is not None or table.actor.busy:
                continue  # pools stay; a table is handed off between two hands only (a deal whose start_hand is
                # being stored has no driver yet but its actor is busy: handing it off then voided that hand)
            await self.release(tid)
            extra -= 1

    # ------------------------------------------------------------------ taking a table
    async def take(self, tid: str, rec: TableRecord, rev: int) -> None:
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
                sub = await self.link.client.subscribe(self.names.command(tid), cb=self.on_command)
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
        if rec.kind == "twister":  # the offer: the host's ``twister`` answers its commands from now on
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
        routes = self.players.routes
        for pid, *_ in seats:
            if pid in routes:
                self.players.route(pid, routes[pid])
            else:
                self.room.detach(pid)  # not connected: sat out (R-DISC-3) until they come back

    async def edited(self, old: str, new: str) -> None:
        """An operator edited tournament ``old`` (R-OPER-2): the edited one, ``new``, is taken here at once (its
        detail is read next); ``old`` (cancelled in the store) leaves the cluster."""
        if new not in self.owned and new not in self._taking:
            entry = await self.link.tables.get(new)
            rec = TableRecord.decode(entry.value or b"")
            if not rec.owner:
                await self.take(new, rec, int(entry.revision or 0))
        await self.forget(old)

    # ------------------------------------------------------------------ losing a table
    def fenced(self, tid: str) -> None:
        asyncio.get_running_loop().create_task(self.lose(tid))

    async def lose(self, tid: str) -> None:
        """The table belongs to another host now: forget it here, money untouched."""
        own = self.owned.pop(tid, None)
        self._owned_version += 1
        self.gateway.epochs.pop(tid, None)
        if own is not None and own.sub is not None:
            with contextlib.suppress(Exception):
                await own.sub.unsubscribe()
        await self.tourneys.close(tid)
        await self.room.drop(tid)

    async def release(self, tid: str) -> None:
        """Hand a table back (balancing, or this host stops): drop it here, then clear its owner."""
        own = self.owned.get(tid)
        if own is None:
            return
        rec = self.record_of(tid)
        await self.lose(tid)
        if rec is not None:
            with contextlib.suppress(KeyWrongLastSequenceError):
                await self.link.tables.update(tid, rec.model_copy(update={"owner": ""}).encode(), last=own.rev)

    async def forget(self, tid: str) -> None:
        """A tournament over (an edited one's old id, a finished Twister): dropped here and its record deleted."""
        own = self.owned.get(tid)
        await self.lose(tid)
        if own is not None:
            with contextlib.suppress(KeyWrongLastSequenceError):
                await self.link.tables.delete(tid, last=own.rev)

    async def verify_owned(self) -> None:
        """Our node lease expired: every table whose record is not ours at our revision any more is dropped."""
        for tid, own in list(self.owned.items()):
            try:
                entry = await self.link.tables.get(tid)
            except KeyNotFoundError:
                entry = None
            if entry is None or entry.revision != own.rev or TableRecord.decode(entry.value or b"").owner != self.node:
                log.warning("%s: table %s was taken over; dropping it", self.node, tid)
                await self.lose(tid)
