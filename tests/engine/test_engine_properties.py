"""Properties of every game and structure under random legal play (hypothesis): chips are conserved, no stack
goes negative, the pots equal the contributions, every card dealt is unique, and a player's view never holds
another player's face-down cards before the showdown (R-GEN-5, R-ALLIN, R-POT)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from riverboat.engine import AGGRESSIVE, Action, ActionKind, Hand, HandConfig, Settings
from riverboat.games import GAMES, Stakes, Structure, get_game

K = ActionKind
STAKES = Stakes(small_blind=1, big_blind=2, ante=1, bring_in=2, small_bet=4, big_bet=8, spread=(2, 2, 4, 6))
CASES = [(gid, s) for gid, g in sorted(GAMES.items()) for s in g.structures]


def _choose(rng: random.Random, hand: Hand) -> Action:
    la = hand.legal_actions()
    kinds = sorted(la.kinds)
    kind = rng.choice(kinds)
    if kind in (K.FOLD,) and len(kinds) > 1 and rng.random() < 0.6:
        kind = rng.choice([k for k in kinds if k is not K.FOLD])
    if kind is K.DRAW:
        mine = [int(c) for c in hand.cards[hand.seats.index(la.seat)]]
        k = rng.randint(0, min(la.max_discards, len(mine)))
        return Action(la.seat, kind, cards=tuple(rng.sample(mine, k)))
    if kind in AGGRESSIVE and kind is not K.STRADDLE:
        amount = rng.choice(la.allowed_to) if la.allowed_to else rng.randint(la.min_to, la.max_to)
        return Action(la.seat, kind, amount)
    return Action(la.seat, kind)


def _face_down_of_others(hand: Hand, seat: int) -> set[str]:
    out: set[str] = set()
    for i, s in enumerate(hand.seats):
        if s != seat:
            out |= {str(c) for c, up in zip(hand.cards[i], hand.up[i], strict=True) if not up}
    return out


def play_checked(game_id: str, structure: Structure, n: int, stacks: list[int], seed: int) -> Hand:
    rng = random.Random(seed)
    game = get_game(game_id)
    seats = sorted(rng.sample(range(1, 11), n))
    deck = game.deck.shuffled(rng)
    hand = Hand(HandConfig(game=game, structure=structure, stakes=STAKES, seats=seats, stacks=stacks,
                           button=rng.choice(seats), deck=deck, settings=Settings(muck_losers=rng.random() < 0.5),
                           shuffle=rng.shuffle))
    start = sum(stacks)
    steps = 0
    while not hand.is_over:
        assert sum(hand.stacks) + hand.pot == start  # chips conserved at every step
        assert min(hand.stacks) >= 0
        assert hand.pot == sum(hand.total)  # the middle holds exactly what players put in
        dealt = [int(c) for cards in hand.cards for c in cards] + [int(c) for c in hand.board]
        assert len(dealt) == len(set(dealt))  # every card held once (reshuffled folded cards leave the folder)
        seat = hand.to_act
        assert seat is not None
        shown = {c for p in hand.view(seat)["players"] for c in p["cards"]}
        assert not shown & _face_down_of_others(hand, seat)  # R-GEN-5 secrecy
        hand.act(_choose(rng, hand))
        steps += 1
        assert steps < 500
    result = hand.result
    assert result is not None
    assert sum(result.stacks.values()) + result.rake == start
    assert min(result.stacks.values()) >= 0
    assert sum(p.amount for p in result.pots) + result.rake == sum(hand.total)
    return hand


@settings(max_examples=250, deadline=None)
@given(case=st.sampled_from(CASES), n=st.integers(2, 6), seed=st.integers(0, 2**32),
       stacks=st.lists(st.integers(1, 400), min_size=6, max_size=6))
def test_properties_every_game_and_structure(case, n, seed, stacks):
    game_id, structure = case
    n = min(n, get_game(game_id).max_players)
    play_checked(game_id, structure, n, stacks[:n], seed)


def test_properties_sweep_every_game_structure_and_table_size():
    for k, (game_id, structure) in enumerate(CASES):
        g = get_game(game_id)
        for n in range(2, g.max_players + 1):
            rng = random.Random(k * 100 + n)
            play_checked(game_id, structure, n, [rng.randint(3, 300) for _ in range(n)], k * 100 + n)


def test_secrecy_events_hole_cards_reach_only_their_owner():
    hand = play_checked("stud", Structure.FIXED_LIMIT, 5, [200] * 5, 11)
    for e in hand.events:
        if e.kind == "dealt" and not e.data["up"]:
            assert e.visible_to == frozenset((e.seat,))
            assert not e.visible(None) and all(not e.visible(s) for s in hand.seats if s != e.seat)
        if e.kind == "drew_cards":
            assert e.visible_to == frozenset((e.seat,))
