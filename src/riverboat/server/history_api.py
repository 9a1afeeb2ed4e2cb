"""The hand history's search (issue #31, "What to add"): filters, paging beyond the last 50, export of a selection.

| route | what |
|---|---|
| ``GET /api/hands/search?game=&stakes=&since=&until=&result=&kind=&offset=&limit=`` | the player's hands that match, newest first, one page (``limit`` <= 200) and ``total`` |
| ``GET /api/hands/search/export?format=pokerstars|phh&...`` | the same selection (up to 500 hands, oldest first) as one download |

Filters: ``game`` (a game id, e.g. ``holdem``), ``stakes`` (the big blind, or in stud the small bet, in minor units),
``since`` / ``until`` (ISO dates, UTC, inclusive), ``result`` (``won`` | ``lost`` | ``even``), ``kind`` (``cash`` |
``tournament``: a tournament table's id has a slash), ``tournament`` (one tournament's id: its hands only). The
store answers the query in SQL (``Hands.search``: every hand the player was dealt, not a recent window; the game and
stakes are columns written with the hand, history/keys.py); what is sent is what ``/api/hands`` sends for each hand.
"""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from riverboat.history.pokerstars import pokerstars_session
from riverboat.store.errors import InvalidRequest
from riverboat.store.hands import KINDS, RESULTS, HandFilter
from riverboat.store.tournament_play import Snapshot

from . import hand_views, schemas
from .hub import Hub
from .rest import ApiError, Wrap, authenticate, hand_summary, player_id_of, visible_events
from .routedoc import ApiRoute, Op, query

MAX_OFFSET = 10**9
MAX_PAGE = 200
MAX_EXPORT = 500

#: the search's filters, as documented (the handler reads each)
FILTERS = (
    query("game", {"type": "string"}, "a game id, e.g. holdem, omaha_hl, stud, triple_draw_27"),
    query("stakes", {"type": "integer", "minimum": 0}, "the big blind, or in a game without blinds (stud) the "
                                                         "small bet, in minor units"),
    query("since", {"type": "string"}, "hands started on or after this day (ISO date or date-time; UTC unless it "
                                       "says)"),
    query("until", {"type": "string"}, "hands started on or before this day (a date: up to its end)"),
    query("result", {"type": "string", "enum": list(RESULTS)}, "the player's own result in the hand"),
    query("kind", {"type": "string", "enum": list(KINDS)}, "cash tables or tournament tables"),
    query("tournament", {"type": "string"}, "one tournament's hands (its id)"),
)
PAGE = (query("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
              "hands to skip (paging: 50, 100...)"),
        query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 50}, "page size"))


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


def hand_filter(request: Request) -> HandFilter:
    """The filter of the request's query (refused with 422 when a value is not one the search knows)."""
    q = request.query_params
    stakes = _int(request, "stakes", 0, 0, 10**12) if q.get("stakes") else None
    try:
        return HandFilter(game=q.get("game") or None, stakes=stakes, since=_date(request, "since", False),
                          until=_date(request, "until", True), result=q.get("result") or None,
                          kind=q.get("kind") or None, tournament=q.get("tournament") or None)
    except InvalidRequest as exc:
        raise ApiError(422, "invalid", str(exc)) from None


def history_routes(hub: Hub, handler: Wrap) -> list[ApiRoute]:
    async def selection(request: Request, offset: int, limit: int) -> tuple[int, int, list[Any]]:
        pid = int(player_id_of(await authenticate(hub, request)))
        total, records = await hub.call_store(hub.store.hands.search, pid, hand_filter(request),
                                              offset=offset, limit=limit)
        return pid, total, records

    async def search(request: Request) -> Response:
        offset = _int(request, "offset", 0, 0, MAX_OFFSET)
        limit = _int(request, "limit", 50, 1, MAX_PAGE)
        pid, total, page = await selection(request, offset, limit)
        return JSONResponse({"total": total, "offset": offset, "hands": [
            hand_summary(r) | hand_views.summary(r, pid, hub.room, visible_events(r, pid)) for r in page]})

    async def export(request: Request) -> Response:
        fmt = request.query_params.get("format", "pokerstars")
        if fmt not in ("pokerstars", "phh"):
            raise ApiError(422, "invalid", "format must be one of: pokerstars, phh")
        pid, _total, found = await selection(request, 0, MAX_EXPORT)
        records = sorted(found, key=lambda r: r.started_at)
        if fmt == "phh":
            parts = []
            for i, r in enumerate(records, 1):
                text = await hand_views.phh_export(r, pid, hub.room, visible_events(r, pid), hub.alias_of)
                parts.append(f"[{i}]\n{text}")
            return _download("\n".join(parts), "riverboat-selection.phhs")
        sheets = []
        for r in records:
            events = visible_events(r, pid)

            def lookup(tid: str) -> Awaitable[Snapshot]:
                return hub.call_store(hub.store.tournament_play.snapshot, tid)

            tournament = await hand_views.tournament_info(r, lookup)
            sheets.append(await hand_views.sheet(r, pid, hub.room, events, hub.alias_of, tournament))
        return _download(pokerstars_session(sheets) if sheets else "", "riverboat-selection.txt")

    return [ApiRoute("/api/hands/search", handler(search), {"GET": Op(
                "Search the player's hands (every hand dealt, newest first): one page and how many match",
                schemas.HandSearchOut, params=(*FILTERS, *PAGE),
                errors={422: "a filter or paging value the search does not know (error code invalid)"})}),
            ApiRoute("/api/hands/search/export", handler(export), {"GET": Op(
                f"The search's selection (its newest {MAX_EXPORT} hands, oldest first) as one download",
                "text/plain", out_description="PokerStars hand-history text or PHH (.phhs)", errors={422: ""},
                params=(query("format", {"type": "string", "enum": ["pokerstars", "phh"], "default": "pokerstars"},
                              "PokerStars text (what trackers import) or PHH"), *FILTERS))})]


def _download(text: str, name: str) -> Response:
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})
