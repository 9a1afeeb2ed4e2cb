"""Issue #36 item 6: rules tested on the code the room runs. The no-flop-no-drop trigger (R-RAKE-2, R-STUD-11,
R-SOKO-9 and the Reading for Americana and Razz) is decided by the engine (``RakeContext.trigger_reached``, what
every table's rake rule reads), not by a table of triggers nothing calls; the showdown order with no bet in the last
round for draw games (R-DRAW5-7, R-TD27-5), Soko (R-SOKO-8) and Americana (R-AMER-8); and 2-7's low without a
qualifier (R-LOW-27-3 reading)."""

from __future__ import annotations

import importlib

import pytest

from riverboat.engine import Action, ActionKind, Hand, RakeContext, Settings
from riverboat.games import Stakes, Structure

FL = Structure.FIXED_LIMIT
K = ActionKind
STUD = Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
BLINDS = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
SHOW_ALL = Settings(muck_losers=False)
_PASSIVE = (K.CHECK, K.CALL, K.STAND_PAT, K.BRING_IN, K.RUN_ONCE)


def _fold_on_street(hand: Hand, street: int) -> None:
    """Everyone checks or calls until ``street`` (0 = the first betting round), where the players fold until one
    is left (the player to act first there bets or brings in, so that a fold is offered to the others)."""
    while not hand.is_over:
        la = hand.legal_actions()
        if hand.street >= street and K.FOLD in la.kinds:
            hand.act(Action(la.seat, K.FOLD))
        elif hand.street >= street and K.BET in la.kinds:
            hand.act(Action(la.seat, K.BET, la.min_to))
        else:
            hand.act(Action(la.seat, next(k for k in _PASSIVE if k in la.kinds)))


def _triggered(mk, game: str, street: int) -> tuple[bool, int]:
    seen: list[bool] = []

    def rake(pot: int, ctx: RakeContext) -> int:
        seen.append(ctx.trigger_reached)
        return 1 if ctx.trigger_reached else 0

    stakes = BLINDS if game in ("draw5", "triple_draw_27", "holdem") else STUD
    h = mk(game, FL, [100, 100, 100], stakes=stakes, rake=rake)
    _fold_on_street(h, street)
    assert h.result is not None and len(seen) == 1
    return seen[0], h.result.rake


@pytest.mark.parametrize(("game", "last_unraked", "first_raked"), [
    ("stud", 0, 1),       # R-STUD-11: the fourth card (street 1) must be dealt
    ("razz", 0, 1),       # R-RAKE-2 Reading: Razz follows 7 Card Stud
    ("soko", 0, 1),       # R-SOKO-9: the third card (street 1) must be dealt
    ("americana", 0, 1),  # R-RAKE-2 Reading: Americana follows Soko
    ("draw5", 0, 1),      # R-RAKE-2: a draw took place
    ("holdem", 0, 1),     # R-RAKE-2: a flop was dealt
])
def test_r_rake_2_no_drop_trigger_is_the_engines(mk, game: str, last_unraked: int, first_raked: int) -> None:
    """R-RAKE-2 / R-STUD-11 / R-SOKO-9 through the engine: a hand that ends before the game's trigger card (or
    draw) is not raked, one that ends right after it is."""
    assert _triggered(mk, game, last_unraked) == (False, 0)
    assert _triggered(mk, game, first_raked) == (True, 1)


def test_r_rake_2_no_table_of_triggers_that_nothing_calls() -> None:
    """Issue #36 item 6: the room's rake module no longer carries a trigger table of its own (the engine decides,
    above); a second copy would be a rule only tests reach."""
    rake = importlib.import_module("riverboat.room.rake")
    assert "trigger_for_game" not in vars(rake) and "RakeTrigger" not in vars(rake)


@pytest.mark.parametrize("game", ["draw5", "triple_draw_27"])
def test_r_draw5_7_r_td27_5_no_bet_first_active_left_of_dealer_shows_first(mk, finish, game: str) -> None:
    """R-DRAW5-7, R-TD27-5: nobody bet in the last round: the first active player left of the dealer (seat 3 has
    the button: seat 1) shows first, then clockwise."""
    h = mk(game, FL, [100, 100, 100], stakes=BLINDS, settings=SHOW_ALL)
    finish(h)
    assert [e.seat for e in h.events if e.kind == "showed"] == [1, 2, 3]


def test_r_soko_8_no_bet_best_visible_hand_shows_first(mk, finish) -> None:
    """R-SOKO-8: no bet in the last round: the active player with the best visible hand (seat 3: a pair of fours
    showing, the others no pair) shows first."""
    h = mk("soko", FL, [100, 100, 100], ["2c 9h", "3d 9s", "5s 4h"], "Tc Td 4d  Jh Js 8d  Kc Kd Qc",
           stakes=STUD, settings=SHOW_ALL)
    finish(h)
    assert [e.seat for e in h.events if e.kind == "showed"][0] == 3


def test_r_amer_8_no_bet_best_visible_hand_shows_first(mk, finish) -> None:
    """R-AMER-8 (32-card deck): no bet on fifth street: the player with the best visible hand (seat 2: a pair of
    eights showing) shows first."""
    h = mk("americana", FL, [100, 100, 100], ["7c 9h", "7d 8s", "7s Th"], "Tc 8d Jd  Jh Qs Kd  As Qc 9d",
           stakes=STUD, settings=SHOW_ALL)
    finish(h)
    assert [e.seat for e in h.events if e.kind == "showed"][0] == 2


def test_r_low_27_3_no_qualifier_a_king_low_takes_the_whole_pot(mk, finish) -> None:
    """R-LOW-27-3 reading: 2-7 has no qualifying low: a king-high no-pair hand beats a pair of deuces and takes the
    whole pot (an 8-or-better qualifier would have left it without a low)."""
    h = mk("triple_draw_27", FL, [100, 100], ["KsQdJc9h8s", "2c2d5h7s9c"], stakes=BLINDS, settings=SHOW_ALL,
           seats=[1, 2], button=2)
    finish(h)
    assert h.result is not None
    assert h.result.stacks[1] > 100 and h.result.stacks[2] < 100
    assert all(set(p.winners) == {1} for p in h.result.pots)
