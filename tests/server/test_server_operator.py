"""The operator console's REST API against a real server (issue #13): role checks on every operator route
(R-OPER-5), hole cards to security staff only (R-INTEG-8; the players' streams pass the secrecy recorder, R-GEN-5),
ban and suspension (R-INTEG-5c: sockets closed, login refused, sitting refused), force alias change (R-ALIAS-4),
void flag, and the append-only audit log that records each action (R-OPER-4)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from tests.store_fixtures import staff_token

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.client import CommandRefused
from riverboat.bots.player import Bot
from riverboat.integrity import Flag
from riverboat.server.operator_api import operator_routes
from riverboat.server.rest import make_routes

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Oper Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "PLAY",
         "settings": {"between_hands_seconds": 0.05}}
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


deployment = deployment_fixture([TABLE], ["--signup-play-chips", "50000", "--integrity-scan-every", "0"])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10.0) as client:
        yield client


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _staff(server: Any, name: str, role: str) -> tuple[int, str]:
    info = server.store.accounts.register(name, "password-" + name, role=role)
    return info.id, staff_token(server.store, name, "password-" + name)


def _all_operator_routes() -> list[Any]:
    """Every route the server serves under /api/operator/ (the console, tournaments, flights, Twister)."""
    return [r for r in make_routes(SimpleNamespace(store=None)) if r.path.startswith("/api/operator")]  # type: ignore[arg-type]


def _operator_routes() -> list[tuple[str, str]]:
    """Every (method, path) of the operator API, path parameters filled in."""
    out = []
    for route in _all_operator_routes():
        path = re.sub(r"\{action\}", "ban", route.path)
        path = re.sub(r"\{(flag_id|player_id)\}", "1", path)
        path = re.sub(r"\{[\w:]+\}", "x", path)
        out += [(m, path) for m in sorted(route.methods or ()) if m != "HEAD"]
    return out


def test_every_operator_route_refuses_a_player_with_403_r_oper_5(http: httpx.Client, server: Any) -> None:
    _, token = server.player()
    routes = _operator_routes()
    assert len(routes) >= 12 and all(p.startswith("/api/operator/") for _, p in routes)
    doc = http.get("/openapi.json").json()["paths"]
    documented = {(m.upper(), p) for p, ops in doc.items() if p.startswith("/api/operator") for m in ops}
    # a route's convertor ({table_id:path}: tournament table ids have a slash) is not part of the documented path
    served = {(m, re.sub(r":\w+\}", "}", r.path)) for r in _all_operator_routes() for m in r.methods or () if m != "HEAD"}
    console = {re.sub(r":\w+\}", "}", r.path)
               for r in operator_routes(SimpleNamespace(store=None), lambda fn: fn)}  # type: ignore[arg-type]
    # every operator route (console, tournaments, flights, Twister interrupt) is in the OpenAPI document with its
    # method, and only those (R-OPER-1..5)
    assert documented == served and console < {p for _, p in served}
    assert ("POST", "/api/operator/twister/{tid}/interrupt") in documented
    for path in ("/api/operator/tournaments", "/api/operator/flights", "/api/operator/twister/{tid}/interrupt"):
        assert "403" in doc[path]["post"]["responses"]
    for method, path in routes:
        body = {"reason": "x"} if method == "POST" else None
        res = http.request(method, path, headers=_auth(token), json=body)
        assert res.status_code == 403, (method, path, res.text)
        assert not CARD.search(res.text)
        assert http.request(method, path, json=body).status_code == 401, (method, path)


async def _play_hands(server: Any, http: httpx.Client, n: int, recorder: Any) -> tuple[list[tuple[int, str]], str]:
    table = server.table_id("Oper Holdem")
    players = [server.player() for _ in range(2)]
    for pid, _ in players:
        server.store.ledger.deposit(pid, "PLAY", 5000, f"op-test:{pid}")
    clients, bots = [], []
    for i, (_pid, token) in enumerate(players):
        client = ProtocolClient(server.ws_url, token)
        recorder.attach(client, f"player{i}")
        await client.connect()
        clients.append(client)
        bots.append(Bot(client, CallingStation()))
        await client.sit(table, i, 1000)
    deadline = asyncio.get_running_loop().time() + 60
    while len(server.store.hands.for_table(table, limit=n)) < n:
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.1)
    for bot in bots:
        await bot.stop()
    for client in clients:
        await client.leave(table)
        await client.close()
    return players, table


async def test_hole_cards_for_security_only_and_players_never_get_them_r_integ_8(
        http: httpx.Client, server: Any, recorder: Any) -> None:
    players, table = await _play_hands(server, http, 2, recorder)
    record = server.store.hands.for_table(table, limit=1)[0]
    _, sec = _staff(server, "sec_hole", "security")
    _, op = _staff(server, "op_hole", "operator")
    path = f"/api/operator/hands/{table}/{record.hand_id}"
    seen = http.get(path, headers=_auth(sec)).json()
    assert seen["hole_cards_shown"] is True
    assert set(seen["hole_cards"]) == {str(pid) for pid, _ in players}
    assert all(len(c) == 4 for c in seen["hole_cards"].values())
    masked = http.get(path, headers=_auth(op)).json()
    assert masked["hole_cards"] == {} and masked["hole_cards_shown"] is False
    assert not any(e.get("visible_to") for e in masked["events"])
    shown = {c for e in record.events if e.get("kind") == "showed" for c in e.get("cards", [])}
    hidden = {c for h in seen["hole_cards"].values() for c in (h[:2], h[2:])} - shown
    assert not set(CARD.findall(json.dumps(masked))) & hidden
    for _, token in players:  # a player: 403 from the console, and only their own cards in their hand history
        assert http.get(path, headers=_auth(token)).status_code == 403
    recorder.check(server.store, [table])  # what the players' sockets received: no other player's down cards
    assert recorder.checked_hands
    audit = http.get("/api/operator/audit", headers=_auth(sec)).json()["audit"]
    assert audit[0]["action"] == "view_hand" and audit[0]["target"] == f"{table}/{record.hand_id}"


async def test_ban_closes_sockets_refuses_login_and_is_audited_r_integ_5(http: httpx.Client, server: Any) -> None:
    pid, token = server.player(name="cheaterbob")
    _, op = _staff(server, "op_ban", "operator")
    client = ProtocolClient(server.ws_url, token, keep_frames=True)
    await client.connect()
    server.store.ledger.deposit(pid, "PLAY", 3000, f"op-ban:{pid}")
    table = server.table_id("Oper Holdem")
    await client.sit(table, 4, 1000)
    assert server.store.ledger.balance(pid, "PLAY") == 2000
    flag = server.store.integrity.save_flags([Flag((str(pid), "1"), "chip_dumping", 0.999, 40, ("t/1",), 1e-9)])[0]
    listed = http.get("/api/operator/flags", headers=_auth(op)).json()["flags"]
    assert any(f["id"] == flag.id for f in listed)
    res = http.post(f"/api/operator/players/{pid}/ban", headers=_auth(op),
                    json={"reason": "chip dumping confirmed", "flag_id": flag.id})
    assert res.status_code == 200, res.text
    await asyncio.wait_for(client.closed.wait(), 10)
    assert any(f.get("type") == "notice" and f.get("code") == "account_blocked" for f in client.frames)
    login = http.post("/api/login", json={"username": "cheaterbob", "password": "password-cheaterbob"})
    assert login.status_code == 403 and login.json()["error"]["code"] == "account_blocked"
    assert http.get("/api/me", headers=_auth(token)).status_code == 401
    with pytest.raises((CommandRefused, ConnectionError)):
        await ProtocolClient(server.ws_url, token).connect()
    detail = http.get(f"/api/operator/players/{pid}", headers=_auth(op)).json()
    assert detail["standing"]["status"] == "banned"
    assert detail["audit"][0]["action"] == "ban" and detail["audit"][0]["reason"] == "chip dumping confirmed"
    assert server.store.integrity.flag(flag.id).status == "actioned"
    deadline = asyncio.get_running_loop().time() + 20  # unseated: the stack is back on the balance (R-CASH-3)
    while server.store.ledger.balance(pid, "PLAY") != 3000:
        assert asyncio.get_running_loop().time() < deadline, server.store.ledger.balance(pid, "PLAY")
        await asyncio.sleep(0.1)
    seats = http.get(f"/api/tables/{table}", headers=_auth(op)).json().get("seats", [])
    assert all(s.get("player") != pid for s in seats if isinstance(s, dict))


async def test_suspended_account_cannot_sit_on_an_open_socket_r_integ_5(http: httpx.Client, server: Any) -> None:
    pid, token = server.player()
    op_id, _ = _staff(server, "op_susp", "operator")
    async with ProtocolClient(server.ws_url, token) as client:
        server.store.integrity.set_status(op_id, pid, "suspended", "under review")  # store only: socket stays
        reply = await client.request({"type": "sit", "table": server.table_id("Oper Holdem"), "seat": 5,
                                      "buy_in": 500})
        assert reply["type"] == "error" and reply["code"] == "account_blocked"


def test_search_force_alias_void_and_errors_r_alias_4(http: httpx.Client, server: Any) -> None:
    pid, token = server.player(name="rudename")
    _, op = _staff(server, "op_alias", "operator")
    found = http.get("/api/operator/players", params={"q": "RUDEN"}, headers=_auth(op)).json()["players"]
    assert [p["player_id"] for p in found] == [pid]
    res = http.post(f"/api/operator/players/{pid}/force_alias", headers=_auth(op), json={"reason": "offensive"})
    assert res.status_code == 200 and res.json()["detail"]["neutral_alias"]
    assert server.store.accounts.get(pid).alias_must_change
    flag = server.store.integrity.save_flags([Flag((str(pid), "2"), "soft_play", 0.99, 50, ("t/2",), 1e-8)])[0]
    assert http.post(f"/api/operator/flags/{flag.id}/void", headers=_auth(op), json={}).status_code == 422
    res = http.post(f"/api/operator/flags/{flag.id}/void", headers=_auth(op), json={"reason": "regular friends"})
    assert res.status_code == 200 and server.store.integrity.flag(flag.id).status == "void"
    bad = http.post(f"/api/operator/players/{pid}/disqualify", headers=_auth(op), json={"reason": "x"})
    assert bad.status_code == 422  # no tournament given: nothing recorded
    actions = [e["action"] for e in http.get("/api/operator/audit", params={"player_id": pid},
                                             headers=_auth(op)).json()["audit"]]
    assert actions == ["force_alias"]
