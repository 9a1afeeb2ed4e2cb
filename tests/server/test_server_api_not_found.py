"""An API path that no route matches answers the API's documented JSON error (``404 not_found``), not Starlette's
plain-text "Not Found": schemathesis found ``GET /api/hands/{table_id}/{hand_id}`` with a line break in the table id
(the ``path`` convertor's pattern does not match it) answering text/plain. Other paths keep the client's answer."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from riverboat.room import Room
from riverboat.room.clock import FakeClock
from riverboat.server.app import create_app
from riverboat.server.hub import ServerConfig
from riverboat.store import Store


def _client(tmp_path: Any) -> TestClient:
    store = Store(f"sqlite:///{tmp_path}/nf.db")
    store.upgrade()
    room = Room(store, clock=FakeClock())
    return TestClient(create_app(store, room, ServerConfig(manage_room=False)))


def test_unmatched_api_paths_answer_json_not_found(tmp_path: Any) -> None:
    client = _client(tmp_path)
    for path in ("/api/hands/a%0Ab/1", "/api/no-such-thing", "/api/hands/x%0A/%0A"):
        res = client.get(path)
        assert res.status_code == 404, path
        assert res.headers["content-type"].startswith("application/json"), (path, res.headers["content-type"])
        assert res.json()["error"]["code"] == "not_found"
    assert client.get("/api/lobby").status_code == 200  # routes still match


def test_a_known_api_path_with_a_wrong_method_keeps_its_405(tmp_path: Any) -> None:
    res = _client(tmp_path).delete("/api/register")
    assert res.status_code == 405
