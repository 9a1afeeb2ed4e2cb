"""Fixtures for the Twister room tests: ``tstore``, a real store on SQLite and on the PostgreSQL server, ending
with the ledger's full audit (tests/store_fixtures.py)."""

from __future__ import annotations

from tests.store_fixtures import (  # noqa: F401 (fixtures)
    FAST_HASHER,
    migrated_pg_url,
    migrated_sqlite_template,
    tstore,
)
