"""Which live table host should own a table (rendezvous hashing, ``riverboat.cluster.names``): the host that takes a
table after a failover (R-SERVER-1) and where balancing hands idle tables (issue #15, docs/cluster.md)."""

from __future__ import annotations

import hashlib

from riverboat.cluster.names import preference, preferred_host

HOSTS = ["tables-1", "tables-2", "tables-3"]
TABLES = [f"nlhe-{i}" for i in range(1667)]


def _blake(node: str, table: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{node}/{table}".encode(), digest_size=8).digest(), "big")


def test_r_server_1_the_preferred_host_is_the_highest_rendezvous_hash() -> None:
    for t in TABLES[:200]:
        assert preferred_host(HOSTS, t) == max(HOSTS, key=lambda n, t=t: _blake(n, t))
        assert preference("tables-1", t) == _blake("tables-1", t)


def test_r_server_1_a_lost_host_moves_only_its_own_tables_and_the_split_is_even() -> None:
    before = {t: preferred_host(HOSTS, t) for t in TABLES}
    share = {h: sum(1 for o in before.values() if o == h) for h in HOSTS}
    assert all(abs(n - len(TABLES) / 3) < 0.06 * len(TABLES) for n in share.values()), share
    after = {t: preferred_host(HOSTS[:2], t) for t in TABLES}  # tables-3 is gone
    moved = [t for t in TABLES if before[t] != after[t]]
    assert moved and all(before[t] == "tables-3" for t in moved)
    assert len(moved) == share["tables-3"]


def test_scans_do_not_hash_the_tables_again() -> None:
    """Every host asks for the preferred host of each of its tables twice a second (ownership scan, balancing):
    after the first scan the answers come from the memo, with no new hashing."""
    for t in TABLES:
        preferred_host(HOSTS, t)
    misses = preference.cache_info().misses
    for _ in range(3):
        for t in TABLES:
            preferred_host(HOSTS, t)
    assert preference.cache_info().misses == misses


def test_r_server_1_balancing_looks_only_at_tables_preferred_elsewhere_and_only_again_after_a_change() -> None:
    """Balancing (a host over its share hands idle tables to their preferred host) considers the tables it owns whose
    preferred host is another live one; the list is worked out again only when the live hosts or the owned tables
    change, not at every scan (a host one table over its share, all of whose tables preferred it, went through all
    of them twice a second)."""
    from types import SimpleNamespace

    from riverboat.cluster.ownership import Ownership

    hosts = HOSTS[:2]
    owned = {t: object() for t in TABLES}
    node = SimpleNamespace(node="tables-1", owned=owned, _owned_version=0, _elsewhere_key=None, _elsewhere=[])
    elsewhere = Ownership.preferred_elsewhere(node, hosts)  # type: ignore[arg-type]
    assert elsewhere == [t for t in TABLES if preferred_host(hosts, t) == "tables-2"]
    assert 0 < len(elsewhere) < len(TABLES)
    lookups = preference.cache_info()
    assert Ownership.preferred_elsewhere(node, hosts) is elsewhere  # type: ignore[arg-type]
    assert preference.cache_info().hits == lookups.hits  # nothing looked up again: same hosts, same tables
    gone = elsewhere[0]
    del owned[gone]
    node._owned_version += 1  # as lose does
    again = Ownership.preferred_elsewhere(node, hosts)  # type: ignore[arg-type]
    assert gone not in again and len(again) == len(elsewhere) - 1
    assert Ownership.preferred_elsewhere(node, HOSTS) != again  # type: ignore[arg-type]  # a third host
