"""Player accounts: registration, argon2id password hashes, session tokens with expiry, roles.

Only a SHA-256 digest of each session token is stored, and neither passwords, hashes nor tokens are logged or put
in error messages."""

from __future__ import annotations

import math
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.errors import RiverboatError
from riverboat.store._tx import Database, aware
from riverboat.store.aliases import auto_alias
from riverboat.store.audit_reasons import reason
from riverboat.store.errors import (
    AccountBlocked,
    AccountLocked,
    AuthError,
    ConsoleOnly,
    InvalidRequest,
    NotFound,
    NotStaff,
    PermissionDenied,
    UsernameTaken,
)
from riverboat.store.models import AaiUse, AccountState, AuthSession, Player
from riverboat.store.security import STAFF_ROLES as STAFF_ROLES
from riverboat.store.security import SecurityPolicy, audit, check_second_factor, digest, failure

ROLES = ("player", "operator", "security", "admin")
OPERATOR_ROLES = ("operator", "admin")
#: staff who may use the operator console and act on integrity flags (R-OPER-5); security also sees hole cards.
#: STAFF_ROLES (from store.security) need a second factor to log in (issue #35)
HOLE_CARD_ROLES = ("security", "admin")  # R-INTEG-8: hole cards available to security staff
BLOCKED = ("suspended", "banned")
_USERNAME = re.compile(r"^[A-Za-z0-9_.\-]{3,64}$")
MIN_PASSWORD = 8
AAI_WINDOW_S = 24 * 3600.0  # R-AAI-2: the artificial all-in allowance is per rolling 24 hours
LAST_SEEN_EVERY = timedelta(minutes=1)  # a session's last use is written at most this often


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    id: int
    username: str
    role: str
    alias: str | None
    alias_changes: int
    alias_must_change: bool

    @property
    def is_operator(self) -> bool:
        return self.role in OPERATOR_ROLES


def player_info(p: Player) -> PlayerInfo:
    return PlayerInfo(p.id, p.username, p.role, p.alias, p.alias_changes, p.alias_must_change)


def require_operator(session: Session, operator_id: int) -> Player:
    op = session.get(Player, operator_id)
    if op is None or op.role not in OPERATOR_ROLES:
        raise PermissionDenied(f"player {operator_id} is not an operator (R-OPER)")
    return op


def check_not_blocked(s: Session, player_id: int) -> None:
    """Raise :class:`AccountBlocked` if the account is suspended or banned (R-INTEG-5c)."""
    state = s.get(AccountState, player_id)
    if state is not None and state.status in BLOCKED:
        raise AccountBlocked(state.status)


class Accounts:
    def __init__(self, db: Database, hasher: PasswordHasher, session_ttl: timedelta,
                 policy: SecurityPolicy | None = None) -> None:
        self._db = db
        self._hasher = hasher
        self._ttl = session_ttl
        self.policy = policy or SecurityPolicy()

    def register(self, username: str, password: str, role: str = "player") -> PlayerInfo:
        """Create a player.  The username is the private login name (3-64 of ``A-Za-z0-9_.-``, unique ignoring
        case); the public alias is assigned on first login (R-ALIAS-1)."""
        if not isinstance(username, str) or not _USERNAME.match(username):
            raise InvalidRequest("username must be 3 to 64 characters of letters, digits, '_', '.' or '-'")
        if not isinstance(password, str) or len(password) < MIN_PASSWORD:
            raise InvalidRequest(f"password must be at least {MIN_PASSWORD} characters")
        if role not in ROLES:
            raise InvalidRequest(f"role must be one of {ROLES}, got {role!r}")
        hashed = self._hasher.hash(password)

        def body(s: Session) -> PlayerInfo:
            if s.scalar(select(Player.id).where(Player.username_key == username.lower())) is not None:
                raise UsernameTaken(f"the username {username!r} is taken; choose another username")
            p = Player(username=username, username_key=username.lower(), password_hash=hashed, role=role,
                       alias=None, alias_key=None, alias_changes=0, alias_must_change=False,
                       created_at=self._db.now())
            s.add(p)
            s.flush()
            return player_info(p)

        try:
            return self._db.run(body)
        except IntegrityError:
            raise UsernameTaken(f"the username {username!r} is taken; choose another username") from None

    def ttl_for(self, role: str) -> timedelta:
        """How long a new session of an account with ``role`` lasts (staff: ``SecurityPolicy.staff_session_ttl``)."""
        return self.policy.staff_session_ttl if role in STAFF_ROLES else self._ttl

    def check_password(self, username: str, password: str) -> tuple[int, str]:
        """``(player_id, role)`` when the password is right. A wrong one counts towards the account's lock-out
        (issue #35: ``SecurityPolicy.lockout_after`` in a row lock it for ``lockout_for``; a failed staff login is
        audited); a locked account is refused even with the right password. A wrong username and a wrong password
        give the same error."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise AuthError("wrong username or password")

        def find(s: Session) -> tuple[int, str, str, datetime | None]:
            p = s.scalar(select(Player).where(Player.username_key == username.lower()))
            if p is None:
                raise AuthError("wrong username or password")
            return p.id, p.password_hash, p.role, aware(p.locked_until) if p.locked_until else None

        player_id, stored, role, locked = self._db.read(find)
        if locked is not None and locked > self._db.now():
            raise AccountLocked(f"too many wrong passwords: this account is locked until {locked:%H:%M} UTC, "
                                "or until the staff release it")
        try:
            self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            self._db.run(lambda s: self._wrong_password(s, player_id))
            raise AuthError("wrong username or password") from None
        self._db.read(lambda s: check_not_blocked(s, player_id))  # only after the password: says nothing to others
        if self._hasher.check_needs_rehash(stored):
            new_hash = self._hasher.hash(password)
            self._db.run(lambda s: s.execute(update(Player).where(Player.id == player_id)
                                             .values(password_hash=new_hash)))
        return player_id, role

    def _wrong_password(self, s: Session, player_id: int) -> None:
        p = s.get(Player, player_id)
        assert p is not None
        now = self._db.now()
        locked = failure(p, now, self.policy)
        if p.role in STAFF_ROLES:
            audit(s, now, p, "staff_login_failed", reason("wrong_password_locked" if locked else "wrong_password"), p.id)

    def login(self, username: str, password: str, code: str | None = None, *, address: str | None = None,
              device: str | None = None, place: str = "any") -> str:
        """Check the password (and, for a staff account, the second factor: issue #35) and open a session; returns
        the bearer token.  On the first login the player is given an alias (R-ALIAS-1). A staff session lasts
        ``SecurityPolicy.staff_session_ttl``; every staff login and failure is audited. ``place``: ``"console"``
        takes staff accounts only, ``"public"`` (the players' listener of a room whose console has its own) takes
        no staff account; either refusal comes after the password, so it tells nothing to who does not know it."""
        player_id, role = self.check_password(username, password)
        if place == "console" and role not in STAFF_ROLES:
            raise NotStaff(f"player {player_id} is not staff")
        if place == "public" and role in STAFF_ROLES:
            raise ConsoleOnly(f"staff account {player_id} tried the players' listener")
        token = secrets.token_urlsafe(32)
        staff = role in STAFF_ROLES
        ttl = self.ttl_for(role)

        def body(s: Session) -> RiverboatError | None:
            p = s.get(Player, player_id)
            assert p is not None
            now = self._db.now()
            if staff:
                refused = check_second_factor(s, p, code, now)
                if refused is not None:
                    return refused  # committed (the failure is audited), then raised
                audit(s, now, p, "staff_login",
                      reason("login_from", address=address) if address else reason("login_from_unknown"), p.id)
            if p.alias is None:
                auto_alias(s, p)
            p.failed_logins, p.locked_until = 0, None
            s.add(AuthSession(token_hash=digest(token), player_id=player_id, created_at=now, expires_at=now + ttl,
                              revoked=False, address=(address or None) and address[:64],
                              device=(device or None) and device[:255], last_seen=now))
            return None

        try:
            refused = self._db.run(body)
        except IntegrityError:  # a concurrent login took the same automatic alias: pick another
            refused = self._db.run(body)
        if refused is not None:
            raise refused
        return token

    def authenticate(self, token: str) -> PlayerInfo:
        """The player a live session token belongs to; :class:`AuthError` if unknown, expired or logged out. The
        session's last use is noted (at most once a minute: the session list shows it)."""
        if not isinstance(token, str) or not token:
            raise AuthError("no session token")

        def body(s: Session) -> tuple[PlayerInfo, int | None]:
            sess = s.scalar(select(AuthSession).where(AuthSession.token_hash == digest(token)))
            if sess is None or sess.revoked:
                raise AuthError("unknown or logged-out session")
            now = self._db.now()
            if aware(sess.expires_at) <= now:
                raise AuthError("session expired; log in again")
            check_not_blocked(s, sess.player_id)
            p = s.get(Player, sess.player_id)
            assert p is not None
            stale = sess.last_seen is None or aware(sess.last_seen) <= now - LAST_SEEN_EVERY
            return player_info(p), sess.id if stale else None

        info, touch = self._db.read(body)
        if touch is not None:
            self._db.run(lambda s: s.execute(update(AuthSession).where(AuthSession.id == touch)
                                             .values(last_seen=self._db.now())))
        return info

    def logout(self, token: str) -> None:
        def body(s: Session) -> None:
            sess = s.scalar(select(AuthSession).where(AuthSession.token_hash == digest(token)))
            if sess is not None:
                sess.revoked = True

        self._db.run(body)

    def get(self, player_id: int) -> PlayerInfo:
        def body(s: Session) -> PlayerInfo:
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound(f"no player with id {player_id!r}")
            return player_info(p)

        return self._db.read(body)

    def by_username(self, username: str) -> PlayerInfo | None:
        def body(s: Session) -> PlayerInfo | None:
            p = s.scalar(select(Player).where(Player.username_key == username.lower()))
            return None if p is None else player_info(p)

        return self._db.read(body)

    def set_role(self, operator_id: int, player_id: int, role: str) -> PlayerInfo:
        if role not in ROLES:
            raise InvalidRequest(f"role must be one of {ROLES}, got {role!r}")

        def body(s: Session) -> PlayerInfo:
            require_operator(s, operator_id)
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound(f"no player with id {player_id!r}")
            p.role = role
            return player_info(p)

        return self._db.run(body)

    # ------------------------------------------------------------------ artificial all-in allowance (R-AAI-2)
    def record_aai_use(self, player_id: int, at: float) -> None:
        """Note one artificial all-in given to the player at wall-clock second ``at`` (R-AAI-2); uses older than
        a day are deleted on the way (the allowance is per rolling 24 hours)."""
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise InvalidRequest(f"player_id must be an integer, got {player_id!r}")
        if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
            raise InvalidRequest(f"at must be a finite number of seconds, got {at!r}")

        def body(s: Session) -> None:
            if s.get(Player, player_id) is None:
                raise NotFound(f"no player with id {player_id!r}")
            s.execute(delete(AaiUse).where(AaiUse.at <= float(at) - AAI_WINDOW_S))
            s.add(AaiUse(player_id=player_id, at=float(at)))

        self._db.run(body)

    def aai_uses_since(self, since: float) -> list[tuple[int, float]]:
        """``(player_id, at)`` of every artificial all-in after wall-clock second ``since``, oldest first."""
        def body(s: Session) -> list[tuple[int, float]]:
            rows = s.execute(select(AaiUse.player_id, AaiUse.at).where(AaiUse.at > float(since))
                             .order_by(AaiUse.at, AaiUse.id)).all()
            return [(int(p), float(a)) for p, a in rows]

        return self._db.read(body)
