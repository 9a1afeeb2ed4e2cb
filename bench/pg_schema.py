"""A scratch PostgreSQL schema for a benchmark run: created empty, handed over as a SQLAlchemy URL whose
``search_path`` is that schema, dropped with everything in it afterwards."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg


@contextmanager
def scratch_schema(pg: str, prefix: str) -> Iterator[tuple[str, str]]:
    """(schema name, SQLAlchemy URL on it) for ``pg`` (a libpq URL such as postgresql://postgres@127.0.0.1/test)."""
    schema = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg, autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema, f"postgresql+psycopg://{pg.split('://', 1)[1]}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(pg, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
