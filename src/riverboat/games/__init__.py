"""Games as data: every game and betting structure Riverboat deals, and the mixed-game rotations.

Public API (stable)::

    from riverboat.games import get_game, GAMES, Game, Structure, Stakes, Rotation, MIXED_ROTATIONS
    game = get_game("holdem")   # KeyError listing the ids if unknown
    game.max_players, game.structures, game.default_structure, game.streets, game.rankings, game.kind

Game ids (RULES.md): ``holdem``, ``omaha``, ``omaha5``, ``omaha_hl``, ``omaha5_hl``, ``six_plus``, ``stud``,
``stud_hl``, ``razz``, ``draw5``, ``triple_draw_27``, ``soko``, ``americana``, ``draw32``; PHH-only readings:
``short_deck_phh`` (PHH ``NS``) and ``single_draw_27`` (PHH ``N2L1D``).

``Structure``: FIXED_LIMIT, SPREAD_LIMIT, POT_LIMIT, HALF_POT_LIMIT, NO_LIMIT (``.label``: FL, SL, PL, ½PL, NL).
``Stakes(small_blind, big_blind, ante, bring_in, small_bet, big_bet, spread, min_bet)``: integers in minor units.
Game settings that RULES.md marks CONFLICT are fields of :class:`Game` (``odd_chip``, ``max_players``,
``post_draw_first``, ``fl_cap_counts_blind``...); change them with ``game.with_settings(...)``.

Mixed games: ``rot = Rotation.named("horse", mode="hands", hands_per_game=8)``; ``rot.current()`` gives
``(game, structure)`` for the next hand; call ``rot.hand_finished(orbit_completed=...)`` after each hand.
"""

from riverboat.games.catalog import (
    GAMES,
    BringIn,
    Game,
    Kind,
    OddChip,
    PostDrawFirst,
    Street,
    Visible,
    deck_capacity,
    get_game,
    phh_game,
)
from riverboat.games.rotation import EIGHT_GAME, HORSE, MIXED_ROTATIONS, Rotation
from riverboat.games.structures import Stakes, Structure

__all__ = [
    "GAMES",
    "BringIn",
    "EIGHT_GAME",
    "Game",
    "HORSE",
    "Kind",
    "MIXED_ROTATIONS",
    "OddChip",
    "PostDrawFirst",
    "Rotation",
    "Stakes",
    "Street",
    "Structure",
    "Visible",
    "get_game",
    "deck_capacity",
    "phh_game",
]
