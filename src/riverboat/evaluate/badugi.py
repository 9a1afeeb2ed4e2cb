"""Badugi (PHH variant ``FB``): the ranking of four-card lowball hands of distinct ranks and suits.

Badugi is not one of RULES.md's games; it exists so that every hand of the PHH corpus replays (the corpus holds a
fixed-limit triple-draw Badugi hand, PHH code ``FB``). The reading is PokerKit's ``BadugiHand`` (ace-to-five):

- a hand is the largest subset of the held cards whose ranks are all different and whose suits are all different
  (a four-card "badugi" beats any three-card hand, which beats any two-card hand, which beats any single card);
- between hands of the same size the lower one wins, compared from the highest card down; aces are low;
- straights and flushes do not exist (a flush cannot be formed: suits must differ).

Strength encoding (higher is better, as for every ranking in :mod:`riverboat.evaluate.base`):
``size << 20 | (0xFFFFF - packed)`` where ``packed`` holds the subset's ace-low ranks (A=1 ... K=13) from the
highest down, four bits each, padded with zeros. So 4-card hands all outrank 3-card hands, and a lower top card
gives a higher strength.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from riverboat.evaluate.base import LEVEL_SHIFT, HandError

#: ace-low rank value of a card code's rank index (0 = deuce ... 12 = ace): deuce 2 ... king 13, ace 1
_LOW = tuple(range(2, 14)) + (1,)
_MASK = (1 << LEVEL_SHIFT) - 1
_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_SIZE_WORDS = {4: "Badugi", 3: "Three-card", 2: "Two-card", 1: "One-card"}
#: every subset of up to four positions, largest first (a hand has at most four cards)
_SUBSETS = tuple(
    subset for size in (4, 3, 2, 1) for subset in combinations(range(4), size)
)


def _packed(low_ranks: Sequence[int]) -> int:
    v = 0
    for r in sorted(low_ranks, reverse=True):
        v = (v << 4) | r
    return v << 4 * (4 - len(low_ranks))


def badugi_best(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The strength of the best badugi subset of one to four distinct card codes, and that subset's cards
    (highest card first). Unchecked beyond the count: callers validate the codes."""
    n = len(cards)
    if not 1 <= n <= 4:
        raise HandError(f"a badugi hand has 1 to 4 cards, got {n}")
    best = 0
    best_cards: tuple[int, ...] = ()
    for subset in _SUBSETS:
        if subset[-1] >= n:
            continue
        chosen = [cards[i] for i in subset]
        ranks = {c >> 2 for c in chosen}
        suits = {c & 3 for c in chosen}
        if len(ranks) != len(chosen) or len(suits) != len(chosen):
            continue
        strength = len(chosen) << LEVEL_SHIFT | (_MASK - _packed([_LOW[c >> 2] for c in chosen]))
        if strength > best:
            best = strength
            best_cards = tuple(sorted(chosen, key=lambda c: _LOW[c >> 2], reverse=True))
    return best, best_cards


def badugi_describe(strength: int) -> str:
    """The label of a badugi strength, e.g. ``"Badugi, 8-7-5-3"`` or ``"Three-card, K-4-A"``."""
    size = strength >> LEVEL_SHIFT
    packed = _MASK - (strength & _MASK)
    if size not in _SIZE_WORDS or packed >> 16:
        raise HandError(f"not a badugi strength: {strength!r}")
    nibbles = [(packed >> 4 * (3 - i)) & 15 for i in range(4)]
    ranks = nibbles[:size]
    if (any(not 1 <= r <= 13 for r in ranks) or ranks != sorted(set(ranks), reverse=True)
            or any(nibbles[size:])):
        raise HandError(f"not a badugi strength: {strength!r}")
    return f"{_SIZE_WORDS[size]}, " + "-".join(_NAMES.get(r, str(r)) for r in ranks)
