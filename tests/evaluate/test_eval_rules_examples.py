"""Every example of RULES.md section 2 as a test vector, citing its rule ID."""

from __future__ import annotations

import pytest

from riverboat.cards import parse_cards
from riverboat.cards import parse_cards as p
from riverboat.evaluate import Category, HandError, Ranking, best_hand, category, describe, evaluate5

R = Ranking


def s(ranking: Ranking, text: str) -> int:
    v = evaluate5(ranking, parse_cards(text))
    assert v is not None
    return v


def cat(ranking: Ranking, text: str) -> Category:
    return category(ranking, s(ranking, text))


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        (
            "Qs Qh Qd 6c 6s",
            "Qc Qs Qh 5d 5c",
        ),  # same trips; pair of 6s beats pair of 5s (fewer Qs: use two hands)
        ("Kh 7h 5h 3h 2h", "Qs Js Ts 8s 6s"),  # both flushes; king-high beats queen-high
        ("As Ah Kd Tc 6s", "Ad Ac Qs Jh 5d"),  # same pair; first kicker K beats Q
        ("Js Jh Jd As Qc", "Jc Js Jh Ad 9c"),  # same trips and first kicker; second kicker Q beats 9
    ],
)
def test_r_card_6_example_table(winner: str, loser: str) -> None:
    assert s(R.HIGH, winner) > s(R.HIGH, loser)


def test_r_card_4_category_order_and_labels() -> None:
    ladder = [
        ("Ah Kh Qh Jh Th", "Royal Flush"),
        ("9c 8c 7c 6c 5c", "Straight Flush, Nine high"),
        ("7s 7h 7d 7c 2s", "Four of a Kind, Sevens"),
        ("Qs Qh Qd 6c 6s", "Full House, Queens over Sixes"),
        ("Kh 7h 5h 3h 2h", "Flush, King high"),
        ("5d 4c 3h 2s Ah", "Straight, Five high"),
        ("8s 8h 8d Kc 2s", "Three of a Kind, Eights"),
        ("9s 9h 4d 4c As", "Two Pair, Nines and Fours"),
        ("Ts Th 6d 4c 2s", "One Pair, Tens"),
        ("As Qh 9d 6c 3s", "High Card, Ace high"),
    ]
    values = [s(R.HIGH, hand) for hand, _ in ladder]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    assert [describe(R.HIGH, v) for v in values] == [label for _, label in ladder]


def test_r_card_3_no_wrap_around_and_wheel_is_lowest_straight() -> None:
    assert cat(R.HIGH, "Qs Kh Ad 2c 3s") is Category.HIGH_CARD  # Q-K-A-2-3 is not a straight
    assert cat(R.HIGH, "Ks Ah 2d 3c 4s") is Category.HIGH_CARD
    wheel = s(R.HIGH, "Ah 2d 3c 4s 5h")
    assert category(R.HIGH, wheel) is Category.STRAIGHT
    assert wheel < s(R.HIGH, "2h 3d 4c 5s 6h") < s(R.HIGH, "Ah Kd Qc Js Th")
    assert s(R.HIGH, "Ah 2h 3h 4h 5h") < s(
        R.HIGH, "2c 3c 4c 5c 6c"
    )  # steel wheel is the lowest straight flush


def test_r_card_7_suits_never_break_ties() -> None:
    assert s(R.HIGH, "Ah Kd Qc Js 9h") == s(R.HIGH, "As Kc Qd Jh 9c")
    assert s(R.HIGH, "Kh 7h 5h 3h 2h") == s(R.HIGH, "Ks 7s 5s 3s 2s")


def test_r_rank_6p_2_trips_beat_straight_and_flush_beats_full_house() -> None:
    assert s(R.SIX_PLUS, "8s 8h 8d Kc 6s") > s(R.SIX_PLUS, "Ah Kd Qc Js Th")
    assert s(R.SIX_PLUS, "Kh 9h 8h 7h 6h") > s(R.SIX_PLUS, "As Ah Ad Kc Ks")
    assert s(R.SIX_PLUS, "6s 6h 6d 6c 7s") > s(R.SIX_PLUS, "Ah Kh Qh Jh 9h")  # quads still beat a flush
    order = [cat(R.SIX_PLUS, h) for h in ("Ah Kh Qh Jh Th", "7s 7h 7d 7c 8s", "Kh 9h 8h 7h 6h", "As Ah Ad Kc Ks",
                                            "8s 8h 8d Kc 6s", "Ah Kd Qc Js Th", "9s 9h 7d 7c As", "Ts Th 6d 7c 8s",
                                            "As Qh 9d 7c 6s")]  # fmt: skip
    values = [s(R.SIX_PLUS, h) for h in ("Ah Kh Qh Jh Th", "7s 7h 7d 7c 8s", "Kh 9h 8h 7h 6h", "As Ah Ad Kc Ks",
                                           "8s 8h 8d Kc 6s", "Ah Kd Qc Js Th", "9s 9h 7d 7c As", "Ts Th 6d 7c 8s",
                                           "As Qh 9d 7c 6s")]  # fmt: skip
    assert values == sorted(values, reverse=True)
    assert order[2] is Category.FLUSH and order[3] is Category.FULL_HOUSE


def test_r_rank_6p_3_ace_six_seven_eight_nine_is_lowest_straight() -> None:
    low = s(R.SIX_PLUS, "Ah 6d 7c 8s 9h")
    assert category(R.SIX_PLUS, low) is Category.STRAIGHT
    assert describe(R.SIX_PLUS, low) == "Straight, Nine high"
    assert low < s(R.SIX_PLUS, "6d 7c 8s 9h Th")
    assert cat(R.SIX_PLUS, "Kh Ad 6c 7s 8h") is Category.HIGH_CARD  # no wrap-around K-A-6-7-8
    assert cat(R.SIX_PLUS, "Ah 6h 7h 8h 9h") is Category.STRAIGHT_FLUSH


def test_r_rank_6p_1_deuces_to_fives_are_not_in_the_deck() -> None:
    with pytest.raises(HandError, match="not in the Six Plus"):
        evaluate5(R.SIX_PLUS, parse_cards("5h 6d 7c 8s 9h"))


def test_phh_ns_short_deck_reading_straight_beats_trips() -> None:
    assert s(R.SHORT_DECK_PHH, "Ah Kd Qc Js Th") > s(R.SHORT_DECK_PHH, "8s 8h 8d Kc 6s")
    assert s(R.SHORT_DECK_PHH, "Kh 9h 8h 7h 6h") > s(R.SHORT_DECK_PHH, "As Ah Ad Kc Ks")


def test_r_rank_32_2_and_3_americana_order() -> None:
    low = s(R.THIRTY_TWO, "Ah 7d 8c 9s Th")
    assert category(R.THIRTY_TWO, low) is Category.STRAIGHT
    assert low < s(R.THIRTY_TWO, "7d 8c 9s Th Jh")
    assert cat(R.THIRTY_TWO, "Ah 7h 8h 9h Th") is Category.STRAIGHT_FLUSH
    assert s(R.THIRTY_TWO, "Kh Jh 9h 8h 7h") > s(R.THIRTY_TWO, "As Ah Ad Kc Ks")  # R-RANK-32-3
    assert s(R.THIRTY_TWO, "7s 7h 7d 7c 8s") > s(R.THIRTY_TWO, "Ah Kh Qh Jh 9h")


def test_r_rank_32_9_americana_splits_identical_hands() -> None:
    assert s(R.THIRTY_TWO, "Ah Kd Qc Js 9h") == s(R.THIRTY_TWO, "As Kc Qd Jh 9c")


@pytest.mark.parametrize(
    ("winner", "loser", "rule"),
    [
        ("Ah Kh Qh Jh Th", "Ad Kd Qd Jd Td", "royal flush: higher suit (hearts > diamonds)"),
        ("Ad Kd Qd Jd Td", "Ac Kc Qc Jc Tc", "royal flush: diamonds > clubs"),
        ("Ac Kc Qc Jc Tc", "As Ks Qs Js Ts", "royal flush: clubs > spades"),
        ("Kc Qc Jc Tc 9c", "Qh Jh Th 9h 8h", "straight flush: higher top card first"),
        ("Kh Qh Jh Th 9h", "Kc Qc Jc Tc 9c", "straight flush: equal top card, higher suit"),
        ("Ah Jh 9h 8h 7h", "Ad Jd 9d 8d 7d", "flush: all five ranks equal, higher suit"),
        ("Ah Kh Qh Jh 9h", "Ac Kc Qc Jc 8c", "flush: ranks before suit"),
        ("Ah Kc Qs Js Ts", "Ad Kh Qh Jh Th", "straight: equal top card, suit of the top card"),
        ("Ks Kc 9s 9c 8h", "Kh Kd 9h 9d 8d", "two pairs: equal pairs and kicker, kicker's suit"),
        ("Qs Qc Kh 9s 8s", "Qh Qd Kd 9h 8h", "one pair: equal kickers, suit of the highest kicker"),
        ("Ah Qs Js 9s 8s", "Ad Qh Jh 9h 8h", "high card: equal ranks, suit of the highest card"),
        ("Ks Kc Ts Tc 8s", "Kh Kd 9h 9d 8d", "two pairs: higher second pair before suits"),
        ("9s 9c 9d 9h 7s", "8h 8d 8c 8s Ah", "four of a kind: the higher-ranked four (Reading), not suits"),
        ("Js Jc Jd 7s 7c", "Th Td Tc Ah Ad", "full house: the higher three of a kind"),
        ("Qs Qc Qd 8s 7c", "Jh Jd Jc Ah Kd", "three of a kind: the higher three of a kind"),
        ("Ks Kc 8h 7d 9s", "Qh Qd Ah Kd Jh", "one pair: the higher pair before kickers and suits"),
    ],
)
def test_r_rank_32_7_suit_tie_breaks(winner: str, loser: str, rule: str) -> None:
    assert s(R.THIRTY_TWO_SUITED, winner) > s(R.THIRTY_TWO_SUITED, loser), rule


def test_r_rank_32_6_suited_never_equal_but_americana_equal() -> None:
    a, b = "Ah Kc Qs Js Ts", "Ad Kh Qh Jh Th"
    assert s(R.THIRTY_TWO, a) == s(R.THIRTY_TWO, b)
    assert s(R.THIRTY_TWO_SUITED, a) != s(R.THIRTY_TWO_SUITED, b)
    assert describe(R.THIRTY_TWO_SUITED, s(R.THIRTY_TWO_SUITED, a)) == "Straight, Ace high"


def test_r_rank_soko_1_four_flush_and_four_straight_between_two_pair_and_pair() -> None:
    two_pair = s(R.SOKO, "2s 2h 3d 3c 7s")
    four_flush = s(R.SOKO, "9h 7h 5h 3h Kc")
    four_straight = s(R.SOKO, "Ah Kd Qc Js 3h")
    pair = s(R.SOKO, "As Ah Kd Qc 9s")
    assert two_pair > four_flush > four_straight > pair
    assert describe(R.SOKO, four_flush) == "4-Flush, Nine high"
    assert describe(R.SOKO, s(R.SOKO, "Ah 9h 7h 5h 2c")) == "4-Flush, Ace high"
    assert describe(R.SOKO, four_straight) == "4-Straight, Ace high"


def test_r_rank_soko_3_tie_breaks_and_ace_in_four_straights() -> None:
    # 4-Flush: the four suited cards high to low, then the fifth card
    assert s(R.SOKO, "Kh 9h 5h 3h 2c") > s(R.SOKO, "Ks 9s 5s 2s Ac")
    assert s(R.SOKO, "Kh 9h 5h 3h Qc") > s(R.SOKO, "Ks 9s 5s 3s Jc")
    # 4-Straight: top card of the four, then the fifth card
    assert s(R.SOKO, "9h 8d 7c 6s 2h") > s(R.SOKO, "8h 7d 6c 5s Kh")
    assert s(R.SOKO, "9h 8d 7c 6s Kh") > s(R.SOKO, "9s 8c 7d 6h Qh")
    # A-2-3-4 and J-Q-K-A are 4-Straights; K-A-2-3 is not
    assert cat(R.SOKO, "Ah 2d 3c 4s 9h") is Category.FOUR_STRAIGHT
    assert describe(R.SOKO, s(R.SOKO, "Ah 2d 3c 4s 9h")) == "4-Straight, Four high"
    assert cat(R.SOKO, "Jh Qd Kc As 5h") is Category.FOUR_STRAIGHT
    assert cat(R.SOKO, "Kh Ad 2c 3s 8h") is Category.HIGH_CARD
    # both a 4-Flush and a 4-Straight: counts as the 4-Flush
    assert cat(R.SOKO, "9h 8h 7h 6h Kc") is Category.FOUR_FLUSH
    # a 4-Flush with a pair is a 4-Flush; a 4-Straight with a pair is a 4-Straight
    assert cat(R.SOKO, "Kh 9h 5h 3h Kc") is Category.FOUR_FLUSH
    assert cat(R.SOKO, "9h 8d 7c 6s 6h") is Category.FOUR_STRAIGHT
    # the standard hands keep their places
    assert cat(R.SOKO, "9h 8d 7c 6s 5h") is Category.STRAIGHT
    assert cat(R.SOKO, "9h 8h 7h 6h 2h") is Category.FLUSH


def test_r_low_8b_1_qualifier() -> None:
    assert evaluate5(R.LOW_8B, parse_cards("8h 7d 5c 3s Ah")) is not None
    assert evaluate5(R.LOW_8B, parse_cards("9h 7d 5c 3s Ah")) is None  # a card above 8
    assert evaluate5(R.LOW_8B, parse_cards("7h 7d 5c 3s Ah")) is None  # a pair
    assert best_hand(R.LOW_8B, parse_cards("9h 7d 7c 3s Ah Kd Qc")) is None


def test_r_low_8b_2_straights_and_flushes_do_not_count() -> None:
    wheel = s(R.LOW_8B, "5h 4h 3h 2h Ah")
    assert wheel == s(R.LOW_8B, "5d 4c 3s 2h Ah")
    assert all(wheel > s(R.LOW_8B, h) for h in ("6h 4d 3c 2s Ah", "8h 7d 6c 5s 4h"))
    assert describe(R.LOW_8B, wheel) == "Five-Four low"


def test_r_low_8b_3_compare_from_the_highest_card() -> None:
    a = s(R.LOW_8B, "7h 5d 4c 2s Ah")
    b = s(R.LOW_8B, "8h 4d 3c 2s Ah")
    assert a > b
    assert describe(R.LOW_8B, b) == "Eight-Four low"
    assert s(R.LOW_8B, "8h 6d 4c 2s Ah") > s(R.LOW_8B, "8h 7d 3c 2s Ah")  # next-highest card decides
    assert describe(R.LOW_8B, s(R.LOW_8B, "8h 7d 3c 2s Ah")) == "Eight-Seven low"


def test_r_low_razz_1_lowest_hand_and_ace_low() -> None:
    assert s(R.LOW_A5, "6h 5d 4c 3s 2h") > s(R.LOW_A5, "7h 5d 4c 3s 2h")
    best = best_hand(R.LOW_A5, parse_cards("Kh Kd 5c 4s 3h 2d Ac"))
    assert best is not None and best.label == "Five-Four low"
    assert [str(c) for c in best.cards] == ["5c", "4s", "3h", "2d", "Ac"]
    assert s(R.LOW_A5, "Ah 2d 3c 4s 5h") == s(R.LOW_A5, "Ah 2h 3h 4h 5h")  # no straights or flushes


def test_r_low_razz_2_unpaired_beats_paired_and_paired_hands_compare_low() -> None:
    assert s(R.LOW_A5, "Kh Qd Jc Ts 9h") > s(R.LOW_A5, "Ah Ad 2c 3s 4h")
    assert s(R.LOW_A5, "Ah Ad 2c 3s 4h") > s(R.LOW_A5, "2h 2d 3c 4s 5h")  # pair of aces is the lowest pair
    assert s(R.LOW_A5, "2h 2d 3c 4s 5h") > s(R.LOW_A5, "2h 2d 3c 3s 4h")  # one pair beats two pair
    assert describe(R.LOW_A5, s(R.LOW_A5, "Ah Ad 2c 3s 4h")) == "One Pair, Aces"


def test_r_low_27_1_deuce_to_seven() -> None:
    number_one = s(R.LOW_27, "7h 5d 4c 3s 2h")
    assert describe(R.LOW_27, number_one) == "Seven-Five low"
    assert number_one > s(R.LOW_27, "7h 6d 4c 3s 2h") > s(R.LOW_27, "8h 5d 4c 3s 2h")
    ace_high = s(R.LOW_27, "Ah 2d 3c 4s 5h")  # not a straight: an ace-high hand with no pair
    assert category(R.LOW_27, ace_high) is Category.HIGH_CARD
    assert describe(R.LOW_27, ace_high) == "Ace-Five low"
    assert s(R.LOW_27, "Kh Qd Jc Ts 8h") > ace_high > s(R.LOW_27, "2h 3d 4c 5s 6h")  # 2-6 straight counts
    assert s(R.LOW_27, "8h 6d 5c 4s 3h") > s(R.LOW_27, "7s 5s 4s 3s 2s")  # a flush counts against
    assert s(R.LOW_27, "Ah Kd Qc Js 9h") > s(R.LOW_27, "2h 2d 3c 4s 5h")  # any unpaired beats any pair


def test_r_low_27_2_exact_ties_split() -> None:
    assert s(R.LOW_27, "7h 5d 4c 3s 2h") == s(R.LOW_27, "7d 5c 4s 3h 2c")


def test_describe_rejects_foreign_strengths() -> None:
    with pytest.raises(HandError):
        describe(R.HIGH, 0)
    with pytest.raises(HandError):
        describe("nonsense", 5)


def test_r_rank_6p_2_real_hand_phua_xuan_2019_depends_on_the_reading() -> None:
    """/work/shared/phh/phua-xuan-2019.phh (PHH "NS"): QhQd vs KhKs on 9h 6c Kc Jh Ts. Xuan's straight beats the
    set of kings under PHH's reading; under RULES.md Six Plus (R-RANK-6P-2) three of a kind beats the straight."""
    board = p("9h 6c Kc Jh Ts")
    xuan, phua = p("Qh Qd"), p("Kh Ks")
    x_phh, k_phh = best_hand(R.SHORT_DECK_PHH, xuan, board), best_hand(R.SHORT_DECK_PHH, phua, board)
    assert x_phh is not None and k_phh is not None and x_phh > k_phh
    assert x_phh.label == "Straight, King high" and k_phh.label == "Three of a Kind, Kings"
    x_6p, k_6p = best_hand(R.SIX_PLUS, xuan, board), best_hand(R.SIX_PLUS, phua, board)
    assert x_6p is not None and k_6p is not None and k_6p > x_6p
