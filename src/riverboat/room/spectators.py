"""Spectators (a part of :class:`~riverboat.room.Room`, issue #29): the cash tables each player watches without a
seat (public frames only), at most :data:`MAX_WATCHED` at a time."""

from __future__ import annotations

from riverboat.room.errors import RoomError
from riverboat.room.registry import Registry
from riverboat.room.replies import Watching

MAX_WATCHED = 20  # tables one player may watch as a spectator at a time


class Spectators:
    """Who watches which table (the tables keep their own watchers; this is the per-player side, for the limit
    and to resume watching after a reconnection)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.watching: dict[int, set[str]] = {}  # player -> tables they watch as a spectator

    async def watch(self, player_id: int, table_id: str) -> Watching:
        """Watch a table as a spectator (public frames only); at most ``MAX_WATCHED`` tables at a time."""
        table = self.registry.table(table_id)
        watched = self.watching.setdefault(player_id, set())
        if table_id not in watched and len(watched) >= MAX_WATCHED:
            raise RoomError("too_many_watched", f"a player may watch at most {MAX_WATCHED} tables at a time")
        watched.add(table_id)
        return await table.actor.submit(lambda: table.watch(player_id))

    async def unwatch(self, player_id: int, table_id: str) -> Watching:
        table = self.registry.table(table_id)
        watched = self.watching.get(player_id)
        if watched is not None:
            watched.discard(table_id)
            if not watched:
                del self.watching[player_id]
        return await table.actor.submit(lambda: table.unwatch(player_id))

    def watched_by(self, player_id: int) -> list[str]:
        """Tables the player watches as a spectator (and that still exist)."""
        return sorted(t for t in self.watching.get(player_id, ()) if t in self.registry.tables)

    def forget_table(self, table_id: str) -> None:
        """The table is gone from this room: nobody watches it here any more."""
        for watched in self.watching.values():
            watched.discard(table_id)
