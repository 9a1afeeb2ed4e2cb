"""Showdown order by game (R-SHOW-2, R-STUD-9, R-DRAW32-8), odd-chip readings for Soko (R-ODD-3), the bring-in
option (R-BRINGIN-2), a new player's live post (R-NEWPLAYER-1) and the JSON view."""

from __future__ import annotations

import json

from riverboat.engine import ActionKind, Settings
from riverboat.games import OddChip, Stakes, Structure

FL = Structure.FIXED_LIMIT
K = ActionKind
STUD = Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
SHOW_ALL = Settings(muck_losers=False)


def test_r_stud_9_no_bet_on_seventh_best_visible_hand_shows_first(mk, finish):
    # seat 2 shows a pair of kings on the board cards; the dealer box is seat 3
    h = mk("stud", FL, [100, 100, 100], ["2c3c 9d", "4c5c Kd", "6c7c Qd"],
           "Td Kh Jd  8h 2h 3h  9s 4s 5s  Ah Ac As", stakes=STUD, settings=SHOW_ALL)
    finish(h)
    order = [e.seat for e in h.events if e.kind == "showed"]
    assert order[0] == 2 and order == [2, 3, 1]


def test_r_draw32_8_no_bet_next_player_after_big_blind_shows_first(mk, finish):
    h = mk("draw32", FL, [100, 100, 100], stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4),
           settings=SHOW_ALL)
    finish(h)
    assert [e.seat for e in h.events if e.kind == "showed"] == [3, 1, 2]


def _soko_tie(mk, odd):
    # seats 1 and 2 both hold K-J-T-9-2 (no 4-flush, no 4-straight); seat 3 has Q high. Pot 9: antes 3, bring-in
    # 2 and two calls. On the last round seat 2 bets and both others call, so seat 2 shows first.
    h = mk("soko", FL, [100, 100, 100], ["2c 9h", "2d 9s", "3s 4h"], "Tc Td 6h Jh Js 8d Kc Kd Qc",
           stakes=Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8), settings=Settings(muck_losers=False,
                                                                                       odd_chip=odd))
    from riverboat.engine import Action

    while not h.is_over:
        la = h.legal_actions()
        if h.street == 3 and la.seat == 2 and K.BET in la.kinds:
            h.act(Action(2, K.BET, la.min_to))
        else:
            kind = next(k for k in (K.CHECK, K.CALL, K.BRING_IN) if k in la.kinds)
            h.act(Action(la.seat, kind))
    return h


def test_r_odd_3_soko_odd_chip_default_first_dealt_and_shown_first_reading(mk):
    default = _soko_tie(mk, None)
    assert [e.seat for e in default.events if e.kind == "showed"][0] == 2
    pot = default.result.pots[-1]
    assert set(pot.winners) == {1, 2} and pot.winners[1] == pot.winners[2] + 1  # dealt first: seat 1
    shown = _soko_tie(mk, OddChip.SHOWN_FIRST)
    pot = shown.result.pots[-1]
    assert pot.winners[2] == pot.winners[1] + 1  # R-ODD-3 (002 general rules): shown first, seat 2


def test_r_bringin_2_bring_in_player_may_complete_instead(mk, play):
    h = mk("stud", FL, [100, 100, 100], ["AsAh Kd", "QsQh 2d", "JsJh 2c"], stakes=STUD)
    play(h, "3 complete 4")
    la = h.legal_actions()
    assert la.seat == 1 and la.call == 4 and la.min_to == la.max_to == 8


def test_r_newplayer_1_live_post_of_a_big_blind_out_of_position(mk, play):
    h = mk("holdem", Structure.NO_LIMIT, [100] * 5, live_posts={4: 2})
    assert h.bets == [1, 2, 0, 2, 0] and h.to_act == 3  # the order of action does not change
    play(h, "3 call", "4 check")  # a live post is a live bet: the poster may check


def test_view_is_json_and_hides_others_hole_cards(mk, play):
    h = mk("holdem", Structure.NO_LIMIT, [100, 100, 100], ["AsAh", "KsKh", "QsQh"])
    v = h.view(3)
    json.dumps(v)
    cards = {p["seat"]: p["cards"] for p in v["players"]}
    assert cards == {1: ["??", "??"], 2: ["??", "??"], 3: ["Qs", "Qh"]}
    assert v["legal"]["kinds"] == ["call", "fold", "raise", "straddle"] and v["to_act"] == 3
    assert "legal" not in h.view(1) and all(c == "??" for p in h.view(None)["players"] for c in p["cards"])


def test_r_show_4_an_all_in_run_out_shows_every_hand_a_river_showdown_mucks_the_loser(mk, play):
    """R-SHOW-4 reading (issue #14): when betting is over with a player all-in and cards are still to come, the
    hands are tabled before the run-out, so the caller who loses is shown too; a loser who need not show after a
    river showdown (no all-in) still mucks."""
    no_limit = Structure.NO_LIMIT
    # seat 1 is the button: seat 2 (all-in) is first to show after the run-out, the caller (seat 1) loses
    allin = mk("holdem", no_limit, [200, 50], ["AhAd", "7c2d"], "Ks Qs 3h 8d 9c", button=1)
    play(allin, "1 call", "2 raise 50", "1 call")
    assert allin.is_over
    assert sorted(e.seat for e in allin.events if e.kind == "showed") == [1, 2]
    assert [e for e in allin.events if e.kind == "mucked"] == []
    deep = mk("holdem", no_limit, [200, 200], ["AhAd", "7c2d"], "Ks Qs 3h 8d 9c", button=1)
    play(deep, "1 call", "2 check", "2 check", "1 check", "2 check", "1 check", "2 bet 10", "1 call")
    assert deep.is_over
    assert [e.seat for e in deep.events if e.kind == "showed"] == [2]
    assert [e.seat for e in deep.events if e.kind == "mucked"] == [1]
