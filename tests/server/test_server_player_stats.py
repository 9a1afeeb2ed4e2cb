"""Issue #31: VPIP, PFR, 3-bet, WTSD and won at showdown from a player's stored hands, counted as trackers count
them, on hands whose answers are known; and (second pass) ``GET /api/stats`` counts them in the store over every
hand, with the figures the Python of the first pass computed (tests/stats_reference.py) on the same hands."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.history.random_play import random_room_hand
from tests.stats_reference import play_stats, statistics
from tests.store_fixtures import FAST_HASHER

from riverboat.server.app import create_app
from riverboat.server.hub import ServerConfig
from riverboat.store import Store

from .test_server_history_search import _Room


class _Api:
    def __init__(self, tmp: Path) -> None:
        self.store = Store(f"sqlite:///{tmp / 'rb.sqlite3'}", password_hasher=FAST_HASHER)
        self.store.upgrade()
        self.me = self.store.accounts.register("stats_me", "correct horse battery").id
        self.others = [self.store.accounts.register(f"stats_{i}", "correct horse battery").id for i in range(5)]
        self.token = self.store.accounts.login("stats_me", "correct horse battery")

    def stats(self) -> dict[str, Any]:
        app = create_app(self.store, _Room(self.store), ServerConfig(web_dir=None, manage_room=False))
        with TestClient(app) as client:
            res = client.get("/api/stats", headers={"Authorization": f"Bearer {self.token}"})
        assert res.status_code == 200, res.text
        out: dict[str, Any] = res.json()
        return out


@pytest.fixture
def api(tmp_path: Path) -> Iterator[_Api]:
    a = _Api(tmp_path)
    try:
        yield a
    finally:
        a.store.dispose()


def _phh(actions: list[str], players: list[int], variant: str = "NT", blinds: list[int] | None = None
         ) -> tuple[str, list[int]]:
    """A hand as the first pass's test wrote it (its lists in Python's repr: TOML literal strings)."""
    n = len(players)
    blinds = blinds if blinds is not None else ([1, 2] + [0] * (n - 2) if n > 2 else [1, 2])
    acts = ", ".join(f'"{a}"' for a in actions)
    return (f'variant = "{variant}"\nantes = {[0] * n}\nblinds_or_straddles = {blinds}\nmin_bet = 2\n'
            f"starting_stacks = {[200] * n}\nactions = [{acts}]\nplayers = {[str(p) for p in players]}\n"), players


def test_issue_31_vpip_pfr_3bet_wtsd_and_won_at_showdown(api: _Api) -> None:
    me, a, b = api.me, *api.others[:2]
    three = [a, b, me]  # p3 is the player (first to act preflop, after the blinds)
    hands = [
        # 1. folds preflop: nothing
        (_phh(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 f", "p1 cc", "p2 cc"], three), 0),
        # 2. raises first in (VPIP, PFR), wins without a showdown on the flop
        (_phh(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 cbr 6", "p1 cc", "p2 f", "d db 2c3d4h",
               "p1 cc", "p3 cbr 8", "p1 f"], three), 9),
        # 3. calls a raise (VPIP, a 3-bet chance not taken), to showdown, loses
        (_phh(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 cc", "p1 cbr 6", "p2 f", "p3 cc",
               "d db 2c3d4h", "p1 cc", "p3 cc", "d db 5s", "p1 cc", "p3 cc", "d db 6s", "p1 cc", "p3 cc",
               "p1 sm KcKd", "p3 sm AcAd"], three), -6),
        # 4. re-raises a raise (VPIP, PFR, 3-bet), to showdown, wins
        (_phh(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 cc", "p1 cbr 6", "p2 f", "p3 cbr 18", "p1 cc",
               "d db 2c3d4h", "p1 cc", "p3 cc", "d db 5s", "p1 cc", "p3 cc", "d db 6s", "p1 cc", "p3 cc",
               "p1 sm KcKd", "p3 sm AcAd"], three), 19),
        # 5. heads-up big blind (p1) checks the small blind's limp: not VPIP; sees the flop, folds
        (_phh(["d dh p1 AcAd", "d dh p2 ????", "p2 cc", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cbr 2", "p1 f"],
              [me, b]), -2),
        # 6. a stud hand: counted apart
        (_phh(["d dh p1 AcAd2c", "d dh p2 ????3c", "p2 pb", "p1 f"], [me, b], variant="F7S", blinds=[0, 0]), 0),
    ]
    for i, ((phh, players), net) in enumerate(hands):
        changes = {p: (net if p == me else 0) for p in players}
        api.store.hands.record("sng1/t1", f"h{i}", dict.fromkeys(players, 200), phh, [], changes)
    got = api.stats()["play"]
    assert got["hands"] == 5 and got["other_hands"] == 1
    assert got["counts"] == {"vpip": 3, "pfr": 2, "three_bet": 1, "three_bet_chances": 2, "saw_flop": 4,
                             "showdowns": 2, "won_at_showdown": 1}
    assert (got["vpip"], got["pfr"], got["three_bet"], got["wtsd"], got["wsd"]) == (60.0, 40.0, 50.0, 50.0, 50.0)


def test_no_hands_no_percentages(api: _Api) -> None:
    got = api.stats()
    assert got["play"]["vpip"] is None and got["session"] == {"hands": 0, "net": {}, "play": got["session"]["play"]}
    assert got["games"] == []


def test_issue_31_the_route_answers_what_the_python_computed(api: _Api) -> None:
    """300 random hands of every game (tournament, play-money and euro): the answer's figures are the first
    pass's; the session's play statistics are the same hands' (one session: the hands are seconds apart)."""
    players = [api.me, *api.others]
    stacks: dict[str, dict[int, int]] = {}
    for table, currency in (("play1", "PLAY"), ("eur1", "EUR")):
        for p in players:
            api.store.ledger.deposit(p, currency, 1_000_000, f"dep-{table}-{p}")
            api.store.ledger.buy_in(p, table, 1_000_000, f"bi-{table}-{p}", currency=currency)
        stacks[table] = dict.fromkeys(players, 1_000_000)
    for i in range(300):
        phh, changes = random_room_hand(7_000 + i, players)
        if i % 3 == 0:
            api.store.hands.record("sng1/t1", f"h{i}", dict.fromkeys(changes, 1000), phh, [], changes)
            continue
        table = ("play1", "eur1")[i % 3 - 1]
        api.store.ledger.start_hand(table, f"h{i}", {p: stacks[table][p] for p in changes},
                                    currency={"play1": "PLAY", "eur1": "EUR"}[table])
        api.store.ledger.settle_hand(table, f"h{i}", changes, 0, phh)
        for p, c in changes.items():
            stacks[table][p] += c
    got = api.stats()
    records = api.store.hands.for_player(api.me, limit=10_000)
    ref = statistics(records, api.me, datetime.now(UTC)) | {"play": play_stats(records, api.me)}
    session_play = got["session"].pop("play")
    assert got["play"]["hands"] > 40 and session_play == ref["play"]
    assert got["session"] == ref["session"] and got["play"] == ref["play"]
    key = lambda g: (g["game"], g["currency"])  # noqa: E731
    assert sorted(got["games"], key=key) == sorted(ref["games"], key=key)
