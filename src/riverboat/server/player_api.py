"""REST routes of the browser client's player tools: notes and colour tags on other players, statistics, and
hand-history exports (PokerStars-format text and PHH), one hand or the last hands at once.

| route | answer |
| --- | --- |
| ``GET /api/notes`` | ``{"notes": [{"player_id", "alias", "note", "tag", "muted", "updated_at"}]}`` |
| ``PUT /api/notes/{player_id}`` | body ``{"note", "tag", "muted"}``: the saved note |
| ``GET /api/locale`` | ``{"locale": "lv"}`` (``null``: never chosen; issue #32) |
| ``PUT /api/locale`` | body ``{"locale"}`` (en, lv, ru, lt, fi): the saved choice |
| ``GET /api/stats`` | ``{"session": {"hands", "net", "hands_per_hour", "since", "play"}, "play": {"hands", "vpip", "pfr"...}, "games": [{"game", "currency", "hands", "net", "series"}]}`` over every hand (player_stats.py) |
| ``GET /api/hands/{table}/{hand}/export?format=pokerstars|phh`` | the hand as text (a download) |
| ``GET /api/hands/export?format=pokerstars|phh&limit=n&table=id`` | the player's last n hands, oldest first |
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from riverboat.history.pokerstars import HandSheet, pokerstars_session
from riverboat.store.hands import HandRecord
from riverboat.store.tournament_play import Snapshot

from . import hand_views
from .hub import Hub
from .player_stats import MAX_SERIES, SESSION_GAP_SECONDS, stats_answer
from .rest import (
    ApiError,
    Wrap,
    authenticate,
    jsonable,
    parse_body,
    player_id_of,
    player_in_hand,
    text_param,
    visible_events,
)
from .routedoc import ApiRoute, Op, path_param, query

EXPORT_FORMATS = ("pokerstars", "phh")
MAX_EXPORT = 500


class NoteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: StrictStr = Field(default="", max_length=1000)
    tag: StrictStr = Field(default="", max_length=16)
    muted: StrictBool = False


class LocaleBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    locale: StrictStr = Field(max_length=8)


def _format(request: Request) -> str:
    fmt = request.query_params.get("format", "pokerstars")
    if fmt not in EXPORT_FORMATS:
        raise ApiError(422, "invalid", f"format must be one of: {', '.join(EXPORT_FORMATS)}")
    return fmt


def _text(text: str, name: str) -> Response:
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def _export_one(hub: Hub, record: HandRecord, pid: int, fmt: str) -> str:
    """One hand as ``pid`` may see it, as PHH or a PokerStars-style sheet."""
    events = visible_events(record, pid)
    if fmt == "phh":
        return await hand_views.phh_export(record, pid, hub.room, events, hub.alias_of)
    return pokerstars_session([await _sheet(hub, record, pid, events)])


async def _sheet(hub: Hub, record: HandRecord, pid: int, events: list[dict[str, Any]]) -> HandSheet:
    """The PokerStars sheet of a hand, with its tournament (header with number, buy-in and level) when it has one."""
    def lookup(tid: str) -> Awaitable[Snapshot]:
        return hub.call_store(hub.store.tournament_play.snapshot, tid)

    tournament = await hand_views.tournament_info(record, lookup)
    return await hand_views.sheet(record, pid, hub.room, events, hub.alias_of, tournament)


async def _export_many(hub: Hub, request: Request) -> Response:
    """A selection of the player's hands as one .phhs or PokerStars text file."""
    pid = player_id_of(await authenticate(hub, request))
    fmt = _format(request)
    try:
        limit = int(request.query_params.get("limit", "100"))
    except ValueError:
        raise ApiError(422, "invalid", "limit must be an integer") from None
    if not 1 <= limit <= MAX_EXPORT:
        raise ApiError(422, "invalid", f"limit must be between 1 and {MAX_EXPORT}")
    records = await hub.call_store(hub.store.hands.for_player, pid, limit=limit,
                                   table_id=text_param(request, "table"))
    records = sorted(records, key=lambda r: r.started_at)
    if fmt == "phh":  # a .phhs file: one [n] table per hand
        parts = [f"[{i}]\n{await _export_one(hub, r, pid, 'phh')}" for i, r in enumerate(records, 1)]
        return _text("\n".join(parts), "riverboat-hands.phhs")
    sheets = [await _sheet(hub, r, pid, visible_events(r, pid)) for r in records]
    return _text(pokerstars_session(sheets) if sheets else "", "riverboat-hands.txt")


_FORMAT = query("format", {"type": "string", "enum": list(EXPORT_FORMATS), "default": "pokerstars"},
                "PokerStars text (what trackers import) or PHH")


def player_routes(hub: Hub, handler: Wrap) -> list[ApiRoute]:
    export_one = functools.partial(_export_one, hub)

    async def notes(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        if request.method == "GET":
            rows = await hub.call_store(hub.store.notes.list, pid)
            return JSONResponse({"notes": jsonable(rows)})
        raise ApiError(405, "method", "use GET /api/notes or PUT /api/notes/{player_id}")

    async def save_note(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        try:
            target = int(request.path_params["player_id"])
        except ValueError:
            raise ApiError(422, "invalid", "player_id must be an integer") from None
        body = await parse_body(request, NoteBody)
        saved = await hub.call_store(hub.store.notes.save, pid, target, note=body.note, tag=body.tag, muted=body.muted)
        return JSONResponse(jsonable(saved))

    async def locale(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        if request.method == "PUT":
            body = await parse_body(request, LocaleBody)
            return JSONResponse({"locale": await hub.call_store(hub.store.locales.set, pid, body.locale)})
        return JSONResponse({"locale": await hub.call_store(hub.store.locales.get, pid)})

    async def stats(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        # issue #31: over every hand, counted by the store in SQL (VPIP, PFR, 3-bet, WTSD, W$SD; session; profit)
        st = await hub.call_store(hub.store.hands.statistics, int(pid), datetime.now(UTC),
                                  gap_seconds=SESSION_GAP_SECONDS, points=MAX_SERIES)
        return JSONResponse(stats_answer(st))

    async def export_hand(request: Request) -> Response:
        pid = player_id_of(await authenticate(hub, request))
        fmt = _format(request)
        record = await hub.call_store(hub.store.hands.get, request.path_params["table_id"], request.path_params["hand_id"])
        if record is None or not player_in_hand(record, pid):
            raise ApiError(404, "not_found", "no such hand among yours")
        ext = "phh" if fmt == "phh" else "txt"
        return _text(await export_one(record, pid, fmt), f"riverboat-{record.hand_id}.{ext}")

    export_many = functools.update_wrapper(functools.partial(_export_many, hub), _export_many)
    return [
        ApiRoute("/api/notes", handler(notes), {"GET": Op("Your notes and colour tags on other players")}),
        ApiRoute("/api/notes/{player_id}", handler(save_note), {"PUT": Op(
            "Save your note, colour tag or mute on a player", body=NoteBody, params=(path_param("player_id"),))}),
        ApiRoute("/api/locale", handler(locale), {
            "GET": Op("Your interface language"),
            "PUT": Op("Set your interface language", body=LocaleBody)}),
        ApiRoute("/api/stats", handler(stats), {"GET": Op(
            "Your statistics over every hand (VPIP, PFR, 3-bet, WTSD, W$SD; session; profit)")}),
        ApiRoute("/api/hands/export", handler(export_many), {"GET": Op(
            f"Your newest hands (at most {MAX_EXPORT}, oldest first) as one download", "text/plain",
            errors={422: ""}, params=(_FORMAT, query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_EXPORT,
                                                           "default": 100}), query("table", {"type": "string"})))}),
        ApiRoute("/api/hands/{table_id:path}/{hand_id}/export", handler(export_hand), {"GET": Op(
            "One of your hands as a download", "text/plain", errors={404: "", 422: ""}, params=(_FORMAT,))}),
    ]
