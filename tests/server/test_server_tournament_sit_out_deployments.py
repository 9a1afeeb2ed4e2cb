"""Issue #36 (cluster gap): a tournament player sits out and back in through ``POST /api/tournaments/{id}/sit_out``
(the table page's button) in both deployments (``deployments.deployment_fixture``): one process, and a gateway with
two table hosts over NATS, where the route runs the room command ``tournament_sit_out`` through the gateway's
``RemoteRoom.execute`` on the host that owns the tournament."""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from typing import Any

import httpx
from tests.store_fixtures import staff_token

from riverboat.bots import ProtocolClient

from .deployments import Deployment, deployment_fixture

deployment = deployment_fixture([])

SPEC = {"name": "Sit-out SNG", "kind": "sng", "seats": 2, "min_entrants": 2, "buy_in": 1000, "fee": 100,
        "starting_stack": 1500, "payout": "sng", "level_seconds": 3600,
        "levels": [{"small_blind": 50, "big_blind": 100}],
        "settings": {"between_hands_seconds": 0.05, "action_seconds": 30}}


class Player:
    """A player on the socket: records its ``state`` frames; offered a decision, the presser raises the minimum
    (an away player then folds), the other calls or checks."""

    def __init__(self, d: Deployment, presser: bool) -> None:
        self.id, self.token = d.player(eur=10_000)
        self.client = ProtocolClient(d.ws_url, self.token)
        self.presser = presser
        self.states: list[dict[str, Any]] = []
        self.decisions: list[str | None] = []  # the hand of each decision offered
        self.acks: list[dict[str, Any]] = []
        self.client.on_frame.append(self._on_frame)

    def _on_frame(self, frame: dict[str, Any]) -> None:
        if frame.get("type") != "tournament" or frame.get("event") != "state":
            return
        data = frame["data"]
        self.states.append(data)
        legal = (data.get("hand") or {}).get("legal")
        if isinstance(legal, dict) and legal.get("seat") == data.get("seat"):
            self.decisions.append(data.get("hand_id"))
            kinds = legal.get("kinds") or []
            act: dict[str, Any] = {"type": "tournament_act", "tournament": frame["tournament"]}
            bet = next((k for k in ("raise", "bet") if k in kinds), None) if self.presser else None
            if bet is not None:
                act.update(kind=bet, amount=int(legal["min_to"]))
            else:
                act["kind"] = next(k for k in ("check", "call", "fold") if k in kinds)
            asyncio.get_running_loop().create_task(self._act(act))

    async def _act(self, act: dict[str, Any]) -> None:
        self.acks.append(await self.client.request(act))

    def stack_by_hand(self, since: int) -> dict[str, int]:
        """The player's own stack at the first ``state`` of each hand seen from ``states[since]`` on."""
        out: dict[str, int] = {}
        for s in self.states[since:]:
            mine = [x["stack"] for x in s["seats"] if x["player"] == self.id]
            if s.get("hand_id") and mine:
                out.setdefault(s["hand_id"], mine[0])
        return out


async def _until(check: Any, what: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for: {what}"
        await asyncio.sleep(0.05)


async def test_issue_36_r_sitout_2_a_tournament_player_sits_out_and_back_in_in_both_deployments(
        deployment: Deployment) -> None:
    """R-SITOUT-1/2, R-TOURN-DISC-1 (issue #36): sat out through the REST route (a room command forwarded by a
    cluster gateway to the tournament's host), the player is dealt every hand, offered no decision, shown away,
    and loses chips every hand (blinded away); sat back in, they are offered decisions again and act. A player not
    in the tournament is refused (``not_registered``)."""
    d = deployment
    name = f"op{uuid.uuid4().hex[:8]}"
    d.store.accounts.register(name, "password-" + name, role="operator")
    op = staff_token(d.store, name, "password-" + name)
    tid = f"so-{d.kind}-{uuid.uuid4().hex[:6]}"
    http = httpx.AsyncClient(base_url=d.base_url, timeout=30.0)
    me, other = Player(d, presser=False), Player(d, presser=True)
    try:
        made = await http.post("/api/operator/tournaments", headers={"Authorization": f"Bearer {op}"},
                               json={"spec": SPEC, "id": tid})
        assert made.status_code == 201, made.text
        for p in (me, other):
            await p.client.connect()
            await p.client.command({"type": "tournament_register", "tournament": tid,
                                    "id": f"reg-{secrets.token_hex(6)}"})
        await _until(lambda: me.states and me.states[-1].get("hand_id"), "the first hand")
        auth = {"Authorization": f"Bearer {me.token}"}
        out = await http.post(f"/api/tournaments/{tid}/sit_out", headers=auth, json={"out": True})
        assert out.status_code == 200 and out.json() == {"tournament": tid, "sitting_out": True}, out.text
        await _until(lambda: me.states[-1].get("sitting_out") is True, "a state saying sitting_out")
        mark, first_hand, offered = len(me.states), me.states[-1].get("hand_id"), len(me.decisions)
        await _until(lambda: len(me.stack_by_hand(mark)) >= 5, "five hands dealt while sat out")
        stacks = [v for h, v in me.stack_by_hand(mark).items() if h != first_hand]
        assert all(b < a for a, b in zip(stacks, stacks[1:], strict=False)), stacks  # blinded away every hand
        assert [h for h in me.decisions[offered:] if h != first_hand] == []  # never asked to act
        away = [x.get("away") for s in me.states[mark:] for x in s["seats"] if x["player"] == me.id]
        assert away and all(away), away
        back = await http.post(f"/api/tournaments/{tid}/sit_out", headers=auth, json={"out": False})
        assert back.status_code == 200 and back.json() == {"tournament": tid, "sitting_out": False}, back.text
        acted = len(me.acks)
        await _until(lambda: len(me.acks) > acted, "a decision offered and acted on after the return")
        assert me.acks[-1].get("type") == "ack", me.acks[-1]  # dealt normally: their action is taken
        stranger = d.player()[1]
        refused = await http.post(f"/api/tournaments/{tid}/sit_out", headers={"Authorization": f"Bearer {stranger}"},
                                  json={"out": True})
        assert refused.json()["error"]["code"] == "not_registered", refused.text
    finally:
        for p in (me, other):
            await p.client.close()
        await http.aclose()
    d.store.ledger.verify()
