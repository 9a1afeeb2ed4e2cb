"""Random but reproducible hand set-ups for the differential and the simulator: players, stacks, stakes, deck order.

Everything is drawn from one seeded ``random.Random`` so that a (variant, seed) pair names one hand exactly.
Stacks are a mix of deep stacks and short ones (a fifth of the players hold 1 to 5 big bets) so that all-ins, side
pots and short forced bets come up often. A tenth of the hands seat more players than a table does, up to what the
deck can deal (a PHH record has no table size: the replay must take a 9-player Omaha Hi/Lo hand, issue #16).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from riverboat.cards import DECK_36, DECK_52, Deck
from riverboat.verify.pokerkit_side import FIXED_LIMIT_CODES, STUD_CODES, Stakes


@dataclass(frozen=True, slots=True)
class VariantInfo:
    code: str  # PHH variant code
    game_id: str  # riverboat.games id
    structure: str  # riverboat.games.Structure member name
    deck: Deck
    min_players: int
    max_players: int  # the usual range: a full ring at most
    deck_players: int = 0  # beyond it, up to this many: every count the deck deals (PHH has no table size)


LARGE_TABLE_SHARE = 0.1  # share of the hands dealt to more players than max_players (when the deck allows)


VARIANTS: dict[str, VariantInfo] = {
    v.code: v
    for v in (
        # deck_players: what a deck deals with the three burn cards of a flop game (hold'em 22, Omaha 11, short
        # deck 14; riverboat.games.deck_capacity, without burns, is one more for hold'em and short deck).
        # Draws stop at 9 of their 10: ten hands leave a stub of 2 and no discards yet for the first drawer, who
        # may then draw only 2 (R-INSUF-1/2 give no more). Stud stays at 7: with 8 players the stub can run short,
        # where the engine deals one community card (R-INSUF-3) and PokerKit deals mucked cards again.
        VariantInfo("NT", "holdem", "NO_LIMIT", DECK_52, 2, 9, 22),
        VariantInfo("FT", "holdem", "FIXED_LIMIT", DECK_52, 2, 9, 22),
        VariantInfo("PO", "omaha", "POT_LIMIT", DECK_52, 2, 8, 11),
        VariantInfo("FO/8", "omaha_hl", "FIXED_LIMIT", DECK_52, 2, 8, 11),
        VariantInfo("NS", "short_deck_phh", "NO_LIMIT", DECK_36, 2, 9, 14),
        VariantInfo("F7S", "stud", "FIXED_LIMIT", DECK_52, 2, 7),
        VariantInfo("F7S/8", "stud_hl", "FIXED_LIMIT", DECK_52, 2, 7),
        VariantInfo("FR", "razz", "FIXED_LIMIT", DECK_52, 2, 7),
        VariantInfo("F2L3D", "triple_draw_27", "FIXED_LIMIT", DECK_52, 2, 6, 9),
        VariantInfo("N2L1D", "single_draw_27", "NO_LIMIT", DECK_52, 2, 6, 9),
        VariantInfo("FB", "badugi", "FIXED_LIMIT", DECK_52, 2, 6, 12),
    )
}


@dataclass(frozen=True, slots=True)
class HandSetup:
    code: str
    seed: int
    stakes: Stakes
    stacks: tuple[int, ...]  # PokerKit order: first seat after the button / dealer box first
    deck: tuple[str, ...]  # the deck order, top card first

    @property
    def players(self) -> int:
        return len(self.stacks)


PROFILES = ("mixed", "short")


def random_setup(code: str, seed: int, players: int | None = None, profile: str = "mixed") -> HandSetup:
    """The set-up of hand ``seed`` of variant ``code`` (players drawn from the variant's range unless given).

    ``profile``: ``"mixed"`` (a fifth of the stacks short, the rest 5 to 150 big bets) or ``"short"`` (every stack
    1 chip to 3 big bets: all-ins on the forced bets, short blinds and bring-ins, many side pots).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; use one of {', '.join(PROFILES)}")
    info = VARIANTS[code]
    rng = random.Random(f"setup:{code}:{seed}" if profile == "mixed" else f"setup:{profile}:{code}:{seed}")
    n = players if players is not None else rng.randint(info.min_players, info.max_players)
    if players is None and info.deck_players > info.max_players:
        # more players than a table seats (PHH records may), drawn apart so that every other hand stays the same
        large = random.Random(f"large:{profile}:{code}:{seed}")
        if large.random() < LARGE_TABLE_SHARE:
            n = large.randint(info.max_players + 1, info.deck_players)
    unit = rng.choice((1, 1, 2, 5, 25))
    if code in STUD_CODES:
        ante = unit * rng.randint(1, 2)
        bring_in = 2 * ante
        small_bet = bring_in * rng.choice((2, 3))
        stakes = Stakes(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=2 * small_bet)
        big = small_bet
    else:
        small_blind = unit
        big_blind = 2 * unit
        ante = unit if code in ("NT", "NS") and rng.random() < 0.2 else 0
        fixed = code in FIXED_LIMIT_CODES
        stakes = Stakes(
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            small_bet=big_blind if fixed else 0,
            big_bet=2 * big_blind if fixed else 0,
        )
        big = big_blind
    if profile == "short":
        stacks = tuple(rng.randint(1, 3 * big) for _ in range(n))
    else:
        stacks = tuple(
            rng.randint(1, 5 * big) if rng.random() < 0.2 else rng.randint(5 * big, 150 * big)
            for _ in range(n)
        )
    deck = tuple(str(c) for c in info.deck.shuffled(rng))
    return HandSetup(code, seed, stakes, stacks, deck)
