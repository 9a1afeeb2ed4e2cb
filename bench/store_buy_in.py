"""The cost of issue #30's play check on the buy-in path: ``Ledger.buy_in`` (and ``top_up``, tournament
registration) now reads the player's protections row (``check_may_play``: a time-out or self-exclusion refuses
new play) in its transaction. This runs N buy-in + cash-out pairs with the check and with it replaced by a no-op,
alternating rounds in one process on the same database, so machine load hits both alike.

Run: ``.venv/bin/python bench/store_buy_in.py [--pairs 400] [--rounds 3] [--pg URL]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from argon2 import PasswordHasher

import riverboat.store.ledger as ledger_module
from riverboat.store import Store


def _round(store: Store, pid: int, pairs: int, tag: str) -> float:
    start = time.perf_counter()
    for i in range(pairs):
        store.ledger.buy_in(pid, "bench-table", 1_000, f"bi:{tag}:{i}")
        store.ledger.cash_out(pid, "bench-table", f"co:{tag}:{i}")
    return (time.perf_counter() - start) / pairs * 1e6  # microseconds per pair


def run(url: str, pairs: int, rounds: int) -> dict[str, float]:
    store = Store(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    store.upgrade()
    pid = store.accounts.register(f"bench{uuid.uuid4().hex[:8]}", "bench password").id
    store.ledger.deposit(pid, "EUR", 10**9, f"bench-dep:{pid}")
    real = ledger_module.check_may_play
    with_check, without = [], []
    try:
        for r in range(rounds):
            for check in ((True, False) if r % 2 == 0 else (False, True)):  # the order alternates per round
                ledger_module.check_may_play = real if check else (lambda s, p, now: None)
                (with_check if check else without).append(_round(store, pid, pairs, f"{pid}:{check}:{r}"))
    finally:
        ledger_module.check_may_play = real
        store.ledger.verify()
        store.dispose()
    return {"with_check_us": statistics.median(with_check), "without_check_us": statistics.median(without)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg", default=None, help="a PostgreSQL URL (a scratch schema is not made: use a test db)")
    args = parser.parse_args()
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out["sqlite"] = run(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", args.pairs, args.rounds)
    if args.pg:
        out["postgresql"] = run(args.pg, args.pairs, args.rounds)
    for db, figures in out.items():
        print(f"{db}: buy-in + cash-out {figures['with_check_us']:.0f} us with the play check, "
              f"{figures['without_check_us']:.0f} us without")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
