"""Engine and session setup: database URL resolution, SQLite WAL and immediate transactions, PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

ENV_VAR = "RIVERBOAT_DATABASE_URL"


def default_url() -> str:
    """The embedded default: a SQLite file under the user's data directory."""
    directory = Path(platformdirs.user_data_dir("riverboat"))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'riverboat.sqlite3'}"


def resolve_url(url: str | None = None) -> str:
    """Explicit URL, else ``$RIVERBOAT_DATABASE_URL``, else :func:`default_url`."""
    if url:
        return url
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    return default_url()


def is_memory_url(url: str) -> bool:
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str) -> Engine:
    """Create the engine.  SQLite gets WAL, foreign keys, a busy timeout and ``BEGIN IMMEDIATE`` transactions so
    that concurrent writers serialise instead of failing on lock upgrades."""
    parsed = make_url(url)
    kwargs: dict[str, Any] = {"future": True}
    if parsed.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        in_memory = is_memory_url(url)
        if in_memory:
            kwargs["poolclass"] = StaticPool  # one shared connection: the database lives as long as the engine
        engine = create_engine(url, **kwargs)
        _configure_sqlite(engine, in_memory=in_memory)
        return engine
    # No pre-ping round trip per transaction: a connection found dead is invalidated and the transaction retried
    # (see riverboat.store._tx).
    kwargs["pool_size"] = 5
    kwargs["max_overflow"] = 10  # at most 15 connections per Store: the server is shared
    return create_engine(url, **kwargs)


def _configure_sqlite(engine: Engine, *, in_memory: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (pysqlite's implicit transactions defeat BEGIN IMMEDIATE).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        if not in_memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers take the write lock up front; read-only work (riverboat.store._tx.Database.read) does not.
        read_only = conn.get_execution_options().get("riverboat_read_only", False)
        conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")
