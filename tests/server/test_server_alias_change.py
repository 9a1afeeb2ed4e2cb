"""R-ALIAS-2 through the server (issue #10 item 5): after ``PUT /api/alias`` every seat view at the player's tables,
the spectator view, the table events and the hand log name the player by the new alias at once — the server calls
the room on the one alias path (``Hub.alias_changed`` -> ``Room.alias_changed``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from riverboat.bots import ProtocolClient

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Alias Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}


deployment = deployment_fixture([TABLE])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


def _seat_alias(view: dict[str, Any], seat: int) -> str | None:
    return next((s["alias"] for s in view.get("seats", []) if s["seat"] == seat), None)


def _auto_play(client: ProtocolClient, table: str) -> None:
    """Check when possible, else fold, whenever this client's view offers a decision."""
    def on_frame(frame: dict[str, Any]) -> None:
        hand = (frame.get("view") or {}).get("hand") if frame.get("type") == "table_state" else None
        legal = (hand or {}).get("legal")
        if legal:
            kind = "check" if "check" in legal["kinds"] else "fold"
            asyncio.ensure_future(client.send({"type": "act", "table": table, "kind": kind}))
    client.on_frame.append(on_frame)


async def test_r_alias_2_new_alias_shows_at_once_in_views_events_and_hand_log(server: Any) -> None:
    table = server.table_id("Alias Holdem")
    alice, token_a = server.player(eur=10_000)
    bob, token_b = server.player(eur=10_000)
    old_alias = server.store.accounts.get(alice).alias  # the alias given at registration (R-ALIAS-1)
    bob_alias = server.store.accounts.get(bob).alias
    assert old_alias and bob_alias
    auth = {"Authorization": f"Bearer {token_a}"}
    async with ProtocolClient(server.ws_url, token_a) as ca, ProtocolClient(server.ws_url, token_b) as cb:
        started = asyncio.ensure_future(cb.next_frame(
            lambda f: f.get("type") == "event" and f["event"].get("kind") == "hand_started", 20))
        await ca.sit(table, 0, 1_000)
        await cb.sit(table, 1, 1_000)
        first_hand = (await started)["event"]["hand_id"]
        assert _seat_alias(cb.views[table], 0) == old_alias

        changed = asyncio.ensure_future(cb.next_frame(
            lambda f: f.get("type") == "event" and f["event"].get("kind") == "alias_changed"))
        fresh = asyncio.ensure_future(cb.next_frame(
            lambda f: f.get("type") == "table_state" and _seat_alias(f["view"], 0) == "NewAlice2"))
        own = asyncio.ensure_future(ca.next_frame(
            lambda f: f.get("type") == "table_state" and _seat_alias(f["view"], 0) == "NewAlice2"))
        reply = await asyncio.to_thread(server.http.put, "/api/alias", json={"alias": "NewAlice2"}, headers=auth)
        assert reply.status_code == 200 and reply.json()["alias"] == "NewAlice2"
        event = (await changed)["event"]
        assert (event["seat"], event["player"], event["alias"]) == (0, alice, "NewAlice2")
        await fresh  # bob's seat view of the table names alice by her new alias
        await own  # and so does her own
        spectator = (await asyncio.to_thread(server.http.get, f"/api/tables/{table}", headers=auth)).json()
        assert _seat_alias(spectator, 0) == "NewAlice2"

        # the hand log of the hand in progress (settled once the next hand starts) names her by the new alias
        nxt = asyncio.ensure_future(cb.next_frame(
            lambda f: f.get("type") == "event" and f["event"].get("kind") == "hand_started"
            and f["event"]["hand_id"] != first_hand, 30))
        _auto_play(ca, table)
        _auto_play(cb, table)
        if cb.views[table].get("hand", {}).get("legal"):
            await cb.send({"type": "act", "table": table, "kind": "fold"})
        if ca.views[table].get("hand", {}).get("legal"):
            await ca.send({"type": "act", "table": table, "kind": "fold"})
        await nxt
        log = await asyncio.to_thread(server.http.get, f"/api/hands/{table}/{first_hand}",
                                      headers={"Authorization": f"Bearer {token_b}"})
        assert log.status_code == 200, log.text
        names = {s["seat"]: s["alias"] for s in log.json()["seats"]}
        assert names[0] == "NewAlice2" and names[1] == bob_alias
        await ca.leave(table)
        await cb.leave(table)
