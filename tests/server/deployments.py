"""Both deployments of one room behind one interface (issue #29 "How it must be proven"): a test that takes the
``deployment`` fixture runs twice, against

- ``one``: one ``riverboat serve`` process (``--role all``) on SQLite, and
- ``cluster``: a gateway and two table hosts (``--role gateway|tables``) on NATS + PostgreSQL (a schema of its own).

The test sees the same things either way: the public URLs (``base_url``, ``ws_url``), the store, funded players,
table ids by name, and each node's metrics listener (``metrics_urls``: loopback, not the public port).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest

from riverboat.cluster.names import preference, table_id_for
from riverboat.store import Store

from .conftest import RunningServer
from .test_server_cluster import Cluster, _nats_up


class Deployment(Protocol):
    kind: str
    base_url: str
    ws_url: str
    http: httpx.Client  # on the public address (a cluster's gateway)

    @property
    def store(self) -> Store: ...

    def player(self, name: str | None = None, eur: int = 0, play: int = 0) -> tuple[int, str]: ...

    def table_id(self, name: str) -> str: ...

    def balance(self, player_id: int, currency: str = "EUR") -> int: ...

    def log(self) -> str:
        """What the node(s) wrote (for a failing assertion's message)."""
        ...

    def metrics_urls(self) -> list[str]: ...

    def public_urls(self) -> list[str]: ...

    def owner(self, table: str) -> str | None:
        """The node that deals ``table`` (one process: ``"one"``; a cluster: the table host that owns it now)."""
        ...


class OneProcess:
    kind = "one"

    def __init__(self, tmp: Path, tables: list[dict[str, Any]], extra: list[str]) -> None:
        self.server = RunningServer(tmp, tables, extra)
        self.http = self.server.http
        self.base_url = self.server.base_url
        self.ws_url = self.server.ws_url

    @property
    def store(self) -> Store:
        return self.server.store

    def player(self, name: str | None = None, eur: int = 0, play: int = 0) -> tuple[int, str]:
        return self.server.player(name, eur, play)

    def table_id(self, name: str) -> str:
        return self.server.table_id(name)

    def balance(self, player_id: int, currency: str = "EUR") -> int:
        return self.store.ledger.balance(player_id, currency)

    def metrics_urls(self) -> list[str]:
        return []  # one process has no node metrics (a cluster node's)

    def public_urls(self) -> list[str]:
        return [self.base_url]

    def owner(self, table: str) -> str | None:
        return "one"

    def log(self) -> str:
        return self.server.log()

    def close(self) -> None:
        code = self.server.stop()
        assert code == 0, f"server exit status {code}:\n{self.server.log()}"


class GatewayAndHosts:
    """A gateway and two table hosts; the tables are opened by the first host, and the hosts are named so that the
    tables split between them (each host deals some: a rule that spans tables crosses hosts)."""

    kind = "cluster"

    def __init__(self, tmp: Path, tables: list[dict[str, Any]], extra: list[str]) -> None:
        _nats_up()
        self.cluster = c = Cluster(tmp)
        # cash tables (a Speed Poker pool stays where it opened)
        ids = [table_id_for(i, t["name"], False) for i, t in enumerate(tables) if not t.get("speed")]
        c.h1, c.h2 = _split_hosts(c.prefix, ids)
        c.start(c.h1, "tables", *extra, tables=tables)
        c.start(c.h2, "tables", *extra)
        self.gateway = c.start(f"{c.prefix}-g1", "gateway", *extra)
        self.base_url = self.gateway.base_url
        self.ws_url = self.gateway.ws_url
        self.http = self.gateway.http
        names = {t["name"] for t in tables}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            lobby = self.gateway.http.get("/api/lobby").json()
            if names <= {e["name"] for e in lobby["tables"] + lobby.get("pools", [])} and (
                    len(ids) < 2 or {c.owner(t) for t in ids} == {c.h1, c.h2}):
                break
            time.sleep(0.1)

    @property
    def store(self) -> Store:
        return self.cluster.store

    def player(self, name: str | None = None, eur: int = 0, play: int = 0) -> tuple[int, str]:
        name = name or f"p{uuid.uuid4().hex[:10]}"
        store = self.cluster.store
        pid = store.accounts.register(name, "password-" + name).id
        if eur:
            store.ledger.deposit(pid, "EUR", eur, f"test-dep-eur:{pid}")
        if play:
            store.ledger.deposit(pid, "PLAY", play, f"test-dep-play:{pid}")
        return pid, store.accounts.login(name, "password-" + name)

    def table_id(self, name: str) -> str:
        return self.gateway.table_id(name)

    def balance(self, player_id: int, currency: str = "EUR") -> int:
        return self.store.ledger.balance(player_id, currency)

    def metrics_urls(self) -> list[str]:
        return [str(httpx.get(node.base_url + "/health", timeout=2).json().get("metrics"))
                for node in self.cluster.nodes.values()]

    def public_urls(self) -> list[str]:
        return [node.base_url for node in self.cluster.nodes.values()]

    def owner(self, table: str) -> str | None:
        return self.cluster.owner(table)

    def log(self) -> str:
        return "\n".join(f"--- {name}\n{node.log()[-4000:]}" for name, node in self.cluster.nodes.items())

    def close(self) -> None:
        self.cluster.close()


def _split_hosts(prefix: str, table_ids: list[str]) -> tuple[str, str]:
    """Two table host ids between which ``table_ids`` split evenly (rendezvous hashing is deterministic)."""
    half = len(table_ids) // 2
    for n in range(500):
        a, b = f"{prefix}-h1-{n}", f"{prefix}-h2-{n}"
        if sum(preference(a, t) > preference(b, t) for t in table_ids) == half:
            return a, b
    raise AssertionError("no split found")


def deployment_fixture(tables: list[dict[str, Any]], extra: list[str] | None = None, *,
                       money: dict[str, Any] | None = None, twister: dict[str, Any] | None = None) -> Any:
    """A module fixture, parametrised over both deployments, that serves ``tables`` (``extra``: more arguments of
    ``riverboat serve``, given to every node; ``money``: the money settings, ``--money``, docs/payments.md;
    ``twister``: the Twister section, ``--twister``, docs/twister.md)."""

    @pytest.fixture(scope="module", params=["one", "cluster"])
    def deployment(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                   ) -> Iterator[Deployment]:
        tmp = tmp_path_factory.mktemp(f"deploy-{request.param}")
        args = list(extra or [])
        if money is not None:
            (tmp / "money.json").write_text(json.dumps(money))
            args += ["--money", str(tmp / "money.json")]
        if twister is not None:
            (tmp / "twister.json").write_text(json.dumps(twister))
            args += ["--twister", str(tmp / "twister.json")]
        d: OneProcess | GatewayAndHosts = (OneProcess(tmp, tables, args) if request.param == "one"
                                           else GatewayAndHosts(tmp, tables, args))
        try:
            yield d
        finally:
            d.close()

    return deployment
