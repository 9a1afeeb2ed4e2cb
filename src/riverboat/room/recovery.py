"""What a crash, a kill or a stop leaves on the room's tables (a part of :class:`~riverboat.room.Room`, issue #29):
R-SERVER-1 (an unsettled hand is void: every stack is its pre-hand value), R-SERVER-3 (the chips left on a table go
back to their owner's balance, or the players get their seats back, sat out, at a table whose
``cash_out_on_crash`` setting is off) and the room's stop (every table stack to its owner's balance)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from riverboat.room.delivery import Delivery
from riverboat.room.gateway import StoreGateway
from riverboat.room.registry import Registry
from riverboat.room.settings import SpeedSpec, TableSpec
from riverboat.room.speed import SpeedPool
from riverboat.room.table import Table
from riverboat.store.ledger import KeptStack

log = logging.getLogger("riverboat.room")


class Recovery:
    """The room's money at its start and its stop."""

    def __init__(self, gateway: StoreGateway, registry: Registry, delivery: Delivery,
                 alias_of: Callable[[int], Awaitable[str | None]], *, cash_out_on_crash: bool) -> None:
        self.gateway = gateway
        self.registry = registry
        self.delivery = delivery
        self.alias_of = alias_of
        self.cash_out_on_crash = cash_out_on_crash

    def cashes_out_on_crash(self, spec: TableSpec | SpeedSpec) -> bool:
        """R-SERVER-3 for one table: its ``cash_out_on_crash`` setting if the spec gives one, else the room's flag.
        A Speed Poker pool always cashes out (its players join again)."""
        if isinstance(spec, SpeedSpec):
            return True
        setting = spec.settings.get("cash_out_on_crash") if spec.settings else None
        return self.cash_out_on_crash if setting is None else bool(setting)

    async def void_unsettled(self) -> list[tuple[str, str]]:
        """R-SERVER-1/2: every hand a crash left unsettled is void; the voided (table_id, hand_id) pairs."""
        voided: list[tuple[str, str]] = await self.gateway.call(self.gateway.ledger.void_unsettled_hands,
                                                                cash_out_on_crash=False)
        return voided

    async def after_crash(self) -> None:
        """R-SERVER-3 for the chips a crash (or a kill) left on tables: at an open table whose setting is off, its
        players get their seats (the seat of their buy-in, else a free one) and stacks back, sat out and
        disconnected until they come back (R-SITOUT-3 evicts them, stack to the balance, if they do not); every
        other stack of an open table or pool goes back to its owner's balance, and so do those of tables not open
        here when the room's flag is on (off: they stay, for a cluster host or a later start)."""
        kept = await self.gateway.call(self.gateway.ledger.kept_stacks)
        by_table: dict[str, list[KeptStack]] = {}
        for k in kept:
            by_table.setdefault(k.table_id, []).append(k)
        for tid, stacks in by_table.items():
            table = self.registry.tables.get(tid)
            thing: Table | SpeedPool | None = table if table is not None else self.registry.pools.get(tid)
            if thing is None and not self.cash_out_on_crash:
                continue
            back = stacks
            if table is not None and not self.cashes_out_on_crash(table.spec):
                back = await self._reseat(table, stacks)
            for k in back:
                await self.gateway.call(self.gateway.ledger.cash_out, k.player_id, tid,
                                        f"crash-cashout:{tid}:{k.player_id}:{secrets.token_hex(6)}",
                                        currency=k.currency)

    async def _reseat(self, table: Table, stacks: list[KeptStack]) -> list[KeptStack]:
        """Put the kept stacks of ``table`` back in their seats (``Table.reopen``); returns those that found no
        seat (another currency, or the table is full), for the balance."""
        mine = [k for k in stacks if k.currency == table.spec.currency]
        placed: dict[int, KeptStack] = {}
        for k in mine:
            if k.seat is not None and 0 <= k.seat < table.spec.max_seats and k.seat not in placed:
                placed[k.seat] = k
        free = [s for s in range(table.spec.max_seats) if s not in placed]
        rest = [k for k in stacks if k.currency != table.spec.currency]
        for k in mine:
            if k not in placed.values():
                if free:
                    placed[free.pop(0)] = k
                else:
                    rest.append(k)
        seats = [(k.player_id, seat, k.chips, await self.alias_of(k.player_id)) for seat, k in sorted(placed.items())]
        table.reopen(seats, await self.gateway.call(self.gateway.ledger.hands_dealt, table.id), None)
        for pid, *_ in seats:
            await table.sit_out(pid, reason="R-SERVER-3")
            self.delivery.disconnected.add(pid)
        log.warning("table %s reopened after a crash with %d stack(s) kept", table.id, len(seats))
        return rest

    async def cash_out_all(self) -> None:
        """The room stops: hands in progress are voided (R-SERVER-1) and every table stack returns to its owner's
        balance, all at once (the store gateway commits them in a few group commits, not one fsync each)."""
        await self.void_unsettled()
        tables = self.registry.tables.values()
        calls: list[Awaitable[Any]] = [
            self.gateway.call(self.gateway.ledger.cash_out, st.player_id, t.id,
                              f"stop:{t.id}:{st.player_id}:{secrets.token_hex(6)}", currency=t.spec.currency)
            for t in tables for st in list(t.seats.values())]
        calls += [p.cash_out_all() for p in self.registry.pools.values()]
        failed = [r for r in await asyncio.gather(*calls, return_exceptions=True) if isinstance(r, BaseException)]
        if failed:
            raise failed[0]
