"""The double-entry core: typed accounts, allowed flows, locking and balanced postings.

Every money movement is one :class:`~riverboat.store.models.LedgerTxn` with entries whose amounts sum to zero.
Accounts are locked (``SELECT ... FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite) in id order before
their balances are read, so concurrent operations serialise and never overdraw.  Only the ``external`` account (the
outside world: deposits, withdrawals and room-added money) may go negative, so the sum over all accounts of a
currency is always exactly zero.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Executable, Table, bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from riverboat.store.errors import InsufficientFunds, InvalidRequest, LedgerCorrupt
from riverboat.store.models import Account, Entry, LedgerTxn

PLAY = "PLAY"  # the play-money currency (R-GEN-3)

EXTERNAL = "external"  # outside world; may go negative by design
CASH = "cash"  # a player's real-money balance
PLAY_BALANCE = "play"  # a player's play-money balance
ESCROW = "escrow"  # chips on a table, one account per (table, player)
RAKE = "rake"  # house rake (R-RAKE)
FEES = "fees"  # house tournament entry fees (R-FEE)
PRIZE = "prize"  # a tournament's prize pool
JACKPOT = "jackpot"  # a jackpot pool (R-WALLET-9)
TICKET = "ticket"  # a player's non-cashable tournament tickets (R-TOURN-GEN-2)
PENDING_WITHDRAWAL = "withdrawal"  # a player's requested withdrawals, not playable, until paid or returned (#30)

KINDS = (EXTERNAL, CASH, PLAY_BALANCE, ESCROW, RAKE, FEES, PRIZE, JACKPOT, TICKET, PENDING_WITHDRAWAL)

# Money may only flow along these edges (debited kind -> credited kind).  Notably nothing leaves a ticket
# account except into a tournament (prize pool + fee), so tickets can never be turned into cash.
ALLOWED_FLOWS: frozenset[tuple[str, str]] = frozenset(
    {
        (EXTERNAL, CASH), (CASH, EXTERNAL),
        (EXTERNAL, PLAY_BALANCE), (PLAY_BALANCE, EXTERNAL),
        (CASH, ESCROW), (ESCROW, CASH), (PLAY_BALANCE, ESCROW), (ESCROW, PLAY_BALANCE),
        (ESCROW, ESCROW), (ESCROW, RAKE),
        (CASH, PRIZE), (PRIZE, CASH), (CASH, FEES), (FEES, CASH),
        (PLAY_BALANCE, PRIZE), (PRIZE, PLAY_BALANCE),
        (TICKET, PRIZE), (TICKET, FEES), (PRIZE, TICKET), (FEES, TICKET), (EXTERNAL, TICKET),
        (EXTERNAL, PRIZE), (PRIZE, EXTERNAL),
        (PRIZE, JACKPOT), (JACKPOT, CASH), (JACKPOT, PLAY_BALANCE),
        # a withdrawal (issue #30): requested (balance -> pending), then paid out or returned (rejected, cancelled)
        (CASH, PENDING_WITHDRAWAL), (PENDING_WITHDRAWAL, CASH), (PENDING_WITHDRAWAL, EXTERNAL),
        (PRIZE, FEES),  # a Twister's stakes above its drawn prize are the house's share (R-TWIST-8, issue #12)
    }
)

RESULT_IS_TXN_ID = -1  # stored result meaning "the operation returns its transaction id"

_ACCOUNTS = cast(Table, Account.__table__)
_INSERT_TXN = cast(Table, LedgerTxn.__table__).insert()
_INSERT_ENTRY = cast(Table, Entry.__table__).insert()
_ADD_BALANCE = (update(_ACCOUNTS).where(_ACCOUNTS.c.id == bindparam("k_id"))
                .values(balance=_ACCOUNTS.c.balance + bindparam("k_delta")))

_CURRENCY = re.compile(r"^[A-Z]{3,8}$")


def check_currency(currency: str) -> str:
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise InvalidRequest(f"currency must be 3-8 upper-case letters (e.g. 'EUR' or 'PLAY'), got {currency!r}")
    return currency


def check_amount(amount: int, what: str = "amount", *, allow_zero: bool = False) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidRequest(f"{what} must be an integer number of minor units, got {amount!r}")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise InvalidRequest(f"{what} must be {'non-negative' if allow_zero else 'positive'}, got {amount}")
    return amount


@dataclass(frozen=True, slots=True)
class AccountKey:
    kind: str
    currency: str
    player_id: int | None = None
    ref: str | None = None

    @property
    def key(self) -> str:
        parts = [self.kind, self.currency]
        if self.ref is not None:
            parts.append(f"r:{self.ref}")
        if self.player_id is not None:
            parts.append(f"p:{self.player_id}")
        return ":".join(parts)

    # Constructors for every account type.
    @staticmethod
    def wallet(player_id: int, currency: str) -> AccountKey:
        return AccountKey(PLAY_BALANCE if currency == PLAY else CASH, currency, player_id)

    @staticmethod
    def escrow(player_id: int, table_id: str, currency: str) -> AccountKey:
        return AccountKey(ESCROW, currency, player_id, table_id)

    @staticmethod
    def external(currency: str) -> AccountKey:
        return AccountKey(EXTERNAL, currency)

    @staticmethod
    def rake(currency: str) -> AccountKey:
        return AccountKey(RAKE, currency)

    @staticmethod
    def fees(currency: str) -> AccountKey:
        return AccountKey(FEES, currency)

    @staticmethod
    def twister_house(currency: str) -> AccountKey:
        """The house's share of Twister games: the stakes above each drawn prize (a ``fees`` account)."""
        return AccountKey(FEES, currency, None, "twister")

    @staticmethod
    def prize(tournament_id: str, currency: str) -> AccountKey:
        return AccountKey(PRIZE, currency, None, tournament_id)

    @staticmethod
    def jackpot(pool: str, currency: str) -> AccountKey:
        return AccountKey(JACKPOT, currency, None, pool)

    @staticmethod
    def ticket(player_id: int, currency: str) -> AccountKey:
        return AccountKey(TICKET, currency, player_id)

    @staticmethod
    def pending_withdrawal(player_id: int, currency: str) -> AccountKey:
        """The player's withdrawals requested and not yet paid out or returned (issue #30)."""
        return AccountKey(PENDING_WITHDRAWAL, currency, player_id)


def describe(key: AccountKey) -> str:
    if key.kind in (CASH, PLAY_BALANCE):
        return f"player {key.player_id}'s {key.currency} balance"
    if key.kind == ESCROW:
        return f"player {key.player_id}'s stack at table {key.ref!r}"
    if key.kind == TICKET:
        return f"player {key.player_id}'s ticket credit"
    if key.kind == PENDING_WITHDRAWAL:
        return f"player {key.player_id}'s pending withdrawals ({key.currency})"
    if key.kind == PRIZE:
        return f"the prize pool of tournament {key.ref!r}"
    if key.kind == JACKPOT:
        return f"jackpot pool {key.ref!r}"
    return f"the {key.kind} account ({key.currency})"


def lock_accounts(session: Session, keys: Iterable[AccountKey]) -> dict[AccountKey, Account]:
    """Create any missing accounts, then lock them all in id order and return them."""
    wanted = {k.key: k for k in keys}
    if not wanted:
        return {}
    query = select(Account).where(Account.key.in_(sorted(wanted))).order_by(Account.id).with_for_update()
    by_key = {acc.key: acc for acc in session.scalars(query).all()}
    if len(by_key) != len(wanted):
        # Create the missing accounts (a concurrent creator wins harmlessly), then lock the full set in id order.
        rows = [
            {"key": k.key, "kind": k.kind, "currency": k.currency, "player_id": k.player_id, "ref": k.ref,
             "balance": 0}
            for name, k in sorted(wanted.items()) if name not in by_key
        ]
        session.connection().execute(_create_accounts(session.get_bind().dialect.name), rows)
        by_key = {acc.key: acc for acc in session.scalars(query).all()}
    if len(by_key) != len(wanted):
        raise LedgerCorrupt("could not create or lock ledger accounts")
    return {k: by_key[name] for name, k in wanted.items()}


_CREATE_ACCOUNTS: dict[str, Executable] = {}


def _create_accounts(dialect: str) -> Executable:
    """INSERT of new accounts that leaves an existing one alone (a concurrent creator wins), built once."""
    stmt = _CREATE_ACCOUNTS.get(dialect)
    if stmt is None:
        insert = pg_insert if dialect == "postgresql" else sqlite_insert
        stmt = _CREATE_ACCOUNTS[dialect] = insert(_ACCOUNTS).on_conflict_do_nothing(index_elements=["key"])
    return stmt


def post(
    session: Session,
    accounts: dict[AccountKey, Account],
    *,
    idem_key: str,
    kind: str,
    req_hash: str,
    transfers: Sequence[tuple[AccountKey, AccountKey, int]],
    result: int = RESULT_IS_TXN_ID,
    now: object,
) -> LedgerTxn:
    """Record one balanced transaction made of ``(debit, credit, amount)`` transfers.  Refuses flows that are not
    allowed and any balance that would go negative (except the external account).  ``result`` is what the
    operation returns (replayed on an idempotent retry); by default the transaction id."""
    deltas: dict[AccountKey, int] = {}
    for debit, credit, amount in transfers:
        if amount <= 0:
            raise InvalidRequest(f"transfer amounts must be positive, got {amount}")
        if debit.currency != credit.currency:
            raise InvalidRequest("a transfer cannot change currency")
        if (debit.kind, credit.kind) not in ALLOWED_FLOWS:
            raise InvalidRequest(f"money may not move from {describe(debit)} to {describe(credit)}")
        deltas[debit] = deltas.get(debit, 0) - amount
        deltas[credit] = deltas.get(credit, 0) + amount
    if sum(deltas.values()) != 0:  # pragma: no cover - impossible by construction, kept as a guard
        raise LedgerCorrupt("unbalanced transaction")
    for key, delta in deltas.items():
        acc = accounts[key]
        if key.kind != EXTERNAL and acc.balance + delta < 0:
            raise InsufficientFunds(
                f"{describe(key)} holds {acc.balance}, which does not cover {-delta}"
            )
    # Written with prebuilt statements (no ORM unit of work: posting is on every money path); the locked accounts'
    # balances are updated in the database and in the session's objects alike.
    session.flush()  # anything the caller added first is written before the transaction
    conn = session.connection()
    inserted = conn.execute(_INSERT_TXN, {"idem_key": idem_key, "kind": kind, "request_hash": req_hash,
                                          "result": result, "created_at": now}).inserted_primary_key
    assert inserted is not None
    txn = LedgerTxn(id=inserted[0], idem_key=idem_key, kind=kind, request_hash=req_hash, result=result,
                    created_at=now)  # what was written (not added to the session: nothing more to write)
    moved = [(accounts[key], delta) for key, delta in deltas.items() if delta != 0]
    if moved:  # (a transaction may move nothing, e.g. closing empty pools)
        conn.execute(_INSERT_ENTRY, [{"txn_id": txn.id, "account_id": acc.id, "amount": d} for acc, d in moved])
        conn.execute(_ADD_BALANCE, [{"k_id": acc.id, "k_delta": d} for acc, d in moved])
    for acc, d in moved:
        set_committed_value(acc, "balance", acc.balance + d)
    return txn
