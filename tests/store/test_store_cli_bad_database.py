"""Every ``riverboat`` command that takes ``--database-url`` says in one line when the database cannot be opened
(found by the outside walk of 2026-12-03: ``db check``, ``db upgrade``, ``integrity scan``, ``twister audit`` and
``operator create`` ended in SQLAlchemy's traceback for a SQLite file in a folder that does not exist or an unknown
dialect)."""

from __future__ import annotations

import subprocess
import sys

import pytest

MISSING = "sqlite:////nonexistent-folder/rb.sqlite3"


@pytest.mark.parametrize(("args", "reason"), [
    (["db", "check", "--database-url", MISSING], "unable to open database file"),
    (["db", "upgrade", "--database-url", "nonsense://x"], "Can't load plugin: sqlalchemy.dialects:nonsense"),
    (["integrity", "scan", "--database-url", MISSING], "unable to open database file"),
    (["twister", "audit", "--database-url", MISSING], "unable to open database file"),
    (["operator", "create", "walk_op", "--password", "long-enough-1", "--database-url", MISSING],
     "unable to open database file"),
])
def test_a_database_that_cannot_be_opened_is_one_line(args: list[str], reason: str) -> None:
    res = subprocess.run([sys.executable, "-c", "from riverboat.cli import main; main()", *args],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert lines == [f"riverboat: cannot use the database: {reason}"], res.stderr
