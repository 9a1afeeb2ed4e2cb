"""A player's own account security (issue #35, docs/security.md): change the password, see and end their sessions,
and set a new password with a one-time reset code.

| route | answer |
| --- | --- |
| ``PUT /api/password`` | body ``{"old_password", "new_password"}``: 200 ``{"ended": n}``; every other session ends, its sockets close |
| ``GET /api/sessions`` | ``{"sessions": [{"id", "device", "address", "created_at", "last_seen", "expires_at", "current"}]}`` |
| ``DELETE /api/sessions/{id}`` | 204: that session ends ("log out" one device) |
| ``POST /api/sessions/logout_others`` | ``{"ended": n}``: every other session ends ("log out elsewhere") |
| ``POST /api/password/reset`` | body ``{"username", "code", "new_password"}``: 204; every session ends |
| ``POST /api/password/forgot`` | body ``{"username"}``: 202 when the room has a mail sender (404 ``no_mail`` if not) |
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from riverboat.errors import declare

from . import schemas, sessions
from .hub import Hub
from .rest import (
    ApiError,
    RouteTable,
    Wrap,
    _limited,
    authenticate,
    bearer_token,
    client_address,
    hub_routes,
    jsonable,
    parse_body,
)
from .routedoc import Op, path_param

declare("no_mail", 404)


def _token(request: Request) -> str:
    token = bearer_token(request)
    assert token is not None  # authenticate() passed
    return token


async def change_password(hub: Hub, request: Request) -> Response:
    await authenticate(hub, request)
    body = await parse_body(request, schemas.PasswordChange)
    ended = await hub.call_store(hub.store.security.change_password, _token(request), body.old_password,
                                 body.new_password)
    sessions.close_sessions(hub, ended, "the password was changed: log in again")
    return JSONResponse({"ended": len(ended)})


async def list_sessions(hub: Hub, request: Request) -> Response:
    await authenticate(hub, request)
    rows = await hub.call_store(hub.store.security.sessions, _token(request))
    return JSONResponse({"sessions": jsonable(rows)})


async def end_session(hub: Hub, request: Request) -> Response:
    await authenticate(hub, request)
    try:
        session_id = int(request.path_params["session_id"])
    except ValueError:
        raise ApiError(422, "invalid", "session_id must be an integer") from None
    ended = await hub.call_store(hub.store.security.revoke_session, _token(request), session_id)
    sessions.close_sessions(hub, ended, "this session was logged out from another device")
    return Response(status_code=204)


async def logout_others(hub: Hub, request: Request) -> Response:
    await authenticate(hub, request)
    ended = await hub.call_store(hub.store.security.revoke_others, _token(request))
    sessions.close_sessions(hub, ended, "this session was logged out from another device")
    return JSONResponse({"ended": len(ended)})


async def reset_password(hub: Hub, request: Request) -> Response:
    body = await parse_body(request, schemas.PasswordReset)
    _limited(hub, [(hub.login_ip, client_address(request)), (hub.login_user, body.username.lower())])
    player_id = await hub.call_store(hub.store.security.reset_password, body.username, body.code, body.new_password)
    sessions.close_player_sessions(hub, player_id, "the password was reset: log in with the new one")
    return Response(status_code=204)


async def forgot_password(hub: Hub, request: Request) -> Response:
    body = await parse_body(request, schemas.ForgotPassword)
    _limited(hub, [(hub.login_ip, client_address(request)), (hub.login_user, body.username.lower())])
    mailer = hub.config.reset_mailer
    if mailer is None:
        raise ApiError(404, "no_mail", "this room sends no e-mail: ask the staff (support) for a reset code")
    issued = await hub.call_store(hub.store.security.mail_reset_code, body.username)
    if issued is not None:  # an unknown username gets the same answer (nothing tells who has an account)
        await mailer.send_reset_code(issued.player_id, issued.username, issued.code, issued.expires_at)
    return JSONResponse({"message": "if this account exists, a reset code is on its way"}, status_code=202)


ACCOUNT_ROUTES: RouteTable = (
    ("/api/password", change_password, {"PUT": Op(
        "Change the password (the current one required); every other session ends", body=schemas.PasswordChange,
        errors={403: "the current password is wrong (wrong_password)",
                423: "too many wrong passwords (account_locked)"})}),
    ("/api/password/reset", reset_password, {"POST": Op(
        "Set a new password with a one-time reset code from the staff; every session ends", status=204,
        body=schemas.PasswordReset, auth=False,
        errors={400: "the code is wrong, used or expired (bad_reset_code), or the body is not JSON", 429: ""})}),
    ("/api/password/forgot", forgot_password, {"POST": Op(
        "Ask for a reset code by e-mail (rooms with a mail sender)", status=202, body=schemas.ForgotPassword,
        auth=False, errors={404: "this room sends no e-mail (no_mail): ask the staff", 429: ""})}),
    ("/api/sessions", list_sessions, {"GET": Op("Your live sessions: device, address, last seen")}),
    ("/api/sessions/logout_others", logout_others, {"POST": Op("Log out every other session")}),
    ("/api/sessions/{session_id}", end_session, {"DELETE": Op(
        "Log out one session", status=204, errors={404: "", 422: ""}, params=(path_param("session_id"),))}),
)


def account_routes(hub: Hub, handler: Wrap) -> list[Route]:
    return hub_routes(hub, handler, ACCOUNT_ROUTES)

