"""Mixed-game rotations: HORSE (R-HORSE) and 8-Game (R-8GAME).

A :class:`Rotation` is a pure schedule. The table asks it which game and structure the next hand is, telling it
after every hand whether the button completed an orbit; ``mode`` is ``"hands"`` (change every
``hands_per_game`` hands) or ``"orbit"`` (change after each full orbit), per R-HORSE-3.
"""

from __future__ import annotations

from dataclasses import dataclass

from riverboat.games.catalog import Game, get_game
from riverboat.games.structures import Structure

FL = Structure.FIXED_LIMIT

HORSE: tuple[tuple[str, Structure], ...] = (
    ("holdem", FL), ("omaha_hl", FL), ("razz", FL), ("stud", FL), ("stud_hl", FL),
)
"""R-HORSE-1/2: Limit Hold'em, Omaha Hi/Lo, Razz, 7 Card Stud, 7 Card Stud Hi/Lo, all fixed limit."""

EIGHT_GAME: tuple[tuple[str, Structure], ...] = (
    ("triple_draw_27", FL), ("holdem", FL), ("omaha_hl", FL), ("razz", FL), ("stud", FL), ("stud_hl", FL),
    ("holdem", Structure.NO_LIMIT), ("omaha", Structure.POT_LIMIT),
)
"""R-8GAME-1/2: the eight games in order; the unstated structures are fixed limit (R-8GAME-2 reading)."""

MIXED_ROTATIONS: dict[str, tuple[tuple[str, Structure], ...]] = {"horse": HORSE, "8game": EIGHT_GAME}


@dataclass(slots=True)
class Rotation:
    """Where a mixed table is in its schedule. Mutable, but pure: no clock, no I/O."""

    schedule: tuple[tuple[str, Structure], ...]
    mode: str = "hands"
    hands_per_game: int = 8
    index: int = 0
    hands_in_game: int = 0

    def __post_init__(self) -> None:
        if self.mode not in ("hands", "orbit"):
            raise ValueError(f"rotation mode must be 'hands' or 'orbit', got {self.mode!r}")
        if self.hands_per_game < 1:
            raise ValueError("hands_per_game must be at least 1")
        if not self.schedule:
            raise ValueError("empty rotation schedule")

    @classmethod
    def named(cls, name: str, mode: str = "hands", hands_per_game: int = 8) -> Rotation:
        try:
            schedule = MIXED_ROTATIONS[name]
        except KeyError:
            raise KeyError(f"unknown rotation {name!r}; known: {', '.join(MIXED_ROTATIONS)}") from None
        return cls(schedule, mode, hands_per_game)

    def current(self) -> tuple[Game, Structure]:
        """The game and structure of the next hand to deal."""
        gid, structure = self.schedule[self.index]
        return get_game(gid), structure

    def hand_finished(self, orbit_completed: bool = False) -> None:
        """Record a finished hand; moves to the next game when the mode says so."""
        self.hands_in_game += 1
        if (self.mode == "hands" and self.hands_in_game >= self.hands_per_game) or (
            self.mode == "orbit" and orbit_completed
        ):
            self.index = (self.index + 1) % len(self.schedule)
            self.hands_in_game = 0
