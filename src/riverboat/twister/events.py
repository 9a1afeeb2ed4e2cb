"""The ``twister_spin`` event: what every player at a Twister table is shown before the first hand (R-TWIST-3,
R-AOG-2/3, R-WILD-1). The room sends it as the ``event`` of an ``event`` frame (docs/protocol.md); the browser's
``web/js/twister_spin.js`` animates a reel through ``reel`` and lands on ``multiplier``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from riverboat.twister.tables import table_by_name


@dataclass(frozen=True, slots=True)
class JackpotNotice:
    """An Age of the Gods jackpot win, told to every player (R-AOG-3); ``seat`` of the winner at the table."""

    seat: int
    tier: str  # power | extra_power | super_power | ultimate_power
    amount: int  # minor units, paid apart from the tournament prize (R-WALLET-9)


@dataclass(frozen=True, slots=True)
class SpinEvent:
    tournament_id: str
    kind: str  # twister | aog | wild
    currency: str
    buy_in: int
    table_name: str
    multiplier: int
    prize: int  # the prize pool, minor units
    places: tuple[int, ...]  # prize per finishing place, 1st first
    jackpots: tuple[JackpotNotice, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "twister_spin",
            "tournament_id": self.tournament_id,
            "kind": self.kind,
            "currency": self.currency,
            "buy_in": self.buy_in,
            "multiplier": self.multiplier,
            "prize": self.prize,
            "places": list(self.places),
            "ticket": self.kind == "wild",  # the prize is a Twister ticket (R-WILD-1)
            "reel": list(table_by_name(self.table_name).multipliers),  # what the animation shows, highest first
            "jackpots": [{"seat": j.seat, "tier": j.tier, "amount": j.amount} for j in self.jackpots],
        }
