"""Badugi (PHH ``FB``, riverboat.evaluate.badugi): exhaustive counts computed independently, and PokerKit's
``BadugiHand`` as the oracle for the order. Badugi is not in RULES.md; it exists so that the PHH corpus's badugi hand
replays (docs/phh-variants.md)."""

from __future__ import annotations

import itertools
import random
from math import comb, factorial

import pytest

from riverboat.cards import Card, parse_cards
from riverboat.evaluate import HandError, Ranking, best_hand, category, describe, evaluate5
from riverboat.evaluate.badugi import badugi_best
from riverboat.evaluate.base import Category


def _codes(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def test_phh_fb_exhaustive_counts_over_every_four_card_hand():
    """All C(52,4) = 270,725 hands: 13C4 * 4! = 17,160 are four-card badugis (four ranks, four suits), and the
    distinct strengths are every rank set of 1 to 4 different ranks: 13C1 + 13C2 + 13C3 + 13C4 = 1,092."""
    sizes = {1: 0, 2: 0, 3: 0, 4: 0}
    strengths = set()
    for hand in itertools.combinations(range(52), 4):
        s, used = badugi_best(hand)
        sizes[len(used)] += 1
        strengths.add(s)
    assert sum(sizes.values()) == comb(52, 4)
    assert sizes[4] == comb(13, 4) * factorial(4)
    assert len(strengths) == sum(comb(13, k) for k in range(1, 5))
    # one-card hands: four cards of one rank (13) or four of one suit (13C4 per suit), counted independently
    assert sizes[1] == 13 + 4 * comb(13, 4)


def test_phh_fb_order_matches_pokerkit_badugihand():
    """Same order as PokerKit's BadugiHand (ace-to-five) on 3,000 seeded random pairs of 4-card hands."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(20261203)
    names = [str(Card(c)) for c in range(52)]
    deck = list(range(52))
    for _ in range(3000):
        cards = rng.sample(deck, 8)
        a, b = cards[:4], cards[4:]
        ours = (best_hand(Ranking.BADUGI, a).strength > best_hand(Ranking.BADUGI, b).strength) - (
            best_hand(Ranking.BADUGI, a).strength < best_hand(Ranking.BADUGI, b).strength)
        ha = pokerkit.BadugiHand.from_game("".join(names[c] for c in a))
        hb = pokerkit.BadugiHand.from_game("".join(names[c] for c in b))
        theirs = (ha > hb) - (ha < hb)
        assert ours == theirs, (names_of(a, names), names_of(b, names))


def names_of(cards: list[int], names: list[str]) -> str:
    return " ".join(names[c] for c in cards)


def test_phh_fb_labels_and_the_corpus_showdown():
    """The corpus hand's showdown: Carol's 8-7-5-3 badugi beats Alice's 9-6-4-2 (lower top card wins); a four-card
    badugi beats any three-card hand; aces are low."""
    carol = best_hand("badugi", _codes("3s 5d 7c 8h"))
    alice = best_hand("badugi", _codes("2s 4c 6d 9h"))
    assert carol > alice
    assert carol.label == "Badugi, 8-7-5-3" and alice.label == "Badugi, 9-6-4-2"
    three = best_hand("badugi", _codes("As 2s 3h 4d"))  # two spades: best is A-3-4 (or 2-3-4), three cards
    assert three.label == "Three-card, 4-3-A" and alice > three
    assert best_hand("badugi", _codes("Kc Qd Jh Ts")) > three
    wheel = best_hand("badugi", _codes("Ac 2d 3h 4s"))
    assert wheel.label == "Badugi, 4-3-2-A" and wheel > carol
    assert category("badugi", wheel.strength) is Category.HIGH_CARD
    assert describe("badugi", wheel.strength) == wheel.label


def test_phh_fb_bad_input_is_refused():
    """Five cards, Omaha card use, the five-card entry point and a non-strength are refused with HandError."""
    with pytest.raises(HandError):
        best_hand("badugi", _codes("Ac 2d 3h 4s 5c"))
    with pytest.raises(HandError):
        best_hand("badugi", _codes("Ac 2d"), _codes("3h 4s 5c"), use="omaha")
    with pytest.raises(HandError):
        evaluate5("badugi", _codes("Ac 2d 3h 4s 5c"))
    with pytest.raises(HandError):
        describe("badugi", 5 << 20)
    with pytest.raises(HandError):
        best_hand("badugi", [48, 48])  # the same card twice
