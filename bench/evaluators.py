"""Seven-card hand evaluation and exhaustive equity: Riverboat against treys, PokerKit, phevaluator and eval7.

Run: ``.venv/bin/python bench/evaluators.py [--hands 200000] [--seed 2026]`` (peers: ``pip install -e '.[bench]'``).
The same random 7-card hands (fixed seed) go through every evaluator that imports; each peer's results are checked
to order the hands exactly as Riverboat does before its speed is reported. Then the exhaustive heads-up preflop
equity of AhKh vs QsQd (1,712,304 boards) is timed for Riverboat's numpy enumeration and for a Python loop over
phevaluator's C evaluator. The last line printed is one JSON object holding every figure.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from riverboat.cards import Card
from riverboat.evaluate import Ranking, evaluate7
from riverboat.evaluate.batch import evaluate_batch
from riverboat.evaluate.equity import equity


def best_of(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def same_order(ours: Sequence[int], theirs: Sequence[int], higher_is_better: bool) -> bool:
    """True when both score lists induce the same weak order on the hands."""
    a = np.asarray(ours, dtype=np.int64)
    b = np.asarray(theirs, dtype=np.int64) * (1 if higher_is_better else -1)
    order = np.lexsort((b, a))
    da, db = np.diff(a[order]), np.diff(b[order])
    return bool(((da == 0) == (db == 0)).all() and (db >= 0).all())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pokerkit-hands", type=int, default=5_000, help="PokerKit is slow; it gets a prefix")
    ap.add_argument("--skip-equity-peer", action="store_true", help="skip the slow phevaluator equity loop")
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    arr = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.int64)
    hands = [tuple(int(x) for x in row) for row in arr.tolist()]
    n = len(hands)
    fig: dict[str, Any] = {"hands": n, "seed": args.seed, "python": platform.python_version()}

    ours: list[int] = []

    def run_ours() -> None:
        ours.clear()
        ev = evaluate7
        ours.extend([ev(*h) for h in hands])

    t = best_of(run_ours, 3)
    fig["riverboat_per_call_evals_per_s"] = round(n / t)
    print(f"riverboat evaluate7 (per call)  {n / t:>14,.0f} evals/s")

    batch = evaluate_batch(Ranking.HIGH, arr, check=False)
    assert batch.tolist() == ours, "batch and per-call disagree"
    t = best_of(lambda: evaluate_batch(Ranking.HIGH, arr, check=False), 5)
    fig["riverboat_batch_evals_per_s"] = round(n / t)
    print(f"riverboat evaluate_batch        {n / t:>14,.0f} evals/s")

    peers: dict[str, float] = {}
    try:
        import treys

        ev_t = treys.Evaluator()
        tc = [treys.Card.new(str(Card(c))) for c in range(52)]
        th = [([tc[c] for c in h[2:]], [tc[c] for c in h[:2]]) for h in hands]
        res: list[int] = []

        def run_treys() -> None:
            res.clear()
            res.extend([ev_t.evaluate(b, p) for b, p in th])

        t = best_of(run_treys, 1)
        assert same_order(ours, res, higher_is_better=False), "treys orders hands differently"
        peers["treys"] = n / t
    except ImportError:
        print("treys: not installed")
    try:
        import phevaluator

        ev_p = phevaluator.evaluate_cards
        res_p: list[int] = []

        def run_ph() -> None:
            res_p.clear()
            res_p.extend([ev_p(*h) for h in hands])

        t = best_of(run_ph, 3)
        assert same_order(ours, res_p, higher_is_better=False), "phevaluator orders hands differently"
        peers["phevaluator"] = n / t
    except ImportError:
        print("phevaluator: not installed")
    try:
        import eval7

        ec = [eval7.Card(str(Card(c))) for c in range(52)]
        eh = [[ec[c] for c in h] for h in hands]
        ev_e = eval7.evaluate
        res_e: list[int] = []

        def run_e7() -> None:
            res_e.clear()
            res_e.extend([ev_e(h) for h in eh])

        t = best_of(run_e7, 3)
        assert same_order(ours, res_e, higher_is_better=True), "eval7 orders hands differently"
        peers["eval7"] = n / t
    except ImportError:
        print("eval7: not installed")
    try:
        import pokerkit

        m = min(args.pokerkit_hands, n)
        txt = [
            ("".join(str(Card(c)) for c in h[:2]), "".join(str(Card(c)) for c in h[2:])) for h in hands[:m]
        ]
        res_k: list[Any] = []

        def run_pk() -> None:
            res_k.clear()
            res_k.extend([pokerkit.StandardHighHand.from_game(a, b) for a, b in txt])

        t = best_of(run_pk, 1)
        ranks = [h.entry.index for h in res_k]
        assert same_order(ours[:m], ranks, higher_is_better=True), "PokerKit orders hands differently"
        peers["pokerkit"] = m / t
    except ImportError:
        print("pokerkit: not installed")

    for name, rate in peers.items():
        fig[f"{name}_evals_per_s"] = round(rate)
        fig[f"per_call_vs_{name}"] = round(fig["riverboat_per_call_evals_per_s"] / rate, 2)
        fig[f"batch_vs_{name}"] = round(fig["riverboat_batch_evals_per_s"] / rate, 2)
        print(
            f"{name:<31} {rate:>14,.0f} evals/s   per-call x{fig[f'per_call_vs_{name}']}"
            f"  batch x{fig[f'batch_vs_{name}']}"
        )

    # exhaustive heads-up preflop equity, AhKh vs QsQd
    equity(["AhKh", "QsQd"])  # warm the tables
    res_eq = equity(["AhKh", "QsQd"])
    t = best_of(lambda: equity(["AhKh", "QsQd"]), 5)
    fig["riverboat_equity_s"] = round(t, 4)
    fig["equity_AhKh_vs_QsQd"] = round(res_eq.players[0].equity, 6)
    print(f"riverboat exhaustive equity      {t:.4f} s  AhKh {res_eq.players[0].equity:.6f}")
    if not args.skip_equity_peer:
        try:
            import phevaluator

            ev_p = phevaluator.evaluate_cards
            a1, a2, b1, b2 = 50, 46, 43, 41  # Ah Kh Qs Qd
            rest = [c for c in range(52) if c not in (a1, a2, b1, b2)]
            t0 = time.perf_counter()
            win = tie = total = 0
            for b in itertools.combinations(rest, 5):
                x = ev_p(a1, a2, *b)
                y = ev_p(b1, b2, *b)
                if x < y:
                    win += 1
                elif x == y:
                    tie += 1
                total += 1
            t_ph = time.perf_counter() - t0
            eq_ph = (win + tie / 2) / total
            assert abs(eq_ph - res_eq.players[0].equity) < 1e-12, (eq_ph, res_eq.players[0].equity)
            fig["phevaluator_loop_equity_s"] = round(t_ph, 3)
            fig["equity_speedup_vs_phevaluator_loop"] = round(t_ph / t, 1)
            print(f"phevaluator Python loop equity   {t_ph:.3f} s  (x{t_ph / t:.1f} slower)")
        except ImportError:
            print("phevaluator: not installed")
    print(json.dumps(fig))


if __name__ == "__main__":
    main()
