"""Issue #34 item 3: the detectors on every game the room deals. ``riverboat integrity scan`` on Omaha and seven
card stud populations with a planted chip-dumping pair finds the pair (giver first) and flags no honest pair; the
equity behind the card tests (riverboat.evaluate.versus) agrees with independent evaluators."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from riverboat.bots.collusion import Plant, Population, simulate
from riverboat.bots.strength import monte_carlo_equity
from riverboat.cards import Card
from riverboat.evaluate.equity import equity as exact_equity
from riverboat.evaluate.versus import Family, holdem_versus_random_batch, versus_random
from riverboat.history import dumps_many
from riverboat.integrity import hand_facts

PLANT = Plant("bot00", "bot01", "dump", 1.0)


def _scan(path: Path) -> list[dict[str, object]]:
    res = subprocess.run([sys.executable, "-c", "from riverboat.cli import main; main()", "integrity", "scan",
                          str(path), "--min-hands", "20", "--json", "--no-progress"],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return [json.loads(line) for line in res.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize(("game", "family", "sessions"), [("stud", Family.STUD, 10), ("omaha", Family.OMAHA, 8)])
def test_scan_finds_the_dumper_in_stud_and_omaha_issue_34(game: str, family: Family, sessions: int,
                                                           tmp_path: Path) -> None:
    pop = Population(players=10, plants=(PLANT,), sessions=sessions, hands_per_session=30, seed=3, game=game,
                     trials=40)
    records = list(simulate(pop))
    facts = [hand_facts(r) for r in records[:20]]
    assert all(f.family is family for f in facts)  # the card tests run on this game
    path = tmp_path / f"{game}.phhs"
    path.write_text(dumps_many(r.fields for r in records))
    flags = _scan(path)
    dumping = [f for f in flags if f["pattern"] == "chip_dumping"]
    assert dumping and dumping[0]["players"] == ["bot00", "bot01"], flags
    assert "lost badly" in str(dumping[0]["why"]) and dumping[0]["evidence"]
    assert all({"bot00", "bot01"} & set(f["players"]) for f in flags)  # type: ignore[arg-type]


def test_holdem_equity_against_known_values_r_integ_8() -> None:
    """Preflop equity against one random hand: AA 85.2 %, 72o 34.6 % (the published all-in tables)."""
    aces, seven_two = (int(Card("Ac")), int(Card("Ad"))), (int(Card("7c")), int(Card("2d")))
    big = holdem_versus_random_batch([(aces, ()), (seven_two, ())], samples=40_000)
    assert big[0] == pytest.approx(0.852, abs=0.01) and big[1] == pytest.approx(0.346, abs=0.01)
    # one query alone or in a batch: the same answer (the scan batches a chunk of hands at a time)
    board = (int(Card("Kh")), int(Card("7d")), int(Card("2s")))
    alone = holdem_versus_random_batch([(aces, board)])[0]
    batched = holdem_versus_random_batch([(seven_two, ()), (aces, board), (seven_two, board)])[1]
    assert alone == batched


def _random_opponents_mean(hole: list[int], board: list[int], game: str, n: int, rng: random.Random) -> float:
    seen = set(hole) | set(board)
    unseen = [c for c in range(52) if c not in seen]
    total = 0.0
    for _ in range(n):
        opp = rng.sample(unseen, len(hole))
        total += exact_equity([hole, opp], board, game=game).players[0].equity
    return total / n


@pytest.mark.parametrize(("family", "game", "size"), [(Family.OMAHA, "omaha", 4), (Family.OMAHA, "omaha", 5),
                                                      (Family.OMAHA_HL, "omaha-hl", 4)])
def test_omaha_equity_matches_the_exact_evaluator_issue_34(family: Family, game: str, size: int) -> None:
    """Omaha (4 and 5 cards, high and hi/lo) against a random hand on the turn: the batch Monte Carlo against the
    mean of exact enumerations (riverboat.evaluate.equity) over 400 random opponents (standard error ~0.015)."""
    rng = random.Random(7)
    cards = rng.sample(range(52), size + 4)
    hole, board = cards[:size], cards[size:]
    mine = versus_random(family, hole, board, samples=8000, seed=1)
    oracle = _random_opponents_mean(hole, board, game, 400, rng)
    assert mine == pytest.approx(oracle, abs=0.05)


def test_stud_and_draw_equity_match_best_hand_monte_carlo_issue_34() -> None:
    """Seven-card stud and razz (all seven cards dealt) and five-card draw against the plain Monte Carlo of the bots,
    which ranks every hand with ``best_hand`` (an independent evaluator)."""
    rng = random.Random(3)
    for game, family, hole in (("stud", Family.STUD, ["Ah", "Ad", "7c", "9s", "Jd", "3h", "4c"]),
                               ("razz", Family.RAZZ, ["Ah", "2d", "3c", "Kd", "Qs", "9h", "9d"]),
                               ("draw5", Family.DRAW, ["Kh", "Kd", "7c", "7s", "2d"])):
        codes = [int(Card(c)) for c in hole]
        mine = versus_random(family, codes, (), samples=4000, seed=2)
        oracle = monte_carlo_equity(game, hole, (), 1, rng, trials=3000)
        assert mine == pytest.approx(oracle, abs=0.04), game


def test_hi_lo_splits_count_as_half_issue_34() -> None:
    """Stud Hi/Lo: a hand that can only make the low (A2345 for five low cards) wins at most... its share is
    between its low-only and its scoop chances; a wheel draw has more than the same cards in plain stud high."""
    wheel = [int(Card(c)) for c in ("Ac", "2d", "3h")]
    hl = versus_random(Family.STUD_HL, wheel, (), samples=4000, seed=4)
    hi = versus_random(Family.STUD, wheel, (), samples=4000, seed=4)
    assert 0.0 < hi < hl < 1.0
    assert np.isfinite(hl)
