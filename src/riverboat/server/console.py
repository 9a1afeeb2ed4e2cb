"""The operator console on its own listener (issue #35, ``riverboat serve --console-port``).

With ``--console-port`` the room listens twice: the players' address (``--host``/``--port``) and the console's
(``--console-host``, loopback by default, ``--console-port``). Each listener tags its requests
(:class:`Listener`); on the players' listener :class:`ConsoleGate` answers 404 for the console's page and scripts
and for the staff API (``/api/operator/...``, ``/api/staff/...``), and staff accounts cannot log in there. Without
``--console-port`` requests carry no tag and everything is served on the one listener, as before.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from .security_headers import ASGIApp, Receive, Scope, Send

LISTENER = "riverboat.listener"
STAFF_API = ("/api/operator/", "/api/staff/")
CONSOLE_FILES = ("/operator.html", "/js/operator_app.js", "/js/operator_api.js", "/js/operator_money.js",
                 "/js/operator_text.js", "/css/operator.css")


class Listener:
    """Tags every request of one listener: ``public`` (the players') or ``console``."""

    def __init__(self, app: ASGIApp, name: str) -> None:
        self.app = app
        self.name = name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope[LISTENER] = self.name
        await self.app(scope, receive, send)


def on_public_listener(conn: HTTPConnection) -> bool:
    """The request came to the players' listener of a room whose console has its own (``--console-port``)."""
    return conn.scope.get(LISTENER) == "public"


class ConsoleGate:
    """404 for the console and the staff API on the players' listener."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get(LISTENER) == "public":
            path = str(scope.get("path", ""))
            if path.startswith(STAFF_API) or path in CONSOLE_FILES:
                answer = JSONResponse({"error": {"code": "not_found", "message": "the operator console is served "
                                                 "on its own address"}}, status_code=404)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)
