"""The cluster's nodes run like the single process under load (issue #15 speed, docs/performance.md): real
processes (one table host, one gateway), NATS and PostgreSQL.

- Both roles pace their garbage collector (``riverboat.server.gcpace``): without it every full collection of a
  node's growing heap (thousands of connections or tables) stalls its event loop and costs CPU per action; their
  ``/metrics`` show the frozen objects.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from .test_server_cluster import CURRENT, TABLES, Cluster

TIMEOUT = 60.0


def _metric(c: Cluster, node: str, name: str) -> float | None:
    text = httpx.get(c.health(node)["metrics"], timeout=5).text  # the loopback listener (issue #29)
    m = re.search(rf"^{name}(?:\{{[^}}]*\}})? ([0-9.e+]+)$", text, re.M)
    return float(m.group(1)) if m else None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster-speed"))
    CURRENT.append(c)
    try:
        c.start(f"{c.prefix}-h1", "tables", tables=TABLES[:1])
        c.start(f"{c.prefix}-g1-{uuid.uuid4().hex[:4]}", "gateway")
        yield c
    finally:
        CURRENT.remove(c)
        c.close()


def test_r_server_1_both_roles_pace_their_garbage_collector(cluster: Cluster) -> None:
    """Every node freezes its long-lived heap (R-SERVER-1 is what a stalled node risks: a lease lost to a pause)."""
    c = cluster
    deadline = time.monotonic() + TIMEOUT
    frozen: dict[str, float | None] = {}
    while time.monotonic() < deadline:
        frozen = {name: _metric(c, name, "riverboat_gc_frozen_objects") for name in c.nodes}
        if all(v for v in frozen.values()):
            break
        time.sleep(0.5)
    assert frozen and all(v and v > 1000 for v in frozen.values()), frozen
