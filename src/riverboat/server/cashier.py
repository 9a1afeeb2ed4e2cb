"""The cashier's movement list: every ledger entry on a player's balances (cash and play money).

Read-only: it reads the store's ledger tables inside ``store.session()`` and changes nothing. A movement is one
entry on a player's wallet account: ``{"txn": id, "kind": "buy_in" | "cash_out" | "deposit" | ..., "currency",
"amount" (signed: + into the balance, - out of it), "table" (for table movements), "at" (ISO time)}``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from riverboat.store.models import Account, Entry, LedgerTxn
from riverboat.store.postings import CASH, ESCROW, PLAY_BALANCE


def movements(store: Any, player_id: int, limit: int = 100) -> list[dict[str, Any]]:
    with store.session() as s:
        wallets = s.scalars(
            select(Account).where(Account.player_id == player_id, Account.kind.in_((CASH, PLAY_BALANCE)))
        ).all()
        by_id = {a.id: a for a in wallets}
        if not by_id:
            return []
        rows = s.execute(
            select(Entry, LedgerTxn)
            .join(LedgerTxn, Entry.txn_id == LedgerTxn.id)
            .where(Entry.account_id.in_(list(by_id)))
            .order_by(LedgerTxn.id.desc())
            .limit(limit)
        ).all()
        out: list[dict[str, Any]] = []
        for entry, txn in rows:
            account = by_id[entry.account_id]
            table = None
            # the other side of a table movement is the player's escrow account at that table
            if txn.kind in ("buy_in", "top_up", "cash_out"):
                other = s.execute(
                    select(Account.ref).join(Entry, Entry.account_id == Account.id)
                    .where(Entry.txn_id == txn.id, Account.kind == ESCROW)
                ).scalar()
                table = other
            out.append({
                "txn": txn.id,
                "kind": txn.kind,
                "currency": account.currency,
                "amount": int(entry.amount),
                "table": table,
                "at": txn.created_at.isoformat() if txn.created_at else None,
            })
        return out
