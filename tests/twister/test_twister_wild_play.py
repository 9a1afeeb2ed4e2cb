"""Wild Twister's automatic play (R-WILD-2) on the real engine: every player all-in on every hand."""

from __future__ import annotations

import random

from riverboat.engine import ActionKind, Hand, HandConfig
from riverboat.games import Stakes, Structure, get_game
from riverboat.twister.structure import structure_for
from riverboat.twister.wild import wild_action


def _play_wild_game(rng: random.Random) -> tuple[int, int]:
    """Three players with the Wild Twister stacks play hands of automatic all-ins until one has every chip.
    Returns (hands played, winner's seat). Checks each hand: nobody folds, and every player puts in their whole
    stack, or (the biggest stack) at least as much as any opponent has."""
    game, start = get_game("holdem"), structure_for("wild")
    level = start.levels[0]
    stacks = {1: start.starting_chips, 2: start.starting_chips, 3: start.starting_chips}
    button, hands = 3, 0
    while len(stacks) > 1:
        seats = sorted(stacks)
        deck = game.deck.shuffled(rng)
        hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT,
                               stakes=Stakes(small_blind=level.small_blind, big_blind=level.big_blind),
                               seats=seats, stacks=[stacks[s] for s in seats], button=button, deck=deck))
        before = dict(stacks)
        while not hand.is_over:
            action = wild_action(hand.legal_actions())
            assert action.kind is not ActionKind.FOLD
            hand.act(action)
        assert hand.result is not None and not any(hand.folded)
        after = hand.result.stacks
        assert sum(after.values()) == 3 * start.starting_chips  # chips conserved
        for i, s in enumerate(seats):  # all in, or (the one biggest stack) covering every other stack
            covered = max(before[o] for o in seats if o != s)
            assert hand.allin[i] or (before[s] > covered and hand.total[i] >= covered), (before, hand.total)
        stacks = {s: v for s, v in after.items() if v > 0}
        button = next((s for s in sorted(stacks) if s > button), min(stacks))
        hands += 1
        assert hands < 200
    return hands, next(iter(stacks))


def test_r_wild_2_every_player_goes_all_in_and_the_game_ends_in_a_few_hands() -> None:
    """R-WILD-2: as soon as the game starts every player is all-in on every hand; "the result is decided in one
    hand or a few": 200 seeded games, each ends with one player holding all 1,500 chips, most within 3 hands."""
    rng = random.Random(2026)
    lengths = [_play_wild_game(rng)[0] for _ in range(200)]
    assert max(lengths) < 200
    assert sum(1 for n in lengths if n <= 3) >= 150, sorted(lengths)
