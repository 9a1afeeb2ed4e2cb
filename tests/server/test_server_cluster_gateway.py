"""Commands that a cluster gateway routes to the host that runs the table or the tournament (issue #15, docs/cluster.md
"Roles and paths"), with real processes (two table hosts, one gateway), the real NATS server and PostgreSQL, and the
same commands in one process (issue #29: ``deployments.deployment_fixture``, every difference a defect):

1. the waiting list and the table options of a cash table on the host, through the gateway's WebSocket: ``waitlist``
   / ``unwaitlist`` (R-CASH-3: the free seat offered privately with ``seat_offered``), ``options`` (R-SITOUT-5);
2. the operator's powers over a tournament through the gateway's REST API: edit before any entry (R-OPER-2; a bad
   change is refused and changes nothing), cancel with refunds (R-OPER-3, R-TOURN-REG-4), disqualify a player of a
   running tournament (R-OPER-1, R-INTEG-5), interrupt it with compensation (R-TOURN-INT); money conserved.
"""

from __future__ import annotations

import asyncio
import inspect
import secrets
import time
import uuid
from typing import Any

import httpx
from tests.store_fixtures import staff_token

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .conftest import SecrecyRecorder
from .deployments import Deployment, deployment_fixture
from .test_server_cluster import TABLES

TWO_MAX = [{**TABLES[0], "name": "W2", "max_seats": 2}]
CUR = "EUR"
DEPOSIT = 50_000
SNG = {"name": "Gateway SNG", "kind": "sng", "seats": 6, "min_entrants": 6, "buy_in": 1000, "fee": 100,
       "currency": CUR, "starting_stack": 1500, "payout": "sng", "level_seconds": 600,
       "levels": [{"small_blind": 50, "big_blind": 100}, {"small_blind": 100, "big_blind": 200}],
       "settings": {"action_seconds": 30, "between_hands_seconds": 0.05, "timebank_seconds": 0}}


deployment = deployment_fixture(TWO_MAX)


def _account(c: Deployment, role: str = "player") -> tuple[int, str]:
    name = f"gw{uuid.uuid4().hex[:8]}"
    pid = c.store.accounts.register(name, "password-" + name, role=role).id
    if role == "player":
        c.store.ledger.deposit(pid, CUR, DEPOSIT, f"dep:{pid}:{CUR}")
        c.store.ledger.deposit(pid, "PLAY", DEPOSIT, f"dep:{pid}:PLAY")
    if role != "player":
        return pid, staff_token(c.store, name, "password-" + name)
    return pid, c.store.accounts.login(name, "password-" + name)


def _money(c: Deployment) -> int:
    return sum(v for k, v in c.store.ledger.balances(CUR).items() if not k.startswith("external"))


async def _until(pred: Any, what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s: {what}")


def test_gateway_routes_table_and_operator_commands(deployment: Deployment, recorder: SecrecyRecorder) -> None:
    """R-CASH-3, R-SITOUT-5 (waiting list and table options through a gateway); R-OPER-1, R-OPER-2, R-OPER-3,
    R-TOURN-REG-4, R-TOURN-INT, R-INTEG-5 (an operator's edit, cancel, disqualify and interrupt of a cluster
    tournament through a gateway); money conserved, ledger verified."""
    asyncio.run(_scenario(deployment, recorder))


async def _scenario(c: Deployment, recorder: SecrecyRecorder) -> None:
    clients: list[ProtocolClient] = []
    bots: list[Bot] = []

    async def connect(token: str, name: str) -> ProtocolClient:
        client = ProtocolClient(c.ws_url, token)
        recorder.attach(client, name)
        await client.connect()
        clients.append(client)
        return client

    try:
        await _waiting_list(c, connect, bots)
        await _operator(c, c.base_url, connect)
    finally:
        for b in bots:
            await b.stop()
        for client in clients:
            await client.close()
    c.store.ledger.verify()


async def _waiting_list(c: Deployment, connect: Any, bots: list[Bot]) -> None:
    table = c.table_id(TWO_MAX[0]["name"])
    seated = []
    for i in range(2):
        _, token = _account(c)
        client = await connect(token, f"seated-{i}")
        await client.sit(table, i, 5000)
        seated.append(client)
    # table options of a seat, kept by the host (R-SITOUT-5): the reply holds them all
    ack = await seated[0].command({"type": "options", "table": table, "sit_out_next_bb": True})
    assert ack["result"]["options"]["sit_out_next_bb"] is True
    ack = await seated[0].command({"type": "options", "table": table, "sit_out_next_bb": False})
    assert ack["result"]["options"]["sit_out_next_bb"] is False
    _, token = _account(c)
    waiting = await connect(token, "waiting")
    refused = await seated[1].request({"type": "waitlist", "table": table, "id": "w-seated"})
    assert refused["type"] == "error" and refused["code"] == "already_seated", refused  # a clear refusal
    refused = await waiting.request({"type": "options", "table": table, "auto_post": True, "id": "o-not-seated"})
    assert refused["type"] == "error" and refused["code"] == "not_seated", refused
    ack = await waiting.command({"type": "waitlist", "table": table})
    assert ack["result"] == {"table": table, "waiting": True, "position": 1}
    # a seat frees up: the host offers it privately to the first in line, on their gateway (R-CASH-3)
    offered = asyncio.ensure_future(waiting.next_frame(
        lambda f: f.get("type") == "event" and f["event"].get("kind") == "seat_offered", timeout=30))
    for client in seated:
        bots.append(Bot(client, CallingStation(), think=0.02))  # the hand in progress ends, then the seat is free
    await seated[1].leave(table)
    assert (await offered)["event"] == {"kind": "seat_offered", "seat": 1}
    ack = await waiting.command({"type": "unwaitlist", "table": table})
    assert ack["result"] == {"table": table, "waiting": False}


async def _operator(c: Deployment, base: str, connect: Any) -> None:
    _, op = _account(c, role="operator")
    auth = {"Authorization": f"Bearer {op}"}
    async with httpx.AsyncClient(base_url=base, timeout=15) as http:
        async def post(path: str, body: dict[str, Any]) -> httpx.Response:
            return await http.post(path, json=body, headers=auth)

        async def row(tid: str) -> dict[str, Any] | None:
            tabs = (await http.get("/api/tournaments")).json()
            return next((r for tab in tabs.values() for r in tab if r["id"] == tid), None)

        # R-OPER-2: edit before any entry; the host refuses a bad change and nothing changes
        tid = f"opsng{uuid.uuid4().hex[:6]}"
        res = await post("/api/operator/tournaments", {"spec": SNG, "id": tid})
        assert res.status_code == 201, res.text
        res = await post(f"/api/operator/tournaments/{tid}/edit", {"changes": {"seats": "many"}})
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_settings", res.text
        assert (await row(tid) or {}).get("status") == "registering"
        res = await post(f"/api/operator/tournaments/{tid}/edit", {"changes": {"name": "Edited SNG"}})
        assert res.status_code == 200, res.text
        edited = res.json()
        assert edited["name"] == "Edited SNG" and edited["id"] != tid and edited["status"] == "registering"
        await _until(lambda: _gone(row, tid), "the edited-away tournament leaves the lobby")
        # R-OPER-3 / R-TOURN-REG-4: cancelled with one entrant, whose buy-in and fee come back
        money = _money(c)
        pid, token = _account(c)
        client = await connect(token, "registrant")
        ack = await client.command({"type": "tournament_register", "tournament": edited["id"],
                                    "id": f"reg-{secrets.token_hex(6)}"})
        assert ack["result"]["registered"] is True
        assert c.store.ledger.balance(pid, CUR) == DEPOSIT - 1100
        res = await post(f"/api/operator/tournaments/{edited['id']}/edit", {"changes": {"buy_in": 2000, "fee": 200}})
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_state", res.text  # somebody paid
        res = await post(f"/api/operator/tournaments/{edited['id']}/edit", {"changes": {"name": "Renamed"}})
        assert res.status_code == 200 and res.json()["id"] == edited["id"], res.text  # in place (R-OPER-2)
        assert res.json()["name"] == "Renamed" and c.store.ledger.balance(pid, CUR) == DEPOSIT - 1100
        res = await post(f"/api/operator/tournaments/{edited['id']}/cancel", {})
        assert res.status_code == 200 and res.json()["status"] == "cancelled", res.text
        assert c.store.ledger.balance(pid, CUR) == DEPOSIT
        await _running_powers(c, post, row, connect)
        # the four later players' deposits came in; the disqualified player's forfeited buy-in stayed in the pool,
        # which the interruption closed to the house's outside account (``close_pools``); nothing else moved out
        assert _money(c) == money + 4 * DEPOSIT - 1000


async def _gone(row: Any, tid: str) -> bool:
    return await row(tid) is None


async def _running_powers(c: Deployment, post: Any, row: Any, connect: Any) -> None:
    """R-OPER-1 / R-INTEG-5: a player disqualified from a running tournament; R-TOURN-INT: the tournament
    interrupted, the remaining players compensated."""
    tid = f"opsng{uuid.uuid4().hex[:6]}"
    spec = {**SNG, "seats": 3, "min_entrants": 3, "settings": {**SNG["settings"], "action_seconds": 2}}
    res = await post("/api/operator/tournaments", {"spec": spec, "id": tid})
    assert res.status_code == 201, res.text
    players = [_account(c) for _ in range(3)]
    for i, (_, token) in enumerate(players):
        client = await connect(token, f"running-{i}")
        await client.command({"type": "tournament_register", "tournament": tid, "id": f"reg-{secrets.token_hex(6)}"})
    await _until(lambda: _status(row, tid, "running"), "the Sit & Go runs")
    res = await post(f"/api/operator/tournaments/{tid}/cancel", {})
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_state", res.text  # running: interrupted instead
    out = players[2][0]
    res = await post(f"/api/operator/players/{out}/disqualify", {"reason": "collusion", "tournament_id": tid})
    assert res.status_code == 200, res.text
    await _until(lambda: _left(row, tid, 2), "the disqualified player leaves the field")
    res = await post(f"/api/operator/tournaments/{tid}/interrupt", {})
    assert res.status_code == 200, res.text
    result = res.json()
    assert result["status"] == "interrupted" and str(out) not in result["payouts"]
    assert set(result["payouts"]) == {str(p) for p, _ in players[:2]}
    assert c.store.ledger.balance(out, CUR) == DEPOSIT - 1100  # forfeited (R-INTEG-5)
    for p, _ in players[:2]:
        assert c.store.ledger.balance(p, CUR) == DEPOSIT - 1100 + result["payouts"][str(p)]


async def _status(row: Any, tid: str, status: str) -> bool:
    return ((await row(tid)) or {}).get("status") == status


async def _left(row: Any, tid: str, n: int) -> bool:
    return ((await row(tid)) or {}).get("players_left") == n
