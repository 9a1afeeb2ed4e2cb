"""Crash safety (R-SERVER-1/2): a real process settles hands in a loop and is killed with SIGKILL at random
moments (20 times on SQLite, 8 on PostgreSQL; the processes are forked from a pre-loaded helper, see crash_worker.py); after each kill, recovery voids the unsettled hand and the invariants hold:
every stack is its pre-hand value or its settled value, and the global sum never changes."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from riverboat.store import AccountKey, Store

from .conftest import FAST_HASHER, make_player

WORKER = Path(__file__).with_name("crash_worker.py")
KILLS = {"sqlite": 20, "postgresql": 8}  # the issue asks for >= 20 on one database; PostgreSQL is a bonus


def _check_chain(store: Store, table: str, expected_now: dict[int, int]) -> int:
    """Walk the table's hands oldest first: each hand starts from the previous settled (or voided) result."""
    hands = list(reversed(store.hands.for_table(table, limit=100_000, include_void=True)))
    voided = 0
    state = dict(hands[0].start_stacks) if hands else dict(expected_now)
    for h in hands:
        assert {p: s for p, s in h.start_stacks.items()} == {p: state[p] for p in h.start_stacks}
        if h.status == "settled":
            for p, c in h.changes.items():
                state[p] += c
            assert sum(h.changes.values()) + h.rake == 0
        else:
            assert h.status == "void" and h.changes == {}
            voided += 1
    assert {p: s for p, s in state.items() if s} == expected_now
    return voided


@pytest.mark.slow
def test_r_server_sigkill_during_settlement_loses_no_chip(db_url: str) -> None:
    """R-SERVER-1/2: kill -9 at random moments; on restart unsettled hands are void, stacks are pre-hand or
    settled values, the sum over all accounts is unchanged and every transaction is balanced."""
    setup = Store(db_url, password_hasher=FAST_HASHER)
    table = f"crash-{os.getpid()}-{time.monotonic_ns()}"
    players = [make_player(setup, f"crash{i}", login=False) for i in range(4)]
    for p in players:
        setup.ledger.deposit(p, "EUR", 30_000, f"dep-{p}")
        setup.ledger.buy_in(p, table, 20_000, f"bi-{p}")
    setup.dispose()
    money_in_play = 4 * 20_000
    rng = random.Random(4)
    kills = KILLS[db_url.split(":")[0].split("+")[0]]
    zygote = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    assert zygote.stdin is not None and zygote.stdout is not None
    try:
        for _ in range(kills):
            zygote.stdin.write(f"go {db_url} {table}\n")
            zygote.stdin.flush()
            child = int(zygote.stdout.readline())
            time.sleep(rng.uniform(0.0, 0.12))
            os.kill(child, signal.SIGKILL)
            assert zygote.stdout.readline().strip() == f"exit {int(signal.SIGKILL)}"
            if db_url.startswith("postgresql"):
                _wait_for_server_to_drop(db_url, f"rbcrash{child}")
            _recover_and_check(db_url, table, players, money_in_play)
    finally:
        zygote.stdin.close()
        zygote.wait(timeout=30)
    store = Store(db_url, password_hasher=FAST_HASHER)
    try:
        voided_total = _check_chain(store, table, store.ledger.table_stacks(table))
        hands = len(store.hands.for_table(table, limit=100_000, include_void=True))
    finally:
        store.dispose()
    print(f"{kills} kills, {hands} hands, {voided_total} voided")
    assert voided_total >= 1, "no kill landed inside a hand; the crash rule was not exercised"


def _wait_for_server_to_drop(db_url: str, application_name: str) -> None:
    """A restarted server starts after the old process is gone; on PostgreSQL that includes its backend (which
    may still be finishing a COMMIT it received just before the kill).  Wait for that before recovering."""
    eng = create_engine(db_url, poolclass=NullPool)
    try:
        deadline = time.monotonic() + 60
        with eng.connect() as conn:
            while conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :a"),
                               {"a": application_name}).scalar():
                assert time.monotonic() < deadline, "the killed client's backend never went away"
                time.sleep(0.01)
                conn.rollback()
    finally:
        eng.dispose()


def _recover_and_check(db_url: str, table: str, players: list[int], money_in_play: int) -> None:
    # Restart: recovery, then the invariants.
    store = Store(db_url, password_hasher=FAST_HASHER)
    try:
        store.ledger.void_unsettled_hands()
        store.ledger.verify()
        assert store.ledger.total("EUR") == 0
        stacks = store.ledger.table_stacks(table)
        rake = store.ledger.account_balance(AccountKey.rake("EUR"))
        assert sum(stacks.values()) + rake == money_in_play
        assert all(store.ledger.balance(p) == 10_000 for p in players)
        last = store.hands.for_table(table, limit=1, include_void=True)[0]
        if last.status == "void":  # killed mid-hand: every stack is back at its pre-hand value
            assert stacks == {p: s for p, s in last.start_stacks.items() if s}
        else:  # killed between hands: every stack is the settled value
            assert last.status == "settled"
            after = {p: s + last.changes.get(p, 0) for p, s in last.start_stacks.items()}
            assert stacks == {p: s for p, s in after.items() if s}
    finally:
        store.dispose()
