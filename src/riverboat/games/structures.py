"""Betting structures and stakes (R-LIMIT-GEN, R-FL, R-SL, R-PL, R-HPL, R-NL).

All amounts are integers in the table's minor unit (cents or chips). Never floats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Structure(StrEnum):
    """Betting structure; the value is the in-game label of R-LIMIT-GEN-3."""

    FIXED_LIMIT = "FL"
    SPREAD_LIMIT = "SL"
    POT_LIMIT = "PL"
    HALF_POT_LIMIT = "HPL"
    NO_LIMIT = "NL"

    @property
    def label(self) -> str:
        return "½PL" if self is Structure.HALF_POT_LIMIT else self.value


@dataclass(frozen=True, slots=True)
class Stakes:
    """The forced bets and limits of one table (R-FL-3 default: every amount is stored explicitly).

    - ``small_blind``/``big_blind``: blind games. ``big_blind`` is also the minimum bet (R-NL-2, R-PL-1, R-SL-1).
    - ``ante``: per player, before the deal (R-ANTE). ``bring_in``: stud-type games (R-BRINGIN-2).
    - ``small_bet``/``big_bet``: fixed limit (R-FL); default ``big_blind`` and twice it (R-FL-3 default,
      ``big_blind = small_bet``). In stud the small bet is the completion amount.
    - ``spread``: spread-limit maximum bet per betting round, e.g. ``(100, 100, 200, 300)`` for €1-2-3 (R-SL-2);
      rounds past the end use the last value.
    - ``min_bet``: overrides the minimum bet (PHH ``min_bet``); default ``big_blind`` or, in stud, ``bring_in``.
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    spread: tuple[int, ...] = field(default_factory=tuple)
    min_bet: int = 0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet", "min_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"stakes: {name} must be a non-negative integer, got {value!r}")
        for v in self.spread:
            if not isinstance(v, int) or v <= 0:
                raise ValueError(f"stakes: spread limits must be positive integers, got {self.spread!r}")
        if self.small_blind > self.big_blind and self.big_blind:
            raise ValueError("stakes: small blind larger than big blind")

    @property
    def fixed_small(self) -> int:
        return self.small_bet or self.big_blind or self.bring_in

    @property
    def fixed_big(self) -> int:
        return self.big_bet or 2 * self.fixed_small

    def opening_min(self, stud: bool) -> int:
        """Minimum bet (R-NL-2, R-PL-1, R-HPL-2, R-SL-1)."""
        if self.min_bet:
            return self.min_bet
        if stud:
            return self.bring_in or self.small_bet or 1
        return self.big_blind or 1
