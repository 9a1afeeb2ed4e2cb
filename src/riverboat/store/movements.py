"""A player's money movements (the cashier's history, R-WALLET): every ledger entry on the player's wallets -- the
real-money balance of each currency and the play-money balance -- newest first, read-only.

A movement is one entry on one wallet: ``amount`` is signed (+ into the balance, - out of it) and in integer minor
units; ``table_id`` names the table for buy-ins, top-ups and cash-outs (the other side of those transactions is
the player's escrow account at that table).  Pages are keyed on the transaction id, which only grows, so a page
never repeats or skips a movement when new ones arrive while a client pages back::

    page = store.movements.for_player(pid, limit=50)
    older = store.movements.for_player(pid, limit=50, before=page.next_before)   # None: no more
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware
from riverboat.store.errors import InvalidRequest
from riverboat.store.models import Account, Entry, LedgerTxn
from riverboat.store.postings import CASH, ESCROW, PLAY_BALANCE

# The transfers a player makes with the cashier and the tables (the default filter); withdraw_request (the amount
# set aside for a withdrawal), withdraw_return (a rejected or cancelled one back) and adjust (an operator's credit or
# debit) come from issue #30.
MONEY_KINDS: tuple[str, ...] = ("deposit", "withdraw", "withdraw_request", "withdraw_return", "adjust", "buy_in",
                                "top_up", "cash_out")
#: the statement's filter (issue #30): a group of movement kinds by name. ``tournament`` holds every ``t_*`` kind,
#: tickets, jackpots and Twister prizes (no settle_hand: chips moved in a hand are not a movement of the balance)
KIND_GROUPS: dict[str, tuple[str, ...]] = {
    "deposit": ("deposit",),
    "withdrawal": ("withdraw", "withdraw_request", "withdraw_return"),
    "table": ("buy_in", "top_up", "cash_out"),
    "tournament": ("t_register", "t_unregister", "t_refund", "t_cancel", "t_prize", "t_bounty", "t_int_cash",
                   "t_int_refund", "t_pay", "rebuy", "addon", "jackpot_out", "ticket_issue"),
    "adjustment": ("adjust",),
}
TABLE_KINDS: frozenset[str] = frozenset({"buy_in", "top_up", "cash_out"})
MAX_LIMIT = 500
MAX_TXN_ID = 2**31 - 1  # the largest id of ledger_txns (INTEGER: 32 bits on PostgreSQL)


@dataclass(frozen=True, slots=True)
class Movement:
    txn_id: int
    kind: str  # deposit | withdraw | buy_in | top_up | cash_out | tournament kinds (t_register, t_prize...)
    currency: str  # "EUR"... or "PLAY"
    amount: int  # signed minor units: + into the wallet, - out of it
    table_id: str | None  # for buy_in / top_up / cash_out
    at: datetime  # UTC

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``GET /api/cashier``."""
        return {"txn": self.txn_id, "kind": self.kind, "currency": self.currency, "amount": self.amount,
                "table": self.table_id, "at": self.at.isoformat()}


@dataclass(frozen=True, slots=True)
class MovementPage:
    items: list[Movement]
    next_before: int | None  # pass as ``before`` for the next (older) page; None when there is none


class Movements:
    def __init__(self, db: Database) -> None:
        self._db = db

    def for_player(
        self,
        player_id: int,
        *,
        limit: int = 100,
        before: int | None = None,
        kinds: Iterable[str] | None = MONEY_KINDS,
        currency: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> MovementPage:
        """The player's movements, newest first: at most ``limit`` (1..500), only those older than transaction
        ``before`` when given, of the given ``kinds`` (default: deposits, withdrawals, buy-ins, top-ups and
        cash-outs; ``None``: every kind, tournament entries and prizes included) and ``currency`` (default all),
        made at or after ``since`` and before ``until`` (aware datetimes; issue #30's statement).
        An unknown player simply has no movements.  Bad arguments raise InvalidRequest."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise InvalidRequest(f"limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}")
        if before is not None and (isinstance(before, bool) or not isinstance(before, int) or before < 1):
            raise InvalidRequest(f"before must be a positive transaction id, got {before!r}")
        kind_list = None if kinds is None else list(kinds)
        if kind_list is not None and (not kind_list or not all(isinstance(k, str) for k in kind_list)):
            raise InvalidRequest("kinds must be a non-empty list of movement kinds, or None for all")
        if currency is not None and not isinstance(currency, str):
            raise InvalidRequest(f"currency must be a string, got {currency!r}")

        def body(s: Session) -> MovementPage:
            q = (
                select(Entry.amount, LedgerTxn.id, LedgerTxn.kind, LedgerTxn.created_at, Account.currency)
                .join(LedgerTxn, Entry.txn_id == LedgerTxn.id)
                .join(Account, Entry.account_id == Account.id)
                .where(Account.player_id == player_id, Account.kind.in_((CASH, PLAY_BALANCE)))
            )
            if before is not None and before <= MAX_TXN_ID:  # above every id an INTEGER column holds: no bound
                q = q.where(LedgerTxn.id < before)  # (PostgreSQL refused the parameter: 500 through a cluster)
            if kind_list is not None:
                q = q.where(LedgerTxn.kind.in_(kind_list))
            if currency is not None:
                q = q.where(Account.currency == currency)
            if since is not None:
                q = q.where(LedgerTxn.created_at >= since)
            if until is not None:
                q = q.where(LedgerTxn.created_at < until)
            rows = s.execute(q.order_by(LedgerTxn.id.desc(), Entry.id.desc()).limit(limit + 1)).all()
            more = len(rows) > limit
            if more:
                cut = limit
                # never split one transaction's entries across pages (the cursor is a transaction id)
                while cut > 1 and rows[cut - 1].id == rows[cut].id:
                    cut -= 1
                rows = rows[:cut]
            table_txns = [r.id for r in rows if r.kind in TABLE_KINDS]
            tables: dict[int, str | None] = {}
            if table_txns:
                for txn_id, ref in s.execute(
                    select(Entry.txn_id, Account.ref).join(Account, Entry.account_id == Account.id)
                    .where(Entry.txn_id.in_(table_txns), Account.kind == ESCROW, Account.player_id == player_id)
                ):
                    tables[txn_id] = ref
            items = [Movement(txn_id=r.id, kind=r.kind, currency=r.currency, amount=int(r.amount),
                              table_id=tables.get(r.id), at=aware(r.created_at)) for r in rows]
            return MovementPage(items, items[-1].txn_id if more and items else None)

        return self._db.read(body)
