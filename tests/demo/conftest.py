"""Fixtures for the demo-room tests (issue #31): a migrated SQLite store per test, audited at the end."""

from __future__ import annotations

from tests.store_fixtures import (  # noqa: F401 (fixtures)
    FAST_HASHER,
    migrated_sqlite_template,
    sqlite_store,
)
