"""The cards that make each winning hand at a showdown, named on every pot award (issue #14 "winning hand
highlighted"): ``pot_awarded.hands`` and the result's pots carry, per winner, the best five the evaluator chose
(R-CARD-2; exactly two hole and three board cards in Omaha, R-OMAHA-3 / R-OMAHA-HL-2, each half on its own,
R-LOW-8B-4) and the hand's name. Only hands shown down appear (R-SHOW-4, R-GEN-5): a mucked loser's cards never do,
and a pot won without a showdown names no cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from riverboat.cards import parse_cards
from riverboat.engine import Action, ActionKind, Hand, HandConfig, Settings
from riverboat.evaluate import CardUse, Ranking, best_hand
from riverboat.games import GAMES, Stakes, Structure
from riverboat.verify.randomplay import play_random_hand, stakes_for

FL, NL, PL = Structure.FIXED_LIMIT, Structure.NO_LIMIT, Structure.POT_LIMIT
STUD = Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)


def awards(hand: Hand) -> list[dict[str, Any]]:
    return [dict(e.to_dict()) for e in hand.events if e.kind == "pot_awarded"]


def shown(hand: Hand) -> dict[int, list[str]]:
    return {e.seat: list(e.data["cards"]) for e in hand.events if e.kind == "showed" and e.seat is not None}


def test_r_card_2_holdem_hole_card_flush_beats_the_straight_on_the_board(mk, finish):
    """R-CARD-2 / R-SHOW-4: the flush made with both hole cards wins; its five cards are the two hearts in hand and
    three of the board; the loser's straight (the board) is mucked and named nowhere."""
    h = mk("holdem", NL, [100, 100], ["Ah 2h", "Kc Kd"], "5h 6h 7c 8d 9h")
    finish(h)
    [award] = awards(h)
    assert award["winners"] == {1: 4} and award["share"] == "all"
    assert award["hands"] == {1: {"cards": ["Ah", "9h", "6h", "5h", "2h"], "label": "Flush, Ace high"}}
    assert [e.kind for e in h.events if e.seat == 2][-1] == "mucked"
    assert h.result is not None and h.result.to_dict()["pots"][0]["hands"] == award["hands"]
    assert "Kc" not in str(award) and "Kd" not in str(award)


def test_r_card_2_holdem_board_plays_both_winners_named_with_the_five_board_cards(mk, finish):
    """R-CARD-2 (Hold'em may play the board): both play the Broadway straight on the board and split; each
    winner's hand is the five board cards, none of their hole cards."""
    h = mk("holdem", NL, [100, 100], ["2c 3d", "4c 5d"], "Ts Js Qd Kc Ah")
    finish(h)
    [award] = awards(h)
    assert award["winners"] == {1: 2, 2: 2}
    board = {"cards": ["Ah", "Kc", "Qd", "Js", "Ts"], "label": "Straight, Ace high"}
    assert award["hands"] == {1: board, 2: board}


def test_r_omaha_hl_2_r_low_8b_4_each_half_two_hole_and_three_board_cards(mk, finish):
    """R-OMAHA-3 / R-OMAHA-HL-2: four spades on the board and one in seat 1's hand make no flush; seat 1's high is
    a pair of Jacks (Jh Jd + As Ks 8d), seat 2's low is 7-4-3-2-A (3h 4c + As 2s 7s), each exactly two hole cards
    and three board cards, chosen on their own for each half (R-LOW-8B-4)."""
    h = mk("omaha_hl", PL, [100, 100], ["Qs Jh Jd Tc", "3h 4c 9c 9h"], "As Ks 7s 2s 8d")
    finish(h)
    high, low = awards(h)
    assert (high["share"], high["winners"], low["share"], low["winners"]) == ("high", {1: 2}, "low", {2: 2})
    assert high["hands"] == {1: {"cards": ["Jh", "Jd", "As", "Ks", "8d"], "label": "One Pair, Jacks"}}
    assert low["hands"] == {2: {"cards": ["7s", "4c", "3h", "2s", "As"], "label": "Seven-Four low"}}
    board = set(str(c) for c in h.board)
    for award, seat in ((high, 1), (low, 2)):
        cards = award["hands"][seat]["cards"]
        assert len(set(cards) & set(shown(h)[seat])) == 2 and len(set(cards) & board) == 3


def test_r_omaha_hl_2_one_player_scoops_with_different_cards_for_each_half(mk, finish):
    """R-LOW-8B-4: one player wins both halves, with As Ks for the high and 2d 3d for the low."""
    h = mk("omaha_hl", PL, [100, 100, 100], ["AsKs2d3d", "QcQd4c5c", "JhJcTh9h"], "Ad 4h 8s Kd 7c")
    finish(h)
    high, low = awards(h)
    assert high["hands"] == {1: {"cards": ["As", "Ad", "Ks", "Kd", "8s"], "label": "Two Pair, Aces and Kings"}}
    assert low["hands"] == {1: {"cards": ["7c", "4h", "3d", "2d", "Ad"], "label": "Seven-Four low"}}


def test_r_card_2_stud_full_house_from_down_and_up_cards(mk, finish):
    """R-CARD-2 in 7 Card Stud (best five of seven): Queens full of Deuces from two down and three up cards; the
    seventh-street 9h and the 5s are not part of it."""
    h = mk("stud", FL, [100, 100], ["AsAh Kd", "QsQh 2d"], "Kc Qd 7s 2c 8h 5s 9c 9h", stakes=STUD)
    finish(h)
    [award] = awards(h)
    assert award["winners"] == {2: 6}
    assert award["hands"] == {2: {"cards": ["Qs", "Qh", "Qd", "2d", "2c"], "label": "Full House, Queens over Deuces"}}


def test_r_show_4_pot_won_without_showdown_names_no_cards(mk, play):
    """Everybody else folded: the pot is won without showing, so no cards and no hand name go out."""
    h = mk("holdem", NL, [100, 100], ["Ah Ad", "7c 2d"])
    play(h, "2 fold")
    [award] = awards(h)
    assert "hands" not in award
    assert h.result is not None and "hands" not in h.result.to_dict()["pots"][0]


def _ranking_of(game_id: str, share: str) -> Ranking:
    names = GAMES[game_id].rankings
    return Ranking[names[1] if share == "low" else names[0]]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_r_card_2_every_game_winning_cards_come_from_shown_cards_and_the_board(game_id):
    """Random hands of every game (split agreements and run it twice included): every winner who showed is named
    on each pot award they win, with the cards of its shown hand and that run's board only (R-GEN-5), five cards
    (up to four in Badugi), two hole + three board in Omaha (R-OMAHA-3), and the name the evaluator gives those
    cards, which is one of the labels the player showed (on the first run; a second run names its own hand)."""
    game = GAMES[game_id]
    rng = random.Random(20261203)
    structure = game.default_structure
    players = min(4, game.max_players)
    checked = 0
    for n in range(60):
        config = HandConfig(
            game=game, structure=structure, stakes=stakes_for(game, structure), seats=list(range(players)),
            stacks=[rng.choice((40, 400, 4000)) for _ in range(players)], button=n % players,
            deck=game.deck.shuffled(rng), settings=Settings(muck_losers=bool(n % 2)), shuffle=rng.shuffle)
        hand = play_random_hand(config, rng)
        showed = shown(hand)
        showed_labels = {e.seat: str(e.data["label"]).split(" / ") for e in hand.events if e.kind == "showed"}
        mucked = {e.seat for e in hand.events if e.kind == "mucked"}
        for award in awards(hand):
            named = award.get("hands", {})
            if award["share"] == "split" or not showed:
                assert not named, award
                continue
            assert set(named) == {s for s in award["winners"] if s in showed}, (award, showed)
            assert not set(named) & mucked
            board = [str(c) for c in (hand.boards[award["run"]] if hand.boards else hand.board)]
            for seat, won in named.items():
                cards = won["cards"]
                assert len(set(cards)) == len(cards) and set(cards) <= set(showed[seat]) | set(board), (won, board)
                if game.rankings == ("BADUGI",):
                    assert 1 <= len(cards) <= 4
                else:
                    assert len(cards) == min(5, len(showed[seat]) + len(board))
                if game.omaha:
                    assert len(set(cards) & set(showed[seat])) == 2 and len(set(cards) & set(board)) == 3
                ranking = _ranking_of(game_id, award["share"])
                value = best_hand(ranking, [int(c) for c in parse_cards(" ".join(cards))], (), CardUse.ANY)
                assert value is not None and value.label == won["label"]
                if award["run"] == 0:  # the showed label is the first run's (a second run may make another hand)
                    assert won["label"] in showed_labels[seat], (won, showed_labels[seat])
                checked += 1
    assert checked > 0 or game_id in ("badugi",), f"{game_id}: no showdown won in 60 random hands"


def test_r_show_4_winning_cards_in_the_hand_view_only_once_shown(mk, play):
    """The view's result carries the same hands as the event, for every seat and a spectator alike (they are all
    cards shown at the showdown and board cards)."""
    h = mk("holdem", NL, [100, 100], ["Ah 2h", "Kc Kd"], "5h 6h 7c 8d 9h")
    while not h.is_over:
        la = h.legal_actions()
        h.act(Action(la.seat, ActionKind.CHECK if ActionKind.CHECK in la.kinds else ActionKind.CALL))
    for seat in (None, 1, 2):
        result = h.view(seat)["result"]
        assert result["pots"][0]["hands"] == {1: {"cards": ["Ah", "9h", "6h", "5h", "2h"], "label": "Flush, Ace high"}}


def test_r_card_2_winning_hand_is_the_evaluators_best_five_and_refuses_a_strength_it_does_not_make():
    """``winning_hand`` searches with the strength the showdown found (stopping at the first five that make it) and
    gives the same five as a full ``best_hand`` search; a strength those cards do not make names nothing."""
    from riverboat.engine.showdown import evaluate_hands, winning_hand

    game = GAMES["holdem"]
    hole = [int(c) for c in parse_cards("Ah 2h")]
    board = [int(c) for c in parse_cards("5h 6h 7c 8d 9h")]
    strength = evaluate_hands(game, [hole], board, [0])[0][0]
    assert strength is not None
    full = best_hand(Ranking.HIGH, hole, board)
    assert full is not None and full.strength == strength
    assert winning_hand(game, 0, hole, board, strength) == {"cards": [str(c) for c in full.cards], "label": full.label}
    assert winning_hand(game, 0, hole, board, strength + 1) is None
