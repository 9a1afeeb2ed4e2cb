"""Hand configuration: everything a hand needs comes in here (pure engine: deck order, shuffle, rake rule)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from riverboat.cards import Card
from riverboat.games.catalog import Game, OddChip
from riverboat.games.structures import Stakes, Structure


@dataclass(frozen=True, slots=True)
class Settings:
    """Table settings for CONFLICT/UNCLEAR readings. Defaults follow RULES.md.

    - ``odd_chip``: R-ODD-1/R-ODD-3 reading; ``None`` uses the game's own default.
    - ``antes_dead_main_pot``: antes (and dead blinds) go to the main pot whatever the contribution layers (PHH
      ``ante_trimming_status = false``); default False: antes count as contributions (R-ALLIN-5).
    - ``muck_losers``: R-SHOW-4; a losing hand that need not be shown is mucked (all-in hands are always shown).
    - ``run_it_twice``: offer R-RIT votes in games that allow it.
    - ``straddle``: offer R-STRADDLE in games that allow it (No-Limit only).
    - ``split_agreement``: offer R-SPLIT in games that allow it.
    - ``stud_community_betting``: R-INSUF-4 reading (True: the last round is still bet after a community card).
    - ``merge_equal_pots``: the PHH (PokerKit) reading of a showdown: the hands that win nothing are killed and the
      pots whose remaining players are then the same are paid as one pot (one hi/lo halving, one odd chip).
      Default False: every pot is awarded on its own, Hi/Lo and odd-chip rules per pot (R-ALLIN-5).
    """

    odd_chip: OddChip | None = None
    antes_dead_main_pot: bool = False
    muck_losers: bool = True
    run_it_twice: bool = True
    straddle: bool = True
    split_agreement: bool = True
    stud_community_betting: bool = True
    merge_equal_pots: bool = False


@dataclass(frozen=True, slots=True)
class RakeContext:
    """What a rake rule may look at (R-RAKE-2 trigger: ``trigger_reached``)."""

    game: Game
    structure: Structure
    stakes: Stakes
    players: int
    trigger_reached: bool


RakeRule = Callable[[int, RakeContext], int]
Shuffler = Callable[[list[Card]], None]


@dataclass(frozen=True, slots=True)
class HandConfig:
    """One hand's inputs.

    ``seats``: seat numbers dealt in (clockwise order is increasing seat number, wrapping). ``stacks``: chips of
    each, same order. ``button``: the button (flop/draw) or dealer box (stud) seat; it need not be dealt in.
    ``deck``: the whole deck in dealing order (see :mod:`riverboat.engine` for the dealing order).

    Forced bets as the table instructs: ``blinds`` maps seat -> live blind (default: standard SB/BB, heads-up
    button posts the SB, R-BLIND-3); ``live_posts`` seat -> extra live post (R-NEWPLAYER-1, R-MISSED-1);
    ``dead_posts`` seat -> dead money (R-MISSED-2/3); ``antes`` seat -> ante (default ``stakes.ante`` each).
    ``shuffle`` reshuffles the discards (R-INSUF); default a CSPRNG from :mod:`riverboat.cards`.
    ``rake(pot_total, context) -> int`` is the caller's rake rule (default none).
    """

    game: Game
    structure: Structure
    stakes: Stakes
    seats: Sequence[int]
    stacks: Sequence[int]
    button: int
    deck: Sequence[Card]
    settings: Settings = field(default_factory=Settings)
    blinds: Mapping[int, int] | None = None
    live_posts: Mapping[int, int] = field(default_factory=dict)
    dead_posts: Mapping[int, int] = field(default_factory=dict)
    antes: Mapping[int, int] | None = None
    shuffle: Shuffler | None = None
    rake: RakeRule | None = None
