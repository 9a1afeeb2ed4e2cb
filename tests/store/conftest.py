"""Fixtures for the store tests: every ``store`` test runs on SQLite AND on the real PostgreSQL server.

PostgreSQL isolation: each pytest process creates its own schema (``rb_store_<random>``) reached through
``search_path`` in the URL, migrates it once, truncates it between tests and drops it at the end, so parallel
runs (``-n 2``, several engineers at once) never collide.  SQLite: a migrated template file is copied per test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool

from riverboat.store import Store
from riverboat.store.models import Base

PG_BASE = os.environ.get("RIVERBOAT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # still argon2id, just cheap


class FakeClock:
    """Injected clock: time moves only when a test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


def pg_url(schema: str) -> str:
    # synchronous_commit=off only skips waiting for the server's WAL flush: the tests kill clients, never the
    # PostgreSQL server, so commits stay exactly as atomic and visible; it just makes the suite faster.
    return f"{PG_BASE}?options=-csearch_path%3D{schema}%20-csynchronous_commit%3Doff"


@pytest.fixture(scope="session")
def pg_schema_url() -> Iterator[str]:
    schema = f"rb_store_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_BASE)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = pg_url(schema)
    st = Store(url)
    st.upgrade()
    st.dispose()
    try:
        yield url
    finally:
        cached = _PG_STORES.pop(url, None)
        if cached is not None:
            cached.dispose()
        truncator = _TRUNCATORS.pop(url, None)
        if truncator is not None:
            truncator.dispose()
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlite_template") / "template.sqlite3"
    st = Store(f"sqlite:///{path}")
    st.upgrade()
    st.dispose()  # closing the last connection checkpoints the WAL into the main file
    assert not path.with_name(path.name + "-wal").exists()
    return path


_TRUNCATORS: dict[str, Engine] = {}


def _truncate(url: str) -> None:
    eng = _TRUNCATORS.get(url)
    if eng is None:
        eng = _TRUNCATORS[url] = create_engine(url, poolclass=NullPool)
    # DELETE is much cheaper than TRUNCATE on a handful of rows; ids keep growing, which no test relies on.
    with eng.begin() as conn:
        # the audit log refuses DELETE (an append-only trigger, R-OPER-4); TRUNCATE is the test-only way out
        conn.execute(text("TRUNCATE audit_log"))
        for table in reversed(Base.metadata.sorted_tables):
            if table.name != "audit_log":
                conn.execute(table.delete())


@pytest.fixture(scope="session")
def shm_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """SQLite files live in RAM (/dev/shm) when available: same WAL/locking semantics, no disk fsync waits."""
    base = Path("/dev/shm")
    if not base.is_dir():
        yield tmp_path_factory.mktemp("sqlite")
        return
    path = Path(tempfile.mkdtemp(prefix="rb_store_", dir=base))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        path = request.getfixturevalue("shm_dir") / f"{uuid.uuid4().hex}.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("pg_schema_url")
    _truncate(url)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no schema at all (for migration tests): a new SQLite file or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    schema = f"rb_store_empty_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_BASE, poolclass=NullPool)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield pg_url(schema)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


_PG_STORES: dict[str, Store] = {}  # one Store (and connection pool) per PostgreSQL schema and process
_CURRENT_CLOCK: list[FakeClock] = []


def _current_clock() -> datetime:
    return _CURRENT_CLOCK[-1]()


@pytest.fixture
def store(db_url: str, clock: FakeClock) -> Iterator[Store]:
    _CURRENT_CLOCK.append(clock)
    pg = db_url.startswith("postgresql")
    if pg:
        st = _PG_STORES.get(db_url)
        if st is None:
            st = _PG_STORES[db_url] = Store(db_url, clock=_current_clock, password_hasher=FAST_HASHER)
    else:
        st = Store(db_url, clock=_current_clock, password_hasher=FAST_HASHER)
    try:
        yield st
    finally:
        try:
            st.ledger.verify()  # every test ends with a consistent ledger
        finally:
            _CURRENT_CLOCK.pop()
            if not pg:
                st.dispose()


def make_player(store: Store, name: str, *, role: str = "player", login: bool = False) -> int:
    info = store.accounts.register(name, "correct horse battery", role=role)
    if login:
        store.accounts.login(name, "correct horse battery")
    return info.id
