"""A tournament hand in the player's hand history opens (found by the outside walk of 2026-12-03).

Tournament tables have ids with a slash (``sng1/t1``: the tournament, then its table). The client asks for
``/api/hands/sng1%2Ft1/<hand>``; the server decodes ``%2F`` before routing, so a route of one path segment per
table id answered 404 "Not Found" and the history page showed that to the player: no tournament hand could be
looked at, replayed or exported.
"""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient
from tests.store_fixtures import FAST_HASHER

from riverboat.server.app import create_app
from riverboat.server.hub import ServerConfig
from riverboat.store import Store

from .fake_room import FakeRoom

PHH = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [10, 20]
min_bet = 20
starting_stacks = [1500, 1500]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]
"""


def test_a_tournament_hand_opens_exports_and_a_cash_hand_still_does(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rb.sqlite3'}", password_hasher=FAST_HASHER)
    store.upgrade()
    ann = store.accounts.register("ann_walk", "correct horse battery")
    bob = store.accounts.register("bob_walk", "correct horse battery")
    token = store.accounts.login("ann_walk", "correct horse battery")
    players = {ann.id: 1500, bob.id: 1500}
    store.hands.record("sng1/t1", "3-ab12cd", players, PHH, [], {ann.id: 10, bob.id: -10})
    store.hands.record("t1-riga-3f2a1c", "7-cd34ef", players, PHH, [], {})
    app = create_app(store, FakeRoom(store), ServerConfig(web_dir=None, manage_room=False))
    auth = {"Authorization": f"Bearer {token}"}
    try:
        with TestClient(app) as client:
            listed = {h["hand_id"]: h for h in client.get("/api/hands", headers=auth).json()["hands"]}
            assert listed["3-ab12cd"]["table_id"] == "sng1/t1"
            for table, hand in (("sng1%2Ft1", "3-ab12cd"), ("t1-riga-3f2a1c", "7-cd34ef")):
                detail = client.get(f"/api/hands/{table}/{hand}", headers=auth)
                assert detail.status_code == 200, (table, detail.text)
                assert detail.json()["hand_id"] == hand
                for fmt in ("phh", "pokerstars"):
                    export = client.get(f"/api/hands/{table}/{hand}/export?format={fmt}", headers=auth)
                    assert export.status_code == 200, (table, fmt, export.text)
            # a hand that is not there is still a 404 with its code, not a different handler's answer
            missing = client.get("/api/hands/sng1%2Ft1/99-000000", headers=auth)
            assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    finally:
        store.dispose()
