"""Integrity records (issue #13): the flags the scan raises (riverboat.integrity), each account's standing
(R-INTEG-5, R-AAI-3: warned, suspended, banned) and the operator audit log (R-OPER-4/-5).

The audit log is append-only: :meth:`Integrity.record` adds an entry and nothing here updates or deletes one; the
migration adds database triggers that refuse UPDATE and DELETE on the table (SQLite and PostgreSQL). Every
operator action goes through :meth:`Integrity.record` in the same transaction as the change it records.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from riverboat.integrity import (
    FactsError,
    Flag,
    HandFacts,
    ScanConfig,
    ScanResult,
    ScanState,
    evaluate_state,
    facts_from_text,
    plain,
)
from riverboat.store._tx import Database, aware
from riverboat.store.accounts import STAFF_ROLES
from riverboat.store.audit_reasons import Reason, reason_columns
from riverboat.store.errors import InvalidRequest, NotFound, PermissionDenied
from riverboat.store.models import (
    AccountState,
    AuditEntry,
    Hand,
    IntegrityFlag,
    IntegrityScanState,
    LoginAddress,
    Player,
)

FINISHED = ("settled", "recorded")

STATUSES = ("active", "warned", "suspended", "banned")
FLAG_STATUSES = ("open", "void", "actioned")
#: what an audit entry may record
ACTIONS = ("warn", "suspend", "ban", "reinstate", "disqualify", "force_alias", "void_flag", "view_hand",
           # money in and out (issue #30, riverboat.store.money_audit)
           "deposit", "withdrawal_paid", "withdrawal_rejected", "adjust_request", "adjust_approve", "adjust_reject",
           "verify")
MAX_REASON = 2000


@dataclass(frozen=True, slots=True)
class FlagRecord:
    id: int
    pattern: str
    players: list[str]
    score: float
    p_value: float
    hands: int
    evidence: list[str]
    detail: dict[str, Any]
    status: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class AuditRecord:
    id: int
    at: datetime
    operator_id: int
    operator: str
    action: str
    player_id: int | None
    target: str | None
    reason: str
    detail: dict[str, Any] | None
    reason_code: str | None = None  # issue #32: a reason the room wrote (store.audit_reasons), else None
    reason_args: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class ScanRun:
    """One database scan: the flags over every hand scanned so far, how many hands this run read, and the
    display name of every player the flags name (player id -> ``username`` or ``username (alias)``)."""

    result: ScanResult
    read: int
    skipped: int
    cursor: int
    names: dict[str, str]


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: int
    status: str
    warnings: int


def _flag(f: IntegrityFlag) -> FlagRecord:
    return FlagRecord(f.id, f.pattern, list(f.players), f.score, f.p_value, f.hands, list(f.evidence),
                      dict(f.detail or {}), f.status, aware(f.created_at), aware(f.updated_at))


def _audit(e: AuditEntry) -> AuditRecord:
    return AuditRecord(e.id, aware(e.at), e.operator_id, e.operator, e.action, e.player_id, e.target, e.reason,
                       dict(e.detail) if e.detail is not None else None, e.reason_code,
                       dict(e.reason_args) if e.reason_args is not None else None)


def flag_key(pattern: str, players: Iterable[str]) -> str:
    return f"{pattern}:{','.join(players)}"


def _public(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified)


def require_staff(s: Session, operator_id: int) -> Player:
    op = s.get(Player, operator_id)
    if op is None or op.role not in STAFF_ROLES:
        raise PermissionDenied(f"player {operator_id} is not operator or security staff (R-OPER-5)")
    return op


class Integrity:
    def __init__(self, db: Database) -> None:
        self._db = db

    # ---------------------------------------------------------------------------------------------- flags
    def save_flags(self, flags: Iterable[Flag], names: Mapping[str, str] | None = None) -> list[FlagRecord]:
        """Store the flags of a scan: a flag whose pattern and players match an open one refreshes it (score,
        hands, evidence); a voided or actioned one is not raised again until the evidence grows (more hands).
        The players stay player ids; the flag's ``why`` and ``reasons`` (in ``detail``) name them by ``names``
        (player id -> display name, :meth:`display_names`)."""
        items = list(flags)
        names = dict(names or {})

        def body(s: Session) -> list[FlagRecord]:
            now = self._db.now()
            out = []
            for f in items:
                key = flag_key(f.pattern, f.players)
                rows = s.scalars(select(IntegrityFlag).where(IntegrityFlag.key == key)
                                 .order_by(IntegrityFlag.id.desc())).all()
                current = rows[0] if rows else None
                if current is not None and (current.status == "open" or f.hands <= current.hands):
                    if current.status != "open":
                        continue
                    row = current
                else:
                    row = IntegrityFlag(key=key, pattern=f.pattern, players=list(f.players), status="open",
                                        created_at=now)
                    s.add(row)
                row.score, row.p_value, row.hands = float(f.score), float(f.p_value), int(f.hands)
                row.evidence, row.updated_at = list(f.evidence), now
                shown = f.renamed(names)
                row.detail = dict(f.detail, why=plain(shown.why), reasons=[plain(r) for r in shown.reasons])
                s.flush()
                out.append(_flag(row))
            return out

        return self._db.run(body)

    def flags(self, status: str | None = "open", player: str | None = None, limit: int = 200) -> list[FlagRecord]:
        """Flags, most suspicious first (``status=None``: all; ``player``: those naming that player id)."""
        if status is not None and status not in FLAG_STATUSES:
            raise InvalidRequest(f"flag status must be one of {FLAG_STATUSES}")

        def body(s: Session) -> list[FlagRecord]:
            q = select(IntegrityFlag)
            if status is not None:
                q = q.where(IntegrityFlag.status == status)
            rows = [_flag(r) for r in s.scalars(q.order_by(IntegrityFlag.score.desc(), IntegrityFlag.id))]
            if player is not None:
                rows = [r for r in rows if player in r.players]
            return rows[:limit]

        return self._db.read(body)

    def flag(self, flag_id: int) -> FlagRecord:
        def body(s: Session) -> FlagRecord:
            row = s.get(IntegrityFlag, flag_id)
            if row is None:
                raise NotFound(f"no flag {flag_id}")
            return _flag(row)

        return self._db.read(body)

    # ---------------------------------------------------------------------------------------------- scanning
    def hands_after(self, cursor: int, batch: int = 2000) -> Iterator[tuple[int, HandFacts | None]]:
        """The finished hands recorded after hand row ``cursor``, oldest first, as (row id, facts) -- facts None
        for a void or unusable record. Stops before the first hand still being played, so a hand that finishes
        later is not skipped; reads ``batch`` rows at a time (the columns the scan needs, no ORM objects)."""
        def barrier(s: Session) -> int | None:
            return s.scalar(select(func.min(Hand.id)).where(Hand.status == "started", Hand.id > cursor))

        stop = self._db.read(barrier)
        last = cursor
        while True:
            def body(s: Session, after: int = last) -> list[Any]:
                q = select(Hand.id, Hand.table_id, Hand.hand_id, Hand.started_at, Hand.status, Hand.phh).where(
                    Hand.id > after)
                if stop is not None:
                    q = q.where(Hand.id < stop)
                return list(s.execute(q.order_by(Hand.id).limit(batch)).all())

            rows = self._db.read(body)
            if not rows:
                return
            for row_id, table_id, hand_id, started_at, status, phh in rows:
                facts = None
                if status in FINISHED and phh:
                    try:
                        day = aware(started_at).date().isoformat()
                        facts = facts_from_text(phh, f"{table_id}/{hand_id}", f"{table_id}@{day}")
                    except FactsError:
                        facts = None
                yield row_id, facts
            last = rows[-1][0]

    def scan_state(self) -> tuple[int, ScanState | None]:
        """(cursor, counts) of the incremental scan; (0, None) before the first scan or when the stored counts
        were made by another version of the detectors (then the next scan starts over)."""
        def body(s: Session) -> tuple[int, bytes | None]:
            row = s.get(IntegrityScanState, 1)
            return (int(row.cursor), bytes(row.state)) if row is not None else (0, None)

        cursor, blob = self._db.read(body)
        state = ScanState.from_bytes(blob) if blob is not None else None
        return (cursor, state) if state is not None else (0, None)

    def save_scan_state(self, cursor: int, state: ScanState) -> None:
        blob = state.to_bytes()

        def body(s: Session) -> None:
            row = s.get(IntegrityScanState, 1)
            if row is None:
                row = IntegrityScanState(id=1)
                s.add(row)
            row.cursor, row.hands, row.state, row.updated_at = cursor, state.hands, blob, self._db.now()

        self._db.run(body)

    def scan(self, config: ScanConfig | None = None, *, incremental: bool = True, save: bool = True,
             progress: Callable[[], None] | None = None) -> ScanRun:
        """Scan the stored hands (issue #34). ``incremental``: start from the stored counts and read only the hands
        recorded since the last scan, then store the counts again (``save``); else read every hand. The flags are
        those of every hand scanned so far either way (incremental = full). Memory: the counts, never the hands."""
        cfg = config or ScanConfig()
        cursor, state = self.scan_state() if incremental else (0, None)
        if state is None:
            cursor, state = 0, ScanState(cfg.gather)
        counts = {"read": 0, "skipped": 0, "cursor": cursor}

        def usable() -> Iterator[HandFacts]:
            for row_id, facts in self.hands_after(cursor):
                counts["cursor"] = row_id
                if facts is None:
                    counts["skipped"] += 1
                    continue
                counts["read"] += 1
                yield facts

        state.add_many(usable(), progress=progress)
        read, skipped, cursor = counts["read"], counts["skipped"], counts["cursor"]
        if incremental and save:
            self.save_scan_state(cursor, state)
        result = evaluate_state(state, cfg, self.addresses())
        names = self.display_names({p for f in result.flags for p in f.players})
        return ScanRun(result, read, skipped, cursor, names)

    def pending_hands(self) -> int:
        """Finished hands recorded after the incremental scan's cursor (the next scan's work)."""
        def body(s: Session) -> int:
            row = s.get(IntegrityScanState, 1)
            after = int(row.cursor) if row is not None else 0
            return int(s.scalar(select(func.count()).select_from(Hand).where(
                Hand.id > after, Hand.status.in_(FINISHED))) or 0)

        return self._db.read(body)

    def accounts_of(self, ids: Iterable[str]) -> dict[str, tuple[str, str | None]]:
        """Player id (as in the hand records) -> (username, alias) of those the store knows."""
        wanted = sorted({int(i) for i in ids if str(i).isdigit()})

        def body(s: Session) -> dict[str, tuple[str, str | None]]:
            out: dict[str, tuple[str, str | None]] = {}
            for chunk in range(0, len(wanted), 500):
                for p in s.scalars(select(Player).where(Player.id.in_(wanted[chunk:chunk + 500]))):
                    out[str(p.id)] = (p.username, p.alias)
            return out

        return self._db.read(body) if wanted else {}

    def display_names(self, ids: Iterable[str]) -> dict[str, str]:
        """Player id -> ``username`` or ``username (alias)`` when the player has an alias (R-ALIAS: the alias is
        what the other players saw at the table; staff see both)."""
        return {pid: f"{u} ({a})" if a and a != u else u for pid, (u, a) in self.accounts_of(ids).items()}

    # ---------------------------------------------------------------------------------------------- standing
    def standing(self, player_id: int) -> Standing:
        def body(s: Session) -> Standing:
            if s.get(Player, player_id) is None:
                raise NotFound(f"no player {player_id}")
            st = s.get(AccountState, player_id)
            return Standing(player_id, st.status if st else "active", st.warnings if st else 0)

        return self._db.read(body)

    def set_status(self, operator_id: int, player_id: int, status: str, reason: str,
                   flag_id: int | None = None) -> AuditRecord:
        """Warn, suspend, ban or reinstate an account (R-INTEG-5c, R-AAI-3), written to the audit log; the flag it
        answers (if any) becomes ``actioned``."""
        if status not in STATUSES:
            raise InvalidRequest(f"status must be one of {STATUSES}")
        action = {"warned": "warn", "suspended": "suspend", "banned": "ban", "active": "reinstate"}[status]

        def body(s: Session) -> AuditRecord:
            self._check(s, operator_id, player_id, reason)
            st = s.get(AccountState, player_id)
            if st is None:
                st = AccountState(player_id=player_id, status="active", warnings=0, updated_at=self._db.now())
                s.add(st)
            st.status, st.updated_at = status, self._db.now()
            if status == "warned":
                st.warnings += 1
            if flag_id is not None:
                self._close_flag(s, flag_id, "actioned")
            return self._append(s, operator_id, action, reason, player_id,
                                f"flag:{flag_id}" if flag_id is not None else None,
                                {"status": status, "warnings": st.warnings})

        return self._db.run(body)

    def blocked(self, player_id: int) -> str | None:
        """``suspended`` or ``banned`` when the account may not play, else None."""
        st = self.standing(player_id)
        return st.status if st.status in ("suspended", "banned") else None

    def void_flag(self, operator_id: int, flag_id: int, reason: str) -> AuditRecord:
        def body(s: Session) -> AuditRecord:
            self._check(s, operator_id, None, reason)
            row = self._close_flag(s, flag_id, "void")
            return self._append(s, operator_id, "void_flag", reason, None, f"flag:{flag_id}",
                                {"pattern": row.pattern, "players": list(row.players)})

        return self._db.run(body)

    def search_players(self, query: str, limit: int = 50) -> list[dict[str, Any]]:
        """Players whose username or alias contains ``query`` (ignoring case), with their standing."""
        needle = f"%{query.lower()}%"

        def body(s: Session) -> list[dict[str, Any]]:
            rows = s.scalars(select(Player).where((Player.username_key.like(needle)) | (Player.alias_key.like(needle)))
                             .order_by(Player.id).limit(limit)).all()
            states = {st.player_id: st for st in s.scalars(
                select(AccountState).where(AccountState.player_id.in_([p.id for p in rows])))}
            return [{"player_id": p.id, "username": p.username, "alias": p.alias, "role": p.role,
                     "status": states[p.id].status if p.id in states else "active"} for p in rows]

        return self._db.read(body)

    # ---------------------------------------------------------------------------------------------- addresses
    def note_login(self, player_id: int, address: str) -> None:
        """Remember that the account logged in from ``address`` (the multi-accounting signal, R-INTEG-7)."""
        if not isinstance(address, str) or not address or len(address) > 64:
            return

        def body(s: Session) -> None:
            row = s.get(LoginAddress, (player_id, address))
            now = self._db.now()
            if row is None:
                s.add(LoginAddress(player_id=player_id, address=address, first_seen=now, last_seen=now, logins=1))
            else:
                row.last_seen, row.logins = now, row.logins + 1

        self._db.run(body)

    def addresses(self) -> dict[str, set[str]]:
        """Player id (as in the hand records) -> the public addresses they logged in from. Loopback and private
        addresses are left out: a proxy or a shared network in front of the room would tie everyone together."""

        def body(s: Session) -> dict[str, set[str]]:
            out: dict[str, set[str]] = {}
            for row in s.scalars(select(LoginAddress)):
                if _public(row.address):
                    out.setdefault(str(row.player_id), set()).add(f"ip:{row.address}")
            return out

        return self._db.read(body)

    # ---------------------------------------------------------------------------------------------- audit log
    def record(self, operator_id: int, action: str, reason: str | Reason, *, player_id: int | None = None,
               target: str | None = None, detail: Mapping[str, Any] | None = None) -> AuditRecord:
        """Append one entry to the audit log (who, when, what, why: typed by staff, or a :class:`Reason` the room
        writes)."""
        if action not in ACTIONS:
            raise InvalidRequest(f"action must be one of {ACTIONS}")

        def body(s: Session) -> AuditRecord:
            self._check(s, operator_id, player_id, reason)
            return self._append(s, operator_id, action, reason, player_id, target, detail)

        return self._db.run(body)

    def audit_log(self, limit: int = 200, player_id: int | None = None) -> list[AuditRecord]:
        """The newest entries first (``player_id``: only those about that player)."""

        def body(s: Session) -> list[AuditRecord]:
            q = select(AuditEntry)
            if player_id is not None:
                q = q.where(AuditEntry.player_id == player_id)
            return [_audit(e) for e in s.scalars(q.order_by(AuditEntry.id.desc()).limit(limit))]

        return self._db.read(body)

    # ---------------------------------------------------------------------------------------------- helpers
    def _check(self, s: Session, operator_id: int, player_id: int | None, reason: str | Reason) -> None:
        require_staff(s, operator_id)
        if isinstance(reason, Reason):
            reason = reason.text
        if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
            raise InvalidRequest(f"give a reason (1 to {MAX_REASON} characters): it goes into the audit log")
        if player_id is not None and s.get(Player, player_id) is None:
            raise NotFound(f"no player {player_id}")

    def _close_flag(self, s: Session, flag_id: int, status: str) -> IntegrityFlag:
        row = s.get(IntegrityFlag, flag_id)
        if row is None:
            raise NotFound(f"no flag {flag_id}")
        if row.status != "open":
            raise InvalidRequest(f"flag {flag_id} is already {row.status}")
        row.status, row.updated_at = status, self._db.now()
        return row

    def _append(self, s: Session, operator_id: int, action: str, reason: str | Reason, player_id: int | None,
                target: str | None, detail: Mapping[str, Any] | None) -> AuditRecord:
        op = s.get(Player, operator_id)
        assert op is not None
        entry = AuditEntry(at=self._db.now(), operator_id=operator_id, operator=op.username, action=action,
                           player_id=player_id, target=target,
                           **reason_columns(reason if isinstance(reason, Reason) else reason.strip()),
                           detail=dict(detail) if detail is not None else None)
        s.add(entry)
        s.flush()
        return _audit(entry)
