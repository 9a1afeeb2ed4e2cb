"""The engine shows hands down with each game's card use and ranking: Omaha's exactly two hole cards (R-OMAHA-3),
Six Plus against the PHH short deck (R-RANK-6P-2), hi/lo scoops (R-LOW-8B-4)."""

from __future__ import annotations

from riverboat.engine import Settings
from riverboat.games import Structure

NL, PL = Structure.NO_LIMIT, Structure.POT_LIMIT
SHOW_ALL = Settings(muck_losers=False)


def test_r_omaha_3_exactly_two_hole_cards_no_one_card_flush(mk, finish):
    board = "Ah Kh 7h 2h 3c"
    h = mk("omaha", PL, [100, 100], ["Qh Js Tc 9d", "8c 8d 4s 5s"], board, seats=[1, 2], button=2,
           settings=SHOW_ALL)
    finish(h)
    assert h.result.net[2] > 0  # the wheel (4s 5s + A 2 3) beats a hand that would be a flush in Hold'em
    holdem = mk("holdem", NL, [100, 100], ["Qh Js", "4s 5s"], board, seats=[1, 2], button=2, settings=SHOW_ALL)
    finish(holdem)
    assert holdem.result.net[1] > 0  # in Hold'em one heart makes the flush


def test_r_rank_6p_2_six_plus_trips_beat_a_straight_phh_short_deck_the_reverse(mk, finish):
    board = "6c 7d 8h Kc As"
    six = mk("six_plus", NL, [100, 100], ["9s Ts", "Kh Kd"], board, seats=[1, 2], button=2, settings=SHOW_ALL)
    finish(six)
    assert six.result.net[2] > 0 and "Three" in six.result.labels[2]
    phh = mk("short_deck_phh", NL, [100, 100], ["9s Ts", "Kh Kd"], board, seats=[1, 2], button=2,
             settings=SHOW_ALL)
    finish(phh)
    assert phh.result.net[1] > 0 and "Straight" in phh.result.labels[1]


def test_r_low_8b_4_one_player_scoops_high_and_low(mk, finish):
    h = mk("omaha_hl", PL, [100, 100], ["As 5s Kd 9c", "Qs Qh 8c 7c"], "2c 3d 4h Kc Ks", seats=[1, 2],
           button=2, settings=SHOW_ALL)
    finish(h)
    shares = {p.share: p.winners for p in h.result.pots}
    assert shares == {"high": {1: 2}, "low": {1: 2}} and h.result.stacks == {1: 102, 2: 98}


def test_r_omaha_hl_5_tied_lows_share_the_low_half(mk, finish):
    # both make 5-4-3-2-A low with; seat 1 has the better high (a flush)
    h = mk("omaha_hl", PL, [100, 100], ["Ah 5h Qh Jd", "As 5d 9c 9s"], "2h 3h 4c Kh Td", seats=[1, 2],
           button=2, dead_posts={1: 4}, settings=SHOW_ALL)  # pot 8: high 4, low 4 split 2/2
    finish(h)
    shares = {p.share: p.winners for p in h.result.pots}
    assert shares["high"] == {1: 4} and shares["low"] == {1: 2, 2: 2}
