"""Account security (issue #35): the staff second factor (RFC 6238 TOTP, with one-time recovery codes), lock-out
per account after repeated wrong passwords, a player's password change and their list of sessions, and one-time
password reset codes issued by staff (or sent by an operator's mail hook).

Secrets at rest: the TOTP secret is stored as it is (the room must compute codes from it); recovery and reset codes
are high-entropy random strings of which only a SHA-256 digest is stored, as for session tokens. Every staff login,
failed staff login, enrolment, second-factor reset, reset code and lock release is written to the audit log in the
same transaction as the change it records.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pyotp
from argon2 import PasswordHasher
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from riverboat.errors import RiverboatError
from riverboat.store._tx import Database, aware
from riverboat.store.audit_reasons import Reason, reason, reason_columns
from riverboat.store.errors import (
    AlreadyEnrolled,
    AuthError,
    BadResetCode,
    BadSecondFactor,
    EnrolmentRequired,
    InvalidRequest,
    NotFound,
    NotStaff,
    PermissionDenied,
    SecondFactorRequired,
    WrongPassword,
)
from riverboat.store.models import AuditEntry, AuthSession, Player, RecoveryCode, ResetCode

STAFF_ROLES = ("operator", "security", "admin")  # the same as accounts.STAFF_ROLES (accounts imports this module)
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read out over the phone without mistakes


@dataclass(frozen=True, slots=True)
class SecurityPolicy:
    """The room's account-security settings (``Store(security=...)``; ``riverboat serve`` options)."""

    #: staff sessions end sooner than players' (the store's ``session_ttl``)
    staff_session_ttl: timedelta = timedelta(hours=2)
    #: this many wrong passwords in a row lock the account ...
    lockout_after: int = 10
    #: ... for this long (or until staff release it)
    lockout_for: timedelta = timedelta(minutes=15)
    #: how long a password reset code stays valid
    reset_code_ttl: timedelta = timedelta(hours=1)
    recovery_codes: int = 10
    issuer: str = "Riverboat"  # the name authenticator apps show


@dataclass(frozen=True, slots=True)
class Enrolment:
    """A TOTP secret for an authenticator app: ``uri`` is the ``otpauth://`` provisioning URI (the QR code's text).
    ``recovery_codes`` are given once the enrolment is confirmed (empty before)."""

    secret: str
    uri: str
    recovery_codes: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One live session of a player, as their session list shows it."""

    id: int
    created_at: datetime
    last_seen: datetime | None
    expires_at: datetime
    address: str | None
    device: str | None
    current: bool


@dataclass(frozen=True, slots=True)
class IssuedResetCode:
    player_id: int
    username: str
    code: str  # shown once: to the staff member who issued it, or handed to the mail hook
    expires_at: datetime


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _random_code(length: int) -> str:
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(length))
    return "-".join(raw[i:i + 5] for i in range(0, length, 5))


def _normal(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch.isalnum())


def totp_step(secret: str, code: str, now: datetime) -> int | None:
    """The time step ``code`` is valid for (this one or a neighbour: clocks drift), or None."""
    code = code.strip().replace(" ", "")
    if len(code) != 6 or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret)
    for offset in (0, -1, 1):
        if hmac.compare_digest(totp.at(now, counter_offset=offset), code):
            return int(totp.timecode(now)) + offset
    return None


def audit(s: Session, now: datetime, actor: Player, action: str, reason: str | Reason,
          player_id: int | None = None, detail: dict[str, object] | None = None) -> None:
    """Append one audit entry (the log is append-only: AuditEntry, R-OPER-4). ``reason``: as typed by staff, or a
    :class:`Reason` the room writes (issue #32: shown in the staff member's language)."""
    s.add(AuditEntry(at=now, operator_id=actor.id, operator=actor.username, action=action, player_id=player_id,
                     target=None, **reason_columns(reason), detail=detail))


def check_second_factor(s: Session, p: Player, code: str | None, now: datetime) -> RiverboatError | None:
    """A staff login's second factor: None when ``code`` is a valid TOTP code (not used before) or an unused
    recovery code (now used); else the refusal, after the failure is audited (the caller commits, then raises)."""
    if not p.totp_confirmed or not p.totp_secret:
        audit(s, now, p, "staff_login_failed", reason("no_second_factor"), p.id)
        return EnrolmentRequired(f"staff account {p.id} has no confirmed second factor")
    if not code:
        return SecondFactorRequired(f"staff account {p.id} logged in without a code")
    step = totp_step(p.totp_secret, code, now)
    if step is not None and (p.totp_last_step is None or step > p.totp_last_step):
        p.totp_last_step = step
        return None
    if step is None:
        row = s.scalar(select(RecoveryCode).where(RecoveryCode.player_id == p.id,
                                                  RecoveryCode.code_hash == digest(_normal(code)),
                                                  RecoveryCode.used_at.is_(None)))
        if row is not None:
            row.used_at = now
            audit(s, now, p, "recovery_code_used", reason("recovery_code_login"), p.id)
            return None
    why = "a code already used" if step is not None else "a wrong code"
    audit(s, now, p, "staff_login_failed",
          reason("second_factor_reused" if step is not None else "second_factor_wrong"), p.id)
    return BadSecondFactor(f"staff account {p.id}: {why}")


class AccountSecurity:
    """``store.security``: enrolment, recovery, reset codes, sessions, password change, lock release."""

    def __init__(self, db: Database, hasher: PasswordHasher, policy: SecurityPolicy,
                 check_password: Callable[[str, str], tuple[int, str]]) -> None:
        self._db = db
        self._hasher = hasher
        self.policy = policy
        self._check_password = check_password  # Accounts.check_password: lock-out and failure counting included

    # ------------------------------------------------------------------------------------- staff second factor
    def _verified_staff(self, username: str, password: str) -> int:
        player_id, role = self._check_password(username, password)
        if role not in STAFF_ROLES:
            raise NotStaff(f"player {player_id} is not staff")
        return int(player_id)

    def begin_enrolment(self, username: str, password: str) -> Enrolment:
        """A new pending TOTP secret for a staff account without a confirmed one (password required)."""
        player_id = self._verified_staff(username, password)
        secret = pyotp.random_base32()

        def body(s: Session) -> Enrolment:
            p = s.get(Player, player_id)
            assert p is not None
            if p.totp_confirmed:
                raise AlreadyEnrolled(f"player {player_id} already has a second factor")
            p.totp_secret = secret
            return Enrolment(secret, self.uri(p.username, secret))

        return self._db.run(body)

    def confirm_enrolment(self, username: str, password: str, code: str) -> Enrolment:
        """Confirm the pending secret with a code of the app; returns the recovery codes (shown once)."""
        player_id = self._verified_staff(username, password)
        codes = self._new_recovery_codes()

        def body(s: Session) -> Enrolment | RiverboatError:
            p = s.get(Player, player_id)
            assert p is not None
            if p.totp_confirmed:
                return AlreadyEnrolled(f"player {player_id} already has a second factor")
            now = self._db.now()
            step = totp_step(p.totp_secret, code, now) if p.totp_secret else None
            if step is None:
                audit(s, now, p, "staff_login_failed", reason("enrol_wrong_code"), p.id)
                return BadSecondFactor(f"player {player_id}: wrong enrolment code")
            self._confirm(s, p, step, codes)
            audit(s, now, p, "2fa_enrolled", reason("enrolled_in_console"), p.id)
            return Enrolment(p.totp_secret or "", self.uri(p.username, p.totp_secret or ""), tuple(codes))

        out = self._db.run(body)
        if isinstance(out, RiverboatError):
            raise out
        return out

    def set_up_second_factor(self, player_id: int) -> Enrolment:
        """A confirmed secret and recovery codes at once (``riverboat operator create``, which prints them: whoever
        runs it on the server is trusted)."""
        secret = pyotp.random_base32()
        codes = self._new_recovery_codes()

        def body(s: Session) -> Enrolment:
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound(f"no player with id {player_id!r}")
            if p.role not in STAFF_ROLES:
                raise NotStaff(f"player {player_id} is not staff")
            p.totp_secret = secret
            self._confirm(s, p, None, codes)
            audit(s, self._db.now(), p, "2fa_enrolled", reason("enrolled_on_server"), p.id)
            return Enrolment(secret, self.uri(p.username, secret), tuple(codes))

        return self._db.run(body)

    def reset_second_factor(self, admin_id: int, player_id: int, reason: str) -> None:
        """An admin clears a staff member's second factor (lost phone): their sessions end, their recovery codes
        are void, and they enrol again at their next login. Audited."""
        _reason(reason)

        def body(s: Session) -> None:
            admin = s.get(Player, admin_id)
            if admin is None or admin.role != "admin":
                raise PermissionDenied(f"player {admin_id} is not an admin")
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound(f"no player with id {player_id!r}")
            if p.role not in STAFF_ROLES:
                raise NotStaff(f"player {player_id} is not staff")
            p.totp_secret, p.totp_confirmed, p.totp_last_step = None, False, None
            s.execute(update(RecoveryCode).where(RecoveryCode.player_id == player_id, RecoveryCode.used_at.is_(None))
                      .values(used_at=self._db.now()))
            _revoke(s, player_id, None)
            audit(s, self._db.now(), admin, "2fa_reset", reason.strip(), player_id)

        self._db.run(body)

    def uri(self, username: str, secret: str) -> str:
        return pyotp.TOTP(secret).provisioning_uri(name=username, issuer_name=self.policy.issuer)

    def _new_recovery_codes(self) -> list[str]:
        return [_random_code(10) for _ in range(self.policy.recovery_codes)]

    def _confirm(self, s: Session, p: Player, step: int | None, codes: list[str]) -> None:
        p.totp_confirmed, p.totp_last_step = True, step
        s.execute(update(RecoveryCode).where(RecoveryCode.player_id == p.id, RecoveryCode.used_at.is_(None))
                  .values(used_at=self._db.now()))
        for c in codes:
            s.add(RecoveryCode(player_id=p.id, code_hash=digest(_normal(c)), used_at=None))

    # ------------------------------------------------------------------------------------- password reset codes
    def issue_reset_code(self, staff_id: int, player_id: int, reason: str) -> IssuedResetCode:
        """A one-time password reset code for a player, issued by staff (who hand it over: phone, chat...). Staff
        accounts are reset on the server (``riverboat operator``), not with a code. Audited."""
        _reason(reason)

        def body(s: Session) -> IssuedResetCode:
            staff = s.get(Player, staff_id)
            if staff is None or staff.role not in STAFF_ROLES:
                raise PermissionDenied(f"player {staff_id} is not staff")
            issued = self._new_reset_code(s, player_id, staff_id)
            audit(s, self._db.now(), staff, "reset_code_issued", reason.strip(), player_id,
                  {"expires_at": issued.expires_at.isoformat()})
            return issued

        return self._db.run(body)

    def mail_reset_code(self, username: str) -> IssuedResetCode | None:
        """A reset code for the room's mail hook (``ServerConfig.reset_mailer``); None for an unknown username or
        a staff account (the caller answers the same either way). Audited as the player's own request."""
        def body(s: Session) -> IssuedResetCode | None:
            p = s.scalar(select(Player).where(Player.username_key == username.lower()))
            if p is None or p.role in STAFF_ROLES:
                return None
            issued = self._new_reset_code(s, p.id, None)
            audit(s, self._db.now(), p, "reset_code_mailed", reason("reset_code_by_mail"), p.id)
            return issued

        return self._db.run(body)

    def _new_reset_code(self, s: Session, player_id: int, issuer: int | None) -> IssuedResetCode:
        p = s.get(Player, player_id)
        if p is None:
            raise NotFound(f"no player with id {player_id!r}")
        if p.role in STAFF_ROLES:
            raise InvalidRequest("a staff account's password is reset on the server (riverboat operator), not "
                                 "with a reset code")
        now = self._db.now()
        # an older unused code of the player stops working: only the newest one is valid
        s.execute(update(ResetCode).where(ResetCode.player_id == player_id, ResetCode.used_at.is_(None))
                  .values(used_at=now))
        code = _random_code(15)
        expires = now + self.policy.reset_code_ttl
        s.add(ResetCode(player_id=player_id, code_hash=digest(_normal(code)), issued_by=issuer, created_at=now,
                        expires_at=expires, used_at=None))
        return IssuedResetCode(player_id, p.username, code, expires)

    def reset_password(self, username: str, code: str, new_password: str) -> int:
        """Set a new password with a reset code: the code is used up, every session of the player ends (returns
        the player id: the server closes their sockets) and a lock-out is lifted. Audited."""
        new_hash = self._hasher.hash(_password(new_password))

        def body(s: Session) -> int:
            now = self._db.now()
            row = s.scalar(select(ResetCode).where(ResetCode.code_hash == digest(_normal(code or ""))))
            p = s.get(Player, row.player_id) if row is not None else None
            if row is None or p is None or p.username_key != username.lower():
                raise BadResetCode("unknown reset code or another account's")
            if row.used_at is not None:
                raise BadResetCode(f"reset code {row.id} already used")
            if aware(row.expires_at) <= now:
                raise BadResetCode(f"reset code {row.id} expired")
            row.used_at = now
            p.password_hash, p.failed_logins, p.locked_until = new_hash, 0, None
            _revoke(s, p.id, None)
            issuer = s.get(Player, row.issued_by) if row.issued_by is not None else p
            audit(s, now, issuer or p, "password_reset", reason("password_set_with_code"), p.id)
            return int(p.id)

        return self._db.run(body)

    # ------------------------------------------------------------------------------------- a player's sessions
    def change_password(self, token: str, old_password: str, new_password: str) -> list[str]:
        """Change the password of the token's player (the current one required): every other session ends.
        Returns the digests of the sessions ended (the server closes their sockets)."""
        sess = self._session(token)
        new_hash = self._hasher.hash(_password(new_password))
        username = self._db.read(lambda s: s.get(Player, sess.player_id).username)  # type: ignore[union-attr]
        try:
            self._check_password(username, old_password)
        except RiverboatError as exc:
            if exc.code == "account_locked":
                raise
            raise WrongPassword(f"player {sess.player_id}: wrong current password") from None

        def body(s: Session) -> list[str]:
            p = s.get(Player, sess.player_id)
            assert p is not None
            p.password_hash = new_hash
            return _revoke(s, p.id, sess.id)

        return self._db.run(body)

    def sessions(self, token: str) -> list[SessionInfo]:
        """The live sessions of the token's player, newest use first."""
        sess = self._session(token)

        def body(s: Session) -> list[SessionInfo]:
            now = self._db.now()
            rows = s.scalars(select(AuthSession).where(AuthSession.player_id == sess.player_id,
                                                       AuthSession.revoked.is_(False)))
            out = [SessionInfo(r.id, aware(r.created_at), aware(r.last_seen) if r.last_seen else None,
                               aware(r.expires_at), r.address, r.device, r.id == sess.id)
                   for r in rows if aware(r.expires_at) > now]
            return sorted(out, key=lambda i: i.last_seen or i.created_at, reverse=True)

        return self._db.read(body)

    def revoke_session(self, token: str, session_id: int) -> list[str]:
        """Log out one other session of the token's player ("log out elsewhere", one device)."""
        sess = self._session(token)

        def body(s: Session) -> list[str]:
            row = s.get(AuthSession, session_id)
            if row is None or row.player_id != sess.player_id or row.revoked:
                raise NotFound(f"no live session {session_id!r} of this player")
            row.revoked = True
            return [row.token_hash]

        return self._db.run(body)

    def revoke_others(self, token: str) -> list[str]:
        """Log out every other session of the token's player; the digests of those ended."""
        sess = self._session(token)
        return self._db.run(lambda s: _revoke(s, sess.player_id, sess.id))

    def _session(self, token: str) -> AuthSession:
        def body(s: Session) -> AuthSession:
            row = s.scalar(select(AuthSession).where(AuthSession.token_hash == digest(token or "")))
            if row is None or row.revoked or aware(row.expires_at) <= self._db.now():
                raise AuthError("unknown or logged-out session")
            s.expunge(row)
            return row

        return self._db.read(body)

    # ------------------------------------------------------------------------------------- lock-out release
    def unlock(self, staff_id: int, player_id: int, reason: str) -> None:
        """Staff release a locked account before its lock ends. Audited."""
        _reason(reason)

        def body(s: Session) -> None:
            staff = s.get(Player, staff_id)
            if staff is None or staff.role not in STAFF_ROLES:
                raise PermissionDenied(f"player {staff_id} is not staff")
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound(f"no player with id {player_id!r}")
            p.failed_logins, p.locked_until = 0, None
            audit(s, self._db.now(), staff, "unlock", reason.strip(), player_id)

        self._db.run(body)

    def status(self, player_id: int) -> tuple[datetime | None, bool]:
        """When the account's lock ends (None: not locked) and whether it has a confirmed second factor."""
        def body(s: Session) -> tuple[datetime | None, bool]:
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound(f"no player with id {player_id!r}")
            locked = aware(p.locked_until) if p.locked_until is not None else None
            return (locked if locked is not None and locked > self._db.now() else None), bool(p.totp_confirmed)

        return self._db.read(body)


def _revoke(s: Session, player_id: int, keep: int | None) -> list[str]:
    """End every live session of the player but ``keep``; the digests of those ended."""
    q = select(AuthSession).where(AuthSession.player_id == player_id, AuthSession.revoked.is_(False))
    out = []
    for row in s.scalars(q):
        if row.id != keep:
            row.revoked = True
            out.append(row.token_hash)
    return out


def _reason(reason: str) -> None:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise InvalidRequest("give a reason (1 to 2000 characters): it goes into the audit log")


def _password(password: str) -> str:
    from riverboat.store.accounts import MIN_PASSWORD

    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= 256:
        raise InvalidRequest(f"a password has {MIN_PASSWORD} to 256 characters")
    return password


def failure(p: Player, now: datetime, policy: SecurityPolicy) -> bool:
    """Count one wrong password; True when it locks the account."""
    p.failed_logins = (p.failed_logins or 0) + 1
    if p.failed_logins >= policy.lockout_after:
        p.locked_until = now + policy.lockout_for
        p.failed_logins = 0
        return True
    return False
