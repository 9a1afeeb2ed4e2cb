"""Staff account security (issue #35, docs/security.md): enrolling the second factor (TOTP, RFC 6238) and the
staff's powers over players' account security, each written to the audit log.

| route | answer |
| --- | --- |
| ``POST /api/staff/enrol`` | body ``{"username", "password"}``: ``{"uri", "secret", "qr"}`` (a staff account without a second factor; ``qr`` is an SVG ``data:`` URI) |
| ``POST /api/staff/enrol/confirm`` | body ``{"username", "password", "code"}``: ``{"recovery_codes": [...]}`` (shown once) |
| ``GET /api/operator/security/{player_id}`` | ``{"locked_until", "second_factor"}`` |
| ``POST /api/operator/security/{player_id}/reset_code`` | body ``{"reason"}``: ``{"code", "expires_at", "mailed"}`` (one use) |
| ``POST /api/operator/security/{player_id}/unlock`` | body ``{"reason"}``: the lock-out is lifted |
| ``POST /api/operator/security/{player_id}/reset_2fa`` | body ``{"reason"}``: admin only; the staff member enrols again |

A player account gets 403 ``not_staff`` from the enrolment routes and 403 ``forbidden`` from the operator routes;
nothing changes.
"""

from __future__ import annotations

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import schemas
from .hub import Hub
from .operator_api import _path_int, staff
from .rest import RouteTable, Wrap, _limited, client_address, hub_routes, jsonable, parse_body, player_id_of
from .routedoc import Op, path_param
from .sessions import close_player_sessions


def qr_data_uri(text: str) -> str:
    """The QR code of ``text`` as an SVG ``data:`` URI (the CSP allows ``data:`` images, nothing inline)."""
    return str(segno.make(text, error="m").svg_data_uri(scale=5, dark="#000", light="#fff"))


async def enrol(hub: Hub, request: Request) -> Response:
    body = await parse_body(request, schemas.StaffCredentials)
    _limited(hub, [(hub.login_ip, client_address(request)), (hub.login_user, body.username.lower())])
    pending = await hub.call_store(hub.store.security.begin_enrolment, body.username, body.password)
    return JSONResponse({"uri": pending.uri, "secret": pending.secret, "qr": qr_data_uri(pending.uri)})


async def confirm(hub: Hub, request: Request) -> Response:
    body = await parse_body(request, schemas.StaffCredentials)
    _limited(hub, [(hub.login_ip, client_address(request)), (hub.login_user, body.username.lower())])
    done = await hub.call_store(hub.store.security.confirm_enrolment, body.username, body.password,
                                body.code or "")
    return JSONResponse({"recovery_codes": list(done.recovery_codes)})


async def status(hub: Hub, request: Request) -> Response:
    await staff(hub, request)
    locked, enrolled = await hub.call_store(hub.store.security.status, _path_int(request, "player_id"))
    return JSONResponse({"locked_until": jsonable(locked), "second_factor": enrolled})


async def reset_code(hub: Hub, request: Request) -> Response:
    info = await staff(hub, request)
    body = await parse_body(request, schemas.ReasonBody)
    issued = await hub.call_store(hub.store.security.issue_reset_code, player_id_of(info),
                                  _path_int(request, "player_id"), body.reason)
    mailer = hub.config.reset_mailer
    if mailer is not None:
        await mailer.send_reset_code(issued.player_id, issued.username, issued.code, issued.expires_at)
    return JSONResponse({"code": issued.code, "expires_at": jsonable(issued.expires_at),
                         "mailed": mailer is not None})


async def unlock(hub: Hub, request: Request) -> Response:
    info = await staff(hub, request)
    body = await parse_body(request, schemas.ReasonBody)
    await hub.call_store(hub.store.security.unlock, player_id_of(info), _path_int(request, "player_id"),
                         body.reason)
    return JSONResponse({"unlocked": True})


async def reset_2fa(hub: Hub, request: Request) -> Response:
    info = await staff(hub, request)
    body = await parse_body(request, schemas.ReasonBody)
    pid = _path_int(request, "player_id")
    await hub.call_store(hub.store.security.reset_second_factor, player_id_of(info), pid, body.reason)
    close_player_sessions(hub, pid, "the second factor of this account was reset: enrol again")
    return JSONResponse({"reset": True})


_STAFF_ONLY = {403: "not operator or security staff (R-OPER-5); reset_2fa: not an admin", 404: "", 422: ""}


def _security(summary: str) -> dict[str, Op]:
    return {"POST": Op(summary, body=schemas.ReasonBody, errors=_STAFF_ONLY, params=(path_param("player_id"),))}


STAFF_ROUTES: RouteTable = (
    ("/api/staff/enrol", enrol, {"POST": Op(
        "A staff account without a second factor: a new TOTP key and its QR code", body=schemas.StaffCredentials,
        auth=False, errors={401: "", 403: "not a staff account (not_staff)", 409: "already enrolled (already_"
                            "enrolled)", 423: "", 429: ""})}),
    ("/api/staff/enrol/confirm", confirm, {"POST": Op(
        "Confirm the enrolment with a code; the recovery codes, once", body=schemas.StaffCredentials, auth=False,
        errors={401: "", 403: "", 409: "", 423: "", 429: ""})}),
    ("/api/operator/security/{player_id}", status, {"GET": Op(
        "An account's lock-out and second factor (issue #35)", errors={
            403: "not operator or security staff (R-OPER-5)", 404: "", 422: ""}, params=(path_param("player_id"),))}),
    ("/api/operator/security/{player_id}/reset_code", reset_code, _security(
        "Issue a one-time password reset code (audited; handed to the mail hook if any)")),
    ("/api/operator/security/{player_id}/unlock", unlock, _security("Release a locked account (audited)")),
    ("/api/operator/security/{player_id}/reset_2fa", reset_2fa, _security(
        "Admin: reset a staff member's second factor (audited)")),
)


def staff_routes(hub: Hub, handler: Wrap) -> list[Route]:
    return hub_routes(hub, handler, STAFF_ROUTES)
