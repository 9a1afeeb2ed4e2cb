"""The room as the server sees it (issue #29): one small Protocol that :class:`~riverboat.room.Room` (the whole room
in this process) and a cluster gateway's :class:`~riverboat.cluster.RemoteRoom` (every table on a table host, each
command forwarded to its host as it is) both implement. The server holds a ``RoomPort``, never probes it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from riverboat.room.commands import Result, RoomCommand
from riverboat.room.frames import LobbyEntry, PoolLobbyEntry, RoomFrame, TableView
from riverboat.room.gateway import StoreGateway

Sink = Callable[[RoomFrame], Awaitable[None]]


class RoomPort(Protocol):
    async def start(self) -> list[tuple[str, str]]:
        """Open the room (void what a crash left, R-SERVER); the voided (table, hand) pairs."""
        ...

    async def stop(self) -> None: ...

    async def execute(self, player_id: int, command: RoomCommand, key: str | None = None) -> Result:
        """Run one command of the player (``key``: a money command's idempotency key): its result or a refusal."""
        ...

    def lobby(self) -> list[LobbyEntry]: ...

    def lobby_entry(self, table_id: str) -> LobbyEntry | None: ...

    async def table_view(self, table_id: str) -> TableView | PoolLobbyEntry:
        """A spectator's view of a cash table (``no_table`` if unknown); a Speed Poker pool's lobby entry."""
        ...

    def tables_of(self, player_id: int) -> list[str]:
        """The cash tables where the player sits."""
        ...

    def attach(self, player_id: int, sink: Sink, *, immediate: Callable[[RoomFrame], None] | None = None,
               encoded: Callable[[str], None] | None = None) -> None: ...

    def detach(self, player_id: int) -> None: ...

    async def alias_changed(self, player_id: int, alias: str | None) -> None: ...

    async def relay(self, player_id: int, table_id: str, frame: dict[str, Any]) -> dict[str, Any]:
        """A server frame (table chat) to everyone at the table, if the player sits or watches there."""
        ...

    @property
    def store_gateway(self) -> StoreGateway | None:
        """The room's store gateway (the server shares it), or None (a gateway node: the server opens its own)."""
        ...


class Elsewhere(Protocol):
    """The room's tables in other processes, as a room-wide rule reaches them (R-SITOUT-4): a cluster table host's
    other hosts (``cluster.host``), each applying the same :class:`~riverboat.room.Room` methods to its own
    tables. One process has none (``Room.elsewhere`` is None)."""

    async def sit_out(self, player_id: int) -> list[str]:
        """Sit the player out at their cash tables elsewhere (``Room.sit_out_here``); the tables where it happened."""
        ...

    async def sit_in(self, player_id: int) -> list[str]:
        """Sit the player back in at their cash tables elsewhere (``Room.sit_in_here``); the tables where it did."""
        ...
