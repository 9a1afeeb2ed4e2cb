"""Differential test against PokerKit: for random hands, our strengths order every compared pair exactly as
PokerKit's hand objects do (rules R-CARD-4/-5, R-LOW-8B, R-LOW-RAZZ, R-LOW-27, R-OMAHA-3 and PHH's NS short deck).

Both sides are total preorders, so checking every adjacent pair of the list sorted by our strength (strictly less
where ours is less, equal where ours is equal) proves the two orders agree on all pairs of the sample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pokerkit as pk
import pytest

from riverboat.cards import DECK_36, DECK_52, Card
from riverboat.evaluate import CardUse, Ranking, best_hand
from riverboat.evaluate.batch import evaluate_batch

pytestmark = pytest.mark.slow

N_FIVE = 100_000


def text(cards: Sequence[int]) -> str:
    return "".join(str(Card(c)) for c in cards)


def assert_same_order(ours: Sequence[int], theirs: Sequence[pk.Hand | None]) -> int:
    """Check adjacent pairs in our order; ``None`` (no qualifying hand) must be exactly our strength 0."""
    for s, h in zip(ours, theirs, strict=True):
        assert (s == 0) == (h is None)
    idx = [i for i in np.argsort(np.asarray(ours), kind="stable").tolist() if ours[i] > 0]
    checked = 0
    for a, b in zip(idx, idx[1:], strict=False):
        ha, hb = theirs[a], theirs[b]
        assert ha is not None and hb is not None
        if ours[a] == ours[b]:
            assert not ha < hb and not hb < ha, (ha, hb)
        else:
            assert ha < hb, (ha, hb, ours[a], ours[b])
        checked += 1
    return checked


PK_CARDS = [pk.Card.clean(str(Card(c)))[0] for c in range(52)]


def pokerkit_keys(cls: type[pk.Hand], hands: list[list[int]]) -> list[int | None]:
    """PokerKit's own lookup entry for each five-card hand, as an int where higher is better (PokerKit's
    ``Hand.__lt__`` reverses the entry order for low hands); None where PokerKit has no entry (no qualifying low)."""
    lookup = cls.lookup
    sign = -1 if cls.low else 1
    out: list[int | None] = []
    for h in hands:
        try:
            out.append(sign * lookup.get_entry([PK_CARDS[c] for c in h]).index)
        except ValueError:
            out.append(None)
    return out


def assert_same_int_order(ours: Sequence[int], theirs: Sequence[int | None]) -> int:
    """Vectorised :func:`assert_same_order` for integer keys."""
    a = np.asarray(ours, dtype=np.int64)
    none = np.array([t is None for t in theirs])
    assert ((a == 0) == none).all()
    b = np.array([0 if t is None else t for t in theirs], dtype=np.int64)[~none]
    a = a[~none]
    order = np.argsort(a, kind="stable")
    da, db = np.diff(a[order]), np.diff(b[order])
    assert ((da == 0) == (db == 0)).all()
    assert (db[da > 0] > 0).all()
    return int(da.size)


def five_card_hands(deck: Sequence[int], n: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    d = [int(c) for c in deck]
    return np.array([rng.sample(d, 5) for _ in range(n)], dtype=np.int64)


def make(cls: type[pk.Hand]) -> Callable[[str], pk.Hand | None]:
    def build(cards: str) -> pk.Hand | None:
        try:
            return cls(cards)
        except ValueError:  # PokerKit refuses a hand that does not qualify (8-or-better)
            return None

    return build


@pytest.mark.parametrize(
    ("ranking", "cls", "deck", "seed"),
    [
        (Ranking.HIGH, pk.StandardHighHand, DECK_52, 1),
        (Ranking.SHORT_DECK_PHH, pk.ShortDeckHoldemHand, DECK_36, 2),
        (Ranking.LOW_8B, pk.EightOrBetterLowHand, DECK_52, 3),
        (Ranking.LOW_A5, pk.RegularLowHand, DECK_52, 4),
        (Ranking.LOW_27, pk.StandardLowHand, DECK_52, 5),
    ],
)
def test_five_card_order_matches_pokerkit(
    ranking: Ranking, cls: type[pk.Hand], deck: object, seed: int
) -> None:
    hands = five_card_hands(deck, N_FIVE, seed)  # type: ignore[arg-type]
    if ranking is Ranking.LOW_8B:
        # most random hands have no low; mix in hands drawn from A..8 so the qualifying order is exercised
        low_cards = [c for c in range(52) if (c >> 2) <= 6 or (c >> 2) == 12]
        hands = np.concatenate([hands[: N_FIVE // 2], five_card_hands(low_cards, N_FIVE // 2, seed + 100)])
    ours = evaluate_batch(ranking, hands).tolist()
    rows = hands.tolist()
    assert assert_same_int_order(ours, pokerkit_keys(cls, rows)) > N_FIVE // 20
    # PokerKit's Hand objects agree with the entry keys used above (on a sample; they are slow)
    build = make(cls)
    pick = list(range(750)) + list(range(len(rows) - 750, len(rows)))
    assert assert_same_order([ours[i] for i in pick], [build(text(rows[i])) for i in pick]) > 50


def test_seven_card_holdem_order_matches_pokerkit() -> None:
    rng = random.Random(7)
    rows = [rng.sample(range(52), 7) for _ in range(3000)]
    ours = evaluate_batch(Ranking.HIGH, np.array(rows)).tolist()
    theirs: list[pk.Hand | None] = [pk.StandardHighHand.from_game(text(r[:2]), text(r[2:])) for r in rows]
    assert assert_same_order(ours, theirs) > 1000


@pytest.mark.parametrize(
    ("ranking", "cls", "seed"),
    [(Ranking.HIGH, pk.OmahaHoldemHand, 8), (Ranking.LOW_8B, pk.OmahaEightOrBetterLowHand, 9)],
)
def test_omaha_order_matches_pokerkit(ranking: Ranking, cls: type[pk.Hand], seed: int) -> None:
    rng = random.Random(seed)
    deck = (
        list(range(52))
        if ranking is Ranking.HIGH
        else [c for c in range(52) if (c >> 2) <= 8 or c >> 2 == 12]
    )
    ours: list[int] = []
    theirs: list[pk.Hand | None] = []
    for _ in range(1500):
        cards = rng.sample(deck, 9)
        hole, board = cards[:4], cards[4:]
        v = best_hand(ranking, hole, board, CardUse.OMAHA)
        ours.append(0 if v is None else v.strength)
        try:
            theirs.append(cls.from_game(text(hole), text(board)))
        except ValueError:
            theirs.append(None)
    assert assert_same_order(ours, theirs) > 500
