"""Security headers on every response of the room (issue #35): pages, API answers, static files, errors and the
WebSocket upgrade.

A pure ASGI middleware (no per-request task or body buffering, unlike ``BaseHTTPMiddleware``): it adds its headers
to ``http.response.start`` and to ``websocket.accept`` (the upgrade's ``101``) and to a refused upgrade's
``websocket.http.response.start``.

The policy (docs/security.md):

- ``Content-Security-Policy``: nothing by default; scripts, styles, fonts, images only from the room's own origin
  (images also ``data:``: the staff two-factor QR code); ``connect-src`` the room's own HTTP origin and its own
  WebSocket origin (``ws:``/``wss:`` of the same host); no inline script, no inline ``style`` attribute (the client
  sets positions through the CSSOM, which CSP does not govern); no plugin, no ``<base>``; forms post to the room only;
  ``frame-ancestors 'none'``: no other site can frame the table's action buttons.
- ``X-Frame-Options: DENY`` (the same for browsers without CSP level 2), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer``, ``Permissions-Policy`` denying every powerful feature the client does not use,
  ``Cross-Origin-Opener-Policy: same-origin``.
- ``Strict-Transport-Security`` only when the request came over HTTPS (``scope["scheme"]`` is ``https``/``wss``:
  uvicorn sets it from ``X-Forwarded-Proto`` when the proxy's address is in ``--forwarded-allow-ips``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PERMISSIONS_POLICY = ("accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), "
                      "fullscreen=(), geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), "
                      "payment=(), picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), "
                      "serial=(), usb=(), xr-spatial-tracking=()")
HSTS = "max-age=31536000; includeSubDomains"
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
_CACHE_LIMIT = 64


def content_security_policy(host: str | None, secure: bool) -> str:
    """The CSP for a request to ``host`` (the ``Host`` header; left out of ``connect-src`` unless it is a plain
    host[:port]: 'self' alone then, which CSP level 3 browsers also match against the same host's ``ws:``)."""
    connect = "'self'"
    if host and _HOST.match(host):
        connect += f" {'wss' if secure else 'ws'}://{host}"
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
            f"connect-src {connect}; manifest-src 'self'; media-src 'self'; base-uri 'none'; form-action 'self'; "
            "object-src 'none'; frame-ancestors 'none'")


class SecurityHeaders:
    """The ASGI middleware: ``SecurityHeaders(app)``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._cache: dict[tuple[str, bool], list[tuple[bytes, bytes]]] = {}

    def headers_for(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        secure = scope.get("scheme") in ("https", "wss")
        host = ""
        for name, value in scope.get("headers") or ():
            if name == b"host":
                host = value.decode("latin-1")
                break
        key = (host, secure)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        out = [
            (b"content-security-policy", content_security_policy(host, secure).encode("latin-1")),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"permissions-policy", PERMISSIONS_POLICY.encode()),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]
        if secure:
            out.append((b"strict-transport-security", HSTS.encode()))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = out
        return out

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        extra = self.headers_for(scope)

        async def send_with_headers(message: Message) -> None:
            kind = message["type"]
            if kind in ("http.response.start", "websocket.accept", "websocket.http.response.start"):
                present = {bytes(n).lower() for n, _ in message.get("headers") or ()}
                headers = list(message.get("headers") or ())
                headers.extend(h for h in extra if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
