"""Fixtures for the tournament tests: a real store on SQLite (a migrated template copied per test, in /dev/shm when
there is one) AND on the PostgreSQL server (127.0.0.1:5432, db ``test``; one schema per test session, emptied
between tests, as in tests/store/conftest.py). Every test that uses ``tstore`` ends with a full ledger audit."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
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
def tourn_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tourn_template") / "template.sqlite3"
    st = Store(f"sqlite:///{path}")
    st.upgrade()
    st.dispose()
    return path


@pytest.fixture(scope="session")
def tourn_pg_url() -> Iterator[str]:
    schema = f"rb_tourn_{uuid.uuid4().hex[:12]}"
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


@pytest.fixture(params=["sqlite", "postgresql"])
def tstore(request: pytest.FixtureRequest) -> Iterator[Store]:
    if request.param == "sqlite":
        shm = Path("/dev/shm")
        folder = Path(tempfile.mkdtemp(prefix="rb-tourn-", dir=shm if shm.is_dir() else None))
        path = folder / "t.sqlite3"
        shutil.copy(request.getfixturevalue("tourn_sqlite_template"), path)
        st = Store(f"sqlite:///{path}", password_hasher=FAST_HASHER)
        try:
            yield st
            st.ledger.verify()
        finally:
            st.dispose()
            shutil.rmtree(folder, ignore_errors=True)
        return
    url: str = request.getfixturevalue("tourn_pg_url")
    eng = create_engine(url, poolclass=NullPool)
    with eng.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(table.delete())
    eng.dispose()
    st = Store(url, password_hasher=FAST_HASHER)
    try:
        yield st
        st.ledger.verify()
    finally:
        st.dispose()


@pytest.fixture
def sqlite_store(tourn_sqlite_template: Path) -> Iterator[Store]:
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="rb-tourn-", dir=shm if shm.is_dir() else None))
    path = folder / "t.sqlite3"
    shutil.copy(tourn_sqlite_template, path)
    st = Store(f"sqlite:///{path}", password_hasher=FAST_HASHER)
    try:
        yield st
        st.ledger.verify()
    finally:
        st.dispose()
        shutil.rmtree(folder, ignore_errors=True)
