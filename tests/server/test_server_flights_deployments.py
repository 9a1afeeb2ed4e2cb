"""Flight events and tournament registration in both deployments (issue #29: "flights cannot be created there";
``deployments.deployment_fixture``): an operator creates a flight event (``POST /api/operator/flights``,
R-TOURN-FLIGHT-1) through one process and through a gateway with two table hosts alike; the lobby lists Day 2 and
its flights; a player registers for a flight and unregisters over the WebSocket (R-TOURN-REG-3: buy-in and fee
back), and cannot buy into Day 2 (R-TOURN-FLIGHT-2)."""

from __future__ import annotations

import secrets
import time
import uuid
from typing import Any

import httpx
from tests.store_fixtures import staff_token

from riverboat.bots import ProtocolClient
from riverboat.room.tournament.simulate import default_spec

from .deployments import Deployment, deployment_fixture

deployment = deployment_fixture([])


def _spec(starts_in: float, **extra: Any) -> dict[str, Any]:
    spec = default_spec("mtt", 12, 6, "holdem", "NL", starts_at=time.time() + starts_in, **extra).to_dict()
    spec.pop("flight", None)
    spec.pop("day2_of", None)
    return spec


async def test_r_tourn_flight_1_a_flight_event_is_created_and_entered_in_both_deployments(
        deployment: Deployment) -> None:
    """R-TOURN-FLIGHT-1/2, R-TOURN-REG-3: the event answers 201 with its ids (not 501 through a gateway); the
    lobby's MTT tab lists Day 2 and the two flights with their event and day; a flight's registration debits
    buy-in + fee and its unregistration gives both back; Day 2 refuses a registration (``registration_closed``);
    the same event again is refused (``bad_settings``) and changes nothing."""
    d = deployment
    name = f"fl{uuid.uuid4().hex[:8]}"
    d.store.accounts.register(name, "password-" + name, role="operator")
    auth = {"Authorization": f"Bearer {staff_token(d.store, name, 'password-' + name)}"}
    ev = f"ev{uuid.uuid4().hex[:6]}"
    day2 = _spec(7200, buy_in=0, fee=0)
    event = {"event": ev, "day2": day2, "flights": [{"day": "1A", "levels": 2, "spec": _spec(3600)},
                                                    {"day": "1B", "levels": 2, "spec": _spec(3600)}]}
    pid, token = d.player(eur=50_000)
    client = ProtocolClient(d.ws_url, token)
    async with httpx.AsyncClient(base_url=d.base_url, timeout=30.0) as http:
        made = await http.post("/api/operator/flights", headers=auth, json=event)
        assert made.status_code == 201, made.text
        ids = [f"{ev}-1a", f"{ev}-1b"]
        assert made.json() == {"event": ev, "day2": f"{ev}-day2", "flights": ids}
        tabs = (await http.get("/api/tournaments")).json()
        rows = {r["id"]: (r.get("event"), r.get("day")) for r in tabs["mtt"]}
        assert {k: v for k, v in rows.items() if k.startswith(ev)} == {
            f"{ev}-day2": (ev, "2"), ids[0]: (ev, "1A"), ids[1]: (ev, "1B")}, rows
        again = await http.post("/api/operator/flights", headers=auth, json=event)
        assert again.status_code == 400 and again.json()["error"]["code"] == "bad_settings", again.text
    await client.connect()
    try:
        ack = await client.command({"type": "tournament_register", "tournament": ids[0],
                                    "id": f"reg-{secrets.token_hex(6)}"})
        assert ack["result"]["registered"] is True, ack
        assert d.balance(pid) == 50_000 - 1_100
        refused = await client.request({"type": "tournament_register", "tournament": f"{ev}-day2",
                                        "id": f"reg-{secrets.token_hex(6)}"})
        assert refused["type"] == "error" and refused["code"] == "registration_closed", refused
        out = await client.command({"type": "tournament_unregister", "tournament": ids[0]})
        assert out["result"]["registered"] is False, out
        assert d.balance(pid) == 50_000
    finally:
        await client.close()
    d.store.ledger.verify()
