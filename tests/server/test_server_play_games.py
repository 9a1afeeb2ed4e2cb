"""Integration: real WebSocket clients against a real ``riverboat serve`` process play hands to showdown.

For each game (Hold'em NL, Omaha Hi/Lo PL, 7 Card Stud FL, 2-7 Triple Draw FL, 32 Card Draw FL), three players sit
and buy in (R-BUYIN, R-CASH-2), check/call every hand down to showdown through the protocol, leave (R-CASH-3), and
find their money in the balance: each balance is its deposit minus the buy-in plus what the leave paid out, and the
chips of all players plus the rake equal the deposits (no chip lost or created). Every frame of every connection is
recorded and checked for other players' face-down cards (R-GEN-5). Issue #29: in both deployments (one process; a
gateway and two table hosts, the games' tables split between them).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .deployments import Deployment, deployment_fixture

DEPOSIT = 100_000  # €1,000.00

GAMES: list[dict[str, Any]] = [
    {"name": "Holdem NL", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
     "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000},
    {"name": "Omaha HL PL", "game": "omaha_hl", "structure": "PL", "small_blind": 5, "big_blind": 10,
     "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000},
    {"name": "Stud FL", "game": "stud", "structure": "FL", "ante": 2, "bring_in": 5, "small_bet": 10,
     "big_bet": 20, "small_blind": 5, "big_blind": 10, "max_seats": 8, "min_buy_in": 100, "max_buy_in": None},
    {"name": "Triple Draw FL", "game": "triple_draw_27", "structure": "FL", "small_blind": 5, "big_blind": 10,
     "max_seats": 6, "min_buy_in": 100, "max_buy_in": None},
    {"name": "32 Card Draw FL", "game": "draw32", "structure": "FL", "small_blind": 5, "big_blind": 10,
     "max_seats": 5, "min_buy_in": 100, "max_buy_in": None},
]
FAST = {"between_hands_seconds": 0.05}

deployment = deployment_fixture([{**g, "currency": "EUR", "settings": FAST} for g in GAMES])


def _showdowns(frames: list[dict[str, Any]]) -> set[str]:
    """Hand ids (per this connection's stream) in which at least one hand was shown."""
    current = None
    out: set[str] = set()
    for f in frames:
        if f.get("type") != "event":
            continue
        ev = f.get("event") or {}
        if ev.get("kind") == "hand_started":
            current = ev.get("hand_id")
        elif ev.get("kind") == "showed" and current is not None:
            out.add(current)
    return out


async def _play(server: Any, recorder: Any, table_name: str, buy_in: int, want_showdowns: int) -> dict[str, Any]:
    table = server.table_id(table_name)
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    clients: list[ProtocolClient] = []
    bots: list[Bot] = []
    frames: list[list[dict[str, Any]]] = []
    for i, (_, token) in enumerate(players):
        client = ProtocolClient(server.ws_url, token, batch=(i == 0))  # player 0 takes `batch` frames
        stream: list[dict[str, Any]] = []
        client.on_frame.append(stream.append)
        recorder.attach(client, f"player{i}")
        frames.append(stream)
        await client.connect()
        clients.append(client)
        bots.append(Bot(client, CallingStation()))
    for i, client in enumerate(clients):
        ack = await client.sit(table, i, buy_in)
        assert ack["result"]["seat"] == i and ack["result"]["stack"] == buy_in
    for pid, _ in players:
        assert server.balance(pid) == DEPOSIT - buy_in  # R-WALLET-1: the buy-in left the balance
    deadline = asyncio.get_running_loop().time() + 60
    while min(len(_showdowns(f)) for f in frames) < want_showdowns:
        assert asyncio.get_running_loop().time() < deadline, f"too few showdowns at {table_name}:\n{server.log()}"
        await asyncio.sleep(0.05)
    # leave (R-CASH-3): mid-hand the leave waits for the hand to end, then the stack is paid out
    cashed: dict[int, int] = {}
    waiters = []
    for (pid, _), client in zip(players, clients, strict=True):
        got: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def on_left(frame: dict[str, Any], got: asyncio.Future[int] = got, me: Any = client.player_id) -> None:
            ev = frame.get("event") or {}
            if frame.get("type") == "event" and ev.get("kind") == "left" and "cashed_out" in ev and not got.done():
                if ev.get("player") in (None, me):
                    got.set_result(int(ev["cashed_out"]))

        client.on_frame.append(on_left)
        reply = await client.leave(table)
        if not reply["result"].get("pending") and reply["result"].get("cashed_out") is not None:
            if not got.done():
                got.set_result(int(reply["result"]["cashed_out"]))
        waiters.append((pid, got))
    for pid, got in waiters:
        cashed[pid] = await asyncio.wait_for(got, 30)
    for bot in bots:
        await bot.stop()
    for client in clients:
        await client.close()
    return {"table": table, "players": players, "cashed": cashed, "frames": frames}


@pytest.mark.parametrize("spec", GAMES, ids=[g["game"] for g in GAMES])
async def test_r_cash_3_play_to_showdown_leave_and_find_money_in_balance(deployment: Deployment, recorder: Any,
                                                                          spec: dict[str, Any]) -> None:
    server = deployment
    buy_in = spec["min_buy_in"] * 2
    out = await _play(server, recorder, spec["name"], buy_in, want_showdowns=2)
    table = out["table"]
    total_rake = 0
    hands = server.store.hands.for_table(table, limit=10_000)
    assert hands, "no hand was recorded"
    for record in hands:
        total_rake += record.rake
        assert sum(record.changes.values()) + record.rake == 0  # each hand balances (R-WALLET-3)
    for pid, _ in out["players"]:
        assert server.store.ledger.table_stack(pid, table) == 0  # nothing left on the table
        assert server.balance(pid) == DEPOSIT - buy_in + out["cashed"][pid]  # the money is in the balance
    assert sum(server.balance(pid) for pid, _ in out["players"]) + total_rake == 3 * DEPOSIT
    # R-GEN-5: the recorder checks every frame of every connection against the stored hands
    recorder.check(server.store, [table])
    assert len(recorder.checked_hands) >= 2 and recorder.checked_frames > 0
