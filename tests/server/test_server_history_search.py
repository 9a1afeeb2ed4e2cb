"""Issue #31 ("What to add"): the hand history's search -- filters by game, stakes, result and cash/tournament,
paging beyond the last 50, and the export of exactly the selection (server/history_api.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from tests.store_fixtures import FAST_HASHER

from riverboat.room.gateway import StoreGateway
from riverboat.server.app import create_app
from riverboat.server.hub import ServerConfig
from riverboat.store import Store

NT = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [{sb}, {bb}]
min_bet = {bb}
starting_stacks = [1500, 1500]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]
"""
STUD = """variant = "F7S"
antes = [10, 10]
bring_in = 25
small_bet = 100
big_bet = 200
starting_stacks = [1500, 1500]
actions = ["d dh p1 AcAd2c", "d dh p2 KcKd3c", "p2 pb", "p1 f"]
"""


class _Room:
    def __init__(self, store: Any) -> None:
        self.store_gateway = StoreGateway(store, inline=True)  # the RoomPort's store gateway (issue #29)
        self.pools: dict[str, Any] = {}
        self.tables: dict[str, Any] = {}

    def attach(self, *args: Any, **kwargs: Any) -> None:
        return None

    def detach(self, *args: Any) -> None:
        return None

    async def unwatch(self, *args: Any) -> None:
        return None

    def lobby(self) -> list[Any]:
        return []

    def lobby_entry(self, table_id: str) -> Any:
        return None


def test_issue_31_search_filters_pages_and_exports_the_selection(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'rb.sqlite3'}", password_hasher=FAST_HASHER)
    store.upgrade()
    ann = store.accounts.register("ann_hist", "correct horse battery")
    bob = store.accounts.register("bob_hist", "correct horse battery")
    token = store.accounts.login("ann_hist", "correct horse battery")
    players = {ann.id: 1500, bob.id: 1500}
    for i in range(70):  # 70 cash NLHE hands: ann wins the even ones at 10/20, loses the odd ones at 50/100
        sb, bb = (10, 20) if i % 2 == 0 else (50, 100)
        won = 20 if i % 2 == 0 else -50
        store.hands.record("t1-riga-3f2a1c", f"{i + 1}-aa{i:04d}", players, NT.format(sb=sb, bb=bb), [],
                           {ann.id: won, bob.id: -won})
    for i in range(3):
        store.hands.record("sng1/t1", f"{i + 1}-bb{i:04d}", players, NT.format(sb=10, bb=20), [],
                           {ann.id: 0, bob.id: 0})
    store.hands.record("t2-kaunas-aa11bb", "1-cc0001", players, STUD, [], {ann.id: 25, bob.id: -25})
    app = create_app(store, _Room(store), ServerConfig(web_dir=None, manage_room=False))
    auth = {"Authorization": f"Bearer {token}"}
    try:
        with TestClient(app) as client:
            def search(**q: Any) -> dict[str, Any]:
                res = client.get("/api/hands/search", params=q, headers=auth)
                assert res.status_code == 200, res.text
                return res.json()

            everything = search()
            assert everything["total"] == 74 and len(everything["hands"]) == 50  # the first page
            older = search(offset=50)
            assert len(older["hands"]) == 24  # paging beyond the last 50
            ids = [h["hand_id"] for h in everything["hands"] + older["hands"]]
            assert len(set(ids)) == 74
            assert search(result="won")["total"] == 36  # 35 cash wins and the stud hand
            assert search(result="lost", stakes=100)["total"] == 35
            assert search(result="even")["total"] == 3
            assert search(kind="tournament")["total"] == 3
            assert search(kind="cash", game="stud")["total"] == 1
            assert search(game="holdem", stakes=20, kind="cash")["total"] == 35
            assert search(since="2000-01-01", until="2000-12-31")["total"] == 0
            bad = client.get("/api/hands/search", params={"result": "maybe"}, headers=auth)
            assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid"
            text = client.get("/api/hands/search/export", params={"format": "pokerstars", "result": "lost"},
                              headers=auth).text
            assert len(re.findall(r"^PokerStars Hand #", text, re.MULTILINE)) == 35
            phh = client.get("/api/hands/search/export", params={"format": "phh", "kind": "tournament"},
                             headers=auth).text
            assert len(re.findall(r"^\[\d+\]$", phh, re.MULTILINE)) == 3
            assert search(tournament="sng1")["total"] == 3 and search(tournament="sng")["total"] == 0
            assert search(offset=73, limit=5)["hands"][0]["hand_id"] == "1-aa0000"  # the oldest hand
            assert client.get("/api/hands/search").status_code == 401
            _openapi_documents_the_search(client.get("/openapi.json").json())
    finally:
        store.dispose()


def _openapi_documents_the_search(doc: dict[str, Any]) -> None:
    """Issue #31: the search and its export are in the OpenAPI document, with every filter the handler reads and
    the page's schema (the document is what clients are generated from)."""
    search = doc["paths"]["/api/hands/search"]["get"]
    params = {p["name"]: p for p in search["parameters"]}
    assert set(params) == {"game", "stakes", "since", "until", "result", "kind", "tournament", "offset", "limit"}
    assert params["result"]["schema"]["enum"] == ["won", "lost", "even"]
    assert params["limit"]["schema"]["maximum"] == 200
    ok = search["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    page = doc["components"]["schemas"][ok.rsplit("/", 1)[-1]]
    assert set(page["required"]) == {"total", "offset", "hands"}
    assert "422" in search["responses"] and search["security"] == [{"bearer": []}]
    export = {p["name"] for p in doc["paths"]["/api/hands/search/export"]["get"]["parameters"]}
    assert export == set(params) - {"offset", "limit"} | {"format"}
