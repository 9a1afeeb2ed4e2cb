"""Tournaments through a real ``riverboat serve`` process (issue #11): an operator creates a Sit & Go over the
role-checked REST API, three protocol bots register with ``tournament_register`` (a money frame) and play it to
the end with ``tournament_act``; the lobby tabs and the detail show it; the winner's balance holds the prize, the
ledger balances. A player cannot create tournaments (403)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from tests.store_fixtures import staff_token

from riverboat.bots import ProtocolClient
from riverboat.bots.twister import TwisterBot

from .deployments import Deployment, deployment_fixture

DEPOSIT = 100_000
SNG = {"name": "Server SNG", "kind": "sng", "seats": 3, "min_entrants": 3, "buy_in": 1000, "fee": 100,
       "starting_stack": 1500, "payout": "sng", "level_seconds": 60,
       "levels": [{"small_blind": 50, "big_blind": 100}, {"small_blind": 100, "big_blind": 200},
                  {"small_blind": 200, "big_blind": 400}],
       "settings": {"between_hands_seconds": 0.02}}


deployment = deployment_fixture([])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_r_tourn_sng_1_sit_and_go_through_the_server(server: Any) -> None:
    """R-OPER-1, R-TOURN-SNG-1, R-TOURN-GEN-5, R-FEE-1: create (operator), register x3 (starts when full), play to
    the end; 1,950 to 1st and 1,050 to 2nd (the sng table's 65/35 for 3), paid through the ledger."""
    http = httpx.Client(base_url=server.base_url, timeout=10.0)
    pid_op = server.store.accounts.register("t_operator", "password-t_operator", role="operator").id
    op = staff_token(server.store, "t_operator", "password-t_operator")
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    refused = http.post("/api/operator/tournaments", headers=_auth(players[0][1]), json={"spec": SNG})
    assert refused.status_code == 403
    res = http.post("/api/operator/tournaments", headers=_auth(op), json={"spec": SNG, "id": "srv-sng"})
    assert res.status_code == 201, res.text
    assert res.json()["status"] == "registering" and pid_op
    tabs = http.get("/api/tournaments").json()
    assert [e["id"] for e in tabs["sng"]] == ["srv-sng"] and tabs["sng"][0]["fee"] == 100
    clients = [ProtocolClient(server.ws_url, token) for _, token in players]
    bots = [TwisterBot(c) for c in clients]
    try:
        for c in clients:
            await c.connect()
        for c in clients:
            ack = await c.command({"type": "tournament_register", "tournament": "srv-sng",
                                   "id": f"reg-{secrets.token_hex(6)}"})
            assert ack["result"]["registered"] is True
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 120)
    finally:
        for c in clients:
            await c.close()
    results = {pid: b.result for (pid, _), b in zip(players, bots, strict=True)}
    prizes = sorted((r or {}).get("prize", 0) for r in results.values())
    assert prizes in ([0, 1050, 1950], [525, 525, 1950])  # 65/35 of 3,000 (sng table); 2nd-3rd may be shared
    for pid, r in results.items():
        assert server.balance(pid) == DEPOSIT - 1100 + int((r or {}).get("prize", 0))
    detail = http.get("/api/tournaments/srv-sng").json()
    assert detail["status"] == "finished" and len(detail["results"]) == 3
    # the account's tournament history (issue #11 item 8): the row of each player as the game paid it
    for (_pid, token), r in zip(players, results.values(), strict=True):
        (row,) = [h for h in http.get("/api/tournaments/history", headers=_auth(token)).json()["history"]
                  if h["tournament"] == "srv-sng"]
        assert (row["kind"], row["field"], row["buy_in"], row["fee"]) == ("sng", 3, 1000, 100)
        assert (row["paid_buy_in"], row["paid_fee"], row["ticket_used"]) == (1000, 100, None)
        assert (row["place"], row["prize"], row["tickets_won"]) == ((r or {}).get("place"), (r or {}).get("prize"), [])
        assert row["date"] is not None and row["entry"] in ("won", "eliminated")
    # the hands they played are in their hand history, and open and export as the replayer asks for them (issue
    # #29: the same through a gateway; a tournament table's id holds a slash, sent as %2F)
    token = players[0][1]
    hands = [h for h in http.get("/api/hands", headers=_auth(token)).json()["hands"]
             if h["table_id"].startswith("srv-sng/")]
    assert hands, "no tournament hand in the player's history"
    table, hand = quote(hands[0]["table_id"], safe=""), hands[0]["hand_id"]
    detail = http.get(f"/api/hands/{table}/{hand}", headers=_auth(token))
    assert detail.status_code == 200 and detail.json()["hand_id"] == hand, detail.text
    for fmt in ("phh", "pokerstars"):
        export = http.get(f"/api/hands/{table}/{hand}/export?format={fmt}", headers=_auth(token))
        assert export.status_code == 200 and export.text, (fmt, export.text)
    server.store.ledger.verify()
    assert server.store.ledger.total("EUR") == 0


async def test_r_server_1_kill_9_mid_tournament_then_restart_resumes(start_server: Any) -> None:
    """R-SERVER-1 (issue #11 "Crash"): kill -9 of `riverboat serve` while a Sit & Go's first hand waits for a
    player; after the restart the tournament resumes from the store (every stack as after the last completed hand:
    here the starting 1,500 each, the hand in progress void), the players reconnect and play it to the end; the
    ledger balances and the pool is paid in full."""
    first = start_server([])
    op_id = first.store.accounts.register("k_operator", "password-k_operator", role="operator").id
    op = staff_token(first.store, "k_operator", "password-k_operator")
    players = [first.player(eur=DEPOSIT) for _ in range(3)]
    res = httpx.post(f"{first.base_url}/api/operator/tournaments", headers=_auth(op),
                     json={"spec": SNG | {"settings": {"between_hands_seconds": 0.02}}, "id": "kill-sng"})
    assert res.status_code == 201 and op_id
    clients = [ProtocolClient(first.ws_url, token) for _, token in players]
    try:
        for c in clients:
            await c.connect()
            await c.command({"type": "tournament_register", "tournament": "kill-sng",
                             "id": f"reg-{secrets.token_hex(6)}"})
        await asyncio.sleep(1.0)  # the first hand is dealt and waits for a decision nobody makes
    finally:
        for c in clients:
            await c.close()
    first.killed = True
    first.proc.kill()  # SIGKILL: no shutdown code runs
    first.proc.wait(30)
    again = start_server([], db_path=first.db_path)
    snap = again.store.tournament_play.snapshot("kill-sng")
    assert snap.status == "running"
    assert sorted(e.chips for e in snap.entries) == [1500, 1500, 1500] or sum(e.chips for e in snap.entries) == 4500
    clients = [ProtocolClient(again.ws_url, token) for _, token in players]
    bots = [TwisterBot(c) for c in clients]
    try:
        for c in clients:
            await c.connect()
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 120)
    finally:
        for c in clients:
            await c.close()
    assert again.store.tournaments.status("kill-sng") == "finished"
    total = sum(int((b.result or {}).get("prize", 0)) for b in bots)
    assert total == 3000
    again.store.ledger.verify()
    assert again.store.ledger.total("EUR") == 0


async def test_r_sitout_1_a_tournament_player_sits_out_and_back_in_through_the_server(server: Any) -> None:
    """R-SITOUT-1/2, R-TOURN-DISC-1 (issue #36 item 1): a registered player sits out of a running tournament from
    the client (``POST /api/tournaments/{id}/sit_out``): the answer and their next ``state`` say so, and every seat
    view shows them away; ``{"out": false}`` sits them back in. A player who is not in it is refused
    (``not_registered``), an anonymous caller too (401)."""
    http = httpx.Client(base_url=server.base_url, timeout=10.0)
    server.store.accounts.register("so_operator", "password-so_operator", role="operator")
    op = staff_token(server.store, "so_operator", "password-so_operator")  # second factor (issue #35)
    spec = {**SNG, "name": "Sit-out SNG", "seats": 2, "min_entrants": 2, "level_seconds": 3600,
            "settings": {"between_hands_seconds": 1.0}}
    assert http.post("/api/operator/tournaments", headers=_auth(op), json={"spec": spec, "id": "srv-so"}
                     ).status_code == 201
    (me, mine), (_other, theirs), (_stranger, strangers) = (server.player(eur=DEPOSIT) for _ in range(3))
    clients = [ProtocolClient(server.ws_url, token, keep_frames=True) for token in (mine, theirs)]
    try:
        for c in clients:
            await c.connect()
            await c.command({"type": "tournament_register", "tournament": "srv-so",
                             "id": f"reg-{secrets.token_hex(6)}"})
        for _ in range(100):
            if any(f.get("type") == "tournament" and f.get("event") == "started" for f in clients[0].frames):
                break
            await asyncio.sleep(0.1)
        waiting = asyncio.ensure_future(clients[0].next_frame(
            lambda f: f.get("event") == "state" and f["data"].get("sitting_out")))
        res = await asyncio.to_thread(http.post, "/api/tournaments/srv-so/sit_out", headers=_auth(mine),
                                      json={"out": True})
        assert res.status_code == 200 and res.json() == {"tournament": "srv-so", "sitting_out": True}
        state = await waiting
        assert [s.get("away") for s in state["data"]["seats"] if s["player"] == me] == [True]
        back = await asyncio.to_thread(http.post, "/api/tournaments/srv-so/sit_out", headers=_auth(mine),
                                       json={"out": False})
        assert back.status_code == 200 and back.json()["sitting_out"] is False
        refused = http.post("/api/tournaments/srv-so/sit_out", headers=_auth(strangers), json={"out": True})
        assert refused.status_code in (400, 404, 409) and refused.json()["error"]["code"] == "not_registered"
        assert http.post("/api/tournaments/srv-so/sit_out", json={"out": True}).status_code == 401
    finally:
        for c in clients:
            await c.close()
