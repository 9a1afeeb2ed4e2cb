"""Refusals read as plain words for players (issue #10 item 3, issue #14 item 6): the error registry's message for
a real store refusal names no internal account, and the room's gateway passes on the same code and message."""

from __future__ import annotations

import asyncio

import pytest

from riverboat.errors import wire_error
from riverboat.room.errors import RoomError
from riverboat.room.gateway import StoreGateway
from riverboat.store import InsufficientFunds, Store

from .conftest import make_players


def test_r_wallet_insufficient_funds_reads_as_plain_words_for_players(store: Store) -> None:
    """A real refusal of the ledger (R-WALLET-1): the log text names the internal account; the player's message
    does not, and the code is the same through the gateway."""
    (pid,) = make_players(store, 1, deposit=100)
    with pytest.raises(InsufficientFunds) as refused:
        store.ledger.buy_in(pid, "T1", 5_000, "bi:1", currency="EUR")
    wire = wire_error(refused.value)
    assert wire is not None and wire.code == "insufficient_funds" and wire.status == 409
    assert "holds" in str(refused.value) and "holds" not in wire.message and "player" not in wire.message

    async def through_gateway() -> RoomError:
        gate = StoreGateway(store)
        try:
            with pytest.raises(RoomError) as err:
                await gate.call(store.ledger.buy_in, pid, "T1", 5_000, "bi:2", currency="EUR")
            return err.value
        finally:
            gate.close()

    assert wire_error(asyncio.run(through_gateway())) == wire
