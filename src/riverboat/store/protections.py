"""Player protections a licence asks for (issue #30): deposit limits, the reality check, time-outs and
self-exclusion, and the account's verification (set by staff; only a verified account may withdraw).

- **Deposit limits** per rolling day (24 h), week (7 days) and month (30 days), per currency. A lower limit (or a
  first one) applies at once; a higher one, or removing one, only after the room's cooling-off (default 24 h,
  :class:`MoneySettings`), until when the old limit stays. Deposits credited and provider payments still pending in
  the period count against it.
- **Reality check**: every N minutes of play (the player's choice, 5 to 240, or off) the client shows the time
  played and the net result of the session.
- **Time-out** (24 hours to 6 weeks) and **self-exclusion** (6 months to 5 years, or permanent) take effect at once
  and cannot be shortened or lifted by the player: no new play and no deposit until they end; the balance can still
  be seen and withdrawn. A longer one may replace a running one.

:func:`check_may_play` is the one rule the money paths consult, inside their own transaction: ``Ledger.buy_in`` and
``top_up`` (a seat, a Speed Poker pool), ``Tournaments.register`` (tournaments, Sit & Go's, Twisters) and
``pay_in`` (re-buys, add-ons), and the deposits (:mod:`riverboat.store.cashier`). :meth:`Protections.places_in_play`
lists what a new block must end (the room command ``end_play``, docs/payments.md). Every change is kept in the
player's protection history (staff see it, with the settings, in the console).
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware
from riverboat.store.errors import DepositLimitReached, InvalidRequest, NotBlocked, NotFound, PlayBlocked
from riverboat.store.models import (
    Account,
    Deposit,
    DepositLimit,
    Player,
    Protection,
    ProtectionEvent,
    TableSeat,
    Tournament,
    TournamentEntry,
)
from riverboat.store.postings import ESCROW, check_amount, check_currency

PERIODS: dict[str, timedelta] = {"day": timedelta(days=1), "week": timedelta(days=7), "month": timedelta(days=30)}
_ADJECTIVE = {"day": "daily", "week": "weekly", "month": "monthly"}
TIMEOUT_HOURS = (24, 6 * 7 * 24)  # 24 hours to 6 weeks
EXCLUSION_MONTHS = (6, 60)  # 6 months to 5 years; or permanent
REALITY_MINUTES = (5, 240)


@dataclass(frozen=True, slots=True)
class MoneySettings:
    """The room's money settings (issue #30): the cooling-off before a raised deposit limit applies, and the amount
    (minor units) above which an operator adjustment needs a second staff member's approval."""

    cooling_off: timedelta = timedelta(hours=24)
    four_eyes_above: int = 50_000

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> MoneySettings:
        """``{"cooling_off_hours": 24, "four_eyes_above": 50000}`` (both optional)."""
        unknown = set(data) - {"cooling_off_hours", "four_eyes_above"}
        if unknown:
            raise ValueError(f"unknown money settings: {', '.join(sorted(unknown))}")
        hours = data.get("cooling_off_hours", 24)
        above = data.get("four_eyes_above", 50_000)
        if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 <= hours <= 24 * 90:
            raise ValueError("cooling_off_hours must be a number of hours from 0 to 2160")
        if isinstance(above, bool) or not isinstance(above, int) or above < 0:
            raise ValueError("four_eyes_above must be a non-negative integer of minor units")
        return MoneySettings(timedelta(hours=hours), above)


@dataclass
class MoneyRules:
    """The settings the money services share (:meth:`riverboat.store.Store.set_money_settings` replaces them)."""

    settings: MoneySettings = field(default_factory=MoneySettings)


@dataclass(frozen=True, slots=True)
class LimitInfo:
    period: str
    currency: str
    amount: int | None  # in force now (None: no limit)
    pending_amount: int | None  # what applies from pending_from (None with pending_clear: no limit)
    pending_clear: bool
    pending_from: datetime | None
    used: int  # deposited (and pending provider payments) in the period up to now


@dataclass(frozen=True, slots=True)
class ProtectionInfo:
    player_id: int
    verified: bool
    reality_check_minutes: int | None
    block_kind: str | None  # timeout | self_exclusion (while in force)
    blocked_from: datetime | None
    blocked_until: datetime | None  # None with a block_kind: permanent
    limits: list[LimitInfo]

    @property
    def may_play(self) -> bool:
        return self.block_kind is None


@dataclass(frozen=True, slots=True)
class ProtectionChange:
    at: datetime
    what: str
    actor_id: int | None  # None: the player
    detail: dict[str, Any]


def _when(at: datetime | None) -> str:
    return "permanently" if at is None else f"until {aware(at).strftime('%Y-%m-%d %H:%M')} UTC"


def money(amount: int, currency: str) -> str:
    """Minor units in plain words: 1050 EUR -> "10.50 EUR" (integer arithmetic, never a float)."""
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{whole}.{cents:02d} {currency}"


def active_block(row: Protection | None, now: datetime) -> Protection | None:
    """``row`` if it holds a time-out or self-exclusion in force at ``now``."""
    if row is None or row.block_kind is None:
        return None
    if row.blocked_until is not None and aware(row.blocked_until) <= now:
        return None
    return row


#: built once: every buy-in, top-up and registration reads it (a Core statement, no ORM object: bench/store_buy_in.py)
_BLOCK = select(Protection.block_kind, Protection.blocked_until).where(Protection.player_id == bindparam("p"))


def check_may_play(s: Session, player_id: int, now: datetime) -> None:
    """Raise :class:`PlayBlocked` if the player is in a time-out or self-excluded (the one rule every path that
    starts play consults, in its own transaction)."""
    row = s.connection().execute(_BLOCK, {"p": player_id}).first()
    if row is None or row.block_kind is None:
        return
    until = aware(row.blocked_until) if row.blocked_until is not None else None
    if until is not None and until <= now:
        return
    what = "taken a time-out" if row.block_kind == "timeout" else "excluded yourself from play"
    raise PlayBlocked(f"you have {what} {_when(until)}: you cannot play or deposit, but you can see your balance "
                      "and withdraw")


def check_blocked(s: Session, player_id: int, now: datetime) -> None:
    """Raise :class:`NotBlocked` unless a time-out or self-exclusion of the player is in force (what lets their
    registration in a tournament not yet started be refunded past its unregistration deadline)."""
    if active_block(s.get(Protection, player_id), now) is None:
        raise NotBlocked(f"player {player_id} has no time-out or self-exclusion in force")


def add_months(at: datetime, months: int) -> datetime:
    month0 = at.month - 1 + months
    year, month = at.year + month0 // 12, month0 % 12 + 1
    return at.replace(year=year, month=month, day=min(at.day, calendar.monthrange(year, month)[1]))


def _require_player(s: Session, player_id: int) -> None:
    if isinstance(player_id, bool) or not isinstance(player_id, int) or s.get(Player, player_id) is None:
        raise NotFound(f"no player with id {player_id!r}")


def _row(s: Session, player_id: int, now: datetime) -> Protection:
    row = s.get(Protection, player_id)
    if row is None:
        row = Protection(player_id=player_id, verified=False, updated_at=now)
        s.add(row)
    return row


def record_change(s: Session, player_id: int, actor_id: int | None, now: datetime, what: str,
                  detail: Mapping[str, Any]) -> None:
    s.add(ProtectionEvent(player_id=player_id, actor_id=actor_id, at=now, what=what, detail=dict(detail)))


def _settle_limit(row: DepositLimit, now: datetime) -> None:
    """Apply a pending (raised) limit whose cooling-off is over."""
    if row.pending_from is not None and aware(row.pending_from) <= now:
        row.amount = None if row.pending_clear else row.pending_amount
        row.pending_amount, row.pending_clear, row.pending_from = None, False, None


def _in_force(row: DepositLimit, now: datetime) -> int | None:
    if row.pending_from is not None and aware(row.pending_from) <= now:
        return None if row.pending_clear else row.pending_amount
    return row.amount


def deposited_since(s: Session, player_id: int, currency: str, since: datetime) -> int:
    """Deposits credited, and provider payments still pending, since ``since``."""
    return int(s.scalar(select(func.coalesce(func.sum(Deposit.amount), 0)).where(
        Deposit.player_id == player_id, Deposit.currency == currency, Deposit.status.in_(("credited", "pending")),
        Deposit.created_at > since)) or 0)


def check_deposit(s: Session, player_id: int, currency: str, amount: int, now: datetime) -> None:
    """Refuse a deposit while the player may not play, or one over any of their deposit limits (plain words)."""
    check_may_play(s, player_id, now)
    for row in s.scalars(select(DepositLimit).where(DepositLimit.player_id == player_id,
                                                    DepositLimit.currency == currency)):
        limit = _in_force(row, now)
        if limit is None:
            continue
        used = deposited_since(s, player_id, currency, now - PERIODS[row.period])
        if used + amount > limit:
            room = max(0, limit - used)
            raise DepositLimitReached(
                f"this deposit of {money(amount, currency)} would go over your {_ADJECTIVE[row.period]} deposit limit "
                f"of {money(limit, currency)}: you have deposited {money(used, currency)} in the last {row.period}, "
                f"so you can deposit at most {money(room, currency)} now")


class Protections:
    def __init__(self, db: Database, rules: MoneyRules) -> None:
        self._db = db
        self._rules = rules

    # ------------------------------------------------------------------------------------------ deposit limits
    def set_limit(self, player_id: int, currency: str, period: str, amount: int | None) -> LimitInfo:
        """The player sets (``amount``) or removes (None) a deposit limit: lower or first at once, higher or removed
        after the cooling-off (the old one stays in force until then)."""
        check_currency(currency)
        if period not in PERIODS:
            raise InvalidRequest(f"period must be one of {', '.join(PERIODS)}, got {period!r}")
        if amount is not None:
            check_amount(amount, "limit")

        def body(s: Session) -> LimitInfo:
            _require_player(s, player_id)
            now = self._db.now()
            row = s.get(DepositLimit, (player_id, currency, period))
            if row is None:
                row = DepositLimit(player_id=player_id, currency=currency, period=period, amount=None,
                                   pending_amount=None, pending_clear=False, pending_from=None)
                s.add(row)
            _settle_limit(row, now)
            old = row.amount
            if amount is not None and (old is None or amount <= old):  # stricter: at once
                row.amount, row.pending_amount, row.pending_clear, row.pending_from = amount, None, False, None
                applies = now
            else:  # looser: after the cooling-off
                row.pending_amount, row.pending_clear = amount, amount is None
                row.pending_from = applies = now + self._rules.settings.cooling_off
            record_change(s, player_id, None, now, "deposit_limit",
                          {"currency": currency, "period": period, "from": old, "to": amount,
                           "applies_at": applies.isoformat()})
            s.flush()
            return self._limit(s, row, now)

        return self._db.run(body)

    def _limit(self, s: Session, row: DepositLimit, now: datetime) -> LimitInfo:
        used = deposited_since(s, row.player_id, row.currency, now - PERIODS[row.period])
        pending = row.pending_from is not None and aware(row.pending_from) > now
        return LimitInfo(row.period, row.currency, _in_force(row, now), row.pending_amount if pending else None,
                         bool(row.pending_clear) and pending, aware(row.pending_from) if pending and row.pending_from
                         else None, used)

    # ------------------------------------------------------------------------------------------ reality check
    def set_reality_check(self, player_id: int, minutes: int | None) -> ProtectionInfo:
        if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int)
                                    or not REALITY_MINUTES[0] <= minutes <= REALITY_MINUTES[1]):
            raise InvalidRequest(f"the reality check interval is {REALITY_MINUTES[0]} to {REALITY_MINUTES[1]} "
                                 "minutes, or off")

        def body(s: Session) -> None:
            _require_player(s, player_id)
            now = self._db.now()
            row = _row(s, player_id, now)
            old, row.reality_check_minutes, row.updated_at = row.reality_check_minutes, minutes, now
            record_change(s, player_id, None, now, "reality_check", {"from": old, "to": minutes})

        self._db.run(body)
        return self.get(player_id)

    # ------------------------------------------------------------------------------------------ time-out, exclusion
    def take_timeout(self, player_id: int, hours: int) -> ProtectionInfo:
        """A time-out of ``hours`` (24 hours to 6 weeks), at once."""
        lo, hi = TIMEOUT_HOURS
        if isinstance(hours, bool) or not isinstance(hours, int) or not lo <= hours <= hi:
            raise InvalidRequest(f"a time-out lasts from {lo} hours to 6 weeks ({hi} hours)")
        return self._block(player_id, "timeout", lambda now: now + timedelta(hours=hours), {"hours": hours})

    def self_exclude(self, player_id: int, months: int | None) -> ProtectionInfo:
        """Self-exclusion for ``months`` (6 to 60), or permanently (None), at once."""
        lo, hi = EXCLUSION_MONTHS
        if months is not None and (isinstance(months, bool) or not isinstance(months, int)
                                   or not lo <= months <= hi):
            raise InvalidRequest(f"self-exclusion lasts from {lo} months to {hi // 12} years, or is permanent")
        return self._block(player_id, "self_exclusion",
                           lambda now: None if months is None else add_months(now, months),
                           {"months": months, "permanent": months is None})

    def _block(self, player_id: int, kind: str, until_of: Any, detail: dict[str, Any]) -> ProtectionInfo:
        def body(s: Session) -> None:
            _require_player(s, player_id)
            now = self._db.now()
            row = _row(s, player_id, now)
            until = until_of(now)
            current = active_block(row, now)
            if current is not None and (current.blocked_until is None
                                        or (until is not None and until < aware(current.blocked_until))):
                raise InvalidRequest(f"you already have a {(current.block_kind or '').replace('_', '-')} "
                                     f"{_when(current.blocked_until)}; it cannot be shortened or lifted")
            if current is None or kind == "self_exclusion":
                row.block_kind, row.blocked_from = kind, now
            row.blocked_until, row.updated_at = until, now
            record_change(s, player_id, None, now, kind,
                          detail | {"until": None if until is None else until.isoformat()})

        self._db.run(body)
        return self.get(player_id)

    # ------------------------------------------------------------------------------------------ reading
    def get(self, player_id: int) -> ProtectionInfo:
        def body(s: Session) -> ProtectionInfo:
            _require_player(s, player_id)
            now = self._db.now()
            row = s.get(Protection, player_id)
            block = active_block(row, now)
            limits = [self._limit(s, lim, now) for lim in s.scalars(
                select(DepositLimit).where(DepositLimit.player_id == player_id)
                .order_by(DepositLimit.currency, DepositLimit.period))]
            return ProtectionInfo(
                player_id, bool(row and row.verified), row.reality_check_minutes if row else None,
                block.block_kind if block else None, aware(block.blocked_from) if block and block.blocked_from
                else None, aware(block.blocked_until) if block and block.blocked_until else None, limits)

        return self._db.read(body)

    def history(self, player_id: int, limit: int = 200) -> list[ProtectionChange]:
        """Every change of the player's protections and verification, newest first."""
        def body(s: Session) -> list[ProtectionChange]:
            rows = s.scalars(select(ProtectionEvent).where(ProtectionEvent.player_id == player_id)
                             .order_by(ProtectionEvent.id.desc()).limit(limit))
            return [ProtectionChange(aware(r.at), r.what, r.actor_id, dict(r.detail)) for r in rows]

        return self._db.read(body)

    def may_play(self, player_id: int) -> bool:
        return self._db.read(lambda s: active_block(s.get(Protection, player_id), self._db.now()) is None)

    def require_may_play(self, player_id: int) -> None:
        """Raise :class:`PlayBlocked`, in plain words, while the player's time-out or self-exclusion is in force
        (a step towards play that moves no money yet: joining a table's waiting list)."""
        self._db.read(lambda s: check_may_play(s, player_id, self._db.now()))

    def places_in_play(self, player_id: int) -> list[str]:
        """Where the player's play goes on (what a time-out or self-exclusion ends, the same in one process and in a
        cluster): the cash tables and Speed Poker pools where they have a seat or chips, and the tournaments and
        Twisters not yet started where they are registered; sorted ids."""

        def body(s: Session) -> list[str]:
            stacks = s.scalars(select(Account.ref).where(Account.kind == ESCROW, Account.player_id == player_id,
                                                         Account.balance > 0))
            seats = s.scalars(select(TableSeat.table_id).where(TableSeat.player_id == player_id))
            entries = s.scalars(select(Tournament.tournament_id).join(
                TournamentEntry, TournamentEntry.tournament_pk == Tournament.id).where(
                TournamentEntry.player_id == player_id, TournamentEntry.status == "registered",
                Tournament.status == "registering"))
            return sorted({str(ref) for ref in (*stacks, *seats, *entries) if ref})

        return self._db.read(body)
