"""Store fixtures shared by the room-level suites that run on both databases (tests/tournament, tests/twister):
a migrated SQLite template copied per test (in /dev/shm when there is one) and a PostgreSQL schema per session
(127.0.0.1:5432, db ``test``) emptied between tests. Every store ends its test with the ledger's full audit
(``verify()``). A conftest imports the fixtures it uses from here."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from riverboat.store import Store
from riverboat.store.models import Base

PG_BASE = os.environ.get("RIVERBOAT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store_template") / "template.sqlite3"
    st = Store(f"sqlite:///{path}")
    st.upgrade()
    st.dispose()
    return path


@pytest.fixture(scope="session")
def migrated_pg_url() -> Iterator[str]:
    schema = f"rb_room_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_BASE, poolclass=NullPool)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = f"{PG_BASE}?options=-csearch_path%3D{schema}%20-csynchronous_commit%3Doff"
    st = Store(url)
    st.upgrade()
    st.dispose()
    try:
        yield url
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def _audited(url: str) -> Iterator[Store]:
    st = Store(url, password_hasher=FAST_HASHER)
    try:
        yield st
        st.ledger.verify()
    finally:
        st.dispose()


@contextmanager
def _sqlite_copy(template: Path) -> Iterator[Store]:
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="rb-store-", dir=shm if shm.is_dir() else None))
    try:
        shutil.copy(template, folder / "t.sqlite3")
        with _audited(f"sqlite:///{folder / 't.sqlite3'}") as st:
            yield st
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def tstore(request: pytest.FixtureRequest) -> Iterator[Store]:
    if request.param == "sqlite":
        with _sqlite_copy(request.getfixturevalue("migrated_sqlite_template")) as st:
            yield st
        return
    url: str = request.getfixturevalue("migrated_pg_url")
    eng = create_engine(url, poolclass=NullPool)
    with eng.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(table.delete())
    eng.dispose()
    with _audited(url) as st:
        yield st


@pytest.fixture
def sqlite_store(migrated_sqlite_template: Path) -> Iterator[Store]:
    with _sqlite_copy(migrated_sqlite_template) as st:
        yield st


def staff_token(store: Store, username: str, password: str) -> str:
    """Issue #35: a staff account logs in with its second factor. Set one up (as ``riverboat operator create``
    does) and log in with one of its one-time recovery codes."""
    info = store.accounts.by_username(username)
    assert info is not None
    enrolment = store.security.set_up_second_factor(info.id)
    return store.accounts.login(username, password, enrolment.recovery_codes[0])
