"""Hand state machine speed: Riverboat's engine against PokerKit on the very same hands.

Run: ``.venv/bin/python bench/engine.py [--hands 1000] [--other-hands 300] [--seed 1] [--repeat 3]``;
``--quick`` (under a minute: fewer hands, two timed runs) is the check to run before and after an engine change.
``--json PATH`` writes the report; ``--baseline PATH`` (an earlier report, e.g. the code before a change run just
before) adds each row's speed relative to it, the only comparison for the games PokerKit does not have.

1. Scripts. Games PokerKit has (no-limit hold'em 6-max, and F7S, F2L3D, FO/8, Razz): random 6-max hands are
   generated with the differential harness (``riverboat.verify``): fixed seeds give the set-ups (stacks, stakes,
   deck order) and one seeded random actor chooses every action. Each hand is played on both engines with every
   decision compared, so each script is known to be legal and to end the same way on both; hands showing a
   documented difference are left out (the count is printed). Games PokerKit does not have (Six Plus, 5-Card
   Omaha, 5 Card Draw, 32 Card Draw, Soko, Americana): the engine alone plays seeded random hands
   (``riverboat.verify.randomplay``: stakes, random stacks and deck order from the seed) and records them.
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
from riverboat.engine import Hand, HandConfig, Settings
from riverboat.games import Structure, get_game
from riverboat.verify.decisions import Action
from riverboat.verify.differential import play_hand
from riverboat.verify.pokerkit_side import PokerKitHand, RecordedFeed, Stakes
from riverboat.verify.randomplay import random_action, stakes_for
from riverboat.verify.riverboat_side import engine_config

WORKLOADS = (
    ("nlhe_6max", "NT", "No-Limit Texas Hold'em, 6-max"),
    ("stud", "F7S", "Fixed-Limit 7 Card Stud, 6 players"),
    ("draw", "F2L3D", "Fixed-Limit 2-7 Triple Draw, 6 players"),
    ("hilo", "FO/8", "Fixed-Limit Omaha Hi/Lo, 6 players"),
    ("razz", "FR", "Fixed-Limit Razz, 6 players"),
)
#: games PokerKit does not have: (report key, game id, structure, players, title)
ENGINE_ONLY = (
    ("six_plus", "six_plus", Structure.NO_LIMIT, 6, "No-Limit Six Plus Hold'em, 6 players"),
    ("omaha5", "omaha5", Structure.POT_LIMIT, 6, "Pot-Limit 5-Card Omaha, 6 players"),
    ("draw5", "draw5", Structure.FIXED_LIMIT, 6, "Fixed-Limit 5 Card Draw, 6 players"),
    ("draw32", "draw32", Structure.FIXED_LIMIT, 5, "Fixed-Limit 32 Card Draw, 5 players"),
    ("soko", "soko", Structure.FIXED_LIMIT, 6, "Fixed-Limit Soko, 6 players"),
    ("americana", "americana", Structure.FIXED_LIMIT, 6, "Fixed-Limit Americana, 6 players"),
)


@dataclass(slots=True)
class Script:
    config: HandConfig
    seed: int
    engine_actions: list[EngineAction]
    code: str
    stakes: Stakes | None  # PokerKit's stakes (None: a game PokerKit does not have)
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


def make_engine_scripts(game_id: str, structure: Structure, players: int, hands: int, seed: int) -> list[Script]:
    """Seeded random hands of a game PokerKit does not have, played and recorded by the engine alone."""
    game = get_game(game_id)
    stakes = stakes_for(game, structure)
    scripts: list[Script] = []
    for k in range(hands):
        rng = random.Random(f"engine-bench:{game_id}:{seed}:{k}")
        deck = list(game.deck.cards)
        rng.shuffle(deck)
        stacks = tuple(rng.randint(40, 400) for _ in range(players))
        code = f"{game_id}/{structure.name}"
        config = HandConfig(game=game, structure=structure, stakes=stakes, seats=list(range(1, players + 1)),
                            stacks=stacks, button=players, deck=deck, settings=Settings(),
                            shuffle=random.Random(f"reshuffle:{code}:{k}").shuffle)
        hand = Hand(config)
        actions: list[EngineAction] = []
        while not hand.is_over:
            legal = hand.legal_actions()
            action = random_action(legal, list(hand.cards[hand.seats.index(legal.seat)]), rng)
            hand.act(action)
            actions.append(action)
        scripts.append(Script(config=config, seed=k, engine_actions=actions, code=code, stakes=None,
                              stacks=stacks, hole=[], board=[], pk_actions=[], decisions=len(actions)))
    return scripts


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
        assert s.stakes is not None
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


def row(
    title: str, code: str, scripts: list[Script], skipped: int, prep: float, ours: float, theirs: float | None,
    baseline: dict[str, Any] | None, key: str,
) -> dict[str, Any]:
    decisions = sum(s.decisions for s in scripts)
    out: dict[str, Any] = {
        "variant": code,
        "hands": len(scripts),
        "decisions_per_hand": round(decisions / len(scripts), 2),
        "skipped": skipped,
        "riverboat_hands_per_s": round(ours, 1),
    }
    line = f"  Riverboat {ours:10,.0f} hands/s"
    if theirs is not None:
        out["pokerkit_hands_per_s"] = round(theirs, 1)
        out["ratio"] = round(ours / theirs, 2)
        line += f"   PokerKit {theirs:8,.0f} hands/s   ratio {ours / theirs:6.1f}x"
    before = (baseline or {}).get(key)
    if before:
        out["vs_baseline"] = round(ours / before["riverboat_hands_per_s"], 2)
        line += f"   vs baseline {out['vs_baseline']:.2f}x"
        if "ratio" in before:
            line += f" (baseline's PokerKit ratio {before['ratio']:.1f}x)"
    print(
        f"{title} ({code}): {len(scripts)} hands, {decisions / len(scripts):.1f} decisions/hand "
        f"({skipped} skipped: documented differences; scripts built in {prep:.1f} s)\n{line}",
        flush=True,
    )
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="6-max NLHE hands (default 1000)")
    parser.add_argument(
        "--other-hands", type=int, default=300, help="hands of every other game (default 300)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per engine; the best is kept")
    parser.add_argument("--quick", action="store_true",
                        help="under a minute: 200 NLHE hands, 60 of every other game, best of 2")
    parser.add_argument("--only", default="", help="comma-separated report keys to run (default: all)")
    parser.add_argument("--json", default="", help="also write the report to this file")
    parser.add_argument("--baseline", default="", help="an earlier report (--json) to compare every row with")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.other_hands, args.repeat = 200, 60, 2
    only = {k for k in args.only.split(",") if k}
    baseline: dict[str, Any] | None = None
    if args.baseline:
        with open(args.baseline, encoding="utf-8") as f:
            baseline = json.load(f)
    warnings.filterwarnings("ignore", module="pokerkit")
    import pokerkit

    report: dict[str, Any] = {
        "bench": "engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "pokerkit": getattr(pokerkit, "__version__", "0.7.7"),
        "seed": args.seed,
        "repeat": args.repeat,
        "hands": args.hands,
        "other_hands": args.other_hands,
    }
    for key, code, title in WORKLOADS:
        if only and key not in only:
            continue
        n = args.hands if key == "nlhe_6max" else args.other_hands
        t0 = time.perf_counter()
        scripts, skipped = make_scripts(code, n, args.seed)
        prep = time.perf_counter() - t0
        ours = best_rate(run_riverboat, scripts, args.repeat)
        theirs = best_rate(run_pokerkit, scripts, args.repeat)
        report[key] = row(title, code, scripts, skipped, prep, ours, theirs, baseline, key)
    for key, game_id, structure, players, title in ENGINE_ONLY:
        if only and key not in only:
            continue
        t0 = time.perf_counter()
        scripts = make_engine_scripts(game_id, structure, players, args.other_hands, args.seed)
        prep = time.perf_counter() - t0
        ours = best_rate(run_riverboat, scripts, args.repeat)
        report[key] = row(title, scripts[0].code, scripts, 0, prep, ours, None, baseline, key)
    text = json.dumps(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
