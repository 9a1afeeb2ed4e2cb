"""A table host's :class:`~riverboat.room.port.Elsewhere` (``Room.elsewhere``): the room's other live table hosts,
asked over their peer subjects (:class:`~riverboat.cluster.wire.PlayerSitOut`). The rule itself (R-SITOUT-4) is the
room's, once (``Room.sit_out`` / ``sit_in``); each host applies it to its own tables with the same room methods
(``Room.sit_out_here`` / ``sit_in_here``), so one process and a cluster behave alike."""

from __future__ import annotations

import asyncio
import logging

from riverboat.cluster.tourney_tables import Peers
from riverboat.cluster.wire import PlayerSitOut
from riverboat.room.errors import RoomError

log = logging.getLogger("riverboat.cluster")


class OtherHosts:
    """The other live table hosts of this host's room."""

    def __init__(self, peers: Peers) -> None:
        self.peers = peers

    async def sit_out(self, player_id: int) -> list[str]:
        return await self._everywhere(PlayerSitOut(player=player_id, out=True))

    async def sit_in(self, player_id: int) -> list[str]:
        return await self._everywhere(PlayerSitOut(player=player_id, out=False))

    async def _everywhere(self, message: PlayerSitOut) -> list[str]:
        others = [n for n in self.peers.live_hosts() if n != self.peers.node]
        answers = await asyncio.gather(*(self._ask(n, message) for n in others))
        return [t for tables in answers for t in tables]

    async def _ask(self, node: str, message: PlayerSitOut) -> list[str]:
        try:
            result = await self.peers.ask(node, message)
        except RoomError as exc:  # a host gone or silent: its tables are taken over (R-SERVER), as they were
            log.warning("R-SITOUT-4 for player %s did not reach host %s: %s", message.player, node, exc)
            return []
        tables = result.get("tables")
        return [t for t in tables if isinstance(t, str)] if isinstance(tables, list) else []
