"""Best-of selection (R-CARD-2): ``ANY`` = best five of all hole and board cards (Hold'em may play the board, stud
best 5 of 7, draw the 5 held); ``OMAHA`` = exactly two hole cards and three board cards (R-OMAHA-3, R-OMAHA5-1,
R-OMAHA-HL-2), chosen independently for high and low (R-LOW-8B-4).

With fewer than five cards in all (a stud hand shown early) the partial hand is scored with the same category rules:
pairs, two pair, trips and quads count, straights and flushes do not; missing kickers count as nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from functools import cache

from riverboat.cards import Card
from riverboat.evaluate import tables
from riverboat.evaluate.badugi import badugi_best
from riverboat.evaluate.base import CardUse, HandError, HandValue, Ranking
from riverboat.evaluate.fast7 import Eval7, make_evaluate7
from riverboat.evaluate.rankings import SPECS, as_ranking, check_cards, describe, spec_for_strength, strength5

_ANY, _OMAHA = CardUse.ANY, CardUse.OMAHA  # Enum class attributes are slow lookups on Python 3.11 (issue #33)
_BADUGI, _SUITED = Ranking.BADUGI, (Ranking.SOKO, Ranking.THIRTY_TWO_SUITED)


def candidate_fives(
    hole: Sequence[int], board: Sequence[int], use: CardUse
) -> Iterator[tuple[int, ...]]:
    """Every five-card hand the card-use rule allows (tuples of five cards)."""
    if use is _OMAHA:
        return (
            (h[0], h[1], b[0], b[1], b[2])
            for h in itertools.combinations(hole, 2)
            for b in itertools.combinations(board, 3)
        )
    return itertools.combinations((*hole, *board), 5)


def best_hand(
    ranking: Ranking | str,
    hole: Sequence[int],
    board: Sequence[int] = (),
    use: CardUse | str = CardUse.ANY,
    *,
    strength: int = 0,
) -> HandValue | None:
    """The best hand the card-use rule allows; None only when LOW_8B has no qualifying low. ``strength``, when the
    caller already knows the hand's strength (a showdown naming the winning cards), lets the search stop at the
    first five cards that make it."""
    r = as_ranking(ranking)
    try:
        u = CardUse(use)
    except ValueError:
        raise HandError(f"unknown card use: {use!r}") from None
    nh = len(hole)
    all_c = check_cards(r, [*hole, *board])  # also: no card both in hand and on board
    hole_c, board_c = all_c[:nh], all_c[nh:]
    if u is CardUse.OMAHA:
        if len(hole_c) < 2 or len(board_c) < 3:
            raise HandError(
                f"Omaha needs at least 2 hole and 3 board cards, got {len(hole_c)} and {len(board_c)}"
            )
    total = len(all_c)
    if total == 0:
        raise HandError("no cards to evaluate")
    if r is Ranking.BADUGI:
        return _badugi(all_c, u)
    if total < 5 and u is CardUse.ANY:
        return _partial(r, all_c)
    target = strength
    if not target and total == 7 and u is CardUse.ANY and r in tables.SEVEN_CARD_RANKINGS:
        target = _seven(r)(*all_c)  # one lookup; the loop below then stops at the first five that make it
        if target == 0:
            return None
    best, best_cards = _best_five(r, candidate_fives(hole_c, board_c, u), target)
    if best == 0:
        return None
    return make_value(r, best, best_cards)


def best_strength(ranking: Ranking, hole: Sequence[int], board: Sequence[int], use: CardUse) -> int:
    """:func:`best_hand`'s strength (0: no qualifying low) without its input checks or the hand's cards and label,
    for a caller that passes distinct valid cards (the engine's showdown): five or more cards in all (two hole and
    three board for Omaha), not Badugi."""
    return _best_five(ranking, candidate_fives(hole, board, use), 0)[0]


def winning_five(ranking: Ranking, hole: Sequence[int], board: Sequence[int], use: CardUse, strength: int
                 ) -> tuple[int, ...] | None:
    """The cards that make a hand of a known ``strength`` in display order (a showdown naming a winner's cards,
    R-CARD-2), without :func:`best_hand`'s input checks: the caller passes distinct valid cards of the ranking's
    deck (the engine's own). The search stops at the first five that make ``strength``; None if none does."""
    if ranking is _BADUGI or (use is _ANY and len(hole) + len(board) < 5):
        value = best_hand(ranking, hole, board, use, strength=strength)
        return None if value is None or value.strength != strength else tuple(value.cards)
    # high cards first (low rankings: low cards first), so the five sought tend to come early in the search
    high = not SPECS[ranking].low
    hole, board = sorted(hole, reverse=high), sorted(board, reverse=high)
    if use is _ANY:
        hole, board = sorted((*hole, *board), reverse=high), []
    best, cards = _best_five(ranking, candidate_fives(hole, board, use), strength)
    if best != strength:
        return None
    spec, s = spec_for_strength(ranking, best)
    return spec.display_order(cards, s)


@cache
def _seven(ranking: Ranking) -> Eval7:
    return make_evaluate7(ranking)


def _best_five(
    ranking: Ranking, fives: Iterable[tuple[int, ...]], target: int
) -> tuple[int, tuple[int, ...]]:
    """The strongest five-card hand among ``fives`` (stopping early once ``target`` is reached)."""
    best = 0
    best_cards: tuple[int, ...] = ()
    if ranking in _SUITED:
        for five in fives:
            s = strength5(ranking, *five)
            if s > best:
                best, best_cards = s, five
        return best, best_cards
    t = tables.five(ranking)
    nf5, f5, w = t.nf5, t.f5, tables.W5
    for five in fives:
        a, b, c, d, e = five
        if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
            s = f5[(1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))]
        else:
            s = nf5[w[a >> 2] + w[b >> 2] + w[c >> 2] + w[d >> 2] + w[e >> 2]]
        if s > best:
            best, best_cards = s, five
            if s == target:
                break
    return best, best_cards


def make_value(ranking: Ranking, strength: int, cards: Sequence[int]) -> HandValue:
    spec, s = spec_for_strength(ranking, strength)
    shown = spec.display_order(cards, s)
    return HandValue(ranking, strength, tuple(Card(c) for c in shown), describe(ranking, strength))


def _badugi(cards: list[int], use: CardUse) -> HandValue:
    if use is not CardUse.ANY or len(cards) > 4:
        raise HandError(f"a badugi hand is 1 to 4 held cards, got {len(cards)} ({use.value})")
    strength, used = badugi_best(cards)
    return HandValue(Ranking.BADUGI, strength, tuple(Card(c) for c in used), describe(Ranking.BADUGI, strength))


def _partial(ranking: Ranking, cards: list[int]) -> HandValue | None:
    spec = SPECS[ranking]
    if spec.qualifier is not None:
        return None
    value = spec.value([c >> 2 for c in cards], False)
    strength = spec.strength_of_value(value)
    if ranking is Ranking.THIRTY_TWO_SUITED:
        strength <<= 10
    return make_value(ranking, strength, cards)
