"""Hand values at showdown through :mod:`riverboat.evaluate` (R-CARD-2, R-OMAHA-3, R-LOW-8B, R-RANK-*)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from riverboat.cards import ALL_CARDS
from riverboat.engine.views import WinningHand
from riverboat.evaluate import CardUse, Ranking, best_hand, describe
from riverboat.evaluate.base import Category, decode
from riverboat.evaluate.card_use import best_strength, winning_five
from riverboat.evaluate.fast7 import make_evaluate7
from riverboat.evaluate.rankings import SPECS, strength5
from riverboat.evaluate.tables import SEVEN_CARD_RANKINGS
from riverboat.games.catalog import Game

_CS = [str(c) for c in ALL_CARDS]  # card code -> "Ah"
# Enum members as module constants (an Enum class attribute is a slow lookup on Python 3.11, issue #33)
_ANY, _OMAHA = CardUse.ANY, CardUse.OMAHA
_HIGH_R, _LOW_8B, _BADUGI = Ranking.HIGH, Ranking.LOW_8B, Ranking.BADUGI


@cache
def ranking_of(name: str) -> Ranking:
    return Ranking[name]


@cache
def _seven(ranking: Ranking) -> Callable[..., int] | None:
    return make_evaluate7(ranking) if ranking in SEVEN_CARD_RANKINGS else None


def evaluate_hands(
    game: Game, cards: Sequence[Sequence[int]], board: Sequence[int], alive: Sequence[int]
) -> list[list[int | None]]:
    """For each of the game's rankings, each position's strength (higher is better) or None (folded, or no
    qualifying low). The engine's cards are valid and distinct, so the unchecked paths are taken: seven cards the fast
    seven-card evaluators, five cards one lookup (``strength5``), Omaha card use ``best_strength`` (the strengths
    ``best_hand`` gives); the rest (Badugi, a stud hand short of five) ``best_hand``."""
    use = _OMAHA if game.omaha else _ANY
    n = len(cards)
    out: list[list[int | None]] = []
    board_t = tuple(board)
    for name in game.rankings:
        ranking = ranking_of(name)
        row: list[int | None] = [None] * n
        seven = _seven(ranking) if use is _ANY else None
        low8 = ranking is _LOW_8B
        five = use is _ANY and ranking is not _BADUGI
        omaha = use is _OMAHA
        for j in alive:
            hole = cards[j]
            k = len(hole) + len(board_t)
            if seven is not None and k == 7:
                v7 = seven(*hole, *board_t)
                row[j] = None if (low8 and v7 == 0) else v7
            elif five and k == 5:
                v5 = strength5(ranking, *hole, *board_t)
                row[j] = v5 or None  # 0: no qualifying low
            elif omaha and len(hole) >= 2 and len(board_t) >= 3:
                row[j] = best_strength(ranking, hole, board_t, use) or None
            else:
                v = best_hand(ranking, tuple(hole), board_t, use)
                row[j] = None if v is None else v.strength
        out.append(row)
    return out


_LABELS: dict[tuple[tuple[str, ...], tuple[int | None, ...]], str] = {}
_LABELS_MAX = 1 << 16


def label_of(game: Game, strengths: Sequence[int | None]) -> str:
    """The labels of one player's hand values ("Flush, King high / Seven-Five low"). A label depends only on the
    rankings and the strengths, so labels are memoised (bounded; cleared when full)."""
    key = (game.rankings, tuple(strengths))
    got = _LABELS.get(key)
    if got is None:
        got = " / ".join(describe(ranking_of(name), v) for name, v in zip(game.rankings, strengths, strict=True)
                         if v is not None)
        if len(_LABELS) >= _LABELS_MAX:
            _LABELS.clear()
        _LABELS[key] = got
    return got


_DESCRIBED: dict[tuple[Ranking, int], str] = {}


def _describe(ranking: Ranking, strength: int) -> str:
    """``describe`` memoised (a label depends only on the ranking and the strength; bounded, cleared when full)."""
    key = (ranking, strength)
    got = _DESCRIBED.get(key)
    if got is None:
        if len(_DESCRIBED) >= _LABELS_MAX:
            _DESCRIBED.clear()
        got = _DESCRIBED[key] = describe(ranking, strength)
    return got


_HIGH = SPECS[Ranking.HIGH]
_HIGH_CATS = _HIGH.order
_STRAIGHT, _STRAIGHT_FLUSH, _FLUSH = Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.FLUSH
_PAIR, _TWO_PAIR, _TRIPS = Category.PAIR, Category.TWO_PAIR, Category.TRIPS
_FULL_HOUSE, _QUADS = Category.FULL_HOUSE, Category.QUADS


def _high_five(cards: Sequence[int], strength: int) -> tuple[int, ...] | None:
    """The five cards of a standard high hand of a known ``strength`` (R-CARD-4) read from the strength itself: its
    category and ranks say which ranks (and, for a flush, which suit) the five have, so the cards are picked in
    display order (groups, high to low, the higher suit first; a wheel's ace last) in one pass. Checked with one
    five-card lookup; None (search instead) if they do not make ``strength``."""
    level, tb = decode(strength)
    cat = _HIGH_CATS[level - 1]
    if cat is _STRAIGHT or cat is _STRAIGHT_FLUSH:
        top = tb[0]
        ranks = [top, top - 1, top - 2, top - 3, top - 4] if top >= 4 else [3, 2, 1, 0, 12]
    elif cat is _PAIR:
        ranks = [tb[0], tb[0], tb[1], tb[2], tb[3]]
    elif cat is _TWO_PAIR:
        ranks = [tb[0], tb[0], tb[1], tb[1], tb[2]]
    elif cat is _TRIPS:
        ranks = [tb[0], tb[0], tb[0], tb[1], tb[2]]
    elif cat is _FULL_HOUSE:
        ranks = [tb[0], tb[0], tb[0], tb[1], tb[1]]
    elif cat is _QUADS:
        ranks = [tb[0], tb[0], tb[0], tb[0], tb[1]]
    else:  # high card, flush
        ranks = list(tb)
    if cat is _FLUSH or cat is _STRAIGHT_FLUSH:
        suits = [c & 3 for c in cards]
        suit = max(range(4), key=suits.count)
        cards = [c for c in cards if c & 3 == suit]
    by_rank: dict[int, list[int]] = {}
    for c in sorted(cards, reverse=True):  # the higher suit first within a rank
        got = by_rank.get(c >> 2)
        if got is None:
            by_rank[c >> 2] = [c]
        else:
            got.append(c)
    out: list[int] = []
    for r in ranks:
        got = by_rank.get(r)
        if not got:
            return None
        out.append(got.pop(0))
    if strength5(_HIGH_R, *out) != strength:
        return None
    return tuple(out)


def winning_hand(game: Game, rank_ix: int, hole: Sequence[int], board: Sequence[int], strength: int
                 ) -> WinningHand | None:
    """The cards that make a winning hand under the game's ``rank_ix``-th ranking, and its name (R-CARD-2): the
    evaluator's best five (in its display order; R-OMAHA-3 exactly two hole and three board cards, each half of a
    hi/lo pot chosen on its own, R-LOW-8B-4; up to four cards for Badugi), searched only until the five that make
    ``strength``, the value the showdown already found for this hand; a hand no five of which make it (which would
    be an evaluator bug) gives None rather than cards that did not win."""
    ranking = ranking_of(game.rankings[rank_ix])
    use = _OMAHA if game.omaha else _ANY
    cards: tuple[int, ...] | None = None
    if ranking is _HIGH_R and use is _ANY and len(hole) + len(board) >= 5:
        cards = _high_five((*hole, *board), strength)
    if cards is None:
        cards = winning_five(ranking, hole, board, use, strength)
    if cards is None:
        return None
    return {"cards": [_CS[c] for c in cards], "label": _describe(ranking, strength)}
