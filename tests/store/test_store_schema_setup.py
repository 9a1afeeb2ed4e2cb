"""Database setup: Alembic migrations (programmatic, from the installed package), `riverboat db upgrade`, URL
resolution, SQLite WAL mode, and that the migrations create exactly the ORM schema - on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from typer.testing import CliRunner

from riverboat.cli import app
from riverboat.store import Store
from riverboat.store.db import ENV_VAR, resolve_url
from riverboat.store.models import Base

from .conftest import FAST_HASHER


def _head() -> str:
    """The newest migration (one head only: several engineers add migrations, each after the newest on main)."""
    from alembic.script import ScriptDirectory

    from riverboat.store import migrate

    heads = ScriptDirectory(str(migrate.MIGRATIONS_DIR)).get_heads()
    assert len(heads) == 1, f"the migrations have several heads: {heads}"
    return heads[0]


def test_migrations_create_exactly_the_orm_schema(db_url: str) -> None:
    """Issue #4 item 1: the Alembic head and the typed ORM models agree (no autogenerate differences)."""
    st = Store(db_url)
    try:
        assert st.revision() == _head()
        with st.engine.connect() as conn:
            diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diffs == []
    finally:
        st.dispose()


def test_cli_db_upgrade_on_an_empty_database_is_idempotent(empty_db_url: str) -> None:
    """Issue #4 item 1: `riverboat db upgrade --database-url URL` creates the schema on SQLite and PostgreSQL; running it again is
    harmless; SQLite files are in WAL mode."""
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(app, ["db", "upgrade", "--database-url", empty_db_url])
        assert result.exit_code == 0, result.output
        assert f"revision {_head()}" in result.output
    st = Store(empty_db_url, password_hasher=FAST_HASHER)
    try:
        st.accounts.register("migrated", "password123")
        with st.engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            assert {"accounts", "ledger_txns", "ledger_entries", "players", "hands", "alembic_version"} <= tables
            if st.engine.dialect.name == "sqlite":
                assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        st.dispose()


def test_database_url_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue #4 item 1: explicit URL, else $RIVERBOAT_DATABASE_URL, else a SQLite file under the user data directory."""
    monkeypatch.setenv(ENV_VAR, "sqlite:////env/db.sqlite3")
    assert resolve_url("postgresql+psycopg://x/y") == "postgresql+psycopg://x/y"
    assert resolve_url(None) == "sqlite:////env/db.sqlite3"
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = resolve_url(None)
    assert url == f"sqlite:///{tmp_path / 'riverboat' / 'riverboat.sqlite3'}"


def test_in_memory_sqlite_is_shared_across_threads() -> None:
    """Issue #4 item 1: `sqlite://` works for quick tools: one database shared by all threads (asyncio.to_thread callers)."""
    st = Store("sqlite://", password_hasher=FAST_HASHER)
    st.upgrade()
    p = st.accounts.register("memory", "password123").id
    st.ledger.deposit(p, "EUR", 500, "dep")
    seen: list[int] = []
    t = threading.Thread(target=lambda: seen.append(st.ledger.balance(p)))
    t.start()
    t.join()
    assert seen == [500]
    st.dispose()


def test_upgrade_from_0001_keeps_data(empty_db_url: str) -> None:
    """Issue #4 item 1 (migrations): a database at revision 0001 with data upgrades to head without losing it."""
    from riverboat.store import migrate

    st = Store(empty_db_url, password_hasher=FAST_HASHER)
    migrate.upgrade(st.engine, "0001")
    with st.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO players (id, username, username_key, password_hash, role, alias_changes, alias_must_change,"
            " created_at) VALUES (1, 'old', 'old', 'x', 'player', 0, false, '2026-01-01 00:00:00+00')"))
        conn.execute(text("INSERT INTO tournaments (id, tournament_id, currency, buy_in, fee, status)"
                          " VALUES (1, 't', 'EUR', 100, 10, 'registering')"))
        conn.execute(text("INSERT INTO tournament_entries (id, tournament_pk, player_id, status)"
                          " VALUES (1, 1, 1, 'registered')"))
    st.upgrade()
    assert st.revision() == _head()
    with st.engine.connect() as conn:
        row = conn.execute(text("SELECT player_id, paid_buy_in, paid_fee FROM tournament_entries")).one()
    assert tuple(row) == (1, 0, 0)
    st.dispose()


def test_sqlite_readers_do_not_wait_for_a_writer(tmp_path: Path) -> None:
    """WAL mode: while another connection holds the write lock, balance and session lookups still answer at once
    (read-only calls open a deferred transaction; writes use BEGIN IMMEDIATE)."""
    import sqlite3
    import time

    url = f"sqlite:///{tmp_path / 'rw.sqlite3'}"
    st = Store(url, password_hasher=FAST_HASHER)
    st.upgrade()
    p = st.accounts.register("reader", "password123").id
    st.ledger.deposit(p, "EUR", 100, "dep")
    token = st.accounts.login("reader", "password123")
    writer = sqlite3.connect(tmp_path / "rw.sqlite3", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        t0 = time.monotonic()
        assert st.ledger.balance(p) == 100
        assert st.accounts.authenticate(token).id == p
        assert time.monotonic() - t0 < 5  # the busy timeout is 30 s: no waiting happened
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        st.dispose()


def test_cli_db_check_audits_the_ledger(empty_db_url: str) -> None:
    """R-WALLET / issue #4 item 4: `riverboat db check` reports a consistent ledger and exits 1 when a balance was tampered with."""
    st = Store(empty_db_url, password_hasher=FAST_HASHER)
    st.upgrade()
    p = st.accounts.register("audited", "password123").id
    st.ledger.deposit(p, "EUR", 1_000, "dep")
    runner = CliRunner()
    ok = runner.invoke(app, ["db", "check", "--database-url", empty_db_url])
    assert ok.exit_code == 0, ok.output
    assert "EUR: sum over all accounts = 0" in ok.output and "ledger OK: 1 transactions" in ok.output
    with st.engine.begin() as conn:
        conn.execute(text("UPDATE accounts SET balance = balance + 1 WHERE kind = 'cash'"))
    st.dispose()
    bad = runner.invoke(app, ["db", "check", "--database-url", empty_db_url])
    assert bad.exit_code == 1
    assert "CORRUPT" in bad.output


@pytest.mark.parametrize("empty_db_url", ["postgresql"], indirect=True)  # a room on several nodes is PostgreSQL
def test_nodes_started_together_upgrade_a_new_database_once(empty_db_url: str) -> None:
    """Two table hosts and a gateway of one room started at the same moment on a new database (systemd starts
    ``tables-%i`` together, docs/cluster.md): each runs the migrations on start. They are serialised by a database
    lock, so every node starts and the schema is made once (seen from outside: one of two hosts started together died
    with "duplicate key value violates unique constraint pg_type_typname_nsp_index")."""
    nodes = 4
    ready = threading.Barrier(nodes)
    errors: list[BaseException] = []
    stores: list[Store] = []

    def start() -> None:
        st = Store(empty_db_url, password_hasher=FAST_HASHER)
        stores.append(st)
        ready.wait()
        try:
            st.upgrade()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start, daemon=True) for _ in range(nodes)]  # daemon: a stuck one fails, not hangs
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads), "a node's migration still waits after 30 s (they block each other)"
    try:
        assert errors == []
        assert {st.revision() for st in stores} == {_head()}
    finally:
        for st in stores:
            st.dispose()
