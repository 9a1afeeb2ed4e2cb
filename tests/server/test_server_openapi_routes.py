"""Issue #29 item 6: the OpenAPI document is generated from the app's routes. Every HTTP route declares its
methods, summary, auth, body and answer where it is defined (server/routedoc.py ``ApiRoute``); the document lists
exactly the app's route table, both ways, and a route without a declaration cannot be served undocumented (the
document refuses to build). The served document in both deployments is checked in test_server_hostile_inputs.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Route
from starlette.testclient import TestClient

from riverboat.room import Room
from riverboat.room.clock import FakeClock
from riverboat.server.app import create_app
from riverboat.server.hub import ServerConfig
from riverboat.server.openapi import UndeclaredRoute, build_openapi, undeclared
from riverboat.store import Store


def app_for(tmp_path: Path) -> Starlette:
    store = Store(f"sqlite:///{tmp_path}/oa.db")
    store.upgrade()
    return create_app(store, Room(store, clock=FakeClock()), ServerConfig(web_dir=None, manage_room=False))


def served_routes(routes: list[BaseRoute]) -> set[tuple[str, str]]:
    """(METHOD, documented path) of every HTTP route (HEAD comes with GET; a convertor is not in the path)."""
    return {(m, r.path_format) for r in routes if isinstance(r, Route) for m in r.methods or () if m != "HEAD"}


def documented(paths: dict[str, dict[str, object]]) -> set[tuple[str, str]]:
    return {(m.upper(), p) for p, ops in paths.items() for m in ops}


def test_the_document_lists_exactly_the_apps_routes(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    assert undeclared(app.routes) == []  # every HTTP route is an ApiRoute
    doc = TestClient(app).get("/openapi.json").json()
    routes = served_routes(app.routes)
    assert len(routes) > 70
    assert documented(doc["paths"]) - routes == set()  # nothing documented that is not served
    assert routes - documented(doc["paths"]) == set()  # nothing served that is not documented
    for ops in doc["paths"].values():
        for op in ops.values():
            assert op["summary"] and op["responses"], op
    assert doc["x-websocket"]["path"] == "/ws"


def test_a_route_without_a_declaration_fails_the_document(tmp_path: Path) -> None:
    async def extra(request: object) -> PlainTextResponse:
        return PlainTextResponse("x")

    app = app_for(tmp_path)
    app.router.routes.append(Route("/api/undocumented", extra))
    assert undeclared(app.routes) == ["/api/undocumented"]
    with pytest.raises(UndeclaredRoute, match="/api/undocumented"):
        build_openapi(app.routes)


def test_path_parameters_and_bodies_come_from_the_routes(tmp_path: Path) -> None:
    doc = build_openapi(app_for(tmp_path).routes)
    hand = doc["paths"]["/api/hands/{table_id}/{hand_id}"]["get"]  # the :path convertor is not in the path
    assert [p["name"] for p in hand["parameters"]] == ["table_id", "hand_id"]
    body = doc["paths"]["/api/cashier/withdrawals"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert doc["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]["properties"]["amount"][
        "exclusiveMinimum"] == 0
    login = doc["paths"]["/api/login"]["post"]
    assert "security" not in login and {"400", "401", "413", "422", "423", "429"} <= set(login["responses"])
    assert doc["paths"]["/api/me"]["get"]["security"] == [{"bearer": []}]
