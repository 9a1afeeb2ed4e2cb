"""Table fences (issue #15, docs/cluster.md "Fencing"): a cluster host's lease epoch, checked inside the money
transaction itself, so a host that lost its table (paused, cut off) can never settle, deal or move its money.
Every test runs on SQLite and on PostgreSQL (the store fixtures)."""

from __future__ import annotations

import pytest

from riverboat.store import Store
from riverboat.store.errors import Fenced, InvalidRequest


def _two_players(store: Store) -> list[int]:
    ids = []
    for name in ("fence_a", "fence_b"):
        pid = store.accounts.register(name, "password-" + name).id
        store.ledger.deposit(pid, "EUR", 10_000, f"dep:{pid}")
        ids.append(pid)
    return ids


def _house_total(store: Store) -> int:
    return sum(v for k, v in store.ledger.balances("EUR").items() if not k.startswith("external"))


def test_r_server_1_claim_voids_the_hand_in_progress_and_returns_pre_hand_stacks(store: Store) -> None:
    a, b = _two_players(store)
    store.fences.claim("t1", "host-a", 5)
    store.ledger.buy_in(a, "t1", 1000, "bi-a", epoch=5)
    store.ledger.buy_in(b, "t1", 1500, "bi-b", epoch=5)
    store.ledger.start_hand("t1", "1-x", {a: 1000, b: 1500}, epoch=5)
    before = _house_total(store)
    claim = store.fences.claim("t1", "host-b", 9)  # host-a is gone: host-b takes the table
    assert claim.voided == ["1-x"]
    assert claim.stacks == {"EUR": {a: 1000, b: 1500}}
    assert claim.hands == 1
    assert _house_total(store) == before
    assert store.fences.current("t1") == (9, "host-b")
    store.ledger.verify()


def test_split_brain_old_epoch_cannot_settle_deal_or_move_money(store: Store) -> None:
    """The host that was paused past its lease (epoch 5) resumes after host-b claimed at epoch 9: refused."""
    a, b = _two_players(store)
    store.fences.claim("t1", "host-a", 5)
    store.ledger.buy_in(a, "t1", 1000, "bi-a", epoch=5)
    store.ledger.buy_in(b, "t1", 1000, "bi-b", epoch=5)
    store.ledger.start_hand("t1", "1-x", {a: 1000, b: 1000}, epoch=5)
    store.fences.claim("t1", "host-b", 9)
    with pytest.raises(Fenced):
        store.ledger.settle_hand("t1", "1-x", {a: 200, b: -200}, 0, "phh", epoch=5)
    with pytest.raises(Fenced):
        store.ledger.start_hand("t1", "2-x", {a: 1000, b: 1000}, epoch=5)
    with pytest.raises(Fenced):
        store.ledger.cash_out(a, "t1", "co-a", epoch=5)
    with pytest.raises(Fenced):
        store.ledger.top_up(a, "t1", 100, "tu-a", epoch=5)
    with pytest.raises(Fenced):
        store.ledger.buy_in(a, "t2-other", 100, "bi-other", epoch=5)  # never claimed: refused too
    assert store.ledger.table_stack(a, "t1") == 1000 and store.ledger.table_stack(b, "t1") == 1000
    # the new owner deals and settles with its epoch
    store.ledger.start_hand("t1", "2-y", {a: 1000, b: 1000}, epoch=9)
    store.ledger.settle_hand("t1", "2-y", {a: 300, b: -300}, 0, "phh", epoch=9)
    assert store.ledger.table_stack(a, "t1") == 1300
    store.ledger.verify()


def test_claims_only_move_forward(store: Store) -> None:
    store.fences.claim("t1", "host-b", 9)
    with pytest.raises(Fenced):
        store.fences.claim("t1", "host-a", 5)  # an older epoch
    with pytest.raises(Fenced):
        store.fences.claim("t1", "host-a", 9)  # the same epoch by another node
    again = store.fences.claim("t1", "host-b", 9)  # the same claim repeated: fine, nothing new voided
    assert again.voided == []
    for bad in (0, -1, True, "9"):
        with pytest.raises(InvalidRequest):
            store.fences.claim("t1", "host-b", bad)  # type: ignore[arg-type]
    assert store.fences.current("t1") == (9, "host-b")
    assert store.fences.current("nowhere") is None


def test_without_an_epoch_nothing_is_checked(store: Store) -> None:
    """A single-process room (--role all) passes no epoch: the fence plays no part."""
    a, b = _two_players(store)
    store.fences.claim("t1", "host-b", 9)
    store.ledger.buy_in(a, "t1", 1000, "bi-a")
    store.ledger.buy_in(b, "t1", 1000, "bi-b")
    store.ledger.start_hand("t1", "1-x", {a: 1000, b: 1000})
    store.ledger.settle_hand("t1", "1-x", {a: 100, b: -100}, 0, "phh")
    assert store.ledger.table_stack(a, "t1") == 1100
