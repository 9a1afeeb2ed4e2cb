"""Fixtures for the Twister room tests: a real store on SQLite (a migrated template copied per test) and on the
PostgreSQL server (127.0.0.1:5432, db ``test``, one schema per session, emptied between tests). Every test that
uses ``tstore`` ends with the ledger's full audit (``verify()``)."""

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
def twister_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("twister_template") / "template.sqlite3"
    st = Store(f"sqlite:///{path}")
    st.upgrade()
    st.dispose()
    return path


@pytest.fixture(scope="session")
def twister_pg_url() -> Iterator[str]:
    schema = f"rb_twister_{uuid.uuid4().hex[:12]}"
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
    folder: Path | None = None
    if request.param == "sqlite":
        shm = Path("/dev/shm")
        folder = Path(tempfile.mkdtemp(prefix="rb-twister-", dir=shm if shm.is_dir() else None))
        shutil.copy(request.getfixturevalue("twister_sqlite_template"), folder / "t.sqlite3")
        url = f"sqlite:///{folder / 't.sqlite3'}"
    else:
        url = request.getfixturevalue("twister_pg_url")
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
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
