"""All-in equity for Hold'em and Omaha, high and high/low eight-or-better, any number of players, with an optional
partial board and dead cards.

Exact enumeration of every remaining board when that is cheap enough (``exact_limit`` evaluations), Monte Carlo
otherwise (an injectable ``numpy.random.Generator`` or ``seed`` for reproducible runs; by default the generator is
seeded from :mod:`secrets`). Both run on numpy arrays:

* Hold'em: the additive card keys of :mod:`riverboat.evaluate.fast7` summed over every board without materialising
  the cards: the boards whose highest card is ``l`` are all smaller boards below ``l`` (a contiguous slice of the
  previous level) plus card ``l``, so each level is a few dozen slice-plus-scalar adds. The rank-hash part (int32)
  and the suit counters (uint16) are summed separately; the per-suit rank bits are rebuilt only for the rare
  flush rows. One table gather per player and board.
* Omaha: for every board the ten 3-card board subsets and every 2-card hole subset are combined through the five-card
  tables (R-OMAHA-3), high and, for Hi/Lo, the eight-or-better low (R-LOW-8B, R-OMAHA-HL-2/-3/-5).

Equity counts a split as the share won: a player's equity is the average fraction of the pot won per board.
``win`` is the fraction of boards where the player wins the whole pot, ``tie`` where they win part of it.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from riverboat.cards import Card, parse_cards
from riverboat.evaluate import tables
from riverboat.evaluate.base import HandError, Ranking

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]

CARD_KEYS = np.array([(tables.W7[c >> 2] << 16) | (1 << 4 * (c & 3)) for c in range(52)], dtype=np.int64)
CARD_BITS = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
CARD_W5 = np.array([tables.W5[c >> 2] for c in range(52)], dtype=np.int64)
CARD_RANK_BIT = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int64)
CARD_SUIT = np.array([c & 3 for c in range(52)], dtype=np.int64)
BOARD_TRIPLES = list(itertools.combinations(range(5), 3))

# board x player evaluations: every preflop Hold'em spot up to 10 players is enumerated exactly
DEFAULT_EXACT_LIMIT = 6_000_000
DEFAULT_TRIALS = 100_000
CHUNK = 50_000


class Game(StrEnum):
    HOLDEM = "holdem"
    OMAHA = "omaha"
    OMAHA_HL = "omaha-hl"


@dataclass(frozen=True)
class PlayerEquity:
    hand: tuple[Card, ...]
    win: float
    tie: float
    equity: float
    std_error: float  # of ``equity``; 0.0 for an exact enumeration


@dataclass(frozen=True)
class EquityResult:
    game: Game
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    players: tuple[PlayerEquity, ...]
    boards: int  # boards evaluated (all of them when exact, else the Monte Carlo trials)
    exact: bool


def _cards(x: str | Sequence[int]) -> list[int]:
    return [int(c) for c in (parse_cards(x) if isinstance(x, str) else parse_cards(list(x)))]


def equity(
    hands: Sequence[str | Sequence[int]],
    board: str | Sequence[int] = (),
    dead: str | Sequence[int] = (),
    game: Game | str = Game.HOLDEM,
    *,
    trials: int | None = None,
    exact: bool | None = None,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
    progress: Progress | None = None,
) -> EquityResult:
    """Equity of each hand. ``exact=None`` enumerates when the work is at most ``exact_limit`` evaluations, else
    samples ``trials`` boards (default 100,000); ``exact=True/False`` forces the method."""
    try:
        g = Game(game)
    except ValueError:
        raise HandError(f"unknown game {game!r}; use one of: {', '.join(x.value for x in Game)}") from None
    try:
        holes = [_cards(h) for h in hands]
        known_board = _cards(board)
        dead_cards = _cards(dead)
    except ValueError as exc:
        raise HandError(str(exc)) from None
    _validate(g, holes, known_board, dead_cards)
    used = {c for h in holes for c in h} | set(known_board) | set(dead_cards)
    rem = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    need = 5 - len(known_board)
    if need > len(rem):
        raise HandError(f"not enough cards left to complete the board: need {need}, {len(rem)} left")
    per_board = 1 if g is Game.HOLDEM else max(comb(len(h), 2) for h in holes) * len(BOARD_TRIPLES)
    n_boards = comb(len(rem), need)
    if exact is None:
        exact = n_boards * per_board * len(holes) <= exact_limit
    if trials is not None and trials <= 0:
        raise HandError(f"trials must be positive, got {trials}")

    if exact:
        total, sq, wins, ties = _tally(g, holes, known_board, _enumerate_boards(rem, need, g))
        count = n_boards
    else:
        n = trials if trials is not None else DEFAULT_TRIALS
        gen = (
            rng
            if rng is not None
            else np.random.default_rng(seed if seed is not None else secrets.randbits(128))
        )
        total, sq, wins, ties = (np.zeros(len(holes)) for _ in range(4))
        done = 0
        while done < n:
            m = min(CHUNK, n - done)
            parts = _tally(g, holes, known_board, _sample_boards(rem, need, m, gen, g))
            for acc, part in zip((total, sq, wins, ties), parts, strict=True):
                acc += part
            done += m
            if progress is not None:
                progress(done, n)
        count = n
    eq = total / count
    if exact:
        se = np.zeros(len(holes))
    else:
        var = np.maximum(sq / count - eq**2, 0.0)
        se = np.sqrt(var / max(count - 1, 1))
    players = tuple(
        PlayerEquity(
            tuple(Card(c) for c in h),
            float(wins[i] / count),
            float(ties[i] / count),
            float(eq[i]),
            float(se[i]),
        )
        for i, h in enumerate(holes)
    )
    return EquityResult(
        g,
        tuple(Card(c) for c in known_board),
        tuple(Card(c) for c in dead_cards),
        players,
        count,
        bool(exact),
    )


def _validate(g: Game, holes: list[list[int]], board: list[int], dead: list[int]) -> None:
    if len(holes) < 2:
        raise HandError("equity needs at least two hands")
    for h in holes:
        if g is Game.HOLDEM and len(h) != 2:
            raise HandError(f"a Hold'em hand has 2 cards, got {len(h)}: {' '.join(str(Card(c)) for c in h)}")
        if g is not Game.HOLDEM and len(h) not in (4, 5):
            raise HandError(
                f"an Omaha hand has 4 or 5 cards, got {len(h)}: {' '.join(str(Card(c)) for c in h)}"
            )
    if len(board) not in (0, 3, 4, 5):
        raise HandError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    seen: set[int] = set()
    for c in [c for h in holes for c in h] + board + dead:
        if c in seen:
            raise HandError(f"duplicate card: {Card(c)}")
        seen.add(c)


# --- boards -------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Boards:
    """Completions of the board. Hold'em: the summed card keys, split into the rank-hash part (int32) and the four
    suit-count fields (uint16), plus, for any subset of rows, the per-suit rank bit fields (``bits_of(rows)``, used
    only for the rare flush rows). Omaha: the cards themselves."""

    keys: I64 | None
    cards: I64 | None
    bits_of: Callable[[npt.NDArray[np.intp]], I64] | None = None
    split: tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]] | None = None

    def split_keys(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]:
        if self.split is not None:
            return self.split
        assert self.keys is not None
        split = ((self.keys >> 16).astype(np.int32), (self.keys & 0xFFFF).astype(np.uint16))
        object.__setattr__(self, "split", split)
        return split

    def __len__(self) -> int:
        if self.split is not None:
            return int(self.split[0].shape[0])
        arr = self.keys if self.keys is not None else self.cards
        assert arr is not None
        return int(arr.shape[0])


def combinations_index(n: int, k: int) -> npt.NDArray[np.intp]:
    """All ``k``-subsets of ``range(n)`` in lexicographic order, shape ``(C(n, k), k)``."""
    c = np.arange(n, dtype=np.intp)[:, None]
    for _ in range(1, k):
        last = c[:, -1]
        counts = n - 1 - last
        rep = np.repeat(np.arange(c.shape[0]), counts)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        new = last[rep] + 1 + (np.arange(rep.size) - starts)
        c = np.column_stack([c[rep], new])
    if k == 0:
        return np.zeros((1, 0), dtype=np.intp)
    return c


def _sums_by_last(values: npt.NDArray[Any], k: int) -> tuple[npt.NDArray[Any], I64]:
    """Sums of ``values`` over every ``k``-subset, grouped by the subset's largest index ``l`` (block ``l`` spans
    ``starts[l]:starts[l + 1]``). Block ``l`` of level ``j + 1`` is the prefix of level ``j`` holding every subset
    whose largest index is below ``l``, plus ``values[l]``: a contiguous slice and a scalar add, no gathers."""
    n = values.size
    sums = values.copy()
    starts = np.arange(n + 1, dtype=np.int64)
    for _ in range(1, k):
        blocks = [sums[: starts[i]] + values[i] for i in range(n)]
        sizes = np.array([b.size for b in blocks], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)])
        sums = np.concatenate(blocks)
    return sums, starts


def _enumerate_boards(rem: I64, need: int, g: Game) -> Boards:
    if g is not Game.HOLDEM:
        return Boards(None, rem[combinations_index(rem.size, need)])
    if need == 0:
        zero = np.zeros(1, dtype=np.int64)
        return Boards(zero, None, lambda rows: zero[rows], (zero.astype(np.int32), zero.astype(np.uint16)))
    keys_in = CARD_KEYS[rem]
    ranks, starts = _sums_by_last((keys_in >> 16).astype(np.int32), need)
    suits, _ = _sums_by_last((keys_in & 0xFFFF).astype(np.uint16), need)
    bits_in = CARD_BITS[rem]
    if need == 1:
        return Boards(keys_in, None, lambda rows: bits_in[rows], (ranks, suits))
    prefix_bits, _ = _sums_by_last(bits_in, need - 1)

    def bits_of(rows: npt.NDArray[np.intp]) -> I64:
        last = np.searchsorted(starts, rows, side="right") - 1
        out: I64 = prefix_bits[rows - starts[last]] + bits_in[last]
        return out

    return Boards(None, None, bits_of, (ranks, suits))


def _sample_boards(rem: I64, need: int, m: int, gen: np.random.Generator, g: Game) -> Boards:
    if need == 0:
        picks = np.zeros((m, 0), dtype=np.int64)
    else:
        picks = gen.integers(0, rem.size, size=(m, need))
        while True:
            s = np.sort(picks, axis=1)
            bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
            if not bad.size:
                break
            picks[bad] = gen.integers(0, rem.size, size=(bad.size, need))
    cards = rem[picks]
    if g is Game.HOLDEM:
        bits = CARD_BITS[cards].sum(axis=1)
        return Boards(CARD_KEYS[cards].sum(axis=1), None, lambda rows: bits[rows])
    return Boards(None, cards)


# --- strengths and shares -----------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _nf7_int32() -> npt.NDArray[np.int32]:
    """The seven-card rank-only HIGH table as int32 (half the memory traffic of the int64 table)."""
    return tables.seven(Ranking.HIGH).nf7_np.astype(np.int32)


def _holdem_strengths(hole: list[int], board: list[int], boards: Boards) -> npt.NDArray[np.int32]:
    assert boards.bits_of is not None
    t7 = tables.seven(Ranking.HIGH)
    ranks, suits = boards.split_keys()
    fixed = hole + board
    fixed_key = int(CARD_KEYS[fixed].sum())
    out: npt.NDArray[np.int32] = _nf7_int32()[ranks + np.int32(fixed_key >> 16)]
    probe = (suits + np.uint16((fixed_key & 0xFFFF) + 0x3333)) & np.uint16(0x8888)
    rows = np.flatnonzero(probe)
    if rows.size:
        bits = boards.bits_of(rows) + int(CARD_BITS[fixed].sum())
        p = probe[rows].astype(np.int64)
        suit = np.zeros(rows.size, dtype=np.int64)
        for su in range(1, 4):
            suit[(p >> (4 * su + 3)) & 1 == 1] = su
        masks = (bits >> (16 * suit)) & 0x1FFF
        out[rows] = np.maximum(out[rows], t7.f7_np[masks])
    return out


def _omaha_strengths(hole: list[int], board: list[int], boards: Boards, low: bool) -> I64:
    assert boards.cards is not None
    full = np.concatenate(
        [np.broadcast_to(np.array(board, dtype=np.int64), (len(boards), len(board))), boards.cards], axis=1
    )
    t5 = tables.five(Ranking.LOW_8B if low else Ranking.HIGH)
    out = np.zeros(len(boards), dtype=np.int64)
    for tri in BOARD_TRIPLES:
        bc = full[:, list(tri)]
        w = CARD_W5[bc].sum(axis=1)
        mask = CARD_RANK_BIT[bc].sum(axis=1)
        suits = CARD_SUIT[bc]
        mono = np.where((suits == suits[:, :1]).all(axis=1), suits[:, 0], -1)
        for a, b in itertools.combinations(hole, 2):
            s = t5.nf5_np[w + CARD_W5[a] + CARD_W5[b]]
            if not low and a & 3 == b & 3:
                fl = mono == (a & 3)
                if fl.any():
                    s[fl] = t5.f5_np[mask[fl] | CARD_RANK_BIT[a] | CARD_RANK_BIT[b]]
            np.maximum(out, s, out=out)
    return out


def _split(strengths: I64) -> F64:
    """Share of one pot per player and board (0 rows where nobody qualifies)."""
    best = strengths.max(axis=0)
    winners = (strengths == best) & (best > 0)
    n = winners.sum(axis=0)
    shares: F64 = np.where(n > 0, winners / np.maximum(n, 1), 0.0)
    return shares


Tally = tuple[F64, F64, F64, F64]  # per player: sum of shares, sum of squared shares, whole pots, part pots


def _tally(g: Game, holes: list[list[int]], board: list[int], boards: Boards) -> Tally:
    if g is Game.HOLDEM:
        return _tally_one_pot(np.stack([_holdem_strengths(h, board, boards) for h in holes]))
    high_s = np.stack([_omaha_strengths(h, board, boards, low=False) for h in holes])
    if g is Game.OMAHA:
        return _tally_one_pot(high_s)
    high = _split(high_s)
    low = _split(np.stack([_omaha_strengths(h, board, boards, low=True) for h in holes]))
    has_low = low.sum(axis=0) > 0
    shares = np.where(has_low, 0.5 * high + 0.5 * low, high)  # R-LOW-8B-5: no low, high takes all
    whole = np.isclose(shares, 1.0)
    part = (shares > 0) & ~whole
    return (
        shares.sum(axis=1),
        (shares**2).sum(axis=1),
        whole.sum(axis=1).astype(np.float64),
        part.sum(axis=1).astype(np.float64),
    )


def _tally_one_pot(strengths: npt.NDArray[np.integer]) -> Tally:
    """Tally one pot split equally among the best hands, by counting winners per board (no float arrays)."""
    n_players = strengths.shape[0]
    if n_players == 2:
        a, b = strengths[0], strengths[1]
        m = a.size
        first = np.count_nonzero(a > b)
        second = np.count_nonzero(a < b)
        tied = m - first - second
        total = np.array([first + tied / 2, second + tied / 2])
        sq = np.array([first + tied / 4, second + tied / 4])
        return (
            total,
            sq,
            np.array([first, second], dtype=np.float64),
            np.array([tied, tied], dtype=np.float64),
        )
    best = strengths.max(axis=0)
    winners = strengths == best
    n_win = winners.sum(axis=0)
    k = np.arange(n_players + 1, dtype=np.float64)
    k[0] = 1.0
    out = np.zeros((4, n_players))
    for p in range(n_players):
        nk = np.bincount(n_win[winners[p]], minlength=n_players + 1).astype(np.float64)
        out[0, p] = (nk / k).sum()
        out[1, p] = (nk / k**2).sum()
        out[2, p] = nk[1]
        out[3, p] = nk[2:].sum()
    return out[0], out[1], out[2], out[3]
