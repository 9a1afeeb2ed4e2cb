"""The account page's statistics count money, not tournament chips (found by the outside walk of 2026-12-03: after
winning a play-money freeroll Sit & Go in 5 hands, "Your statistics" read "Won / lost 7,500" and "Texas Hold'em ·
5 hands · 7,500": the 9,000 tournament chips won less the 1,500 starting stack, taken for play money, while the
balance had gone up by the 3,000 prize)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from riverboat.server.hand_views import statistics

NT = 'variant = "NT"\n'


def _hand(minutes_ago: int, currency: str | None, change: int) -> SimpleNamespace:
    at = datetime(2026, 12, 3, 12, 30, tzinfo=UTC) - timedelta(minutes=minutes_ago)
    return SimpleNamespace(started_at=at, ended_at=at + timedelta(seconds=20), currency=currency, phh=NT,
                           changes={7: change})


def test_tournament_chips_are_not_money_won_or_lost() -> None:
    now = datetime(2026, 12, 3, 12, 31, tzinfo=UTC)
    records = [_hand(1, None, 6000), _hand(2, None, 1500), _hand(3, "PLAY", -100), _hand(4, "EUR", 25)]
    out = statistics(records, 7, now)
    assert out["session"]["hands"] == 4  # every hand played counts
    assert out["session"]["net"] == {"PLAY": -100, "EUR": 25}
    assert {(g["game"], g["currency"], g["hands"], g["net"]) for g in out["games"]} == {
        ("holdem", "PLAY", 1, -100), ("holdem", "EUR", 1, 25)}
    only_tournament = statistics([_hand(1, None, 7500)], 7, now)
    assert only_tournament["session"]["hands"] == 1 and only_tournament["session"]["net"] == {}
    assert only_tournament["games"] == []


def test_the_history_names_tables_not_ids() -> None:
    """Found by the outside walk (2026-12-03): the hand history's Table column read "sng1/t1" for a Sit & Go's hands
    and "s18-speedriga" for Speed Poker's (a pool is not among the room's tables, and its id has no hex suffix)."""
    from riverboat.server.hand_views import table_name

    entries: dict[str, Any] = {"t1-riga": {"name": "Riga"}, "s18-speedriga": {"name": "Speed Riga"}}
    room = SimpleNamespace(lobby_entry=entries.get)  # the open table's and pool's lobby entries
    assert table_name(room, "t1-riga") == "Riga"
    assert table_name(room, "s18-speedriga") == "Speed Riga"
    assert table_name(room, "t7-kaunas-3f2a1c") == "Kaunas"  # closed since
    assert table_name(room, "t9-valga") == "Valga"
    assert table_name(room, "sng1/t1") == "Tournament table 1"
    assert table_name(room, "mtt3.2/t14") == "Tournament table 14"
    assert table_name(room, "twister:twister-500-1-9f48d9/t1") == "Twister"
    assert table_name(room, "twister:aog-500-2-9f48d9/t1") == "Age of the Gods Twister"
    assert table_name(room, "wild:wild-50-1-aa/t1") == "Wild Twister"
