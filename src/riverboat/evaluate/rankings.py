"""Five-card evaluation and labels for every ranking, with input checks: :func:`evaluate5`, :func:`describe`."""

from __future__ import annotations

import operator
from collections.abc import Sequence

from riverboat.cards import DECK_32, DECK_36, DECK_52, Deck
from riverboat.evaluate import tables
from riverboat.evaluate.badugi import badugi_describe
from riverboat.evaluate.base import SUIT_BITS, Category, HandError, Ranking
from riverboat.evaluate.soko import with_four_flush
from riverboat.evaluate.spec import RankSpec
from riverboat.evaluate.thirty_two import THIRTY_TWO, suited_strength

SPECS = tables.SPECS
W5 = tables.W5
# module constants: an Enum class attribute is a slow lookup on Python 3.11 (EnumType.__getattr__), issue #33
_SOKO, _THIRTY_TWO_SUITED = Ranking.SOKO, Ranking.THIRTY_TWO_SUITED

DECK_OF: dict[Ranking, Deck] = {
    Ranking.SIX_PLUS: DECK_36,
    Ranking.SHORT_DECK_PHH: DECK_36,
    Ranking.THIRTY_TWO: DECK_32,
    Ranking.THIRTY_TWO_SUITED: DECK_32,
}


def deck_of(ranking: Ranking) -> Deck:
    """The deck a ranking is played with (52 cards unless R-RANK-6P-1 / R-RANK-32-1)."""
    return DECK_OF.get(ranking, DECK_52)


def as_ranking(ranking: Ranking | str) -> Ranking:
    try:
        return Ranking(ranking)
    except ValueError:
        raise HandError(f"unknown ranking: {ranking!r}") from None


def check_cards(ranking: Ranking, cards: Sequence[int]) -> list[int]:
    """Cards as plain ints; HandError if any is not an int card of the ranking's deck or repeats."""
    deck = deck_of(ranking)
    out: list[int] = []
    seen = 0
    for item in cards:
        if isinstance(item, bool) or not hasattr(item, "__index__"):
            raise HandError(f"not a card code: {item!r}")
        c = operator.index(item)
        if not 0 <= c < 52:
            raise HandError(f"not a card code: {item!r}")
        if c not in deck:
            raise HandError(f"card {_name(c)} is not in the {deck.name} deck used by {ranking.value}")
        if seen >> c & 1:
            raise HandError(f"duplicate card: {_name(c)}")
        seen |= 1 << c
        out.append(c)
    return out


def _name(c: int) -> str:
    return "23456789TJQKA"[c >> 2] + "cdhs"[c & 3]


def strength5(ranking: Ranking, a: int, b: int, c: int, d: int, e: int) -> int:
    """Unchecked strength of five distinct valid cards (0: no qualifying low)."""
    t = tables.five(ranking)
    if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
        s = t.f5[(1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))]
    else:
        s = t.nf5[W5[a >> 2] + W5[b >> 2] + W5[c >> 2] + W5[d >> 2] + W5[e >> 2]]
    if ranking is _SOKO:
        return with_four_flush((a, b, c, d, e), s)
    if ranking is _THIRTY_TWO_SUITED:
        return suited_strength((a, b, c, d, e), s)
    return s


def evaluate5(ranking: Ranking | str, cards: Sequence[int]) -> int | None:
    """Strength of exactly five cards under ``ranking`` (higher is better); None: no qualifying 8-or-better low."""
    r = as_ranking(ranking)
    _five_card(r)
    cs = check_cards(r, cards)
    if len(cs) != 5:
        raise HandError(f"evaluate5 needs exactly 5 cards, got {len(cs)}")
    s = strength5(r, *cs)
    return s or None


def _five_card(ranking: Ranking) -> None:
    if ranking is Ranking.BADUGI:
        raise HandError("badugi hands have 1 to 4 cards: use best_hand")


def spec_for_strength(ranking: Ranking, strength: int) -> tuple[RankSpec, int]:
    """The spec that labels a strength and the rank-only strength it labels."""
    _five_card(ranking)
    if ranking is Ranking.THIRTY_TWO_SUITED:
        return THIRTY_TWO, strength >> SUIT_BITS
    return SPECS[ranking], strength


def category(ranking: Ranking | str, strength: int) -> Category:
    """The category of a strength (e.g. ``Category.FULL_HOUSE``)."""
    r = as_ranking(ranking)
    if r is Ranking.BADUGI:
        badugi_describe(strength)  # checks the strength
        return Category.HIGH_CARD  # PokerKit's label for every badugi hand
    spec, s = spec_for_strength(r, strength)
    return spec.category_of(s)


def describe(ranking: Ranking | str, strength: int) -> str:
    """The label of a strength, e.g. ``"Full House, Queens over Sixes"`` or ``"Eight-Seven low"``."""
    r = as_ranking(ranking)
    if not isinstance(strength, int) or strength <= 0:
        raise HandError(f"not a {r.value} strength: {strength!r}")
    if r is Ranking.BADUGI:
        return badugi_describe(strength)
    spec, s = spec_for_strength(r, strength)
    try:
        return spec.describe(s)
    except ValueError as exc:
        raise HandError(str(exc)) from None
