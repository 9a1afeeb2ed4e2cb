"""Issue #31 item 6: a tournament table's hand is exported with PokerStars' tournament header -- the tournament's
number, buy-in and fee from the store, the level whose blinds the hand was dealt at, the table's number -- and a
cash hand (or a tournament the store no longer knows) without it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from riverboat.history.pokerstars import tournament_number
from riverboat.server.hand_views import tournament_info

PHH = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [25, 50]
min_bet = 50
starting_stacks = [3000, 3000]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]
"""
LEVELS = [{"small_blind": 10, "big_blind": 20}, {"small_blind": 15, "big_blind": 30},
          {"small_blind": 25, "big_blind": 50}]


async def test_issue_31_tournament_hand_header_fields_from_the_store() -> None:
    asked: list[str] = []

    async def lookup(tid: str) -> Any:
        asked.append(tid)
        return SimpleNamespace(buy_in=1000, fee=100, currency="EUR", spec={"levels": LEVELS})

    info = await tournament_info(SimpleNamespace(table_id="mtt3/t2", phh=PHH), lookup)
    assert asked == ["mtt3"]
    assert info is not None and (info.number, info.buy_in, info.fee, info.currency, info.level, info.table_no) == (
        tournament_number("mtt3"), 1000, 100, "EUR", 3, "2")
    assert await tournament_info(SimpleNamespace(table_id="t1-riga-3f2a1c", phh=PHH), lookup) is None
    assert asked == ["mtt3"]  # a cash table is not looked up


async def test_issue_31_a_tournament_the_store_does_not_know_exports_without_the_header() -> None:
    async def lookup(tid: str) -> Any:
        raise LookupError(tid)

    assert await tournament_info(SimpleNamespace(table_id="sng9/t1", phh=PHH), lookup) is None
