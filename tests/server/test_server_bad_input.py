"""Bad input over a real WebSocket (hypothesis): random and malformed frames — garbage text, non-objects, wrong
versions and types, huge and negative amounts, other players' seats, out-of-turn actions, commands for tables the
sender does not sit at — each get an ``error`` frame, and the table state and every balance stay exactly as they
were (docs/protocol.md; "bad input gets a clear error and changes nothing").

Setting: a heads-up hand is running with the action on the *victim* (a 10-minute action timer, so nothing moves by
itself). The *attacker* sits at the same table but is not to act; an *outsider* is logged in but not seated.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Fuzz Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}
BUY_IN = 1000
DEPOSIT = 5000
KINDS = ["fold", "check", "call", "bet", "raise", "bring_in", "complete", "straddle", "draw", "stand_pat",
         "agree_split", "decline_split", "run_twice", "run_once", "allin", "", "FOLD"]


class Conn:
    """A blocking protocol connection that reads until the answer to one frame arrives."""

    def __init__(self, url: str, token: str) -> None:
        self.ws: ClientConnection = connect(f"{url}?token={token}", max_size=2**22).__enter__()
        self.counter = 0
        self.views: dict[str, dict[str, Any]] = {}
        self.answer(None, lambda f: f.get("type") == "welcome")

    def answer(self, ref: Any, pred: Any = None, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            frame = json.loads(self.ws.recv(timeout=timeout))
            if frame.get("type") == "table_state":
                self.views[frame["table"]] = frame["view"]
            if pred is not None:
                if pred(frame):
                    return frame
            elif frame.get("type") in ("error", "ack", "pong") and frame.get("ref") == ref:
                return frame

    def send(self, frame: Any) -> dict[str, Any]:
        """Send one frame (object or raw text) and return the server's answer to it."""
        self.counter += 1
        ref: Any = None
        if isinstance(frame, dict):
            frame = dict(frame)
            if "id" not in frame:
                frame["id"] = f"fz{self.counter}"
            ref = frame["id"] if isinstance(frame["id"], str) and len(frame["id"]) <= 64 else None
            if isinstance(frame.get("id"), int) and not isinstance(frame["id"], bool) and 0 <= frame["id"] <= 2**53:
                ref = frame["id"]
            text = json.dumps(frame)
        else:
            text = frame
        self.ws.send(text)
        return self.answer(ref)


deployment = deployment_fixture([TABLE], ["--frame-rate", "100000"])  # issue #29: one process; gateway + 2 hosts


@pytest.fixture(scope="module")
def arena(deployment: Deployment) -> Iterator[dict[str, Any]]:
    server = deployment
    table = server.table_id("Fuzz Holdem")
    ids = {name: server.player(eur=DEPOSIT) for name in ("p0", "p1", "outsider")}
    conns = {name: Conn(server.ws_url, token) for name, (_, token) in ids.items()}
    for seat, name in enumerate(("p0", "p1")):
        ack = conns[name].send({"v": 1, "type": "sit", "table": table, "seat": seat, "buy_in": BUY_IN})
        assert ack["type"] == "ack", ack
    view = conns["p0"].answer(None, lambda f: f.get("type") == "table_state"
                              and ((f["view"].get("hand") or {}).get("to_act") is not None))["view"]
    to_act = view["hand"]["to_act"]
    roles = {"victim": "p0" if to_act == 0 else "p1", "attacker": "p1" if to_act == 0 else "p0"}
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        yield {"server": server, "table": table, "ids": ids, "conns": conns, "roles": roles,
               "victim_seat": to_act, "attacker_seat": 1 - to_act, "http": http}
    for conn in conns.values():
        conn.ws.close()


def snapshot(arena: dict[str, Any]) -> dict[str, Any]:
    server = arena["server"]
    table = arena["table"]
    token = arena["ids"]["outsider"][1]
    info = arena["http"].get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}).json()
    info.pop("timer", None)  # the countdown of the running decision is time, not state
    balances = {}
    for name, (pid, _) in arena["ids"].items():
        balances[name] = (server.balance(pid), server.store.ledger.table_stack(pid, table))
    return {"table": info, "balances": balances, "ledger_total": server.store.ledger.total("EUR")}


# ----------------------------------------------------------------------------------------------- strategies

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                         st.floats(allow_nan=False), st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda c: st.one_of(st.lists(c, max_size=4),
                                                              st.dictionaries(st.text(max_size=8), c, max_size=4)),
                           max_leaves=12)
bad_amounts = st.one_of(st.integers(max_value=-1), st.integers(min_value=10**12 + 1, max_value=10**40),
                        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10),
                        st.booleans(), st.lists(st.integers(), max_size=3))


@st.composite
def bad_frame(draw: st.DrawFn, table: str, attacker_seat: int, victim_seat: int) -> tuple[str, Any]:
    """(who sends it, frame). Every frame here must be refused."""
    kind = draw(st.sampled_from([
        "garbage", "non_object", "wrong_version", "unknown_type", "wrong_field_types", "out_of_turn",
        "taken_seat", "bad_buy_in", "too_big_top_up", "outsider_command", "unknown_table", "unknown_pool",
        "extra_field",
    ]))
    v = {"v": 1}
    if kind == "garbage":
        return "attacker", draw(st.text(max_size=200).filter(lambda t: not t.strip().startswith("{")))
    if kind == "non_object":
        return "attacker", json.dumps(draw(st.one_of(json_scalars, st.lists(json_values, max_size=4))))
    if kind == "wrong_version":
        ver = draw(st.one_of(st.integers().filter(lambda x: x != 1), st.text(max_size=3), st.none(), st.booleans()))
        return "attacker", {"v": ver, "type": "leave", "table": table}
    if kind == "unknown_type":
        t = draw(st.one_of(st.text(max_size=12), json_values).filter(
            lambda x: x not in ("auth", "ping", "lobby", "sit", "act", "sit_out", "sit_in", "leave", "top_up",
                                "join_speed", "fast_fold", "leave_speed", "resync")))
        return "attacker", {**v, "type": t, "table": table}
    if kind == "wrong_field_types":
        t = draw(st.sampled_from(["sit", "act", "top_up", "sit_out", "leave", "sit_in"]))
        field = {"sit": "buy_in", "act": "kind", "top_up": "amount", "sit_out": "table", "leave": "table",
                 "sit_in": "post"}[t]
        base: dict[str, Any] = {**v, "type": t, "table": table, "seat": attacker_seat, "buy_in": BUY_IN,
                                "kind": "fold", "amount": 10}
        base = {k: base[k] for k in ("v", "type", "table", *{"sit": ("seat", "buy_in"), "act": ("kind",),
                                                               "top_up": ("amount",)}.get(t, ()))}
        wrong = draw(st.one_of(st.lists(json_scalars, max_size=2), st.dictionaries(st.text(max_size=3), json_scalars,
                                                                                   max_size=2), st.floats()))
        base[field] = wrong
        return "attacker", base
    if kind == "out_of_turn":
        frame = {**v, "type": "act", "table": table, "kind": draw(st.sampled_from(KINDS))}
        if draw(st.booleans()):
            frame["amount"] = draw(st.integers(min_value=0, max_value=10**12))
        if draw(st.booleans()):
            frame["cards"] = draw(st.lists(st.sampled_from(["Ah", "Kd", "2c", "Ts", "9h"]), max_size=3))
        return "attacker", frame
    if kind == "taken_seat":
        who = draw(st.sampled_from(["attacker", "outsider"]))
        seat = draw(st.sampled_from([attacker_seat, victim_seat]))
        return who, {**v, "type": "sit", "table": table, "seat": seat, "buy_in": draw(st.integers(400, 2000))}
    if kind == "bad_buy_in":
        amount = draw(st.one_of(st.integers(min_value=1, max_value=399), st.integers(2001, 10**12), bad_amounts))
        return "outsider", {**v, "type": "sit", "table": table, "seat": draw(st.integers(2, 5)), "buy_in": amount}
    if kind == "too_big_top_up":
        amount = draw(st.one_of(st.integers(min_value=BUY_IN + 1, max_value=10**12), bad_amounts))
        return "attacker", {**v, "type": "top_up", "table": table, "amount": amount}
    if kind == "outsider_command":
        t = draw(st.sampled_from(["act", "sit_out", "sit_in", "leave", "top_up"]))
        frame = {**v, "type": t, "table": table}
        if t == "act":
            frame["kind"] = draw(st.sampled_from(KINDS[:10]))
        if t == "top_up":
            frame["amount"] = draw(st.integers(1, 10**12))
        return "outsider", frame
    if kind == "unknown_table":
        other = draw(st.from_regex(r"[A-Za-z0-9_.:-]{1,20}", fullmatch=True).filter(lambda x: x != table))
        t = draw(st.sampled_from(["act", "sit_out", "leave", "sit", "top_up", "sit_in"]))
        frame = {**v, "type": t, "table": other}
        frame.update({"act": {"kind": "fold"}, "sit": {"seat": 1, "buy_in": 500}, "top_up": {"amount": 5}}.get(t, {}))
        return draw(st.sampled_from(["attacker", "outsider"])), frame
    if kind == "unknown_pool":
        pool = draw(st.from_regex(r"[A-Za-z0-9_.:-]{1,20}", fullmatch=True))
        t = draw(st.sampled_from(["join_speed", "fast_fold", "leave_speed"]))
        frame = {**v, "type": t, "pool": pool}
        if t == "join_speed":
            frame["buy_in"] = draw(st.integers(1, 10**6))
        return draw(st.sampled_from(["attacker", "outsider"])), frame
    # extra_field: an otherwise valid command with a field nobody asked for (e.g. someone else's player id)
    extra = draw(st.sampled_from(["player", "player_id", "seat_of", "as", "user"]))
    return "attacker", {**v, "type": "sit_out", "table": table, extra: draw(json_scalars)}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(data=st.data())
def test_random_and_malformed_frames_get_errors_and_change_nothing(arena: dict[str, Any], data: st.DataObject
                                                                   ) -> None:
    before = snapshot(arena)
    frames = data.draw(st.lists(bad_frame(arena["table"], arena["attacker_seat"], arena["victim_seat"]),
                                min_size=1, max_size=4))
    for who, frame in frames:
        conn = arena["conns"][arena["roles"].get(who, who)]
        reply = conn.send(frame)
        assert reply["type"] == "error", (who, frame, reply)
        assert reply["code"] and reply["message"]
    assert snapshot(arena) == before
