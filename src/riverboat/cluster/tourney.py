"""Tournaments in the cluster (docs/cluster.md "Tournaments"): a tournament is one record of the ``tables`` bucket
(kind ``tournament``), owned by ONE table host at a time through the same lease as a table (its epoch fences the
tournament's hand records, ``tournament_play.hand_done``). The owner runs the tournament's
:class:`~riverboat.room.tournament.director.Director` -- all its tables, one actor, so balancing never races a
hand -- in its room; players' commands come on the tournament's subject, its frames go to the players' gateways
like any table's.

When the host dies another host takes the record and rebuilds the director from the store
(:func:`riverboat.room.tournament.resume.resume`): the hand in progress was never written, so every stack is the one
after its table's last completed hand (R-SERVER-1). A tournament still registering when its host dies reopens its
registration on the new host with the registrations of the store (paid once, in their order).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from nats.js.errors import KeyWrongLastSequenceError

from riverboat.cluster.link import Link
from riverboat.cluster.tourney_tables import ClusterDealing, Peers, TableService
from riverboat.cluster.wire import (
    FlightOver,
    HandPlayed,
    TableAbandon,
    TableAct,
    TableCheck,
    TableDeal,
    TableRecord,
    TableState,
    TableVoid,
    TournamentDetail,
    TournamentOperate,
    TournamentRebuy,
    TournamentRegister,
    TournamentUnregister,
)
from riverboat.room import Room
from riverboat.room.errors import RoomError
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.lifecycle import PLAYING
from riverboat.room.tournament.lobby import TournamentLobby, entry
from riverboat.room.tournament.resume import resume
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.twister import VARIANTS
from riverboat.room.twister.interrupt import interrupt_answer, interrupt_twister
from riverboat.twister import TwisterSettings

log = logging.getLogger("riverboat.cluster")
TournamentCommand = (TournamentRegister | TournamentUnregister | TournamentRebuy | TournamentDetail
                     | TournamentOperate)
Edited = Callable[[str, str], Awaitable[None]]


async def create_tournament(link: Link, tournament_id: str, spec: TournamentSpec, *, series: bool = False) -> bool:
    """Declare a tournament in the cluster (an operator, or the room's first host): its record, without owner; a
    table host takes it and opens registration. False if the id is taken."""
    rec = TableRecord(id=tournament_id, kind="tournament", entry={"spec": spec.to_dict(), "series": series})
    try:
        await link.tables.create(tournament_id, rec.encode())
    except KeyWrongLastSequenceError:
        return False
    return True


class TournamentHosting:
    """The tournaments a table host runs (each on this host only)."""

    def __init__(self, room: Room, link: Link, peers: Peers, spec_of: Callable[[str], TournamentSpec | None],
                 epochs: Mapping[str, int], *, edited: Edited | None = None) -> None:
        self.room = room
        self.link = link
        self.peers = peers
        # the directors here deal through the cluster's part, fenced with this host's lease epoch of their record
        self.dealing = ClusterDealing.factory(peers, epochs)
        self.lobby = TournamentLobby(room)
        self.edited = edited  # (old id, new id): the host takes the new record at once and drops the old one
        self.service = TableService(room, peers, spec_of)  # tables dealt here for other hosts' directors

    def get(self, tid: str) -> Director | None:
        return self.lobby.directors.get(tid)

    async def open(self, tid: str, rec: TableRecord) -> None:
        """Run the tournament here: resume it from the store if it is running, open it if it is new, cancel it
        (refunds) if its last host died during registration."""
        gw = self.room.gateway
        await self.service.drop(tid)  # directed here now: the tables it dealt here for the old director go
        try:
            status: str | None = await gw.call(gw.store.tournaments.status, tid)
        except RoomError as exc:
            if exc.code != "not_found":
                raise
            status = None
        spec, series = TournamentSpec.from_dict(rec.entry["spec"]), bool(rec.entry.get("series"))
        twister = rec.entry.get("twister")
        if twister is not None:  # a Sit & Go of the Twister offer (cluster.twister): its type's settings
            VARIANTS[spec.variant or ""].configure(tid, TwisterSettings.from_dict(twister))
        if status == "registering" and twister is not None:
            # its offer's host died during registration: as one process after a restart, it is cancelled and every
            # stake refunded (the offer opens another); the host then drops the record (nothing runs here)
            await gw.call(gw.store.tournaments.cancel, tid)
            log.warning("Twister %s: cancelled during registration (its host was lost), stakes refunded", tid)
            return
        if status is None:
            d = self._director(tid, spec, series)
            await d.open()
            self.lobby.directors[tid] = d
        elif status == "running":
            d = self.lobby.directors[tid] = await resume(self.room, tid, bots=self.lobby.bots,
                                                         dealing=self.dealing, batch_hands=False)
            # resume() folds every player until they come back (a restarted process knows nobody); here the
            # presence bucket says who is connected through a gateway: they play on at once (R-TOURN-REG-5)
            for pid in [p for p in d.entrants_by_id if self.room.is_connected(p)]:
                await d.actor.submit(lambda pid=pid: d.connected(pid))  # type: ignore[misc]
            log.warning("tournament %s resumed from the store", tid)
        elif status == "registering":
            await self._reopen_registration(tid, spec, series)

    def _director(self, tid: str, spec: TournamentSpec, series: bool) -> Director:
        """The tournament's director here; a Sit & Go of a series declares the next one in the cluster as soon as
        it starts (R-TOURN-SNG-1), which any host may then take."""

        async def reopen(d: Director) -> None:
            base, _, n = tid.partition("~")
            await create_tournament(self.link, f"{base}~{int(n or 0) + 1}", d.spec, series=True)

        # each hand recorded as soon as it is decided (no group commit: a hand played on another host arrives
        # alone, and hosts_lost must never find a played hand still waiting for its record)
        d = Director(self.room, tid, spec, bots=self.lobby.bots, on_start=reopen if series else None,
                     batch_hands=False, dealing=self.dealing)
        if spec.flight is not None:
            d.on_end = self._flight_over
        return d

    async def _flight_over(self, flight: Director) -> None:
        """A Day 1 flight ended (R-TOURN-FLIGHT-3): every live host hears it; the one that runs its Day 2 looks at
        once whether Day 2 may start (the lobby's ``flight_over`` in one process)."""
        assert flight.spec.flight is not None
        for node in self.peers.live_hosts():
            self.peers.tell(node, FlightOver(day2=flight.spec.flight.day2))

    async def _reopen_registration(self, tid: str, spec: TournamentSpec, series: bool) -> None:
        """Its last host died during registration: the registrations (paid, in the store, in their order) stand;
        registration opens again here, and a Sit & Go that is full starts (R-TOURN-SNG-1)."""
        gw = self.room.gateway
        d = self._director(tid, spec, series)
        d.registered = list(await gw.call(gw.store.tournaments.registered, tid))
        d.pool_collected = len(d.registered) * spec.pool_per_entry
        d.actor.start()
        for _ in range(2):  # the lifecycle's next steps by the clock and the field: registering, then maybe the start
            await d.actor.submit(d.registration.tick)
        self.lobby.directors[tid] = d
        log.warning("tournament %s: registration reopened with %d entrant(s)", tid, len(d.registered))

    async def close(self, tid: str) -> None:
        """Stop it here without touching its money (the next owner resumes it, or this host stops)."""
        d = self.lobby.directors.pop(tid, None)
        if d is not None:
            with contextlib.suppress(Exception):
                await d.close()

    def disconnected(self, player_id: int) -> None:
        """A player's presence went (R-DISC-1/2): the tournaments directed here hear it, and so do the hands this
        host deals for directors elsewhere -- the turn's timer runs where the hand is dealt."""
        self.lobby.disconnected(player_id)
        self.service.disconnected(player_id)

    async def connected(self, player_id: int) -> None:
        """A player's presence came (R-TOURN-REG-5, R-DISC-1): as :meth:`disconnected`, both ways."""
        self.service.connected(player_id)
        await self.lobby.connected(player_id)

    def record(self, tid: str) -> dict[str, Any] | None:
        d = self.get(tid)
        return None if d is None else entry(d)

    async def dispatch(self, tid: str, cmd: TournamentCommand) -> dict[str, object]:
        d = self.get(tid)
        if d is None:
            raise RoomError("no_tournament", f"no tournament {tid!r} here (it is over, or between hosts)")
        p = cmd.player
        match cmd:
            case TournamentRegister():
                return await d.register(p, promo_code=cmd.promo_code, password=cmd.password, ticket_id=cmd.ticket)
            case TournamentUnregister():
                return await d.unregister(p)
            case TournamentRebuy(what="rebuy"):
                return await d.rebuy(p)
            case TournamentRebuy(what="decline"):
                return await d.decline_rebuy(p)
            case TournamentRebuy():
                return await d.addon(p)
            case TournamentDetail():
                return self.lobby.detail(tid)
            case TournamentOperate():
                return await self.operate(tid, cmd)
        raise RoomError("bad_request", f"unknown command {cmd.op!r}")

    async def peer(self, msg: HandPlayed | TableDeal | TableVoid | TableAbandon | TableAct | TableState | TableCheck
                   ) -> dict[str, Any]:
        """A message from another host about a tournament's tables (:mod:`.tourney_tables`)."""
        if isinstance(msg, HandPlayed):
            d = self.get(msg.tournament)
            if d is None or not isinstance(d.dealing, ClusterDealing):
                return {"recorded": False}  # not directed here (any more): the hand is void
            return await d.dealing.hand_played(msg)
        assert isinstance(msg, TableDeal | TableVoid | TableAbandon | TableAct | TableState | TableCheck)
        return await self.service.handle(msg)

    async def check_hosts(self, live: list[str]) -> None:
        """Deal again elsewhere the tables of this host's tournaments whose dealing host is gone (R-SERVER-1)."""
        for d in list(self.lobby.directors.values()):
            c = d.dealing
            if isinstance(c, ClusterDealing) and d.status in PLAYING:
                if c.lost_tables(live):
                    await d.actor.submit(functools.partial(c.hosts_lost, live))
                c.check_remote()

    def dealt(self) -> dict[str, int]:
        """Hands dealt on this host by tournament table (its own directors' and other hosts')."""
        out = self.service.dealt()
        for d in self.lobby.directors.values():
            if isinstance(d.dealing, ClusterDealing):
                out.update(d.dealing.dealt_here())
        return out

    async def operate(self, tid: str, cmd: TournamentOperate) -> dict[str, Any]:
        """An operator power (R-OPER-1..5, R-INTEG-5) run here, where the tournament runs: the lobby's own code, so
        a refusal (``bad_state``, ``not_registered``, ``bad_settings``) is the same as in one process."""
        lobby = self.lobby
        match cmd.action:
            case "cancel":
                return await lobby.cancel(tid)
            case "interrupt" if lobby.get(tid).spec.variant in VARIANTS:  # R-TOURN-INT-9/10, as one process
                return interrupt_answer(await interrupt_twister(lobby.get(tid)))
            case "interrupt":
                return await lobby.interrupt(tid)
            case "disqualify":
                if cmd.target is None:
                    raise RoomError("bad_request", "disqualify: name the player (target)")
                return await lobby.disqualify(tid, cmd.target, cmd.player)
        return await self._edit(tid, cmd.changes or {})

    async def _edit(self, tid: str, changes: dict[str, Any]) -> dict[str, Any]:
        """R-OPER-2 in the cluster: the edited tournament is a new record (a new id, as in one process), declared in
        the cluster and taken by this host at once, so that its detail can be read as soon as the answer arrives.
        A tournament players have entered is changed in place (same id, :func:`~riverboat.room.tournament.lobby.
        edit_in_place`)."""
        if self.lobby.get(tid).registered or self.lobby.get(tid).status.value not in ("scheduled", "registering"):
            await self.lobby.edit(tid, changes)
            return {"tournament": tid, "edited": tid}
        spec = await self.lobby.retire_for_edit(tid, changes)
        gw = self.room.gateway
        root = tid.split(".")[0]
        for n in itertools.count(2):
            new = f"{root}.{n}"
            if not await gw.call(gw.store.tournaments.exists, new) and await create_tournament(self.link, new, spec):
                break
        if self.edited is not None:
            await self.edited(tid, new)
        return {"tournament": new, "edited": tid}
