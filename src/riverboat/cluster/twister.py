"""Twister in the cluster (docs/cluster.md "Twister"; RULES.md section 21).

The room's Twister offer is one record of the ``tables`` bucket (kind ``twister``, id
:data:`~riverboat.room.commands.TWISTER_OFFER`), owned by one table host like a table. Its host runs the room's
:class:`~riverboat.room.twister.offers.TwisterOffers` -- the same code as one process -- and a gateway forwards
``twister_play`` there with the generic command (``wire.Execute``; ``target_of`` names the offer). Every Sit & Go
the offer opens is a cluster tournament record (:class:`HostedTwisters`) that this host takes at once: its
registration, the spin and prize draw (``store.twister.spin``), its one table and its end run on the offer's host;
the players' ``tournament_act`` go to it as to any cluster tournament. If that host dies, another takes the record
and resumes the Twister from the store with its stored spin (R-SERVER-1), or, if it was still registering, cancels
it and refunds every stake (as one process after a restart). A finished Twister's record goes (its results stay in
the store).

The gateway's side, :class:`RemoteTwister`: the offer's lobby as its host last wrote it in the record, the player's
Twisters from the tournament records, the operator's interrupt forwarded to the Twister's host.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from nats.js.errors import KeyWrongLastSequenceError

from riverboat.cluster.link import Link
from riverboat.cluster.tourney import TournamentHosting
from riverboat.cluster.tourney_tables import Peers
from riverboat.cluster.wire import TableRecord, TournamentOperate
from riverboat.room.commands import TWISTER_OFFER
from riverboat.room.errors import RoomError
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.lifecycle import Status
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.twister.offers import OnStart
from riverboat.twister import TwisterSettings

if TYPE_CHECKING:  # pragma: no cover
    from riverboat.cluster.remote import RemoteRoom

Take = Callable[[str, TableRecord, int], Awaitable[None]]
Forget = Callable[[str], Awaitable[None]]
OVER = frozenset({Status.FINISHED.value, Status.CANCELLED.value, Status.INTERRUPTED.value})


class HostedTwisters:
    """Where the offer's Sit & Go's run on a table host (:class:`~riverboat.room.twister.offers.TwisterTables`):
    each one a tournament record of the cluster, taken by this host at once (``take``: the host's own taking of a
    record, lease epoch and fence included) and dropped with its record when it is over (``forget``)."""

    def __init__(self, hosting: TournamentHosting, link: Link, peers: Peers, take: Take, forget: Forget) -> None:
        self.hosting = hosting
        self.link = link
        self.peers = peers
        self.take = take
        self._forget = forget

    def takes(self, tournament_id: str) -> bool:
        """Only an id whose preferred host (the rendezvous hash over the live hosts) is this one: no other host
        reaches for the new record before this one has taken it."""
        return self.peers.place(tournament_id) == self.peers.node

    async def open(self, tournament_id: str, spec: TournamentSpec, settings: TwisterSettings,
                   on_start: OnStart) -> Director:
        rec = TableRecord(id=tournament_id, kind="tournament",
                          entry={"spec": spec.to_dict(), "series": False, "twister": asdict(settings)})
        try:
            rev = int(await self.link.tables.create(tournament_id, rec.encode()))
        except KeyWrongLastSequenceError:
            raise RoomError("table_unavailable", f"Twister {tournament_id} exists already; try again") from None
        await self.take(tournament_id, rec, rev)  # TournamentHosting.open: configured, declared, registering
        d = self.hosting.get(tournament_id)
        if d is None:
            await self._forget(tournament_id)
            raise RoomError("table_unavailable", "the Twister could not be opened on this host; try again")
        d.on_start = on_start
        return d

    async def forget(self, d: Director) -> None:
        await self._forget(d.id)


class RemoteTwister:
    """The room's Twister offer seen from a gateway: the interface of
    :class:`~riverboat.room.twister.offers.TwisterOffers` the server uses (``hub.twister``)."""

    def __init__(self, room: RemoteRoom) -> None:
        self.room = room

    def lobby(self) -> dict[str, Any]:
        """As :meth:`TwisterOffers.lobby`, written by the offer's host into its record (fresh within a second)."""
        found = self.room.records.items.get(TWISTER_OFFER)
        offer = found[0].offer if found is not None else None
        if offer is None:
            raise RoomError("table_unavailable", "the Twister offer is between hosts; it is back within seconds")
        return copy.deepcopy(offer)

    def tournaments_of(self, player_id: int) -> list[str]:
        """The player's Twisters not yet over (from their records' lobby rows)."""
        out = []
        for tid in list(self.room.twisters):
            found = self.room.records.items.get(tid)
            row = found[0].tournament if found is not None else None
            if row is not None and row.get("status") not in OVER and player_id in (row.get("players") or ()):
                out.append(tid)
        return sorted(out)

    async def connected(self, player_id: int) -> None:
        """A player of a running Twister logs in or opens the Twister page again: their presence is written again,
        which the Twister's host takes as a return (R-TOURN-REG-5, R-DISC-1): it sends them the table, as one
        process does."""
        if self.tournaments_of(player_id) and self.room.is_connected(player_id):
            with contextlib.suppress(Exception):  # NATS away: the table comes with the next frame anyway
                await self.room.link.presence.put(str(player_id), self.room.node.encode())

    def disconnected(self, player_id: int) -> None:
        """The player's presence goes: the Twister's host applies R-DISC-1/2."""

    async def interrupt(self, tournament_id: str) -> dict[str, Any]:
        """R-TOURN-INT-9/10, run by the Twister's host (``TournamentHosting.operate``)."""
        if tournament_id not in self.room.twisters:
            raise RoomError("no_tournament", f"no running Twister {tournament_id}")
        return await self.room._request(tournament_id, self.room._c(TournamentOperate, 0, action="interrupt"))


    async def recover(self) -> dict[str, list[str]]:
        """Nothing to recover at a gateway: a host that takes a Twister's record resumes it."""
        return {"resumed": [], "cancelled": []}

    async def close(self) -> None:
        """Nothing to stop at a gateway: the Twisters run on their hosts."""
