"""Card-use rules: Hold'em best five of seven and playing the board (R-HOLDEM-10), Omaha exactly two hole cards and
three board cards (R-OMAHA-3, R-OMAHA5-1), independent high and low choices (R-LOW-8B-4), partial stud hands,
and bad input (clear error, nothing changed)."""

from __future__ import annotations

import pytest

from riverboat.cards import parse_cards as p
from riverboat.evaluate import Card, CardUse, Category, HandError, Ranking, best_hand, category, evaluate5


def test_r_omaha_3_four_spades_on_board_and_one_in_hand_is_not_a_flush() -> None:
    v = best_hand(Ranking.HIGH, p("9s 8h 7c 6d"), p("As Ks Qs Js 2d"), CardUse.OMAHA)
    assert v is not None
    assert category(Ranking.HIGH, v.strength) is not Category.FLUSH
    # the same cards under Hold'em-style use (any five) make the royal-less flush
    any_use = best_hand(Ranking.HIGH, p("9s 8h 7c 6d"), p("As Ks Qs Js 2d"))
    assert any_use is not None and any_use.label == "Flush, Ace high"


def test_r_omaha_3_exactly_two_hole_cards_even_with_four_of_a_kind_in_hand() -> None:
    v = best_hand(Ranking.HIGH, p("Ah Ad Ac As"), p("Kh Qd 7c 5s 2d"), CardUse.OMAHA)
    assert v is not None and v.label == "One Pair, Aces"
    assert sum(1 for c in v.cards if c in p("Ah Ad Ac As")) == 2


def test_r_omaha_3_board_straight_needs_two_hole_cards() -> None:
    v = best_hand(Ranking.HIGH, p("2c 2d 3h 3s"), p("9h Td Jc Qs Kd"), CardUse.OMAHA)
    assert (
        v is not None and v.label == "One Pair, Threes"
    )  # a pocket pair plus K-Q-J, never the board straight
    assert [str(c) for c in v.cards] == ["3s", "3h", "Kd", "Qs", "Jc"]


def test_r_omaha5_1_five_hole_cards_still_use_exactly_two() -> None:
    v = best_hand(Ranking.HIGH, p("Ah Kh 2c 3d 4s"), p("Qh Jh Th 5c 6d"), CardUse.OMAHA)
    assert v is not None and v.label == "Royal Flush"
    w = best_hand(Ranking.HIGH, p("Ah 7c 2c 3d 4s"), p("Qh Jh Th Kh 6d"), CardUse.OMAHA)
    assert w is not None and category(Ranking.HIGH, w.strength) is not Category.STRAIGHT_FLUSH


def test_r_holdem_10_playing_the_board() -> None:
    v = best_hand(Ranking.HIGH, p("2c 3d"), p("Ah Kh Qh Jh Th"))
    assert v is not None and v.label == "Royal Flush"
    assert set(v.cards) == set(p("Ah Kh Qh Jh Th"))
    a = best_hand(Ranking.HIGH, p("2c 3d"), p("As Ks Qd Jd Tc"))
    b = best_hand(Ranking.HIGH, p("4c 5d"), p("As Ks Qd Jd Tc"))
    assert a == b  # both play the board straight: a split


def test_r_holdem_10_one_hole_card() -> None:
    v = best_hand(Ranking.HIGH, p("Ah 2c"), p("Kh Qh Jh 7h 3d"))
    assert v is not None and v.label == "Flush, Ace high"
    assert p("Ah")[0] in v.cards and p("2c")[0] not in v.cards


def test_r_low_8b_4_high_and_low_chosen_independently_in_omaha() -> None:
    hole, board = p("Ah 2h Ks Kd"), p("3c 4d 8h Kc 9h")
    high = best_hand(Ranking.HIGH, hole, board, CardUse.OMAHA)
    low = best_hand(Ranking.LOW_8B, hole, board, CardUse.OMAHA)
    assert high is not None and high.label == "Three of a Kind, Kings"
    assert low is not None and low.label == "Eight-Four low"
    assert set(low.cards) & set(p("Ah 2h")) == set(p("Ah 2h"))


def test_r_stud_8_best_five_of_seven_and_hand_value_order() -> None:
    a = best_hand(Ranking.HIGH, p("As Ad 7c 7h 2d 5s 9c"))
    b = best_hand(Ranking.HIGH, p("Ks Kd Kc 3h 2h 5c 9s"))
    assert a is not None and b is not None
    assert b > a and a < b and a != b
    assert a.label == "Two Pair, Aces and Sevens"
    assert [str(c) for c in a.cards] == ["As", "Ad", "7h", "7c", "9c"]
    assert all(isinstance(c, Card) for c in a.cards)


def test_partial_stud_hand_counts_pairs_not_straights() -> None:
    v = best_hand(Ranking.HIGH, p("Kh Kd 5c"))
    assert v is not None and v.label == "One Pair, Kings" and len(v.cards) == 3
    w = best_hand(Ranking.HIGH, p("9h Td Jc Qs"))
    assert w is not None and w.label == "High Card, Queen high"
    assert v > w
    assert best_hand(Ranking.LOW_8B, p("Ah 2d 3c")) is None
    razz = best_hand(Ranking.LOW_A5, p("Ah 2d 3c 4s"))
    assert razz is not None and razz.strength > best_hand(Ranking.LOW_A5, p("Ah Ad 3c 4s")).strength  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: best_hand(Ranking.HIGH, p("Ah Kh"), p("Ah Qd 2c 3c 4c")), "duplicate"),
        (lambda: best_hand(Ranking.HIGH, [60, 1], [2, 3, 4]), "not a card"),
        (lambda: best_hand(Ranking.HIGH, p("Ah Kh Qh Jh"), p("2c 3c"), CardUse.OMAHA), "Omaha needs"),
        (lambda: best_hand("kuhn", p("Ah Kh")), "unknown ranking"),
        (lambda: best_hand(Ranking.HIGH, p("Ah Kh"), (), "texas"), "unknown card use"),
        (lambda: best_hand(Ranking.THIRTY_TWO, p("Ah 6h"), p("Kh Qh Jh")), "not in the 32-card"),
        (lambda: evaluate5(Ranking.HIGH, p("Ah Kh Qh Jh")), "exactly 5"),
        (lambda: best_hand(Ranking.HIGH, ()), "no cards"),
    ],
)
def test_bad_input_raises_clear_error(call: object, match: str) -> None:
    with pytest.raises(HandError, match=match):
        call()  # type: ignore[operator]


def test_bad_input_leaves_input_unchanged() -> None:
    hole = p("Ah Kh")
    board = p("Ah Qd 2c 3c 4c")
    with pytest.raises(HandError):
        best_hand(Ranking.HIGH, hole, board)
    assert hole == p("Ah Kh") and board == p("Ah Qd 2c 3c 4c")


def test_hand_values_of_different_rankings_do_not_compare() -> None:
    a = best_hand(Ranking.HIGH, p("Ah Kh Qh Jh Th"))
    b = best_hand(Ranking.LOW_27, p("7h 5d 4c 3s 2h"))
    with pytest.raises(TypeError):
        _ = a < b  # type: ignore[operator]


@pytest.mark.parametrize(
    ("ranking", "cards", "shown", "label"),
    [
        (Ranking.HIGH, "2s Ah 4d 3c 5h Kd 9c", "5h 4d 3c 2s Ah", "Straight, Five high"),
        (Ranking.SIX_PLUS, "9s Ah 7d 6c 8h Kd Jc", "9s 8h 7d 6c Ah", "Straight, Nine high"),
        (Ranking.HIGH, "6s 6h Qd Qc Qh 2c 3d", "Qh Qd Qc 6s 6h", "Full House, Queens over Sixes"),
        (Ranking.SOKO, "2h 9h Ah 5h Kc", "Ah 9h 5h 2h Kc", "4-Flush, Ace high"),
        (Ranking.LOW_8B, "8h 7d 3c 2s Ah Kd Kc", "8h 7d 3c 2s Ah", "Eight-Seven low"),
    ],
)
def test_r_card_2_hand_value_shows_the_five_cards_used_in_display_order(
    ranking: Ranking, cards: str, shown: str, label: str
) -> None:
    v = best_hand(ranking, p(cards))
    assert v is not None
    assert [str(c) for c in v.cards] == shown.split()
    assert v.label == label
