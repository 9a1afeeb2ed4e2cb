"""Vectorised evaluation: numpy arrays of card codes, shape ``(N, k)``, to strengths, shape ``(N,)`` (``int64``).

``k == 5`` uses the five-card tables; ``k == 7`` for rankings in ``SEVEN_CARD_RANKINGS`` uses the seven-card tables
(one gather per card, a sum, one table gather; flushes fixed up separately); any other ``k >= 5`` takes the maximum
over all five-card subsets. A strength of ``0`` means "no qualifying low" (LOW_8B). ``check=True`` (default) rejects
codes outside the ranking's deck and repeated cards in a row with :class:`HandError`; pass ``check=False`` on hot
paths with trusted input.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from riverboat.evaluate import tables
from riverboat.evaluate.base import LEVEL_SHIFT, LOW_BASE, SUIT_BITS, Category, HandError, Ranking
from riverboat.evaluate.rankings import as_ranking, deck_of
from riverboat.evaluate.soko import FOUR_FLUSH_LEVEL, TWO_PAIR_FLOOR
from riverboat.evaluate.thirty_two import SUIT_STRENGTH, THIRTY_TWO

I64 = npt.NDArray[np.int64]
IntArray = npt.NDArray[np.integer]

W5 = np.array(tables.W5, dtype=np.int64)
CARD_KEYS = np.array([(tables.W7[c >> 2] << 16) | (1 << 4 * (c & 3)) for c in range(52)], dtype=np.int64)
CARD_W5 = W5[np.arange(52) >> 2]
CARD_RANK_BIT = (np.int64(1) << (np.arange(52, dtype=np.int64) >> 2)).astype(np.int64)
CARD_SUIT = (np.arange(52) & 3).astype(np.int64)
FLUSH_PROBE = 0x3333
FLUSH_BITS = 0x8888


def evaluate_batch(ranking: Ranking | str, cards: npt.ArrayLike, *, check: bool = True) -> I64:
    """Strengths of every row of ``cards`` (shape ``(N, k)``, ``k >= 5``) under ``ranking``."""
    r = as_ranking(ranking)
    if r is Ranking.BADUGI:
        raise HandError("badugi hands have 1 to 4 cards: evaluate them with best_hand")
    c = np.asarray(cards)
    if c.ndim != 2 or c.shape[1] < 5:
        raise HandError(f"need an array of shape (N, k) with k >= 5, got shape {c.shape}")
    if not np.issubdtype(c.dtype, np.integer):
        raise HandError(f"card codes must be integers, got dtype {c.dtype}")
    if check:
        _check(r, c)
    c = c.astype(np.intp, copy=False)
    k = c.shape[1]
    if k == 5:
        return five_batch(r, c)
    if k == 7 and r in tables.SEVEN_CARD_RANKINGS:
        return seven_batch(r, c)
    out = np.zeros(c.shape[0], dtype=np.int64)
    for idx in itertools.combinations(range(k), 5):
        np.maximum(out, five_batch(r, c[:, list(idx)]), out=out)
    return out


def _check(ranking: Ranking, c: IntArray) -> None:
    if c.size and (c.min() < 0 or c.max() > 51):
        raise HandError("card codes must be in 0..51")
    allowed = np.zeros(52, dtype=bool)
    allowed[[int(x) for x in deck_of(ranking)]] = True
    if not allowed[c].all():
        raise HandError(f"a card is not in the {deck_of(ranking).name} deck used by {ranking.value}")
    s = np.sort(c, axis=1)
    if (s[:, 1:] == s[:, :-1]).any():
        raise HandError("a row repeats a card")


def five_batch(ranking: Ranking, c: IntArray) -> I64:
    """Unchecked strengths of rows of exactly five distinct cards."""
    t = tables.five(ranking)
    out: I64 = t.nf5_np[CARD_W5[c].sum(axis=1)]
    suits = c & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    if flush.any():
        out[flush] = t.f5_np[CARD_RANK_BIT[c[flush]].sum(axis=1)]
    if ranking is Ranking.SOKO:
        _soko_four_flush(c, out)
    elif ranking is Ranking.THIRTY_TWO_SUITED:
        out = _suited(c, out)
    return out


def seven_batch(ranking: Ranking, c: IntArray) -> I64:
    """Unchecked strengths of rows of seven distinct cards (rankings in ``SEVEN_CARD_RANKINGS``).

    One 2-D gather of the additive card keys, six in-place column adds, one shift and one table gather; the suit
    probe is computed in place in the key buffer (no longer needed), and rows whose probe shows five or more of a
    suit get the flush table as well. (The earlier transposed-copy version was about 10% slower.)"""
    t7 = tables.seven(ranking)
    keys = CARD_KEYS.take(c)  # ``take`` gathers faster than fancy indexing here
    key = keys[:, 0].copy()
    for i in range(1, keys.shape[1]):
        key += keys[:, i]
    out: I64 = t7.nf7_np.take(key >> 16)
    if tables.SPECS[ranking].flush_counts:
        probe = key
        probe += FLUSH_PROBE
        probe &= FLUSH_BITS
        rows = np.flatnonzero(probe)
        if rows.size:
            out[rows] = np.maximum(out[rows], t7.f7_np[flush_masks(c[rows], probe[rows])])
    return out


def flush_masks(c: IntArray, probe: I64) -> I64:
    """For rows whose suit probe shows a flush: the rank mask of the flush suit's cards."""
    suit = np.zeros(probe.shape, dtype=np.int64)
    for s in range(1, 4):
        suit[(probe >> (4 * s + 3)) & 1 == 1] = s
    suited = CARD_SUIT[c] == suit[:, None]
    masks: I64 = np.where(suited, CARD_RANK_BIT[c], 0).sum(axis=1)
    return masks


def _soko_four_flush(c: IntArray, out: I64) -> None:
    low = out < TWO_PAIR_FLOOR
    if not low.any():
        return
    suits = c & 3
    for s in range(4):
        in_suit = suits == s
        rows = np.flatnonzero(low & (in_suit.sum(axis=1) == 4))
        if not rows.size:
            continue
        ranks = c[rows] >> 2
        mine = in_suit[rows]
        four = -np.sort(-np.where(mine, ranks, -1), axis=1)[:, :4]
        fifth = np.where(mine, -1, ranks).max(axis=1)
        v = np.full(rows.size, FOUR_FLUSH_LEVEL, dtype=np.int64)
        for i in range(4):
            v = (v << 4) | four[:, i]
        out[rows] = (v << 4) | fifth


def _suited(c: IntArray, base: I64) -> I64:
    """THIRTY_TWO_SUITED: append the suit tie-break code (see :mod:`riverboat.evaluate.thirty_two`)."""
    ranks = c >> 2
    suits = c & 3
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    cat_level = base >> LEVEL_SHIFT
    straight = np.isin(
        cat_level, [THIRTY_TWO.level(Category.STRAIGHT), THIRTY_TWO.level(Category.STRAIGHT_FLUSH)]
    )
    top = (base >> 16) & 15
    wheel_ace = straight[:, None] & (top[:, None] != 12) & (ranks == 12)
    order_key = np.where(wheel_ace, -1, counts * 64 + ranks * 4 + suits)
    shown = np.take_along_axis(c, np.argsort(-order_key, axis=1, kind="stable"), axis=1)
    lead = np.zeros(c.shape[0], dtype=np.intp)
    lead[cat_level == THIRTY_TWO.level(Category.PAIR)] = 2
    lead[cat_level == THIRTY_TWO.level(Category.TWO_PAIR)] = 4
    pos = np.arange(5)[None, :]
    perm = np.where(pos == 0, lead[:, None], np.where(pos <= lead[:, None], pos - 1, pos))
    seq = np.take_along_axis(shown, perm, axis=1)
    strength_of_suit = np.array(SUIT_STRENGTH, dtype=np.int64)[seq & 3]
    code = np.zeros(c.shape[0], dtype=np.int64)
    for i in range(5):
        code = (code << 2) | strength_of_suit[:, i]
    result: I64 = (base << SUIT_BITS) | code
    return result


def category_levels(ranking: Ranking | str, strengths: npt.ArrayLike) -> I64:
    """Category level of each strength (``tables.SPECS[ranking].order[level - 1]``; 0 for a strength of 0)."""
    r = as_ranking(ranking)
    if r is Ranking.BADUGI:
        raise HandError("badugi strengths have no five-card category")
    s = np.asarray(strengths, dtype=np.int64)
    if r is Ranking.THIRTY_TWO_SUITED:
        s = s >> SUIT_BITS
    spec = tables.SPECS[r]
    value = np.where(s > 0, LOW_BASE - s, 0) if spec.low else s
    levels: I64 = value >> LEVEL_SHIFT
    return levels
