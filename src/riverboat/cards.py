"""Cards, ranks, suits and decks (R-CARD-1, R-RANK-6P-1, R-RANK-32-1).

A card is a small integer code, ``rank_index * 4 + suit_index``, so that evaluators and numpy batches work on plain
ints. ``rank_index`` runs 0..12 for 2..A, ``suit_index`` 0..3 for clubs, diamonds, hearts, spades (this happens to be
the R-SUIT-1 bring-in order, weakest first). :class:`Card` is an ``int`` subclass that prints as ``"Ah"``.

Parsing is tolerant of case and spacing and accepts ``10`` for ``T``: ``parse_cards("Ah Td 9c")``,
``parse_cards("AhTd9c")``, ``parse_cards("10h, ad")``. Bad input raises :class:`CardError` naming the bad token.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Protocol

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"


class CardError(ValueError):
    """A card string or card collection is invalid; the message names the offending token."""


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]

    @property
    def value_high(self) -> int:
        """Face value with the ace high: 2..14."""
        return int(self) + 2

    @property
    def value_low(self) -> int:
        """Face value with the ace low (A-5 games): 1..13."""
        return 1 if self is Rank.ACE else int(self) + 2

    @property
    def singular(self) -> str:
        return _RANK_NAMES[self][0]

    @property
    def plural(self) -> str:
        return _RANK_NAMES[self][1]


_RANK_NAMES = {
    Rank.TWO: ("Deuce", "Deuces"),
    Rank.THREE: ("Three", "Threes"),
    Rank.FOUR: ("Four", "Fours"),
    Rank.FIVE: ("Five", "Fives"),
    Rank.SIX: ("Six", "Sixes"),
    Rank.SEVEN: ("Seven", "Sevens"),
    Rank.EIGHT: ("Eight", "Eights"),
    Rank.NINE: ("Nine", "Nines"),
    Rank.TEN: ("Ten", "Tens"),
    Rank.JACK: ("Jack", "Jacks"),
    Rank.QUEEN: ("Queen", "Queens"),
    Rank.KING: ("King", "Kings"),
    Rank.ACE: ("Ace", "Aces"),
}


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


class Card(int):
    """A playing card; an ``int`` in 0..51 (``rank * 4 + suit``) that prints as e.g. ``"Ah"``."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if not 0 <= int(value) < 52:
            raise CardError(f"card code out of range: {value!r}")
        return _CARDS[int(value)] if _CARDS else super().__new__(cls, value)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return _CARDS[int(rank) * 4 + int(suit)]

    @property
    def rank(self) -> Rank:
        return Rank(int(self) >> 2)

    @property
    def suit(self) -> Suit:
        return Suit(int(self) & 3)

    def __str__(self) -> str:
        return RANK_CHARS[int(self) >> 2] + SUIT_CHARS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"


_CARDS: list[Card] = []
_CARDS.extend(int.__new__(Card, i) for i in range(52))
ALL_CARDS: tuple[Card, ...] = tuple(_CARDS)

_TOKEN_RE = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;\[\]\(\)]+")


def parse_card(text: str) -> Card:
    """Parse one card such as ``"Ah"``, ``"td"``, ``"10s"``."""
    token = text.strip()
    m = _TOKEN_RE.fullmatch(token)
    if m is None:
        raise CardError(f"not a card: {text!r}")
    rank_txt = m.group(1).upper()
    rank = 8 if rank_txt == "10" else RANK_CHARS.index(rank_txt)
    return _CARDS[rank * 4 + SUIT_CHARS.index(m.group(2).lower())]


def parse_cards(text: str | Iterable[str | int], *, allow_duplicates: bool = False) -> list[Card]:
    """Parse ``"Ah Td 9c"``, ``"AhTd9c"``, ``"ah, 10d"`` or an iterable of tokens/codes into cards.

    Duplicates are an error unless ``allow_duplicates``.
    """
    cards: list[Card] = []
    if isinstance(text, str):
        for chunk in _SEPARATORS.split(text.strip()):
            if not chunk:
                continue
            pos = 0
            while pos < len(chunk):
                m = _TOKEN_RE.match(chunk, pos)
                if m is None:
                    bad = chunk[pos : pos + 2] if len(chunk) - pos >= 2 else chunk[pos:]
                    raise CardError(f"not a card: {bad!r} in {text!r}")
                cards.append(parse_card(m.group(0)))
                pos = m.end()
    else:
        for item in text:
            cards.append(parse_card(item) if isinstance(item, str) else Card(item))
    if not allow_duplicates:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"duplicate card: {c}")
            seen.add(c)
    return cards


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    return sep.join(str(Card(c)) for c in cards)


class RandomSource(Protocol):
    def shuffle(self, x: list[Card]) -> None: ...


class Deck:
    """An ordered deck of a given composition. Shuffling goes through an injected random source.

    The default source is :class:`secrets.SystemRandom` (a CSPRNG); tests pass ``random.Random(seed)``.
    """

    __slots__ = ("name", "cards", "_members")

    def __init__(self, name: str, cards: Sequence[Card]) -> None:
        self.name = name
        self.cards: tuple[Card, ...] = tuple(cards)
        self._members = frozenset(int(c) for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and int(card) in self._members

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards)"

    def shuffled(self, rng: RandomSource | None = None) -> list[Card]:
        """A new list holding the deck in random order (CSPRNG unless ``rng`` is given)."""
        order = list(self.cards)
        (rng if rng is not None else _SYSTEM_RANDOM).shuffle(order)
        return order

    def validate(self, cards: Iterable[int]) -> list[Card]:
        """Check that every card belongs to this deck and none repeats; return them as Cards."""
        out: list[Card] = []
        seen: set[int] = set()
        for c in cards:
            card = Card(c)
            if int(card) not in self._members:
                raise CardError(f"card not in the {self.name} deck: {card}")
            if int(card) in seen:
                raise CardError(f"duplicate card: {card}")
            seen.add(int(card))
            out.append(card)
        return out

    def parse(self, text: str) -> list[Card]:
        """Parse cards and check they belong to this deck."""
        return self.validate(parse_cards(text))


_SYSTEM_RANDOM = secrets.SystemRandom()


def seeded_rng(seed: int) -> random.Random:
    """A reproducible (non-cryptographic) generator for tests and simulations only."""
    return random.Random(seed)


def _deck_from(min_rank: Rank, name: str) -> Deck:
    return Deck(name, [c for c in ALL_CARDS if c.rank >= min_rank])


DECK_52 = _deck_from(Rank.TWO, "standard 52-card")
DECK_36 = _deck_from(Rank.SIX, "Six Plus 36-card")
DECK_32 = _deck_from(Rank.SEVEN, "32-card")

DECKS: dict[str, Deck] = {"52": DECK_52, "36": DECK_36, "32": DECK_32}
