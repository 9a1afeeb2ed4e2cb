"""32-card hands (ranks 7..A), R-RANK-32: A-7-8-9-T is the lowest straight (R-RANK-32-2), Flush beats Full House.

``THIRTY_TWO`` (Americana, R-RANK-32-8 Reading, R-RANK-32-9 Default): equal hands split.
``THIRTY_TWO_SUITED`` (32 Card Draw, R-RANK-32-5/-6/-7): the same order, then suits break ties with hearts >
diamonds > clubs > spades. The suit tie-break card comes first: the top card (straights, flushes, high card), the
kicker (two pairs), the highest kicker (one pair); the remaining cards' suits follow in display order, so two
different five-card hands never have equal strength (implementation note extending R-RANK-32-7).
"""

from __future__ import annotations

from collections.abc import Sequence

from riverboat.evaluate.base import SUIT_BITS, Category, Ranking
from riverboat.evaluate.high import FLUSH_OVER_FULL_HOUSE_ORDER
from riverboat.evaluate.spec import RankSpec, run_masks

SEVEN = 5  # rank index of the seven

THIRTY_TWO = RankSpec(
    ranking=Ranking.THIRTY_TWO,
    ranks=tuple(range(SEVEN, 13)),
    order=FLUSH_OVER_FULL_HOUSE_ORDER,
    straights=run_masks(SEVEN, 12, 5, wheel=True),
)

THIRTY_TWO_SUITED = RankSpec(
    ranking=Ranking.THIRTY_TWO_SUITED,
    ranks=tuple(range(SEVEN, 13)),
    order=FLUSH_OVER_FULL_HOUSE_ORDER,
    straights=run_masks(SEVEN, 12, 5, wheel=True),
)

# R-RANK-32-5: hearts > diamonds > clubs > spades; indexed by suit index (c, d, h, s).
SUIT_STRENGTH = (1, 2, 3, 0)


def suit_code(cards: Sequence[int], base_strength: int) -> int:
    """The ten suit tie-break bits of five cards whose THIRTY_TWO strength is ``base_strength``."""
    shown = THIRTY_TWO.display_order(cards, base_strength)
    cat = THIRTY_TWO.category_of(base_strength)
    lead = 2 if cat is Category.PAIR else 4 if cat is Category.TWO_PAIR else 0
    seq = (shown[lead],) + shown[:lead] + shown[lead + 1 :]
    code = 0
    for c in seq:
        code = (code << 2) | SUIT_STRENGTH[c & 3]
    return code


def suited_strength(cards: Sequence[int], base_strength: int) -> int:
    return (base_strength << SUIT_BITS) | suit_code(cards, base_strength)
