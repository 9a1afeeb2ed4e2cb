"""Harness for the server tests: a real ``riverboat serve`` process on a free port with SQLite in a tmp dir.

``RunningServer`` starts the process with a table list (JSON, like ``riverboat serve --tables``), waits for
``GET /health`` to answer 200, and stops it with SIGTERM (asserting a clean exit). Players are created directly in
the same database through the store with a cheap argon2id hasher (the REST register/login path is tested on its
own in test_server_rest.py), funded by an operator deposit, and connected with real WebSocket clients.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from riverboat.store import Store

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RunningServer:
    def __init__(self, tmp: Path, tables: list[dict[str, Any]], extra_args: list[str] | None = None) -> None:
        self.tmp = tmp
        self.db_path = tmp / f"rb-{uuid.uuid4().hex[:8]}.sqlite3"
        self.db_url = f"sqlite:///{self.db_path}"
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        tables_file = tmp / f"tables-{self.port}.json"
        tables_file.write_text(json.dumps(tables))
        self.log_path = tmp / f"server-{self.port}.log"
        self._log = self.log_path.open("wb")
        args = [
            sys.executable, "-c", "from riverboat.cli import main; main()", "serve",
            "--port", str(self.port), "--database-url", self.db_url, "--tables", str(tables_file),
            "--log-level", "warning", *(extra_args or []),
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT, cwd=str(tmp), env=env)
        self._store: Store | None = None
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.base_url}/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server not ready after {timeout} s:\n{self.log()}")

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.db_url, password_hasher=FAST_HASHER)
        return self._store

    def player(self, name: str | None = None, eur: int = 0, play: int = 0) -> tuple[int, str]:
        """Create a funded player in the server's database; returns (player_id, bearer token)."""
        name = name or f"p{uuid.uuid4().hex[:10]}"
        info = self.store.accounts.register(name, "password-" + name)
        if eur:
            self.store.ledger.deposit(info.id, "EUR", eur, f"test-dep-eur:{info.id}")
        if play:
            self.store.ledger.deposit(info.id, "PLAY", play, f"test-dep-play:{info.id}")
        token = self.store.accounts.login(name, "password-" + name)
        return info.id, token

    def balance(self, player_id: int, currency: str = "EUR") -> int:
        return self.store.ledger.balance(player_id, currency)

    def lobby(self) -> list[dict[str, Any]]:
        data = httpx.get(f"{self.base_url}/api/lobby", timeout=5.0).json()
        return list(data["tables"]) + list(data.get("pools", []))

    def table_id(self, name: str) -> str:
        for entry in self.lobby():
            if entry.get("name") == name:
                return str(entry["id"])
        raise KeyError(name)

    def stop(self, timeout: float = 30.0) -> int:
        if self._store is not None:
            self._store.dispose()
            self._store = None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
                raise AssertionError(f"server did not stop on SIGTERM:\n{self.log()}") from None
        self._log.close()
        return self.proc.returncode


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Any]:
    """Factory: ``start_server(tables, extra_args)`` -> RunningServer, stopped (SIGTERM, exit 0) at teardown."""
    servers: list[RunningServer] = []

    def start(tables: list[dict[str, Any]], extra_args: list[str] | None = None) -> RunningServer:
        server = RunningServer(tmp_path, tables, extra_args)
        servers.append(server)
        return server

    yield start
    for server in servers:
        code = server.stop()
        assert code == 0, f"server exit status {code}:\n{server.log()}"
