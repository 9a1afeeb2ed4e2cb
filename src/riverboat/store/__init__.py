"""Persistent state of the room: accounts, aliases, the double-entry ledger and the hand-history store.

Synchronous SQLAlchemy 2 on SQLite (default; WAL mode) or PostgreSQL (psycopg 3).  The async room and server call
it through one path, the room's store gateway (``riverboat.room.gateway``: group commit, a store process).  Every
method opens and commits its own transaction; a method either does everything it says
or raises a :class:`StoreError` subclass and changes nothing.

Public API (stable; all chip amounts are ``int`` minor units, never floats)::

    from riverboat.store import Store, StoreError, InsufficientFunds, AliasRefused, AuthError, ...

    store = Store(url=None, *, clock=None, password_hasher=None)
        # url: explicit, else $RIVERBOAT_DATABASE_URL, else sqlite file under platformdirs.user_data_dir("riverboat")
        # clock: () -> aware datetime (UTC); injected for tests.  password_hasher: argon2 PasswordHasher (argon2id)
    store.upgrade()                      # alembic upgrade head (also: `riverboat db upgrade [--database-url URL]`)
    store.revision() -> str | None       # current schema revision; `riverboat db check` audits the ledger
    store.session()                      # context manager -> sqlalchemy.orm.Session inside a transaction
    store.dispose()

    # integrity (issue #13): flags of the scan, account standing, the append-only operator audit log
    store.integrity.save_flags(flags) ; .flags(status="open", player=None) ; .flag(id) ; .void_flag(op, id, reason)
    store.integrity.standing(player_id) ; .set_status(op, player_id, "warned"|"suspended"|"banned"|"active", reason)
    store.integrity.record(op, action, reason, player_id=, target=, detail=) ; .audit_log(limit, player_id=None)
    # a suspended or banned account cannot log in and its tokens stop authenticating (AccountBlocked, an AuthError)

    # accounts (R-OPER roles: "player", "operator", "security", "admin")
    store.accounts.register(username, password, role="player") -> PlayerInfo   # UsernameTaken if taken
    store.accounts.login(username, password) -> str           # session token; assigns an alias on first login
    store.accounts.authenticate(token) -> PlayerInfo           # AuthError if unknown/expired/logged out
    store.accounts.logout(token) ; store.accounts.get(player_id) -> PlayerInfo ; .by_username(name) -> PlayerInfo|None
    store.accounts.set_role(operator_id, player_id, role) -> PlayerInfo
    # PlayerInfo(id, username, role, alias, alias_changes, alias_must_change, is_operator)

    # aliases (R-ALIAS): ^[A-Za-z0-9]{4,16}$, unique case-insensitively, one per player, changeable once
    store.aliases.set(player_id, alias) -> str     # first choice (only while the player has no alias)
    store.aliases.change(player_id, alias) -> str  # the single permitted change (AliasRefused says why)
    store.aliases.check(alias) -> None             # raises AliasRefused(reason) if not acceptable
    store.aliases.reject(operator_id, player_id, reason) -> str # operator: neutral alias, player must choose again
    store.aliases.force_rename(operator_id, player_id, alias) -> str   # operator sets it directly
    store.aliases.lookup(alias) -> int | None      # player id, ignoring case

    # ledger: balanced double-entry transactions, each with a unique idempotency key.  Replaying a key with the
    # same request returns the original result and changes nothing; with a different request -> IdempotencyConflict.
    # currency: ISO-like code such as "EUR"; "PLAY" is the play-money balance (never raked, R-GEN-3).
    store.ledger.deposit(player_id, currency, amount, idem_key) -> int (txn id)      # operator/cashier
    store.ledger.withdraw(player_id, currency, amount, idem_key) -> int
    store.ledger.buy_in(player_id, table_id, amount, idem_key, *, currency="EUR",
                        min_buy_in=0, max_buy_in=None) -> int          # R-BUYIN; refused while already seated
    store.ledger.top_up(player_id, table_id, amount, idem_key, *, currency="EUR", max_buy_in=None) -> int
        # buy_in/top_up once=True: a used idem_key raises IdempotentReplay (keys from WebSocket frame ids)
    store.ledger.cash_out(player_id, table_id, idem_key, *, currency="EUR") -> int (amount returned)
    store.ledger.table_stack(player_id, table_id, currency="EUR") -> int
    store.ledger.table_stacks(table_id, currency="EUR") -> dict[player_id, int]   # non-empty stacks (after restart)
    store.ledger.start_hand(table_id, hand_id, seats_and_stacks: Mapping[player_id, stack], *, currency="EUR")
        # stacks must equal the players' table escrow; one unsettled hand per table; chips do not move yet
    store.ledger.settle_hand(table_id, hand_id, stack_changes: Mapping[player_id, int], rake: int,
                             phh: str, events: list[dict]) -> int
        # ONE transaction: stack changes + rake (sum(changes) + rake == 0), hand history saved, hand marked settled
    store.ledger.void_unsettled_hands(*, cash_out_on_crash=False) -> list[(table_id, hand_id)]   # R-SERVER
    store.ledger.kept_stacks() -> list[KeptStack(table_id, currency, player_id, chips, seat)]  # escrow on restart
    store.ledger.hands_dealt(table_id) -> int     # buy_in(..., seat=n) keeps the seat until cash_out
    store.accounts.record_aai_use(player_id, at) ; store.accounts.aai_uses_since(since) -> [(player_id, at)]  # R-AAI-2
    store.ledger.balance(player_id, currency="EUR") -> int           # cash (or play money) balance
    store.ledger.account_balance(key: AccountKey) -> int ; store.ledger.total(currency) -> int  (always 0)
    store.ledger.balances(currency=None) -> dict[account key, int] ; store.ledger.transaction_count() -> int
    store.ledger.verify() -> None                # raises LedgerCorrupt if any txn is unbalanced / cache drifted

    # tournaments (R-FEE, R-TOURN-REG, R-TOURN-GEN-2, R-WALLET-5/6/9)
    store.tournaments.create(tournament_id, currency, buy_in, fee, *, unregister_deadline=None, name=None, kind=None,
                             spec=None, guarantee=0, bounty=0, pool_id=None)   # bounty: knockout part of buy_in
    store.tournaments.register(player_id, tournament_id, idem_key, *, ticket_id=None, late=False, once=False) -> int
        # register/pay_in once=True: a used idem_key raises IdempotentReplay (keys from WebSocket frame ids)
    store.tournaments.unregister(player_id, tournament_id, idem_key, *, protection=False) -> int  # refused after deadline/start (protection: a time-out/exclusion, deadline or not)
    store.tournaments.start(tournament_id) ; .finish(tournament_id) ; .status(tournament_id) -> str
    store.tournaments.cancel(tournament_id) -> list[player_id]   # R-TOURN-REG-4: refunds everyone
    store.tournaments.add_to_prize_pool(tournament_id, amount, idem_key)          # room money (freerolls)
    store.tournaments.pay_in(player_id, tournament_id, buy_in, fee, idem_key, kind="rebuy"|"addon")
    store.tournaments.refund_entry(tournament_id, player_id, idem_key)   # interrupted: buy-ins + fees back
    store.tournaments.disqualify(operator_id, tournament_id, player_id)  # R-INTEG-5: no refund
    store.tournaments.prize_pool(tournament_id) -> int ; .registered(tournament_id) -> list[player_id]
    store.tournaments.pay_prize(tournament_id, player_id, amount, idem_key) ; .pay_bounty(...) ; .bounty_pool(tid)
    store.tournaments.pay_overlay(tournament_id, idem_key) -> overlay ; .close(tournament_id, idem_key) -> leftover
    # a running tournament (riverboat.store.tournament_play): start, seat, hand_done(HandCheckpoint) -- one
    # transaction per completed hand with its eliminations and payments --, finish_unplayed, snapshot, unfinished,
    # history(player_id), interrupt(tournament_id, awards, house_in)
    store.tournaments.issue_ticket(player_id, currency, face_value, idem_key, *, tournament_id=None,
                                   from_tournament=None) -> ticket id   # from a satellite's prize pool
    store.tournaments.tickets(player_id, unused_only=True) -> list[TicketInfo]
    store.tournaments.jackpot_contribute(tournament_id, pool, amount, idem_key) ; .jackpot_pay(pool, player_id,
        currency, amount, idem_key) ; .jackpot_balance(pool, currency) -> int

    # money movements (cashier history, R-WALLET): entries on the player's wallets, newest first, keyset pages
    store.movements.for_player(player_id, *, limit=100, before=None, kinds=MONEY_KINDS, currency=None)
        -> MovementPage(items: list[Movement], next_before: txn id | None)
        # MONEY_KINDS = deposit, withdraw, buy_in, top_up, cash_out; kinds=None: every kind (tournaments too)
    # Movement(txn_id, kind, currency, amount (signed int), table_id, at) ; .to_dict() (the cashier's JSON form)

    # money in and out (issue #30; docs/store.md "Money in and out"): deposits, withdrawals, adjustments, protections
    store.cashier.credit_bank(pid, cur, amount, reference, staff_id=None) -> DepositResult(deposit_id, movement_id,
        balance, replayed) ; .create_payment(pid, provider, cur, amount, txn_id) ; .confirm_payment(provider, txn_id,
        amount, cur) ; .deposits(player_id=None, status=None)
    store.withdrawals.request(pid, cur, amount, request_id) ; .cancel(pid, id) ; .approve(staff, id, payout_ref)
        ; .reject(staff, id, reason) ; .list(status=None, player_id=None) ; .set_verified(staff, pid, bool, reason)
    store.adjustments.request(staff, pid, cur, signed_amount, category, reason) ; .approve(other_staff, id) ; .reject
    store.protections.set_limit(pid, cur, "day"|"week"|"month", amount|None) ; .set_reality_check(pid, minutes|None)
        ; .take_timeout(pid, hours) ; .self_exclude(pid, months|None) ; .get(pid) ; .history(pid) ; .may_play(pid)
        ; .places_in_play(pid)  # the tables, pools and unstarted tournaments a time-out/exclusion ends
    # a time-out or self-exclusion: buy_in, top_up, tournaments.register/pay_in and deposits raise PlayBlocked

    # hand history (R-INTEG-8)
    store.hands.get(table_id, hand_id) -> HandRecord | None
    store.hands.for_player(player_id, limit=100, include_void=False, table_id=None) -> list[HandRecord]  # newest 1st
    store.hands.for_table(table_id, limit=100, include_void=False) -> list[HandRecord]
    store.hands.record(table_id, hand_id, players, phh, events, changes=None)   # no money (tournament chips)
    # HandRecord(table_id, hand_id, status, currency, started_at, ended_at, rake, phh, events, start_stacks, changes)

See ``docs/store.md`` for the account types, idempotency and the crash rule.
"""

from __future__ import annotations

from riverboat.store.accounts import PlayerInfo
from riverboat.store.errors import (
    AccountBlocked,
    AliasRefused,
    AuthError,
    IdempotencyConflict,
    IdempotentReplay,
    InsufficientFunds,
    InvalidRequest,
    LedgerCorrupt,
    NotFound,
    PermissionDenied,
    StoreError,
    UsernameTaken,
)
from riverboat.store.hands import HandRecord
from riverboat.store.movements import MONEY_KINDS, Movement, MovementPage
from riverboat.store.postings import PLAY, AccountKey
from riverboat.store.store import Store
from riverboat.store.tournaments import TicketInfo

__all__ = [
    "MONEY_KINDS",
    "PLAY",
    "AccountKey",
    "AliasRefused",
    "AccountBlocked",
    "AuthError",
    "HandRecord",
    "IdempotencyConflict",
    "IdempotentReplay",
    "InsufficientFunds",
    "InvalidRequest",
    "LedgerCorrupt",
    "Movement",
    "MovementPage",
    "NotFound",
    "PermissionDenied",
    "PlayerInfo",
    "Store",
    "StoreError",
    "TicketInfo",
    "UsernameTaken",
]
