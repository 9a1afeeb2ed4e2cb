"""Spectators over the WebSocket protocol against a real server process: ``watch`` / ``unwatch`` frames.

A logged-in player who watches a table without sitting receives its public ``table_state`` and events while two
bots play; every frame is checked by the secrecy recorder (R-GEN-5: no face-down card of anyone before it is shown,
a spectator having no cards of their own). ``unwatch`` stops the frames; a spectator who reconnects gets the
watched table's view again; a bad table id is refused with an error frame and changes nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Spectated", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05}}


deployment = deployment_fixture([TABLE])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


def _table_frames(frames: list[dict[str, Any]], table: str) -> list[dict[str, Any]]:
    return [f for f in frames if f.get("table") == table and f.get("type") in ("table_state", "event")]


def _events(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f["event"] for f in frames if f.get("type") == "event" and (f.get("event") or {}).get("kind") == kind]


async def _until(pred: Any, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not pred():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_r_gen_5_spectator_watches_hands_live_without_face_down_cards(server: Any, recorder: Any) -> None:
    table = server.table_id("Spectated")
    players = [server.player(eur=100_000) for _ in range(2)]
    _, watcher_token = server.player(eur=0)
    spectator = ProtocolClient(server.ws_url, watcher_token)
    seen: list[dict[str, Any]] = []
    spectator.on_frame.append(seen.append)
    recorder.attach(spectator, "spectator")
    await spectator.connect()
    clients: list[ProtocolClient] = []
    bots: list[Bot] = []
    try:
        ack = await spectator.command({"type": "watch", "table": table})
        assert ack["result"] == {"table": table, "watching": True}
        await _until(lambda: any(f.get("type") == "table_state" for f in _table_frames(seen, table)))
        for i, (_, token) in enumerate(players):
            client = ProtocolClient(server.ws_url, token)
            recorder.attach(client, f"player{i}")
            await client.connect()
            clients.append(client)
            # a short think time keeps each bot under the server's per-connection frame rate (20/s)
            bots.append(Bot(client, CallingStation(), think=0.06))
            await client.sit(table, i, 1000)
        # the spectator follows the hands live: starts, actions, and showdowns of check/call hands
        await _until(lambda: len(_events(seen, "showed")) >= 4)
        assert _events(seen, "hand_started") and _events(seen, "acted")
        assert not _events(seen, "dealt")  # the private deal events go to their owners only
        for f in _table_frames(seen, table):
            if f["type"] == "table_state":
                assert f["view"].get("you") in (None, {}), "a spectator has no seat and no cards of their own"

        # unwatch: after the ack, no frame of that table reaches the spectator any more
        ack = await spectator.command({"type": "unwatch", "table": table})
        assert ack["result"] == {"table": table, "watching": False}
        after = len(seen)
        hands_before = len(_events(seen, "hand_started"))
        await asyncio.sleep(1.5)  # the bots go on playing hands (0.05 s between hands)
        assert _table_frames(seen[after:], table) == []
        assert len(_events(seen, "hand_started")) == hands_before

        # watch again, then reconnect: the watched table sends its view again without a new watch frame
        await spectator.command({"type": "watch", "table": table})
        await spectator.close()
        spectator2 = ProtocolClient(server.ws_url, watcher_token)
        seen2: list[dict[str, Any]] = []
        spectator2.on_frame.append(seen2.append)
        recorder.attach(spectator2, "spectator-reconnected")
        await spectator2.connect()
        try:
            await _until(lambda: any(f.get("type") == "table_state" for f in _table_frames(seen2, table)))
            await _until(lambda: len(_events(seen2, "hand_started")) >= 1)
        finally:
            await spectator2.close()
    finally:
        for bot in bots:
            await bot.stop()
        for client in clients:
            await client.close()
        await spectator.close()
    recorder.check(server.store, [table])
    assert recorder.checked_hands, "the recorder saw hands"


async def test_watch_refusals_change_nothing(server: Any) -> None:
    _, token = server.player(eur=0)
    async with ProtocolClient(server.ws_url, token) as client:
        bad = await client.request({"type": "watch", "table": "no-such-table", "id": "w1"})
        assert bad["type"] == "error" and bad["ref"] == "w1" and bad["code"] == "no_table"
        malformed = await client.request({"type": "watch", "table": 12345678901234567890, "id": "w2"})
        assert malformed["type"] == "error" and malformed["ref"] == "w2"
        # an ordinary command still works on the same connection afterwards
        table = server.table_id("Spectated")
        ok = await client.command({"type": "watch", "table": table})
        assert ok["result"]["watching"] is True
