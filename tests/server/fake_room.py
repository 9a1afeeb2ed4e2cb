"""A room port (``riverboat.room.port.RoomPort``) for server tests that need no tables: no table is open, and every
command raises ``exc`` when one is given (else ``no_table``)."""

from __future__ import annotations

from typing import Any

from riverboat.room.errors import RoomError
from riverboat.room.gateway import StoreGateway


class FakeRoom:
    def __init__(self, store: Any = None, exc: BaseException | None = None) -> None:
        self.exc = exc
        self.gateway = StoreGateway(store, inline=True) if store is not None else None

    @property
    def store_gateway(self) -> StoreGateway | None:
        return self.gateway

    def _refuse(self) -> BaseException:
        return self.exc if self.exc is not None else RoomError("no_table", "no such table")

    async def start(self) -> list[tuple[str, str]]:
        return []

    async def stop(self) -> None:
        return None

    async def execute(self, player_id: int, command: Any, key: str | None = None) -> Any:
        raise self._refuse()

    def lobby(self) -> list[Any]:
        return []

    def lobby_entry(self, table_id: str) -> Any:
        return None

    async def table_view(self, table_id: str) -> Any:
        raise self._refuse()

    def tables_of(self, player_id: int) -> list[str]:
        return []

    def attach(self, *args: Any, **kwargs: Any) -> None:
        return None

    def detach(self, *args: Any) -> None:
        return None

    async def alias_changed(self, player_id: int, alias: str | None) -> None:
        return None

    async def relay(self, player_id: int, table_id: str, frame: dict[str, Any]) -> dict[str, Any]:
        raise self._refuse()
