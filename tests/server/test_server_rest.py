"""REST API against a real server process: accounts, auth, rate limits, alias, lobby, cashier, hand histories."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Rest Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "PLAY",
         "settings": {"between_hands_seconds": 0.05}}
SIGNUP_CHIPS = 50_000


deployment = deployment_fixture([TABLE], ["--signup-play-chips", str(SIGNUP_CHIPS)])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10.0) as client:
        yield client


def _register_login(http: httpx.Client, name: str, password: str = "s3cret-pass") -> tuple[dict[str, Any], str]:
    r = http.post("/api/register", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    r2 = http.post("/api/login", json={"username": name, "password": password})
    assert r2.status_code == 200, r2.text
    return r.json(), r2.json()["token"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_health_and_openapi_document_every_route(http: httpx.Client) -> None:
    assert http.get("/health").json()["status"] == "ok"  # a cluster node adds its node facts (its metrics listener)
    doc = http.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for path in ("/api/register", "/api/login", "/api/lobby", "/api/cashier", "/api/hands", "/api/alias"):
        assert path in doc["paths"]
    assert doc["components"]["schemas"]["Credentials"]["properties"]["password"]["minLength"] == 8
    assert "client_frames" in doc["x-websocket"]
    assert http.get("/").status_code == 200  # the browser client (or its placeholder) is served at /


def test_register_validates_and_refuses_duplicates_without_changing_anything(http: httpx.Client) -> None:
    """Duplicate username -> 409 ``username_taken``; malformed body -> 422 ``invalid`` (server finding 4)."""
    player, _ = _register_login(http, "dupe_user")
    again = http.post("/api/register", json={"username": "DUPE_user", "password": "another-pass"})
    # a taken username (ignoring case) is a conflict, 409, not a malformed request
    assert again.status_code == 409, again.text
    assert again.json()["error"]["code"] == "username_taken" and "taken" in again.json()["error"]["message"]
    doc = http.get("/openapi.json").json()
    assert "taken" in doc["paths"]["/api/register"]["post"]["responses"]["409"]["description"]
    assert http.post("/api/login", json={"username": "dupe_user", "password": "another-pass"}).status_code == 401
    assert http.post("/api/register", content=b"{not json").json()["error"]["code"] == "bad_json"
    short = http.post("/api/register", json={"username": "shorty", "password": "123"})
    assert short.status_code == 422 and short.json()["error"]["code"] == "invalid"
    assert short.json()["error"]["message"] == "password: a password has at least 8 characters"
    spaced = http.post("/api/register", json={"username": "two words", "password": "long-enough"})
    assert spaced.status_code == 422 and "no spaces" in spaced.json()["error"]["message"]
    extra = http.post("/api/register", json={"username": "x_user", "password": "long-enough", "role": "admin"})
    assert extra.status_code == 422  # no role smuggling: unknown fields are refused
    assert http.post("/api/login", json={"username": "x_user", "password": "long-enough"}).status_code == 401
    assert player["username"] == "dupe_user" and player["alias"] is None


def test_r_alias_1_alias_given_at_first_login_and_signup_play_money(http: httpx.Client) -> None:
    _, token = _register_login(http, "alice_rest")
    me = http.get("/api/me", headers=_auth(token)).json()
    assert me["username"] == "alice_rest"
    assert me["alias"] and 4 <= len(me["alias"]) <= 16  # R-ALIAS-1, R-ALIAS-5
    assert me["alias_changeable"] is True
    assert me["balances"] == {"EUR": 0, "PLAY": SIGNUP_CHIPS}


def test_r_alias_2_alias_changes_once_and_r_alias_5_format(http: httpx.Client) -> None:
    _, token = _register_login(http, "bob_rest")
    bad = http.put("/api/alias", json={"alias": "b@d!"}, headers=_auth(token))
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "alias_refused"
    ok = http.put("/api/alias", json={"alias": "RiverBob42"}, headers=_auth(token))
    assert ok.status_code == 200 and ok.json()["alias"] == "RiverBob42"
    again = http.put("/api/alias", json={"alias": "RiverBob43"}, headers=_auth(token))
    assert again.status_code == 422 and "changed once" in again.json()["error"]["message"]
    assert "R-ALIAS" not in again.json()["error"]["message"]  # plain words for players (issue #10, #14)
    me = http.get("/api/me", headers=_auth(token)).json()
    assert me["alias"] == "RiverBob42" and me["alias_changeable"] is False


def test_everything_but_the_lobby_needs_a_valid_token(http: httpx.Client, server: Any) -> None:
    assert http.get("/api/lobby").status_code == 200
    table = server.table_id("Rest Holdem")
    for path in ("/api/me", "/api/cashier", "/api/hands", f"/api/tables/{table}"):
        r = http.get(path)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthenticated"
        assert r.headers["www-authenticate"] == "Bearer"
        r = http.get(path, headers=_auth("forged-token"))
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    _, token = _register_login(http, "carol_rest")
    assert http.get(f"/api/tables/{table}", headers=_auth(token)).json()["table"]["name"] == "Rest Holdem"
    assert http.get("/api/tables/nope", headers=_auth(token)).status_code == 404
    assert http.post("/api/logout", headers=_auth(token)).status_code == 204
    assert http.get("/api/me", headers=_auth(token)).status_code == 401  # the token is revoked


def test_login_is_rate_limited_per_username(http: httpx.Client) -> None:
    """Per-username login limit (burst 8, then one attempt per 10 s): wrong guesses soon get 429 with Retry-After,
    and then even the right password is refused until the bucket refills."""
    _register_login(http, "dave_rest", "right-password")  # the first login spends one token
    codes = []
    for _ in range(12):
        code = http.post("/api/login", json={"username": "dave_rest", "password": "wrong-password"}).status_code
        codes.append(code)
        if code == 429:
            break
    assert codes[-1] == 429 and set(codes[:-1]) == {401} and 7 <= len(codes) - 1 <= 9, codes
    limited = http.post("/api/login", json={"username": "dave_rest", "password": "right-password"})
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["retry-after"]) >= 1
    # another username from the same address is not blocked by dave's attempts
    _register_login(http, "erin_rest")


async def test_cashier_and_hand_history_after_playing(http: httpx.Client, server: Any) -> None:
    """R-WALLET-1/2: the cashier lists the buy-in and the cash-out; hand histories hold only what the player
    may see (R-GEN-5: no PHH text, no other player's private events)."""
    table = server.table_id("Rest Holdem")
    players = [_register_login(http, f"hist{i}_rest") for i in range(2)]
    clients = []
    bots = []
    for _, token in players:
        client = ProtocolClient(server.ws_url, token)
        await client.connect()
        clients.append(client)
        bots.append(Bot(client, CallingStation()))
    for i, client in enumerate(clients):
        await client.sit(table, i, 1000)
    token0 = players[0][1]
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        hands = (await asyncio.to_thread(http.get, "/api/hands", headers=_auth(token0))).json()["hands"]
        if len(hands) >= 2:
            break
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.1)
    for bot in bots:
        await bot.stop()
    for client in clients:
        await client.leave(table)
        await client.close()
    await asyncio.sleep(0.3)
    hand = hands[0]
    assert hand["table_id"] == table and "phh" not in hand and "events" not in hand
    detail = http.get(f"/api/hands/{table}/{hand['hand_id']}", headers=_auth(token0)).json()
    assert "phh" not in detail
    kinds = {e["kind"] for e in detail["events"]}
    assert "dealt" in kinds and "hand_over" in kinds
    seats = {e["visible_to"][0] for e in detail["events"] if e.get("visible_to")}
    assert len(seats) == 1  # only this player's own private events
    other = players[1][1]
    mine_for_other = http.get(f"/api/hands/{table}/{hand['hand_id']}", headers=_auth(other)).json()["events"]
    other_seats = {e["visible_to"][0] for e in mine_for_other if e.get("visible_to")}
    assert other_seats and other_seats != seats
    cashier = http.get("/api/cashier", headers=_auth(token0)).json()
    kinds_moves = [(m["kind"], m["table"]) for m in cashier["history"]]
    assert ("buy_in", table) in kinds_moves and ("cash_out", table) in kinds_moves
    assert ("deposit", None) in kinds_moves
    assert cashier["balances"]["PLAY"] == SIGNUP_CHIPS + sum(m["amount"] for m in cashier["history"]
                                                             if m["kind"] != "deposit")


def test_r_wallet_cashier_pages_movements_from_the_store(http: httpx.Client, server: Any) -> None:
    """GET /api/cashier lists the store's movements newest first, ?limit= and ?before= page back with
    next_before, and bad paging parameters get a 422 with a clear message (server finding 3)."""
    pid, token = server.player("pager_rest", eur=700, play=300)
    server.store.ledger.withdraw(pid, "EUR", 200, f"test-wd:{pid}")
    whole = http.get("/api/cashier", headers=_auth(token)).json()
    assert [(m["kind"], m["currency"], m["amount"]) for m in whole["history"]] == [
        ("withdraw", "EUR", -200), ("deposit", "PLAY", 300), ("deposit", "EUR", 700)]
    assert whole["next_before"] is None and whole["balances"] == {"EUR": 500, "PLAY": 300}
    first = http.get("/api/cashier", params={"limit": 2}, headers=_auth(token)).json()
    assert first["history"] == whole["history"][:2] and first["next_before"] == whole["history"][1]["txn"]
    rest = http.get("/api/cashier", params={"limit": 2, "before": first["next_before"]}, headers=_auth(token)).json()
    assert rest["history"] == whole["history"][2:] and rest["next_before"] is None
    for params, word in (({"limit": 0}, "limit"), ({"limit": "x"}, "limit"), ({"before": -1}, "before")):
        bad = http.get("/api/cashier", params=params, headers=_auth(token))
        assert bad.status_code == 422 and word in bad.json()["error"]["message"], bad.text
    doc = http.get("/openapi.json").json()
    assert {p["name"] for p in doc["paths"]["/api/cashier"]["get"]["parameters"]} == {"limit", "before"}


def test_r_integ_8_hands_filtered_by_table_before_the_limit(http: httpx.Client, server: Any) -> None:
    """GET /api/hands?table=A&limit=n is the player's newest n hands AT TABLE A, even when newer hands were
    played elsewhere (the filter used to run after the limit and returned nothing here)."""
    pid, token = server.player("tables_rest")
    for k in range(3):
        server.store.hands.record("TA", f"a{k}", {pid: 100}, "")
    for k in range(5):
        server.store.hands.record("TB", f"b{k}", {pid: 100}, "")
    got = http.get("/api/hands", params={"table": "TA", "limit": 2}, headers=_auth(token)).json()["hands"]
    assert [(h["table_id"], h["hand_id"]) for h in got] == [("TA", "a2"), ("TA", "a1")]
    newest = http.get("/api/hands", params={"limit": 2}, headers=_auth(token)).json()["hands"]
    assert [h["hand_id"] for h in newest] == ["b4", "b3"]
