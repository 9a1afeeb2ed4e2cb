"""Withdrawals and account verification (issue #30).

A verified player asks for a withdrawal of at most their cash balance (tickets are in ticket accounts and never
cashable; play money is not withdrawn): the amount moves at once from the balance to the player's
pending-withdrawal account (``withdraw_request``), so it cannot be played. Then exactly one of:

- staff **approve** it with the payout reference of the bank transfer they made: pending -> the outside world
  (``withdraw_paid``); approving it again changes nothing and answers the same withdrawal;
- staff **reject** it with a reason, or the player **cancels** it while pending: back to the balance
  (``withdraw_return``).

Staff set an account's verification (with a reason, in the audit log and the protection history). A player who
took a time-out or excluded themselves may still withdraw.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware, request_hash
from riverboat.store.audit_reasons import reason as coded
from riverboat.store.cashier import check_reference
from riverboat.store.errors import InvalidRequest, NotFound, NotVerified
from riverboat.store.models import Player, Protection, Withdrawal
from riverboat.store.money_audit import audit, check_reason, staff_member
from riverboat.store.postings import PLAY, AccountKey, check_amount, check_currency, lock_accounts, post
from riverboat.store.protections import record_change

STATUSES = ("pending", "paid", "rejected", "cancelled")


@dataclass(frozen=True, slots=True)
class WithdrawalInfo:
    id: int
    player_id: int
    currency: str
    amount: int
    status: str
    requested_at: datetime
    decided_at: datetime | None
    staff_id: int | None
    payout_reference: str | None
    reason: str | None


def _info(w: Withdrawal) -> WithdrawalInfo:
    return WithdrawalInfo(w.id, w.player_id, w.currency, w.amount, w.status, aware(w.requested_at),
                          aware(w.decided_at) if w.decided_at else None, w.staff_id, w.payout_reference, w.reason)


def _check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRequest(f"{what} must be a positive integer, got {value!r}")
    return value


class Withdrawals:
    def __init__(self, db: Database) -> None:
        self._db = db

    def request(self, player_id: int, currency: str, amount: int, idem_key: str) -> WithdrawalInfo:
        """The player asks to withdraw ``amount``: at once from the balance to pending (``InsufficientFunds`` if
        the balance does not cover it, ``NotVerified`` for an unverified account). ``idem_key``: the same key
        again answers the same withdrawal and moves nothing."""
        check_currency(currency)
        if currency == PLAY:
            raise InvalidRequest("play money cannot be withdrawn (R-GEN-3)")
        check_amount(amount)
        if not isinstance(idem_key, str) or not 1 <= len(idem_key) <= 200:
            raise InvalidRequest("a request id of 1 to 200 characters is required")
        key = f"withdraw:{player_id}:{idem_key}"

        def body(s: Session) -> WithdrawalInfo:
            if isinstance(player_id, bool) or not isinstance(player_id, int) or s.get(Player, player_id) is None:
                raise NotFound(f"no player with id {player_id!r}")
            wallet, pending = AccountKey.wallet(player_id, currency), AccountKey.pending_withdrawal(player_id,
                                                                                                    currency)
            accts = lock_accounts(s, [wallet, pending])
            done = s.scalar(select(Withdrawal).where(Withdrawal.request_key == key))
            if done is not None:
                if (done.currency, done.amount) != (currency, amount):
                    raise InvalidRequest("this request id was already used for another withdrawal")
                return _info(done)
            prot = s.get(Protection, player_id)
            if prot is None or not prot.verified:
                raise NotVerified(f"player {player_id} is not verified")
            now = self._db.now()
            row = Withdrawal(player_id=player_id, currency=currency, amount=amount, status="pending",
                             request_key=key, requested_at=now)
            s.add(row)
            s.flush()
            post(s, accts, idem_key=f"withdraw_request:{row.id}", kind="withdraw_request", now=now,
                 req_hash=request_hash("withdraw_request", id=row.id), transfers=[(wallet, pending, amount)])
            return _info(row)

        return self._db.run(body)

    def cancel(self, player_id: int, withdrawal_id: int) -> WithdrawalInfo:
        """The player cancels their own pending withdrawal: the amount is back in the balance. Another player's
        withdrawal is ``NotFound`` (as if it did not exist)."""
        _check_id(withdrawal_id, "withdrawal id")
        return self._decide(withdrawal_id, "cancelled", owner=player_id, staff_id=None, reason="cancelled by the "
                            "player", reference=None)

    def approve(self, staff_id: int | None, withdrawal_id: int, payout_reference: str) -> WithdrawalInfo:
        """Staff paid the withdrawal out (``payout_reference``: their transfer's reference). Approving a paid one
        again changes nothing; a rejected or cancelled one cannot be approved."""
        _check_id(withdrawal_id, "withdrawal id")
        check_reference(payout_reference, "payout reference")
        return self._decide(withdrawal_id, "paid", owner=None, staff_id=staff_id, reason=None,
                            reference=payout_reference)

    def reject(self, staff_id: int | None, withdrawal_id: int, reason: str) -> WithdrawalInfo:
        """Staff refuse the withdrawal (the reason is shown to the player): the amount is back in the balance."""
        _check_id(withdrawal_id, "withdrawal id")
        return self._decide(withdrawal_id, "rejected", owner=None, staff_id=staff_id, reason=check_reason(reason),
                            reference=None)

    def _decide(self, withdrawal_id: int, status: str, *, owner: int | None, staff_id: int | None,
                reason: str | None, reference: str | None) -> WithdrawalInfo:
        def body(s: Session) -> WithdrawalInfo:
            staff = staff_member(s, staff_id)
            found = s.get(Withdrawal, withdrawal_id)
            if found is None or (owner is not None and found.player_id != owner):
                raise NotFound(f"no withdrawal {withdrawal_id}")
            wallet = AccountKey.wallet(found.player_id, found.currency)
            pending = AccountKey.pending_withdrawal(found.player_id, found.currency)
            ext = AccountKey.external(found.currency)
            accts = lock_accounts(s, [wallet, pending, ext])  # serialises deciders: the status below is current
            s.refresh(found)
            if found.status == status == "paid":
                return _info(found)  # approved twice: the first approval stands, nothing moves
            if found.status != "pending":
                raise InvalidRequest(f"withdrawal {withdrawal_id} is {found.status}, not pending")
            now = self._db.now()
            kind = "withdraw_paid" if status == "paid" else "withdraw_return"
            target = ext if status == "paid" else wallet
            post(s, accts, idem_key=f"{kind}:{withdrawal_id}", kind=kind, now=now,
                 req_hash=request_hash(kind, id=withdrawal_id), transfers=[(pending, target, found.amount)])
            found.status, found.decided_at, found.staff_id = status, now, staff_id
            found.payout_reference, found.reason = reference, reason
            if status != "cancelled":
                audit(s, now, staff, "withdrawal_paid" if status == "paid" else "withdrawal_rejected",
                      reason or coded("paid_out", reference=reference), player_id=found.player_id,
                      target=f"withdrawal:{withdrawal_id}",
                      detail={"amount": found.amount, "currency": found.currency, "payout_reference": reference})
            s.flush()
            return _info(found)

        return self._db.run(body)

    def get(self, withdrawal_id: int) -> WithdrawalInfo:
        def body(s: Session) -> WithdrawalInfo:
            row = s.get(Withdrawal, withdrawal_id)
            if row is None:
                raise NotFound(f"no withdrawal {withdrawal_id}")
            return _info(row)

        return self._db.read(body)

    def list(self, *, status: str | None = None, player_id: int | None = None,
             limit: int = 200) -> list[WithdrawalInfo]:
        """Withdrawals, oldest first for ``pending`` (the queue), else newest first."""
        if status is not None and status not in STATUSES:
            raise InvalidRequest(f"status must be one of {', '.join(STATUSES)}")

        def body(s: Session) -> list[WithdrawalInfo]:
            q = select(Withdrawal)
            if status is not None:
                q = q.where(Withdrawal.status == status)
            if player_id is not None:
                q = q.where(Withdrawal.player_id == player_id)
            order = Withdrawal.id.asc() if status == "pending" else Withdrawal.id.desc()
            return [_info(w) for w in s.scalars(q.order_by(order).limit(limit))]

        return self._db.read(body)

    def set_verified(self, staff_id: int, player_id: int, verified: bool, reason: str) -> bool:
        """Staff verify (or un-verify) an account; the reason goes into the audit log and the protection history."""
        if not isinstance(verified, bool):
            raise InvalidRequest("verified must be true or false")
        why = check_reason(reason)

        def body(s: Session) -> bool:
            staff = staff_member(s, staff_id)
            if s.get(Player, player_id) is None:
                raise NotFound(f"no player with id {player_id!r}")
            now = self._db.now()
            row = s.get(Protection, player_id)
            if row is None:
                row = Protection(player_id=player_id, verified=False, updated_at=now)
                s.add(row)
            old, row.verified, row.updated_at = bool(row.verified), verified, now
            record_change(s, player_id, staff_id, now, "verified", {"from": old, "to": verified, "reason": why})
            audit(s, now, staff, "verify", why, player_id=player_id, target=None, detail={"verified": verified})
            return verified

        return self._db.run(body)
