"""Fixtures for the tournament tests: ``tstore`` (a real store on SQLite AND on the PostgreSQL server) and
``sqlite_store``, each ending with a full ledger audit (tests/store_fixtures.py)."""

from __future__ import annotations

from tests.store_fixtures import (  # noqa: F401 (fixtures)
    FAST_HASHER,
    migrated_pg_url,
    migrated_sqlite_template,
    sqlite_store,
    tstore,
)
