"""Wild Twister games per second played through the room, against the bare engine playing the same all-in hands.

Run: ``.venv/bin/python bench/twister_games.py [--games 100] [--seed 1]``.

Riverboat: ``--games`` Wild Twister Sit & Go's (EUR 0.50, three players, 500 chips, every decision the automatic
all-in of R-WILD-2) each run by the real director with its tournament table, the shared hand driver, the Wild
variant (spin from the persisted prize deck through the store, the ticket prize) and the store (SQLite file in
/dev/shm or a temporary directory, one transaction per hand), on a FakeClock (no waiting between hands): from
``Director.open`` to the ticket paid. Players register with cash. Peer, same run: the bare engine
(``riverboat.engine.Hand``) playing Wild Twister games -- the same three stacks, the same blind levels, every
decision ``wild_action`` -- with no store, no room and no director: the cost of the poker alone, i.e. what the
room adds on top. Games per second (wall clock) and the ratio; hands per game of each. The last line printed is
one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
from typing import Any

from riverboat.cards import seeded_rng
from riverboat.engine import Hand, HandConfig
from riverboat.games import Stakes, Structure, get_game
from riverboat.room.clock import FakeClock
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.simulate import SimHost, make_bots, remove_store, temp_store
from riverboat.room.twister import VARIANTS, twister_spec
from riverboat.twister.structure import structure_for
from riverboat.twister.wild import wild_action


async def room_games(games: int, seed: int) -> tuple[float, int]:
    """(games per second, hands) for ``games`` Wild Twisters through director + tables + store."""
    store, folder = temp_store()
    try:
        players = make_bots(store, 3, 50 * games, "EUR", prefix="wild")
        spec = twister_spec("wild", 50, table_settings={"between_hands_seconds": 0.0})
        clock = FakeClock()
        host = SimHost(clock, seeded_rng(seed), StoreGateway(store, inline=True))
        hands = 0
        t0 = time.perf_counter()
        for g in range(games):
            tid = f"wild:bench-{g}"
            VARIANTS["wild"].configure(tid, rng=random.Random(seed + g))
            d = Director(host, tid, spec, seed=seed + g, notify_players=False, record_history=True)
            clock.add_settle_hook(d.quiesce)
            await d.open()
            for p in players:
                await d.register(p)
            while not d.done.is_set():
                await clock.advance(30.0)
            hands += d.stats.hands
            clock.remove_settle_hook(d.quiesce)
            await d.close()
        dt = time.perf_counter() - t0
        store.ledger.verify()
        return games / dt, hands
    finally:
        remove_store(store, folder)


def engine_games(games: int, seed: int) -> tuple[float, int]:
    """(games per second, hands) for ``games`` Wild Twisters on the bare engine (same stacks and blinds)."""
    game, structure = get_game("holdem"), structure_for("wild")
    rng = random.Random(seed)
    hands = 0
    t0 = time.perf_counter()
    for _ in range(games):
        stacks = {0: structure.starting_chips, 1: structure.starting_chips, 2: structure.starting_chips}
        button, played = 2, 0
        while len(stacks) > 1:
            level = structure.levels[min(played // 10, len(structure.levels) - 1)]
            seats = sorted(stacks)
            hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT,
                                   stakes=Stakes(small_blind=level.small_blind, big_blind=level.big_blind),
                                   seats=seats, stacks=[stacks[s] for s in seats], button=button,
                                   deck=game.deck.shuffled(rng)))
            while not hand.is_over:
                hand.act(wild_action(hand.legal_actions()))
            assert hand.result is not None
            stacks = {s: v for s, v in hand.result.stacks.items() if v > 0}
            button = next((s for s in sorted(stacks) if s > button), min(stacks))
            played += 1
        hands += played
    return games / (time.perf_counter() - t0), hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    room_rate, room_hands = asyncio.run(room_games(args.games, args.seed))
    engine_rate, engine_hands = engine_games(args.games * 10, args.seed)
    out: dict[str, Any] = {
        "bench": "twister_games", "games": args.games, "seed": args.seed,
        "loadavg_1m": round(os.getloadavg()[0], 2),
        "room_wild_games_per_s": round(room_rate, 1), "room_hands_per_game": round(room_hands / args.games, 2),
        "engine_wild_games_per_s": round(engine_rate, 1),
        "engine_hands_per_game": round(engine_hands / (args.games * 10), 2),
        "engine_vs_room": round(engine_rate / room_rate, 1),
    }
    print(f"room (director + table + store): {room_rate:,.1f} Wild Twister games/s "
          f"({out['room_hands_per_game']} hands/game); bare engine: {engine_rate:,.1f} games/s")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
