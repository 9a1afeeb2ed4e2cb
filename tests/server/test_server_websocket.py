"""The WebSocket protocol against a real server: auth, error frames, reconnect with the full view, replaced
connections, frame rate limits, room refusals, and the shutdown notice on SIGTERM. Issue #29: every test runs in
both deployments (one process; a gateway and two table hosts), ``deployments.deployment_fixture``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from riverboat.bots import ProtocolClient

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "WS Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}


deployment = deployment_fixture([TABLE], ["--frame-rate", "20"])


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


async def _next(client: ProtocolClient, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    """Wait for the next frame (from now on) matching ``pred``."""
    return await client.next_frame(pred, timeout)


async def test_unauthenticated_connection_gets_lobby_and_pong_but_no_commands(server: Any) -> None:
    async with ProtocolClient(server.ws_url) as anon:
        pong = await anon.request({"type": "ping", "id": "p1"})
        assert pong == {**pong, "type": "pong", "ref": "p1"}
        waiting = asyncio.ensure_future(_next(anon, lambda f: f.get("type") == "lobby"))
        await anon.send({"type": "lobby", "id": 2})
        lobby = await waiting
        assert [t["name"] for t in lobby["tables"]] == ["WS Holdem"]
        table = lobby["tables"][0]["id"]
        refused = await anon.request({"type": "sit", "table": table, "seat": 0, "buy_in": 500})
        assert refused["type"] == "error" and refused["code"] == "unauthenticated"
        bad = await anon.request({"type": "auth", "token": "not-a-token"})
        assert bad["code"] == "bad_token"


async def test_malformed_frames_get_error_frames_with_the_client_id(server: Any) -> None:
    _, token = server.player(eur=10_000)
    async with ProtocolClient(server.ws_url, token) as client:
        await client.send_raw("{{{")
        err = await _next(client, lambda f: f.get("type") == "error")
        assert err["code"] == "bad_json" and err["ref"] is None
        await client.send_raw(json.dumps({"v": 1, "type": "sit", "table": "x", "seat": 0, "buy_in": -1, "id": 9}))
        err = await _next(client, lambda f: f.get("type") == "error")
        assert (err["code"], err["ref"]) == ("invalid", 9)
        err = await client.request({"type": "act", "table": "no-such-table", "kind": "fold"})
        assert err["code"] == "no_table"
        assert client.closed.is_set() is False  # errors never drop the connection


async def test_room_refusals_change_nothing(server: Any) -> None:
    """R-BUYIN-2 range, R-CASH-2 seat taken, out-of-turn actions: error frames, balances unchanged."""
    table = server.table_id("WS Holdem")
    (a_id, a_tok), (b_id, b_tok) = server.player(eur=10_000), server.player(eur=10_000)
    async with ProtocolClient(server.ws_url, a_tok) as a, ProtocolClient(server.ws_url, b_tok) as b:
        assert (await a.request({"type": "sit", "table": table, "seat": 0, "buy_in": 100}))["code"] == "buy_in_range"
        assert (await a.request({"type": "sit", "table": table, "seat": 0, "buy_in": 5000}))["code"] == "buy_in_range"
        await a.sit(table, 0, 1000)
        assert (await b.request({"type": "sit", "table": table, "seat": 0, "buy_in": 1000}))["code"] == "seat_taken"
        assert (await a.request({"type": "sit", "table": table, "seat": 1, "buy_in": 1000}))["code"] == \
            "already_seated"
        assert server.balance(b_id) == 10_000 and server.balance(a_id) == 9_000
        await b.sit(table, 1, 1000)
        deadline = asyncio.get_running_loop().time() + 10
        while ((b.views.get(table) or {}).get("hand") or {}).get("to_act") is None:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.05)
        to_act = b.views[table]["hand"]["to_act"]
        idle = b if to_act == 0 else a
        err = await idle.request({"type": "act", "table": table, "kind": "fold"})
        assert err["code"] == "not_your_turn"
        for client in (a, b):
            await client.leave(table)
        await asyncio.sleep(0.5)


async def test_reconnect_gets_the_full_view_back_and_a_second_connection_works_alongside(server: Any) -> None:
    """R-DISC: a player who connects again gets welcome + the full table_state of every table they sit at. A second
    connection (another browser tab) does not take the first one's place: both stay live, both receive the
    table's frames, and either may act (issue #14: a second tab used to silence the first for good)."""
    table = server.table_id("WS Holdem")
    _, token = server.player(eur=10_000)
    first = ProtocolClient(server.ws_url, token)
    await first.connect()
    await first.sit(table, 3, 800)
    second = ProtocolClient(server.ws_url, token)
    state = asyncio.ensure_future(_next(second, lambda f: f.get("type") == "table_state"))
    welcome = await second.connect()
    view = (await state)["view"]
    assert view["you"]["seat"] == 3 and view["you"]["stack"] == 800
    mine = next(s for s in view["seats"] if s["seat"] == 3)
    assert mine["alias"] == welcome["alias"] and len(welcome["alias"]) >= 4  # seats named by alias (R-ALIAS-1)
    # the first connection is still live: it answers, and a change at the table reaches both connections
    assert (await first.request({"type": "ping"}))["type"] == "pong"
    assert not first.closed.is_set()
    both = [asyncio.ensure_future(_next(c, lambda f: f.get("type") == "event" and (f.get("event") or {}).get("kind") == "sat_out"))
            for c in (first, second)]
    assert (await first.request({"type": "sit_out", "table": table}))["type"] == "ack"
    for got in both:
        assert (await asyncio.wait_for(got, 10))["event"]["seat"] == 3
    # closing one tab is not a disconnection while the other is open; the other can still leave the table
    await first.close()
    assert (await second.leave(table))["result"]["table"] == table
    await second.close()


async def test_frames_over_the_rate_limit_are_refused(server: Any) -> None:
    """Per-connection frame limit (burst 40, then 20/s here): the excess gets ``rate_limited`` and is dropped."""
    _, token = server.player()
    client = ProtocolClient(server.ws_url, token, keep_frames=True)
    await client.connect()
    ids = [await client.send({"type": "ping"}) for _ in range(80)]
    answers: dict[Any, str] = {}
    deadline = asyncio.get_running_loop().time() + 10
    while len(answers) < len(ids):
        assert asyncio.get_running_loop().time() < deadline, answers
        for frame in client.frames:
            if frame.get("ref") in ids:
                answers[frame["ref"]] = frame["type"] if frame["type"] == "pong" else frame["code"]
        await asyncio.sleep(0.05)
    got = list(answers.values())
    assert 39 <= got.count("pong") <= 55  # the burst of 40 minus the auth frame, plus what refilled meanwhile
    assert got.count("rate_limited") >= 25
    assert set(got) == {"pong", "rate_limited"}
    await client.close()


async def test_batch_frames_only_for_clients_that_opt_in_and_keep_order(server: Any) -> None:
    """Opt-in `batch` frames (docs/protocol.md): frames keep their order whether batched or not, and a client that
    did not opt in always gets one frame per message."""
    import websockets

    _, token = server.player()
    async with websockets.connect(f"{server.ws_url}?token={token}&batch=1") as raw:
        for i in range(30):
            await raw.send(json.dumps({"v": 1, "type": "ping", "id": i}))
        refs: list[Any] = []
        while len(refs) < 30:
            msg = json.loads(await asyncio.wait_for(raw.recv(), 10))
            frames = msg["frames"] if msg["type"] == "batch" else [msg]
            refs += [f["ref"] for f in frames if f["type"] == "pong"]
        assert refs == list(range(30))
    _, token2 = server.player()
    async with websockets.connect(f"{server.ws_url}?token={token2}") as plain:
        for i in range(30):
            await plain.send(json.dumps({"v": 1, "type": "ping", "id": i}))
        types = []
        pongs = 0
        while pongs < 30:
            msg = json.loads(await asyncio.wait_for(plain.recv(), 10))
            types.append(msg["type"])
            pongs += msg["type"] == "pong"
        assert "batch" not in types


async def test_r_disc_3_closing_the_socket_sits_the_cash_player_out_until_they_return(server: Any) -> None:
    """Closing the WebSocket is a disconnection for the room: at a cash table the player is sat out (R-DISC-3) and
    shown as disconnected to the others; reconnecting within the window (R-TIME-5) gives the view back with the
    player sitting in again by themselves (``sit_in`` is then a no-op)."""
    table = server.table_id("WS Holdem")
    (_, a_tok), (_, b_tok) = server.player(eur=10_000), server.player(eur=10_000)
    a = ProtocolClient(server.ws_url, a_tok)
    await a.connect()
    await a.sit(table, 4, 800)
    b = ProtocolClient(server.ws_url, b_tok)
    await b.connect()
    await b.sit(table, 5, 800)

    def seat_of(client: ProtocolClient, seat: int) -> dict[str, Any]:
        view = client.views.get(table) or {}
        return next((s for s in view.get("seats", []) if s["seat"] == seat), {})

    await b.close()
    deadline = asyncio.get_running_loop().time() + 10
    while not (seat_of(a, 5).get("connected") is False and seat_of(a, 5).get("status") == "sitting_out"):
        assert asyncio.get_running_loop().time() < deadline, seat_of(a, 5)
        await asyncio.sleep(0.05)
    b2 = ProtocolClient(server.ws_url, b_tok)
    state = asyncio.ensure_future(_next(b2, lambda f: f.get("type") == "table_state"))
    await b2.connect()
    view = (await state)["view"]
    assert view["you"]["seat"] == 5 and view["you"]["sitting_out"] is False
    ack = await b2.command({"type": "sit_in", "table": table})
    assert ack["result"]["sitting_out"] is False
    for client in (a, b2):
        await client.leave(table)
        await client.close()
