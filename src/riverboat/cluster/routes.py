"""Where each player's frames go from a table host (a part of :class:`~riverboat.cluster.host.TableHostNode`, issue
#29): player -> the gateway that holds their connection, from the ``presence`` bucket (watched) and from every
command (which names its gateway); the host's :class:`~riverboat.cluster.delivery.Router`, which sends the frames of
each event-loop turn (or delivery window) to each gateway in one NATS message; and the players of a gateway that
died (disconnected, R-DISC) or came back (routed again, their tables' views sent)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

from riverboat.cluster.delivery import Router
from riverboat.cluster.link import Link
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.names import Names
from riverboat.cluster.tourney import TournamentHosting
from riverboat.room import Room
from riverboat.room.frames import RoomFrame

log = logging.getLogger("riverboat.cluster")


class PlayerRoutes:
    """The players this host reaches, by gateway. ``hold()``: True while the frames must wait (the host's lease
    renewal is late)."""

    def __init__(self, node: str, room: Room, tourneys: TournamentHosting, link: Link, names: Names, *,
                 hold: Callable[[], bool], window: float) -> None:
        self.node = node
        self.room = room
        self.tourneys = tourneys
        self.link = link
        self.names = names
        self.routes: dict[int, str] = {}  # player -> the gateway that holds their connection
        # while a lease renewal is late the frames wait (not dropped: a late renewal is not a lost lease)
        # routed by the dict itself (``routes.get``): the router looks up every recipient of every frame
        self.router = Router(self._publish, self.routes.get, hold=hold, window=window)
        self.presence: KvMirror[str] = KvMirror(lambda: self.link.presence, bytes.decode, self.presence_changed,
                                                name="presence")
        self.gone_gateways: set[str] = set()  # gateways taken for dead whose players' routes were dropped

    def route(self, pid: int, gateway: str) -> None:
        self.routes[pid] = gateway
        self.room.attach(pid, _no_sink, immediate=functools.partial(self.router.send, pid))

    async def _publish(self, gateway: str, data: bytes) -> None:
        await self.link.client.publish(self.names.gateway(gateway), data)

    def presence_changed(self, key: str, gateway: str | None) -> None:
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
            self.route(pid, gateway)
            if self.tourneys.lobby.directors or self.tourneys.service.shadows:  # (R-TOURN-REG-5, R-DISC-1)
                asyncio.get_running_loop().create_task(self.tourneys.connected(pid))

    def gateway_gone(self, gateway: str) -> None:
        """A gateway died: its players are disconnected (R-DISC) until they reconnect through another one."""
        gone = [p for p, g in self.routes.items() if g == gateway]
        for pid in gone:
            del self.routes[pid]
            self.room.detach(pid)
            self.tourneys.lobby.disconnected(pid)  # R-DISC-1/2 in this host's tournaments
        if gone:
            self.gone_gateways.add(gateway)
            log.warning("%s: gateway %s is gone: %d players disconnected", self.node, gateway, len(gone))

    def gateway_renewed(self, gateway: str) -> None:
        """A gateway taken for dead renews its key again (its key had expired while its loop or NATS was slow,
        but its connections lived): the players the ``presence`` bucket still shows on it are routed there again
        and get their tables' views (R-DISC: a reconnection). Without this they stayed disconnected for the host
        -- no frames, so no turn to act on -- until they sent a command of their own."""
        if gateway not in self.gone_gateways:
            return
        self.gone_gateways.discard(gateway)
        back = [int(key) for key, (gw, _) in list(self.presence.items.items())
                if gw == gateway and key.isdigit() and self.routes.get(int(key)) != gateway]
        for pid in back:
            self.route(pid, gateway)
        log.warning("%s: gateway %s is back: %d players routed to it again", self.node, gateway, len(back))


async def _no_sink(frame: RoomFrame) -> None:  # the router's ``immediate`` takes every frame
    return None
