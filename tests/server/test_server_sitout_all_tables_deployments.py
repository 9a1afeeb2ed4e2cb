"""R-SITOUT-4 in both deployments (issue #29: "R-SITOUT-4 and every other rule lives once, in the room"): a player
seated at two cash tables, which a cluster deals on two different table hosts, sits out at one and is out at both;
back in at one, they are back at both. The rule is the room's (``Room.sit_out`` / ``sit_in``), reaching the other
host's tables through ``Room.elsewhere`` (no gateway post-step); both deployments answer alike."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from riverboat.bots import ProtocolClient

from .deployments import Deployment, deployment_fixture

TABLES = [{"name": name, "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
           "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
           "settings": {"between_hands_seconds": 0.05, "action_seconds": 5, "timebank_seconds": 0}}
          for name in ("Sitout A", "Sitout B", "Sitout C", "Sitout D")]

deployment = deployment_fixture(TABLES)


def _status(d: Deployment, token: str, table: str, player: int) -> str:
    """The player's seat status in the table's spectator view (``GET /api/tables/{id}``), as of now."""
    view = httpx.get(f"{d.base_url}/api/tables/{table}", headers={"Authorization": f"Bearer {token}"},
                     timeout=10).json()
    return str(next(s["status"] for s in view["seats"] if s and s["player"] == player))


def _on_two_hosts(d: Deployment) -> tuple[str, str]:
    """Two of the tables dealt by different nodes (in a cluster: one on each table host)."""
    ids = [d.table_id(t["name"]) for t in TABLES]
    owners = {t: d.owner(t) for t in ids}
    first = ids[0]
    second = next((t for t in ids[1:] if owners[t] != owners[first]), ids[1])
    if d.kind == "cluster":
        assert owners[second] != owners[first], owners
    return first, second


async def test_r_sitout_4_out_at_one_cash_table_is_out_at_all_and_back_at_one_is_back_at_all(
        deployment: Deployment) -> None:
    """R-SITOUT-4: the hero sits at tables ``a`` and ``b`` (two hosts in the cluster) and sits out at ``a``: the
    ack lists ``b`` (``also_sat_out``) and, once it is answered, the hero is sitting out at both; ``sit_in`` at
    ``b`` brings them back at both (``also_sat_in``: ``a``, where they wait for the big blind). The same in one
    process and through a gateway with two table hosts."""
    d = deployment
    a, b = _on_two_hosts(d)
    hero_id, token = d.player(eur=100_000)
    hero = ProtocolClient(d.ws_url, token)
    await hero.connect()
    try:
        for seat, table in enumerate((a, b)):
            await hero.sit(table, seat, 1000)
        assert {_status(d, token, t, hero_id) for t in (a, b)} <= {"playing", "waiting"}
        out: dict[str, Any] = await hero.command({"type": "sit_out", "table": a})
        assert out["result"] == {"table": a, "sitting_out": True, "also_sat_out": [b]}, out
        assert [_status(d, token, t, hero_id) for t in (a, b)] == ["sitting_out", "sitting_out"]
        back: dict[str, Any] = await hero.command({"type": "sit_in", "table": b})
        assert back["result"]["also_sat_in"] == [a] and back["result"]["sitting_out"] is False, back
        assert "sitting_out" not in {_status(d, token, t, hero_id) for t in (a, b)}
        again: dict[str, Any] = await hero.command({"type": "sit_out", "table": b})
        assert again["result"]["also_sat_out"] == [a], again
        for table in (a, b):
            await hero.command({"type": "leave", "table": table})
        await asyncio.sleep(0.2)
    finally:
        await hero.close()
    d.store.ledger.verify()
