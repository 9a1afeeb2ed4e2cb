"""Programmatic Alembic configuration, so ``riverboat db upgrade`` works from an installed package (no alembic.ini)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

#: The PostgreSQL advisory lock that serialises migrations: the nodes of one room (table hosts, gateways) started
#: together on a new database each upgrade it on start; the first makes the schema, the others wait, then find it
#: at head. (Without it one of two hosts started together died on a duplicate CREATE TABLE.)
MIGRATION_LOCK = 0x52425F4D  # "RB_M"


def alembic_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration up to ``revision`` on ``engine``, one node at a time on PostgreSQL (the lock is held
    until this transaction ends; SQLite's own write lock serialises it there)."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg = alembic_config(engine)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str:
    """The newest migration shipped with this package (what ``upgrade`` brings a database to)."""
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head
