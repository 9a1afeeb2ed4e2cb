"""Every live WebSocket connection of each player (several browser tabs, or tabs and a bot...).

The room keeps one sink per player (:meth:`Room.attach`); the server fans a player's room messages out to all
their connections: each message is named with aliases and encoded once (``Hub.encode_room_message``) and queued
for every connection. A player is attached to the room while at least one of their connections is open and
detached (R-DISC: their timers switch to the reconnect rules) when the last one closes.

Spectator watches are per connection: a table stays watched for the player while any of their connections watches
it, so one tab closing a table does not silence it in another.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .hub import Hub
    from .ws import Connection


class PlayerLinks:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.by_player: dict[int, list[Connection]] = {}

    def of(self, player_id: int) -> list[Connection]:
        return list(self.by_player.get(player_id, ()))

    def all(self) -> list[Connection]:
        return [c for conns in self.by_player.values() for c in conns]

    def add(self, conn: Connection, pid: int) -> None:
        """A connection authenticated as its player ``pid``: attach (again) so every table of theirs sends its full
        view, which the new connection needs (the others get a fresh copy of what they have)."""
        conns = self.by_player.setdefault(pid, [])
        if conn not in conns:
            conns.append(conn)
        self.hub.room.attach(pid, self._sink(pid), immediate=self._deliver(pid),
                             encoded=self._deliver_text(pid))

    def resync(self, pid: int) -> None:
        """The ``resync`` command: every table of the player sends its full view again."""
        self.hub.room.attach(pid, self._sink(pid), immediate=self._deliver(pid),
                             encoded=self._deliver_text(pid))

    def remove(self, conn: Connection, pid: int) -> list[str]:
        """A connection of the player ``pid`` closed. Returns the tables it alone watched (the caller unwatches
        them); the player is detached from the room when it was their last connection."""
        conns = self.by_player.get(pid)
        if not conns or conn not in conns:
            return []
        conns.remove(conn)
        if not conns:
            del self.by_player[pid]
            with contextlib.suppress(Exception):
                self.hub.room.detach(pid)
            for tournaments in (self.hub.tournaments, self.hub.twister):  # R-DISC-1/2 in tournaments
                if tournaments is not None:
                    with contextlib.suppress(Exception):
                        tournaments.disconnected(pid)
            return []
        still = {t for c in conns for t in c.watched}
        return sorted(t for t in conn.watched if t not in still)

    def watched_elsewhere(self, conn: Connection, pid: int, table_id: str) -> bool:
        """Whether another connection of the player ``pid`` (``conn``'s) watches the table."""
        return any(table_id in c.watched for c in self.by_player.get(pid, ()) if c is not conn)

    def _deliver(self, pid: int) -> Any:
        def deliver(message: dict[str, Any]) -> None:
            for c in self.by_player.get(pid, ()):
                c.deliver(message)  # encoded once for all recipients (Hub.encode_room_message)

        return deliver

    def _deliver_text(self, pid: int) -> Callable[[str], None]:
        def deliver_text(text: str) -> None:
            for c in self.by_player.get(pid, ()):
                c.deliver_text(text)  # a cluster host's frame, encoded there: queued as it is

        return deliver_text

    def _sink(self, pid: int) -> Any:
        async def sink(message: dict[str, Any]) -> None:
            named = await self.hub.add_aliases(message)
            for c in self.by_player.get(pid, ()):
                c.push(named)

        return sink
