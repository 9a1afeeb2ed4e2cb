"""Best-of selection (R-CARD-2): ``ANY`` = best five of all hole and board cards (Hold'em may play the board, stud
best 5 of 7, draw the 5 held); ``OMAHA`` = exactly two hole cards and three board cards (R-OMAHA-3, R-OMAHA5-1,
R-OMAHA-HL-2), chosen independently for high and low (R-LOW-8B-4).

With fewer than five cards in all (a stud hand shown early) the partial hand is scored with the same category rules:
pairs, two pair, trips and quads count, straights and flushes do not; missing kickers count as nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from riverboat.cards import Card
from riverboat.evaluate.base import CardUse, HandError, HandValue, Ranking
from riverboat.evaluate.rankings import SPECS, as_ranking, check_cards, describe, spec_for_strength, strength5


def candidate_fives(
    hole: Sequence[int], board: Sequence[int], use: CardUse
) -> Iterator[tuple[int, int, int, int, int]]:
    """Every five-card hand the card-use rule allows."""
    if use is CardUse.OMAHA:
        for h in itertools.combinations(hole, 2):
            for b in itertools.combinations(board, 3):
                yield (h[0], h[1], b[0], b[1], b[2])
    else:
        for f in itertools.combinations((*hole, *board), 5):
            yield (f[0], f[1], f[2], f[3], f[4])


def best_hand(
    ranking: Ranking | str,
    hole: Sequence[int],
    board: Sequence[int] = (),
    use: CardUse | str = CardUse.ANY,
) -> HandValue | None:
    """The best hand the card-use rule allows; None only when LOW_8B has no qualifying low."""
    r = as_ranking(ranking)
    try:
        u = CardUse(use)
    except ValueError:
        raise HandError(f"unknown card use: {use!r}") from None
    hole_c = check_cards(r, hole)
    board_c = check_cards(r, board)
    check_cards(r, hole_c + board_c)  # no card both in hand and on board
    if u is CardUse.OMAHA:
        if len(hole_c) < 2 or len(board_c) < 3:
            raise HandError(
                f"Omaha needs at least 2 hole and 3 board cards, got {len(hole_c)} and {len(board_c)}"
            )
    total = len(hole_c) + len(board_c)
    if total == 0:
        raise HandError("no cards to evaluate")
    if total < 5 and u is CardUse.ANY:
        return _partial(r, hole_c + board_c)
    best = 0
    best_cards: tuple[int, ...] = ()
    for five in candidate_fives(hole_c, board_c, u):
        s = strength5(r, *five)
        if s > best:
            best, best_cards = s, five
    if best == 0:
        return None
    return make_value(r, best, best_cards)


def make_value(ranking: Ranking, strength: int, cards: Sequence[int]) -> HandValue:
    spec, s = spec_for_strength(ranking, strength)
    shown = spec.display_order(cards, s)
    return HandValue(ranking, strength, tuple(Card(c) for c in shown), describe(ranking, strength))


def _partial(ranking: Ranking, cards: list[int]) -> HandValue | None:
    spec = SPECS[ranking]
    if spec.qualifier is not None:
        return None
    value = spec.value([c >> 2 for c in cards], False)
    strength = spec.strength_of_value(value)
    if ranking is Ranking.THIRTY_TWO_SUITED:
        strength <<= 10
    return make_value(ranking, strength, cards)
