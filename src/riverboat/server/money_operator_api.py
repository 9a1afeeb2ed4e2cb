"""The operator console's money routes (issue #30): staff only (``operator`` or ``admin`` act; ``security`` staff
read). Every action is in the audit log with who, when, what and why.

| route | answer |
| --- | --- |
| ``GET /api/operator/money/deposits?status=`` | ``{"deposits": [...]}`` newest first |
| ``POST /api/operator/money/deposits`` | body ``{"player", "amount", "currency", "reference"}`` (player: username or payment reference): ``{"movement_id", "balance", "replayed"}`` |
| ``GET /api/operator/money/withdrawals?status=pending|paid|rejected|cancelled`` | ``{"withdrawals": [...]}`` (pending: oldest first) |
| ``POST /api/operator/money/withdrawals/{id}/approve`` | body ``{"reference"}``: paid out |
| ``POST /api/operator/money/withdrawals/{id}/reject`` | body ``{"reason"}``: back to the balance |
| ``GET /api/operator/money/adjustments?status=`` | ``{"adjustments": [...], "four_eyes_above": n}`` |
| ``POST /api/operator/money/adjustments`` | body ``{"player_id", "amount" (+ credit, - debit), "currency", "category", "reason"}`` |
| ``POST /api/operator/money/adjustments/{id}/approve`` / ``reject`` | a second staff member decides (reject: body ``{"reason"}``) |
| ``GET /api/operator/players/{id}/money`` | verification, protections with their history, deposits, withdrawals, adjustments, payment reference |
| ``POST /api/operator/players/{id}/verify`` | body ``{"verified", "reason"}`` |
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from riverboat.store.cashier import MAX_DEPOSIT, payment_reference, player_of_reference

from .hub import Hub
from .money_api import _int_param_path, protections_json
from .operator_api import staff as console_staff
from .rest import ApiError, Wrap, jsonable, parse_body, player_id_of
from .routedoc import ApiRoute, Op, Param, path_param

if TYPE_CHECKING:
    from .payments_api import MoneySetup

Reason = Annotated[StrictStr, Field(min_length=1, max_length=2000)]
Currency = Annotated[StrictStr, Field(pattern=r"^[A-Z]{3,8}$")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StaffDepositBody(_Body):
    player: StrictStr = Field(min_length=1, max_length=64)
    amount: Annotated[StrictInt, Field(gt=0, le=MAX_DEPOSIT)]
    currency: Currency = "EUR"
    reference: StrictStr = Field(min_length=1, max_length=128)


class ApproveBody(_Body):
    reference: StrictStr = Field(min_length=1, max_length=128)


class ReasonBody(_Body):
    reason: Reason


class AdjustBody(_Body):
    player_id: StrictInt
    amount: Annotated[StrictInt, Field(ge=-MAX_DEPOSIT, le=MAX_DEPOSIT)]
    currency: Currency = "EUR"
    category: Literal["goodwill", "correction", "chargeback"]
    reason: Reason


class VerifyBody(_Body):
    verified: StrictBool
    reason: Reason


def _status(request: Request, allowed: tuple[str, ...]) -> str | None:
    status = request.query_params.get("status") or None
    if status is not None and status not in allowed:
        raise ApiError(422, "invalid", f"status must be one of {', '.join(allowed)}")
    return status


class _StaffMoney:
    """The console's money routes (issue #30): one method a route, each for operator staff only."""

    def __init__(self, hub: Hub, money: MoneySetup) -> None:
        self.hub = hub
        self.money = money
        self.store = hub.store


    async def staff(self, request: Request) -> Any:
        self.money.ensure()
        return await console_staff(self.hub, request)

    async def deposits(self, request: Request) -> Response:
        info = await self.staff(request)
        if request.method == "GET":
            rows = await self.hub.call_store(self.store.cashier.deposits, status=_status(request, ("pending", "credited")))
            return JSONResponse({"deposits": jsonable(rows)})
        body = await parse_body(request, StaffDepositBody)
        pid = player_of_reference(body.player)
        if pid is None:
            found = await self.hub.call_store(self.store.accounts.by_username, body.player)
            if found is None:
                raise ApiError(404, "not_found", f"no player with username or payment reference {body.player!r}")
            pid = found.id
        result = await self.hub.call_store(self.store.cashier.credit_bank, pid, body.currency, body.amount, body.reference,
                                      staff_id=player_id_of(info))
        return JSONResponse(result.to_dict() | {"player_id": pid})

    async def withdrawals(self, request: Request) -> Response:
        await self.staff(request)
        status = _status(request, ("pending", "paid", "rejected", "cancelled"))
        rows = await self.hub.call_store(self.store.withdrawals.list, status=status)
        return JSONResponse({"withdrawals": jsonable(rows)})

    async def decide_withdrawal(self, request: Request) -> Response:
        info = await self.staff(request)
        wid, action = _int_param_path(request, "wid"), request.path_params["action"]
        if action == "approve":
            body = await parse_body(request, ApproveBody)
            w = await self.hub.call_store(self.store.withdrawals.approve, player_id_of(info), wid, body.reference)
        elif action == "reject":
            reason = await parse_body(request, ReasonBody)
            w = await self.hub.call_store(self.store.withdrawals.reject, player_id_of(info), wid, reason.reason)
        else:
            raise ApiError(404, "not_found", "the actions are approve and reject")
        return JSONResponse(jsonable(w))

    async def adjustments(self, request: Request) -> Response:
        info = await self.staff(request)
        if request.method == "GET":
            rows = await self.hub.call_store(self.store.adjustments.list, status=_status(request, ("pending", "applied",
                                                                                           "rejected")))
            return JSONResponse({"adjustments": jsonable(rows),
                                 "four_eyes_above": self.store.money_rules.settings.four_eyes_above})
        body = await parse_body(request, AdjustBody)
        row = await self.hub.call_store(self.store.adjustments.request, player_id_of(info), body.player_id, body.currency,
                                   body.amount, body.category, body.reason)
        return JSONResponse(jsonable(row), status_code=201)

    async def decide_adjustment(self, request: Request) -> Response:
        info = await self.staff(request)
        aid, action = _int_param_path(request, "aid"), request.path_params["action"]
        if action == "approve":
            row = await self.hub.call_store(self.store.adjustments.approve, player_id_of(info), aid)
        elif action == "reject":
            reason = await parse_body(request, ReasonBody)
            row = await self.hub.call_store(self.store.adjustments.reject, player_id_of(info), aid, reason.reason)
        else:
            raise ApiError(404, "not_found", "the actions are approve and reject")
        return JSONResponse(jsonable(row))

    async def player_money(self, request: Request) -> Response:
        await self.staff(request)
        pid = _int_param_path(request, "player_id")
        prot = await self.hub.call_store(self.store.protections.get, pid)
        return JSONResponse({
            "player_id": pid, "payment_reference": payment_reference(pid), "protections": protections_json(prot),
            "history": jsonable(await self.hub.call_store(self.store.protections.history, pid)),
            "deposits": jsonable(await self.hub.call_store(self.store.cashier.deposits, player_id=pid, limit=100)),
            "withdrawals": jsonable(await self.hub.call_store(self.store.withdrawals.list, player_id=pid, limit=100)),
            "adjustments": jsonable(await self.hub.call_store(self.store.adjustments.list, player_id=pid, limit=100))})

    async def verify(self, request: Request) -> Response:
        info = await self.staff(request)
        pid = _int_param_path(request, "player_id")
        body = await parse_body(request, VerifyBody)
        await self.hub.call_store(self.store.withdrawals.set_verified, player_id_of(info), pid, body.verified, body.reason)
        return JSONResponse(protections_json(await self.hub.call_store(self.store.protections.get, pid)))


#: the errors of the console's money routes
STAFF = {403: "not operator staff (money actions need the operator or admin role)", 404: "not found",
         409: "conflict with the current state (e.g. a reference already credited)"}
_BODY = {**STAFF, 422: "the request is malformed (the message says which field): a float, negative, zero or too "
                       "large amount is refused"}


def _decide(what: str) -> tuple[Param, Param]:
    return path_param(what), path_param("action", "string", enum=["approve", "reject"])


def money_operator_routes(hub: Hub, money: MoneySetup, handler: Wrap) -> list[ApiRoute]:
    """The console's money routes (issue #30), each with its documentation."""
    api = _StaffMoney(hub, money)
    routes: list[tuple[str, Callable[[Request], Awaitable[Response]], dict[str, Op]]] = [
        ("/api/operator/money/deposits", api.deposits, {
            "GET": Op("Deposits, newest first (?status=pending|credited)", errors=STAFF),
            "POST": Op("Credit a bank transfer by the player's username or payment reference (audited; the same "
                       "reference credits once)", body=StaffDepositBody, errors=_BODY)}),
        ("/api/operator/money/withdrawals", api.withdrawals, {"GET": Op(
            "Withdrawals (?status=pending|paid|rejected|cancelled)", errors=STAFF)}),
        ("/api/operator/money/withdrawals/{wid}/{action}", api.decide_withdrawal, {"POST": Op(
            "approve (body {reference}: paid out) or reject (body {reason}: back to the balance); audited",
            params=_decide("wid"), errors=STAFF)}),
        ("/api/operator/money/adjustments", api.adjustments, {
            "GET": Op("Adjustments (?status=pending|applied|rejected) and the four-eyes amount", errors=STAFF),
            "POST": Op("Credit or debit a balance with a category and reason; above the four-eyes amount it waits "
                       "for a second staff member", body=AdjustBody, status=201, errors=_BODY)}),
        ("/api/operator/money/adjustments/{aid}/{action}", api.decide_adjustment, {"POST": Op(
            "A second staff member approves or rejects (body {reason}) a pending adjustment", params=_decide("aid"),
            errors={**STAFF, 403: "not operator staff, or the one who asked (code four_eyes)"})}),
        ("/api/operator/players/{player_id}/money", api.player_money, {"GET": Op(
            "A player's verification, protections and their history, deposits, withdrawals, adjustments",
            params=(path_param("player_id"),), errors=STAFF)}),
        ("/api/operator/players/{player_id}/verify", api.verify, {"POST": Op(
            "Set the account's verification (body {verified, reason}; audited)", body=VerifyBody,
            params=(path_param("player_id"),), errors=_BODY)}),
    ]
    return [ApiRoute(path, handler(functools.update_wrapper(functools.partial(fn), fn)), ops)
            for path, fn, ops in routes]
