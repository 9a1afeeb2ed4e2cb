"""State a restart must not lose (issue #16 part 5), with the real ``riverboat serve`` process killed by SIGKILL
mid-hand and started again on the same SQLite database:

- R-SERVER-3 (``cash_out_on_crash`` read per table) and R-SERVER-1/2: at a table whose setting is off the players
  find their seats and stacks again (the hand in progress voided, every stack its pre-hand value); at a table whose
  setting is on the stacks are in the balances. Tables keep their ids (``table_id_for``).
- Checked through REST (``/api/lobby``, ``/api/tables/{id}``, ``/api/me``), WebSocket (``table_state`` on
  reconnect, ``sit_in``) and the ledger (``verify()``, every currency sums to zero, each player's money whole).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .conftest import RunningServer

BUY_INS = {"keep": (300, 200), "cash": (250, 150)}
FUNDS = 10_000
_TABLE = {"game": "holdem", "structure": "NL", "small_blind": 1, "big_blind": 2, "max_seats": 6, "min_buy_in": 40,
          "max_buy_in": 400, "currency": "PLAY", "bots": 0}
TABLES = [
    {"name": "Keep", **_TABLE, "settings": {"cash_out_on_crash": False, "action_seconds": 600}},
    {"name": "Cash", **_TABLE, "settings": {"cash_out_on_crash": True, "action_seconds": 600}},
]
SEATS = {"keep": (2, 4), "cash": (0, 5)}


def _frames_until(conn: ClientConnection, wanted: Any, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(conn.recv(timeout=max(0.1, deadline - time.monotonic())))
        if wanted(frame):
            return frame


def _hand_started(table: str) -> Any:
    return lambda f: (f.get("type") == "event" and f.get("table") == table
                      and (f.get("event") or {}).get("kind") == "hand_started")


def _seats(http: httpx.Client, token: str, table: str) -> dict[int, tuple[int, int]]:
    view = http.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}).json()
    return {s["player"]: (s["seat"], s["stack"]) for s in view["seats"]}


def _play_balance(http: httpx.Client, token: str) -> int:
    return int(http.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()["balances"]["PLAY"])


def _statuses(db: Path, table: str) -> list[str]:
    """Every hand of ``table`` in the database, started ones included (the store's reads list finished ones)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return [r[0] for r in conn.execute("SELECT status FROM hands WHERE table_id = ? ORDER BY id", (table,))]


def test_kill_9_mid_hand_then_restart_keeps_or_cashes_out_per_table(start_server: Any, tmp_path: Path) -> None:
    """R-SERVER-1, R-SERVER-2, R-SERVER-3, issue #16: kill -9 while a hand runs at both tables; after the restart
    the ``cash_out_on_crash: false`` table has its players in their seats with their pre-hand stacks (sat out
    until they come back), the ``true`` table's stacks are in the balances; the voided hands are ``void`` in the
    store; money is conserved throughout and after a clean stop."""
    first: RunningServer = start_server(TABLES)
    ids = {"keep": first.table_id("Keep"), "cash": first.table_id("Cash")}
    assert ids == {"keep": "t1-keep", "cash": "t2-cash"}  # the stable ids of the table list
    players: dict[str, list[tuple[int, str]]] = {k: [first.player(play=FUNDS) for _ in range(2)] for k in ids}
    with contextlib.ExitStack() as stack:
        conns = []
        for key, table in ids.items():
            for (_pid, token), seat, buy_in in zip(players[key], SEATS[key], BUY_INS[key], strict=True):
                conn = stack.enter_context(connect(f"{first.ws_url}?token={token}"))
                conns.append(conn)
                _frames_until(conn, lambda f: f.get("type") == "welcome")
                conn.send(json.dumps({"v": 1, "type": "sit", "id": "sit", "table": table, "seat": seat,
                                      "buy_in": buy_in, "wait_for_bb": False}))
                ack = _frames_until(conn, lambda f: f.get("ref") == "sit")
                assert ack["type"] == "ack", ack
            _frames_until(conns[-1], _hand_started(table))  # a hand is running there (blinds in the pot)
        for table in ids.values():
            assert _statuses(first.db_path, table)[-1] == "started"  # durable before the deal (group commit)
    first.killed = True
    first.proc.kill()  # SIGKILL: no shutdown code runs
    first.proc.wait(30)

    again: RunningServer = start_server(TABLES, db_path=first.db_path)
    assert {"keep": again.table_id("Keep"), "cash": again.table_id("Cash")} == ids
    http = again.http
    for table in ids.values():
        statuses = _statuses(again.db_path, table)
        assert "started" not in statuses
        assert statuses[-1] == "void"  # R-SERVER-1: the hand in progress at the kill is void
    (k1, t1), (k2, _t2) = players["keep"]
    assert _seats(http, t1, ids["keep"]) == {k1: (SEATS["keep"][0], BUY_INS["keep"][0]),
                                             k2: (SEATS["keep"][1], BUY_INS["keep"][1])}
    for (pid, token), buy_in in zip(players["keep"], BUY_INS["keep"], strict=True):
        assert again.store.ledger.table_stack(pid, ids["keep"], "PLAY") == buy_in
        assert _play_balance(http, token) == FUNDS - buy_in
    assert _seats(http, t1, ids["cash"]) == {}
    for pid, token in players["cash"]:
        assert again.store.ledger.table_stack(pid, ids["cash"], "PLAY") == 0
        assert _play_balance(http, token) == FUNDS  # R-SERVER-3 on: the stack is back in the balance
    again.store.ledger.verify()
    assert again.store.ledger.total("PLAY") == 0

    # over WebSocket: the player's seat and stack on reconnect, and they may sit in and play on
    with connect(f"{again.ws_url}?token={t1}") as conn:
        state = _frames_until(conn, lambda f: f.get("type") == "table_state" and f.get("table") == ids["keep"])
        assert state["view"]["you"]["seat"] == SEATS["keep"][0]
        mine = next(s for s in state["view"]["seats"] if s["player"] == k1)
        assert mine["stack"] == BUY_INS["keep"][0] and mine["status"] == "sitting_out"
        conn.send(json.dumps({"v": 1, "type": "sit_in", "id": "in", "table": ids["keep"]}))
        assert _frames_until(conn, lambda f: f.get("ref") == "in")["type"] == "ack"

    assert again.stop() == 0  # a clean stop returns every stack to its balance
    store = again.store
    for group in players.values():
        for pid, _token in group:
            assert store.ledger.balance(pid, "PLAY") == FUNDS
    store.ledger.verify()
    assert store.ledger.total("PLAY") == 0
    store.dispose()
