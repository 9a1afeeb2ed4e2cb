"""Tournaments through a real ``riverboat serve`` process (issue #11): an operator creates a Sit & Go over the
role-checked REST API, three protocol bots register with ``tournament_register`` (a money frame) and play it to
the end with ``tournament_act``; the lobby tabs and the detail show it; the winner's balance holds the prize, the
ledger balances. A player cannot create tournaments (403)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import httpx
import pytest

from riverboat.bots import ProtocolClient
from riverboat.bots.twister import TwisterBot

DEPOSIT = 100_000
SNG = {"name": "Server SNG", "kind": "sng", "seats": 3, "min_entrants": 3, "buy_in": 1000, "fee": 100,
       "starting_stack": 1500, "payout": "sng", "level_seconds": 60,
       "levels": [{"small_blind": 50, "big_blind": 100}, {"small_blind": 100, "big_blind": 200},
                  {"small_blind": 200, "big_blind": 400}],
       "settings": {"between_hands_seconds": 0.02}}


@pytest.fixture(scope="module")
def server(start_module_server: Any) -> Any:
    return start_module_server([])


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_r_tourn_sng_1_sit_and_go_through_the_server(server: Any) -> None:
    """R-OPER-1, R-TOURN-SNG-1, R-TOURN-GEN-5, R-FEE-1: create (operator), register x3 (starts when full), play to
    the end; 1,950 to 1st and 1,050 to 2nd (the sng table's 65/35 for 3), paid through the ledger."""
    http = httpx.Client(base_url=server.base_url, timeout=10.0)
    pid_op = server.store.accounts.register("t_operator", "password-t_operator", role="operator").id
    op = server.store.accounts.login("t_operator", "password-t_operator")
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
    server.store.ledger.verify()
    assert server.store.ledger.total("EUR") == 0
