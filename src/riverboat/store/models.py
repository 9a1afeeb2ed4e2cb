"""SQLAlchemy 2 typed ORM models.  The Alembic migrations in ``migrations/versions`` create exactly these tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
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


class AuthSession(Base):
    __tablename__ = "auth_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex of the token; never the token
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


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


class HandPlayer(Base):
    __tablename__ = "hand_players"
    __table_args__ = (Index("ix_hand_players_player", "player_id", "hand_pk"),)

    hand_pk: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    start_stack: Mapped[int] = mapped_column(BigInteger)
    change: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(128), unique=True)
    currency: Mapped[str] = mapped_column(String(8))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    fee: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))  # registering | running | finished | cancelled
    unregister_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentEntry(Base):
    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_pk", "player_id", name="uq_tentry_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_pk: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    status: Mapped[str] = mapped_column(String(16))  # registered | unregistered | refunded | disqualified
    ticket_id: Mapped[int | None] = mapped_column(ForeignKey("tickets.id"), nullable=True)
    # What the player paid in cash so far (entry, re-buys, add-ons); a ticket entry pays 0 here.
    paid_buy_in: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    paid_fee: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


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
