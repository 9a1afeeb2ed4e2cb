"""Room settings of the Twister family. Every CONFLICT of RULES.md section 21 is a setting with the named default;
the Age of the Gods jackpot figures the sources do not give are settings with defaults argued in docs/twister.md."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from riverboat.twister.draw import BASIS_POINTS, check_split
from riverboat.twister.errors import TwisterError
from riverboat.twister.tables import KINDS

TIERS = ("power", "extra_power", "super_power", "ultimate_power")  # R-AOG-4, smallest first
TIER_TITLES = {"power": "Power", "extra_power": "Extra Power", "super_power": "Super Power",
               "ultimate_power": "Ultimate Power"}
PPM = 1_000_000
TRIGGER_REFERENCE_BUY_IN = 100  # the trigger chance setting is quoted for a buy-in of 100 minor units


@dataclass(frozen=True, slots=True)
class TwisterSettings:
    enabled_kinds: tuple[str, ...] = KINDS  # R-WILD-5 (CONFLICT C-13): each type enabled per room
    split_threshold: int = 100_000  # R-TWIST-5: EUR 1000 in minor units; prizes from here are split
    split_bp: tuple[int, ...] = (8000, 1000, 1000)  # R-TWIST-5 (CONFLICT C-12): 80% / 10% / 10%
    split_applies_to_aog: bool = True  # R-AOG-8 reading: yes
    starting_chips: int = 500  # R-TWIST-1 (Twister and Wild Twister)
    aog_starting_chips: int = 100  # R-AOG-1
    # R-AOG-5 / R-WALLET-9: 0.99% of every stake funds the jackpot.
    jackpot_contribution_per_10000: int = 99
    # Not in the sources (issue #12): how each contribution is shared among the tiers (basis points, Power first)...
    jackpot_tier_shares_bp: tuple[int, int, int, int] = (4000, 3000, 2000, 1000)
    # ...which tier a jackpot game awards (basis points, Power first)...
    jackpot_tier_weights_bp: tuple[int, int, int, int] = (8000, 1600, 350, 50)
    # ...and the chance that a player's stake triggers a jackpot game, in parts per million for a buy-in of
    # TRIGGER_REFERENCE_BUY_IN minor units, growing in proportion to the buy-in (a EUR 10 stake: 10x the chance).
    jackpot_trigger_ppm_per_100: int = 1_000
    # Not in the sources: how long the table shows the spin before the first hand (R-TWIST-3) and how long the
    # tournament pauses while an Age of the Gods jackpot game runs (R-AOG-3), in seconds.
    spin_seconds: float = 5.0
    jackpot_game_seconds: float = 8.0

    def __post_init__(self) -> None:
        bad = [k for k in self.enabled_kinds if k not in KINDS]
        if bad or len(set(self.enabled_kinds)) != len(self.enabled_kinds):
            raise TwisterError(f"enabled_kinds must name distinct types of {', '.join(KINDS)}, got "
                               f"{self.enabled_kinds!r}")
        for name in ("split_threshold", "starting_chips", "aog_starting_chips", "jackpot_trigger_ppm_per_100"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise TwisterError(f"{name} must be a positive integer, got {value!r}")
        for name in ("spin_seconds", "jackpot_game_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 600:
                raise TwisterError(f"{name} must be a number of seconds from 0 to 600, got {value!r}")
        check_split(self.split_bp)
        if not 0 <= self.jackpot_contribution_per_10000 <= BASIS_POINTS:
            raise TwisterError("jackpot_contribution_per_10000 must be between 0 and 10000")
        for name in ("jackpot_tier_shares_bp", "jackpot_tier_weights_bp"):
            parts = getattr(self, name)
            if len(parts) != len(TIERS) or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0
                                               for p in parts) or sum(parts) != BASIS_POINTS:
                raise TwisterError(f"{name} must be {len(TIERS)} positive basis points adding up to "
                                   f"{BASIS_POINTS} (every tier funded and winnable), got {parts!r}")

    def starting_chips_for(self, kind: str) -> int:
        return self.aog_starting_chips if kind == "aog" else self.starting_chips

    def split_for(self, kind: str) -> tuple[int, tuple[int, ...]]:
        """(threshold, split) for a type; a type the split does not apply to never reaches its threshold."""
        if kind == "wild" or (kind == "aog" and not self.split_applies_to_aog):
            return 2**63 - 1, (BASIS_POINTS,)
        return self.split_threshold, self.split_bp

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TwisterSettings:
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TwisterError(f"unknown Twister settings: {', '.join(unknown)}")
        conv: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**conv)
