"""One error registry (issue #10 item 3): every refusal class of the package maps to one wire code and one HTTP
status by its class (looked up along the MRO), and REST, the WebSocket, the room's store gateway and the cluster's
command replies all answer it with that code. Messages are plain words for players (no rule ids such as R-ALIAS-2,
no internal balances; issue #14 item 6).

The walk imports every module of ``riverboat`` and lists every exception class defined there: each one is either a
refusal (a ``RiverboatError``) or named below as internal (a bug or a check that its caller turns into a refusal),
so a new error class must choose.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import TestClient

import riverboat
from riverboat.errors import RiverboatError, status_of, wire_error
from riverboat.room.errors import RoomError
from riverboat.room.gateway import _room_error
from riverboat.server.app import create_app
from riverboat.server.hub import ServerConfig
from riverboat.store.accounts import PlayerInfo

from .fake_room import FakeRoom

#: exception classes that are not refusals: bugs, or checks whose callers turn them into a refusal
INTERNAL = {
    "riverboat.cards.CardError",  # bad card text: the protocol parser and the engine's action builder refuse it
    "riverboat.evaluate.base.HandError",  # an evaluator given a wrong hand: a bug
    "riverboat.history.phh.PhhError",  # a malformed PHH file (tools and replay)
    "riverboat.engine.actions.IllegalAction",  # the hand driver answers RoomError("illegal_action")
    "riverboat.verify.randomplay.ConservationError",  # a verification failure
    "riverboat.server.safejson.JsonRefused",  # the REST and WebSocket parsers answer `invalid`
    "riverboat.bots.client.CommandRefused",  # a bot's view of a refusal it received
    "riverboat.room.tournament.payouts.PayoutError",  # the spec check answers SpecError (a RoomError)
    "riverboat.room.tournament.compensation.CompensationError",  # operator tool (cli)
    "riverboat.room.tournament.lifecycle.LifecycleError",  # the director turns it into a RoomError
    "riverboat.integrity.facts.FactsError",  # an operator tool (integrity scan) skipping a bad record
    "riverboat.cluster.identity.RoomMismatch",  # a node stopping at its start (exit 2, issue #29): no request
    "riverboat.server.openapi.UndeclaredRoute",  # a programming error: a route served without its OpenAPI declaration
}

SKIP_MODULES = ("riverboat.__main__", "riverboat.store.migrations")  # alembic scripts: not importable


def _all_exception_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(riverboat.__path__, "riverboat."):
        if info.name.startswith(SKIP_MODULES):
            continue
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__.startswith("riverboat."):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


def _instance(cls: type[RiverboatError]) -> RiverboatError:
    """One instance of a refusal class, with a message that names a rule id (players must not see it)."""
    params = [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "args", "kwargs")]
    if params[:3] == ["status", "code", "message"]:  # the REST layer's own ApiError
        return cls(413, "too_large", "the body is too large (R-GEN-1)")  # type: ignore[call-arg]
    if params[:2] == ["code", "message"]:  # RoomError, ProtocolError, SpecError
        return cls("bad_seat", "that seat does not exist (R-CASH-1)")  # type: ignore[call-arg]
    return cls("refused by the rules (R-ALIAS-2)")


REFUSALS = [c for c in _all_exception_classes() if issubclass(c, RiverboatError)]


def test_every_exception_class_is_a_refusal_or_named_internal() -> None:
    """Issue #10 item 3: a new error class declares its code (a RiverboatError subclass) or is listed as internal."""
    names = {f"{c.__module__}.{c.__qualname__}" for c in _all_exception_classes() if not issubclass(c, RiverboatError)}
    assert names == INTERNAL, f"unregistered: {sorted(names - INTERNAL)}, gone: {sorted(INTERNAL - names)}"
    assert len(REFUSALS) >= 15  # store, room, twister, protocol, REST, tournament spec...


@pytest.mark.parametrize("cls", REFUSALS, ids=lambda c: c.__qualname__)
def test_code_and_status_come_from_the_class_along_the_mro(cls: type[RiverboatError]) -> None:
    """The wire code is the class's own declaration or its nearest base's; the status is the code's (one code never
    has two statuses); the message is plain words (no rule id)."""
    exc = _instance(cls)
    wire = wire_error(exc)
    assert wire is not None
    declared = next(k for k in cls.__mro__ if "code" in vars(k))
    if "code" in vars(exc):  # a per-instance code
        assert wire.code == exc.code
    else:
        assert wire.code == vars(declared)["code"]
        assert wire.status == status_of(wire.code)
    assert "R-" not in wire.message and wire.message


def _fake_store() -> Any:
    seven = PlayerInfo(id=7, username="seven", role="player", alias="Seven", alias_changes=0, alias_must_change=False)
    accounts = SimpleNamespace(authenticate=lambda token: seven)
    integrity = SimpleNamespace(blocked=lambda player_id: None)  # the sit's standing check: not blocked
    # batch: the room's store gateway reads it (None: no group commit)
    return SimpleNamespace(accounts=accounts, integrity=integrity, batch=None)


@pytest.mark.parametrize("cls", REFUSALS, ids=lambda c: c.__qualname__)
def test_rest_websocket_gateway_and_cluster_give_one_code(cls: type[RiverboatError]) -> None:
    """The same refusal through REST (status and code), the WebSocket (error frame), the room's store gateway (a
    RoomError with the same code) and the cluster's reply (code copied from the RoomError) agree."""
    exc = _instance(cls)
    wire = wire_error(exc)
    assert wire is not None
    store = _fake_store()
    app = create_app(store, FakeRoom(store, exc), ServerConfig(web_dir=None, manage_room=False))
    with TestClient(app) as client:
        rest = client.get("/api/tables/T1", headers={"Authorization": "Bearer tok"})
        assert (rest.status_code, rest.json()["error"]) == (wire.status, wire.to_dict())
        with client.websocket_connect("/ws?token=tok") as ws:
            assert ws.receive_json()["type"] == "welcome"
            ws.send_text(json.dumps({"v": 1, "type": "sit", "table": "T1", "seat": 1, "buy_in": 100, "id": 5}))
            frame = ws.receive_json()
            assert frame["type"] == "error" and (frame["code"], frame["message"]) == (wire.code, wire.message)
    via_gateway = _room_error(exc)
    assert isinstance(via_gateway, RoomError) and via_gateway.code == wire.code
    assert wire_error(via_gateway) == wire  # the room's RoomError keeps code, status and message


def test_every_api_error_raised_uses_its_codes_status() -> None:
    """The REST layer's own refusals (``ApiError(status, code, ...)`` in server/) give the status the registry has
    for their code, so REST never answers one code with two statuses."""
    import ast
    from pathlib import Path

    server = Path(riverboat.__file__).parent / "server"
    seen = 0
    for path in sorted(server.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ApiError" and len(node.args) >= 2:
                status, code = node.args[0], node.args[1]
                if isinstance(status, ast.Constant) and isinstance(code, ast.Constant):
                    seen += 1
                    assert status_of(code.value) == status.value, f"{path.name}:{node.lineno} {code.value}"
    assert seen >= 10


def test_room_refusals_name_no_player_by_id() -> None:
    """Issue #14 item 6: the room's refusals reach players as written; none names a player by id ("player 22 is
    not seated…"): they say "you"."""
    import ast
    from pathlib import Path

    root = Path(riverboat.__file__).parent
    offenders = []
    for package in ("room", "server", "cluster"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RoomError"
                        and len(node.args) >= 2 and isinstance(node.args[1], ast.JoinedStr)):
                    text = "".join(v.value for v in node.args[1].values if isinstance(v, ast.Constant))
                    if text.lstrip().startswith("player ") or "players " in text:
                        offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []
