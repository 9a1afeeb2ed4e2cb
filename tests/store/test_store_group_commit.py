"""Group commit (``Database.batch``): several ledger calls share ONE transaction, each in its own SAVEPOINT.

A refused call inside a batch changes nothing and the others commit (R-WALLET-1/3 atomicity per operation); a
batch that dies before its commit stores nothing at all (R-SERVER-1: an unsettled hand stays unsettled and is
voided); idempotency keys behave exactly as outside a batch; every currency still sums to zero. Runs on SQLite and
PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from riverboat.store import IdempotencyConflict, InsufficientFunds, InvalidRequest, NotFound, Store
from riverboat.store.models import Hand, LedgerTxn

from .conftest import make_player

CUR = "EUR"


def _txn_count(store: Store, idem_key: str) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(LedgerTxn).where(LedgerTxn.idem_key == idem_key)) or 0)


def _funded(store: Store, name: str, amount: int) -> int:
    pid = make_player(store, name)
    store.ledger.deposit(pid, CUR, amount, f"dep:{name}")
    return pid


def test_r_wallet_refused_call_in_a_batch_changes_nothing_and_the_others_commit(store: Store) -> None:
    """R-WALLET-1/R-BUYIN-1: in one group commit, a buy-in the balance cannot cover is refused and leaves no trace
    (no transaction, balances untouched) while the buy-ins around it are stored."""
    rich, poor, other = _funded(store, "rich", 10_000), _funded(store, "poor", 500), _funded(store, "other", 3_000)
    db = store._db
    outcomes: list[object] = []
    with db.batch():
        outcomes.append(store.ledger.buy_in(rich, "T1", 4_000, "bi:rich", currency=CUR))
        with pytest.raises(InsufficientFunds):
            store.ledger.buy_in(poor, "T1", 4_000, "bi:poor", currency=CUR)
        outcomes.append(store.ledger.buy_in(other, "T1", 2_500, "bi:other", currency=CUR))
        with pytest.raises(NotFound):
            store.ledger.buy_in(10**9, "T1", 1_000, "bi:ghost", currency=CUR)
    assert all(isinstance(o, int) for o in outcomes)
    assert store.ledger.table_stacks("T1", CUR) == {rich: 4_000, other: 2_500}
    assert store.ledger.balance(rich, CUR) == 6_000
    assert store.ledger.balance(poor, CUR) == 500
    assert store.ledger.balance(other, CUR) == 500
    assert _txn_count(store, "bi:poor") == 0 and _txn_count(store, "bi:ghost") == 0
    assert store.ledger.total(CUR) == 0
    store.ledger.verify()


def test_r_wallet_3_hands_started_and_settled_in_one_batch_with_a_refused_settlement(store: Store) -> None:
    """R-WALLET-3: start and settle of several tables' hands in one group commit. A settlement that names a player
    who was not dealt in is refused inside the batch: its hand stays started with every stack unchanged, the other
    hand settles, and chips are conserved."""
    a, b, c, d = (_funded(store, n, 10_000) for n in ("alice", "bobby", "carol", "davey"))
    for pid, table in ((a, "T1"), (b, "T1"), (c, "T2"), (d, "T2")):
        store.ledger.buy_in(pid, table, 5_000, f"bi:{pid}", currency=CUR)
    db = store._db
    with db.batch():
        store.ledger.start_hand("T1", "h1", {a: 5_000, b: 5_000}, currency=CUR)
        store.ledger.start_hand("T2", "h1", {c: 5_000, d: 5_000}, currency=CUR)
        with pytest.raises(InvalidRequest):  # a second open hand at T1: refused, the first one untouched
            store.ledger.start_hand("T1", "h2", {a: 5_000, b: 5_000}, currency=CUR)
        store.ledger.settle_hand("T1", "h1", {a: 700, b: -700}, 0, "phh T1 h1", [{"kind": "x"}])
        with pytest.raises(InvalidRequest):  # a stranger in the changes: refused after its savepoint began
            store.ledger.settle_hand("T2", "h1", {c: 300, a: -300}, 0, "phh T2 h1", [])
    t1 = store.hands.get("T1", "h1")
    t2 = store.hands.get("T2", "h1")
    assert t1 is not None and t1.status == "settled" and t1.changes == {a: 700, b: -700}
    assert t2 is not None and t2.status == "started"
    assert store.hands.get("T1", "h2") is None
    assert store.ledger.table_stacks("T1", CUR) == {a: 5_700, b: 4_300}
    assert store.ledger.table_stacks("T2", CUR) == {c: 5_000, d: 5_000}
    # the refused settlement can be made correctly afterwards (nothing of the refused attempt was kept)
    store.ledger.settle_hand("T2", "h1", {c: 300, d: -300}, 0, "phh T2 h1", [])
    assert store.ledger.table_stacks("T2", CUR) == {c: 5_300, d: 4_700}
    assert store.ledger.total(CUR) == 0
    store.ledger.verify()


def test_r_server_1_a_batch_that_dies_before_commit_stores_nothing(store: Store) -> None:
    """R-SERVER-1: if the process dies inside a group commit, none of its calls is stored: the buy-in did not
    happen, the hand was never started, the settlement never applied; voiding then finds the earlier open hand."""
    a, b = _funded(store, "alice", 10_000), _funded(store, "bobby", 10_000)
    store.ledger.buy_in(a, "T1", 5_000, "bi:a", currency=CUR)
    store.ledger.buy_in(b, "T1", 5_000, "bi:b", currency=CUR)
    store.ledger.start_hand("T1", "h1", {a: 5_000, b: 5_000}, currency=CUR)
    c = _funded(store, "carol", 10_000)
    before = store.ledger.balances(CUR)

    class Crash(Exception):
        pass

    with pytest.raises(Crash), store._db.batch():
        store.ledger.buy_in(c, "T2", 5_000, "bi:c", currency=CUR)
        store.ledger.settle_hand("T1", "h1", {a: 1_000, b: -1_000}, 0, "phh", [])
        raise Crash
    assert store.ledger.balances(CUR) == before
    assert _txn_count(store, "bi:c") == 0
    h1 = store.hands.get("T1", "h1")
    assert h1 is not None and h1.status == "started"
    assert store.ledger.void_unsettled_hands() == [("T1", "h1")]
    assert store.ledger.table_stacks("T1", CUR) == {a: 5_000, b: 5_000}
    assert store.ledger.total(CUR) == 0
    store.ledger.verify()


def test_r_wallet_idempotency_keys_inside_one_batch(store: Store) -> None:
    """Idempotency inside a group commit: the same buy-in twice returns the same transaction and moves money once;
    the same key with a different request is refused (IdempotencyConflict) and changes nothing."""
    a = _funded(store, "alice", 10_000)
    with store._db.batch():
        first = store.ledger.buy_in(a, "T1", 4_000, "bi:a", currency=CUR)
        again = store.ledger.buy_in(a, "T1", 4_000, "bi:a", currency=CUR)
        with pytest.raises(IdempotencyConflict):
            store.ledger.buy_in(a, "T1", 3_000, "bi:a", currency=CUR)
    assert first == again
    assert store.ledger.balance(a, CUR) == 6_000
    assert store.ledger.table_stack(a, "T1", CUR) == 4_000
    assert _txn_count(store, "bi:a") == 1
    assert store.ledger.total(CUR) == 0


def test_r_server_reads_in_a_batch_see_the_batch_and_nested_batches_join(store: Store) -> None:
    """A read inside the batch sees the calls before it (one transaction), and a nested ``batch()`` joins the
    outer one: an error in the outer block after the nested one undoes both."""
    a, b = _funded(store, "alice", 10_000), _funded(store, "bobby", 10_000)
    with store._db.batch():
        store.ledger.buy_in(a, "T1", 4_000, "bi:a", currency=CUR)
        assert store.ledger.table_stack(a, "T1", CUR) == 4_000
        assert store.ledger.balance(a, CUR) == 6_000
    with pytest.raises(RuntimeError), store._db.batch():
        with store._db.batch():
            store.ledger.buy_in(b, "T1", 4_000, "bi:b", currency=CUR)
        raise RuntimeError("after the nested block")
    assert store.ledger.table_stacks("T1", CUR) == {a: 4_000}
    with store.session() as s:
        assert int(s.scalar(select(func.count()).select_from(Hand)) or 0) == 0
    store.ledger.verify()
