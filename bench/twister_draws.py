"""Twister draw speed: Riverboat's prize draws against ``random.choices`` with float weights.

Run: ``.venv/bin/python bench/twister_draws.py [--draws 1000000] [--store-games 300]``.

Riverboat: ``draw_multiplier`` on the EUR 1-20 Twister table (exact integer weights, rejection-sampled uniform
integer, bisect), with the production CSPRNG (``secrets.SystemRandom``) and with a seeded ``random.Random``; the
Wild Twister deck (``draw_from_deck``, CSPRNG). Peer (the naive way): ``random.choices(multipliers,
weights=[float percentages])`` one draw per call, on the Mersenne Twister and on ``SystemRandom``, and the
batch form ``choices(..., k=N)`` on the Mersenne Twister. Also the whole spin through the store (one database
transaction per game: draw, pool balancing and audit row, SQLite file in a temporary directory). Wall-clock,
best of three for the draw loops. The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from riverboat.twister import DeckState, draw_from_deck, draw_multiplier, system_source, table_for


def _rate(n: int, fn: Callable[[int], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t0)
    return n / best


def _store_spins(games: int) -> float:
    from argon2 import PasswordHasher

    from riverboat.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        st = Store(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
                   password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
        st.upgrade()
        ps = [st.accounts.register(f"bench{i}", "correct horse battery").id for i in range(3)]
        for p in ps:
            st.ledger.deposit(p, "EUR", 100 * games, f"d{p}")
        for g in range(games):
            st.twister.create(f"twister:{g}", "twister", 100)
            for p in ps:
                st.tournaments.register(p, f"twister:{g}", f"r{g}:{p}")
            st.tournaments.start(f"twister:{g}")
        t0 = time.perf_counter()
        for g in range(games):
            st.twister.spin(f"twister:{g}")
        dt = time.perf_counter() - t0
        st.ledger.verify()
        st.dispose()
    return games / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--draws", type=int, default=1_000_000)
    ap.add_argument("--store-games", type=int, default=300)
    args = ap.parse_args()
    n = args.draws
    table = table_for("twister", 100)
    wild = table_for("wild", 50)
    mults = list(table.multipliers)
    floats = [float(r.probability_percent) for r in table.rows]
    csprng, seeded = system_source(), random.Random(1)
    mt, sysrand = random.Random(1), secrets.SystemRandom()

    def rb(rng: Any) -> Callable[[int], object]:
        return lambda k: [draw_multiplier(table, rng).multiplier for _ in range(k)]

    def rb_wild(k: int) -> None:
        state = DeckState.fresh(wild)
        for _ in range(k):
            _d, state = draw_from_deck(wild, state, csprng)

    def peer(rng: random.Random) -> Callable[[int], object]:
        return lambda k: [rng.choices(mults, weights=floats)[0] for _ in range(k)]

    report: dict[str, Any] = {
        "draws": n, "python": sys.version.split()[0], "loadavg_1m": round(os.getloadavg()[0], 2),
        "riverboat_csprng_draws_per_s": round(_rate(n, rb(csprng))),
        "riverboat_seeded_draws_per_s": round(_rate(n, rb(seeded))),
        "riverboat_wild_deck_csprng_draws_per_s": round(_rate(n, rb_wild)),
        "peer_choices_mt_per_call_draws_per_s": round(_rate(n, peer(mt))),
        "peer_choices_systemrandom_per_call_draws_per_s": round(_rate(n, peer(sysrand))),
        "peer_choices_mt_batch_draws_per_s": round(_rate(n, lambda k: mt.choices(mults, weights=floats, k=k))),
    }
    report["csprng_vs_peer_mt_per_call"] = round(
        report["riverboat_csprng_draws_per_s"] / report["peer_choices_mt_per_call_draws_per_s"], 2)
    report["csprng_vs_peer_systemrandom_per_call"] = round(
        report["riverboat_csprng_draws_per_s"] / report["peer_choices_systemrandom_per_call_draws_per_s"], 2)
    if args.store_games:
        report["store_spins_per_s_sqlite"] = round(_store_spins(args.store_games), 1)
    for k, v in report.items():
        print(f"{k}: {v}", file=sys.stderr)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
