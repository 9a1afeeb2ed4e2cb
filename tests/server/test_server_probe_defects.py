"""The defects a hostile black-box client found (issue #29, issue #31 item 1), each checked against both
deployments (one process; a gateway with two table hosts): ``deployments.deployment_fixture``.

- each ``(table, seq)`` event reaches a connection once, whether the player sits, watches, or both, at two tables;
- a player's own hands are listed by ``/api/hands`` (the gateway's ``RemoteRoom`` has no table objects to name
  them with);
- a table filter with a NUL byte is a clear ``422 invalid``, not ``500 internal`` (PostgreSQL refuses NUL);
- ``/metrics`` is not on the public port: each node serves it on its own loopback listener;
- an out-of-turn ``fold`` is refused with ``not_your_turn``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import pytest

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .deployments import Deployment, deployment_fixture

FAST = {"between_hands_seconds": 0.05, "action_seconds": 5, "timebank_seconds": 0}
TABLES = [{"name": name, "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
           "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR", "settings": FAST}
          for name in ("Probe A", "Probe B", "Probe C", "Probe D")]

deployment = deployment_fixture(TABLES)


async def _until(pred: Any, timeout: float = 45.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not pred():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def _settled_hands(frames: list[dict[str, Any]], table: str) -> int:
    return sum(1 for f in frames if f.get("type") == "event" and f.get("table") == table
               and (f.get("event") or {}).get("kind") == "hand_over")


async def test_issue_31_each_table_seq_reaches_a_connection_once(deployment: Deployment) -> None:
    """Issue #31 item 1 / issue #29: a player seated at two tables who also watches both (the page's table view and
    a lobby preview) gets every ``(table, seq)`` event once on one connection; a second connection of theirs gets
    its own single copy."""
    a, b = deployment.table_id("Probe A"), deployment.table_id("Probe B")
    clients: list[ProtocolClient] = []
    bots: list[Bot] = []
    seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    try:
        _, hero_token = deployment.player(eur=100_000)
        for n in (0, 1):
            tab = ProtocolClient(deployment.ws_url, hero_token)
            tab.on_frame.append(seen[n].append)
            await tab.connect()
            clients.append(tab)
        hero = clients[0]
        bots.append(Bot(hero, CallingStation(), think=0.02))
        for i, table in enumerate((a, b)):
            _, token = deployment.player(eur=100_000)
            villain = ProtocolClient(deployment.ws_url, token)
            await villain.connect()
            clients.append(villain)
            bots.append(Bot(villain, CallingStation(), think=0.02))
            await villain.sit(table, 1, 1000)
            await hero.command({"type": "watch", "table": table})
            await hero.sit(table, 0, 1000)
            await clients[1].command({"type": "watch", "table": table})  # the other tab watches it too
            assert i in (0, 1)
        await _until(lambda: min(_settled_hands(seen[0], a), _settled_hands(seen[0], b)) >= 3)
    finally:
        for bot in bots:
            await bot.stop()
        for client in clients:
            await client.close()
    for n, frames in seen.items():
        counts = Counter((f["table"], f["seq"]) for f in frames if f.get("type") == "event" and "seq" in f)
        repeated = {k: v for k, v in counts.items() if v > 1}
        assert counts and not repeated, f"connection {n} got {len(repeated)} (table, seq) events more than once"


async def test_issue_29_own_hands_listed_and_nul_filter_refused(deployment: Deployment) -> None:
    """Issue #29: ``/api/hands`` lists the hands the player played (through a gateway too, named by the table's
    name), and a table filter with a NUL byte is ``422 invalid`` in both deployments."""
    table = deployment.table_id("Probe C")
    clients: list[ProtocolClient] = []
    bots: list[Bot] = []
    frames: list[dict[str, Any]] = []
    tokens = [deployment.player(eur=100_000)[1] for _ in range(2)]
    try:
        for i, token in enumerate(tokens):
            client = ProtocolClient(deployment.ws_url, token)
            if i == 0:
                client.on_frame.append(frames.append)
            await client.connect()
            clients.append(client)
            bots.append(Bot(client, CallingStation(), think=0.02))
            await client.sit(table, i, 1000)
        await _until(lambda: _settled_hands(frames, table) >= 4)
    finally:
        for bot in bots:
            await bot.stop()
        for client in clients:
            await client.close()
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    async with httpx.AsyncClient(base_url=deployment.base_url, timeout=10) as http:
        listed: list[dict[str, Any]] = []
        for _ in range(50):  # the hands are stored at settlement, a moment after the event
            resp = await http.get("/api/hands", headers=auth)
            assert resp.status_code == 200, resp.text
            listed = [h for h in resp.json()["hands"] if h["table_id"] == table]
            if len(listed) >= 2:
                break
            await asyncio.sleep(0.1)
        assert len(listed) >= 2 and all(h["table_name"] == "Probe C" for h in listed), listed
        resp = await http.get("/api/hands?table=%00", headers=auth)
        assert resp.status_code == 422 and resp.json()["error"]["code"] == "invalid", resp.text


def test_issue_29_metrics_not_on_the_public_port(deployment: Deployment) -> None:
    """Issue #29: no node answers ``/metrics`` on its public port; each serves it on a loopback listener of its
    own (named in its ``/health``)."""
    for url in deployment.public_urls():
        assert httpx.get(url + "/metrics", timeout=5).status_code == 404, url
    for url in deployment.metrics_urls():
        assert url.startswith("http://127.0.0.1:"), url
        resp = httpx.get(url, timeout=5)
        assert resp.status_code == 200 and "riverboat_" in resp.text, url


async def test_r_act_out_of_turn_fold_refused(deployment: Deployment) -> None:
    """R-ACT (issue #29): a ``fold`` from the player whose turn it is not is refused with ``not_your_turn`` (in
    both deployments), and the hand goes on."""
    table = deployment.table_id("Probe D")
    clients: list[ProtocolClient] = []
    turns: list[dict[str, Any]] = []
    try:
        for _ in range(2):
            _, token = deployment.player(eur=100_000)
            client = ProtocolClient(deployment.ws_url, token)
            await client.connect()
            clients.append(client)
        clients[0].on_frame.append(turns.append)
        for i, client in enumerate(clients):
            await client.sit(table, 2 + i, 1000)

        def turn_seat() -> int | None:
            for f in reversed(turns):
                event = f.get("event") or {}
                if f.get("type") == "event" and f.get("table") == table and event.get("kind") == "turn":
                    return int(event["seat"])
            return None

        await _until(lambda: turn_seat() is not None)
        refusals = 0
        for _ in range(3):
            seat = turn_seat()
            assert seat is not None
            idle = clients[1] if seat == 2 else clients[0]  # the player whose turn it is not
            answer = await idle.request({"type": "act", "table": table, "kind": "fold"})
            if answer.get("type") == "error":
                assert answer["code"] == "not_your_turn", answer
                refusals += 1
            else:  # only right if the turn had moved to them meanwhile
                pytest.fail(f"an out-of-turn fold was acknowledged: {answer}")
        assert refusals == 3
    finally:
        for client in clients:
            await client.close()
