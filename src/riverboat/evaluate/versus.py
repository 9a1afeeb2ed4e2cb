"""Equity of one known holding against one random hand, for every family of games the room deals (the integrity
detectors' measure of "how far ahead or behind was this player when they acted", issue #34).

``versus_random(family, hole, board, samples=..., seed=...)`` deals ``samples`` random completions (the board, the
rest of the player's own cards in stud, one opponent's hand from the unseen cards) and returns the share of the
pot the holding wins on average (ties and hi/lo splits counted as the share won). All the deals of one call are
evaluated at once by the batch evaluator (:mod:`riverboat.evaluate.batch`).

Families (``Family``):

* ``holdem``: two hole cards and a board of up to five;
* ``omaha`` / ``omaha_hl``: four or five hole cards, exactly two of them with three of the board (R-OMAHA-3); Hi/Lo
  splits the pot with the best eight-or-better low when there is one (R-OMAHA-HL-2/-3);
* ``stud`` / ``stud_hl`` / ``razz``: the player's cards so far (up to seven, no board), completed to seven; the
  opponent gets seven unseen cards; best five of seven high, high/eight-or-better low, or A-5 low;
* ``draw`` / ``draw_27``: five cards as they stand against five random cards (the draw is not modelled: the
  equity of the current holding), high or 2-7 low.

The seed is the caller's (the integrity detectors derive it from the cards, so a scan gives the same answer
every time).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from riverboat.evaluate.base import HandError, Ranking
from riverboat.evaluate.batch import evaluate_batch, five_batch

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


class Family(StrEnum):
    HOLDEM = "holdem"
    OMAHA = "omaha"
    OMAHA_HL = "omaha_hl"
    STUD = "stud"
    STUD_HL = "stud_hl"
    RAZZ = "razz"
    DRAW = "draw"
    DRAW_27 = "draw_27"


#: the family of each game of the catalogue whose equity this module knows (game id -> family)
GAME_FAMILY: dict[str, Family] = {
    "holdem": Family.HOLDEM, "omaha": Family.OMAHA, "omaha5": Family.OMAHA, "omaha_hl": Family.OMAHA_HL,
    "omaha5_hl": Family.OMAHA_HL, "stud": Family.STUD, "stud_hl": Family.STUD_HL, "razz": Family.RAZZ,
    "draw5": Family.DRAW, "single_draw_27": Family.DRAW_27, "triple_draw_27": Family.DRAW_27,
}
_STUD = {Family.STUD, Family.STUD_HL, Family.RAZZ}
_DRAW = {Family.DRAW, Family.DRAW_27}


def _deals(rng: np.random.Generator, deck: I64, samples: int, need: int) -> I64:
    """``samples`` rows of ``need`` distinct cards of ``deck`` (argsort of random keys: one call for all rows)."""
    out: I64 = deck[np.argsort(rng.random((samples, len(deck))), axis=1)[:, :need]]
    return out


def _omaha_best(ranking: Ranking, holes: I64, boards: I64) -> I64:
    """Best Omaha hand (two of the hole cards, three of the board) of every row: every (hole pair, board triple)
    combination stacked into one batch."""
    n = holes.shape[0]
    combos = [np.hstack([holes[:, list(hp)], boards[:, list(bt)]])
              for hp in itertools.combinations(range(holes.shape[1]), 2)
              for bt in itertools.combinations(range(boards.shape[1]), 3)]
    strengths = five_batch(ranking, np.vstack(combos).astype(np.intp))
    best: I64 = strengths.reshape(len(combos), n).max(axis=0)
    return best


def _share(mine: I64, theirs: I64) -> F64:
    out: F64 = (mine > theirs).astype(np.float64) + 0.5 * (mine == theirs)
    return out


def _hi_lo_share(hi: tuple[I64, I64], lo: tuple[I64, I64]) -> F64:
    """Hi/lo split: half to the best high and half to the best qualifying low (strength 0 = no low); no low at
    all: the high takes the whole pot."""
    high = _share(*hi)
    lo_me, lo_them = lo
    any_low = (lo_me > 0) | (lo_them > 0)
    low = np.where(lo_me > lo_them, 1.0, np.where(lo_me == lo_them, 0.5, 0.0))
    return np.where(any_low, 0.5 * high + 0.5 * low, high)


def versus_random(family: Family | str, hole: Sequence[int], board: Sequence[int] = (), *, samples: int = 100,
                  seed: int = 0) -> float:
    """The share of the pot ``hole`` (with ``board``) wins against one random hand; see the module docstring."""
    fam = Family(family)
    mine_known = np.array(list(hole), dtype=np.int64)
    board_known = np.array(list(board), dtype=np.int64)
    seen = set(int(c) for c in hole) | set(int(c) for c in board)
    if len(seen) != len(hole) + len(board):
        raise HandError("a card is repeated")
    deck = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    rng = np.random.default_rng(seed)
    if fam in _STUD:
        return _stud(fam, mine_known, deck, rng, samples)
    if fam in _DRAW:
        if len(hole) != 5:
            raise HandError("a draw hand has five cards")
        theirs = _deals(rng, deck, samples, 5)
        mine = np.broadcast_to(mine_known, (samples, 5))
        r = Ranking.LOW_27 if fam is Family.DRAW_27 else Ranking.HIGH
        return float(_share(five_batch(r, mine.astype(np.intp)), five_batch(r, theirs.astype(np.intp))).mean())
    size = 2 if fam is Family.HOLDEM else len(hole)
    if fam is Family.HOLDEM and len(hole) != 2 or fam is not Family.HOLDEM and len(hole) not in (4, 5):
        raise HandError(f"{fam.value}: wrong number of hole cards ({len(hole)})")
    need = 5 - len(board)
    draw = _deals(rng, deck, samples, need + size)
    boards = np.hstack([np.broadcast_to(board_known, (samples, len(board))), draw[:, :need]])
    theirs = draw[:, need:]
    mine = np.broadcast_to(mine_known, (samples, size))
    if fam is Family.HOLDEM:
        a = evaluate_batch(Ranking.HIGH, np.hstack([mine, boards]), check=False)
        b = evaluate_batch(Ranking.HIGH, np.hstack([theirs, boards]), check=False)
        return float(_share(a, b).mean())
    hi = (_omaha_best(Ranking.HIGH, mine, boards), _omaha_best(Ranking.HIGH, theirs, boards))
    if fam is Family.OMAHA:
        return float(_share(*hi).mean())
    lo = (_omaha_best(Ranking.LOW_8B, mine, boards), _omaha_best(Ranking.LOW_8B, theirs, boards))
    return float(_hi_lo_share(hi, lo).mean())


def _stud(fam: Family, mine_known: I64, deck: I64, rng: np.random.Generator, samples: int) -> float:
    k = len(mine_known)
    if not 1 <= k <= 7:
        raise HandError(f"a stud hand has 1 to 7 cards, got {k}")
    draw = _deals(rng, deck, samples, 7 - k + 7)
    mine = np.hstack([np.broadcast_to(mine_known, (samples, k)), draw[:, :7 - k]])
    theirs = draw[:, 7 - k:]
    if fam is Family.RAZZ:
        return float(_share(evaluate_batch(Ranking.LOW_A5, mine, check=False),
                            evaluate_batch(Ranking.LOW_A5, theirs, check=False)).mean())
    hi = (evaluate_batch(Ranking.HIGH, mine, check=False), evaluate_batch(Ranking.HIGH, theirs, check=False))
    if fam is Family.STUD:
        return float(_share(*hi).mean())
    lo = (evaluate_batch(Ranking.LOW_8B, mine, check=False), evaluate_batch(Ranking.LOW_8B, theirs, check=False))
    return float(_hi_lo_share(hi, lo).mean())





_FIXED_DEALS: dict[tuple[int, int, int], npt.NDArray[np.intp]] = {}


def _fixed_deals(m: int, need: int, samples: int) -> npt.NDArray[np.intp]:
    """``samples`` rows of ``need`` distinct positions in a deck of ``m`` cards, drawn once from a fixed seed: the
    same rows for every query, so a query's answer never depends on the other queries of its batch."""
    key = (m, need, samples)
    table = _FIXED_DEALS.get(key)
    if table is None:
        rng = np.random.default_rng(20261206 + 1000 * m + need)
        table = np.argsort(rng.random((samples, m)), axis=1)[:, :need].astype(np.intp)
        _FIXED_DEALS[key] = table
    return table


def holdem_versus_random_batch(queries: Sequence[tuple[Sequence[int], Sequence[int]]],
                               samples: int = 100) -> F64:
    """Hold'em equity against one random hand of many (hole, board) queries at once: each query's unseen cards
    are dealt by the same fixed random positions (:func:`_fixed_deals`), every deal of every query with the same
    board size evaluated in one call of the seven-card batch evaluator. Deterministic per query."""
    out = np.zeros(len(queries), dtype=np.float64)
    by_size: dict[int, list[int]] = {}
    for i, (hole, board) in enumerate(queries):
        if len(hole) != 2 or len(board) > 5:
            raise HandError("hold'em equity needs two hole cards and at most five board cards")
        by_size.setdefault(len(board), []).append(i)
    for size, rows in by_size.items():
        q = len(rows)
        known = np.array([list(queries[i][0]) + list(queries[i][1]) for i in rows], dtype=np.intp)
        m, need = 52 - known.shape[1], 5 - size
        mask = np.zeros((q, 52), dtype=np.int8)
        np.put_along_axis(mask, known, 1, axis=1)
        if (mask.sum(axis=1) != known.shape[1]).any():
            raise HandError("a card is repeated")
        deck = np.argsort(mask, axis=1, kind="stable")[:, :m].astype(np.uint8)  # each query's unseen cards
        flat = (np.arange(q, dtype=np.intp) * m)[:, None, None] + _fixed_deals(m, need + 2, samples)[None, :, :]
        deals = deck.reshape(-1).take(flat)  # (q, samples, need + 2)
        known8 = known.astype(np.uint8)
        mine = np.empty((q, samples, 7), dtype=np.uint8)
        theirs = np.empty((q, samples, 7), dtype=np.uint8)
        mine[:, :, :2] = known8[:, None, :2]
        theirs[:, :, :2] = deals[:, :, need:]
        for arr in (mine, theirs):
            arr[:, :, 2:2 + size] = known8[:, None, 2:]
            arr[:, :, 2 + size:] = deals[:, :, :need]
        a = evaluate_batch(Ranking.HIGH, mine.reshape(q * samples, 7), check=False)
        b = evaluate_batch(Ranking.HIGH, theirs.reshape(q * samples, 7), check=False)
        out[rows] = _share(a, b).reshape(q, samples).mean(axis=1)
    return out
__all__ = ["GAME_FAMILY", "Family", "holdem_versus_random_batch", "versus_random"]
