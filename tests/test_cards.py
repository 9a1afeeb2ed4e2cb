"""Cards and decks: R-CARD-1 (52 cards), R-RANK-6P-1 (36), R-RANK-32-1 (32), parsing and CSPRNG shuffling."""

import random
import secrets

import pytest

from riverboat.cards import (
    ALL_CARDS,
    DECK_32,
    DECK_36,
    DECK_52,
    Card,
    CardError,
    Deck,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)


def test_r_card_1_standard_deck_has_52_distinct_cards_13_ranks_4_suits():
    assert len(DECK_52) == 52
    assert len(set(DECK_52.cards)) == 52
    assert {c.rank for c in DECK_52} == set(Rank)
    assert {c.suit for c in DECK_52} == set(Suit)


def test_r_rank_6p_1_six_plus_deck_is_6_to_ace():
    assert len(DECK_36) == 36
    assert min(c.rank for c in DECK_36) == Rank.SIX
    assert parse_card("5h") not in DECK_36 and parse_card("6h") in DECK_36


def test_r_rank_32_1_32_card_deck_is_7_to_ace():
    assert len(DECK_32) == 32
    assert sorted({c.rank.char for c in DECK_32}) == sorted("789TJQKA")


@pytest.mark.parametrize(
    "text",
    ["Ah Td 9c", "AhTd9c", "ah td 9C", "  Ah,  10d 9c ", "AH10D9C", "[Ah Td] 9c"],
)
def test_parsing_is_tolerant_of_case_spacing_and_10(text):
    assert format_cards(parse_cards(text)) == "Ah Td 9c"


def test_card_roundtrip_all_52():
    for c in ALL_CARDS:
        assert parse_card(str(c)) == c
        assert Card.of(c.rank, c.suit) == c
        assert Card(int(c)) is c


@pytest.mark.parametrize("text,bad", [("Ax", "Ax"), ("Ah 1c", "1c"), ("Zz", "Zz"), ("AhK", "K")])
def test_bad_tokens_raise_naming_the_token(text, bad):
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert bad in str(err.value)


def test_duplicates_are_refused_unless_allowed():
    with pytest.raises(CardError, match="duplicate card: Ah"):
        parse_cards("Ah Kd ah")
    assert len(parse_cards("Ah Ah", allow_duplicates=True)) == 2


def test_card_not_in_deck_is_refused():
    with pytest.raises(CardError, match="not in the 32-card deck: 6h"):
        DECK_32.parse("Ah 6h")
    with pytest.raises(CardError, match="not in the Six Plus 36-card deck: 2c"):
        DECK_36.validate(parse_cards("2c"))


def test_shuffle_uses_injected_rng_reproducibly_and_is_a_permutation():
    a = DECK_52.shuffled(random.Random(7))
    b = DECK_52.shuffled(random.Random(7))
    assert a == b
    assert sorted(a) == sorted(DECK_52.cards)
    assert a != list(DECK_52.cards)


def test_default_shuffle_is_csprng(monkeypatch):
    calls = []
    orig = secrets.SystemRandom.shuffle

    def spy(self, x):
        calls.append(type(self))
        return orig(self, x)

    monkeypatch.setattr(secrets.SystemRandom, "shuffle", spy)
    order = Deck("t", DECK_36.cards).shuffled()
    assert calls == [secrets.SystemRandom]
    assert sorted(order) == sorted(DECK_36.cards)
