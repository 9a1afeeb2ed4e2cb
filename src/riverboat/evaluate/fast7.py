"""Fast per-call seven-card high evaluation (Hold'em, stud): :func:`evaluate7` and :func:`evaluate7_cards`.

Each card has an additive key ``W7[rank] << 16 | 1 << 4 * suit``: the sum of seven keys holds a perfect hash of the
rank multiset in its high bits and four 4-bit suit counts in its low 16 bits. Adding ``0x3333`` sets bit 3 of a
suit field exactly when that suit has five or more cards, so one mask test finds the (rare) flush; otherwise the
answer is one lookup in a flat int32 array. The tables are bound as default arguments (fast locals, not closure
cells): on CPython 3.11 that and the flat array instead of a dict take the call from about 1.8 M to about 2.9 M
evals/s (``bench/evaluators.py``). Inputs are not checked: pass seven distinct card codes (use ``best_hand`` for checked
evaluation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from riverboat.evaluate import tables
from riverboat.evaluate.base import Ranking

CARD_KEYS: tuple[int, ...] = tuple((tables.W7[c >> 2] << 16) | (1 << 4 * (c & 3)) for c in range(52))
SUIT_FIELDS = 0xFFFF
FLUSH_PROBE = 0x3333
FLUSH_BITS = 0x8888

Eval7 = Callable[[int, int, int, int, int, int, int], int]


def _flush_suit(key: int) -> int:
    probe = (key & SUIT_FIELDS) + FLUSH_PROBE
    for suit in range(4):
        if probe >> (4 * suit + 3) & 1:
            return suit
    raise AssertionError("no flush suit")  # pragma: no cover


def make_evaluate7(ranking: Ranking) -> Eval7:
    """A seven-card evaluator for a ranking in ``tables.SEVEN_CARD_RANKINGS`` (strength, 0 = no qualifying low)."""
    t7 = tables.seven(ranking)
    nf7 = t7.nf7
    f7 = t7.f7
    uses_flush = tables.SPECS[ranking].flush_counts
    k = CARD_KEYS

    def flush_path(key: int, cards: Sequence[int]) -> int:
        suit = _flush_suit(key)
        mask = 0
        for c in cards:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return max(nf7[key >> 16], f7[mask])

    if uses_flush:

        def evaluate7(
            a: int, b: int, c: int, d: int, e: int, f: int, g: int, k: Sequence[int] = k, nf7: Sequence[int] = nf7
        ) -> int:
            key = k[a] + k[b] + k[c] + k[d] + k[e] + k[f] + k[g]
            if (key + 0x3333) & 0x8888:
                return flush_path(key, (a, b, c, d, e, f, g))
            return nf7[key >> 16]

    else:

        def evaluate7(
            a: int, b: int, c: int, d: int, e: int, f: int, g: int, k: Sequence[int] = k, nf7: Sequence[int] = nf7
        ) -> int:
            return nf7[(k[a] + k[b] + k[c] + k[d] + k[e] + k[f] + k[g]) >> 16]

    return evaluate7


evaluate7: Eval7 = make_evaluate7(Ranking.HIGH)
"""Strength of the best standard high hand (R-CARD-4) among seven distinct card codes."""


def evaluate7_cards(cards: Sequence[int]) -> int:
    """:func:`evaluate7` for a sequence of seven cards."""
    return evaluate7(*cards)
