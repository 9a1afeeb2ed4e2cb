"""The fake payment provider (issue #30): behaves like a hosted-payment provider, for the demo and the tests.

:meth:`FakeProvider.start` opens a payment and answers the URL of its payment page, ``/fakepay/{id}`` on the room's
own server (``riverboat.server.payments_api``): a page showing the amount with *Pay* and *Cancel*. *Pay* does what
a real provider does once the card is charged: it sends the signed webhook (:meth:`FakeProvider.webhook`) to
``POST /api/payments/fake/webhook`` over HTTP and sends the player back to the cashier. It is enabled in the demo
room; a real room lists real providers only (``--money FILE``).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from riverboat.payments import (
    Checkout,
    Confirmation,
    WebhookRefused,
    read_confirmation,
    sign,
    verify_signature,
)


@dataclass(frozen=True, slots=True)
class FakePayment:
    transaction_id: str
    amount: int
    currency: str
    return_url: str


@dataclass
class FakeProvider:
    secret: bytes
    name: str = "fake"
    payments: dict[str, FakePayment] = field(default_factory=dict)  # the provider's side: payments it opened

    @staticmethod
    def from_config(config: Mapping[str, Any]) -> FakeProvider:
        secret = config.get("secret")
        if secret is None:
            return FakeProvider(secrets.token_bytes(32))
        if not isinstance(secret, str) or len(secret) < 16:
            raise ValueError("the fake provider's secret must be a string of at least 16 characters")
        return FakeProvider(secret.encode())

    def start(self, deposit_key: str, amount: int, currency: str, return_url: str) -> Checkout:
        tid = f"fake_{secrets.token_hex(12)}"
        self.payments[tid] = FakePayment(tid, amount, currency, return_url)
        return Checkout(tid, f"/fakepay/{tid}")

    def verify(self, raw_body: bytes, headers: Mapping[str, str], now: float) -> Confirmation:
        verify_signature(self.secret, headers.get("riverboat-signature"), raw_body, now)
        return read_confirmation(raw_body)

    def webhook(self, transaction_id: str, status: str = "paid", now: float | None = None) -> tuple[bytes, str]:
        """The body and ``Riverboat-Signature`` header the provider sends for one of its payments."""
        payment = self.payments.get(transaction_id)
        if payment is None:
            raise WebhookRefused(f"no fake payment {transaction_id!r}")
        body = json.dumps({"id": transaction_id, "status": status, "amount": payment.amount,
                           "currency": payment.currency}).encode()
        return body, sign(self.secret, int(time.time() if now is None else now), body)
