"""Speed Poker over the protocol (R-SPEED-1, R-SPEED-2): join a pool, get dealt, Speed Fold into a new hand at
once, leave, and find every chip back (balances + rake = deposits). Frames are checked for secrecy (R-GEN-5). In
both deployments (issue #29): one process, and a gateway with two table hosts (the pool on one of them)."""

from __future__ import annotations

import asyncio
from typing import Any

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .deployments import Deployment, deployment_fixture

POOL = {"speed": True, "name": "Speed NL", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
        "table_size": 2, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR"}
DEPOSIT = 20_000

deployment = deployment_fixture([POOL])


async def _wait(pred: Any, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not pred():
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)


async def _leave(client: Any, pool: str) -> None:
    """``leave_speed``, sent again while the connection's frame budget is spent: the calling-station bot that just
    stopped may have used it up (a fast-fold pool deals at once, so it acts many times a second), and the server
    then refuses any frame as ``rate_limited`` for a moment without applying it."""
    for _ in range(50):
        reply = await client.request({"type": "leave_speed", "pool": pool})
        if reply.get("type") != "error" or reply.get("code") != "rate_limited":
            assert reply.get("type") != "error", reply
            return
        await asyncio.sleep(0.05)
    raise AssertionError("leave_speed refused as rate_limited for 2.5 s")


async def test_r_speed_1_fast_fold_moves_player_to_a_new_hand_and_chips_are_conserved(deployment: Deployment,
                                                                                      recorder: Any) -> None:
    server = deployment
    pool = server.table_id("Speed NL")
    players = [server.player(eur=DEPOSIT) for _ in range(4)]
    clients = []
    bots = []
    for i, (_, token) in enumerate(players):
        client = ProtocolClient(server.ws_url, token, keep_frames=True)
        recorder.attach(client, f"speed{i}")
        await client.connect()
        clients.append(client)
    folder = clients[0]
    for client in clients[1:]:
        bots.append(Bot(client, CallingStation()))
    for client in clients:
        ack = await client.command({"type": "join_speed", "pool": pool, "buy_in": 1000})
        assert ack["result"]["stack"] == 1000

    def dealt(client: ProtocolClient) -> list[str]:
        return [f["hand"] for f in client.frames if f.get("type") == "speed" and f.get("event") == "dealt"]

    await _wait(lambda: len(dealt(folder)) >= 1)
    first = dealt(folder)[0]
    ack = await folder.command({"type": "fast_fold", "pool": pool})
    assert ack["result"]["folded"] == first
    await _wait(lambda: len(dealt(folder)) >= 2)  # R-SPEED-1: at once in a new hand
    assert dealt(folder)[1] != first
    bots.append(Bot(folder, CallingStation()))
    await _wait(lambda: len(server.store.hands.for_table(pool, limit=100)) >= 6)
    for bot in bots:
        await bot.stop()
    left = []
    for client in clients:
        await _leave(client, pool)
    for client in clients:
        await _wait(lambda c=client: any(f.get("type") == "speed" and f.get("event") == "left"  # type: ignore[misc]
                                         for f in c.frames))
        left.append(next(f["cashed_out"] for f in client.frames
                         if f.get("type") == "speed" and f.get("event") == "left"))
    hands = server.store.hands.for_table(pool, limit=10_000)
    rake = sum(h.rake for h in hands)
    assert rake > 0  # real-money pool: the iPoker rake applies (R-RAKE)
    for (pid, _), cashed in zip(players, left, strict=True):
        assert server.balance(pid) == DEPOSIT - 1000 + cashed
    assert sum(server.balance(pid) for pid, _ in players) + rake == 4 * DEPOSIT
    recorder.check(server.store, [pool])
    assert len(recorder.checked_hands) >= 6
    for client in clients:
        await client.close()
