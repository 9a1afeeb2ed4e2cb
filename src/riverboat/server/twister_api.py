"""REST routes of the lobby's Twister section (R-TWIST-11, issue #12); "Play" itself is the ``twister_play``
WebSocket frame (docs/protocol.md), the hands are played with ``tournament_act``.

| route | answer |
| --- | --- |
| ``GET /api/twister`` | ``{"types": [{"kind", "title", "starting_chips", "ticket_prizes", "buy_ins": [{"buy_in", "table", "waiting", "prizes": [...]}]}], "tickets": [...], "playing": [...]}`` (with a token: the caller's unused Twister tickets and the ids of their Twisters not yet over, whose table state is then sent to them again over the WebSocket) |
| ``POST /api/operator/twister/{id}/interrupt`` | staff: stop a running Twister and pay the compensation of R-TOURN-INT-9/10: ``{"rule", "payouts": {player: amount}, "from_pool", "from_house"}`` (Wild Twister also ``"tickets": {player: [face values]}``: the share of the prize as Twister tickets) |
| ``GET /api/twister/history`` | ``{"history": [row], "tickets": [...]}``: the rows of ``GET /api/tournaments/history`` (the same store function) of the Twister family only |
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from riverboat.store.twister import TICKET_SCOPE

from .hub import Hub
from .operator_api import staff
from .rest import ApiError, Wrap, authenticate, bearer_token, jsonable, player_id_of
from .routedoc import ApiRoute, Op
from .tournament_api import STAFF_ERRORS


def twister_routes(hub: Hub, handler: Wrap) -> list[ApiRoute]:
    async def tickets(pid: Any) -> list[dict[str, Any]]:
        rows = await hub.call_store(hub.store.tournaments.tickets, pid)
        return [{"id": t.id, "face_value": t.face_value, "currency": t.currency} for t in rows
                if t.tournament_id == TICKET_SCOPE]

    async def offer(request: Request) -> Response:
        if hub.twister is None:
            raise ApiError(404, "not_found", "this room has no Twister")
        out = hub.twister.lobby()
        out["tickets"], out["playing"] = [], []
        if bearer_token(request) is not None:
            pid = player_id_of(await authenticate(hub, request))
            out["tickets"] = await tickets(pid)
            out["playing"] = hub.twister.tournaments_of(pid)
            if out["playing"]:  # a player back on the Twister page gets their table again (as on reconnecting)
                await hub.twister.connected(pid)
        return JSONResponse(jsonable(out))

    async def history(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        rows = await hub.call_store(hub.store.twister.history, pid)
        return JSONResponse({"history": [r.to_dict() for r in rows], "tickets": await tickets(pid)})

    async def interrupt(request: Request) -> Response:
        await staff(hub, request)
        if hub.twister is None:
            raise ApiError(404, "not_found", "this room has no Twister")
        # Wild Twister: the shares of the prize paid as Twister tickets too (docs/twister.md); through a cluster's
        # gateway the Twister's host runs it
        return JSONResponse(await hub.twister.interrupt(request.path_params["tid"]))

    return [
        ApiRoute("/api/twister", handler(offer), {"GET": Op(
            "The Twister section (R-TWIST-11): types, buy-ins, prizes and chances, players waiting; with a token also "
            "your unused Twister tickets", auth=False, errors={401: "", 404: ""})}),
        ApiRoute("/api/twister/history", handler(history), {"GET": Op(
            "Your Twister tournaments, newest first: the rows of the account's tournament history (multiplier, "
            "place, cash prize, tickets won, jackpots won apart) and your unused Twister tickets")}),
        ApiRoute("/api/operator/twister/{tid}/interrupt", handler(interrupt), {"POST": Op(
            "Interrupt a running Twister, Age of the Gods or Wild Twister and pay the compensation of "
            "R-TOURN-INT-9/10 (docs/twister.md)", errors=STAFF_ERRORS)}),
    ]
