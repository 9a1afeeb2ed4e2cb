"""CONFLICT readings that are settings (RULES.md section 27.1): each reading can be chosen and behaves as written."""

from __future__ import annotations

from riverboat.engine import Settings
from riverboat.games import PostDrawFirst, Stakes, Structure, get_game

FL, NL = Structure.FIXED_LIMIT, Structure.NO_LIMIT
BLINDS = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)


def test_c2_r_draw32_6_post_draw_first_actor_both_readings(mk, play):
    default = mk("draw32", FL, [100, 100, 100], stakes=BLINDS)
    play(default, "3 call", "1 call", "2 check", "3 stand_pat", "1 stand_pat", "2 stand_pat")
    assert default.to_act == 3  # default: first active player after the big blind
    other = mk(get_game("draw32").with_settings(post_draw_first=PostDrawFirst.LEFT_OF_BUTTON), FL,
               [100, 100, 100], stakes=BLINDS)
    play(other, "3 call", "1 call", "2 check", "1 stand_pat", "2 stand_pat", "3 stand_pat")
    assert other.to_act == 1  # as in the other draw games: left of the dealer


def test_c5_r_missed_2_both_readings_of_missed_blinds(mk, play):
    # 002 reading: only the small blind amount, dead; the player then acts like anyone else
    a = mk("holdem", NL, [100] * 4, dead_posts={4: 1})
    assert a.bets[3] == 0 and a.pot == 4
    play(a, "3 call")
    assert a.to_act == 4 and a.legal_actions().call == 2
    # default (004): big blind live plus small blind dead
    b = mk("holdem", NL, [100] * 4, dead_posts={4: 1}, live_posts={4: 2})
    assert b.bets[3] == 2 and b.pot == 6


def test_u13_r_insuf_4_no_betting_after_a_community_seventh_card_is_a_flag(mk, finish):
    st = Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
    bet = mk("stud", FL, [500] * 8, stakes=st, settings=Settings(muck_losers=False))
    finish(bet)
    literal = mk("stud", FL, [500] * 8, stakes=st, settings=Settings(muck_losers=False,
                                                                      stud_community_betting=False))
    finish(literal)
    streets = [sum(1 for e in h.events if e.kind == "acted" and e.data["action"] != "bring_in") for h in (bet, literal)]
    assert len(literal.board) == len(bet.board) == 1
    assert streets[1] == streets[0] - 8  # the eight last-round checks are gone
