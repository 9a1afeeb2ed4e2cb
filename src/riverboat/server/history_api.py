"""The hand history's search (issue #31, "What to add"): filters, paging beyond the last 50, export of a selection.

| route | what |
|---|---|
| ``GET /api/hands/search?game=&stakes=&since=&until=&result=&kind=&offset=&limit=`` | the player's hands that match, newest first, one page (``limit`` <= 200) and ``total`` |
| ``GET /api/hands/search/export?format=pokerstars|phh&...`` | the same selection (up to 500 hands, oldest first) as one download |

Filters: ``game`` (a game id, e.g. ``holdem``), ``stakes`` (the big blind, or in stud the small bet, in minor units),
``since`` / ``until`` (ISO dates, UTC, inclusive), ``result`` (``won`` | ``lost`` | ``even``), ``kind`` (``cash`` |
``tournament``: a tournament table's id has a slash). The player's last ``SCAN`` hands are searched (the store keeps
them newest first); what is sent is what ``/api/hands`` sends for each hand.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from riverboat.history.pokerstars import pokerstars_session

from . import hand_views
from .hub import Hub
from .rest import ApiError, authenticate, hand_summary, player_id_of, visible_events

SCAN = 2000
MAX_PAGE = 200
MAX_EXPORT = 500
RESULTS = ("won", "lost", "even")
KINDS = ("cash", "tournament")


def _date(request: Request, name: str, end: bool) -> datetime | None:
    text = request.query_params.get(name)
    if not text:
        return None
    try:
        day = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(422, "invalid", f"{name} must be an ISO date such as 2026-12-06") from None
    if day.tzinfo is None:
        day = day.replace(tzinfo=UTC)
    if end and len(text) <= 10:  # a whole day: up to its end
        day = day.replace(hour=23, minute=59, second=59, microsecond=999_999)
    return day


def _int(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(request.query_params.get(name, str(default)))
    except ValueError:
        raise ApiError(422, "invalid", f"{name} must be an integer") from None
    if not lo <= value <= hi:
        raise ApiError(422, "invalid", f"{name} must be between {lo} and {hi}")
    return value


def matcher(request: Request, pid: int) -> Callable[[Any], bool]:
    """The filter of the request's query (refused with 422 when a value is not one the search knows)."""
    game = request.query_params.get("game") or None
    stakes = _int(request, "stakes", 0, 0, 10**12) if request.query_params.get("stakes") else None
    since, until = _date(request, "since", False), _date(request, "until", True)
    result = request.query_params.get("result") or None
    kind = request.query_params.get("kind") or None
    if result is not None and result not in RESULTS:
        raise ApiError(422, "invalid", f"result must be one of: {', '.join(RESULTS)}")
    if kind is not None and kind not in KINDS:
        raise ApiError(422, "invalid", f"kind must be one of: {', '.join(KINDS)}")

    def ok(record: Any) -> bool:
        if game is not None and hand_views.game_of(record)[0] != game:
            return False
        if stakes is not None:
            st = hand_views._stakes(hand_views.phh_fields(record))
            if stakes not in (st["big_blind"], st["small_bet"]):
                return False
        when = record.started_at if record.started_at.tzinfo else record.started_at.replace(tzinfo=UTC)
        if (since is not None and when < since) or (until is not None and when > until):
            return False
        if result is not None:
            net = int((record.changes or {}).get(pid, 0))
            if {"won": net <= 0, "lost": net >= 0, "even": net != 0}[result]:
                return False
        if kind is not None and ("/" in str(record.table_id)) != (kind == "tournament"):
            return False
        return True

    return ok


def history_routes(hub: Hub, handler: Any) -> list[Route]:
    async def selection(request: Request) -> tuple[int, list[Any]]:
        pid = player_id_of(await authenticate(hub, request))
        ok = matcher(request, int(pid))
        records = await hub.call_store(hub.store.hands.for_player, pid, limit=SCAN)
        return int(pid), [r for r in records if ok(r)]

    async def search(request: Request) -> Response:
        offset = _int(request, "offset", 0, 0, SCAN)
        limit = _int(request, "limit", 50, 1, MAX_PAGE)
        pid, found = await selection(request)
        page = found[offset:offset + limit]
        return JSONResponse({"total": len(found), "offset": offset, "hands": [
            hand_summary(r) | hand_views.summary(r, pid, hub.room, visible_events(r, pid)) for r in page]})

    async def export(request: Request) -> Response:
        fmt = request.query_params.get("format", "pokerstars")
        if fmt not in ("pokerstars", "phh"):
            raise ApiError(422, "invalid", "format must be one of: pokerstars, phh")
        pid, found = await selection(request)
        records = sorted(found[:MAX_EXPORT], key=lambda r: r.started_at)
        if fmt == "phh":
            parts = []
            for i, r in enumerate(records, 1):
                text = await hand_views.phh_export(r, pid, hub.room, visible_events(r, pid), hub.alias_of)
                parts.append(f"[{i}]\n{text}")
            return _download("\n".join(parts), "riverboat-selection.phhs")
        sheets = []
        for r in records:
            events = visible_events(r, pid)

            def lookup(tid: str) -> Any:
                return hub.call_store(hub.store.tournament_play.snapshot, tid)

            tournament = await hand_views.tournament_info(r, lookup)
            sheets.append(await hand_views.sheet(r, pid, hub.room, events, hub.alias_of, tournament))
        return _download(pokerstars_session(sheets) if sheets else "", "riverboat-selection.txt")

    return [Route("/api/hands/search", handler(search), methods=["GET"]),
            Route("/api/hands/search/export", handler(export), methods=["GET"])]


def _download(text: str, name: str) -> Response:
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})
