"""The operator console's REST API (issue #13, R-OPER, R-INTEG-5/-8, R-ALIAS-4): staff only.

Every route needs a token of an ``operator``, ``security`` or ``admin`` account; anyone else gets 403 (401 without
a token). Hole cards of every player are shown only to ``security`` and ``admin`` (R-INTEG-8), and each such view
is written to the audit log. Every action is written to the append-only audit log with who, when, what and why.

| route | answer |
| --- | --- |
| ``GET /api/operator/flags?status=open|void|actioned|all`` | ``{"flags": [flag + "names"]}``, most suspicious first |
| ``GET /api/operator/flags/{id}`` | the flag, its players and its evidence hands (summaries) |
| ``POST /api/operator/flags/{id}/void`` | body ``{"reason"}``: the flag is voided |
| ``GET /api/operator/hands/{table}/{hand}`` | the hand: players, actions, events (hole cards for security only) |
| ``GET /api/operator/players?q=text`` | players whose username or alias contains the text |
| ``GET /api/operator/players/{id}`` | account, standing, balances, movements, recent hands, flags, audit entries |
| ``POST /api/operator/players/{id}/{action}`` | ``warn``, ``suspend``, ``ban``, ``reinstate``, ``disqualify``, ``force_alias``; body ``{"reason", "flag_id"?, "tournament_id"?}`` |
| ``GET /api/operator/audit?player_id=&limit=`` | the audit log, newest first |
"""

from __future__ import annotations

import contextlib
import logging
import tomllib
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from riverboat.errors import declare
from riverboat.room.commands import LeaveFrame
from riverboat.store.accounts import HOLE_CARD_ROLES, STAFF_ROLES, PlayerInfo
from riverboat.store.audit_reasons import reason as coded
from riverboat.store.hands import HandRecord

from .cashier import movement_page
from .hub import Hub
from .rest import (
    CURRENCIES,
    ApiError,
    RouteTable,
    Wrap,
    _int_param,
    authenticate,
    hand_summary,
    hub_routes,
    jsonable,
    parse_body,
    player_id_of,
    text_param,
)
from .routedoc import Op, Param, path_param

#: ``async (tournament_id, player_id, operator_id) -> dict``: disqualify a player from a tournament and forfeit
#: their buy-ins and fees (R-INTEG-5a/b, R-OPER-1): the room's tournament lobby's ``disqualify``
#: (``room/tournament/lobby.py``; a cluster gateway's asks the tournament's host), ``hub.tournaments`` (set by the
#: app). Without a lobby the action answers 501 and nothing is recorded.
Disqualify = Callable[[str, int, int], Awaitable[Any]]


def disqualify_hook(hub: Hub) -> Disqualify | None:
    lobby = hub.tournaments
    return lobby.disqualify if lobby is not None else None
log = logging.getLogger(__name__)
declare("not_implemented", 501)
STATUS_OF = {"warn": "warned", "suspend": "suspended", "ban": "banned", "reinstate": "active"}
ACTIONS = (*STATUS_OF, "disqualify", "force_alias")


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: StrictStr = Field(min_length=1, max_length=2000)
    flag_id: StrictInt | None = None
    tournament_id: StrictStr | None = Field(default=None, max_length=128)


class VoidBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: StrictStr = Field(min_length=1, max_length=2000)


async def staff(hub: Hub, request: Request) -> PlayerInfo:
    """The authenticated staff account, or 403 (401 without a valid token)."""
    info = await authenticate(hub, request)
    if info.role not in STAFF_ROLES:
        raise ApiError(403, "forbidden", "the operator console is for operator and security staff")
    return info


def hand_view(record: HandRecord, show_hole_cards: bool) -> dict[str, Any]:
    """A stored hand for the console: seats and players, PHH actions and engine events. Without
    ``show_hole_cards`` every private card is hidden (``??``) and private events are left out."""
    try:
        fields = tomllib.loads(record.phh or "")
    except tomllib.TOMLDecodeError:
        fields = {}
    actions = [str(a) for a in fields.get("actions", [])]
    if not show_hole_cards:
        actions = [" ".join(a.split()[:3] + ["????"]) if a.startswith("d dh ") else a for a in actions]
    holes: dict[str, str] = {}
    if show_hole_cards:
        names = [str(n) for n in fields.get("players", [])]
        for a in actions:
            parts = a.split()
            if a.startswith("d dh ") and len(parts) > 3 and parts[2][1:].isdigit():
                i = int(parts[2][1:]) - 1
                if 0 <= i < len(names):
                    holes[names[i]] = holes.get(names[i], "") + parts[3]
    events = [e for e in (jsonable(record.events) or [])
              if isinstance(e, dict) and (show_hole_cards or e.get("visible_to") is None)]
    return hand_summary(record) | {
        "players": [str(n) for n in fields.get("players", [])], "seats": fields.get("seats", []),
        "variant": fields.get("variant"), "starting_stacks": fields.get("starting_stacks", []),
        "finishing_stacks": fields.get("finishing_stacks", []), "actions": actions, "events": events,
        "blinds": fields.get("blinds_or_straddles", []), "antes": fields.get("antes", []),  # the hand as a hand
        "hole_cards": holes, "hole_cards_shown": show_hole_cards}


async def names_of(hub: Hub, ids: list[str]) -> dict[str, Any]:
    """Username and alias of each player id (those the store knows)."""
    out: dict[str, Any] = {}
    for pid in ids:
        with contextlib.suppress(Exception):
            info = await hub.call_store(hub.store.accounts.get, int(pid))
            out[pid] = {"username": info.username, "alias": info.alias}
    return out


async def flags(hub: Hub, request: Request) -> Response:
    await staff(hub, request)
    status = request.query_params.get("status", "open")
    rows = await hub.call_store(hub.store.integrity.flags, None if status == "all" else status)
    out = []
    for r in rows:
        out.append(jsonable(r) | {"names": await names_of(hub, r.players)})
    return JSONResponse({"flags": out})


async def flag(hub: Hub, request: Request) -> Response:
    await staff(hub, request)
    row = await hub.call_store(hub.store.integrity.flag, _path_int(request, "flag_id"))
    hands = []
    for ref in row.evidence:
        table, _, hand_id = ref.rpartition("/")
        record = await hub.call_store(hub.store.hands.get, table, hand_id)
        if record is not None:
            hands.append(hand_summary(record) | {"ref": ref})
    return JSONResponse(jsonable(row) | {"names": await names_of(hub, row.players), "hands": jsonable(hands)})


async def void(hub: Hub, request: Request) -> Response:
    info = await staff(hub, request)
    body = await parse_body(request, VoidBody)
    entry = await hub.call_store(hub.store.integrity.void_flag, player_id_of(info), _path_int(request, "flag_id"),
                                 body.reason)
    return JSONResponse(jsonable(entry))


async def hand(hub: Hub, request: Request) -> Response:
    info = await staff(hub, request)
    table, hand_id = request.path_params["table_id"], request.path_params["hand_id"]
    record = await hub.call_store(hub.store.hands.get, table, hand_id)
    if record is None:
        raise ApiError(404, "not_found", "no such hand")
    show = info.role in HOLE_CARD_ROLES
    if show:  # who looked at whose hole cards is on record (R-INTEG-8)
        await hub.call_store(hub.store.integrity.record, player_id_of(info), "view_hand", coded("hole_card_review"),
                             target=f"{table}/{hand_id}")
    view = hand_view(record, show)
    view["names"] = await names_of(hub, view["players"])
    return JSONResponse(jsonable(view))


async def players(hub: Hub, request: Request) -> Response:
    await staff(hub, request)
    query = text_param(request, "q", 64) or ""
    return JSONResponse({"players": jsonable(await hub.call_store(hub.store.integrity.search_players, query))})


async def player(hub: Hub, request: Request) -> Response:
    await staff(hub, request)
    pid = _path_int(request, "player_id")
    info = await hub.call_store(hub.store.accounts.get, pid)
    limit = _int_param(request, "limit", 50, 1, 500)
    balances = {c: int(await hub.call_store(hub.store.ledger.balance, pid, c)) for c in CURRENCIES}
    page = await hub.call_store(movement_page, hub.store, pid, limit, None)
    hands = await hub.call_store(hub.store.hands.for_player, pid, limit=limit)
    return JSONResponse(jsonable({
        "player": {"player_id": info.id, "username": info.username, "alias": info.alias, "role": info.role},
        "standing": await hub.call_store(hub.store.integrity.standing, pid), "balances": balances,
        "movements": page["history"], "hands": [hand_summary(h) for h in hands],
        "flags": await hub.call_store(hub.store.integrity.flags, None, str(pid)),
        "audit": await hub.call_store(hub.store.integrity.audit_log, 100, pid)}))


async def act(hub: Hub, request: Request) -> Response:
    info = await staff(hub, request)
    pid, action = _path_int(request, "player_id"), request.path_params["action"]
    if action not in ACTIONS:
        raise ApiError(404, "not_found", f"no action {action!r}; actions: {', '.join(ACTIONS)}")
    body = await parse_body(request, ActionBody)
    return JSONResponse(jsonable(await _act(hub, player_id_of(info), pid, action, body)))


async def audit(hub: Hub, request: Request) -> Response:
    await staff(hub, request)
    limit = _int_param(request, "limit", 200, 1, 1000)
    pid = _int_param(request, "player_id", None, 1)
    return JSONResponse({"audit": jsonable(await hub.call_store(hub.store.integrity.audit_log, limit, pid))})


_STAFF = {403: "not operator or security staff (R-OPER-5)", 404: "", 422: ""}
_ACTIONS = path_param("action", "string", enum=["warn", "suspend", "ban", "reinstate", "disqualify", "force_alias"])


def _console(summary: str, *params: Param, body: type[BaseModel] | None = None) -> Op:
    errors = {**_STAFF, 409: "", 501: ""} if body is not None else _STAFF
    return Op(summary, body=body, errors=errors, params=params)


#: the console's routes: path, handler, documentation per method
OPERATOR_ROUTES: RouteTable = (
    ("/api/operator/flags", flags, {"GET": _console(
        "Integrity flags, most suspicious first (?status=open|void|actioned|all)")}),
    ("/api/operator/flags/{flag_id}", flag, {"GET": _console(
        "One flag with its evidence hands", path_param("flag_id"))}),
    ("/api/operator/flags/{flag_id}/void", void, {"POST": _console(
        "Void a flag (audited)", path_param("flag_id"), body=VoidBody)}),
    ("/api/operator/hands/{table_id:path}/{hand_id}", hand, {"GET": _console(  # "sng1/t1": see rest.ROUTES
        "A stored hand; every hole card for security staff only (R-INTEG-8)")}),
    ("/api/operator/players", players, {"GET": _console("Search players by username or alias (?q=)")}),
    ("/api/operator/players/{player_id}", player, {"GET": _console(
        "Account, standing, balances, movements, hands, flags, audit", path_param("player_id"))}),
    ("/api/operator/players/{player_id}/{action}", act, {"POST": _console(
        "Warn, suspend, ban, reinstate, disqualify or force an alias change (audited)", path_param("player_id"),
        _ACTIONS, body=ActionBody)}),
    ("/api/operator/audit", audit, {"GET": _console("The append-only operator audit log, newest first")}),
)


def operator_routes(hub: Hub, handler: Wrap) -> list[Route]:
    return hub_routes(hub, handler, OPERATOR_ROUTES)


def _path_int(request: Request, name: str) -> int:
    try:
        return int(request.path_params[name])
    except ValueError:
        raise ApiError(422, "invalid", f"{name} must be an integer") from None


async def _unseat(hub: Hub, pid: int) -> None:
    """A suspended or banned player leaves every cash table (R-CASH-3: folded if dealt in, the stack back to the
    balance at the end of the hand)."""
    for table_id in list(hub.room.tables_of(pid)):
        try:
            await hub.room.execute(pid, LeaveFrame(v=1, type="leave", table=table_id))
        except Exception:  # already gone, or a tournament table (the tournament decides): nothing to undo
            log.warning("could not unseat blocked player %s from %s", pid, table_id, exc_info=True)


async def _act(hub: Hub, operator_id: int, pid: int, action: str, body: ActionBody) -> Any:
    """Apply one operator action and return its audit entry."""
    store = hub.store
    if action in STATUS_OF:
        entry = await hub.call_store(store.integrity.set_status, operator_id, pid, STATUS_OF[action], body.reason,
                                     body.flag_id)
        if action in ("suspend", "ban"):
            hub.close_player(pid, STATUS_OF[action])  # open sockets closed; the store refuses the tokens now
            await _unseat(hub, pid)
        return entry
    if action == "force_alias":  # R-ALIAS-4: a neutral alias at once, the player must choose another
        neutral = await hub.call_store(store.aliases.reject, operator_id, pid, body.reason)
        with contextlib.suppress(Exception):  # shown at once at the player's tables (R-ALIAS-2)
            await hub.alias_changed(pid, neutral)
        return await hub.call_store(store.integrity.record, operator_id, "force_alias", body.reason, player_id=pid,
                                    detail={"neutral_alias": neutral})
    if body.tournament_id is None:
        raise ApiError(422, "invalid", "tournament_id: give the tournament to disqualify the player from")
    hook = disqualify_hook(hub)
    if hook is None:
        raise ApiError(501, "not_implemented", "tournament disqualification is not available in this room yet")
    result = await hook(body.tournament_id, pid, operator_id)
    return await hub.call_store(store.integrity.record, operator_id, "disqualify", body.reason, player_id=pid,
                                target=f"tournament:{body.tournament_id}", detail={"result": jsonable(result)})
