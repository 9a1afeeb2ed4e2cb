"""``riverboat serve`` that cannot start says why in one line and exits with code 2 (found by the outside walk of
2026-12-03): a port in use ended, after the whole room had started, in uvicorn's ``sys.exit`` inside its task
("Task exception was never retrieved", a traceback, exit code 3); a database that cannot be opened (a SQLite file in
a folder that does not exist, an unknown dialect) in the driver's traceback; a missing --twister file printed a
second, wrong line ("the store process stopped unexpectedly")."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import free_port


def _serve(*args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from riverboat.cli import main; main()", "serve", *args],
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def _one_line(res: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert "is running" not in res.stdout, res.stdout
    return lines[0]


def test_a_port_in_use_is_one_line_before_anything_starts(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        res = _serve("--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'rb.sqlite3'}")
    assert _one_line(res) == f"riverboat serve: cannot listen on 127.0.0.1:{port}: Address already in use"


@pytest.mark.parametrize(("args", "says"), [
    (["--database-url", "sqlite:////nonexistent-folder/rb.sqlite3"], "cannot open the database "
     "sqlite:////nonexistent-folder/rb.sqlite3: unable to open database file"),
    (["--database-url", "nonsense://x"], "cannot open the database nonsense://x: Can't load plugin"),
    (["--port", "-5"], "--port must be between 0 and 65535, not -5"),
    (["--twister", "/nonexistent-folder/twister.json"], "No such file or directory"),
])
def test_what_cannot_be_opened_is_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    base = ["--port", "0", "--no-demo"] if "--port" not in args else ["--no-demo"]
    if "--database-url" not in args:
        base += ["--database-url", f"sqlite:///{tmp_path / 'rb.sqlite3'}"]
    line = _one_line(_serve(*base, *args))
    assert line.startswith("riverboat serve: ") and says in line, line
