"""Bots and the per-connection frame limit: a move refused as ``rate_limited`` leaves the decision open on the
server, so the bot must send it again rather than wait for a new view that never comes (the table would otherwise
stall until the action timer, R-TIME-1, ran out)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Rate", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}


# 40 frames of burst, then 4 per second: instant check/call bots run into the limit after about ten hands
deployment = deployment_fixture([TABLE], ["--frame-rate", "4"])  # issue #29: one process; a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


async def test_instant_bots_keep_playing_through_the_frame_limit(server: Any) -> None:
    table = server.table_id("Rate")
    clients: list[ProtocolClient] = []
    bots: list[Bot] = []
    hands: set[str] = set()
    try:
        for i in range(2):
            _, token = server.player(eur=100_000)
            client = ProtocolClient(server.ws_url, token)
            if i == 0:
                client.on_frame.append(
                    lambda f: hands.add(str(f["event"].get("hand_id")))
                    if f.get("type") == "event" and (f.get("event") or {}).get("kind") == "hand_started" else None)
            await client.connect()
            clients.append(client)
            bots.append(Bot(client, CallingStation()))  # no think time at all
            await client.sit(table, i, 1000)
        deadline = asyncio.get_running_loop().time() + 45
        while len(hands) < 25:
            assert asyncio.get_running_loop().time() < deadline, (
                f"the table stalled after {len(hands)} hands (refused: {[b.refused for b in bots]})")
            await asyncio.sleep(0.1)
    finally:
        for bot in bots:
            await bot.stop()
        for client in clients:
            await client.close()
