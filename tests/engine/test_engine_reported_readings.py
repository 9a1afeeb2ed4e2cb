"""Two spots a player reported as odd (issue #14 item 9), checked against RULES.md and PokerKit; the engine's
readings are documented in docs/rules-differences.md ("Readings of UNCLEAR / silent points").

1. Stud, bring-in 25, completion 100, a player all-in for 75 after the bring-in: the next players (the bring-in
   included) may call 75 or raise to 175 -- one fixed limit over the bet they face (R-FL-1: every bet and raise is a
   fixed amount equal to the current limit; R-LIMIT-GEN-2 reading: they have not acted voluntarily, so they may
   raise). PokerKit 0.7.7 offers exactly the same (min = max = 175). "Complete to 100" (the TDA-style reading where
   an incomplete completion can still be completed) is not what RULES.md or PokerKit say.
2. 32 Card Draw split offer (R-SPLIT-1/2): pressing the split button is the offering player's action for now; a
   refusal by the next player ends the vote (R-SPLIT-2) and the betting round goes on in turn order, so the big blind
   acts next and the offering player, who has not matched the bet yet, acts when the turn comes back to them.
"""

from __future__ import annotations

import random

import pytest

from riverboat.cards import Card
from riverboat.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, Settings
from riverboat.games import Stakes, Structure, get_game

K = ActionKind


def _stud(stacks: list[int]) -> Hand:
    game = get_game("stud")
    deck = game.deck.shuffled(random.Random(3))
    return Hand(HandConfig(game=game, structure=Structure.FIXED_LIMIT,
                           stakes=Stakes(ante=10, bring_in=25, small_bet=100, big_bet=200),
                           seats=[0, 1, 2], stacks=stacks, button=7, deck=deck))


def test_r_fl_1_stud_short_all_in_completion_is_raised_by_one_limit_as_pokerkit_does() -> None:
    hand = _stud([1000, 1000, 1000])
    bring_in = hand.to_act
    short = [0, 1, 2][([0, 1, 2].index(bring_in) + 1) % 3]
    stacks = [1000, 1000, 1000]
    stacks[short] = 85  # 10 ante + 75
    hand = _stud(stacks)
    hand.act(Action(bring_in, K.BRING_IN, 25))
    la = hand.legal_actions()
    assert la.seat == short and (la.min_to, la.max_to) == (75, 75)  # all in for less than the completion
    hand.act(Action(short, K.COMPLETE, 75))
    third = hand.legal_actions()
    assert (third.call, third.min_to, third.max_to) == (75, 175, 175)
    hand.act(Action(third.seat, K.CALL))
    again = hand.legal_actions()
    assert again.seat == bring_in
    assert K.RAISE in again.kinds and (again.call, again.min_to, again.max_to) == (50, 175, 175)
    with pytest.raises(IllegalAction):
        hand.act(Action(bring_in, K.RAISE, 100))  # "complete to 100" is not offered, and refused

    pokerkit = pytest.importorskip("pokerkit")
    a = pokerkit.Automation
    automations = (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING, a.BOARD_DEALING,
                   a.HAND_KILLING, a.CHIPS_PUSHING, a.CHIPS_PULLING, a.HOLE_CARDS_SHOWING_OR_MUCKING)
    state = pokerkit.FixedLimitSevenCardStud(automations, True, 10, 25, 100, 200)((1000, 85, 1000), 3)
    for cards in ("AsKs2c", "AhKh9d", "AdKd8c"):  # p1 shows the lowest card: p1 brings in, p2 is the short stack
        state.deal_hole(cards)
    state.post_bring_in()
    state.complete_bet_or_raise_to(75)
    assert (state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount) == (175, 175)
    state.check_or_call()
    assert state.actor_index == 0 and state.checking_or_calling_amount == 50
    assert (state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount) == (175, 175)


def test_r_split_2_refused_offer_the_betting_goes_on_in_turn_and_the_offerer_still_owes_the_bet() -> None:
    game = get_game("draw32")
    hand = Hand(HandConfig(game=game, structure=Structure.FIXED_LIMIT,
                           stakes=Stakes(small_blind=50, big_blind=100, small_bet=100, big_bet=200),
                           seats=[0, 1, 2], stacks=[2000, 2000, 2000], button=0,
                           deck=game.deck.shuffled(random.Random(5)), settings=Settings()))
    # button 0 acts first three-handed (left of the big blind), then the small blind 1, then the big blind 2
    first = hand.legal_actions()
    assert first.seat == 0 and K.AGREE_SPLIT in first.kinds and first.call == 100
    hand.act(Action(0, K.AGREE_SPLIT))
    sb = hand.legal_actions()
    assert sb.seat == 1 and K.AGREE_SPLIT in sb.kinds
    hand.act(Action(1, K.CALL))  # another action: the vote is over (R-SPLIT-2)
    assert any(e.kind == "split_refused" for e in hand.events)
    bb = hand.legal_actions()
    assert bb.seat == 2 and K.AGREE_SPLIT not in bb.kinds and K.CHECK in bb.kinds
    hand.act(Action(2, K.CHECK))
    back = hand.legal_actions()
    assert back.seat == 0 and back.call == 100 and K.AGREE_SPLIT not in back.kinds  # the offerer must still call
    hand.act(Action(0, K.CALL))
    assert hand.pot == 300 and all(isinstance(c, Card) for c in hand.cards[0])
