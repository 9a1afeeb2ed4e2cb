"""Player accounts: registration, argon2id password hashes, session tokens with expiry, roles.

Only a SHA-256 digest of each session token is stored, and neither passwords, hashes nor tokens are logged or put
in error messages."""

from __future__ import annotations

import hashlib
import math
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware
from riverboat.store.aliases import auto_alias
from riverboat.store.errors import (
    AccountBlocked,
    AuthError,
    InvalidRequest,
    NotFound,
    PermissionDenied,
    UsernameTaken,
)
from riverboat.store.models import AaiUse, AccountState, AuthSession, Player

ROLES = ("player", "operator", "security", "admin")
OPERATOR_ROLES = ("operator", "admin")
#: staff who may use the operator console and act on integrity flags (R-OPER-5); security also sees hole cards
STAFF_ROLES = ("operator", "security", "admin")
HOLE_CARD_ROLES = ("security", "admin")  # R-INTEG-8: hole cards available to security staff
BLOCKED = ("suspended", "banned")
_USERNAME = re.compile(r"^[A-Za-z0-9_.\-]{3,64}$")
MIN_PASSWORD = 8
AAI_WINDOW_S = 24 * 3600.0  # R-AAI-2: the artificial all-in allowance is per rolling 24 hours


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


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(self, db: Database, hasher: PasswordHasher, session_ttl: timedelta) -> None:
        self._db = db
        self._hasher = hasher
        self._ttl = session_ttl

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

    def login(self, username: str, password: str) -> str:
        """Check the password and open a session; returns the bearer token.  On the first login the player is
        given an alias (R-ALIAS-1).  Wrong username and wrong password give the same error."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise AuthError("wrong username or password")

        def find(s: Session) -> tuple[int, str]:
            p = s.scalar(select(Player).where(Player.username_key == username.lower()))
            if p is None:
                raise AuthError("wrong username or password")
            return p.id, p.password_hash

        player_id, stored = self._db.read(find)
        try:
            self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise AuthError("wrong username or password") from None
        self._db.read(lambda s: check_not_blocked(s, player_id))  # only after the password: says nothing to others
        rehash = self._hasher.check_needs_rehash(stored)
        new_hash = self._hasher.hash(password) if rehash else None
        token = secrets.token_urlsafe(32)

        def body(s: Session) -> None:
            p = s.get(Player, player_id)
            assert p is not None
            if new_hash is not None:
                p.password_hash = new_hash
            if p.alias is None:
                auto_alias(s, p)
            now = self._db.now()
            s.add(AuthSession(token_hash=_digest(token), player_id=player_id, created_at=now,
                              expires_at=now + self._ttl, revoked=False))

        try:
            self._db.run(body)
        except IntegrityError:  # a concurrent login took the same automatic alias: pick another
            self._db.run(body)
        return token

    def authenticate(self, token: str) -> PlayerInfo:
        """The player a live session token belongs to; :class:`AuthError` if unknown, expired or logged out."""
        if not isinstance(token, str) or not token:
            raise AuthError("no session token")

        def body(s: Session) -> PlayerInfo:
            sess = s.scalar(select(AuthSession).where(AuthSession.token_hash == _digest(token)))
            if sess is None or sess.revoked:
                raise AuthError("unknown or logged-out session")
            if aware(sess.expires_at) <= self._db.now():
                raise AuthError("session expired; log in again")
            check_not_blocked(s, sess.player_id)
            p = s.get(Player, sess.player_id)
            assert p is not None
            return player_info(p)

        return self._db.read(body)

    def logout(self, token: str) -> None:
        def body(s: Session) -> None:
            sess = s.scalar(select(AuthSession).where(AuthSession.token_hash == _digest(token)))
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
