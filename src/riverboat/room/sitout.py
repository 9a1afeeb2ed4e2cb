"""R-SITOUT-4, once (a part of :class:`~riverboat.room.Room`, issue #29): sitting out at one cash table sits the
player out at all their cash tables, and back in at one is back in at all -- this room's tables and, in a cluster,
the other table hosts' (``elsewhere``: :class:`~riverboat.room.port.Elsewhere`, each host applying the same
:meth:`SitOutRule.sit_out_here` / :meth:`SitOutRule.sit_in_here` to its own tables)."""

from __future__ import annotations

import contextlib
import functools

from riverboat.room.errors import RoomError
from riverboat.room.port import Elsewhere
from riverboat.room.registry import Registry
from riverboat.room.replies import SatIn, SatOut


class SitOutRule:
    """Sit out / back in at one cash table, and at every other cash table of the player."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        #: the room's tables in other processes (a cluster's other table hosts); None: every table is here
        self.elsewhere: Elsewhere | None = None

    async def sit_out(self, player_id: int, table_id: str) -> SatOut:
        """R-SITOUT-4: sitting out at one cash table sits the player out at all their cash tables: this room's
        (:meth:`sit_out_here`) and, in a cluster, those of the other table hosts (:attr:`elsewhere`)."""
        table = self.registry.table(table_id)
        if table.seat_of(player_id) is None:
            raise RoomError("not_seated", "you are not seated at this table")
        await table.actor.submit(lambda: table.sit_out(player_id))
        others = await self.sit_out_here(player_id, skip=table_id)
        if self.elsewhere is not None:
            others += await self.elsewhere.sit_out(player_id)
        return SatOut(table=table_id, also_sat_out=sorted(others))

    async def sit_in(self, player_id: int, table_id: str, post: bool = False) -> SatIn:
        """Back from sitting out; R-SITOUT-4 (no sitting out at one cash table while playing at another): back at
        the player's other cash tables too (:meth:`sit_in_here`, and :attr:`elsewhere`'s), waiting for the big
        blind there (``post`` is this table's choice)."""
        table = self.registry.table(table_id)
        result = await table.actor.submit(lambda: table.sit_in(player_id, post))
        others = await self.sit_in_here(player_id, skip=table_id)
        if self.elsewhere is not None:
            others += await self.elsewhere.sit_in(player_id)
        return result.model_copy(update={"also_sat_in": sorted(others)})

    async def sit_out_here(self, player_id: int, skip: str | None = None) -> list[str]:
        """R-SITOUT-4 at this room's cash tables where the player sits and plays (``skip``: the one they chose):
        sat out there too. The tables where that happened."""
        done = []
        for tid in self.registry.tables_of(player_id):
            table = self.registry.tables.get(tid)
            st = table.seat_of(player_id) if table is not None and tid != skip else None
            if table is not None and st is not None and not st.sitting_out:
                await table.actor.submit(functools.partial(table.sit_out, player_id, reason="R-SITOUT-4"))
                done.append(tid)
        return done

    async def sit_in_here(self, player_id: int, skip: str | None = None) -> list[str]:
        """R-SITOUT-4's other half at this room's cash tables where the player sits out (``skip``: the one they
        chose): back in, waiting for the big blind; a table where they have no chips left stays as it is."""
        done = []
        for tid in self.registry.tables_of(player_id):
            table = self.registry.tables.get(tid)
            st = table.seat_of(player_id) if table is not None and tid != skip else None
            if table is not None and st is not None and st.sitting_out:
                with contextlib.suppress(RoomError):  # no chips there (bad_amount): sat out until topped up
                    await table.actor.submit(functools.partial(table.sit_in, player_id, False))
                    done.append(tid)
        return done
