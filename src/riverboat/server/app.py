"""The ASGI application: REST routes, the ``/ws`` WebSocket, and the browser client as static files at ``/``."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from riverboat.cluster.remote import RemoteRoom
from riverboat.room import Room
from riverboat.room.errors import RoomError
from riverboat.room.port import RoomPort
from riverboat.room.tournament.lobby import TournamentLobby
from riverboat.room.tournament_commands import register_tournament_commands
from riverboat.room.twister.offers import TwisterOffers
from riverboat.store import Store

from .console import ConsoleGate
from .history_api import history_routes  # before the hand route, which would take /api/hands/search/export
from .hub import Hub, ServerConfig
from .integrity_scan import ScheduledScan
from .rest import error_response, handler, make_routes
from .routedoc import ApiRoute, Op
from .security_headers import SecurityHeaders
from .ws import websocket_endpoint

log = logging.getLogger(__name__)

_PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Riverboat</title></head>
<body><h1>Riverboat</h1><p>The browser client is not installed. The API is described at
<a href="/openapi.json">/openapi.json</a>; tables are played over the WebSocket at <code>/ws</code>.</p></body></html>
"""


def create_app(store: Store, room: RoomPort, config: ServerConfig | None = None) -> Starlette:
    """Build the app around a :class:`riverboat.store.Store` and a :class:`riverboat.room.Room`.

    With ``config.manage_room`` (the default) the app's lifespan calls ``room.start()`` on startup and
    ``room.stop()`` on shutdown (hands in progress are voided and refunded by the room, R-SERVER); ``/health`` answers
    200 only in between.
    """
    hub = Hub(store, room, config)
    if isinstance(room, Room):  # the room's tournament and Twister commands run with these (a gateway forwards them)
        lobby = TournamentLobby(room)
        hub.twister = TwisterOffers.from_config(room, hub.config.twister)
        hub.tournaments = lobby
        register_tournament_commands(room.commands, lobby, hub.twister)
    elif isinstance(room, RemoteRoom):  # the tournaments run on the table hosts (docs/cluster.md "Tournaments")
        hub.tournaments = room.tournaments
        hub.twister = room.twister  # the offer's host runs it (cluster.twister)
    scans = ScheduledScan(store, hub.config.integrity_scan_every, hub.config.integrity_min_hands)
    hub.integrity_scan = scans

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if hub.config.manage_room:
            await room.start()
        await recover_tournaments(hub)
        if hub.tournaments is not None and hub.config.tournaments:
            try:
                await open_tournaments(hub, hub.config.tournaments)
            except Exception:
                log.exception("opening the configured tournaments failed")
        hub.ready = True
        scans.start()
        try:
            yield
        finally:
            await scans.stop()
            await shutdown(hub)
            hub.close()

    async def ws_route(ws: WebSocket) -> None:
        await websocket_endpoint(hub, ws)

    routes: list[BaseRoute] = [*history_routes(hub, handler), *make_routes(hub), WebSocketRoute("/ws", ws_route)]
    web_dir = hub.config.web_dir
    static: Any = None
    if web_dir is not None and (web_dir / "index.html").is_file():
        static = StaticFiles(directory=str(web_dir), html=True)
    else:
        routes.append(placeholder_route())
    # the security headers outermost: every answer gets them, an error page or the WebSocket upgrade included (#35)
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(SecurityHeaders), Middleware(ConsoleGate),
                                Middleware(GZipMiddleware, minimum_size=2048)])
    # the browser client answers what no route matches (not a catch-all mount: an API path asked with a method it
    # does not take then gets its own 405 and Allow header, not the static files' "GET, HEAD")
    app.router.default = unmatched(static if static is not None else app.router.default)
    app.state.hub = hub
    return app


def placeholder_route() -> ApiRoute:
    """``GET /``: a page that says where the API is, in a room without the browser client."""
    async def placeholder(request: Request) -> HTMLResponse:
        return HTMLResponse(_PLACEHOLDER)

    return ApiRoute("/", placeholder, {"GET": Op(
        "The browser client's placeholder page (a room without the browser client installed)", "text/html",
        auth=False)})


async def recover_tournaments(hub: Hub) -> None:
    """R-SERVER-1: running tournaments and Twisters resume from the store (a Twister with its spin), registering
    ones are refunded (a Day 2 waiting for its flights opens again)."""
    for what, lobby in (("tournaments", hub.tournaments), ("Twisters", hub.twister)):
        if lobby is None:
            continue
        try:
            await lobby.recover()
        except Exception:
            log.exception("recovering the %s failed", what)


def unmatched(fallback: Any) -> Any:
    """What answers when no route matched: an API path gets the API's JSON error (``404 not_found``, as documented;
    a path parameter the route's pattern refuses, e.g. a table id with a line break, lands here), the rest
    ``fallback`` (the browser client, or Starlette's plain 404)."""
    async def answer(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            await error_response(404, "not_found", "no such API path")(scope, receive, send)
            return
        await fallback(scope, receive, send)

    return answer


async def open_tournaments(hub: Hub, entries: list[dict[str, Any]]) -> None:
    """Open the configured tournaments (the demo's Sit & Go series and MTT schedule), with their in-process bots."""
    import time

    from .demo import open_demo_tournaments

    lobby = hub.tournaments
    if not isinstance(lobby, TournamentLobby):
        raise RoomError("bad_settings", "configured tournaments with in-process bots open in a single-process room "
                                        "only; a cluster room creates them through the operator API")
    await open_demo_tournaments(lobby, hub.store, entries, now=time.time(), call=hub.call_store)


async def shutdown(hub: Hub) -> None:
    """Stop taking commands, tell every client, and stop the room (it voids and refunds unfinished hands)."""
    hub.begin_shutdown()
    if hub.twister is not None:
        try:
            await hub.twister.close()
        except Exception:
            log.exception("closing the Twister tournaments failed")
    if hub.tournaments is not None:
        try:
            await hub.tournaments.close()
        except Exception:
            log.exception("closing the tournaments failed")
    if hub.config.manage_room:
        try:
            await hub.room.stop()
        except Exception:
            log.exception("room.stop() failed")
    hub.ready = False
