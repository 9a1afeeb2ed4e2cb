"""Pots, showdown, odd chips, run it twice, split agreement, rake (R-ALLIN, R-POT, R-ODD, R-SHOW, R-RIT, R-SPLIT)."""

from __future__ import annotations

from riverboat.engine import ActionKind, RakeContext, Settings
from riverboat.games import OddChip, Stakes, Structure

NL, PL, FL = Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT
K = ActionKind
SHOW_ALL = Settings(muck_losers=False)


def test_r_allin_4_5_side_pots_each_won_separately(mk, play):
    h = mk("holdem", NL, [50, 100, 200], ["AsAh", "KsKh", "QsQh"], "2c 7d 9h Jc 3s")
    play(h, "3 raise 200", "1 call", "2 call")
    assert h.is_over
    assert h.result.stacks == {1: 150, 2: 100, 3: 100}  # main 150 to AA, side 100 to KK, 100 returned to QQ
    pots = [(p.amount, sorted(p.eligible), p.winners) for p in h.result.pots]
    assert pots == [(150, [1, 2, 3], {1: 150}), (100, [2, 3], {2: 100})]
    assert sum(h.result.stacks.values()) == 350


def test_r_allin_2_short_all_in_winner_takes_only_matched_amounts(mk, play):
    h = mk("holdem", NL, [20, 100, 100], ["AsAh", "KsKh", "QsQh"], "2c 7d 9h Jc 3s")
    play(h, "3 raise 100", "1 call", "2 call")
    assert h.result.stacks == {1: 60, 2: 160, 3: 0}


def _split_board_hand(mk, odd: OddChip | None):
    # everyone plays the board straight; pot = antes 3 + dead 2 + 3 x 2 = 11 split three ways
    return mk("holdem", NL, [100, 100, 100], ["2c2d", "2h2s", "3c3d"], "5c 6d 7h 8s 9c",
              stakes=Stakes(small_blind=1, big_blind=2, ante=1), dead_posts={3: 2},
              settings=Settings(odd_chip=odd, muck_losers=False))


def test_r_odd_1_default_remainder_one_at_a_time_from_left_of_button(mk, play, finish):
    h = _split_board_hand(mk, None)
    play(h, "3 call", "1 call", "2 check")
    finish(h)
    won = h.result.pots[0].winners
    assert h.result.pots[0].amount == 11 and won == {1: 4, 2: 4, 3: 3}


def test_r_odd_1_conflict_reading_whole_remainder_to_first_left_of_dealer(mk, play, finish):
    h = _split_board_hand(mk, OddChip.LEFT_OF_BUTTON_ALL)
    play(h, "3 call", "1 call", "2 check")
    finish(h)
    assert h.result.pots[0].winners == {1: 5, 2: 3, 3: 3}


def _hilo(mk, board: str):
    # seat 2 is the button (small blind); seat 1 holds quad kings, seat 2 the A-3 low
    return mk("omaha_hl", PL, [100, 100], ["KhKcQcQd", "As3c9s9d"], board, seats=[1, 2], button=2,
              dead_posts={1: 1}, settings=SHOW_ALL)


def test_r_odd_2_hi_lo_odd_chip_goes_to_the_high_hand(mk, finish):
    h = _hilo(mk, "2c 5d 7h Kd Ks")
    finish(h)
    shares = {p.share: p.winners for p in h.result.pots}
    assert shares == {"high": {1: 3}, "low": {2: 2}}  # pot 5: high 3, low 2


def test_r_low_8b_5_no_qualifying_low_high_takes_all(mk, finish):
    h = _hilo(mk, "Kd Ks 9h Tc Jd")
    finish(h)
    assert [(p.share, p.winners) for p in h.result.pots] == [("all", {1: 5})]


def test_r_show_1_last_aggressor_shows_first(mk, play):
    h = mk("holdem", NL, [100, 100, 100], ["2c3d", "4h5s", "7c8d"], "Ac Kd Qh Js 9c", settings=SHOW_ALL)
    play(h, "3 call", "1 call", "2 check")
    play(h, "1 check", "2 check", "3 check", "1 check", "2 check", "3 check")
    play(h, "1 check", "2 bet 10", "3 call", "1 call")
    assert [e.seat for e in h.events if e.kind == "showed"] == [2, 3, 1]


def test_r_show_2_no_bet_first_active_left_of_dealer(mk, play, finish):
    h = mk("holdem", NL, [100, 100, 100], ["2c3d", "4h5s", "7c8d"], "Ac Kd Qh Js 9c", settings=SHOW_ALL)
    finish(h)
    assert [e.seat for e in h.events if e.kind == "showed"] == [1, 2, 3]


def test_r_show_4_losing_hand_mucked_and_kept_secret(mk, finish):
    h = mk("holdem", NL, [100, 100, 100], ["AcAd", "2h3s", "7c8d"], "Ks Kd Qh Js 4c")
    finish(h)
    assert [e.seat for e in h.events if e.kind == "showed"] == [1]
    assert {e.seat for e in h.events if e.kind == "mucked"} == {2, 3}
    assert h.view(1)["players"][1]["cards"] == ["??", "??"]


def test_r_rit_2_r_missed_3_run_it_twice_splits_each_pot_odd_chip_to_first_run(mk, play):
    h = mk("holdem", NL, [101, 100], ["AsAh", "KsKh"], "2c 7d 9h 3c 4d Kd 5s", seats=[1, 2], button=2,
           dead_posts={1: 1})  # dead money makes the pot odd: 201
    play(h, "2 call", "1 check", "1 bet 98", "2 call")
    assert h.legal_actions().kinds == {K.RUN_TWICE, K.RUN_ONCE}
    play(h, "1 run_twice", "2 run_twice")
    assert h.is_over and [b[3:] for b in h.view()["boards"]] == [["3c", "4d"], ["Kd", "5s"]]
    assert {(p.run, tuple(p.winners.items())) for p in h.result.pots} == {(0, ((1, 101),)), (1, ((2, 100),))}
    assert h.result.stacks == {1: 101, 2: 100}


def test_r_rit_2_any_refusal_runs_once(mk, play):
    h = mk("holdem", NL, [100, 100], ["AsAh", "KsKh"], "2c 7d 9h 3c 4d", seats=[1, 2], button=2)
    play(h, "2 call", "1 check", "1 bet 98", "2 call", "1 run_twice", "2 run_once")
    assert h.is_over and h.view()["boards"] == [] and len(h.board) == 5
    assert h.result.stacks == {1: 200, 2: 0}


def test_r_rit_2_not_offered_all_in_preflop(mk, play):
    h = mk("holdem", NL, [100, 100], ["AsAh", "KsKh"], "2c 7d 9h 3c 4d", seats=[1, 2], button=2)
    play(h, "2 raise 100", "1 call")
    assert h.is_over


def test_r_split_3_everyone_agrees_pot_divided_equally(mk, play):
    h = mk("draw32", FL, [100, 100, 100], stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4))
    assert K.AGREE_SPLIT in h.legal_actions().kinds and h.to_act == 3
    play(h, "3 agree_split")
    assert K.AGREE_SPLIT in h.legal_actions().kinds and h.to_act == 1  # R-SPLIT-2: the next player sees it
    play(h, "1 agree_split", "2 agree_split")
    assert h.is_over and h.result.pots[0].share == "split"
    # the big blind's uncalled chip goes back first (R-POT-4); the 2 left are split, remainder from the left
    # of the button (R-ODD-1): seats 1 and 2 get one chip each
    assert h.result.pots[0].amount == 2 and h.result.stacks == {1: 100, 2: 100, 3: 100}


def test_r_split_2_another_action_withdraws_the_offer(mk, play):
    h = mk("draw32", FL, [100, 100, 100], stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4))
    play(h, "3 agree_split", "1 call")
    assert K.AGREE_SPLIT not in h.legal_actions().kinds


def test_r_split_4_refusal_affects_only_the_pots_of_the_refuser(mk, play):
    # button seat 1 (all-in short stack) holds quad aces; seats 2 and 3 agree, seat 1 refuses
    h = mk("draw32", NL, [100, 100, 10], ["KsKhQdJc9s", "QsQhJdTc8s", "AsAhAdAc7c"], seats=[2, 3, 1], button=1)
    play(h, "1 raise 10", "2 call", "3 call")
    play(h, "1 stand_pat", "2 stand_pat", "3 stand_pat")
    play(h, "2 agree_split", "3 agree_split")
    assert h.legal_actions().kinds == {K.AGREE_SPLIT, K.DECLINE_SPLIT} and h.to_act == 1
    play(h, "1 decline_split", "2 bet 20", "3 call")
    assert h.is_over
    assert h.result.stacks == {1: 30, 2: 90, 3: 90}
    assert {p.share for p in h.result.pots} == {"all", "split"}


def test_rake_is_a_pluggable_function_of_the_caller(mk, finish):
    seen: list[tuple[int, RakeContext]] = []

    def rake(pot: int, ctx: RakeContext) -> int:
        seen.append((pot, ctx))
        return pot // 10 if ctx.trigger_reached else 0

    h = mk("holdem", NL, [100, 100, 100], ["AsAh", "KsKh", "QsQh"], "2c 7d 9h Jc 3s", rake=rake)
    finish(h)
    assert seen[0][0] == 6 and seen[0][1].trigger_reached and h.result.rake == 0  # 6 // 10
    h2 = mk("holdem", NL, [100, 100, 100], ["AsAh", "KsKh", "QsQh"], "2c 7d 9h Jc 3s", rake=lambda p, c: 5)
    finish(h2)
    assert h2.result.rake == 5 and sum(h2.result.stacks.values()) == 295
