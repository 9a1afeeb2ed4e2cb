"""Every game as data (R-HOLDEM ... R-DRAW32): deck, streets, forced bets, card use, showdown, seat limit.

A :class:`Game` is a frozen description; the engine (:mod:`riverboat.engine`) interprets it. There are no game
subclasses. Rankings are named by the member name of :class:`riverboat.evaluate.Ranking` (``"HIGH"``,
``"LOW_8B"``...) so this layer needs nothing from the evaluator at import time.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from riverboat.cards import DECK_32, DECK_36, DECK_52, Deck
from riverboat.games.structures import Structure

ALL_STRUCTURES: tuple[Structure, ...] = tuple(Structure)


class Kind(StrEnum):
    """Family of a game: decides who posts forced bets and who acts first."""

    FLOP = "flop"  # button, blinds, community cards
    STUD = "stud"  # fixed dealer box, antes, bring-in, up cards
    DRAW = "draw"  # button, blinds, draws


class BringIn(StrEnum):
    LOWEST = "lowest"  # 7 Card Stud, Stud Hi/Lo (R-STUD-3)
    HIGHEST = "highest"  # Soko, Americana (R-BRINGIN-1)
    HIGHEST_ACE_LOW = "highest_ace_low"  # Razz (R-RAZZ-2)


class Visible(StrEnum):
    """How the best visible hand is chosen on later stud streets (R-STUD-5, R-RAZZ-2)."""

    HIGH = "high"
    LOW = "low"


class OddChip(StrEnum):
    """R-ODD-1/R-ODD-3 readings (a table or game setting)."""

    LEFT_OF_BUTTON_EACH = "left_of_button_each"  # default: one unit at a time from left of the button/box
    LEFT_OF_BUTTON_ALL = "left_of_button_all"  # 002/004 general wording: whole remainder to first left of dealer
    SHOWN_FIRST = "shown_first"  # R-ODD-3 002 general rules (Soko): to the winner whose cards were shown first


class PostDrawFirst(StrEnum):
    LEFT_OF_BUTTON = "left_of_button"  # R-DRAW5-6, R-TD27-3
    LEFT_OF_BIG_BLIND = "left_of_big_blind"  # R-DRAW32-6 default


@dataclass(frozen=True, slots=True)
class Street:
    """One dealing step followed by a betting round.

    ``down``/``up``: cards dealt to each player face down / face up (up cards are dealt after down cards in each
    step). ``board``: community cards. ``draw``: the maximum number of cards a player may discard before this
    betting round (``None``: no draw). ``big``: fixed limit uses the big bet on this round.
    """

    down: int = 0
    up: int = 0
    board: int = 0
    draw: int | None = None
    big: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    name: str
    kind: Kind
    deck: Deck
    streets: tuple[Street, ...]
    rankings: tuple[str, ...]  # one (high or low only) or two (hi/lo split, high first)
    omaha: bool = False  # card use: exactly 2 hole + 3 board (R-OMAHA-3)
    max_players: int = 10
    structures: tuple[Structure, ...] = ALL_STRUCTURES
    default_structure: Structure = Structure.NO_LIMIT
    bring_in: BringIn | None = None
    visible: Visible = Visible.HIGH
    visible_suits: bool = False  # True: R-SUIT-1 breaks visible-hand ties; False: closest to the box (R-STUD-5)
    open_pair_rule: bool = False  # R-STUD-6
    post_draw_first: PostDrawFirst = PostDrawFirst.LEFT_OF_BUTTON
    odd_chip: OddChip = OddChip.LEFT_OF_BUTTON_EACH
    split_agreement: bool = False  # R-SPLIT (32 Card Draw)
    straddle: bool = False  # R-STRADDLE (No-Limit Hold'em only)
    run_it_twice: bool = False  # R-RIT (Hold'em)
    fl_cap_counts_blind: bool = True  # R-FL-4 (True) vs PHH/PokerKit (False, blinds not counted)
    reshuffle_folded: bool = False  # R-INSUF-1: 32 Card Draw also reshuffles folded cards
    # The PHH (PokerKit) reading of a short stub: every card out of play is reshuffled at once, every discard (the
    # drawer's own too) and, with reshuffle_folded, the folded hands; False: R-INSUF-1/2 (never the drawer's own,
    # this draw's discards only if still short)
    reshuffle_all: bool = False
    # The PHH (PokerKit) order of a draw: every player discards in turn, then the replacements are dealt in that
    # order; False (online rooms): each player's replacements right after their discards
    deal_after_discards: bool = False
    phh_code: str | None = None
    rules: str = ""  # rule IDs this definition implements
    tags: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_hi_lo(self) -> bool:
        return len(self.rankings) == 2

    @property
    def betting_rounds(self) -> int:
        return len(self.streets)

    def with_settings(self, **changes: object) -> Game:
        """A copy with some fields changed (e.g. ``max_players=8`` for R-TABLE-2, ``odd_chip=...``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


_HOLDEM_STREETS = (Street(down=2), Street(board=3), Street(board=1, big=True), Street(board=1, big=True))


def _omaha_streets(n: int) -> tuple[Street, ...]:
    return (Street(down=n),) + _HOLDEM_STREETS[1:]


_STUD_STREETS = (
    Street(down=2, up=1),
    Street(up=1),
    Street(up=1, big=True),
    Street(up=1, big=True),
    Street(down=1, big=True),
)
_FIVE_UP_STREETS = (Street(down=1, up=1), Street(up=1), Street(up=1, big=True), Street(up=1, big=True))
_FL = (Structure.FIXED_LIMIT,)


def _g(**kw: object) -> Game:
    return Game(**kw)  # type: ignore[arg-type]


_DEFS: tuple[Game, ...] = (
    _g(id="holdem", name="Texas Hold'em", kind=Kind.FLOP, deck=DECK_52, streets=_HOLDEM_STREETS,
       rankings=("HIGH",), max_players=10, straddle=True, run_it_twice=True, phh_code="NT",
       rules="R-HOLDEM R-TABLE-1 R-STRADDLE R-RIT"),
    _g(id="omaha", name="Omaha", kind=Kind.FLOP, deck=DECK_52, streets=_omaha_streets(4), rankings=("HIGH",),
       omaha=True, max_players=10, default_structure=Structure.POT_LIMIT, phh_code="PO",
       rules="R-OMAHA R-TABLE-2"),
    _g(id="omaha5", name="5-Card Omaha", kind=Kind.FLOP, deck=DECK_52, streets=_omaha_streets(5),
       rankings=("HIGH",), omaha=True, max_players=8, default_structure=Structure.POT_LIMIT, rules="R-OMAHA5"),
    _g(id="omaha_hl", name="Omaha Hi/Lo", kind=Kind.FLOP, deck=DECK_52, streets=_omaha_streets(4),
       rankings=("HIGH", "LOW_8B"), omaha=True, max_players=8, default_structure=Structure.POT_LIMIT,
       rules="R-OMAHA-HL"),
    _g(id="omaha5_hl", name="5-Card Omaha Hi/Lo", kind=Kind.FLOP, deck=DECK_52, streets=_omaha_streets(5),
       rankings=("HIGH", "LOW_8B"), omaha=True, max_players=8, default_structure=Structure.POT_LIMIT,
       rules="R-OMAHA5-HL"),
    _g(id="six_plus", name="Six Plus Hold'em", kind=Kind.FLOP, deck=DECK_36, streets=_HOLDEM_STREETS,
       rankings=("SIX_PLUS",), max_players=10, rules="R-SIXPLUS R-RANK-6P"),
    _g(id="stud", name="7 Card Stud", kind=Kind.STUD, deck=DECK_52, streets=_STUD_STREETS, rankings=("HIGH",),
       max_players=8, default_structure=Structure.FIXED_LIMIT, bring_in=BringIn.LOWEST, open_pair_rule=True,
       rules="R-STUD R-BRINGIN R-SUIT-1 R-INSUF-3"),
    _g(id="stud_hl", name="7 Card Stud Hi/Lo", kind=Kind.STUD, deck=DECK_52, streets=_STUD_STREETS,
       rankings=("HIGH", "LOW_8B"), max_players=8, default_structure=Structure.FIXED_LIMIT,
       bring_in=BringIn.LOWEST, rules="R-STUD-HL"),
    _g(id="razz", name="Razz", kind=Kind.STUD, deck=DECK_52, streets=_STUD_STREETS, rankings=("LOW_A5",),
       max_players=8, structures=_FL, default_structure=Structure.FIXED_LIMIT,
       bring_in=BringIn.HIGHEST_ACE_LOW, visible=Visible.LOW, rules="R-RAZZ R-LOW-RAZZ"),
    _g(id="draw5", name="5 Card Draw", kind=Kind.DRAW, deck=DECK_52, streets=(Street(down=5), Street(draw=5, big=True)),
       rankings=("HIGH",), max_players=6, default_structure=Structure.FIXED_LIMIT, rules="R-DRAW5 R-INSUF-1"),
    _g(id="triple_draw_27", name="2-7 Triple Draw", kind=Kind.DRAW, deck=DECK_52,
       streets=(Street(down=5), Street(draw=5), Street(draw=5, big=True), Street(draw=5, big=True)),
       rankings=("LOW_27",), max_players=6, default_structure=Structure.FIXED_LIMIT, rules="R-TD27 R-LOW-27"),
    _g(id="soko", name="Soko", kind=Kind.STUD, deck=DECK_52, streets=_FIVE_UP_STREETS, rankings=("SOKO",),
       max_players=8, default_structure=Structure.FIXED_LIMIT, bring_in=BringIn.HIGHEST,
       rules="R-SOKO R-RANK-SOKO R-ODD-3"),
    _g(id="americana", name="Americana", kind=Kind.STUD, deck=DECK_32, streets=_FIVE_UP_STREETS,
       rankings=("THIRTY_TWO",), max_players=6, default_structure=Structure.FIXED_LIMIT,
       bring_in=BringIn.HIGHEST, rules="R-AMER R-RANK-32-8 R-RANK-32-9"),
    _g(id="draw32", name="32 Card Draw", kind=Kind.DRAW, deck=DECK_32, streets=(Street(down=5), Street(draw=4, big=True)),
       rankings=("THIRTY_TWO_SUITED",), max_players=5, post_draw_first=PostDrawFirst.LEFT_OF_BIG_BLIND,
       split_agreement=True, reshuffle_folded=True, default_structure=Structure.FIXED_LIMIT,
       rules="R-DRAW32 R-SPLIT R-RANK-32 R-INSUF-1"),
)

# Variants used to replay PHH files: PHH codes keep PokerKit's meaning (docs/rules-differences.md).
_PHH_ONLY: tuple[Game, ...] = (
    _g(id="short_deck_phh", name="Short-deck Hold'em (PHH NS)", kind=Kind.FLOP, deck=DECK_36,
       streets=_HOLDEM_STREETS, rankings=("SHORT_DECK_PHH",), max_players=10, fl_cap_counts_blind=False,
       phh_code="NS", tags=("phh",)),
    _g(id="single_draw_27", name="2-7 Single Draw", kind=Kind.DRAW, deck=DECK_52,
       streets=(Street(down=5), Street(draw=5, big=True)), rankings=("LOW_27",), max_players=6,
       fl_cap_counts_blind=False, phh_code="N2L1D", tags=("phh",)),
    # Not in RULES.md: the corpus's one badugi hand (PHH FB). Fixed-limit triple draw with blinds, four cards,
    # the PokerKit ace-to-five badugi ranking (riverboat.evaluate.badugi); the table rules are those of 2-7 Triple
    # Draw (R-TD27-1..3: blinds, three draws, post-draw rounds from left of the button).
    _g(id="badugi", name="Badugi (PHH FB)", kind=Kind.DRAW, deck=DECK_52,
       streets=(Street(down=4), Street(draw=4), Street(draw=4, big=True), Street(draw=4, big=True)),
       rankings=("BADUGI",), max_players=6, structures=_FL, default_structure=Structure.FIXED_LIMIT,
       fl_cap_counts_blind=False, phh_code="FB", rules="R-TD27-1 R-TD27-2 R-TD27-3", tags=("phh",)),
)

GAMES: dict[str, Game] = {g.id: g for g in _DEFS + _PHH_ONLY}
"""Every game by id. Our own games follow RULES.md; ids in ``_PHH_ONLY`` exist to replay PHH variant codes."""


def get_game(game_id: str) -> Game:
    """The game with this id; ``KeyError`` with the list of known ids otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None


def deck_capacity(game: Game) -> int:
    """The most players the game's deck can deal one hand to: every hole card and the board from one deck
    (flop games), the first deal (draw games: later draws reshuffle the discards, R-INSUF-1/2), every card up to
    the last street plus one community card for that street (stud games, R-INSUF-3). This is not a table size
    (R-TABLE-1 and the game's ``max_players`` are the room's limits): a recorded hand of any such size replays."""
    cards = len(game.deck)
    per_player = sum(s.down + s.up for s in game.streets)
    if game.kind is Kind.DRAW:
        return cards // (game.streets[0].down + game.streets[0].up)
    if game.kind is Kind.STUD:
        last = game.streets[-1].down + game.streets[-1].up
        return (cards - 1) // (per_player - last) if last == 1 else cards // per_player
    return (cards - sum(s.board for s in game.streets)) // per_player


def phh_game(game: Game) -> Game:
    """The PHH (PokerKit) reading of a game: the fixed-limit cap does not count the blind, no open-pair rule, a
    short stub takes back every card out of play (``reshuffle_all``, folded hands too), a draw's replacements are
    dealt once everyone has discarded (``deal_after_discards``), and no table size: any player count the deck can
    deal (``deck_capacity``)."""
    return replace(game, fl_cap_counts_blind=False, open_pair_rule=False, reshuffle_all=True, deal_after_discards=True,
                   reshuffle_folded=game.reshuffle_folded or game.kind is Kind.DRAW,
                   max_players=max(game.max_players, deck_capacity(game)))
