"""Stud, draw and the special games: bring-in, visible hands, open pair, draws, reshuffles, 32-card and Soko
showdowns (R-STUD, R-BRINGIN, R-SUIT-1, R-RAZZ, R-SOKO, R-AMER, R-DRAW5, R-TD27, R-DRAW32, R-INSUF)."""

from __future__ import annotations

import pytest

from riverboat.cards import parse_cards
from riverboat.engine import Action, ActionKind, IllegalAction, Settings
from riverboat.games import Stakes, Structure

FL, NL = Structure.FIXED_LIMIT, Structure.NO_LIMIT
K = ActionKind
STUD = Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
BLINDS = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
SHOW_ALL = Settings(muck_losers=False)


def test_r_stud_3_r_suit_1_lowest_up_card_brings_in_clubs_lowest(mk):
    h = mk("stud", FL, [100, 100, 100], ["AsAh Kd", "QsQh 2d", "JsJh 2c"], stakes=STUD)
    la = h.legal_actions()
    assert la.seat == 3 and la.kinds == {K.BRING_IN, K.COMPLETE} and la.bring_in == 2 and la.min_to == 4


def test_r_soko_4_highest_up_card_brings_in_spades_highest(mk):
    h = mk("soko", FL, [100, 100, 100], ["2c Ah", "3c As", "4c Kd"], stakes=STUD)
    assert h.to_act == 2


def test_r_amer_5_highest_up_card_brings_in_in_americana(mk):
    h = mk("americana", FL, [100, 100], ["7c Ad", "8c Ah"], stakes=STUD)
    assert h.to_act == 2


def test_r_razz_2_highest_up_card_with_ace_low_brings_in(mk):
    h = mk("razz", FL, [100, 100, 100], ["2s3s Kc", "2h3h Ac", "2d3d Qd"], stakes=STUD)
    assert h.to_act == 1


def _stud_fourth(mk, game: str, fourth: str, up: tuple[str, str, str] = ("9c", "Kd", "2c")):
    h = mk(game, FL, [100, 100, 100], [f"AsAh {up[0]}", f"QsQh {up[1]}", f"JsJh {up[2]}"], fourth, stakes=STUD)
    h.act(Action(3, K.BRING_IN))
    h.act(Action(1, K.CALL))
    h.act(Action(2, K.CALL))
    return h


def test_r_stud_5_best_visible_hand_acts_first_on_fourth_street(mk):
    h = _stud_fourth(mk, "stud", "9d Ad 3c")
    assert h.street == 1 and h.to_act == 1  # a pair of nines showing


def test_r_stud_5_equal_visible_hands_closest_to_the_dealer_box_first(mk):
    h = _stud_fourth(mk, "stud", "Kh Ks 3c", up=("9c", "9d", "2c"))
    assert h.to_act == 1  # K-9 against K-9: seat 1 is first after the dealer box (seat 3)


def test_r_stud_6_open_pair_on_fourth_street_allows_the_big_bet(mk):
    h = _stud_fourth(mk, "stud", "9d Ad 3c")
    la = h.legal_actions()
    assert la.allowed_to == (4, 8)
    h.act(Action(1, K.BET, 8))
    assert h.legal_actions().min_to == h.legal_actions().max_to == 16  # raises are of the big bet now


def test_r_stud_hl_4_no_open_pair_rule_in_stud_hi_lo(mk):
    h = _stud_fourth(mk, "stud_hl", "9d Ad 3c")
    la = h.legal_actions()
    assert la.allowed_to == () and la.min_to == la.max_to == 4


def test_r_stud_7_limits_small_on_third_and_fourth_big_from_fifth(mk, play):
    h = _stud_fourth(mk, "stud", "8d Ad 3c")
    assert h.legal_actions().max_to == 4
    play(h, "2 check", "3 check", "1 check")
    assert h.street == 2 and h.legal_actions().max_to == 8


def test_r_insuf_3_stud_community_card_when_the_deck_runs_out(mk, finish):
    h = mk("stud", FL, [500] * 8, stakes=STUD, settings=SHOW_ALL)
    finish(h)
    community = [e for e in h.events if e.kind == "board" and e.data.get("community")]
    assert len(community) == 1 and len(h.board) == 1
    assert all(len(c) == 6 for c in h.cards)  # 3 + 3 up; the seventh card is the shared one
    assert sum(h.result.stacks.values()) == 4000


def test_r_draw5_6_after_the_draw_first_active_left_of_dealer(mk, play):
    h = mk("draw5", FL, [100, 100, 100], stakes=BLINDS)
    play(h, "3 call", "1 call", "2 check")
    assert h.legal_actions().kinds == {K.DRAW, K.STAND_PAT} and h.to_act == 1
    play(h, "1 stand_pat", "2 stand_pat", "3 stand_pat")
    assert h.to_act == 1 and h.legal_actions().min_to == 4  # big bet after the draw


def test_r_draw32_6_after_the_draw_first_after_the_big_blind(mk, play):
    h = mk("draw32", FL, [100, 100, 100], stakes=BLINDS)
    play(h, "3 call", "1 call", "2 check")
    assert h.to_act == 3
    play(h, "3 stand_pat", "1 stand_pat", "2 stand_pat")
    assert h.to_act == 3


def test_r_draw32_5_at_most_four_discards_and_bad_discards_rejected(mk, play):
    h = mk("draw32", FL, [100, 100, 100], ["AsKsQsJsTs", "AhKhQhJhTh", "AdKdQdJdTd"], stakes=BLINDS)
    play(h, "3 call", "1 call", "2 check")
    before = h.view(3)
    with pytest.raises(IllegalAction, match="at most 4"):
        play(h, "3 draw AdKdQdJdTd")
    with pytest.raises(IllegalAction, match="your hand"):
        play(h, "3 draw As")
    assert h.view(3) == before
    play(h, "3 draw AdKd")
    assert len(h.cards[2]) == 5 and not {int(c) for c in parse_cards("AdKd")} & set(h.cards[2])


def test_r_td27_2_three_draws_four_betting_rounds(mk, finish):
    h = mk("triple_draw_27", FL, [100, 100, 100], stakes=BLINDS, settings=SHOW_ALL)
    finish(h)
    assert sum(1 for e in h.events if e.kind == "street") == 4
    assert sum(1 for e in h.events if e.kind == "drew") == 9


def _draw_everything(h, shuffle_log):
    own: dict[int, set[int]] = {}
    while not h.is_over:
        la = h.legal_actions()
        if K.DRAW in la.kinds:
            mine = list(h.cards[h.seats.index(la.seat)])
            discard = tuple(int(c) for c in mine[: la.max_discards])
            own.setdefault(la.seat, set()).update(discard)
            h.act(Action(la.seat, K.DRAW, cards=discard))
        elif K.CHECK in la.kinds:
            h.act(Action(la.seat, K.CHECK))
        else:
            h.act(Action(la.seat, K.CALL))
    return own


def test_r_insuf_1_reshuffle_never_gives_a_player_their_own_discards(mk):
    log: list[list[int]] = []
    h = mk("draw5", FL, [100] * 6, stakes=BLINDS, settings=SHOW_ALL,
           shuffle=lambda cards: (log.append(list(cards)), cards.reverse()))
    own = _draw_everything(h, log)
    assert any(e.kind == "reshuffled" for e in h.events) and log
    for seat, discards in own.items():
        hand_cards = set(h.cards[h.seats.index(seat)])
        assert not hand_cards & discards  # R-INSUF-1
    every = [c for cards in h.cards for c in cards]
    assert len(every) == len(set(every)) == 30


def test_r_insuf_2_32_card_draw_reshuffles_folded_cards_before_this_draws_discards(mk, play):
    log: list[list[int]] = []
    h = mk("draw32", FL, [100] * 5, stakes=BLINDS, shuffle=lambda cards: log.append(list(cards)))
    folded = {int(c) for c in h.cards[3] + h.cards[4]}  # seats 4 and 5 fold
    play(h, "3 call", "4 fold", "5 fold", "1 call", "2 check")
    stub = {int(c) for c in h.config.deck[25:]}
    first = [int(c) for c in h.cards[2][:4]]
    play(h, "3 draw " + "".join(str(c) for c in h.cards[2][:4]))
    second = [int(c) for c in h.cards[0]]
    play(h, "1 draw " + "".join(str(c) for c in h.cards[0][:4]))
    assert log and set(log[0]) == folded  # not seat 3's discards of this same draw (R-INSUF-2)
    new = set(h.cards[0]) - set(second)
    assert new <= stub | folded and not new & set(first)


def test_r_rank_32_6_draw32_suits_break_ties_no_split(mk, finish):
    h = mk("draw32", FL, [100, 100], ["Ah Kd Qc Js 9h", "As Kc Qd Jh 9c"], seats=[1, 2], button=2, stakes=BLINDS,
           settings=SHOW_ALL)
    finish(h)
    assert h.result.stacks == {1: 102, 2: 98}  # hearts beat spades on the top card (R-RANK-32-5)


def test_r_rank_32_9_americana_ties_split(mk, finish):
    h = mk("americana", FL, [100, 100], ["Ah Kd", "As Kc"], "Qc Qd Js Jh 9h 9c", seats=[1, 2], button=2,
           stakes=STUD, settings=SHOW_ALL)
    finish(h)
    assert h.result.stacks == {1: 100, 2: 100} and h.result.pots[0].winners == {1: 3, 2: 3}


def test_r_rank_soko_1_four_flush_beats_a_pair(mk, finish):
    h = mk("soko", FL, [100, 100], ["2h 5h", "Ac Ad"], "9h 3s Jh 7d 8c Kc", seats=[1, 2], button=2,
           stakes=STUD, settings=SHOW_ALL)
    finish(h)
    assert h.result.net[1] > 0 and "4-Flush" in h.result.labels[1]
