"""The OpenAPI paths of issue #30's money routes (server/money_api.py, money_operator_api.py, payments_api.py);
their bodies are the pydantic models the handlers validate, so the document cannot drift from them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from . import money_api as player
from . import money_operator_api as staff


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/ErrorOut"}}}}


def _op(summary: str, *, body: type[BaseModel] | None = None, status: str = "200", auth: bool = True,
        errors: dict[str, str] | None = None, params: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": {status: {"description": "done"}}}
    if auth:
        op["security"] = [{"bearer": []}]
        op["responses"]["401"] = _error("not logged in, or the token is unknown, expired or logged out")
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body.model_json_schema()}}}
        op["responses"]["400"] = _error("the body is not valid JSON")
        op["responses"]["413"] = _error("the body is larger than 16 KiB")
        op["responses"]["422"] = _error("the request is malformed (the message says which field): a float, "
                                        "negative, zero or too large amount is refused")
    for code, text in (errors or {}).items():
        op["responses"][code] = _error(text)
    if params:
        op["parameters"] = params
    return op


def _query(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


def _path(name: str, kind: str = "integer") -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": kind}}


STAFF = {"403": "not operator staff (money actions need the operator or admin role)", "404": "not found",
         "409": "conflict with the current state (e.g. a reference already credited)"}


def money_paths() -> dict[str, Any]:
    """The player's and the staff's money routes (issue #30)."""
    return _player_money_paths() | _staff_money_paths()


def _player_money_paths() -> dict[str, Any]:
    statement_params = [
        _query("from", {"type": "string"}, "YYYY-MM-DD or ISO date-time (UTC if no zone): movements at or after"),
        _query("to", {"type": "string"}, "YYYY-MM-DD (that whole day included) or ISO date-time: movements before"),
        _query("kind", {"type": "string", "enum": ["deposit", "withdrawal", "table", "tournament", "adjustment"]}),
        _query("currency", {"type": "string", "enum": ["EUR", "PLAY"]}),
        _query("limit", {"type": "integer", "minimum": 1, "maximum": 500}),
        _query("before", {"type": "integer", "minimum": 1}, "next_before of the previous page"),
        _query("format", {"type": "string", "enum": ["json", "csv"]}),
    ]
    blocked = {"403": "a time-out or self-exclusion is in force (code play_blocked)"}
    return {
        "/api/cashier/info": {"get": _op("The cashier: personal payment reference, balances, payment providers, "
                                         "verification, time-out or self-exclusion, withdrawals")},
        "/api/cashier/deposits": {"post": _op(
            "Open a deposit with a payment provider: pay at checkout_url; the provider's webhook credits it",
            body=player.DepositBody, status="201",
            errors={**blocked, "409": "over one of your deposit limits (code deposit_limit; the message says how "
                                      "much may still be deposited)"})},
        "/api/cashier/withdrawals": {
            "get": _op("Your withdrawals, newest first"),
            "post": _op("Ask for a withdrawal of at most the cash balance: it leaves the balance at once (pending "
                        "until staff pay it out or reject it)", body=player.WithdrawBody, status="201",
                        errors={"403": "the account is not verified (code not_verified)",
                                "409": "the balance does not cover it (code insufficient_funds)"})},
        "/api/cashier/withdrawals/{wid}/cancel": {"post": _op(
            "Cancel your own pending withdrawal (back to the balance)", params=[_path("wid")],
            errors={"404": "no such withdrawal of yours", "422": "not pending"})},
        "/api/cashier/statement": {"get": _op("Every movement of your balance, newest first, filtered and paged; "
                                              "format=csv: a download", params=statement_params,
                                              errors={"422": "a bad filter"})},
        "/api/protections": {"get": _op("Your protections: verification, reality check, time-out or "
                                        "self-exclusion, deposit limits (in force and pending)")},
        "/api/protections/limits": {"put": _op(
            "Set or remove (amount null) a deposit limit: lower at once, higher after the cooling-off",
            body=player.LimitBody)},
        "/api/protections/reality-check": {
            "get": _op("Time played and net result since `since` (the client's session start)",
                       params=[_query("since", {"type": "string"})]),
            "put": _op("The reality check interval (5-240 minutes, or null: off)", body=player.RealityBody)},
        "/api/protections/timeout": {"post": _op(
            "Take a time-out of 24 hours to 6 weeks at once (seats returned at the end of the hand, unstarted "
            "tournament registrations refunded)", body=player.TimeoutBody)},
        "/api/protections/self-exclusion": {"post": _op(
            "Exclude yourself for 6 to 60 months or permanently (months null); cannot be undone",
            body=player.ExclusionBody)},
        "/api/payments/{provider}/webhook": {"post": _op(
            "A payment provider's signed confirmation (HMAC-SHA256 header Riverboat-Signature: t=..,v1=..)",
            auth=False, params=[_path("provider", "string")],
            errors={"400": "refused: bad or missing signature, old timestamp, bad body (code webhook_refused)",
                    "404": "unknown provider or transaction id", "413": "the body is larger than 16 KiB",
                    "422": "another amount or currency than the payment's"})},
    }


def _staff_money_paths() -> dict[str, Any]:
    return {
        "/api/operator/money/deposits": {
            "get": _op("Deposits, newest first (?status=pending|credited)", errors=STAFF),
            "post": _op("Credit a bank transfer by the player's username or payment reference (audited; the same "
                        "reference credits once)", body=staff.StaffDepositBody, errors=STAFF)},
        "/api/operator/money/withdrawals": {"get": _op("Withdrawals (?status=pending|paid|rejected|cancelled)",
                                                       errors=STAFF)},
        "/api/operator/money/withdrawals/{wid}/{action}": {"post": _op(
            "approve (body {reference}: paid out) or reject (body {reason}: back to the balance); audited",
            params=[_path("wid"), {"name": "action", "in": "path", "required": True,
                                   "schema": {"type": "string", "enum": ["approve", "reject"]}}], errors=STAFF)},
        "/api/operator/money/adjustments": {
            "get": _op("Adjustments (?status=pending|applied|rejected) and the four-eyes amount", errors=STAFF),
            "post": _op("Credit or debit a balance with a category and reason; above the four-eyes amount it waits "
                        "for a second staff member", body=staff.AdjustBody, status="201", errors=STAFF)},
        "/api/operator/money/adjustments/{aid}/{action}": {"post": _op(
            "A second staff member approves or rejects (body {reason}) a pending adjustment",
            params=[_path("aid"), {"name": "action", "in": "path", "required": True,
                                   "schema": {"type": "string", "enum": ["approve", "reject"]}}],
            errors={**STAFF, "403": "not operator staff, or the one who asked (code four_eyes)"})},
        "/api/operator/players/{player_id}/money": {"get": _op(
            "A player's verification, protections and their history, deposits, withdrawals, adjustments",
            params=[_path("player_id")], errors=STAFF)},
        "/api/operator/players/{player_id}/verify": {"post": _op(
            "Set the account's verification (body {verified, reason}; audited)", body=staff.VerifyBody,
            params=[_path("player_id")], errors=STAFF)},
    }
