"""Issue #29 item 5: a node refuses to join a NATS room (``--cluster`` name) created for another database, with a
clear message and exit status 2, before it touches a table record; a node of the room's own database joins it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_server_cluster import TABLES, Cluster, _nats_up


@pytest.fixture
def two_databases(tmp_path: Path) -> Iterator[tuple[Cluster, Cluster]]:
    _nats_up()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = Cluster(tmp_path / "a"), Cluster(tmp_path / "b")
    second.prefix = first.prefix  # the same room name on NATS, another database (schema)
    try:
        yield first, second
    finally:
        second.close()
        first.close()


@pytest.mark.parametrize("role", ["tables", "gateway"])
def test_issue_29_a_node_of_another_database_refuses_the_room(two_databases: tuple[Cluster, Cluster], role: str
                                                              ) -> None:
    """Issue #29: the room's first host claims it for its database; a host or gateway pointed at another database
    with the same ``--cluster`` name stops at once with a message naming both and what to do (exit status 2), and
    the room's table records stay as they were; a second host of the right database joins."""
    first, second = two_databases
    first.start(first.h1, "tables", tables=TABLES[:2])
    with pytest.raises(RuntimeError) as refused:
        second.start(f"{second.prefix}-x-{role}", role)
    text = str(refused.value)
    assert "server exited with 2" in text, text
    assert f"the NATS room {first.prefix!r} (--cluster) was created for another database" in text, text
    joined = first.start(first.h2, "tables")  # the room's own database: joins
    assert joined.proc.poll() is None
    assert first.health(first.h2)["status"] == "ok"
