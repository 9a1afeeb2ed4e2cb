"""Concurrency: 50 simultaneous buy-ins from one account that covers only 10 (row locks on PostgreSQL,
BEGIN IMMEDIATE on SQLite) and 50 simultaneous replays of one idempotency key."""

from __future__ import annotations

import threading
from collections.abc import Callable

from riverboat.store import InsufficientFunds, Store

from .conftest import make_player


def _hammer(n: int, fn: Callable[[int], object]) -> tuple[list[object], list[BaseException]]:
    barrier = threading.Barrier(n)
    results: list[object] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        barrier.wait()
        try:
            r = fn(i)
            with lock:
                results.append(r)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted on below
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results, errors


def test_r_buyin_50_concurrent_buy_ins_exactly_10_succeed(store: Store) -> None:
    """R-BUYIN-1 / R-WALLET-1 under concurrency: a balance covering 10 buy-ins admits exactly 10 of 50; the
    rest are refused as insufficient funds; final balances add up."""
    p = make_player(store, "whale", login=False)
    store.ledger.deposit(p, "EUR", 10 * 1_000, "dep")
    results, errors = _hammer(50, lambda i: store.ledger.buy_in(p, f"table{i}", 1_000, f"bi-{i}"))
    assert len(results) == 10
    assert len(errors) == 40 and all(isinstance(e, InsufficientFunds) for e in errors), errors[:3]
    assert store.ledger.balance(p) == 0
    stacks = [store.ledger.table_stack(p, f"table{i}") for i in range(50)]
    assert sorted(stacks) == [0] * 40 + [1_000] * 10
    assert store.ledger.total("EUR") == 0


def test_50_concurrent_replays_of_one_key_move_money_once(store: Store) -> None:
    """Issue #4 (idempotency) under concurrency, R-WALLET: the same deposit sent 50 times at once is applied exactly once."""
    p = make_player(store, "retry", login=False)
    results, errors = _hammer(50, lambda i: store.ledger.deposit(p, "EUR", 700, "same-key"))
    assert errors == []
    assert len(set(results)) == 1
    assert store.ledger.balance(p) == 700
    assert store.ledger.transaction_count() == 1
