"""Payment providers (issue #30): how a player's card or bank payment becomes a deposit.

A provider takes the player to its hosted payment page and later tells the room the outcome with a **signed
webhook**, ``POST /api/payments/{provider}/webhook`` (``riverboat.server.payments_api``). The room:

1. creates the payment -- :meth:`PaymentProvider.start` answers the provider's transaction id and the URL of its
   payment page; the store records the deposit *pending* (limits and time-outs are checked then);
2. on the webhook, :meth:`PaymentProvider.verify` checks the HMAC-SHA256 signature over the raw body with the
   provider's secret and the timestamp (older or newer than :data:`TOLERANCE_S`: refused, against replays) and
   reads the confirmation;
3. credits the pending deposit once (``store.cashier.confirm_payment``, idempotent by the provider's transaction
   id). A bad signature, an old timestamp, an unknown transaction id, another amount or currency changes nothing
   and is logged (logger ``riverboat.payments``).

The signature header is ``Riverboat-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`` and the
body ``{"id": "<transaction id>", "status": "paid", "amount": <minor units>, "currency": "EUR"}``. A real provider
signs in its own way: its adapter implements :class:`PaymentProvider` (see docs/payments.md, "Adding a provider")
and is listed in :data:`PROVIDERS`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from riverboat.errors import RiverboatError

TOLERANCE_S = 300.0  # a webhook signed more than 5 minutes away from now is refused (replay protection)
SIGNATURE_HEADER = "riverboat-signature"


class WebhookRefused(RiverboatError):
    """A webhook that is not (provably) from the provider or not acceptable: nothing is credited. ``str()`` says
    why, for the log; the provider gets 400 ``webhook_refused``."""

    code = "webhook_refused"
    status = 400


@dataclass(frozen=True, slots=True)
class Checkout:
    """A payment the provider has opened: its transaction id and the page the player pays on."""

    transaction_id: str
    url: str


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What a verified webhook says: the provider's transaction id, the outcome and the amount paid."""

    transaction_id: str
    status: str  # paid | failed
    amount: int
    currency: str


class PaymentProvider(Protocol):
    """One payment provider's adapter."""

    name: str

    def start(self, deposit_key: str, amount: int, currency: str, return_url: str) -> Checkout:
        """Open a payment of ``amount`` minor units; ``return_url``: where the page sends the player back."""
        ...

    def verify(self, raw_body: bytes, headers: Mapping[str, str], now: float) -> Confirmation:
        """Check a webhook (signature, timestamp) and read it; :class:`WebhookRefused` otherwise."""
        ...


def sign(secret: bytes, timestamp: int, raw_body: bytes) -> str:
    """The ``Riverboat-Signature`` header value of ``raw_body`` sent at ``timestamp``."""
    mac = hmac.new(secret, str(timestamp).encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify_signature(secret: bytes, header: str | None, raw_body: bytes, now: float,
                     tolerance: float = TOLERANCE_S) -> None:
    """Raise :class:`WebhookRefused` unless ``header`` is a valid signature of ``raw_body`` made within
    ``tolerance`` seconds of ``now`` (compared in constant time)."""
    if not header:
        raise WebhookRefused("no signature header")
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    stamp, given = parts.get("t", ""), parts.get("v1", "")
    if not stamp.isdigit() or len(stamp) > 12 or not given:
        raise WebhookRefused("malformed signature header")
    expected = sign(secret, int(stamp), raw_body).split("v1=", 1)[1]
    if not hmac.compare_digest(expected, given):
        raise WebhookRefused("bad signature")
    if abs(now - int(stamp)) > tolerance:
        raise WebhookRefused(f"timestamp {stamp} is more than {tolerance:.0f} s from now (a replay?)")


def read_confirmation(raw_body: bytes) -> Confirmation:
    """The body of a (verified) webhook: ``{"id", "status", "amount", "currency"}``."""
    try:
        data = json.loads(raw_body)
    except (ValueError, UnicodeDecodeError):
        raise WebhookRefused("the body is not JSON") from None
    if not isinstance(data, dict):
        raise WebhookRefused("the body is not a JSON object")
    tid, status, amount, currency = data.get("id"), data.get("status"), data.get("amount"), data.get("currency")
    if not isinstance(tid, str) or not 1 <= len(tid) <= 128:
        raise WebhookRefused("id must be the transaction id")
    if status not in ("paid", "failed"):
        raise WebhookRefused("status must be paid or failed")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise WebhookRefused("amount must be an integer of minor units")
    if not isinstance(currency, str):
        raise WebhookRefused("currency must be a currency code")
    return Confirmation(tid, status, amount, currency)


def _fake(config: Mapping[str, Any]) -> PaymentProvider:
    from riverboat.payments.fake import FakeProvider

    return FakeProvider.from_config(config)


#: provider name -> its adapter built from its settings (``--money FILE``'s ``"payments"`` section)
PROVIDERS: dict[str, Callable[[Mapping[str, Any]], PaymentProvider]] = {"fake": _fake}


def providers_from_config(config: Mapping[str, Any]) -> dict[str, PaymentProvider]:
    """``{"fake": {"secret": "..."}}`` -> the adapters. An unknown provider name is a ``ValueError``."""
    out: dict[str, PaymentProvider] = {}
    for name, settings in config.items():
        make = PROVIDERS.get(name)
        if make is None:
            raise ValueError(f"unknown payment provider {name!r} (known: {', '.join(PROVIDERS)})")
        if not isinstance(settings, Mapping):
            raise ValueError(f"the settings of payment provider {name!r} must be a JSON object")
        out[name] = make(settings)
    return out
