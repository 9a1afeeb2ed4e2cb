"""Property tests (hypothesis) of the engine over every game and every betting structure it allows.

Each example plays one random hand (random players, stakes unit, deck order and legal actions, all drawn by
hypothesis) and checks invariants before every action and at the end.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riverboat.cards import Card
from riverboat.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, Settings
from riverboat.games import GAMES, Game, Kind, Structure
from riverboat.verify.randomplay import play_random_hand, random_action, stakes_for

K = ActionKind
COMBOS: list[tuple[str, Structure]] = [(gid, s) for gid, g in sorted(GAMES.items()) for s in g.structures]
PROPS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hand_configs(draw: st.DrawFn) -> tuple[HandConfig, random.Random]:
    game_id, structure = draw(st.sampled_from(COMBOS))
    game = GAMES[game_id]
    players = draw(st.integers(2, game.max_players))
    unit = draw(st.sampled_from([1, 2, 5, 25]))
    stakes = stakes_for(game, structure, unit)
    big = max(stakes.big_blind, stakes.small_bet)
    stacks = draw(st.lists(st.integers(1, 120 * big), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    settings_ = Settings(
        run_it_twice=draw(st.booleans()),
        straddle=draw(st.booleans()),
        split_agreement=draw(st.booleans()),
    )
    config = HandConfig(
        game=game,
        structure=structure,
        stakes=stakes,
        seats=list(range(players)),
        stacks=stacks,
        button=players - 1,
        deck=game.deck.shuffled(rng),
        settings=settings_,
        shuffle=rng.shuffle,
    )
    return config, rng


def _held_cards(hand: Hand) -> list[int]:
    """Cards in live hands and on the board (a folded hand is mucked; 32 Card Draw may redeal it, R-INSUF-1)."""
    cards = [int(c) for i, held in enumerate(hand.cards) if not hand.folded[i] for c in held]
    cards += [int(c) for c in hand.board]
    for board in hand.boards:  # run it twice (R-RIT-2): each run is the common board plus its own cards
        cards += [int(c) for c in board[len(hand.board) :]]
    return cards


@PROPS
@given(hand_configs())
def test_r_allin_5_r_pot_4_chips_conserved_no_negative_stack_pots_equal_contributions(
    case: tuple[HandConfig, random.Random],
) -> None:
    """R-ALLIN-5, R-POT-1, R-POT-4, R-ALLIN-6: before every action, stacks + chips in the middle = the starting
    chips and the middle equals what the players put in; no stack is ever negative; at the end the pots awarded
    plus the rake equal the contributions (uncalled bets returned) and stacks + rake = the starting chips."""
    config, rng = case
    start = sum(config.stacks)

    def check(hand: Hand) -> None:
        assert all(s >= 0 for s in hand.stacks), hand.stacks
        if hand.is_over:  # ``pot`` keeps showing the pot that was awarded
            return
        assert sum(hand.stacks) + hand.pot == start
        assert hand.pot == sum(hand.total)
        assert all(t >= 0 for t in hand.total)

    hand = play_random_hand(config, rng, check)
    result = hand.result
    assert result is not None
    assert all(v >= 0 for v in result.stacks.values())
    assert sum(result.stacks.values()) + result.rake == start
    assert sum(p.amount for p in result.pots) + result.rake == sum(hand.total)
    for award in result.pots:
        assert sum(award.winners.values()) == award.amount
        assert set(award.winners) <= set(award.eligible)


@PROPS
@given(hand_configs())
def test_r_card_1_every_card_dealt_is_unique_and_from_the_deck(
    case: tuple[HandConfig, random.Random],
) -> None:
    """R-CARD-1, R-RANK-6P-1, R-RANK-32-1, R-INSUF-1: at every moment the cards in the players' hands and on the
    board are distinct cards of the game's deck; without a reshuffle no card is ever dealt twice in a hand."""
    config, rng = case
    deck = set(int(c) for c in config.game.deck)

    def check(hand: Hand) -> None:
        held = _held_cards(hand)
        assert len(held) == len(set(held)), Counter(held).most_common(3)
        assert set(held) <= deck

    hand = play_random_hand(config, rng, check)
    if not any(e.kind == "reshuffled" for e in hand.events):
        dealt: list[str] = []
        for e in hand.events:
            if e.kind in ("dealt", "board", "drew_cards"):
                dealt += e.data["cards"]
        assert len(dealt) == len(set(dealt)), Counter(dealt).most_common(3)


@PROPS
@given(hand_configs())
def test_r_gen_5_a_view_never_shows_another_players_face_down_cards(
    case: tuple[HandConfig, random.Random],
) -> None:
    """R-GEN-5: before the showdown, a player's view and event stream never contain another player's face-down
    cards (only their own, the up cards and the board); spectators see no face-down card at all."""
    config, rng = case

    def known_to(hand: Hand, viewer: int | None) -> set[str]:
        """Cards the viewer held at some time (their own cards and discards; a mucked or discarded card may be
        dealt again to someone else in a draw game, R-INSUF-1)."""
        if viewer is None:
            return set()
        known: set[str] = set()
        for e in hand.events_for(viewer):
            if e.seat == viewer and e.kind in ("dealt", "drew_cards"):
                known.update(e.data.get("cards", []))
        return known

    def check(hand: Hand) -> None:
        if hand.is_over:
            return
        for i, owner in enumerate(hand.seats):
            secret = {str(c) for c, up in zip(hand.cards[i], hand.up[i], strict=True) if not up}
            if not secret:
                continue
            for viewer in [None, *hand.seats]:
                if viewer == owner:
                    continue
                hidden = secret - known_to(hand, viewer)
                view = hand.view(viewer)
                for p in view["players"]:
                    assert not hidden & set(p["cards"]), (viewer, owner, p)
                for e in hand.events_for(viewer):
                    if e.kind in ("dealt", "drew_cards") and e.seat == owner:
                        assert not hidden & set(e.data.get("cards", [])), (viewer, e)
        own = hand.to_act
        if own is not None:
            j = hand.seats.index(own)
            mine = {p["seat"]: p for p in hand.view(own)["players"]}[own]["cards"]
            assert mine == [str(c) for c in hand.cards[j]]

    play_random_hand(config, rng, check)


def _snapshot(hand: Hand) -> Any:
    return (
        hand.view(None),
        [hand.view(s) for s in hand.seats],
        len(hand.events),
        list(hand.stacks),
        list(hand.bets),
        hand.to_act,
    )


def _illegal_actions(hand: Hand, rng: random.Random) -> list[Action]:
    legal = hand.legal_actions()
    seat = legal.seat
    others = [s for s in hand.seats if s != seat]
    out = [Action(rng.choice(others), K.FOLD), Action(seat, K.RAISE, amount=-5)]
    missing = [k for k in (K.CHECK, K.CALL, K.BET, K.RAISE, K.BRING_IN, K.DRAW) if k not in legal.kinds]
    if missing:
        kind = rng.choice(missing)
        out.append(Action(seat, kind, amount=legal.max_to + 1 if kind in (K.BET, K.RAISE) else 0))
    for kind in (K.BET, K.RAISE, K.COMPLETE):
        if kind in legal.kinds:
            out.append(Action(seat, kind, amount=legal.max_to + 1))
            out.append(Action(seat, kind, amount=legal.min_to - 1))
    if K.DRAW in legal.kinds:
        i = hand.seats.index(seat)
        mine = {int(c) for c in hand.cards[i]}
        stranger = next(c for c in hand.game.deck if int(c) not in mine)
        out.append(Action(seat, K.DRAW, cards=(Card(stranger),)))
        if hand.cards[i]:
            out.append(Action(seat, K.DRAW, cards=(hand.cards[i][0], hand.cards[i][0])))
    return out


@PROPS
@given(hand_configs())
def test_r_act_illegal_actions_raise_and_leave_the_hand_unchanged(
    case: tuple[HandConfig, random.Random],
) -> None:
    """R-ACT-1..5, R-LIMIT-GEN-1, R-FL-1: acting out of turn, a kind not offered, an amount outside min..max, or
    discarding cards one does not hold raises IllegalAction with a message, and changes nothing."""
    config, rng = case
    hand = Hand(config)
    tried = decisions = 0
    while not hand.is_over:
        decisions += 1
        before = _snapshot(hand)
        for bad in _illegal_actions(hand, rng):
            if bad.kind in (K.BET, K.RAISE, K.COMPLETE) and hand.legal_actions().allowed_to:
                continue
            with pytest.raises(IllegalAction) as info:
                hand.act(bad)
            assert str(info.value)
            assert _snapshot(hand) == before
            tried += 1
        legal = hand.legal_actions()
        hand.act(random_action(legal, list(hand.cards[hand.seats.index(legal.seat)]), rng))
    assert tried >= 2 * decisions  # out of turn and a negative amount at least, at every decision
    with pytest.raises(IllegalAction):
        hand.act(Action(config.seats[0], K.FOLD))


def test_every_game_and_structure_is_covered_by_the_properties() -> None:
    """Issue #3: the properties run over every game and structure (R-HOLDEM ... R-DRAW32, R-FL ... R-NL)."""
    games_seen = {g for g, _ in COMBOS}
    assert games_seen == set(GAMES)
    structures = {s for _, s in COMBOS}
    assert structures == set(Structure)
    stud: list[Game] = [g for g in GAMES.values() if g.kind is Kind.STUD]
    assert stud and all(any(c[0] == g.id for c in COMBOS) for g in stud)
