"""The OpenAPI 3.1 document of the REST API, served at ``GET /openapi.json``.

Paths are written here; every body schema is generated from the pydantic models in :mod:`.schemas` (and the
WebSocket frame schemas from :mod:`.protocol` are attached under ``x-websocket``), so the document cannot drift
from what the handlers validate.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from riverboat import __version__

from . import protocol, schemas

_MODELS: tuple[type[BaseModel], ...] = (
    schemas.Credentials,
    schemas.LoginCredentials,
    schemas.AliasChange,
    schemas.ErrorOut,
    schemas.HealthOut,
    schemas.PlayerOut,
    schemas.TokenOut,
    schemas.MeOut,
    schemas.LobbyOut,
    schemas.CashierOut,
    schemas.HandsOut,
    schemas.HandSearchOut,
    schemas.StaffCredentials,
    schemas.PasswordChange,
    schemas.PasswordReset,
    schemas.ForgotPassword,
    schemas.ReasonBody,
)


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(name: str) -> dict[str, Any]:
    return {"application/json": {"schema": _ref(name)}}


_ERRORS = {
    "400": "the body is not valid JSON",
    "401": "not logged in, or the token is unknown, expired or logged out",
    "403": "not allowed for this player",
    "404": "not found",
    "409": "conflict with the current state",
    "413": "the body is larger than 16 KiB",
    "422": "the request is malformed or refused (the message says which field or rule)",
    "429": "too many attempts; see Retry-After",
}


def _op(summary: str, ok: str | None, *, status: str = "200", body: str | None = None, auth: bool = True,
        errors: tuple[str, ...] = (), notes: dict[str, str] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": {}}
    if ok is None:
        op["responses"][status] = {"description": "done"}
    else:
        op["responses"][status] = {"description": "OK", "content": _json(ok)}
    if body is not None:
        op["requestBody"] = {"required": True, "content": _json(body)}
        errors = (*errors, "400", "413", "422")  # every body: not JSON, too large, refused (nested too deep...)
    if auth:
        op["security"] = [{"bearer": []}]
        errors = ("401", *errors)
    for code in dict.fromkeys(errors):
        op["responses"][code] = {"description": (notes or {}).get(code, _ERRORS.get(code, "error")),
                                 "content": _json("ErrorOut")}
    return op


def _paths() -> dict[str, Any]:
    """The REST endpoints (the WebSocket frames are under ``x-websocket``)."""
    table_param = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
    hand_param = {"name": "hand_id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "/health": {"get": _op("Readiness: 200 once the room is running, 503 before", "HealthOut", auth=False)},
        "/api/register": {
            "post": _op("Create an account", "PlayerOut", status="201", body="Credentials", auth=False,
                        errors=("409", "422", "429"),
                        notes={"409": "the username is taken (usernames are unique ignoring case); error code "
                                      "username_taken",
                               "422": "malformed username or password (error code invalid)"})
        },
        "/api/login": {"post": _login_op()},
        **_account_paths(),
        "/api/logout": {"post": _op("Revoke the bearer token", None, status="204")},
        "/api/me": {"get": _op("The logged-in player, alias and balances", "MeOut")},
        "/api/alias": {"put": _op("Change the alias (R-ALIAS)", "PlayerOut", body="AliasChange",
                                  errors=("409", "422"),
                                  notes={"422": "the alias is refused (error code alias_refused; the message "
                                                "names the R-ALIAS rule)"})},
        "/api/lobby": {"get": _op("Tables and Speed Poker pools", "LobbyOut", auth=False)},
        "/api/tables/{table_id}": {
            "get": {**_op("Public information on one table", None, errors=("404",)),
                    "parameters": [table_param]}
        },
        "/api/cashier": {
            "get": {**_op("Balances and money movements, newest first", "CashierOut", errors=("422",)),
                    "parameters": [
                        {"name": "limit", "in": "query", "required": False,
                         "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 100}},
                        {"name": "before", "in": "query", "required": False,
                         "description": "only movements older than this transaction id (next_before of "
                                        "the previous page)",
                         "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}},
                    ]}
        },
        "/api/hands": {
            "get": {**_op("The player's recent hands", "HandsOut", errors=("422",)),
                    "parameters": [
                        {"name": "table", "in": "query", "required": False, "schema": {"type": "string"}},
                        {"name": "limit", "in": "query", "required": False,
                         "schema": {"type": "integer", "minimum": 1, "maximum": 500}},
                    ]}
        },
        **_hand_search_paths(),
        "/api/hands/{table_id}/{hand_id}": {
            "get": {**_op("One hand as this player may see it", None, errors=("404",)),
                    "parameters": [table_param, hand_param]}
        },
        "/api/twister": {"get": _op("The Twister section (R-TWIST-11): types, buy-ins, prizes and chances, players "
                                    "waiting; with a token also your unused Twister tickets", None, auth=False,
                                    errors=("401", "404"))},
        "/api/twister/history": {"get": _op("Your Twister tournaments, newest first: the rows of the account's "
                                            "tournament history (multiplier, place, cash prize, tickets won, "
                                            "jackpots won apart) and your unused Twister tickets", None)},
        **_operator_paths(table_param, hand_param),
        **_money_paths(),
    }


def _hand_search_paths() -> dict[str, Any]:
    """Issue #31: the hand-history search and the export of its selection (server/history_api.py)."""
    from riverboat.store.hands import KINDS, RESULTS

    from .history_api import MAX_EXPORT, MAX_OFFSET, MAX_PAGE  # history_api imports rest, which imports us

    def query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
        return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}

    filters = [
        query("game", {"type": "string"}, "a game id, e.g. holdem, omaha_hl, stud, triple_draw_27"),
        query("stakes", {"type": "integer", "minimum": 0}, "the big blind, or in a game without blinds (stud) the "
                                                             "small bet, in minor units"),
        query("since", {"type": "string"}, "hands started on or after this day (ISO date or "
                                                              "date-time; UTC unless it says)"),
        query("until", {"type": "string"}, "hands started on or before this day (a date: up to "
                                                              "its end)"),
        query("result", {"type": "string", "enum": list(RESULTS)}, "the player's own result in the hand"),
        query("kind", {"type": "string", "enum": list(KINDS)}, "cash tables or tournament tables"),
        query("tournament", {"type": "string"}, "one tournament's hands (its id)"),
    ]
    search = _op("Search the player's hands (every hand dealt, newest first): one page and how many match",
                 "HandSearchOut", errors=("422",), notes={"422": "a filter or paging value the search does not "
                                                                 "know (error code invalid)"})
    export = _op(f"The search's selection (its newest {MAX_EXPORT} hands, oldest first) as one download", None,
                 errors=("422",))
    export["responses"]["200"] = {"description": "PokerStars hand-history text or PHH (.phhs)",
                                  "content": {"text/plain": {"schema": {"type": "string"}}}}
    return {
        "/api/hands/search": {"get": {**search, "parameters": [
            *filters,
            query("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
                  "hands to skip (paging: 50, 100...)"),
            query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 50}, "page size")]}},
        "/api/hands/search/export": {"get": {**export, "parameters": [
            query("format", {"type": "string", "enum": ["pokerstars", "phh"], "default": "pokerstars"},
                  "PokerStars text (what trackers import) or PHH"), *filters]}},
    }


def _login_op() -> dict[str, Any]:
    return _op("Log in: a bearer token in the answer, or (session cookie|console) an HttpOnly SameSite=Strict "
               "session cookie; staff accounts also send their second factor's code (docs/security.md)",
               "TokenOut", body="LoginCredentials", auth=False, errors=("401", "403", "422", "423", "429"),
               notes={"401": "wrong username or password (bad_credentials), or a staff account's code is "
                             "missing or wrong (second_factor_required, bad_second_factor)",
                      "403": "suspended or banned (account_blocked), a staff account without a second factor "
                             "(enrolment_required), a player on the console (not_staff), or staff on the players' "
                             "address of a room whose console has its own (console_only)",
                      "423": "too many wrong passwords: the account is locked for a while (account_locked)"})


def _account_paths() -> dict[str, Any]:
    """Issue #35: a player's own account security (server/account_api.py) and staff enrolment
    (server/staff_api.py)."""
    session_param = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    return {
        "/api/password": {"put": _op("Change the password (the current one required); every other session ends",
                                     None, body="PasswordChange", errors=("403", "423"),
                                     notes={"403": "the current password is wrong (wrong_password)",
                                            "423": "too many wrong passwords (account_locked)"})},
        "/api/password/reset": {"post": _op("Set a new password with a one-time reset code from the staff; every "
                                            "session ends", None, status="204", body="PasswordReset", auth=False,
                                            errors=("400", "429"),
                                            notes={"400": "the code is wrong, used or expired (bad_reset_code), "
                                                          "or the body is not JSON"})},
        "/api/password/forgot": {"post": _op("Ask for a reset code by e-mail (rooms with a mail sender)", None,
                                             status="202", body="ForgotPassword", auth=False,
                                             errors=("404", "429"),
                                             notes={"404": "this room sends no e-mail (no_mail): ask the staff"})},
        "/api/sessions": {"get": _op("Your live sessions: device, address, last seen", None)},
        "/api/sessions/logout_others": {"post": _op("Log out every other session", None)},
        "/api/sessions/{session_id}": {"delete": {**_op("Log out one session", None, status="204",
                                                        errors=("404", "422")), "parameters": [session_param]}},
        "/api/staff/enrol": {"post": _op("A staff account without a second factor: a new TOTP key and its QR code",
                                         None, body="StaffCredentials", auth=False,
                                         errors=("401", "403", "409", "423", "429"),
                                         notes={"403": "not a staff account (not_staff)",
                                                "409": "already enrolled (already_enrolled)"})},
        "/api/staff/enrol/confirm": {"post": _op("Confirm the enrolment with a code; the recovery codes, once",
                                                 None, body="StaffCredentials", auth=False,
                                                 errors=("401", "403", "409", "423", "429"))},
    }


def _operator_paths(table_param: dict[str, Any], hand_param: dict[str, Any]) -> dict[str, Any]:
    """The operator console's routes (server/operator_api.py, docs/integrity.md): staff only, 403 for anyone else."""
    def param(name: str, kind: str = "integer") -> dict[str, Any]:
        return {"name": name, "in": "path", "required": True, "schema": {"type": kind}}

    def staff(summary: str, *params: dict[str, Any], body: bool = False) -> dict[str, Any]:
        op = _op(summary, None, errors=("403", "404", "422"),
                 notes={"403": "not operator or security staff (R-OPER-5)"})
        if body:
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["reason"], "properties": {
                    "reason": {"type": "string", "minLength": 1, "maxLength": 2000},
                    "flag_id": {"type": "integer"}, "tournament_id": {"type": "string", "maxLength": 128}},
                "additionalProperties": False}}}}
            for code in ("400", "413", "409", "501"):
                op["responses"][code] = {"description": _ERRORS.get(code, "not available in this room"),
                                         "content": _json("ErrorOut")}
        return {**op, "parameters": list(params)} if params else op

    def reason_op(summary: str, *params: dict[str, Any]) -> dict[str, Any]:
        op = _op(summary, None, body="ReasonBody", errors=("403", "404", "422"),
                 notes={"403": "not operator or security staff (R-OPER-5); reset_2fa: not an admin"})
        return {**op, "parameters": list(params)}

    action = {"name": "action", "in": "path", "required": True, "schema": {
        "type": "string", "enum": ["warn", "suspend", "ban", "reinstate", "disqualify", "force_alias"]}}
    return {
        **_tournament_operator_paths(),
        "/api/operator/flags": {"get": staff("Integrity flags, most suspicious first (?status=open|void|actioned|all)")},
        "/api/operator/flags/{flag_id}": {"get": staff("One flag with its evidence hands", param("flag_id"))},
        "/api/operator/flags/{flag_id}/void": {"post": staff("Void a flag (audited)", param("flag_id"), body=True)},
        "/api/operator/hands/{table_id}/{hand_id}": {
            "get": staff("A stored hand; every hole card for security staff only (R-INTEG-8)", table_param,
                         hand_param)},
        "/api/operator/players": {"get": staff("Search players by username or alias (?q=)")},
        "/api/operator/players/{player_id}": {
            "get": staff("Account, standing, balances, movements, hands, flags, audit", param("player_id"))},
        "/api/operator/players/{player_id}/{action}": {
            "post": staff("Warn, suspend, ban, reinstate, disqualify or force an alias change (audited)",
                          param("player_id"), action, body=True)},
        "/api/operator/audit": {"get": staff("The append-only operator audit log, newest first")},
        "/api/operator/security/{player_id}": {
            "get": staff("An account's lock-out and second factor (issue #35)", param("player_id"))},
        **{f"/api/operator/security/{{player_id}}/{what}": {"post": reason_op(summary, param("player_id"))}
           for what, summary in (
               ("reset_code", "Issue a one-time password reset code (audited; handed to the mail hook if any)"),
               ("unlock", "Release a locked account (audited)"),
               ("reset_2fa", "Admin: reset a staff member's second factor (audited)"))},
    }


def _money_paths() -> dict[str, Any]:
    from .money_openapi import money_paths  # money_api imports rest, which imports us

    return money_paths()


def _tournament_operator_paths() -> dict[str, Any]:
    """The operator's tournament powers (server/tournament_api.py, server/twister_api.py; R-OPER-1..5): staff
    only. Their bodies are the pydantic models the handlers validate."""
    from .tournament_api import (  # tournament_api imports rest, which imports us
        CreateBody,
        EditBody,
        FlightsBody,
    )

    def staff(summary: str, model: type[BaseModel] | None, *params: dict[str, Any], status: str = "200",
              required: bool = True) -> dict[str, Any]:
        op = _op(summary, None, status=status, errors=("400", "403", "404", "422"),
                 notes={"400": "refused: not allowed in the tournament's state or a change the rules refuse "
                               "(error codes bad_state, bad_settings, not_running; the message says why), or "
                               "the body is not JSON",
                        "403": "not operator or security staff (R-OPER-5)",
                        "422": "the body is malformed (the message says which field)"})
        if model is not None:
            op["requestBody"] = {"required": required, "content": {"application/json": {"schema":
                                                                                      model.model_json_schema()}}}
            op["responses"]["413"] = {"description": _ERRORS["413"], "content": _json("ErrorOut")}
        return {**op, "parameters": list(params)} if params else op

    tid = {"name": "tid", "in": "path", "required": True, "schema": {"type": "string"}}
    action = {"name": "action", "in": "path", "required": True, "schema": {
        "type": "string", "enum": ["edit", "cancel", "interrupt"]}}
    flights = staff("Create a flight event: its Day 1 flights and its Day 2 (R-TOURN-FLIGHT-1..6)", FlightsBody,
                    status="201")
    return {
        "/api/operator/tournaments": {"post": staff(
            "Create a tournament (a TournamentSpec, docs/tournaments.md)", CreateBody, status="201")},
        "/api/operator/tournaments/{tid}/{action}": {"post": staff(
            "Edit (body {changes}: what may change once players are in, R-OPER-2), cancel (every buy-in and fee "
            "back) or interrupt (the compensation of R-TOURN-INT) a tournament", EditBody, tid, action,
            required=False)},
        "/api/operator/flights": {"post": flights},
        "/api/operator/twister/{tid}/interrupt": {"post": staff(
            "Interrupt a running Twister, Age of the Gods or Wild Twister and pay the compensation of "
            "R-TOURN-INT-9/10 (docs/twister.md)", None, tid)},
    }


def build_openapi() -> dict[str, Any]:
    components: dict[str, Any] = {}
    for model in _MODELS:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            components[name] = sub
        components[model.__name__] = schema
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Riverboat",
            "version": __version__,
            "description": "REST API of the Riverboat poker room. Table play uses the WebSocket protocol at /ws "
            "(docs/protocol.md; frame schemas under x-websocket). Money is integer minor units.",
        },
        "paths": _paths(),
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "x-websocket": {
            "path": "/ws",
            "protocol_version": protocol.PROTOCOL_VERSION,
            "client_frames": protocol.client_frame_schema(),
            "server_frames": protocol.server_frame_schemas(),
        },
    }
