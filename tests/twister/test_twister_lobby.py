"""The lobby offer (R-TWIST-11, R-TWIST-1, R-WILD-5)."""

from __future__ import annotations

import asyncio
from typing import Any

from riverboat.twister import TwisterSettings
from riverboat.twister.lobby import offer


def test_r_twist_11_offer_lists_the_enabled_types_their_buy_ins_and_prizes() -> None:
    """R-TWIST-11 / R-WILD-5: types in the room's order, each with its published buy-ins; R-TWIST-1: every prize
    with its published chance; R-TWIST-5: the split shown where it applies (EUR 100 at 10x = EUR 1000)."""
    o = offer()
    assert [t["kind"] for t in o["types"]] == ["twister", "aog", "wild"]
    twister = o["types"][0]
    assert [b["buy_in"] for b in twister["buy_ins"]] == [100, 200, 500, 1000, 2000, 5000, 10000]
    top = twister["buy_ins"][-1]
    assert top["table"] == "twister-50-100"
    ten = next(p for p in top["prizes"] if p["multiplier"] == 10)
    assert ten == {"multiplier": 10, "prize": 100_000, "probability_percent": "0.50", "split": [80_000, 10_000,
                                                                                              10_000]}
    assert o["types"][1]["starting_chips"] == 100 and o["types"][2]["ticket_prizes"] is True
    assert [t["kind"] for t in offer(TwisterSettings(enabled_kinds=("wild",)))["types"]] == ["wild"]


class _Actor:
    def __init__(self, error: BaseException | None) -> None:
        self.error = error
        self.calls = 0

    async def submit(self, fn: Any) -> Any:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return await fn()


class _Director:
    """What TwisterOffers reads of a director: its players, whether it is over, its actor."""

    def __init__(self, player: int, *, done: bool = False, error: BaseException | None = None) -> None:
        self.registered: set[int] = set()
        self.entrants_by_id = {player: object()}
        self.done = asyncio.Event()
        if done:
            self.done.set()
        self.actor = _Actor(error)
        self.told: list[int] = []

    async def connected(self, player_id: int) -> None:
        self.told.append(player_id)


async def test_r_twist_11_a_player_coming_back_is_sent_only_running_twisters() -> None:
    """R-TWIST-11 / R-TOURN-DISC-1: a player back on the Twister page (GET /api/twister) or reconnecting is sent
    the table of each Twister not yet over; one that has just finished (done, its actor stopping) is neither
    named nor an error: the actor dropping the request (cancelled future) is skipped."""
    from riverboat.room.twister.offers import TwisterOffers

    offers = TwisterOffers(host=object())  # type: ignore[arg-type]
    running, over, closing = _Director(7), _Director(7, done=True), _Director(7, error=asyncio.CancelledError())
    offers.directors.update({"twister:a": running, "twister:b": over, "twister:c": closing})  # type: ignore[dict-item]
    assert offers.tournaments_of(7) == ["twister:a", "twister:c"] and offers.tournaments_of(8) == []
    await offers.connected(7)  # no exception from the closing one
    assert running.told == [7] and over.actor.calls == 0 and closing.actor.calls == 1
