"""Settlers: how a finished hand's money moves (the :class:`~riverboat.room.hand_driver.Settler` interface).

- :class:`LedgerSettler` (cash tables): the hand is recorded in the store before it is played (``start_hand``: if
  the process dies mid-hand the store voids it and every stack is its pre-hand value, R-SERVER-1) and settled in
  one transaction after it (``settle_hand``: stack changes, the rake of the table's schedule, the PHH text and the
  events). Settling is idempotent in the store (one settlement per hand id), so a failed call is simply retried.
- :class:`DeferredLedgerSettler` (Speed Poker): one player can be in two unfinished hands of a pool at once (a
  folded one and a new one), so the hand is recorded and settled together when it ends, from the escrows the pool
  holds at that moment.

A tournament table supplies its own settler (tournament chips, no rake: R-RAKE-12).
"""

from __future__ import annotations

from collections.abc import Callable

from riverboat.engine import RakeRule
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver, event_record, stack_changes
from riverboat.room.history_text import hand_history_text


class LedgerSettler:
    """Cash: ``start_hand`` before the deal, ``settle_hand`` with rake after it."""

    def __init__(self, gateway: StoreGateway, table_id: str, currency: str, rake: RakeRule | None) -> None:
        self.gateway = gateway
        self.table_id = table_id
        self.currency = currency
        self.rake = rake

    def start_stacks(self, driver: HandDriver) -> dict[int, int]:
        hand = driver.hand
        return {driver.players[s]: stack for s, stack in zip(hand.seats, hand.start_stacks, strict=True)}

    async def open(self, driver: HandDriver) -> None:
        await self._start(driver, self.start_stacks(driver))

    async def _start(self, driver: HandDriver, stacks: dict[int, int]) -> None:
        gw = self.gateway
        await gw.call(gw.ledger.start_hand, self.table_id, driver.hand_id, stacks, currency=self.currency)

    async def settle(self, driver: HandDriver) -> None:
        hand = driver.hand
        result = hand.result
        assert result is not None
        gw = self.gateway
        await gw.call(gw.ledger.settle_hand, self.table_id, driver.hand_id, stack_changes(driver), result.rake,
                      hand_history_text(hand, self.table_id, driver.hand_id, driver.players),
                      [event_record(e) for e in hand.events])


class DeferredLedgerSettler(LedgerSettler):
    """Speed Poker: nothing before the deal; ``start_hand`` (from the pool's escrows) and ``settle_hand`` at the
    end. If the process dies mid-hand nothing was recorded: every escrow is its pre-hand value (R-SERVER-1)."""

    def __init__(self, gateway: StoreGateway, table_id: str, currency: str, rake: RakeRule | None,
                 escrows: Callable[[HandDriver], dict[int, int]]) -> None:
        super().__init__(gateway, table_id, currency, rake)
        self.escrows = escrows
        self._recorded: set[str] = set()

    async def open(self, driver: HandDriver) -> None:
        return None

    async def settle(self, driver: HandDriver) -> None:
        if driver.hand_id not in self._recorded:
            await self._start(driver, self.escrows(driver))
            self._recorded.add(driver.hand_id)
        await super().settle(driver)
        self._recorded.discard(driver.hand_id)
