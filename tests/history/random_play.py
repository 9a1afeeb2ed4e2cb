"""Random legal play for the history tests: one random legal action of the player to act; a random hand of any
game written as the room writes it (the statistics tests of issue #31, here and in tests/store)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from riverboat.engine import AGGRESSIVE, Action, ActionKind, Hand, HandConfig, LegalActions, Settings
from riverboat.games import GAMES, Stakes
from riverboat.history import hand_to_phh


def act_randomly(hand: Hand, la: LegalActions, rng: random.Random) -> None:
    """Apply a random legal action (any kind but straddle; random discards; a random legal amount)."""
    kind = rng.choice(sorted(la.kinds))
    if kind is ActionKind.DRAW:
        mine = [int(c) for c in hand.cards[hand.seats.index(la.seat)]]
        hand.act(Action(la.seat, kind, cards=tuple(rng.sample(mine, rng.randint(0, min(la.max_discards, 5))))))
    elif kind in AGGRESSIVE and kind is not ActionKind.STRADDLE:
        amount = rng.choice(la.allowed_to) if la.allowed_to else rng.randint(la.min_to, la.max_to)
        hand.act(Action(la.seat, kind, amount))
    else:
        hand.act(Action(la.seat, kind))


STAKES = Stakes(small_blind=1, big_blind=2, ante=1, bring_in=2, small_bet=4, big_bet=8, spread=(2, 2, 4, 6))


def random_room_hand(seed: int, player_ids: Sequence[int], games: Sequence[str] | None = None
                     ) -> tuple[str, dict[int, int]]:
    """A random hand of a random game (of ``games``, by default every game) and structure among 2 to 6 of
    ``player_ids``, played by random legal actions and written as the room writes it (``players``: the ids as
    text): (PHH text, each player's chip result)."""
    rng = random.Random(seed)
    ids = sorted(games or GAMES)
    game = GAMES[ids[seed % len(ids)]]
    structure = game.structures[rng.randrange(len(game.structures))]
    n = rng.randint(2, min(game.max_players, 6, len(player_ids)))
    seats = list(range(1, n + 1))
    who = dict(zip(seats, rng.sample(list(player_ids), n), strict=True))
    hand = Hand(HandConfig(game=game, structure=structure, stakes=STAKES, seats=seats,
                           stacks=[rng.randint(5, 300) for _ in seats], button=rng.choice(seats),
                           deck=game.deck.shuffled(rng), settings=Settings(), shuffle=rng.shuffle))
    while not hand.is_over:
        act_randomly(hand, hand.legal_actions(), rng)
    assert hand.result is not None
    changes = {who[s]: hand.result.stacks[s] - stack for s, stack in zip(seats, hand.config.stacks, strict=True)}
    return hand_to_phh(hand, players={s: str(pid) for s, pid in who.items()}), changes
