"""Hand state machine speed: Riverboat's engine against PokerKit on the very same hands.

Run: ``.venv/bin/python bench/engine.py [--hands 1000] [--other-hands 300] [--seed 1] [--repeat 3]``.

1. Scripts. Random 6-max hands (no-limit hold'em, and a stud, a draw and a hi/lo game: F7S, F2L3D, FO/8) are
   generated with the differential harness (``riverboat.verify``): fixed seeds give the set-ups (stacks, stakes,
   deck order) and one seeded random actor chooses every action. Each hand is played on both engines with every
   decision compared, so each script is known to be legal and to end the same way on both; hands showing a
   documented difference are left out (the count is printed).
2. Timing, one core, in CPU time of the process (``time.process_time``, so that other work on the machine does not
   distort the figures), best of ``--repeat`` runs. Riverboat: build ``Hand(config)``, then for every recorded action
   ask ``legal_actions()`` and ``act()``, to the end of the hand (showdown and pot award included). PokerKit 0.7.7 as
   shipped: create the state (antes, blinds, bet collection, showdown, hand killing and chip pushing automated),
   deal the recorded cards, apply the recorded actions.

The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from riverboat.engine import Action as EngineAction
from riverboat.engine import Hand, HandConfig
from riverboat.verify.decisions import Action
from riverboat.verify.differential import play_hand
from riverboat.verify.pokerkit_side import PokerKitHand, RecordedFeed, Stakes
from riverboat.verify.riverboat_side import engine_config

WORKLOADS = (
    ("nlhe_6max", "NT", "No-Limit Texas Hold'em, 6-max"),
    ("stud", "F7S", "Fixed-Limit 7 Card Stud, 6 players"),
    ("draw", "F2L3D", "Fixed-Limit 2-7 Triple Draw, 6 players"),
    ("hilo", "FO/8", "Fixed-Limit Omaha Hi/Lo, 6 players"),
)


@dataclass(slots=True)
class Script:
    config: HandConfig
    seed: int
    engine_actions: list[EngineAction]
    code: str
    stakes: Stakes
    stacks: tuple[int, ...]
    hole: list[list[str]]
    board: list[str]
    pk_actions: list[Action]
    decisions: int


def make_scripts(code: str, hands: int, seed: int) -> tuple[list[Script], int]:
    scripts: list[Script] = []
    skipped = 0
    k = seed
    while len(scripts) < hands:
        outcome = play_hand(code, k, players=6)
        k += 1
        if not outcome.ok or outcome.known:
            skipped += 1
            continue
        rb, pk = outcome.riverboat, outcome.pokerkit
        assert rb is not None and pk is not None
        setup = outcome.setup
        scripts.append(
            Script(
                config=engine_config(setup),
                seed=setup.seed,
                engine_actions=list(rb.applied),
                code=code,
                stakes=setup.stakes,
                stacks=setup.stacks,
                hole=[list(rb.hole_cards(p)) for p in range(setup.players)],
                board=list(rb.board_cards()),
                pk_actions=list(pk.applied),
                decisions=outcome.decisions,
            )
        )
    return scripts, skipped


def fresh_configs(scripts: list[Script]) -> list[HandConfig]:
    """Configs with a freshly seeded reshuffle source (draw games), so every run replays the same hands."""
    return [
        dataclasses.replace(s.config, shuffle=random.Random(f"reshuffle:{s.code}:{s.seed}").shuffle)
        for s in scripts
    ]


def run_riverboat(scripts: list[Script], configs: list[HandConfig]) -> int:
    total = 0
    for s, config in zip(scripts, configs, strict=True):
        hand = Hand(config)
        for action in s.engine_actions:
            hand.legal_actions()
            hand.act(action)
        if not hand.is_over:
            raise AssertionError("a Riverboat script did not finish its hand")
        total += 1
    return total


def run_pokerkit(scripts: list[Script], _: list[HandConfig]) -> int:
    total = 0
    for s in scripts:
        pk = PokerKitHand(s.code, s.stakes, s.stacks, RecordedFeed(s.hole, s.board), fast_showdown=False)
        for action in s.pk_actions:
            pk.deal_pending()
            pk.apply(action)
        pk.deal_pending()
        if not pk.finished:
            raise AssertionError("a PokerKit script did not finish its hand")
        total += 1
    return total


def best_rate(
    fn: Callable[[list[Script], list[HandConfig]], int], scripts: list[Script], repeat: int
) -> float:
    """Hands per CPU second of this process (``time.process_time``: other load on the machine does not count),
    best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        configs = fresh_configs(scripts)
        gc.collect()
        start = time.process_time()
        fn(scripts, configs)
        best = min(best, time.process_time() - start)
    return len(scripts) / best


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="6-max NLHE hands (default 1000)")
    parser.add_argument(
        "--other-hands", type=int, default=300, help="hands of stud, draw and hi/lo (default 300)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per engine; the best is kept")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", module="pokerkit")
    import pokerkit

    report: dict[str, Any] = {
        "bench": "engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "pokerkit": getattr(pokerkit, "__version__", "0.7.7"),
        "seed": args.seed,
        "repeat": args.repeat,
    }
    for key, code, title in WORKLOADS:
        n = args.hands if key == "nlhe_6max" else args.other_hands
        t0 = time.perf_counter()
        scripts, skipped = make_scripts(code, n, args.seed)
        prep = time.perf_counter() - t0
        decisions = sum(s.decisions for s in scripts)
        ours = best_rate(run_riverboat, scripts, args.repeat)
        theirs = best_rate(run_pokerkit, scripts, args.repeat)
        ratio = ours / theirs
        print(
            f"{title} ({code}): {len(scripts)} hands, {decisions / len(scripts):.1f} decisions/hand "
            f"({skipped} skipped: documented differences; scripts built and cross-checked in {prep:.1f} s)\n"
            f"  Riverboat {ours:10,.0f} hands/s   PokerKit {theirs:8,.0f} hands/s   ratio {ratio:6.1f}x",
            flush=True,
        )
        report[key] = {
            "variant": code,
            "hands": len(scripts),
            "decisions_per_hand": round(decisions / len(scripts), 2),
            "skipped": skipped,
            "riverboat_hands_per_s": round(ours, 1),
            "pokerkit_hands_per_s": round(theirs, 1),
            "ratio": round(ratio, 2),
        }
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
