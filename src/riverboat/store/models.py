"""SQLAlchemy 2 typed ORM models.  The Alembic migrations in ``migrations/versions`` create exactly these tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64))
    username_key: Mapped[str] = mapped_column(String(64), unique=True)  # lower-cased, for case-free uniqueness
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="player")
    alias: Mapped[str | None] = mapped_column(String(16), nullable=True)
    alias_key: Mapped[str | None] = mapped_column(String(16), unique=True, nullable=True)  # lower-cased alias
    alias_changes: Mapped[int] = mapped_column(Integer, default=0)
    alias_must_change: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # issue #35: lock-out per account after repeated wrong passwords, and the staff second factor (RFC 6238 TOTP)
    failed_logins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    totp_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)  # base32; pending until confirmed
    totp_confirmed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # no code used twice


class AuthSession(Base):
    __tablename__ = "auth_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex of the token; never the token
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    # issue #35: what the player's session list shows
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    device: Mapped[str | None] = mapped_column(String(255), nullable=True)  # the User-Agent, shortened
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RecoveryCode(Base):
    """A staff account's one-time recovery code for the second factor (issue #35): only its SHA-256 is stored."""

    __tablename__ = "recovery_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ResetCode(Base):
    """A one-time password reset code issued by staff (or sent by the mail hook), issue #35: single use, expiring;
    only its SHA-256 is stored."""

    __tablename__ = "reset_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    issued_by: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)  # None: the mail hook
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Account(Base):
    """One ledger account.  ``key`` names it uniquely, e.g. ``cash:EUR:p42`` or ``escrow:EUR:t:table1:p42``."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(255), unique=True)
    kind: Mapped[str] = mapped_column(String(16), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    ref: Mapped[str | None] = mapped_column(String(128), nullable=True)  # table id, tournament id, pool name
    balance: Mapped[int] = mapped_column(BigInteger, default=0)  # cache of sum(entries.amount); checked by verify()


class LedgerTxn(Base):
    __tablename__ = "ledger_txns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idem_key: Mapped[str] = mapped_column(String(255), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    request_hash: Mapped[str] = mapped_column(String(64))
    result: Mapped[int] = mapped_column(BigInteger, default=0)  # the value the operation returned
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Entry(Base):
    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txns.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)  # signed: + credit to the account, - debit


class Hand(Base):
    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "hand_id", name="uq_hands_table_hand"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(128))
    hand_id: Mapped[str] = mapped_column(String(128))
    currency: Mapped[str | None] = mapped_column(String(8), nullable=True)  # None: no money (tournament chips)
    status: Mapped[str] = mapped_column(String(16), index=True)  # started | settled | void | recorded
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rake: Mapped[int] = mapped_column(BigInteger, default=0)
    txn_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_txns.id"), nullable=True)
    phh: Mapped[str | None] = mapped_column(Text, nullable=True)
    events: Mapped[Any] = mapped_column(JSON, nullable=True)
    # the history search's keys (issue #31), read from the PHH text when the hand is written (history/keys.py)
    game: Mapped[str | None] = mapped_column(String(32), nullable=True)
    stakes: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class HandPlayer(Base):
    __tablename__ = "hand_players"
    __table_args__ = (Index("ix_hand_players_player", "player_id", "hand_pk"),)

    hand_pk: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    start_stack: Mapped[int] = mapped_column(BigInteger)
    change: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # the player's play flags in the hand (issue #31, the statistics: history/play_flags.py ``Play``), written with
    # the hand; None: the record does not name the player (or the hand is not finished)
    play: Mapped[int | None] = mapped_column(SmallInteger, nullable=True)


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(128), unique=True)
    currency: Mapped[str] = mapped_column(String(8))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    fee: Mapped[int] = mapped_column(BigInteger)
    # registering | running | finished | cancelled | interrupted
    status: Mapped[str] = mapped_column(String(16))
    unregister_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    kind: Mapped[str | None] = mapped_column(String(8), nullable=True)  # sng | mtt
    spec: Mapped[Any] = mapped_column(JSON, nullable=True)  # the TournamentSpec (room) as JSON
    state: Mapped[Any] = mapped_column(JSON, nullable=True)  # the director's checkpoint (level clock...)
    guarantee: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    bounty: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # knockout part of buy_in
    pool_id: Mapped[str | None] = mapped_column(String(128), nullable=True)  # flights: the Day 2 pool
    overlay: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # paid by the house
    created_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentEntry(Base):
    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_pk", "player_id", name="uq_tentry_player"),
                      Index("ix_tentry_order", "tournament_pk", "entry_no"))  # the next entry number, by index

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_pk: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    # registered | unregistered | refunded | disqualified | eliminated | won | advanced | compensated
    status: Mapped[str] = mapped_column(String(16))
    ticket_id: Mapped[int | None] = mapped_column(ForeignKey("tickets.id"), nullable=True)
    # What the player paid in cash so far (entry, re-buys, add-ons); a ticket entry pays 0 here.
    paid_buy_in: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    paid_fee: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    paid_bounty: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # part of paid_buy_in
    entry_no: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # registration order
    chips: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # after the last full hand
    table_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)  # best place of a shared range
    place_to: Mapped[int | None] = mapped_column(Integer, nullable=True)  # last place of a shared range
    prize: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    bounty: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # PKO: on the player's head
    bounties_won: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    rebuys: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    addons: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    registered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    eliminated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentTable(Base):
    """One table of a running tournament: what a restart needs to re-open it (R-SERVER-1, R-TOURN-INT)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_pk", "table_id", name="uq_ttable"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_pk: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16))  # open | broken
    button: Mapped[int | None] = mapped_column(Integer, nullable=True)
    big_blind: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hands: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    elapsed: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")  # level clock at the last hand


class Ticket(Base):
    """A non-cashable tournament ticket with a face value (R-TOURN-GEN-2).  Its value sits in the owner's
    ``ticket`` account while ``status == 'issued'``."""

    __tablename__ = "tickets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    face_value: Mapped[int] = mapped_column(BigInteger)
    tournament_id: Mapped[str | None] = mapped_column(String(128), nullable=True)  # None: any tournament
    status: Mapped[str] = mapped_column(String(16))  # issued | redeemed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TwisterGame(Base):
    """A Twister-family tournament (R-TWIST, R-AOG, R-WILD): its type and, once spun, the drawn prize."""

    __tablename__ = "twister_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(128), unique=True)
    kind: Mapped[str] = mapped_column(String(16))  # twister | aog | wild
    currency: Mapped[str] = mapped_column(String(8))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    table_name: Mapped[str] = mapped_column(String(64))  # the published prize table used
    multiplier: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None until the spin
    prize: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    places: Mapped[Any] = mapped_column(JSON, nullable=True)  # prize per finishing place (R-TWIST-5), 1st first
    spun_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TwisterDraw(Base):
    """The audit trail: every random draw of a Twister-family tournament with the value drawn, so the published
    frequencies can be reproduced from the database. ``seq`` 0 is the prize spin; 1.. are the AoG jackpot
    triggers, one per player."""

    __tablename__ = "twister_draws"
    __table_args__ = (UniqueConstraint("tournament_id", "seq", name="uq_twister_draw_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(128), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # twister | aog | wild | jackpot
    table_name: Mapped[str] = mapped_column(String(64))  # prize table, or "aog-jackpot"
    currency: Mapped[str] = mapped_column(String(8))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    multiplier: Mapped[int | None] = mapped_column(Integer, nullable=True)
    random_value: Mapped[int] = mapped_column(BigInteger)
    random_range: Mapped[int] = mapped_column(BigInteger)
    deck_cycle: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deck_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    tier: Mapped[str | None] = mapped_column(String(16), nullable=True)  # jackpot tier won, if any
    tier_value: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    tier_range: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # prize pool set / jackpot paid
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TwisterDeck(Base):
    """Where a Wild Twister prize deck stands (R-WILD-4): the cycle, the games drawn in it and the cards left per
    multiplier. The future order is never stored: each game draws uniformly from the cards left."""

    __tablename__ = "twister_decks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deck_key: Mapped[str] = mapped_column(String(64), unique=True)  # e.g. wild:EUR:50
    cycle: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    remaining: Mapped[Any] = mapped_column(JSON)  # list of counts in the table's row order


class TwisterJackpot(Base):
    """Age of the Gods jackpot progress per currency (R-AOG-5): all stakes counted so far and what each tier has
    received, so contributions stay exact in integer minor units (riverboat.twister.jackpot)."""

    __tablename__ = "twister_jackpots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    currency: Mapped[str] = mapped_column(String(8), unique=True)
    stakes_total: Mapped[int] = mapped_column(BigInteger)
    contributed: Mapped[Any] = mapped_column(JSON)  # list of minor units per tier, Power first
class PlayerNote(Base):
    """A player's private note, colour tag and chat mute on another player (the browser client's player notes)."""

    __tablename__ = "player_notes"
    __table_args__ = (UniqueConstraint("owner_id", "target_id", name="uq_note_owner_target"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    note: Mapped[str] = mapped_column(Text, default="")
    tag: Mapped[str] = mapped_column(String(16), default="")
    muted: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableFence(Base):
    """The fencing token of a table hosted in a cluster (docs/cluster.md): the lease epoch of the host that owns
    it. Every money operation of a cluster table host carries its epoch and is refused unless it is this one."""

    __tablename__ = "table_fences"

    table_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    node: Mapped[str] = mapped_column(String(64))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class IntegrityFlag(Base):
    """A suspicion raised by the integrity scan (riverboat.integrity, R-INTEG-8): open until an operator voids it
    or acts on it."""

    __tablename__ = "integrity_flags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(255), index=True)  # pattern + players: one open flag per key
    pattern: Mapped[str] = mapped_column(String(32))
    players: Mapped[Any] = mapped_column(JSON)  # list of player ids (str, as in the hand records)
    score: Mapped[float] = mapped_column(Float)
    p_value: Mapped[float] = mapped_column(Float)
    hands: Mapped[int] = mapped_column(Integer)
    evidence: Mapped[Any] = mapped_column(JSON)  # hand ids "<table>/<hand>"
    detail: Mapped[Any] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | void | actioned
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountState(Base):
    """An account's standing (R-INTEG-5, R-AAI-3): active, warned, suspended or banned. No row = active."""

    __tablename__ = "account_states"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    warnings: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuditEntry(Base):
    """The operator audit log (R-OPER-4/-5): append-only. The migration adds triggers that refuse UPDATE and
    DELETE on this table; the store has no call that edits it."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    operator_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    operator: Mapped[str] = mapped_column(String(64))  # the operator's username at the time
    action: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    target: Mapped[str | None] = mapped_column(String(255), nullable=True)  # a flag id, tournament id...
    reason: Mapped[str] = mapped_column(Text)  # the English text (as typed by staff, or the room's own)
    detail: Mapped[Any] = mapped_column(JSON, nullable=True)
    # a reason the room wrote (issue #32, store.audit_reasons): its code and parameters; None when typed by staff
    # or written before the codes existed
    reason_code: Mapped[str | None] = mapped_column(String(48), nullable=True)
    reason_args: Mapped[Any] = mapped_column(JSON, nullable=True)


class TableSeat(Base):
    """The seat a cash player bought into (written by ``Ledger.buy_in`` with ``seat=``, removed by ``cash_out``, in
    their transactions): a restart that keeps the table stacks (R-SERVER-3 off) puts the player back there."""

    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)


class AaiUse(Base):
    """One artificial all-in a player was given (R-AAI-2: the allowance is per rolling 24 hours, so it survives a
    restart). ``at``: wall-clock seconds of the room's clock."""

    __tablename__ = "aai_uses"
    __table_args__ = (Index("ix_aai_uses_at", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    at: Mapped[float] = mapped_column(Float)


class LoginAddress(Base):
    """The network addresses an account logged in from (R-INTEG-7 multi-accounting signal, issue #13)."""

    __tablename__ = "login_addresses"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    logins: Mapped[int] = mapped_column(Integer, default=1)


class PlayerLocale(Base):
    """The language a player chose for the client (issue #32), kept on the account so it follows them."""

    __tablename__ = "player_locales"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    locale: Mapped[str] = mapped_column(String(8))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# ---------------------------------------------------------------------------------------------- money in and out
# (issue #30: riverboat.store.cashier, withdrawals, adjustments, protections)


class Deposit(Base):
    """One deposit: a bank transfer credited by staff (``method`` "bank", ``reference`` the transfer's reference) or
    a payment of a provider (``method`` the provider's name, ``reference`` its transaction id), pending until the
    provider's signed webhook confirms it. One row per (method, reference): the idempotency of both paths."""

    __tablename__ = "deposits"
    __table_args__ = (UniqueConstraint("method", "reference", name="uq_deposit_ref"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(BigInteger)
    method: Mapped[str] = mapped_column(String(32))
    reference: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16))  # pending | credited | failed
    staff_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    txn_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_txns.id"), nullable=True)
    balance_after: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    credited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Withdrawal(Base):
    """A withdrawal: its amount sits in the player's pending-withdrawal account from the request on, until staff pay
    it out (``paid``, with the payout reference) or reject it, or the player cancels it (both: back to the
    balance)."""

    __tablename__ = "withdrawals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | paid | rejected | cancelled
    request_key: Mapped[str] = mapped_column(String(255), unique=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    staff_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    payout_reference: Mapped[str | None] = mapped_column(String(128), nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)


class Adjustment(Base):
    """An operator's credit or debit of a player's balance with a reason (goodwill, correction, chargeback); above
    the room's four-eyes amount it waits (``pending``) for a second staff member's approval."""

    __tablename__ = "adjustments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(BigInteger)  # signed: + credit, - debit
    category: Mapped[str] = mapped_column(String(16))  # goodwill | correction | chargeback
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | applied | rejected
    requested_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    txn_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_txns.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Protection(Base):
    """A player's protections (responsible gambling) and verification: no row = unverified, no reality check, no
    time-out. ``blocked_until`` None with ``block_kind`` "self_exclusion": permanent."""

    __tablename__ = "player_protections"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    reality_check_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    block_kind: Mapped[str | None] = mapped_column(String(16), nullable=True)  # timeout | self_exclusion
    blocked_from: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    blocked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DepositLimit(Base):
    """A deposit limit per rolling period: ``amount`` applies now; a higher one waits in ``pending_amount`` until
    ``pending_from`` (the cooling-off). ``amount`` None: no limit."""

    __tablename__ = "deposit_limits"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    currency: Mapped[str] = mapped_column(String(8), primary_key=True)
    period: Mapped[str] = mapped_column(String(8), primary_key=True)  # day | week | month
    amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    pending_amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    pending_clear: Mapped[bool] = mapped_column(Boolean, default=False)  # the pending change removes the limit
    pending_from: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ProtectionEvent(Base):
    """The history of every protection setting and verification change (who: ``actor_id``, None = the player)."""

    __tablename__ = "protection_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    what: Mapped[str] = mapped_column(String(32))
    detail: Mapped[Any] = mapped_column(JSON)


class IntegrityScanState(Base):
    """Where the incremental integrity scan stands (issue #34): the last hand row it folded in (``cursor``) and its
    additive counts (``riverboat.integrity.ScanState``, zlib-compressed JSON). One row, id 1."""

    __tablename__ = "integrity_scan_state"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    cursor: Mapped[int] = mapped_column(BigInteger)
    hands: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
