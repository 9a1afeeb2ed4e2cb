"""Hand evaluation and equity (layer 2): every ranking of RULES.md section 2, best-of selection, batch, equity.

API contract::

    from riverboat.evaluate import Ranking, CardUse, HandValue, best_hand, evaluate5, describe

    class Ranking(str, Enum):
        HIGH = "high"                      # R-CARD: standard high, A-2-3-4-5 wheel, no wrap-around
        SIX_PLUS = "six_plus"              # R-RANK-6P: trips > straight, flush > full house, A-6-7-8-9 lowest straight
        SHORT_DECK_PHH = "short_deck_phh"  # PHH/PokerKit "NS" short deck: flush > full house but straight > trips,
                                           #   A-6-7-8-9 lowest straight (PHH's reading, used only to replay PHH hands)
        THIRTY_TWO = "thirty_two"          # Americana R-RANK-32 (-8 Reading): flush > full house, A-7-8-9-T lowest;
                                           #   ties split
        THIRTY_TWO_SUITED = "thirty_two_suited"  # 32 Card Draw: same order + suit tie-breaks R-RANK-32-5/-7;
                                                 #   never equal
        SOKO = "soko"                      # R-RANK-SOKO: 4-flush > 4-straight between two pair and one pair
        LOW_8B = "low_8b"                  # R-LOW-8B: A-5 low, eight-or-better qualifier
        LOW_A5 = "low_a5"                  # R-LOW-RAZZ: A-5 low, no qualifier, pairs count against
        LOW_27 = "low_27"                  # R-LOW-27: deuce-to-seven
        BADUGI = "badugi"                  # PHH "FB" only: 1-4 cards of distinct ranks and suits, ace-low
                                           #   (riverboat.evaluate.badugi; best_hand and describe only)

    class CardUse(str, Enum):
        ANY = "any"       # best five of all hole + board cards (Hold'em may play the board; stud best 5 of 7;
                          #   draw: the 5 held)
        OMAHA = "omaha"   # exactly two hole cards + three board cards (4 or 5 hole cards, high and low)

    @dataclass(frozen=True)
    class HandValue:       # ordered by strength only (comparing hands of two different rankings is a TypeError)
        ranking: Ranking
        strength: int      # HIGHER IS ALWAYS BETTER, for low rankings too (a lower low has a higher strength)
        cards: tuple[Card, ...]   # the five cards used, in a natural display order
        label: str         # e.g. "Full House, Queens over Sixes", "Flush, King high", "Eight-Seven low",
                           #   "4-Flush, Ace high"

    def evaluate5(ranking, cards: Sequence[int]) -> int | None
        # strength of exactly 5 cards (None: no qualifying 8-or-better low)
    def best_hand(ranking, hole: Sequence[int], board: Sequence[int] = (), use: CardUse = CardUse.ANY)
            -> HandValue | None
        # None only when LOW_8B has no qualifying low. With fewer than 5 cards in total (rare: a stud hand shown
        # early), evaluate the partial hand with the same category rules (pairs/trips/quads; no straights/flushes).
    def describe(ranking, strength: int) -> str   # the label for a strength

Equal strengths mean a split (except THIRTY_TWO_SUITED, where two different hands never have equal strength).
Rankings may be given as the enum or its string value. Bad input (not a card, duplicate card, a card outside the
ranking's deck such as a deuce in Six Plus, wrong count) raises :class:`HandError` (a ``ValueError``).

Also here: :func:`evaluate7` (fast unchecked seven-card high strength, ``evaluate7(c1, ..., c7)``),
:mod:`riverboat.evaluate.batch` (numpy arrays of card codes -> strengths) and :mod:`riverboat.evaluate.equity`.
The strength encoding is documented in :mod:`riverboat.evaluate.base`.
"""

from riverboat.cards import Card
from riverboat.evaluate.base import FIVE_CARD_RANKINGS, CardUse, Category, HandError, HandValue, Ranking
from riverboat.evaluate.card_use import best_hand
from riverboat.evaluate.fast7 import evaluate7, evaluate7_cards
from riverboat.evaluate.rankings import category, deck_of, describe, evaluate5

__all__ = [
    "FIVE_CARD_RANKINGS",
    "Card",
    "CardUse",
    "Category",
    "HandError",
    "HandValue",
    "Ranking",
    "best_hand",
    "category",
    "deck_of",
    "describe",
    "evaluate5",
    "evaluate7",
    "evaluate7_cards",
]
