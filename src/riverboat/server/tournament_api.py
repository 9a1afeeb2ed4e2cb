"""REST routes of the lobby's Sit & Go and Tournament tabs and of the operator's tournament powers (issue #11,
R-OPER-1..5). Registering, unregistering, re-buys and add-ons are WebSocket frames (``tournament_register``,
``tournament_unregister``, ``tournament_rebuy``), the hands are played with ``tournament_act`` (docs/protocol.md).

| route | answer |
| --- | --- |
| ``GET /api/tournaments`` | ``{"sng": [entry], "mtt": [entry]}``: id, name, kind, status, game, structure, seats, buy_in, fee (the "i" breakdown, R-FEE-1), currency, guarantee, entrants, players_left, prize_pool, starts_at, private, knockout, rebuys, satellite |
| ``GET /api/tournaments/{id}`` | the entry plus ``structure`` (levels, breaks), ``payouts``, ``tables`` (players, chips) and ``results`` |
| ``POST /api/tournaments/{id}/sit_out`` | the caller: body ``{"out": true}`` sits out (dealt in, blinded away, folded at once: R-SITOUT-1/2), ``{"out": false}`` sits back in: ``{"tournament", "sitting_out"}`` (the room command ``tournament_sit_out``, also a WebSocket frame) |
| ``GET /api/tournaments/history`` | the caller's tournaments of every kind (SNG, MTT, Twister, AoG, Wild), newest first: date, kind, buy-in + fee paid or the ticket used, place, field, cash prize, tickets won, bounties, jackpots won apart (``riverboat.store.tournament_history``) |
| ``POST /api/operator/tournaments`` | staff: body ``{"spec": TournamentSpec JSON, "id"?, "series"?}``: a new tournament |
| ``POST /api/operator/flights`` | staff: body ``{"event", "day2": spec, "flights": [{"day": "1A", "levels": n, "spec": spec}, ...]}``: a flight event (R-TOURN-FLIGHT-1..6): ``{"event", "day2", "flights": [ids]}`` |
| ``POST /api/operator/tournaments/{id}/{action}`` | staff: ``edit`` (body ``{"changes": {...}}``; with entrants only what room/tournament/edits.py allows, R-OPER-2), ``cancel`` (refunds), ``interrupt`` (compensation R-TOURN-INT) |
"""

from __future__ import annotations

import inspect
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from riverboat.room.commands import TournamentSitOutFrame
from riverboat.room.errors import RoomError
from riverboat.room.tournament.flights import FlightEvent
from riverboat.room.tournament.spec import TournamentSpec

from .hub import Hub
from .operator_api import staff
from .rest import ApiError, Wrap, authenticate, jsonable, parse_body, player_id_of
from .routedoc import ApiRoute, Op, Param, path_param


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    spec: dict[str, Any]
    id: StrictStr | None = Field(default=None, min_length=1, max_length=48, pattern=r"^[A-Za-z0-9_-]+$")
    series: StrictBool = False


class FlightsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    event: StrictStr = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9-]+$")
    day2: dict[str, Any]
    flights: list[dict[str, Any]] = Field(min_length=1, max_length=26)


class SitOutBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    out: StrictBool = True


class EditBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    changes: dict[str, Any] = Field(default_factory=dict)


def _lobby(hub: Hub) -> Any:
    if hub.tournaments is None:
        raise ApiError(404, "not_found", "this room has no tournaments")
    return hub.tournaments


async def _detail(lobby: Any, tid: str) -> Any:
    """The lobby's detail of a tournament (a cluster gateway asks the tournament's host: awaited)."""
    out = lobby.detail(tid)
    return await out if inspect.isawaitable(out) else out


def _sit_out_command(tid: str, out: bool) -> TournamentSitOutFrame:
    """The room command of the sit-out route (issue #36): one process runs it on its lobby, a cluster gateway
    forwards it to the tournament's host (``RemoteRoom.execute``), which runs it with its own room's ``execute``."""
    try:
        return TournamentSitOutFrame(v=1, type="tournament_sit_out", tournament=tid, out=out)
    except ValidationError:
        raise RoomError("no_tournament", "no such tournament") from None


#: the errors of the operator's tournament powers (R-OPER-1..5)
STAFF_ERRORS = {
    400: "refused: not allowed in the tournament's state or a change the rules refuse (error codes bad_state, "
         "bad_settings, not_running; the message says why), or the body is not JSON",
    403: "not operator or security staff (R-OPER-5)", 404: "",
    422: "the body is malformed (the message says which field)"}


def _staff(summary: str, body: type[BaseModel] | None, *params: Param, status: int = 200,
           required: bool = True) -> Op:
    return Op(summary, status=status, body=body, body_required=required, errors=STAFF_ERRORS, params=params)


# the operator's three routes below (tournament_routes): create, flights, edit/cancel/interrupt
_CREATE = _staff("Create a tournament (a TournamentSpec, docs/tournaments.md)", CreateBody, status=201)
_FLIGHTS = _staff("Create a flight event: its Day 1 flights and its Day 2 (R-TOURN-FLIGHT-1..6)", FlightsBody,
                  status=201)
_ACT = _staff("Edit (body {changes}: what may change once players are in, R-OPER-2), cancel (every buy-in and fee "
              "back) or interrupt (the compensation of R-TOURN-INT) a tournament", EditBody,
              path_param("action", "string", enum=["edit", "cancel", "interrupt"]), required=False)


def tournament_routes(hub: Hub, handler: Wrap) -> list[ApiRoute]:
    async def tabs(request: Request) -> Response:
        return JSONResponse(jsonable(_lobby(hub).lobby()))

    async def detail(request: Request) -> Response:
        return JSONResponse(jsonable(await _detail(_lobby(hub), request.path_params["tid"])))

    async def history(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        rows = await hub.call_store(hub.store.tournament_play.history, pid)
        return JSONResponse({"history": [r.to_dict() for r in rows]})

    async def sit_out(request: Request) -> Response:
        """R-SITOUT-1/2: the caller sits out of their tournament (``{"out": true}``) or back in (``false``)."""
        pid = player_id_of(await authenticate(hub, request))
        body = await parse_body(request, SitOutBody)
        _lobby(hub)
        command = _sit_out_command(request.path_params["tid"], body.out)
        return JSONResponse((await hub.room.execute(pid, command)).wire())

    async def create(request: Request) -> Response:
        await staff(hub, request)
        body = await parse_body(request, CreateBody)
        d = await _lobby(hub).create(TournamentSpec.from_dict(body.spec), body.id, series=body.series)
        return JSONResponse(jsonable(await _detail(_lobby(hub), d.id)), status_code=201)

    async def create_flights(request: Request) -> Response:
        await staff(hub, request)
        body = await parse_body(request, FlightsBody)
        event = FlightEvent.from_dict(body.model_dump())
        return JSONResponse(jsonable(await _lobby(hub).create_flights(event)), status_code=201)

    async def act(request: Request) -> Response:
        await staff(hub, request)
        lobby, tid, action = _lobby(hub), request.path_params["tid"], request.path_params["action"]
        if action == "edit":
            body = await parse_body(request, EditBody)
            d = await lobby.edit(tid, body.changes)
            return JSONResponse(jsonable(await _detail(lobby, d.id)))
        if action == "cancel":
            return JSONResponse(jsonable(await lobby.cancel(tid)))
        if action == "interrupt":
            return JSONResponse(jsonable(await lobby.interrupt(tid)))
        raise ApiError(404, "not_found", f"unknown tournament action {action!r}: edit, cancel or interrupt")

    return [
        ApiRoute("/api/tournaments", handler(tabs), {"GET": Op(
            "The lobby's Sit & Go and Tournament tabs", auth=False, errors={404: "this room has no tournaments"})}),
        ApiRoute("/api/tournaments/history", handler(history), {"GET": Op(
            "Your tournament history, newest first")}),
        ApiRoute("/api/tournaments/{tid}", handler(detail), {"GET": Op(
            "One tournament: its structure, players, tables and prizes", auth=False, errors={404: ""})}),
        ApiRoute("/api/tournaments/{tid}/sit_out", handler(sit_out), {"POST": Op(
            "Sit out of your tournament (out true) or back in (R-SITOUT-1/2)", body=SitOutBody,
            errors={400: "", 403: "", 404: "", 409: ""})}),
        ApiRoute("/api/operator/tournaments", handler(create), {"POST": _CREATE}),
        ApiRoute("/api/operator/flights", handler(create_flights), {"POST": _FLIGHTS}),
        ApiRoute("/api/operator/tournaments/{tid}/{action}", handler(act), {"POST": _ACT}),
    ]

