"""Button and blind planning as pure functions (R-TABLE-3, R-BLIND-1, R-BLIND-3, R-NEWPLAYER-1, R-MISSED-1..3)."""

from __future__ import annotations

from riverboat.room.blinds import SeatStatus, missed_blinds, plan_blinds
from riverboat.room.settings import MissedBlindPolicy


def ready(*seats: int, **flags: SeatStatus) -> dict[int, SeatStatus]:
    out = {s: SeatStatus(s, True) for s in seats}
    for _name, st in flags.items():
        out[st.seat] = st
    return out


def test_r_blind_1_sb_left_of_button_then_bb() -> None:
    plan = plan_blinds(ready(0, 2, 4), max_seats=6, prev_button=0, small_blind=1, big_blind=2)
    assert plan is not None
    assert (plan.button, plan.small_blind, plan.big_blind) == (2, 4, 0)
    assert plan.dealt == (4, 0, 2)


def test_r_table_3_button_moves_clockwise_to_next_active_player() -> None:
    statuses = ready(1, 3, 5)
    buttons = []
    prev = None
    for _ in range(4):
        plan = plan_blinds(statuses, max_seats=6, prev_button=prev, small_blind=1, big_blind=2)
        assert plan is not None
        buttons.append(plan.button)
        prev = plan.button
    assert buttons == [1, 3, 5, 1]


def test_r_table_3_button_skips_sitting_out_seat() -> None:
    statuses = ready(0, 1, 2)
    statuses[1] = SeatStatus(1, ready=False)
    plan = plan_blinds(statuses, max_seats=6, prev_button=0, small_blind=1, big_blind=2)
    assert plan is not None and plan.button == 2 and plan.heads_up


def test_r_blind_3_heads_up_button_posts_small_blind() -> None:
    plan = plan_blinds(ready(2, 5), max_seats=6, prev_button=2, small_blind=1, big_blind=2)
    assert plan is not None
    assert plan.heads_up and plan.button == 5 and plan.small_blind == 5 and plan.big_blind == 2


def test_r_cash_2_no_hand_with_fewer_than_two_ready() -> None:
    statuses = ready(0)
    statuses[3] = SeatStatus(3, ready=False)
    assert plan_blinds(statuses, max_seats=6, prev_button=None, small_blind=1, big_blind=2) is None


def test_r_newplayer_1_waiting_player_is_skipped_until_big_blind_reaches_them() -> None:
    # seats 0,1,2 play; new player at 4 waits. Button 0 -> SB 1, BB 2: seat 4 not dealt in.
    statuses = ready(0, 1, 2)
    statuses[4] = SeatStatus(4, True, owes_bb=True)
    plan = plan_blinds(statuses, max_seats=6, prev_button=5, small_blind=1, big_blind=2)
    assert plan is not None and plan.button == 0 and plan.big_blind == 2 and 4 not in plan.dealt
    # next hand: button 1, SB 2, BB reaches seat 4 -> dealt in, posting the big blind as the blind
    plan2 = plan_blinds(statuses, max_seats=6, prev_button=plan.button, small_blind=1, big_blind=2)
    assert plan2 is not None and plan2.big_blind == 4 and 4 in plan2.dealt
    assert plan2.live_posts == {} and plan2.dead_posts == {}


def test_r_newplayer_1_post_now_posts_one_live_big_blind_out_of_position() -> None:
    statuses = ready(0, 1, 2)
    statuses[4] = SeatStatus(4, True, owes_bb=True, post_now=True)
    plan = plan_blinds(statuses, max_seats=6, prev_button=5, small_blind=1, big_blind=2)
    assert plan is not None and 4 in plan.dealt
    assert plan.live_posts == {4: 2} and plan.dead_posts == {}


def test_r_missed_2_default_missed_both_posts_bb_live_plus_sb_dead() -> None:
    statuses = ready(0, 1, 2)
    statuses[4] = SeatStatus(4, True, owes_bb=True, missed_sb=True, post_now=True)
    plan = plan_blinds(statuses, max_seats=6, prev_button=5, small_blind=1, big_blind=2)
    assert plan is not None and plan.live_posts == {4: 2} and plan.dead_posts == {4: 1}


def test_r_missed_2_conflict_reading_002_posts_small_blind_dead_only() -> None:
    statuses = ready(0, 1, 2)
    statuses[4] = SeatStatus(4, True, owes_bb=True, missed_sb=True, post_now=True)
    plan = plan_blinds(
        statuses, max_seats=6, prev_button=5, small_blind=1, big_blind=2, policy=MissedBlindPolicy.SB_DEAD_ONLY
    )
    assert plan is not None and plan.live_posts == {} and plan.dead_posts == {4: 1}


def test_r_missed_1_missed_only_big_blind_posts_live_big_blind() -> None:
    statuses = ready(0, 1, 2)
    statuses[4] = SeatStatus(4, True, owes_bb=True, post_now=True)
    for policy in MissedBlindPolicy:
        plan = plan_blinds(statuses, max_seats=6, prev_button=5, small_blind=1, big_blind=2, policy=policy)
        assert plan is not None and plan.live_posts == {4: 2} and plan.dead_posts == {}


def test_r_sitout_5_blinds_passing_a_sitting_out_seat_are_missed() -> None:
    statuses = ready(0, 1, 2, 3)
    prev = plan_blinds(statuses, max_seats=6, prev_button=5, small_blind=1, big_blind=2)
    assert prev is not None and (prev.small_blind, prev.big_blind) == (1, 2)
    statuses[3] = SeatStatus(3, ready=False)  # seat 3 sits out; BB would have been theirs
    plan = plan_blinds(statuses, max_seats=6, prev_button=prev.button, small_blind=1, big_blind=2)
    assert plan is not None and plan.big_blind == 0 and plan.small_blind == 2
    assert missed_blinds([3], prev=prev, plan=plan, max_seats=6) == {3: (True, False)}
    plan3 = plan_blinds(statuses, max_seats=6, prev_button=plan.button, small_blind=1, big_blind=2)
    assert plan3 is not None and plan3.small_blind == 0
    assert missed_blinds([3], prev=plan, plan=plan3, max_seats=6) == {3: (False, True)}


def test_r_cash_2_table_start_deals_everyone_in_free() -> None:
    statuses = {s: SeatStatus(s, True, owes_bb=True) for s in (1, 4)}
    plan = plan_blinds(statuses, max_seats=6, prev_button=None, small_blind=1, big_blind=2)
    assert plan is not None and plan.free_start and set(plan.dealt) == {1, 4}
    assert plan.live_posts == {} and plan.heads_up
