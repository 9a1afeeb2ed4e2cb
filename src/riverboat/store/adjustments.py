"""Operator adjustments (issue #30): a credit or debit of a player's cash balance with a category (goodwill,
correction, chargeback) and a reason, in the audit log. An amount above the room's four-eyes amount
(:class:`~riverboat.store.protections.MoneySettings`) waits, moving nothing, until a second staff member approves it
(or rejects it); the one who asked cannot approve their own. The money moves with the outside world (``adjust``
transactions), like a deposit or a withdrawal."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware, request_hash
from riverboat.store.accounts import require_operator
from riverboat.store.audit_reasons import Reason
from riverboat.store.audit_reasons import reason as coded
from riverboat.store.cashier import MAX_DEPOSIT
from riverboat.store.errors import FourEyes, InvalidRequest, NotFound
from riverboat.store.models import Adjustment, Player
from riverboat.store.money_audit import audit, check_reason
from riverboat.store.postings import PLAY, AccountKey, check_currency, lock_accounts, post
from riverboat.store.protections import MoneyRules

CATEGORIES = ("goodwill", "correction", "chargeback")
STATUSES = ("pending", "applied", "rejected")


@dataclass(frozen=True, slots=True)
class AdjustmentInfo:
    id: int
    player_id: int
    currency: str
    amount: int  # + credit, - debit
    category: str
    reason: str
    status: str
    requested_by: int
    decided_by: int | None
    created_at: datetime
    decided_at: datetime | None


def _info(a: Adjustment) -> AdjustmentInfo:
    return AdjustmentInfo(a.id, a.player_id, a.currency, a.amount, a.category, a.reason, a.status, a.requested_by,
                          a.decided_by, aware(a.created_at), aware(a.decided_at) if a.decided_at else None)


class Adjustments:
    def __init__(self, db: Database, rules: MoneyRules) -> None:
        self._db = db
        self._rules = rules

    def request(self, staff_id: int, player_id: int, currency: str, amount: int, category: str,
                reason: str) -> AdjustmentInfo:
        """Credit (``amount`` > 0) or debit (< 0) at once, or -- above the four-eyes amount -- wait for a second
        staff member (status ``pending``)."""
        check_currency(currency)
        if currency == PLAY:
            raise InvalidRequest("adjustments are for real-money balances")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or abs(amount) > MAX_DEPOSIT:
            raise InvalidRequest(f"amount must be a non-zero integer of minor units (+ credit, - debit) of at most "
                                 f"{MAX_DEPOSIT}, got {amount!r}")
        if category not in CATEGORIES:
            raise InvalidRequest(f"category must be one of {', '.join(CATEGORIES)}")
        why = check_reason(reason)

        def body(s: Session) -> AdjustmentInfo:
            staff = require_operator(s, staff_id)
            if isinstance(player_id, bool) or not isinstance(player_id, int) or s.get(Player, player_id) is None:
                raise NotFound(f"no player with id {player_id!r}")
            now = self._db.now()
            row = Adjustment(player_id=player_id, currency=currency, amount=amount, category=category, reason=why,
                             status="pending", requested_by=staff_id, created_at=now)
            s.add(row)
            s.flush()
            audit(s, now, staff, "adjust_request", why, player_id=player_id, target=f"adjustment:{row.id}",
                  detail={"amount": amount, "currency": currency, "category": category})
            if abs(amount) <= self._rules.settings.four_eyes_above:
                self._apply(s, row, staff_id, now)
            return _info(row)

        return self._db.run(body)

    def approve(self, staff_id: int, adjustment_id: int) -> AdjustmentInfo:
        """A second staff member applies a pending adjustment."""
        return self._decide(staff_id, adjustment_id, "applied", coded("adjustment_approved"))

    def reject(self, staff_id: int, adjustment_id: int, reason: str) -> AdjustmentInfo:
        return self._decide(staff_id, adjustment_id, "rejected", check_reason(reason))

    def _decide(self, staff_id: int, adjustment_id: int, status: str, why: str | Reason) -> AdjustmentInfo:
        def body(s: Session) -> AdjustmentInfo:
            staff = require_operator(s, staff_id)
            row = s.get(Adjustment, adjustment_id)
            if row is None:
                raise NotFound(f"no adjustment {adjustment_id!r}")
            wallet, ext = AccountKey.wallet(row.player_id, row.currency), AccountKey.external(row.currency)
            lock_accounts(s, [wallet, ext])  # serialises deciders
            s.refresh(row)
            if row.status != "pending":
                raise InvalidRequest(f"adjustment {adjustment_id} is {row.status}, not pending")
            if row.requested_by == staff_id:
                raise FourEyes(f"staff {staff_id} asked for adjustment {adjustment_id}: another staff member must "
                               "decide it")
            now = self._db.now()
            audit(s, now, staff, "adjust_approve" if status == "applied" else "adjust_reject", why,
                  player_id=row.player_id, target=f"adjustment:{row.id}",
                  detail={"amount": row.amount, "currency": row.currency})
            if status == "applied":
                self._apply(s, row, staff_id, now)
            else:
                row.status, row.decided_by, row.decided_at = "rejected", staff_id, now
            return _info(row)

        return self._db.run(body)

    @staticmethod
    def _apply(s: Session, row: Adjustment, staff_id: int, now: datetime) -> None:
        wallet, ext = AccountKey.wallet(row.player_id, row.currency), AccountKey.external(row.currency)
        accts = lock_accounts(s, [wallet, ext])
        transfer = (ext, wallet, row.amount) if row.amount > 0 else (wallet, ext, -row.amount)
        txn = post(s, accts, idem_key=f"adjust:{row.id}", kind="adjust", now=now,
                   req_hash=request_hash("adjust", id=row.id), transfers=[transfer])
        row.status, row.decided_by, row.decided_at, row.txn_id = "applied", staff_id, now, txn.id

    def list(self, *, status: str | None = None, player_id: int | None = None,
             limit: int = 200) -> list[AdjustmentInfo]:
        if status is not None and status not in STATUSES:
            raise InvalidRequest(f"status must be one of {', '.join(STATUSES)}")

        def body(s: Session) -> list[AdjustmentInfo]:
            q = select(Adjustment)
            if status is not None:
                q = q.where(Adjustment.status == status)
            if player_id is not None:
                q = q.where(Adjustment.player_id == player_id)
            return [_info(a) for a in s.scalars(q.order_by(Adjustment.id.desc()).limit(limit))]

        return self._db.read(body)
