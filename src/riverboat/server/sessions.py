"""How a request says who it is (issue #35, docs/security.md "Tokens"): a bearer token (bots, scripts, other API
clients) or, for the browser, an HttpOnly ``SameSite=Strict`` session cookie that page scripts cannot read.

- ``rb_session``: the table client's cookie; ``rb_staff``: the operator console's (its requests say so with the
  ``X-Riverboat-Console: 1`` header), so a staff session never mixes with a player session in one browser.
- A request authenticated by a cookie that changes something (any method but GET/HEAD/OPTIONS) must come from the
  room's own pages: its ``Origin`` is the room's origin (``SameSite=Strict`` already keeps other sites' requests
  from carrying the cookie; this also refuses a sibling subdomain, which is "same-site").
- The WebSocket authenticates with the same: a ``?token=`` (API clients), else the ``rb_session`` cookie of an
  upgrade whose ``Origin`` is the room's (cross-site WebSocket hijacking is refused), else an ``auth`` frame.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection
from starlette.responses import Response

from riverboat.errors import declare
from riverboat.store.security import digest

from . import protocol

if TYPE_CHECKING:
    from .hub import Hub

PLAYER_COOKIE = "rb_session"
STAFF_COOKIE = "rb_staff"
CONSOLE_HEADER = "x-riverboat-console"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

declare("cross_site", 403)


def bearer(headers: Mapping[str, str]) -> str | None:
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def is_secure(conn: HTTPConnection) -> bool:
    return conn.url.scheme in ("https", "wss")


def same_origin(conn: HTTPConnection) -> bool:
    """The request's ``Origin`` is the room's own (scheme, host and port as the request reached us)."""
    origin = conn.headers.get("origin")
    host = conn.headers.get("host")
    if not origin or not host:
        return False
    scheme = "https" if is_secure(conn) else "http"
    return origin == f"{scheme}://{host}"


def cookie_name(conn: HTTPConnection) -> str:
    return STAFF_COOKIE if conn.headers.get(CONSOLE_HEADER) == "1" else PLAYER_COOKIE


def request_token(conn: HTTPConnection, method: str) -> tuple[str | None, bool]:
    """``(token, from_cookie)``: the bearer token, else the session cookie. A cookie on a changing request from
    another origin is refused (:class:`CrossSite`)."""
    token = bearer(conn.headers)
    if token is not None:
        return token, False
    cookie = conn.cookies.get(cookie_name(conn))
    if not cookie:
        return None, False
    if method.upper() not in SAFE_METHODS and not same_origin(conn):
        from .rest import ApiError  # rest imports this module

        raise ApiError(403, "cross_site", "this request did not come from the room's own pages, so its session "
                       "cookie was not used; nothing was changed")
    return cookie, True


def websocket_token(conn: HTTPConnection) -> str | None:
    """The browser's session cookie on a WebSocket upgrade from the room's own page (None otherwise)."""
    cookie = conn.cookies.get(PLAYER_COOKIE)
    return cookie if cookie and same_origin(conn) else None


def set_cookie(response: Response, conn: HTTPConnection, name: str, token: str, max_age: int) -> None:
    """The session cookie (HttpOnly), and beside it ``<name>_in=1``, which page scripts may read: it holds no
    secret and only tells the page that there is a session to ask ``/api/me`` about (no 401 on every guest's
    page load)."""
    secure = is_secure(conn)
    response.set_cookie(name, token, max_age=max_age, path="/", secure=secure, httponly=True, samesite="strict")
    response.set_cookie(f"{name}_in", "1", max_age=max_age, path="/", secure=secure, httponly=False,
                        samesite="strict")


def clear_cookie(response: Response, conn: HTTPConnection, name: str) -> None:
    secure = is_secure(conn)
    response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="strict")
    response.delete_cookie(f"{name}_in", path="/", secure=secure, httponly=False, samesite="strict")


def close_sessions(hub: Hub, digests: Iterable[str], why: str) -> int:
    """Tell and close every open socket authenticated with one of the sessions ``digests`` (they were revoked: a
    password change, "log out elsewhere", a reset). Returns how many were closed."""
    ended = set(digests)
    closing = [c for c in hub.links.all() if c.token is not None and not c.closed and digest(c.token) in ended]
    for conn in closing:
        conn.push(protocol.notice("logged_out", why))
        conn.push_close()
    return len(closing)


def close_player_sessions(hub: Hub, player_id: int, why: str) -> int:
    """Tell and close every open socket of the player (all their sessions were revoked)."""
    closing = [c for c in hub.links.of(player_id) if not c.closed]
    for conn in closing:
        conn.push(protocol.notice("logged_out", why))
        conn.push_close()
    return len(closing)
