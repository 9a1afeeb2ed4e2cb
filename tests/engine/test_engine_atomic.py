"""The engine's promise (R-ACT-1, issue #10 item 6): an action that is refused changes nothing — also when it is
refused only while it is being applied: the deck runs out in a draw (R-INSUF-1) or when the street the action
closes is dealt. The refused action leaves the hand exactly as it was (every view, the event log, whose turn) and
the hand can go on."""

from __future__ import annotations

from typing import Any

import pytest

from riverboat.cards import parse_cards
from riverboat.engine import Action, ActionKind, Hand, IllegalAction
from riverboat.games import Stakes, Structure, get_game

K = ActionKind
FL, NL = Structure.FIXED_LIMIT, Structure.NO_LIMIT
BLINDS = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)


def state(h: Hand) -> tuple[Any, ...]:
    """Everything a client or the room can see of a hand, for every seat and a spectator."""
    views = [h.view(seat) for seat in h.seats] + [h.view(None)]
    return (views, [(e.kind, e.seat, e.data, e.visible_to) for e in h.events], h.to_act, h.street,
            [list(c) for c in h.cards], list(h.board), h.pot, h.deck_order(), h.is_over)


def test_r_act_1_r_insuf_1_draw_refused_when_the_deck_runs_out_changes_nothing(mk) -> None:
    """Five-card draw, six players: the fourth discard of five needs a reshuffle, and the (replay) shuffle hook
    gives no card back: the draw is refused, and the drawer's hand, the discards and the events are as before."""
    h = mk("draw5", FL, [100] * 6, stakes=BLINDS, shuffle=lambda cards: cards.clear())
    for _ in range(6):  # everybody calls or checks the first round
        la = h.legal_actions()
        h.act(Action(la.seat, K.CHECK if K.CHECK in la.kinds else K.CALL))
    refused = None
    while refused is None:
        la = h.legal_actions()
        assert K.DRAW in la.kinds
        mine = h.cards[h.seats.index(la.seat)]
        before = state(h)
        try:
            h.act(Action(la.seat, K.DRAW, cards=tuple(int(c) for c in mine[:5])))
        except IllegalAction as exc:
            refused = exc
            assert state(h) == before  # nothing changed
    assert "not enough cards" in str(refused)
    seat = h.to_act
    assert seat is not None
    h.act(Action(seat, K.STAND_PAT))  # the hand goes on
    assert h.to_act != seat


def test_r_act_1_action_refused_when_the_next_street_cannot_be_dealt_changes_nothing() -> None:
    """Hold'em with a deck of six cards (a record's partial deck): the check that closes the first betting round
    cannot be followed by the flop, so it is refused and nothing of it remains (no check event, the big blind
    still to act, no board card, the deck position unchanged)."""
    game = get_game("holdem")
    deck = parse_cards("AsKs AhKh 2c3c")
    from riverboat.engine import HandConfig, Settings

    h = Hand(HandConfig(game=game, structure=NL, stakes=Stakes(small_blind=1, big_blind=2), seats=[1, 2],
                        stacks=[100, 100], button=2, deck=deck, settings=Settings()))
    h.act(Action(2, K.CALL))  # the button (small blind) calls
    before = state(h)
    with pytest.raises(IllegalAction, match="ran out"):
        h.act(Action(1, K.CHECK))
    assert state(h) == before
    assert h.to_act == 1 and K.CHECK in h.legal_actions().kinds
    h.act(Action(1, K.FOLD))  # another action is still taken
    assert h.is_over and h.result is not None and h.result.stacks == {1: 98, 2: 102}


def test_r_act_1_pending_and_deck_are_public_api(mk) -> None:
    """``history.replay`` reads who is still due to act and the deck order through public methods."""
    h = mk("holdem", NL, [100, 100, 100])
    assert [h.is_due(s) for s in (1, 2, 3)] == [True, True, True]
    h.act(Action(3, K.CALL))
    assert [h.is_due(s) for s in (1, 2, 3)] == [True, True, False]
    assert len(h.deck_order()) == 52 and len(set(h.deck_order())) == 52


def _random_action(h: Hand, rng: Any) -> Action:
    la = h.legal_actions()
    kind = rng.choice(sorted(la.kinds))
    if kind is K.DRAW:
        mine = h.cards[h.seats.index(la.seat)]
        k = rng.randint(0, min(la.max_discards, len(mine)))
        return Action(la.seat, kind, cards=tuple(int(c) for c in rng.sample(mine, k)))
    if kind in (K.BET, K.RAISE, K.COMPLETE):
        amt = rng.choice(la.allowed_to) if la.allowed_to else rng.randint(la.min_to, la.max_to)
        return Action(la.seat, kind, amt)
    return Action(la.seat, kind)


@pytest.mark.parametrize("seed", range(3))
def test_r_act_1_short_decks_every_game_a_refused_action_changes_nothing(seed: int) -> None:
    """Issue #33: the state is copied only when the cards left could fall short before the next decision (not for
    every action of a draw game). Every game of the catalogue, with decks cut short at random and a reshuffle
    hook that gives no card back: whenever an action is refused while it is applied, the hand is exactly as it
    was and goes on (a bound that missed a card dealt before the next decision would leave a changed hand)."""
    import random

    from riverboat.engine import HandConfig, Settings
    from riverboat.games import GAMES

    rng = random.Random(seed)
    refused = 0
    for game in GAMES.values():
        for _ in range(6):
            n = rng.randint(2, game.max_players)
            deck = list(game.deck.cards)
            rng.shuffle(deck)
            deck = deck[: rng.randint(len(deck) // 2, len(deck))]
            structure = game.structures[0]
            stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4, ante=1 if game.kind.value == "stud"
                            else 0, bring_in=1, spread=(2, 4))
            try:
                h = Hand(HandConfig(game=game, structure=structure, stakes=stakes, seats=list(range(1, n + 1)),
                                    stacks=[rng.randint(5, 60) for _ in range(n)], button=n, deck=deck,
                                    settings=Settings(), shuffle=lambda cards: cards.clear()))
            except IllegalAction:
                continue  # the first street cannot be dealt: no hand
            steps = 0
            while not h.is_over and steps < 200:
                steps += 1
                action = _random_action(h, rng)
                before = state(h)
                try:
                    h.act(action)
                except IllegalAction:
                    refused += 1
                    assert state(h) == before, (game.id, action)
                    fold = K.FOLD if K.FOLD in h.legal_actions().kinds else K.STAND_PAT
                    if fold is K.STAND_PAT and fold not in h.legal_actions().kinds:
                        break  # a vote: try the next hand
                    try:
                        h.act(Action(action.seat, fold))
                    except IllegalAction:
                        assert state(h) == before
                        break
    assert refused > 0  # the deck did run short in some hands


@pytest.mark.parametrize("game_id", ["holdem", "stud", "triple_draw_27", "draw5", "omaha_hl"])
def test_r_act_1_the_copy_covers_every_container_of_the_state(mk, game_id: str) -> None:
    """Issue #33: the copy made before a risky action copies every list and set of the hand's state (a list shared
    with the copy would be changed with the hand, and a refused action would leave it changed)."""
    from riverboat.engine import hand as hand_module

    game = get_game(game_id)
    h = mk(game_id, FL, [100] * 4, stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4, ante=1,
                                                  bring_in=1))
    assert game.structures
    copied = set(hand_module._NESTED_AT) | set(hand_module._CONTAINERS_AT)
    for k, name in enumerate(hand_module._STATE_SLOTS):
        value = getattr(h, name)
        if isinstance(value, list | set | dict):
            assert k in copied, name
    saved = h._saved_state()
    for k in copied:
        assert saved[k] is not getattr(h, hand_module._STATE_SLOTS[k])
