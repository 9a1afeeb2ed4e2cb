"""The ``tables`` records a table host writes (a part of :class:`~riverboat.cluster.host.TableHostNode`, issue #29):
for each table, pool or tournament it owns, its lobby entry, seats -> player as after the last settled hand, button
and hands played (a tournament: its lobby row; the Twister offer: its lobby), written when they changed, at most
once per ``record_seconds`` (a cheap fingerprint says whether they did). Every gateway watches the bucket: the lobby
is the union of the hosts' records, fresh within a second, and a table's next owner reopens it from its record."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from nats.js.errors import KeyWrongLastSequenceError

from riverboat.cluster.link import Link
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.ownership import Owned
from riverboat.cluster.tourney import TournamentHosting
from riverboat.cluster.wire import TableRecord
from riverboat.room import Room
from riverboat.room.commands import TWISTER_OFFER
from riverboat.room.speed import SpeedPool
from riverboat.room.table import Table
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.twister.offers import TwisterOffers

log = logging.getLogger("riverboat.cluster")


def tournament_spec(records: KvMirror[TableRecord], tournament_id: str) -> TournamentSpec | None:
    """The spec of a tournament of the cluster, from its record (None: not a tournament record)."""
    rec = records.items.get(tournament_id)
    if rec is None or rec[0].kind != "tournament":
        return None
    return TournamentSpec.from_dict(rec[0].entry["spec"])


class RecordKeeper:
    """Writes the records of the tables this host owns (``owned``); ``lose``: a record changed under us (another
    host has the table)."""

    def __init__(self, node: str, link: Link, options_seconds: float, records: KvMirror[TableRecord], room: Room,
                 tourneys: TournamentHosting, twister: TwisterOffers, owned: dict[str, Owned], *,
                 lose: Callable[[str], Awaitable[None]]) -> None:
        self.node = node
        self.link = link
        self.seconds = options_seconds
        self.records = records
        self.room = room
        self.tourneys = tourneys
        self.twister = twister
        self.owned = owned
        self.lose = lose

    def record(self, tid: str) -> TableRecord | None:
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

    def fingerprint(self, tid: str) -> object:
        if tid == TWISTER_OFFER:  # what changes in the offer's lobby: the players waiting (lobby() costs 0.5 ms)
            return tuple(sorted((key, len(d.registered)) for key, d in self.twister.open.items()))
        if (row := self.tourneys.record(tid)) is not None:
            return row
        table: Table | None = self.room.tables.get(tid)
        if table is not None:
            return table.hand_no, tuple(table.seats), table.button, len(table.watchers)
        pool: SpeedPool | None = self.room.pools.get(tid)
        return None if pool is None else (pool.hands_settled, len(pool.players))

    async def loop(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            for tid, own in list(self.owned.items()):
                fp = self.fingerprint(tid)
                if fp == own.fingerprint:
                    continue
                rec = self.record(tid)
                if rec is None:
                    continue
                try:
                    own.rev = int(await self.link.tables.update(tid, rec.encode(), last=own.rev))
                    own.fingerprint = fp
                except KeyWrongLastSequenceError:
                    log.warning("%s: table %s record changed under us; dropping it", self.node, tid)
                    await self.lose(tid)
                except Exception:
                    break  # NATS is away
