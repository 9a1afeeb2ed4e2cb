"""Money frames are idempotent by their frame id (issue #16 part 4; R-WALLET-1, R-BUYIN-1): the same ``top_up``,
``sit`` or ``join_speed`` frame sent twice moves money once and gets the same reply; a new id moves money again;
the same id with other content is refused with ``id_reused`` and changes nothing. Through the real ``riverboat
serve`` process, checked in its ledger (movements, ``verify()``, conservation)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .deployments import Deployment, deployment_fixture

# one table per test, each with one player: no hand is dealt, so every top-up is applied at once (R-BUYIN-1)
TABLES = [
    {"name": f"Idem {k}", "game": "holdem", "structure": "NL", "small_blind": 1, "big_blind": 2, "max_seats": 6,
     "min_buy_in": 40, "max_buy_in": 400, "currency": "EUR", "bots": 0} for k in "ABCD"
] + [
    {"name": "Idem Speed", "speed": True, "game": "holdem", "structure": "NL", "small_blind": 1, "big_blind": 2,
     "table_size": 6, "min_buy_in": 40, "max_buy_in": 400, "currency": "EUR", "bots": 0},
]


deployment = deployment_fixture(TABLES, ["--frame-rate", "1000"])  # issue #29: one process, and a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


@pytest.fixture()
def player(server: Any) -> Iterator[tuple[int, ClientConnection]]:
    pid, token = server.player(eur=10_000)
    with connect(f"{server.ws_url}?token={token}") as conn:
        assert json.loads(conn.recv(timeout=10))["type"] == "welcome"
        yield pid, conn


def _reply(conn: ClientConnection, ref: Any) -> dict[str, Any]:
    """The ack or error answering frame ``ref`` (table frames pushed meanwhile are skipped)."""
    while True:
        frame = json.loads(conn.recv(timeout=20))
        if frame.get("type") in ("ack", "error") and frame.get("ref") == ref:
            return frame


def _send(conn: ClientConnection, frame: dict[str, Any]) -> dict[str, Any]:
    conn.send(json.dumps({"v": 1, **frame}))
    return _reply(conn, frame.get("id"))


def _moves(server: Any, pid: int, kind: str) -> list[int]:
    page = server.store.movements.for_player(pid, kinds=[kind])
    return [m.amount for m in page.items]


def _conserved(server: Any) -> None:
    server.store.ledger.verify()
    assert server.store.ledger.total("EUR") == 0


def test_top_up_twice_with_the_same_id_moves_money_once(server: Any, player: tuple[int, ClientConnection]) -> None:
    """R-WALLET-1, issue #16: a repeated ``top_up`` id is one movement in the ledger and the same reply; a new id
    moves money again."""
    pid, conn = player
    table = server.table_id("Idem A")
    assert _send(conn, {"type": "sit", "id": "sit-1", "table": table, "seat": 0, "buy_in": 100})["type"] == "ack"
    first = _send(conn, {"type": "top_up", "id": "tu-1", "table": table, "amount": 50})
    assert first["type"] == "ack" and first["result"]["stack"] == 150, first
    again = _send(conn, {"type": "top_up", "id": "tu-1", "table": table, "amount": 50})
    assert again == first
    assert _moves(server, pid, "top_up") == [-50]
    assert server.balance(pid) == 10_000 - 150
    assert server.store.ledger.table_stack(pid, table) == 150
    other = _send(conn, {"type": "top_up", "id": "tu-2", "table": table, "amount": 50})
    assert other["type"] == "ack" and other["result"]["stack"] == 200
    assert _moves(server, pid, "top_up") == [-50, -50]
    assert server.balance(pid) == 10_000 - 200
    _conserved(server)


def test_same_id_with_other_content_is_refused(server: Any, player: tuple[int, ClientConnection]) -> None:
    """Issue #16: the same frame id with a different amount (or another money command) is a clear error and moves
    nothing; the first reply is still the answer to the first content."""
    pid, conn = player
    table = server.table_id("Idem B")
    assert _send(conn, {"type": "sit", "id": 7, "table": table, "seat": 1, "buy_in": 100})["type"] == "ack"
    first = _send(conn, {"type": "top_up", "id": 8, "table": table, "amount": 20})
    assert first["type"] == "ack"
    changed = _send(conn, {"type": "top_up", "id": 8, "table": table, "amount": 30})
    assert changed["type"] == "error" and changed["code"] == "id_reused", changed
    assert "another top_up" in changed["message"]
    other_kind = _send(conn, {"type": "join_speed", "id": 8, "pool": server.table_id("Idem Speed"),
                              "buy_in": 100})
    assert other_kind["type"] == "error" and other_kind["code"] == "id_reused"
    assert _moves(server, pid, "top_up") == [-20]
    assert _moves(server, pid, "buy_in") == [-100]
    assert _send(conn, {"type": "top_up", "id": 8, "table": table, "amount": 20}) == first
    _conserved(server)


def test_sit_and_join_speed_repeated_are_one_buy_in(server: Any, player: tuple[int, ClientConnection]) -> None:
    """Issue #16: ``sit`` with a buy-in and ``join_speed`` sent twice with one id: one buy-in each, the same ack
    (not ``already_seated``); an int id and the same digits as a string are different ids."""
    pid, conn = player
    table, pool = server.table_id("Idem C"), server.table_id("Idem Speed")
    sat = _send(conn, {"type": "sit", "id": "s", "table": table, "seat": 2, "buy_in": 80})
    assert sat["type"] == "ack"
    assert _send(conn, {"type": "sit", "id": "s", "table": table, "seat": 2, "buy_in": 80}) == sat
    joined = _send(conn, {"type": "join_speed", "id": 1, "pool": pool, "buy_in": 60})
    assert joined["type"] == "ack", joined
    assert _send(conn, {"type": "join_speed", "id": 1, "pool": pool, "buy_in": 60}) == joined
    assert sorted(_moves(server, pid, "buy_in")) == [-80, -60]
    assert server.balance(pid) == 10_000 - 140
    # "1" (a string) is not the id 1: a fresh command, refused by the room on its own merits
    fresh = _send(conn, {"type": "join_speed", "id": "1", "pool": pool, "buy_in": 60})
    assert fresh["type"] == "error" and fresh["code"] == "already_seated", fresh
    _conserved(server)


def test_a_second_connection_of_the_player_gets_the_same_reply(server: Any) -> None:
    """Issue #16: the id is the player's, not the connection's: a copy sent from another tab (or after a
    reconnect) moves nothing and gets the first reply."""
    pid, token = server.player(eur=1_000)
    table = server.table_id("Idem D")
    with connect(f"{server.ws_url}?token={token}") as one, connect(f"{server.ws_url}?token={token}") as two:
        for conn in (one, two):
            assert json.loads(conn.recv(timeout=10))["type"] == "welcome"
        first = _send(one, {"type": "sit", "id": "tab", "table": table, "seat": 3, "buy_in": 200})
        assert first["type"] == "ack"
        assert _send(two, {"type": "sit", "id": "tab", "table": table, "seat": 3, "buy_in": 200}) == first
    assert _moves(server, pid, "buy_in") == [-200]
    _conserved(server)
