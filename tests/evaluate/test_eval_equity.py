"""Equity: exact enumeration (checked against PokerKit hand comparisons, board by board), Monte Carlo within a
tolerance derived from its standard error, Hi/Lo pot halves (R-LOW-8B-5, R-OMAHA-HL-2/-3/-5), Omaha card use
(R-OMAHA-3), dead cards and bad input."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pokerkit as pk
import pytest

from riverboat.cards import Card, parse_cards
from riverboat.evaluate import HandError
from riverboat.evaluate.equity import Game, combinations_index, equity


def text(cards: list[int]) -> str:
    return "".join(str(Card(c)) for c in cards)


def pokerkit_shares(game: Game, holes: list[list[int]], board: list[int]) -> list[float]:
    """Pot shares on one complete board, decided by PokerKit's hand classes."""
    if game is Game.HOLDEM:
        hi = [pk.StandardHighHand.from_game(text(h), text(board)) for h in holes]
    else:
        hi = [pk.OmahaHoldemHand.from_game(text(h), text(board)) for h in holes]

    def split(hands: list[pk.Hand | None]) -> list[float]:
        made = [h for h in hands if h is not None]
        if not made:
            return [0.0] * len(hands)
        best = max(made)
        winners = [h is not None and not h < best for h in hands]
        return [w / sum(winners) for w in winners]

    high = split(list(hi))
    if game is not Game.OMAHA_HL:
        return high
    lows: list[pk.Hand | None] = []
    for h in holes:
        try:
            lows.append(pk.OmahaEightOrBetterLowHand.from_game(text(h), text(board)))
        except ValueError:
            lows.append(None)
    if all(x is None for x in lows):
        return high
    low = split(lows)
    return [0.5 * a + 0.5 * b for a, b in zip(high, low, strict=True)]


def pokerkit_equity(game: Game, hands: list[str], board: str) -> list[float]:
    holes = [[int(c) for c in parse_cards(h)] for h in hands]
    known = [int(c) for c in parse_cards(board)]
    used = {c for h in holes for c in h} | set(known)
    rem = [c for c in range(52) if c not in used]
    totals = [0.0] * len(holes)
    n = 0
    for extra in itertools.combinations(rem, 5 - len(known)):
        for i, s in enumerate(pokerkit_shares(game, holes, known + list(extra))):
            totals[i] += s
        n += 1
    return [t / n for t in totals]


def test_exact_preflop_ahkh_vs_qsqd() -> None:
    r = equity(["AhKh", "QsQd"])
    assert r.exact and r.boards == comb(48, 5) == 1_712_304
    assert r.players[0].equity == pytest.approx(0.462145, abs=5e-7)
    assert r.players[0].equity + r.players[1].equity == pytest.approx(1.0)
    assert r.players[0].tie == r.players[1].tie > 0
    assert r.players[0].win + r.players[1].win + r.players[0].tie == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        (Game.HOLDEM, ["AhKh", "QsQd"], "Qh7h2d"),
        (Game.HOLDEM, ["8c8d", "AsKc", "Th9h"], "7h6h2sKd"),
        (Game.HOLDEM, ["AhKh", "QsQd", "9h8c"], "Qh7h2d3h"),
        (Game.HOLDEM, ["AhKh", "QsQd", "9h8h"], "Qh7h2d3h5c"),
        (Game.OMAHA, ["AhKhQd2c", "JsTs9h8h"], "Qh7c2d5s"),
        (Game.OMAHA_HL, ["Ah2hQd3c", "As4s9h8h"], "Kh7c5d9c"),
        (Game.OMAHA_HL, ["Ah2hQd3c", "As4s9h8h", "KcKd6h6s"], "Th7c5d3s"),
        (Game.OMAHA_HL, ["AhKhQdJc", "9s9c8h8d"], "Ks7c5dQs"),
    ],
)
def test_exact_equity_matches_pokerkit_board_by_board(game: Game, hands: list[str], board: str) -> None:
    ours = equity(hands, board, game=game)
    assert ours.exact
    expected = pokerkit_equity(game, hands, board)
    assert [p.equity for p in ours.players] == pytest.approx(expected, abs=1e-12)
    assert sum(p.equity for p in ours.players) == pytest.approx(1.0)


def test_monte_carlo_within_standard_error_of_exact() -> None:
    exact = equity(["AhKh", "QsQd"]).players[0].equity
    mc = equity(["AhKh", "QsQd"], exact=False, trials=200_000, seed=11)
    assert not mc.exact and mc.boards == 200_000
    p = mc.players[0]
    assert 0 < p.std_error < 0.002
    assert abs(p.equity - exact) < 5 * p.std_error  # a 5-sigma band: fails about once in 1.7 million runs


def test_monte_carlo_is_reproducible_with_a_seed_and_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    a = equity(
        ["AhKhQd2c", "JsTs9h8h"],
        game="omaha",
        trials=60_000,
        seed=5,
        exact=False,
        progress=lambda d, t: seen.append((d, t)),
    )
    b = equity(
        ["AhKhQd2c", "JsTs9h8h"], game="omaha", trials=60_000, rng=np.random.default_rng(5), exact=False
    )
    assert a.players == b.players
    assert seen[-1] == (60_000, 60_000) and len(seen) == 2


def test_omaha_preflop_defaults_to_monte_carlo() -> None:
    r = equity(["AhKhQd2c", "JsTs9h8h"], game="omaha", trials=20_000, seed=1)
    assert not r.exact and r.boards == 20_000


def test_dead_cards_are_removed_from_the_deck() -> None:
    r = equity(["AhKh", "QsQd"], board="Qh7h2d", dead="3h 4h 5c")
    assert r.boards == comb(52 - 4 - 3 - 3, 2)
    live = equity(["AhKh", "QsQd"], board="Qh7h2d")
    assert r.players[0].equity < live.players[0].equity  # two of AhKh's flush outs are dead


def test_r_low_8b_5_no_low_means_high_takes_all() -> None:
    r = equity(["AhKhQdJc", "9s9c8h8d"], board="KsQc9dTsJd", game="omaha-hl")
    assert r.boards == 1
    assert r.players[0].equity == 1.0 and r.players[0].win == 1.0


def test_r_omaha_hl_4_one_player_can_scoop_and_halves_split() -> None:
    scoop = equity(["Ah2h3d4c", "KsKcQhQd"], board="5h6h7h9sTd", game="omaha-hl")
    assert scoop.players[0].equity == 1.0  # A-2 plays 7-6-5 low and 2h-Ah... high flush with two hearts
    shared = equity(["Ah2hKdKc", "As2sQhQd"], board="3c4c8dJsTh", game="omaha-hl")
    assert shared.players[0].equity == pytest.approx(0.75)  # kings win high, lows tie: 1/2 + 1/4


def test_three_way_equities_sum_to_one() -> None:
    r = equity(["AsAd", "KsKd", "7c2h"], board="Ts9s3h")
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)
    assert r.players[0].equity > r.players[1].equity > r.players[2].equity


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"hands": ["AhKh", "AhQd"]}, "duplicate"),
        ({"hands": ["AhKh"]}, "at least two"),
        ({"hands": ["AhKhQh", "2c2d"]}, "2 cards"),
        ({"hands": ["AhKh", "2c2d"], "game": "omaha"}, "4 or 5"),
        ({"hands": ["AhKh", "2c2d"], "board": "3c4c"}, "0, 3, 4 or 5"),
        ({"hands": ["AhKh", "2c2d"], "game": "stud"}, "unknown game"),
        ({"hands": ["AhKx", "2c2d"]}, "not a card"),
        ({"hands": ["AhKh", "2c2d"], "trials": 0, "exact": False}, "positive"),
    ],
)
def test_bad_input_is_rejected(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(HandError, match=match):
        equity(**kwargs)  # type: ignore[arg-type]


def test_combinations_index_matches_itertools() -> None:
    got = combinations_index(9, 4)
    assert got.tolist() == [list(c) for c in itertools.combinations(range(9), 4)]
