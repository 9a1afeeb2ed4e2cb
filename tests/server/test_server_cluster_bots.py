"""The demo bots of a cluster (issue #15 item 3, docs/cluster.md): they play through a gateway like any player
and, when their gateway dies, reconnect through another live one (R-DISC), with real processes (one table host
running the bots, two gateways), NATS and PostgreSQL."""

from __future__ import annotations

import re
import signal
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from riverboat.cluster.names import table_id_for

from .test_server_cluster import CURRENT, Cluster

BOT_TABLE = [{"name": "Bots", "game": "holdem", "structure": "NL", "small_blind": 50, "big_blind": 100,
              "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY", "max_seats": 6, "bots": 3,
              "settings": {"action_seconds": 5, "between_hands_seconds": 0.2, "timebank_seconds": 0}}]
TABLE = table_id_for(0, "Bots", False)
TIMEOUT = 90.0  # generous: the machine may be loaded; every wait ends as soon as its condition holds


def _connections(c: Cluster, gateway: str) -> int:
    text = httpx.get(c.health(gateway)["metrics"], timeout=5).text  # the loopback listener (issue #29)
    m = re.search(r"^riverboat_connections(?:\{[^}]*\})? ([0-9.e+]+)$", text, re.M)
    return int(float(m.group(1))) if m else 0


def _settled(c: Cluster) -> int:
    return sum(1 for h in c.hands(TABLE) if h.status == "settled")


def _wait(pred: object, what: str, c: Cluster) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if pred():  # type: ignore[operator]
            return
        time.sleep(0.2)
    logs = {n: node.log()[-800:] for n, node in c.nodes.items()}
    raise AssertionError(f"timed out after {TIMEOUT} s: {what}\n{logs}")


@pytest.fixture
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster-bots"))
    CURRENT.append(c)
    try:
        yield c
    finally:
        CURRENT.remove(c)
        c.close()


def test_demo_bots_reconnect_through_another_gateway(cluster: Cluster) -> None:
    """R-DISC-1/R-SERVER-2: the table host's demo bots play through the only gateway; a second gateway starts and
    the first is killed (SIGKILL): every bot reconnects through the survivor and the table goes on dealing."""
    c = cluster
    g1, g2 = f"{c.prefix}-g1-{uuid.uuid4().hex[:4]}", f"{c.prefix}-g2-{uuid.uuid4().hex[:4]}"
    c.start(f"{c.prefix}-h1", "tables", tables=BOT_TABLE)
    c.start(g1, "gateway")
    _wait(lambda: _connections(c, g1) == 3 and _settled(c) >= 2, "the bots play through the first gateway", c)
    c.start(g2, "gateway")
    assert _connections(c, g2) == 0
    c.kill(g1, signal.SIGKILL)
    _wait(lambda: _connections(c, g2) == 3, "every bot connected through the second gateway", c)
    after = _settled(c)
    _wait(lambda: _settled(c) >= after + 3, "hands dealt after the bots moved", c)
