"""Deposits (issue #30): bank transfers credited by staff, and payments of a provider confirmed by its webhook.

Every player has a personal payment reference (:func:`payment_reference`, e.g. ``RB-42-57``: the player id and two
ISO 7064 check digits, so a mistyped one is refused rather than credited to someone else) to write on a bank
transfer; staff credit the transfer by that reference (or username) with the bank's own reference of the transfer::

    store.cashier.credit_bank(player_id, "EUR", 5_000, "BANK-2026-0001", staff_id=op)   # -> DepositResult

A provider's payment is created pending (:meth:`Cashier.create_payment`, with the provider's transaction id) and
credited when the provider confirms it (:meth:`Cashier.confirm_payment`, called by the signed webhook of
:mod:`riverboat.payments`). Both are idempotent by ``(method, reference)``: the same reference again credits
nothing and answers the first result with ``replayed`` True; the same reference with another player, amount or
currency is refused (``IdempotencyConflict``). A confirmation of an unknown payment, or with another amount or
currency, is refused and changes nothing. Deposits are refused during a time-out or self-exclusion and over the
player's deposit limits (:mod:`riverboat.store.protections`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware, request_hash
from riverboat.store.audit_reasons import reason
from riverboat.store.errors import IdempotencyConflict, InvalidRequest, NotFound
from riverboat.store.models import Deposit, Player
from riverboat.store.money_audit import audit, staff_member
from riverboat.store.postings import PLAY, AccountKey, check_amount, check_currency, lock_accounts, post
from riverboat.store.protections import check_deposit

BANK = "bank"
_METHOD = re.compile(r"^[a-z][a-z0-9_]{1,31}$")
_REFERENCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/\-]{0,127}$")
_PAYMENT_REF = re.compile(r"^RB-?(\d{1,12})-?(\d{2})$", re.IGNORECASE)
MAX_DEPOSIT = 10**12  # minor units: ten billion euros; anything above is a typing mistake


def _check_digits(player_id: int) -> int:
    return 98 - (player_id * 100) % 97


def payment_reference(player_id: int) -> str:
    """The player's personal reference for bank transfers: ``RB-<id>-<check>``."""
    return f"RB-{player_id}-{_check_digits(player_id):02d}"


def player_of_reference(reference: str) -> int | None:
    """The player id a personal payment reference names, or None if it is not one (wrong check digits too)."""
    m = _PAYMENT_REF.match(reference.strip()) if isinstance(reference, str) else None
    if m is None:
        return None
    pid = int(m.group(1))
    return pid if _check_digits(pid) == int(m.group(2)) else None


@dataclass(frozen=True, slots=True)
class DepositResult:
    deposit_id: int
    movement_id: int  # the ledger transaction
    balance: int  # the player's balance right after the deposit
    replayed: bool

    def to_dict(self) -> dict[str, int | bool]:
        return {"movement_id": self.movement_id, "balance": self.balance, "replayed": self.replayed}


@dataclass(frozen=True, slots=True)
class DepositInfo:
    id: int
    player_id: int
    currency: str
    amount: int
    method: str
    reference: str
    status: str
    staff_id: int | None
    created_at: datetime
    credited_at: datetime | None


def _info(d: Deposit) -> DepositInfo:
    return DepositInfo(d.id, d.player_id, d.currency, d.amount, d.method, d.reference, d.status, d.staff_id,
                       aware(d.created_at), aware(d.credited_at) if d.credited_at else None)


def check_reference(reference: str, what: str = "reference") -> str:
    if not isinstance(reference, str) or not _REFERENCE.match(reference):
        raise InvalidRequest(f"{what} must be 1 to 128 letters, digits or _ . : / - (starting with a letter or "
                             f"digit), got {reference!r}")
    return reference


def check_deposit_amount(currency: str, amount: int) -> None:
    check_currency(currency)
    if currency == PLAY:
        raise InvalidRequest("play money is not deposited: it is free (R-GEN-3)")
    check_amount(amount)
    if amount > MAX_DEPOSIT:
        raise InvalidRequest(f"amount {amount} is larger than any deposit this room takes ({MAX_DEPOSIT})")


class Cashier:
    def __init__(self, db: Database) -> None:
        self._db = db

    def credit_bank(self, player_id: int, currency: str, amount: int, reference: str, *,
                    staff_id: int | None = None) -> DepositResult:
        """Credit a bank transfer (staff in the console, ``staff_id``; or the operator's command line, None)."""
        check_deposit_amount(currency, amount)
        check_reference(reference)

        def body(s: Session) -> DepositResult:
            if isinstance(player_id, bool) or not isinstance(player_id, int) or s.get(Player, player_id) is None:
                raise NotFound(f"no player with id {player_id!r}")
            staff = staff_member(s, staff_id)
            done = self._replay(s, BANK, reference, player_id, currency, amount)
            if done is not None:
                return done
            now = self._db.now()
            check_deposit(s, player_id, currency, amount, now)
            row = Deposit(player_id=player_id, currency=currency, amount=amount, method=BANK, reference=reference,
                          status="pending", staff_id=staff_id, created_at=now)
            s.add(row)
            result = self._credit(s, row, now)
            audit(s, now, staff, "deposit", reason("bank_transfer", reference=reference), player_id=player_id,
                  target=f"deposit:{row.id}", detail={"amount": amount, "currency": currency})
            return result

        return self._run(body, lambda s: self._replay(s, BANK, reference, player_id, currency, amount))

    def create_payment(self, player_id: int, method: str, currency: str, amount: int, reference: str) -> DepositInfo:
        """Record a provider's payment (pending) before the player pays on the provider's page; refused during a
        time-out or self-exclusion and over the deposit limits, so a player is never sent to pay what would be
        refused."""
        if not isinstance(method, str) or not _METHOD.match(method) or method == BANK:
            raise InvalidRequest(f"bad payment provider name {method!r}")
        check_deposit_amount(currency, amount)
        check_reference(reference, "the provider's transaction id")

        def body(s: Session) -> DepositInfo:
            if s.get(Player, player_id) is None:
                raise NotFound(f"no player with id {player_id!r}")
            now = self._db.now()
            check_deposit(s, player_id, currency, amount, now)
            row = Deposit(player_id=player_id, currency=currency, amount=amount, method=method,
                          reference=reference, status="pending", created_at=now)
            s.add(row)
            s.flush()
            return _info(row)

        try:
            return self._db.run(body)
        except IntegrityError:
            raise InvalidRequest(f"payment {reference!r} of {method} already exists") from None

    def confirm_payment(self, method: str, reference: str, amount: int, currency: str) -> DepositResult:
        """Credit a provider's payment its webhook confirms. Unknown payment: ``NotFound``; another amount or
        currency than created: ``InvalidRequest``; both change nothing. Confirmed already: the first result,
        ``replayed`` True. (The limits were checked when the payment was created: the money is already paid.)"""

        def body(s: Session) -> DepositResult:
            row = s.scalar(select(Deposit).where(Deposit.method == method, Deposit.reference == reference)
                           .with_for_update())
            if row is None:
                raise NotFound(f"no {method} payment {reference!r}")
            if row.amount != amount or row.currency != currency:
                raise InvalidRequest(f"{method} payment {reference!r} was created for {row.amount} {row.currency}, "
                                     f"not {amount!r} {currency!r}")
            done = self._replay(s, method, reference, row.player_id, currency, amount)
            if done is not None:
                return done
            return self._credit(s, row, self._db.now())

        return self._run(body, lambda s: None)

    def _credit(self, s: Session, row: Deposit, now: datetime) -> DepositResult:
        wallet, ext = AccountKey.wallet(row.player_id, row.currency), AccountKey.external(row.currency)
        accts = lock_accounts(s, [wallet, ext])
        req = request_hash("deposit", player_id=row.player_id, currency=row.currency, amount=row.amount)
        txn = post(s, accts, idem_key=f"deposit:{row.method}:{row.reference}", kind="deposit", req_hash=req,
                   now=now, transfers=[(ext, wallet, row.amount)])
        row.status, row.txn_id, row.credited_at = "credited", txn.id, now
        row.balance_after = accts[wallet].balance
        s.flush()
        return DepositResult(row.id, txn.id, row.balance_after, False)

    @staticmethod
    def _replay(s: Session, method: str, reference: str, player_id: int, currency: str,
                amount: int) -> DepositResult | None:
        row = s.scalar(select(Deposit).where(Deposit.method == method, Deposit.reference == reference))
        if row is None or row.status == "pending":
            return None
        if (row.player_id, row.currency, row.amount) != (player_id, currency, amount):
            raise IdempotencyConflict(f"{method} reference {reference!r} was already credited: {row.amount} "
                                      f"{row.currency} to player {row.player_id}")
        assert row.txn_id is not None and row.balance_after is not None
        return DepositResult(row.id, row.txn_id, row.balance_after, True)

    def _run(self, fn: Callable[[Session], DepositResult],
             again: Callable[[Session], DepositResult | None]) -> DepositResult:
        try:
            return self._db.run(fn)
        except IntegrityError:  # the same reference credited concurrently: answer its result
            done = self._db.read(again)
            if done is None:
                raise
            return done

    def deposits(self, *, player_id: int | None = None, status: str | None = None,
                 limit: int = 200) -> list[DepositInfo]:
        """Deposits, newest first (staff's list; ``player_id``: one player's)."""
        def body(s: Session) -> list[DepositInfo]:
            q = select(Deposit)
            if player_id is not None:
                q = q.where(Deposit.player_id == player_id)
            if status is not None:
                q = q.where(Deposit.status == status)
            return [_info(d) for d in s.scalars(q.order_by(Deposit.id.desc()).limit(limit))]

        return self._db.read(body)
