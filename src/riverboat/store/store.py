"""The :class:`Store` facade: one engine, the services (accounts, aliases, ledger, tournaments, twister, hands,
movements, notes, fences, integrity; cashier, withdrawals, adjustments and protections: issue #30)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import timedelta

from argon2 import PasswordHasher
from sqlalchemy.orm import Session

from riverboat.store._tx import Clock, Database, utc_now
from riverboat.store.accounts import Accounts
from riverboat.store.adjustments import Adjustments
from riverboat.store.aliases import Aliases
from riverboat.store.cashier import Cashier
from riverboat.store.db import make_engine, resolve_url
from riverboat.store.fencing import Fences
from riverboat.store.hands import Hands
from riverboat.store.integrity import Integrity
from riverboat.store.ledger import Ledger
from riverboat.store.locales import Locales
from riverboat.store.movements import Movements
from riverboat.store.notes import Notes
from riverboat.store.protections import MoneyRules, MoneySettings, Protections
from riverboat.store.security import AccountSecurity, SecurityPolicy
from riverboat.store.tournament_play import TournamentPlay
from riverboat.store.tournaments import Tournaments
from riverboat.store.twister import TwisterStore
from riverboat.store.withdrawals import Withdrawals


class Store:
    """Entry point of :mod:`riverboat.store`.  Thread-safe: each call runs in its own session/transaction."""

    def __init__(
        self,
        url: str | None = None,
        *,
        clock: Clock | None = None,
        password_hasher: PasswordHasher | None = None,
        session_ttl: timedelta = timedelta(hours=12),
        money: MoneySettings | None = None,
        security: SecurityPolicy | None = None,
    ) -> None:
        self.url = resolve_url(url)
        self.engine = make_engine(self.url)
        self._db = Database(self.engine, clock or utc_now)
        hasher = password_hasher or PasswordHasher()
        self.accounts = Accounts(self._db, hasher, session_ttl, security)
        # issue #35: second factor, lock-out release, password change, sessions, reset codes
        self.security = AccountSecurity(self._db, hasher, self.accounts.policy, self.accounts.check_password)
        self.aliases = Aliases(self._db)
        self.ledger = Ledger(self._db)
        self.tournaments = Tournaments(self._db)
        self.twister = TwisterStore(self._db)
        self.tournament_play = TournamentPlay(self._db)
        self.hands = Hands(self._db)
        self.movements = Movements(self._db)
        self.notes = Notes(self._db)
        self.locales = Locales(self._db)
        self.fences = Fences(self._db)
        self.integrity = Integrity(self._db)
        # money in and out (issue #30): deposits, withdrawals, adjustments, the player's protections
        self.money_rules = MoneyRules(money or MoneySettings())
        self.cashier = Cashier(self._db)
        self.withdrawals = Withdrawals(self._db)
        self.adjustments = Adjustments(self._db, self.money_rules)
        self.protections = Protections(self._db, self.money_rules)

    def set_money_settings(self, settings: MoneySettings) -> None:
        """The room's money settings (cooling-off of raised deposit limits, four-eyes amount of adjustments)."""
        self.money_rules.settings = settings

    def upgrade(self) -> None:
        """Apply all Alembic migrations (idempotent)."""
        from riverboat.store import migrate  # alembic is imported only when needed

        migrate.upgrade(self.engine)

    def revision(self) -> str | None:
        from riverboat.store import migrate

        return migrate.current_revision(self.engine)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session inside one transaction (committed on success, rolled back on error)."""
        with self._db.lock, self._db.sessions.begin() as s:
            yield s

    def batch(self) -> AbstractContextManager[None]:
        """Group commit: the store calls this thread makes inside the block share ONE transaction, each in its own
        SAVEPOINT (a refused call rolls back to its savepoint and changes nothing); committed when the block exits.
        The room's store gateway (``riverboat.room.gateway``) runs its queued calls this way."""
        return self._db.batch()

    def dispose(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()
