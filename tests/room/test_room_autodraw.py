"""Automatic draw keep lists (R-AUTODRAW-1, both CONFLICT readings of R-AUTODRAW-2, R-AUTODRAW-3 readings)."""

from __future__ import annotations

import pytest

from riverboat.cards import Rank, parse_cards
from riverboat.room.autodraw import autodraw_27, autodraw_high
from riverboat.room.settings import AutodrawPriorityOne


def discards(hand: str, **kw: object) -> str:
    return " ".join(sorted(str(c) for c in autodraw_high(parse_cards(hand), **kw)))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("priority", "hand", "thrown"),
    [
        ("1 two pair", "Ah Ad Kc Kd 2s", "2s"),
        ("1 trips", "7h 7d 7c Kd 2s", "2s Kd"),
        ("1 straight", "5c 6d 7h 8s 9c", ""),
        ("1 flush", "2h 5h 9h Kh 3h", ""),
        ("2 royal draw", "Ks Qs Js Ts 2d", "2d"),
        ("3 high pair", "Jh Jd 3c 5d 8s", "3c 5d 8s"),
        ("4 flush draw", "2h 5h 9h Kh 3c", "3c"),
        ("5 low pair", "Th Td 3c 5d Ks", "3c 5d Ks"),
        ("6 open-ended", "5c 6d 7h 8s Kc", "Kc"),
        ("7 gutshot", "5c 6d 8h 9s Kc", "Kc"),
        ("7 one-ended", "Ac 2d 3h 4s 9c", "9c"),
        ("8 high card", "Ac 3d 6h 8s Tc", "3d 6h 8s Tc"),
        ("9 nothing", "2c 3d 6h 8s 9c", "2c 3d 6h 8s 9c"),
    ],
)
def test_r_autodraw_1_keep_list_priorities(priority: str, hand: str, thrown: str) -> None:
    assert discards(hand) == thrown, priority


def test_r_autodraw_1_priority_order_royal_draw_beats_high_pair() -> None:
    """Priority 2 (K-Q-J-T suited) is kept before priority 3 (a high pair): Ks Qs Js Ts Jd keeps the draw."""
    assert discards("Ks Qs Js Ts Jd") == "Jd"


def test_r_autodraw_1_flush_draw_beats_low_pair() -> None:
    """Priority 4 (four to a flush) before priority 5 (a low pair)."""
    assert discards("2h 5h 9h Kh 2c") == "2c"


def test_r_autodraw_2_conflict_pair_or_better_reading_keeps_any_pair_first() -> None:
    """001 reading: a pair is priority 1, so it beats the flush draw that the default reading keeps."""
    hand = "2h 5h 9h Kh 2c"
    assert discards(hand) == "2c"
    assert discards(hand, priority_one=AutodrawPriorityOne.PAIR_OR_BETTER) == "5h 9h Kh"


def test_r_autodraw_3_thirty_two_card_draw_keeps_at_least_one_card() -> None:
    """32 Card Draw replaces at most 4 cards: with nothing to keep, the highest card stays."""
    thrown = autodraw_high(parse_cards("7c 8d Tc Qs Kh"), min_rank=int(Rank.SEVEN), max_discards=4)
    assert " ".join(sorted(str(c) for c in thrown)) == "7c 8d Qs Tc"  # priority 8 keeps the king
    nothing = autodraw_high(parse_cards("2c 3d 6h 8s 9c"), max_discards=4)
    assert " ".join(sorted(str(c) for c in nothing)) == "2c 3d 6h 8s"  # priority 9, at most 4 replaced
    # A-7-8-9-T is the lowest straight of the 32-card deck (R-RANK-32-2): stand pat
    assert autodraw_high(parse_cards("Ac 7d 8h 9s Tc"), min_rank=int(Rank.SEVEN), max_discards=4) == []


@pytest.mark.parametrize(
    ("hand", "thrown"),
    [
        ("2c 3d 4h 5s 7c", ""),  # 7-5-4-3-2: stand pat
        ("8c 9d 2h 3s 4c", ""),  # 9-high, no pair: stand pat
        ("2c 3d 4h 5s 6c", "6c"),  # a straight: break it
        ("2c 4c 5c 6c 7c", "7c"),  # a flush: break it
        ("2c 2d 4h 8s Kc", "2d 8s Kc"),  # keep one of each rank 7 or lower
        ("Ac 2d 3h 4s 5c", "Ac"),  # the ace is high in 2-7
    ],
)
def test_r_autodraw_3_triple_draw_reading(hand: str, thrown: str) -> None:
    assert " ".join(sorted(str(c) for c in autodraw_27(parse_cards(hand)))) == thrown
