"""Transaction runner shared by the store services: one database transaction per call, retried on transient
conflicts (PostgreSQL deadlock/serialization failure, SQLite busy), with idempotency-key handling for the ledger.

Group commit: inside :meth:`Database.batch` (one thread), every call runs in its own SAVEPOINT of one shared
transaction instead of a transaction of its own. A call that raises rolls back to its savepoint (it changes
nothing, exactly as on its own); the others stay; the whole group becomes durable at once when the block commits,
or not at all. Callers must not act on a result before the block has committed (``riverboat.room.gateway`` does
this: it answers the callers after the commit)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, bindparam, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from riverboat.store.errors import IdempotencyConflict, IdempotentReplay, StoreError
from riverboat.store.models import LedgerTxn

READ_ONLY = "riverboat_read_only"  # execution option: SQLite opens a deferred transaction
RESULT_IS_TXN_ID = -1  # mirrors riverboat.store.postings.RESULT_IS_TXN_ID

T = TypeVar("T")
Clock = Callable[[], datetime]

_TRANSIENT_SQLSTATES = {"40001", "40P01", "55P03"}
_BY_IDEM_KEY = select(LedgerTxn.id, LedgerTxn.kind, LedgerTxn.request_hash, LedgerTxn.result).where(
    LedgerTxn.idem_key == bindparam("k"))  # built once: every idempotent ledger call reads it


def utc_now() -> datetime:
    return datetime.now(UTC)


def aware(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything is stored in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def request_hash(kind: str, **params: Any) -> str:
    blob = json.dumps({"kind": kind, **params}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _is_transient(exc: DBAPIError) -> bool:
    if exc.connection_invalidated:  # e.g. the server restarted: the pool drops the connection, try again
        return True
    code = getattr(exc.orig, "sqlstate", None)
    if code in _TRANSIENT_SQLSTATES:
        return True
    return "database is locked" in str(exc.orig)


class Database:
    def __init__(self, engine: Engine, clock: Clock) -> None:
        self.engine = engine
        self.clock = clock
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        # An in-memory SQLite database is one shared connection: serialise its transactions across threads.
        self.lock: threading.RLock | contextlib.nullcontext[None] = (
            threading.RLock() if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
            else contextlib.nullcontext()
        )
        self._local = threading.local()  # .conn: the connection of this thread's open batch, if any

    @property
    def in_batch(self) -> bool:
        return getattr(self._local, "conn", None) is not None

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Group commit (see the module docstring): the calls this thread makes inside the block share ONE
        transaction, each in its own SAVEPOINT. Committed when the block exits normally, rolled back (every call
        in it undone) if it raises or the commit fails. Nested use joins the outer batch."""
        if self.in_batch:
            yield
            return
        with self.lock, self.engine.connect() as conn, conn.begin():
            self._local.conn = conn
            try:
                yield
            finally:
                self._local.conn = None

    @contextlib.contextmanager
    def _session(self, read_only: bool = False) -> Iterator[Session]:
        """A session in a transaction of its own, or in a SAVEPOINT of this thread's batch (fresh identity map
        either way: nothing cached leaks from one call to the next)."""
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            with self.sessions(bind=conn, join_transaction_mode="create_savepoint") as session, session.begin():
                yield session
            return
        with self.lock, self.sessions.begin() as session:
            if read_only:
                session.connection(execution_options={READ_ONLY: True})
            yield session

    def now(self) -> datetime:
        return aware(self.clock())

    def read(self, fn: Callable[[Session], T]) -> T:
        """Run a read-only ``fn``.  On SQLite it takes no write lock (a deferred ``BEGIN``), so readers do not
        queue behind writers in WAL mode."""
        return self.run(fn, read_only=True)

    def run(self, fn: Callable[[Session], T], *, attempts: int = 12, read_only: bool = False) -> T:
        """Run ``fn`` in one transaction; commit if it returns, roll back if it raises. Inside a :meth:`batch`:
        in one savepoint (released if it returns, rolled back if it raises), without retries: the batch holds the
        write lock, and its owner re-runs a call that failed on a transient error on its own."""
        if self.in_batch:
            with self._session() as session:
                return fn(session)
        for attempt in range(attempts):
            try:
                with self._session(read_only) as session:
                    return fn(session)
            except IntegrityError:
                raise
            except DBAPIError as exc:
                if not _is_transient(exc) or attempt == attempts - 1:
                    raise
                time.sleep(random.uniform(0.001, 0.02) * (attempt + 1))
        raise AssertionError("unreachable")

    def run_idempotent(self, idem_key: str, kind: str, req_hash: str, fn: Callable[[Session], int], *,
                       once: bool = False) -> int:
        """Run a ledger operation once per idempotency key.  A replay with the same request returns the recorded
        result and changes nothing; a replay with a different request raises :class:`IdempotencyConflict`.
        ``once``: any replay raises :class:`IdempotentReplay` instead (the caller must not act on it twice)."""
        if not idem_key or len(idem_key) > 255:
            raise StoreError("an idempotency key of 1 to 255 characters is required")

        def body(session: Session) -> int:
            done = self._existing(session, idem_key, kind, req_hash, once)
            if done is not None:
                return done
            return fn(session)

        try:
            return self.run(body)
        except IntegrityError:
            # A concurrent call with the same key won the race: report its result (or the conflict).  Any other
            # constraint hit by a concurrent request: run again, now seeing the other request's effect.
            with self._session() as session:
                done = self._existing(session, idem_key, kind, req_hash, once)
            if done is not None:
                return done
            try:
                return self.run(body)
            except IntegrityError:
                raise StoreError("a concurrent request changed the same data; try again") from None

    @staticmethod
    def _existing(session: Session, idem_key: str, kind: str, req_hash: str, once: bool = False) -> int | None:
        txn = session.connection().execute(_BY_IDEM_KEY, {"k": idem_key}).first()
        if txn is None:
            return None
        if once:
            raise IdempotentReplay(f"idempotency key {idem_key!r} was already used (transaction {txn.id}, "
                                   f"{txn.kind}); nothing was moved again")
        if txn.kind != kind or txn.request_hash != req_hash:
            raise IdempotencyConflict(
                f"idempotency key {idem_key!r} was already used for a different {txn.kind} request"
            )
        return int(txn.id if txn.result == RESULT_IS_TXN_ID else txn.result)
