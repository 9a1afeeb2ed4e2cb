"""The player's money routes (issue #30): the cashier (deposits, withdrawals, the statement) and the protections
(deposit limits, reality check, time-out, self-exclusion). Amounts are integer minor units; a float, a negative, a
zero or a huge amount is refused (422) and nothing moves.

| route | answer |
| --- | --- |
| ``GET /api/cashier/info`` | ``{"payment_reference", "balances", "providers", "verified", "may_play", "block", "withdrawals"}`` |
| ``POST /api/cashier/deposits`` | body ``{"provider", "amount", "currency"}``: ``{"deposit_id", "transaction_id", "checkout_url"}`` (pay there; the provider's webhook credits it) |
| ``GET /api/cashier/withdrawals`` | the player's withdrawals, newest first |
| ``POST /api/cashier/withdrawals`` | body ``{"amount", "currency", "request_id"}``: the withdrawal (pending; the amount leaves the balance at once) |
| ``POST /api/cashier/withdrawals/{id}/cancel`` | cancels the player's own pending withdrawal (money back) |
| ``GET /api/cashier/statement?from=&to=&kind=&currency=&limit=&before=&format=json|csv`` | every movement of the balance, newest first, paged (``next_before``); ``format=csv`` a download |
| ``GET /api/protections`` | verification, reality check, time-out or self-exclusion, deposit limits |
| ``PUT /api/protections/limits`` | body ``{"currency", "period", "amount"}`` (``amount`` null: remove): lower at once, higher after the cooling-off |
| ``PUT /api/protections/reality-check`` | body ``{"minutes"}`` (5-240, or null: off) |
| ``GET /api/protections/reality-check?since=ISO`` | ``{"minutes", "played_seconds", "net", "hands"}`` of the session since ``since`` |
| ``POST /api/protections/timeout`` | body ``{"hours"}`` (24 to 1008): at once; seats returned at the end of the hand |
| ``POST /api/protections/self-exclusion`` | body ``{"months"}`` (6 to 60, or null: permanent) and ``"confirm": true`` |
"""

from __future__ import annotations

import csv
import functools
import io
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from riverboat.errors import RiverboatError
from riverboat.room.commands import EndPlayFrame
from riverboat.room.replies import PlayEnded
from riverboat.store.cashier import MAX_DEPOSIT, payment_reference
from riverboat.store.movements import KIND_GROUPS

from .hub import Hub
from .rest import ApiError, Wrap, _int_param, authenticate, balances, jsonable, parse_body, player_id_of
from .routedoc import ApiRoute, Op, path_param, query

if TYPE_CHECKING:
    from .payments_api import MoneySetup

log = logging.getLogger(__name__)
Amount = Annotated[StrictInt, Field(gt=0, le=MAX_DEPOSIT)]
Currency = Annotated[StrictStr, Field(pattern=r"^[A-Z]{3,8}$")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DepositBody(_Body):
    provider: StrictStr = Field(max_length=32)
    amount: Amount
    currency: Currency = "EUR"


class WithdrawBody(_Body):
    amount: Amount
    currency: Currency = "EUR"
    request_id: StrictStr = Field(min_length=1, max_length=64)


class LimitBody(_Body):
    currency: Currency = "EUR"
    period: Literal["day", "week", "month"]
    amount: Amount | None


class RealityBody(_Body):
    minutes: StrictInt | None


class TimeoutBody(_Body):
    hours: StrictInt


class ExclusionBody(_Body):
    months: StrictInt | None
    confirm: StrictBool


def withdrawal_json(w: Any) -> dict[str, Any]:
    return jsonable(w)  # type: ignore[no-any-return]


def protections_json(info: Any) -> dict[str, Any]:
    out: dict[str, Any] = jsonable(info)
    out["may_play"] = info.may_play
    return out


async def end_play(hub: Hub, pid: int) -> dict[str, Any]:
    """A time-out or self-exclusion took effect: the room's ``end_play`` at every place the store says the player's
    play goes on (``places_in_play``: cash tables and Speed Poker pools holding a seat or chips, tournaments and
    Twisters not yet started where they are registered). Each runs through ``hub.room.execute``: in one process the
    room itself, through a cluster gateway the host of that table, pool or tournament, so the effect is the same
    in both deployments -- the stack returns at the end of the current hand (R-CASH-3), the pool is left, the
    registration refunded. The store refuses any new play from now on (``check_may_play``); a place that could not
    be ended (a tournament that started meanwhile, a host between owners) is listed in ``kept``."""
    left: list[str] = []
    refunded: list[str] = []
    kept: list[str] = []
    for target in await hub.call_store(hub.store.protections.places_in_play, pid):
        try:
            result = await hub.room.execute(pid, EndPlayFrame(v=1, type="end_play", target=target))
        except RiverboatError as exc:  # a started tournament (R-TOURN-REG-3), a table already closed
            log.warning("play of player %s at %s not ended: %s", pid, target, exc)
            kept.append(target)
            continue
        (refunded if isinstance(result, PlayEnded) and result.ended == "refunded" else left).append(target)
    return {"left": left, "refunded": refunded, "kept": kept}


def _date(request: Request, name: str) -> datetime | None:
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        value = datetime.fromisoformat(raw) if len(raw) <= 40 else None
    except ValueError:
        value = None
    if value is None:
        raise ApiError(422, "invalid", f"{name} must be a date (YYYY-MM-DD) or an ISO date and time")
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    if len(raw) == 10 and name == "to":  # a date "to" includes that whole day
        value += timedelta(days=1)
    return value


class _PlayerMoney:
    """The player's cashier and protection routes (issue #30): one method a route."""

    def __init__(self, hub: Hub, money: MoneySetup) -> None:
        self.hub = hub
        self.money = money

    async def pid_of(self, request: Request) -> int:
        self.money.ensure()
        return int(player_id_of(await authenticate(self.hub, request)))

    async def info(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        prot = await self.hub.call_store(self.hub.store.protections.get, pid)
        mine = await self.hub.call_store(self.hub.store.withdrawals.list, player_id=pid, limit=50)
        return JSONResponse({"payment_reference": payment_reference(pid), "balances": await balances(self.hub, pid),
                             "providers": sorted(self.money.providers), "verified": prot.verified, "may_play": prot.may_play,
                             "block": {"kind": prot.block_kind, "until": jsonable(prot.blocked_until)}
                             if prot.block_kind else None,
                             "withdrawals": [withdrawal_json(w) for w in mine]})

    async def deposit(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        body = await parse_body(request, DepositBody)
        provider = self.money.providers.get(body.provider)
        if provider is None:
            raise ApiError(422, "invalid", f"provider: no payment provider {body.provider!r} in this room")
        checkout = provider.start(f"{pid}", body.amount, body.currency, "/")
        row = await self.hub.call_store(self.hub.store.cashier.create_payment, pid, body.provider, body.currency, body.amount,
                                   checkout.transaction_id)
        return JSONResponse({"deposit_id": row.id, "transaction_id": checkout.transaction_id,
                             "checkout_url": checkout.url}, status_code=201)

    async def withdrawals(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        if request.method == "GET":
            rows = await self.hub.call_store(self.hub.store.withdrawals.list, player_id=pid, limit=200)
            return JSONResponse({"withdrawals": [withdrawal_json(w) for w in rows]})
        body = await parse_body(request, WithdrawBody)
        w = await self.hub.call_store(self.hub.store.withdrawals.request, pid, body.currency, body.amount, body.request_id)
        return JSONResponse(withdrawal_json(w), status_code=201)

    async def cancel(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        wid = _int_param_path(request, "wid")
        return JSONResponse(withdrawal_json(await self.hub.call_store(self.hub.store.withdrawals.cancel, pid, wid)))

    async def statement(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        kind = request.query_params.get("kind") or None
        if kind is not None and kind not in KIND_GROUPS:
            raise ApiError(422, "invalid", f"kind must be one of {', '.join(KIND_GROUPS)}")
        fmt = request.query_params.get("format", "json")
        if fmt not in ("json", "csv"):
            raise ApiError(422, "invalid", "format must be json or csv")
        currency = request.query_params.get("currency") or None
        if currency is not None and currency not in ("EUR", "PLAY"):
            raise ApiError(422, "invalid", "currency must be EUR or PLAY")
        limit = _int_param(request, "limit", 50 if fmt == "json" else 500, 1, 500)
        before = _int_param(request, "before", None, 1)
        page = await self.hub.call_store(self.hub.store.movements.for_player, pid, limit=limit, before=before,
                                    kinds=None if kind is None else KIND_GROUPS[kind], currency=currency,
                                    since=_date(request, "from"), until=_date(request, "to"))
        items = [m.to_dict() for m in page.items]
        if fmt == "csv":
            return _csv(items)
        return JSONResponse({"movements": items, "next_before": page.next_before, "kinds": list(KIND_GROUPS)})

    async def protections(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        return JSONResponse(protections_json(await self.hub.call_store(self.hub.store.protections.get, pid)))

    async def limits(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        body = await parse_body(request, LimitBody)
        await self.hub.call_store(self.hub.store.protections.set_limit, pid, body.currency, body.period, body.amount)
        return JSONResponse(protections_json(await self.hub.call_store(self.hub.store.protections.get, pid)))

    async def reality(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        if request.method == "PUT":
            body = await parse_body(request, RealityBody)
            info = await self.hub.call_store(self.hub.store.protections.set_reality_check, pid, body.minutes)
            return JSONResponse(protections_json(info))
        return JSONResponse(await reality_check(self.hub, pid, _date(request, "since")))

    async def timeout(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        body = await parse_body(request, TimeoutBody)
        info = await self.hub.call_store(self.hub.store.protections.take_timeout, pid, body.hours)
        return JSONResponse(protections_json(info) | {"ended": await end_play(self.hub, pid)})

    async def exclusion(self, request: Request) -> Response:
        pid = await self.pid_of(request)
        body = await parse_body(request, ExclusionBody)
        if not body.confirm:
            raise ApiError(422, "invalid", "confirm: self-exclusion cannot be undone; send confirm true")
        info = await self.hub.call_store(self.hub.store.protections.self_exclude, pid, body.months)
        return JSONResponse(protections_json(info) | {"ended": await end_play(self.hub, pid)})


_BLOCKED = {403: "a time-out or self-exclusion is in force (code play_blocked)"}
_AMOUNT_422 = {422: "the request is malformed (the message says which field): a float, negative, zero or too large "
                    "amount is refused"}
_STATEMENT = (
    query("from", {"type": "string"}, "YYYY-MM-DD or ISO date-time (UTC if no zone): movements at or after"),
    query("to", {"type": "string"}, "YYYY-MM-DD (that whole day included) or ISO date-time: movements before"),
    query("kind", {"type": "string", "enum": ["deposit", "withdrawal", "table", "tournament", "adjustment"]}),
    query("currency", {"type": "string", "enum": ["EUR", "PLAY"]}),
    query("limit", {"type": "integer", "minimum": 1, "maximum": 500}),
    query("before", {"type": "integer", "minimum": 1}, "next_before of the previous page"),
    query("format", {"type": "string", "enum": ["json", "csv"]}),
)


def money_routes(hub: Hub, money: MoneySetup, handler: Wrap) -> list[ApiRoute]:
    """The player's cashier and protections (issue #30), each with its documentation."""
    api = _PlayerMoney(hub, money)
    routes: list[tuple[str, Callable[[Request], Awaitable[Response]], dict[str, Op]]] = [
        ("/api/cashier/info", api.info, {"GET": Op(
            "The cashier: personal payment reference, balances, payment providers, verification, time-out or "
            "self-exclusion, withdrawals")}),
        ("/api/cashier/deposits", api.deposit, {"POST": Op(
            "Open a deposit with a payment provider: pay at checkout_url; the provider's webhook credits it",
            body=DepositBody, status=201, errors={**_AMOUNT_422, **_BLOCKED, 409: "over one of your deposit limits "
                                                  "(code deposit_limit; the message says how much may still be "
                                                  "deposited)"})}),
        ("/api/cashier/withdrawals", api.withdrawals, {
            "GET": Op("Your withdrawals, newest first"),
            "POST": Op("Ask for a withdrawal of at most the cash balance: it leaves the balance at once (pending until "
                       "staff pay it out or reject it)", body=WithdrawBody, status=201,
                       errors={**_AMOUNT_422, 403: "the account is not verified (code not_verified)",
                               409: "the balance does not cover it (code insufficient_funds)"})}),
        ("/api/cashier/withdrawals/{wid}/cancel", api.cancel, {"POST": Op(
            "Cancel your own pending withdrawal (back to the balance)", params=(path_param("wid"),),
            errors={404: "no such withdrawal of yours", 422: "not pending"})}),
        ("/api/cashier/statement", api.statement, {"GET": Op(
            "Every movement of your balance, newest first, filtered and paged; format=csv: a download",
            params=_STATEMENT, errors={422: "a bad filter"})}),
        ("/api/protections", api.protections, {"GET": Op(
            "Your protections: verification, reality check, time-out or self-exclusion, deposit limits (in force "
            "and pending)")}),
        ("/api/protections/limits", api.limits, {"PUT": Op(
            "Set or remove (amount null) a deposit limit: lower at once, higher after the cooling-off",
            body=LimitBody, errors=_AMOUNT_422)}),
        ("/api/protections/reality-check", api.reality, {
            "GET": Op("Time played and net result since `since` (the client's session start)",
                      params=(query("since", {"type": "string"}),)),
            "PUT": Op("The reality check interval (5-240 minutes, or null: off)", body=RealityBody,
                      errors=_AMOUNT_422)}),
        ("/api/protections/timeout", api.timeout, {"POST": Op(
            "Take a time-out of 24 hours to 6 weeks at once (seats returned at the end of the hand, unstarted "
            "tournament registrations refunded)", body=TimeoutBody, errors=_AMOUNT_422)}),
        ("/api/protections/self-exclusion", api.exclusion, {"POST": Op(
            "Exclude yourself for 6 to 60 months or permanently (months null); cannot be undone",
            body=ExclusionBody, errors=_AMOUNT_422)}),
    ]
    return [ApiRoute(path, handler(functools.update_wrapper(functools.partial(fn), fn)), ops)
            for path, fn, ops in routes]


def _int_param_path(request: Request, name: str) -> int:
    raw = request.path_params[name]
    if not raw.isdigit() or len(raw) > 18:
        raise ApiError(422, "invalid", f"{name} must be a positive integer")
    return int(raw)


async def reality_check(hub: Hub, pid: int, since: datetime | None) -> dict[str, Any]:
    """The reality check's numbers: the interval, the time played since ``since`` (the client's session start)
    and the net result of the hands settled since then, per currency."""
    prot = await hub.call_store(hub.store.protections.get, pid)
    now = datetime.now(UTC)
    start = since or now
    hands, net = await hub.call_store(hub.store.hands.money_since, pid, start)  # every hand since, in SQL
    return {"minutes": prot.reality_check_minutes, "played_seconds": max(0, int((now - start).total_seconds())),
            "net": net, "hands": hands}


def _csv(items: list[dict[str, Any]]) -> Response:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["transaction", "time", "kind", "currency", "amount", "table"])
    for m in items:
        writer.writerow([m["txn"], m["at"], m["kind"], m["currency"], m["amount"], m["table"] or ""])
    return Response(buf.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="riverboat-statement.csv"'})
