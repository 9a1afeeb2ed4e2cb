"""REST handlers: health, register/login/logout, me, alias, lobby, table info, cashier, hand histories.

Every refusal is ``{"error": {"code", "message"}}`` with a 4xx status and changes nothing. Everything except
``/health``, ``/openapi.json``, register, login and the lobby needs ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import tomllib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import date, datetime
from enum import Enum
from typing import Any, TypeVar, overload

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from riverboat.errors import RiverboatError, WireError, declare, wire_error
from riverboat.store.accounts import PlayerInfo
from riverboat.store.errors import AccountBlocked, AuthError
from riverboat.store.hands import HandRecord

from . import hand_views, safejson, schemas, sessions
from .cashier import movement_page
from .console import on_public_listener
from .hub import Hub
from .openapi import build_openapi
from .routedoc import ApiRoute, Op, path_param, query

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

CURRENCIES = ("EUR", "PLAY")


class ApiError(RiverboatError):
    """A refusal of the REST layer itself (bad body, rate limit, bad token): its status and code per instance."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.headers = headers


for _code, _status in (("bad_json", 400), ("bad_token", 401), ("bad_credentials", 401), ("method", 405)):
    declare(_code, _status)


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def refusal_response(exc: RiverboatError) -> JSONResponse:
    """A refusal as REST sends it: the error registry's code and status for its class (:mod:`riverboat.errors`)."""
    wire = wire_error(exc)
    assert wire is not None
    return wire_response(wire, getattr(exc, "headers", None))


def wire_response(wire: WireError, headers: dict[str, str] | None = None) -> JSONResponse:
    return error_response(wire.status, wire.code, wire.message, headers)


def jsonable(value: Any) -> Any:
    """Turn store/room records (dataclasses, enums, datetimes, pydantic models) into JSON-able values."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return jsonable(value.model_dump())
    if hasattr(value, "_asdict"):
        return jsonable(value._asdict())
    return str(value)


def player_id_of(info: PlayerInfo) -> int:
    return info.id


def player_dict(info: PlayerInfo) -> dict[str, object]:
    return {"player_id": info.id, "username": info.username, "alias": info.alias, "role": info.role}


async def parse_body(request: Request, model: type[M]) -> M:
    raw = await request.body()
    if len(raw) > 16 * 1024:
        raise ApiError(413, "too_large", "the request body is limited to 16 KiB")
    try:
        data = safejson.loads(raw)
    except safejson.JsonRefused as exc:
        raise ApiError(422, "invalid", str(exc)) from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_json", "the request body is not valid JSON") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "body"
        message = _FRIENDLY.get((loc, first["type"]), first["msg"])
        raise ApiError(422, "invalid", f"{loc}: {message}") from None


# Clearer words than pydantic's for the mistakes people make in the register form.
_FRIENDLY = {
    ("username", "string_pattern_mismatch"): "use only letters, digits, '_', '.' and '-' (no spaces)",
    ("username", "string_too_short"): "a username has at least 3 characters",
    ("username", "string_too_long"): "a username has at most 32 characters",
    ("password", "string_too_short"): "a password has at least 8 characters",
}


MAX_ID = 2**63 - 1  # the largest id a database integer column holds (a larger ``before`` overflowed, issue #16)


@overload
def _int_param(request: Request, name: str, default: int, low: int, high: int = MAX_ID) -> int: ...
@overload
def _int_param(request: Request, name: str, default: None, low: int, high: int = MAX_ID) -> int | None: ...
def _int_param(request: Request, name: str, default: int | None, low: int, high: int = MAX_ID) -> int | None:
    """An optional integer query parameter in ``low..high`` (422 with a clear message otherwise)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw) if len(raw) <= 25 else None
    except ValueError:
        value = None
    if value is None:
        raise ApiError(422, "invalid", f"{name} must be an integer")
    if value < low or value > high:
        raise ApiError(422, "invalid", f"{name} must be between {low} and {high}")
    return value


def text_param(request: Request, name: str, max_length: int = 200) -> str | None:
    """An optional text query parameter: at most ``max_length`` characters and no control character (422
    otherwise; a NUL byte reached PostgreSQL, which refuses it, and was a 500 at a cluster's gateway, issue #29)."""
    raw = request.query_params.get(name)
    return None if raw is None else clean_text(raw, name, max_length)


def clean_text(raw: str, name: str, max_length: int = 200) -> str:
    """``raw`` if it is at most ``max_length`` characters without a control character, else 422 ``invalid``."""
    if len(raw) > max_length or any(ord(ch) < 32 or ord(ch) == 127 for ch in raw):
        raise ApiError(422, "invalid", f"{name} must be text of at most {max_length} characters, without control "
                                       "characters")
    return raw


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def bearer_token(request: Request) -> str | None:
    """The request's session token: its bearer token, else its session cookie (issue #35, server.sessions)."""
    return sessions.request_token(request, request.method)[0]


async def authenticate(hub: Hub, request: Request) -> PlayerInfo:
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, "unauthenticated", "log in first (send Authorization: Bearer <token> from POST "
                       "/api/login, or the session cookie)", {"WWW-Authenticate": "Bearer"})
    try:
        return await hub.call_store(hub.store.accounts.authenticate, token)
    except AuthError:
        raise ApiError(401, "bad_token", "the token is unknown, expired or logged out",
                       {"WWW-Authenticate": "Bearer"}) from None


def _limited(hub: Hub, limiter_checks: list[tuple[Any, str]]) -> None:
    for limiter, key in limiter_checks:
        wait = limiter.check(key)
        if wait > 0:
            retry = max(1, int(wait + 0.999))
            raise ApiError(429, "rate_limited", f"too many attempts; retry in {retry} s", {"Retry-After": str(retry)})


# ---------------------------------------------------------------------------------------------------- handlers


#: a REST endpoint, and what :func:`handler` makes of one (each route module takes the wrap it is given)
Endpoint = Callable[[Request], Awaitable[Response]]
Wrap = Callable[[Endpoint], Endpoint]


def handler(fn: Endpoint) -> Endpoint:
    """The endpoint of a REST handler: a refusal becomes the error body with the registry's code and status
    (:mod:`riverboat.errors`), a bug the documented ``internal`` body."""
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except RiverboatError as exc:  # a refusal: the registry's code and status (riverboat.errors)
            return refusal_response(exc)
        except Exception:  # a bug: the documented error body, and the connection stays usable
            log.exception("internal error in %s %s", request.method, request.url.path)
            return error_response(500, "internal", "internal server error; the request may not have been "
                                  "applied")

    endpoint.__name__ = fn.__name__
    return endpoint


async def health(hub: Hub, request: Request) -> Response:
    if hub.ready and not hub.stopping:
        body = {"status": "ok"}
        if hub.config.metrics_url is not None:  # a cluster gateway's metrics: on their own listener (loopback)
            body["metrics"] = hub.config.metrics_url
        return JSONResponse(body)
    return JSONResponse({"status": "stopping" if hub.stopping else "starting"}, status_code=503)


async def register(hub: Hub, request: Request) -> Response:
    _limited(hub, [(hub.register_ip, client_address(request))])
    body = await parse_body(request, schemas.Credentials)
    info = await hub.call_store(hub.store.accounts.register, body.username, body.password)
    pid = player_id_of(info)
    chips = hub.config.signup_play_chips
    if chips > 0:
        await hub.call_store(hub.store.ledger.deposit, pid, "PLAY", chips, f"signup-play:{pid}")
    return JSONResponse(player_dict(info), status_code=201)


async def login(hub: Hub, request: Request) -> Response:
    body = await parse_body(request, schemas.LoginCredentials)
    _limited(hub, [(hub.login_ip, client_address(request)), (hub.login_user, body.username.lower())])
    place = "console" if body.session == "console" else "public" if on_public_listener(request) else "any"
    try:
        token = await hub.call_store(hub.store.accounts.login, body.username, body.password, body.code,
                                     address=client_address(request), device=request.headers.get("user-agent"),
                                     place=place)
    except AccountBlocked as exc:  # the right password of a suspended or banned account (R-INTEG-5c)
        raise ApiError(403, "account_blocked", exc.message) from None
    except AuthError as exc:
        if type(exc) is AuthError:  # locked, second factor...: the registry's code and plain words (issue #35)
            raise ApiError(401, "bad_credentials", "wrong username or password") from None
        raise
    info = await hub.call_store(hub.store.accounts.authenticate, token)
    # the multi-accounting signal of the integrity scan (R-INTEG-7)
    await hub.call_store(hub.store.integrity.note_login, info.id, client_address(request))
    out = {"token": token, "player_id": info.id, "alias": info.alias}
    if body.session == "token":
        return JSONResponse(out)
    out.pop("token")
    response = JSONResponse(out)
    name = sessions.STAFF_COOKIE if body.session == "console" else sessions.PLAYER_COOKIE
    ttl = hub.store.accounts.ttl_for(info.role)
    sessions.set_cookie(response, request, name, token, int(ttl.total_seconds()))
    return response


async def logout(hub: Hub, request: Request) -> Response:
    await authenticate(hub, request)
    token = bearer_token(request)
    if token is not None:  # (always: authenticate refused a request without one)
        await hub.call_store(hub.store.accounts.logout, token)
        hub.end_session(token)
    response = Response(status_code=204)
    sessions.clear_cookie(response, request, sessions.cookie_name(request))
    return response


async def balances(hub: Hub, pid: int) -> dict[str, int]:
    out = {}
    for currency in CURRENCIES:
        out[currency] = int(await hub.call_store(hub.store.ledger.balance, pid, currency))
    return out


async def me(hub: Hub, request: Request) -> Response:
    info = await authenticate(hub, request)
    pid = player_id_of(info)
    out = player_dict(info)
    out["alias_changeable"] = info.alias_changes < 1 or info.alias_must_change
    out["balances"] = await balances(hub, pid)
    return JSONResponse(out)


async def alias(hub: Hub, request: Request) -> Response:
    info = await authenticate(hub, request)
    body = await parse_body(request, schemas.AliasChange)
    pid = player_id_of(info)
    if info.alias:
        await hub.call_store(hub.store.aliases.change, pid, body.alias)
    else:
        await hub.call_store(hub.store.aliases.set, pid, body.alias)
    fresh = await hub.call_store(hub.store.accounts.get, pid)
    await hub.alias_changed(pid, fresh.alias)  # seat views, lobby and logs at once
    return JSONResponse(player_dict(fresh))


async def lobby(hub: Hub, request: Request) -> Response:
    return JSONResponse(jsonable(lobby_payload(hub)))


async def table(hub: Hub, request: Request) -> Response:
    await authenticate(hub, request)
    table_id = request.path_params["table_id"]
    # a RoomError ("no_table": 404) is answered by the handler; a cluster gateway asks the table's host
    info = await hub.add_aliases({"type": "table_state", "view": await hub.room.table_view(table_id)})
    return JSONResponse(jsonable(info["view"]))


async def cashier(hub: Hub, request: Request) -> Response:
    info = await authenticate(hub, request)
    pid = player_id_of(info)
    limit = _int_param(request, "limit", 100, 1, 500)
    before = _int_param(request, "before", None, 1)
    page = await hub.call_store(movement_page, hub.store, pid, limit, before)
    return JSONResponse({"balances": await balances(hub, pid), "history": jsonable(page["history"]),
                         "next_before": page["next_before"]})


async def hands(hub: Hub, request: Request) -> Response:
    info = await authenticate(hub, request)
    pid = player_id_of(info)
    limit = _int_param(request, "limit", 50, 1, 500)
    table_filter = text_param(request, "table")
    # the store filters by table before applying the limit: ?table=X&limit=n is the newest n hands at X
    records = await hub.call_store(hub.store.hands.for_player, pid, limit=limit, table_id=table_filter)
    # table name, game and the player's own cards (also in hands they folded): hand_views
    return JSONResponse({"hands": [hand_summary(r) | hand_views.summary(r, pid, hub.room, visible_events(r, pid))
                                   for r in records]})


async def hand(hub: Hub, request: Request) -> Response:
    info = await authenticate(hub, request)
    pid = player_id_of(info)
    record = await hub.call_store(hub.store.hands.get, clean_text(request.path_params["table_id"], "table_id"),
                                  clean_text(request.path_params["hand_id"], "hand_id"))
    if record is None or not player_in_hand(record, pid):
        raise ApiError(404, "not_found", "no such hand among yours")
    events = visible_events(record, pid)
    # every seat named by alias, the game, stakes and button (for the log and the replayer): hand_views
    out = hand_summary(record) | await hand_views.detail(record, pid, hub.room, events, hub.alias_of)
    out["events"] = events
    return JSONResponse(jsonable(out))


async def openapi(hub: Hub, request: Request) -> Response:
    """The document of this app's own routes, built once per app (:mod:`.openapi`)."""
    doc = getattr(request.app.state, "openapi", None)
    if doc is None:
        doc = request.app.state.openapi = build_openapi(request.app.routes)
    return JSONResponse(doc)


Handler = Callable[[Hub, Request], Awaitable[Response]]
#: a table of routes: path, fn(hub, request), one Op per method
RouteTable = Iterable[tuple[str, Handler, Mapping[str, Op]]]

_TABLE = path_param("table_id", "string")
_HAND = path_param("hand_id", "string")

#: the REST routes: path, handler, documentation per method
ROUTES: tuple[tuple[str, Handler, Mapping[str, Op]], ...] = (
    ("/health", health, {"GET": Op("Readiness: 200 once the room is running, 503 before", schemas.HealthOut,
                                   auth=False)}),
    ("/openapi.json", openapi, {"GET": Op("This document", "application/json", auth=False)}),
    ("/api/register", register, {"POST": Op(
        "Create an account", schemas.PlayerOut, status=201, body=schemas.Credentials, auth=False,
        errors={409: "the username is taken (usernames are unique ignoring case); error code username_taken",
                422: "malformed username or password (error code invalid)", 429: ""})}),
    ("/api/login", login, {"POST": Op(
        "Log in: a bearer token in the answer, or (session cookie|console) an HttpOnly SameSite=Strict session "
        "cookie; staff accounts also send their second factor's code (docs/security.md)", schemas.TokenOut,
        body=schemas.LoginCredentials, auth=False, errors={
            401: "wrong username or password (bad_credentials), or a staff account's code is missing or wrong "
                 "(second_factor_required, bad_second_factor)",
            403: "suspended or banned (account_blocked), a staff account without a second factor (enrolment_"
                 "required), a player on the console (not_staff), or staff on the players' address of a room "
                 "whose console has its own (console_only)",
            423: "too many wrong passwords: the account is locked for a while (account_locked)", 429: ""})}),
    ("/api/logout", logout, {"POST": Op("Revoke the bearer token", status=204)}),
    ("/api/me", me, {"GET": Op("The logged-in player, alias and balances", schemas.MeOut)}),
    ("/api/alias", alias, {"PUT": Op(
        "Change the alias (R-ALIAS)", schemas.PlayerOut, body=schemas.AliasChange,
        errors={409: "", 422: "the alias is refused (error code alias_refused; the message names the R-ALIAS rule)"})}),
    ("/api/lobby", lobby, {"GET": Op("Tables and Speed Poker pools", schemas.LobbyOut, auth=False)}),
    ("/api/tables/{table_id}", table, {"GET": Op("Public information on one table", errors={404: ""})}),
    ("/api/cashier", cashier, {"GET": Op(
        "Balances and money movements, newest first", schemas.CashierOut, errors={422: ""}, params=(
            query("limit", {"type": "integer", "minimum": 1, "maximum": 500, "default": 100}),
            query("before", {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                  "only movements older than this transaction id (next_before of the previous page)")))}),
    ("/api/hands", hands, {"GET": Op(
        "The player's recent hands", schemas.HandsOut, errors={422: ""},
        params=(query("table", {"type": "string"}), query("limit", {"type": "integer", "minimum": 1, "maximum": 500})))}),
    # {table_id:path}: a tournament table's id has a slash ("sng1/t1"), and %2F is decoded before routing
    ("/api/hands/{table_id:path}/{hand_id}", hand, {"GET": Op(
        "One hand as this player may see it", errors={404: ""}, params=(_TABLE, _HAND))}),
)


def make_routes(hub: Hub) -> list[Route]:
    from .account_api import account_routes
    from .operator_api import operator_routes  # these import this module
    from .payments_api import cashier_routes
    from .player_api import player_routes
    from .staff_api import staff_routes
    from .tournament_api import tournament_routes
    from .twister_api import twister_routes

    # the player routes first: their /api/hands/{table_id:path}/{hand_id}/export would otherwise be taken by the
    # hand route (a table id of any number of segments, then "export" as the hand id)
    # the money routes (issue #30) before the console's: its /api/operator/players/{id}/{action} would take .../verify;
    # the account and staff security routes (issue #35) kept together with them
    return [*cashier_routes(hub, handler), *player_routes(hub, handler), *account_routes(hub, handler),
            *staff_routes(hub, handler),
            *hub_routes(hub, handler, ROUTES), *operator_routes(hub, handler), *twister_routes(hub, handler),
            *tournament_routes(hub, handler)]


def hub_routes(hub: Hub, wrap: Wrap, table: RouteTable) -> list[Route]:
    """The routes of a table of ``(path, fn(hub, request), {method: Op})``: each ``fn`` bound to the hub and wrapped
    by ``wrap`` (:func:`handler`), documented by its ops (:mod:`.routedoc`)."""
    return [ApiRoute(path, wrap(functools.update_wrapper(functools.partial(fn, hub), fn)), ops)
            for path, fn, ops in table]


def lobby_payload(hub: Hub) -> dict[str, Any]:
    entries = list(hub.room.lobby())
    tables = [e for e in entries if not _is_pool(e)]
    pools = [e for e in entries if _is_pool(e)]
    out: dict[str, Any] = {"tables": tables, "pools": pools}
    lobby = hub.tournaments
    if lobby is not None:  # the Sit & Go and Tournament tabs (issue #11)
        tabs = lobby.lobby()
        out["sit_and_go"], out["tournaments"] = tabs["sng"], tabs["mtt"]
    return out


def _is_pool(entry: Any) -> bool:
    return isinstance(entry, dict) and (entry.get("kind") == "speed" or entry.get("type") == "speed"
                                        or bool(entry.get("speed")))


_SECRET_KEYS = ("phh", "events")


def hand_summary(record: HandRecord) -> dict[str, Any]:
    data = jsonable(record)
    if not isinstance(data, dict):
        return {"hand": data}
    return {k: v for k, v in data.items() if k not in _SECRET_KEYS}


def player_in_hand(record: HandRecord, pid: int) -> bool:
    return any(str(k) == str(pid) for k in record.start_stacks)


def seat_in_hand(record: HandRecord, pid: int) -> int | None:
    """The seat ``pid`` had in a stored hand, from the PHH record's parallel ``players`` / ``seats`` lists."""
    if not record.phh:
        return None
    try:
        data = tomllib.loads(record.phh)
    except tomllib.TOMLDecodeError:
        return None
    for name, seat in zip(data.get("players", []), data.get("seats", []), strict=False):
        if str(name) == str(pid) and isinstance(seat, int):
            return seat
    return None


def visible_events(record: HandRecord, pid: int) -> list[dict[str, Any]]:
    """The events of a stored hand that ``pid`` may see: public ones and their own (R-GEN-5). The PHH text is never
    sent because it holds every player's hole cards, including mucked ones."""
    seat = seat_in_hand(record, pid)
    out = []
    for event in record.events:
        ev = jsonable(event)
        if not isinstance(ev, dict):
            continue
        visible = ev.get("visible_to")
        if visible is None or (seat is not None and seat in visible):
            out.append(ev)
    return out
