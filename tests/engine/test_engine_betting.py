"""Betting rules of the hand state machine: blinds, order of action, structures, caps, reopening."""

from __future__ import annotations

import pytest

from riverboat.engine import Action, ActionKind, IllegalAction, Settings
from riverboat.games import Stakes, Structure, get_game, phh_game

NL, PL, FL, SL, HPL = (Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT,
                       Structure.HALF_POT_LIMIT)
K = ActionKind


def test_r_blind_1_r_holdem_4_blinds_and_first_to_act(mk):
    h = mk("holdem", NL, [100, 100, 100, 100])
    assert h.bets == [1, 2, 0, 0]  # seat 1 (left of button 4) small blind, seat 2 big blind
    assert h.to_act == 3  # left of the big blind
    la = h.legal_actions()
    assert la.kinds >= {K.FOLD, K.CALL, K.RAISE} and K.CHECK not in la.kinds
    assert (la.call, la.min_to, la.max_to) == (2, 4, 100)  # R-NL-2/3: min raise one big blind


def test_r_blind_3_heads_up_button_posts_small_blind_acts_first_preflop_last_after(mk, play):
    h = mk("holdem", NL, [100, 100], seats=[2, 5], button=5)
    assert h.view()["players"][1]["bet"] == 1 and h.view()["players"][0]["bet"] == 2  # seat 5 = button = SB
    assert h.to_act == 5
    play(h, "5 call", "2 check")
    assert h.to_act == 2  # after the flop the big blind acts first, the button last


def test_r_blind_2_big_blind_option_to_check_or_raise(mk, play):
    h = mk("holdem", NL, [100, 100, 100])
    play(h, "3 call", "1 call")
    la = h.legal_actions()
    assert la.seat == 2 and K.CHECK in la.kinds and K.RAISE in la.kinds


def test_r_holdem_8_after_flop_first_active_left_of_button(mk, play):
    h = mk("holdem", NL, [100, 100, 100, 100])
    play(h, "3 call", "4 call", "1 fold", "2 check")
    assert h.street == 1 and h.to_act == 2  # the small blind folded: first active clockwise from the button


def test_r_act_1_cannot_check_facing_a_bet_and_state_unchanged(mk, play):
    h = mk("holdem", NL, [100, 100, 100])
    before = [h.view(seat) for seat in (1, 2, 3, None)]
    events = list(h.events)
    with pytest.raises(IllegalAction, match="check is not allowed"):
        h.act(Action(3, K.CHECK))
    with pytest.raises(IllegalAction, match="seat 1 cannot act"):
        h.act(Action(1, K.CALL))
    with pytest.raises(IllegalAction, match="out of range"):
        h.act(Action(3, K.RAISE, 3))
    with pytest.raises(IllegalAction, match="integer amount"):
        h.act(Action(3, K.RAISE, 4.5))  # type: ignore[arg-type]
    assert [h.view(seat) for seat in (1, 2, 3, None)] == before  # every seat's view and the spectator's
    assert h.events == events and h.to_act == 3  # no event logged, still seat 3's turn


def test_r_nl_3_min_raise_is_largest_previous_raise(mk, play):
    h = mk("holdem", NL, [500, 500, 500, 500])
    play(h, "3 raise 10")  # a raise of 8
    assert h.legal_actions().min_to == 18
    play(h, "4 raise 30")  # a raise of 20
    assert h.legal_actions().min_to == 50


def test_r_limit_gen_2_incomplete_all_in_raise_does_not_reopen(mk, play):
    h = mk("holdem", NL, [500, 500, 500, 25])
    play(h, "3 raise 20", "4 raise 25")  # seat 4 all-in: a raise of 5 < 18, incomplete
    assert h.allin[3]
    la = h.legal_actions()  # seat 1 has not acted: may still raise, minimum over the last full raise
    assert la.seat == 1 and K.RAISE in la.kinds and la.min_to == 25 + 18
    play(h, "1 call", "2 call")
    la = h.legal_actions()  # seat 3 acted before the short all-in: call or fold only
    assert la.seat == 3 and K.RAISE not in la.kinds and la.kinds >= {K.CALL, K.FOLD}


def test_r_limit_gen_2_full_raise_after_short_all_in_reopens(mk, play):
    h = mk("holdem", NL, [500, 500, 500, 25])
    play(h, "3 raise 20", "4 raise 25", "1 raise 60", "2 fold")
    assert K.RAISE in h.legal_actions().kinds  # seat 3 faces a full raise


def test_r_pl_2_pot_sized_raise_formula(mk, play):
    # pot 10 before the round, A bets 5, B to act: max raise-to = 5 + (10 + 5 + 5) = 25 (R-PL-2 example)
    h = mk("holdem", PL, [200, 200], seats=[1, 2], button=2)
    play(h, "2 raise 5", "1 call")  # pot 10 after pre-flop
    play(h, "1 bet 5")
    la = h.legal_actions()
    assert (la.min_to, la.max_to) == (10, 25)


def test_r_pl_2_preflop_pot_raise_counts_the_blinds(mk):
    h = mk("holdem", PL, [200, 200, 200])
    la = h.legal_actions()  # blinds 1+2; to call 2; max = 2 + (3 + 2) = 7
    assert (la.min_to, la.max_to) == (4, 7)


def test_r_hpl_3_half_pot_limit(mk, play):
    h = mk("holdem", HPL, [200, 200], seats=[1, 2], button=2)
    play(h, "2 call", "1 check")  # pot 4
    la = h.legal_actions()
    assert (la.min_to, la.max_to) == (2, 2)  # half of 4 is 2 = the minimum bet (R-HPL-2)
    play(h, "1 bet 2")
    la = h.legal_actions()  # to call 2, then half of (4 + 2 + 2) = 4: raise-to 6
    assert (la.min_to, la.max_to) == (4, 6)


def test_r_sl_2_to_4_spread_limit_round_maximum_and_cap(mk, play):
    st = Stakes(small_blind=50, big_blind=100, spread=(100, 100, 200, 300))
    h = mk("holdem", SL, [5000, 5000], seats=[1, 2], button=2, stakes=st)
    la = h.legal_actions()
    assert (la.min_to, la.max_to) == (200, 200)  # pre-flop max bet 1: raise 100 over 100
    play(h, "2 call", "1 check")  # pre-flop done
    play(h, "1 check", "2 check")  # flop done; turn: maximum 200
    la = h.legal_actions()
    assert (la.min_to, la.max_to) == (100, 200)
    play(h, "1 bet 150")
    la = h.legal_actions()
    assert (la.min_to, la.max_to) == (300, 350)  # at least the previous raise (150), at most +200
    play(h, "2 raise 350", "1 raise 550")
    la = h.legal_actions()  # R-SL-4: a round total is capped at 3 x 200 = 600; final raise up to the cap
    assert (la.min_to, la.max_to) == (600, 600)


def test_r_fl_4_cap_is_bet_plus_three_raises_counting_big_blind(mk, play):
    st = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    h = mk("holdem", FL, [100] * 4, stakes=st)
    play(h, "3 raise 4", "4 raise 6", "1 raise 8")  # blind + 3 raises = 4 bets
    la = h.legal_actions()
    assert la.seat == 2 and K.RAISE not in la.kinds and la.call == 6


def test_r_fl_4_phh_reading_does_not_count_the_blind(mk, play):
    st = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    h = mk(phh_game(get_game("holdem")), FL, [100] * 4, stakes=st)
    play(h, "3 raise 4", "4 raise 6", "1 raise 8")
    la = h.legal_actions()
    assert K.RAISE in la.kinds and la.min_to == la.max_to == 10
    play(h, "2 raise 10")
    assert K.RAISE not in h.legal_actions().kinds


def test_r_fl_1_2_fixed_amounts_small_then_big_bet(mk, play):
    st = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    h = mk("holdem", FL, [100, 100, 100], stakes=st)
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (4, 4)
    play(h, "3 call", "1 call", "2 check")
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (2, 2)  # flop: small bet
    play(h, "1 check", "2 check", "3 check")
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (4, 4)  # turn: big bet
    with pytest.raises(IllegalAction):
        h.act(Action(1, K.BET, 3))


def test_r_straddle_1_2_first_player_may_straddle_to_two_big_blinds(mk, play):
    h = mk("holdem", NL, [100, 100, 100, 100])
    assert K.STRADDLE in h.legal_actions().kinds
    play(h, "3 straddle")
    assert h.bets[2] == 4 and h.cur_bet == 4
    la = h.legal_actions()
    assert la.seat == 4 and K.STRADDLE not in la.kinds and la.min_to == 6  # a raise of 2: next +2
    play(h, "4 call", "1 call", "2 call")
    assert h.street == 1  # no special option for the straddler (R-STRADDLE-2 reading)


def test_r_straddle_1_only_in_no_limit_and_only_first_actor(mk, play):
    assert K.STRADDLE not in mk("holdem", PL, [100] * 4).legal_actions().kinds
    assert K.STRADDLE not in mk("omaha", NL, [100] * 4).legal_actions().kinds
    h = mk("holdem", NL, [100] * 4)
    play(h, "3 call")
    assert K.STRADDLE not in h.legal_actions().kinds
    off = mk("holdem", NL, [100] * 4, settings=Settings(straddle=False))
    assert K.STRADDLE not in off.legal_actions().kinds


def test_r_straddle_1_offered_when_the_table_names_the_blinds(mk, play):
    """R-STRADDLE-1/-2: the first player to act pre-flop (left of the big blind) may straddle also in a hand whose
    blinds the table sets explicitly (here a returning player posts a live big blind out of position,
    R-MISSED-1) — and only that player."""
    h = mk("holdem", NL, [100] * 5, blinds={1: 1, 2: 2}, live_posts={4: 2})
    la = h.legal_actions()
    assert la.seat == 3 and K.STRADDLE in la.kinds
    play(h, "3 straddle")
    assert h.cur_bet == 4 and K.STRADDLE not in h.legal_actions().kinds
    skipped = mk("holdem", NL, [100] * 5, button=1, blinds={2: 1, 3: 2})
    la = skipped.legal_actions()
    assert la.seat == 4 and K.STRADDLE in la.kinds
    play(skipped, "4 call")
    assert K.STRADDLE not in skipped.legal_actions().kinds


def test_r_act_2_fold_is_always_allowed(mk, play):
    h = mk("holdem", NL, [100, 100, 100])
    play(h, "3 call", "1 call")
    assert K.FOLD in h.legal_actions().kinds  # even when checking is possible


def test_r_missed_2_3_dead_small_blind_goes_to_pot_not_to_the_bet(mk, play):
    h = mk("holdem", NL, [100, 100, 100, 100], dead_posts={4: 1}, live_posts={4: 2})
    assert h.bets[3] == 2 and h.total[3] == 3 and h.pot == 1 + 2 + 3
    play(h, "3 call")
    la = h.legal_actions()  # seat 4's live post equals the big blind: nothing to call, may check
    assert la.seat == 4 and K.CHECK in la.kinds


def test_r_pot_4_uncalled_bet_is_returned(mk, play):
    h = mk("holdem", NL, [100, 100, 100])
    play(h, "3 raise 40", "1 fold", "2 fold")
    assert h.is_over
    returned = [e for e in h.events if e.kind == "returned"]
    assert returned and returned[0].seat == 3 and returned[0].data["amount"] == 38
    assert h.result.stacks == {1: 99, 2: 98, 3: 103}


def test_bad_config_is_rejected_with_a_clear_error(mk):
    with pytest.raises(ValueError, match="needs 2 to 10 players"):
        mk("holdem", NL, [100])
    with pytest.raises(ValueError, match="not played"):
        mk("razz", NL, [100, 100])
    with pytest.raises(ValueError, match="positive integers"):
        mk("holdem", NL, [100, 0])
    with pytest.raises(ValueError, match="6 players"):
        mk("draw5", NL, [100] * 7)


def test_r_aai_1_artificial_all_in_for_the_chips_committed(mk, play, finish):
    st = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    h = mk("holdem", FL, [100, 100, 100], ["2c3d", "KsKh", "AsAh"], "Ac Kd 7h 8s 9c", stakes=st,
           settings=Settings(muck_losers=False))
    play(h, "3 call", "1 call", "2 raise 4", "3 call", "1 call")  # 4 each
    play(h, "1 bet 2", "2 call")
    h.artificial_allin(3)  # seat 3 disconnected with 4 in the pot: all-in for 4, keeps 96
    assert h.allin[2] and h.stacks[2] == 96
    finish(h)
    # seat 3 (aces) wins the main pot of 12 only; seats 1 and 2 contest the side pot (kings win it)
    assert h.result.stacks[3] == 96 + 12 and h.result.net[2] == -6 + 4 and h.result.net[1] == -6
    assert sum(h.result.stacks.values()) == 300


def test_r_aai_4_not_in_no_limit_and_not_without_money_in(mk, play):
    h = mk("holdem", NL, [100, 100, 100])
    before = h.view(3)
    with pytest.raises(IllegalAction, match="R-AAI-4"):
        h.artificial_allin(3)
    st = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    h2 = mk("holdem", FL, [100, 100, 100], stakes=st)
    with pytest.raises(IllegalAction, match="no money in the pot"):
        h2.artificial_allin(3)
    assert h.view(3) == before


def test_bad_input_kinds_and_discards_give_clear_errors_and_change_nothing(mk, play):
    h = mk("holdem", NL, [100, 100, 100])
    before = (h.view(3), len(h.events))
    with pytest.raises(IllegalAction, match="unknown action kind"):
        h.act(Action(3, "shove"))  # type: ignore[arg-type]
    h.act(Action(3, "call"))  # type: ignore[arg-type]  # a plain string naming a kind is accepted
    assert h.to_act == 1
    d = mk("draw5", FL, [100, 100], stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4),
           seats=[1, 2], button=2)
    play(d, "2 call", "1 check")
    before = (d.view(1), len(d.events))
    with pytest.raises(IllegalAction, match="card codes"):
        d.act(Action(1, K.DRAW, cards=("Ah",)))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="your hand"):
        d.act(Action(1, K.DRAW, cards=(99,)))
    assert (d.view(1), len(d.events)) == before


def test_r_limit_gen_2_two_short_all_in_raises_do_not_reopen_for_a_caller(mk, play):
    # PHH reading of fixed limit (the big blind is not a full bet): the short raises set the reopening threshold
    st = Stakes(small_blind=25, big_blind=50, small_bet=50, big_bet=100)
    h = mk(phh_game(get_game("holdem")), FL, [500, 98, 500, 118], stakes=st)
    play(h, "3 call", "4 call", "1 call", "2 raise 98")  # the big blind all-in: +48, less than a bet
    assert K.RAISE in h.legal_actions().kinds  # seat 3 called 50 before: 98 - 50 >= 48
    play(h, "3 call", "4 raise 118")  # all-in: +20
    play(h, "1 call")
    la = h.legal_actions()
    assert la.seat == 3 and K.RAISE not in la.kinds and la.call == 20  # +20 < 48 since seat 3 acted


def test_r_limit_gen_2_short_all_in_bet_below_minimum_reopens_for_checkers_only_once(mk, play):
    h = mk("holdem", NL, [500, 500, 500, 11, 500], seats=[1, 2, 3, 4, 5], button=5,
           stakes=Stakes(small_blind=1, big_blind=2, min_bet=10))
    play(h, "3 call", "4 call", "5 call", "1 call", "2 check")  # 2 each; seat 4 has 9 left
    play(h, "1 check", "2 check", "3 check", "4 bet 9")  # all-in bet of 9, less than the minimum bet 10
    la = h.legal_actions()
    assert la.seat == 5 and K.RAISE in la.kinds and la.min_to == 19  # 9 + a full bet of 10
    play(h, "5 call")
    la = h.legal_actions()  # seat 1 checked before the short bet: may raise (no full bet yet, reading)
    assert la.seat == 1 and K.RAISE in la.kinds
    play(h, "1 call", "2 call", "3 call")
    assert h.street == 2
