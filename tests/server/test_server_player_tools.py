"""Chat at the tables and player notes (issue #14 part 2) against a real server.

Chat: a seated player's line reaches the other players and the table's spectators with the sender's alias
(R-ALIAS-1), offensive words are masked with the alias word filter (R-ALIAS-4), someone neither seated nor
watching is refused, and lines over the per-player rate are refused and not sent. Notes: kept per account over
REST, validated, private to their owner.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from riverboat.bots import ProtocolClient
from riverboat.bots.client import CommandRefused

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Chat Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}


deployment = deployment_fixture([TABLE])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


async def _next(client: ProtocolClient, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    """Wait for the next frame (from now on) matching ``pred``."""
    return await client.next_frame(pred, timeout)


async def test_chat_reaches_table_and_spectators_filtered_and_rate_limited(server: Any) -> None:
    table = server.table_id("Chat Holdem")
    _, t1 = server.player(eur=10_000)
    _, t2 = server.player(eur=10_000)
    _, t3 = server.player()
    _, t4 = server.player()
    seated, other, spectator, outsider = (ProtocolClient(server.ws_url, t) for t in (t1, t2, t3, t4))
    welcome = await seated.connect()
    for c in (other, spectator, outsider):
        await c.connect()
    await seated.sit(table, 0, 1000)
    await other.sit(table, 1, 1000)
    await spectator.command({"type": "watch", "table": table})
    got = [asyncio.ensure_future(_next(c, lambda f: f.get("type") == "chat")) for c in (other, spectator)]
    ack = await seated.command({"type": "chat", "table": table, "text": "  nice   hand, you bastard  "})
    assert ack["result"]["text"] == "nice hand, you *******"
    for fut in got:
        frame = await fut
        assert frame["text"] == "nice hand, you *******" and frame["alias"] == welcome["alias"]
        assert frame["table"] == table and isinstance(frame["at"], str)
    with pytest.raises(CommandRefused) as refused:
        await outsider.command({"type": "chat", "table": table, "text": "hello"})
    assert refused.value.code == "not_at_table"
    with pytest.raises(CommandRefused) as empty:
        await seated.command({"type": "chat", "table": table, "text": "   "})
    assert empty.value.code == "chat_refused"
    codes = []
    for i in range(8):  # the burst is 5 lines (one used above)
        try:
            await seated.command({"type": "chat", "table": table, "text": f"line {i}"})
            codes.append("ok")
        except CommandRefused as exc:
            codes.append(exc.code)
    assert codes[:4] == ["ok"] * 4 and "chat_rate_limited" in codes[4:]
    for c in (seated, other):
        await c.leave(table)
    for c in (seated, other, spectator, outsider):
        await c.close()


def test_notes_are_private_per_account_and_validated(server: Any) -> None:
    alice, ta = server.player()
    bob, tb = server.player()
    carol, tc = server.player()
    auth = {"Authorization": f"Bearer {ta}"}
    put = httpx.put(f"{server.base_url}/api/notes/{bob}", json={"note": "bluffs rivers", "tag": "red", "muted": True},
                    headers=auth, timeout=10)
    assert put.status_code == 200 and put.json()["tag"] == "red" and put.json()["muted"] is True
    notes = httpx.get(f"{server.base_url}/api/notes", headers=auth, timeout=10).json()["notes"]
    assert [(n["player_id"], n["note"], n["tag"], n["muted"]) for n in notes] == [(bob, "bluffs rivers", "red", True)]
    assert notes[0]["alias"]
    bad = httpx.put(f"{server.base_url}/api/notes/{bob}", json={"note": "x", "tag": "pink"}, headers=auth, timeout=10)
    assert bad.status_code == 422
    assert httpx.get(f"{server.base_url}/api/notes", headers={"Authorization": f"Bearer {tc}"}, timeout=10).json() == {"notes": []}
    assert httpx.get(f"{server.base_url}/api/notes", timeout=10).status_code == 401
    assert httpx.get(f"{server.base_url}/api/notes", headers=auth, timeout=10).json()["notes"][0]["tag"] == "red"


def test_locale_is_kept_on_the_account_over_rest(server: Any) -> None:
    """Issue #32: PUT /api/locale keeps the player's language on the account, GET reads it back; an unknown
    language is refused with code invalid and changes nothing; no token, 401."""
    _, ta = server.player()
    _, tb = server.player()
    auth = {"Authorization": f"Bearer {ta}"}
    assert httpx.get(f"{server.base_url}/api/locale", headers=auth, timeout=10).json() == {"locale": None}
    put = httpx.put(f"{server.base_url}/api/locale", json={"locale": "ru"}, headers=auth, timeout=10)
    assert put.status_code == 200 and put.json() == {"locale": "ru"}
    bad = httpx.put(f"{server.base_url}/api/locale", json={"locale": "de"}, headers=auth, timeout=10)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid"
    assert httpx.get(f"{server.base_url}/api/locale", headers=auth, timeout=10).json() == {"locale": "ru"}
    other = httpx.get(f"{server.base_url}/api/locale", headers={"Authorization": f"Bearer {tb}"}, timeout=10)
    assert other.json() == {"locale": None}
    assert httpx.get(f"{server.base_url}/api/locale", timeout=10).status_code == 401
