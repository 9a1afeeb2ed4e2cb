"""A cash table's waiting list: players who want a seat at a full table, first come first offered.

Part of :class:`~riverboat.room.table.Table` (composed, runs inside the table's actor): a free seat is offered to
the next player on the list with a private ``seat_offered`` event; they keep their place until they sit down or
leave the list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riverboat.room.errors import RoomError
from riverboat.room.frames import SeatOfferedEvent
from riverboat.room.replies import NotWaiting, Waiting

if TYPE_CHECKING:
    from riverboat.room.table import Table


class WaitingList:
    """The players waiting for a seat at ``table``, in order."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.players: list[int] = []

    def __len__(self) -> int:
        return len(self.players)

    def discard(self, player_id: int) -> None:
        """The player is off the list (they sat down)."""
        if player_id in self.players:
            self.players.remove(player_id)

    async def join(self, player_id: int) -> Waiting:
        """Put the player on the waiting list (a full table); they are told when a seat is free."""
        table = self.table
        if table.seat_of(player_id) is not None:
            raise RoomError("already_seated", "you already have a seat at this table")
        gw = table.host.gateway
        await gw.call(gw.store.protections.require_may_play, player_id)  # issue #30: no new play under a block
        if player_id not in self.players:
            self.players.append(player_id)
        await self.offer_seats()
        if player_id not in self.players:  # blocked meanwhile (the offer looked again)
            raise RoomError("play_blocked", "you cannot join the waiting list now")
        return Waiting(table=table.id, position=self.players.index(player_id) + 1)

    async def leave(self, player_id: int) -> NotWaiting:
        self.discard(player_id)
        return NotWaiting(table=self.table.id)

    async def offer_seats(self) -> None:
        """Each free seat is offered to the next player of the waiting list (a private ``seat_offered`` event); they
        keep their place until they sit or leave the list. A player whose time-out or self-exclusion began since
        they joined leaves the list here (issue #30), instead of holding the seat's offer from the next in line."""
        table = self.table
        free = [s for s in range(table.spec.max_seats) if s not in table.seats]
        if not free or not self.players:
            return
        gw = table.host.gateway
        offered: list[int] = []
        for pid in list(self.players):
            if len(offered) == len(free):
                break
            if await gw.call(gw.store.protections.may_play, pid):
                offered.append(pid)
            elif pid in self.players:
                self.players.remove(pid)
        for pid, seat in zip(offered, free, strict=False):
            table.host.send(pid, table.address.event(SeatOfferedEvent(kind="seat_offered", seat=seat)))
