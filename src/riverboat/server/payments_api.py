"""The payment providers' webhook and the fake provider's hosted payment page (issue #30, :mod:`riverboat.payments`).

| route | answer |
| --- | --- |
| ``POST /api/payments/{provider}/webhook`` | the provider's signed confirmation: ``{"credited": bool, "replayed": bool}``; refused (nothing moves, logged): 400 ``webhook_refused`` (signature, timestamp, body), 404 ``not_found`` (unknown provider or transaction id), 422 ``invalid`` (another amount or currency) |
| ``GET /fakepay/{id}`` | the fake provider's payment page (Pay / Cancel) |
| ``POST /fakepay/{id}/pay`` | the fake provider "charges the card": it sends its signed webhook to the room, then sends the player back to the cashier |
"""

from __future__ import annotations

import html
import logging
import time

import httpx
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from riverboat.payments import PaymentProvider, WebhookRefused
from riverboat.payments.fake import FakePayment, FakeProvider
from riverboat.store.errors import IdempotencyConflict, InvalidRequest, NotFound

from .hub import Hub
from .rest import ApiError, Wrap
from .routedoc import ApiRoute, Op

log = logging.getLogger("riverboat.payments")
MAX_WEBHOOK = 16 * 1024


async def webhook(hub: Hub, providers: dict[str, PaymentProvider], request: Request) -> Response:
    """A provider's confirmation: verified, then the pending deposit credited once. Every refusal is logged."""
    name = request.path_params["provider"]
    provider = providers.get(name)
    if provider is None:
        log.warning("webhook for unknown provider %r refused", name[:40])
        raise ApiError(404, "not_found", "no such payment provider")
    raw = await request.body()
    if len(raw) > MAX_WEBHOOK:
        log.warning("%s webhook refused: body of %d bytes", name, len(raw))
        raise ApiError(413, "too_large", "the request body is limited to 16 KiB")
    try:
        confirmation = provider.verify(raw, request.headers, time.time())
    except WebhookRefused as exc:
        log.warning("%s webhook refused: %s", name, exc)
        raise
    if confirmation.status != "paid":
        log.info("%s payment %s was not paid (%s): nothing credited", name, confirmation.transaction_id,
                 confirmation.status)
        return JSONResponse({"credited": False, "replayed": False})
    try:
        result = await hub.call_store(hub.store.cashier.confirm_payment, name, confirmation.transaction_id,
                                      confirmation.amount, confirmation.currency)
    except (NotFound, InvalidRequest, IdempotencyConflict) as exc:
        log.warning("%s webhook refused: %s", name, exc)
        raise
    log.info("%s payment %s credited (replayed: %s)", name, confirmation.transaction_id, result.replayed)
    return JSONResponse({"credited": True, "replayed": result.replayed})


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>FakePay checkout</title>
<link rel="stylesheet" href="/css/fakepay.css"><link rel="icon" href="/img/favicon.svg" type="image/svg+xml"></head>
<body><main class="fakepay"><h1>FakePay</h1><p>A test payment provider: no card is charged.</p>
<p class="amount">Pay <strong>{amount}</strong> to Riverboat</p>
<form method="post" action="/fakepay/{tid}/pay"><button type="submit" id="fakepay-pay">Pay</button></form>
<form method="post" action="/fakepay/{tid}/cancel"><button type="submit" id="fakepay-cancel">Cancel</button></form>
</main></body></html>"""


def _money(amount: int, currency: str) -> str:
    return f"{amount // 100}.{amount % 100:02d} {currency}"


def fake_routes(money: MoneySetup) -> list[ApiRoute]:
    def find(tid: str) -> tuple[FakeProvider, FakePayment] | None:
        fake = money.fake()
        payment = fake.payments.get(tid) if fake is not None else None
        return None if fake is None or payment is None else (fake, payment)

    async def page(request: Request) -> Response:
        found = find(request.path_params["tid"])
        payment = found[1] if found else None
        if payment is None:
            return HTMLResponse("<!doctype html><p>No such payment.</p>", status_code=404)
        return HTMLResponse(_PAGE.format(amount=html.escape(_money(payment.amount, payment.currency)),
                                         tid=html.escape(payment.transaction_id)))

    async def pay(request: Request) -> Response:
        return await _finish(request, "paid")

    async def cancel(request: Request) -> Response:
        return await _finish(request, "failed")

    async def _finish(request: Request, status: str) -> Response:
        tid = request.path_params["tid"]
        found = find(tid)
        if found is None:
            return HTMLResponse("<!doctype html><p>No such payment.</p>", status_code=404)
        fake, payment = found
        body, signature = fake.webhook(tid, status)
        base = str(request.base_url).rstrip("/")
        async with httpx.AsyncClient(timeout=30) as client:  # the provider calls the room back, as a real one does
            answer = await client.post(f"{base}/api/payments/fake/webhook", content=body,
                                       headers={"Riverboat-Signature": signature,
                                                "Content-Type": "application/json"})
        outcome = "done" if answer.status_code == 200 and status == "paid" else "failed"
        return RedirectResponse(f"{payment.return_url}?deposit={outcome}#/cashier", status_code=303)

    def done(summary: str) -> dict[str, Op]:
        return {"POST": Op(summary, status=303, auth=False, out_description="back to the room's cashier",
                           errors={404: "no such payment"}, error_media="text/html")}

    return [ApiRoute("/fakepay/{tid}", page, {"GET": Op(
                "The fake provider's checkout page (rooms that list the fake provider only)", "text/html",
                auth=False, errors={404: "no such payment"}, error_media="text/html")}),
            ApiRoute("/fakepay/{tid}/pay", pay, done("The fake provider pays: it calls the webhook, then back")),
            ApiRoute("/fakepay/{tid}/cancel", cancel, done("The fake provider cancels: it calls the webhook, "
                                                           "then back"))]


class MoneySetup:
    """The app's money settings (``ServerConfig.money``: ``{"cooling_off_hours", "four_eyes_above", "payments":
    {provider name: its settings}}``), read at the first money request: the payment providers, and the room's
    settings given to the store."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._providers: dict[str, PaymentProvider] | None = None

    @property
    def providers(self) -> dict[str, PaymentProvider]:
        if self._providers is None:
            from riverboat.payments import providers_from_config
            from riverboat.store.protections import MoneySettings

            settings = dict(self._hub.config.money)
            providers = providers_from_config(settings.pop("payments", {}))
            self._hub.store.set_money_settings(MoneySettings.from_dict(settings))
            self._providers = providers
        return self._providers

    def ensure(self) -> None:
        """Read the settings now (every money route does first: the store's money settings are the room's)."""
        _ = self.providers

    def fake(self) -> FakeProvider | None:
        fake = self.providers.get("fake")
        return fake if isinstance(fake, FakeProvider) else None


def cashier_routes(hub: Hub, handler: Wrap) -> list[Route]:
    """Every route of issue #30: the webhook, the fake provider's pages (404 unless it is listed), the player's
    cashier and protections, and the console's money pages."""
    from .money_api import money_routes
    from .money_operator_api import money_operator_routes

    money = MoneySetup(hub)

    async def hook(request: Request) -> Response:
        return await webhook(hub, money.providers, request)

    return [ApiRoute("/api/payments/{provider}/webhook", handler(hook), {"POST": Op(
                "A payment provider's signed confirmation (HMAC-SHA256 header Riverboat-Signature: t=..,v1=..)",
                auth=False, errors={
                    400: "refused: bad or missing signature, old timestamp, bad body (code webhook_refused)",
                    404: "unknown provider or transaction id", 413: "the body is larger than 16 KiB",
                    422: "another amount or currency than the payment's"})}),
            *fake_routes(money), *money_routes(hub, money, handler), *money_operator_routes(hub, money, handler)]
