"""The account page's statistics count money, not tournament chips (found by the outside walk of 2026-12-03: after
winning a play-money freeroll Sit & Go in 5 hands, "Your statistics" read "Won / lost 7,500" and "Texas Hold'em ·
5 hands · 7,500": the 9,000 tournament chips won less the 1,500 starting stack, taken for play money, while the
balance had gone up by the 3,000 prize). Through ``GET /api/stats`` on a real store."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from .test_server_player_stats import _Api

NT = 'variant = "NT"\nblinds_or_straddles = [10, 20]\nstarting_stacks = [1500, 1500]\nactions = []\n'


def test_tournament_chips_are_not_money_won_or_lost(tmp_path: Any) -> None:
    """(Since issue #31's second pass through the store's SQL: a hand without currency is a tournament's.)"""
    api = _Api(tmp_path)
    me, other = api.me, api.others[0]
    both = {me: 1500, other: 1500}
    api.store.hands.record("sng1/t1", "s1", both, NT, [], {me: 6000, other: -6000})
    api.store.hands.record("sng1/t1", "s2", both, NT, [], {me: 1500, other: -1500})
    for table, currency, change in (("play1", "PLAY", -100), ("eur1", "EUR", 25)):
        for p in both:
            api.store.ledger.deposit(p, currency, 1000, f"d-{table}-{p}")
            api.store.ledger.buy_in(p, table, 1000, f"b-{table}-{p}", currency=currency)
        api.store.ledger.start_hand(table, "c1", {me: 1000, other: 1000}, currency=currency)
        api.store.ledger.settle_hand(table, "c1", {me: change, other: -change}, 0, NT)
    out = api.stats()
    assert out["session"]["hands"] == 4  # every hand played counts
    assert out["session"]["net"] == {"PLAY": -100, "EUR": 25}
    assert {(g["game"], g["currency"], g["hands"], g["net"]) for g in out["games"]} == {
        ("holdem", "PLAY", 1, -100), ("holdem", "EUR", 1, 25)}
    third, fourth = api.others[1:3]
    api.store.hands.record("sng2/t1", "s1", {third: 1500, fourth: 1500}, NT, [], {third: 7500, fourth: -7500})
    api.token = api.store.accounts.login("stats_1", "correct horse battery")  # only a tournament hand
    only_tournament = api.stats()
    assert only_tournament["session"]["hands"] == 1 and only_tournament["session"]["net"] == {}
    assert only_tournament["games"] == []
    api.store.dispose()


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
