"""The published prize tables of the Twister family (R-TWIST-7, R-AOG-7, R-WILD-3) as exact integer weights.

The figures live in ``prize_tables.json`` next to this module, copied as printed. The printed probabilities do not
add up to 100% (R-TWIST-8: 99.992% and 100.005%; R-AOG-8: 100.01%); the Reading is to treat them as weights and
normalise. Here every percentage of a table is multiplied by the smallest power of ten that makes all of them
whole numbers (``0.002%`` -> 2 in units of 0.001%), and a multiplier is drawn with probability
``weight / total_weight`` exactly: no float is involved anywhere. The Wild Twister table's weights are its games
per cycle of 250,000 (R-WILD-4), which its printed probabilities equal exactly.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from importlib import resources

from riverboat.twister.errors import TwisterError

KINDS = ("twister", "aog", "wild")
SEATS = 3  # R-TWIST-1: three players; the pool collects three buy-ins


@dataclass(frozen=True, slots=True)
class PrizeRow:
    multiplier: int
    probability_percent: str  # exactly as published
    weight: int  # the percentage scaled to an integer (Wild: games per cycle)


@dataclass(frozen=True, slots=True)
class PrizeTable:
    name: str
    kind: str
    rule: str
    title: str
    buy_ins: tuple[int, ...]
    rows: tuple[PrizeRow, ...]  # highest multiplier first, as published
    cumulative: tuple[int, ...]  # running sums of the weights, in row order (the draw bisects it)
    multipliers: tuple[int, ...]  # in row order
    cycle_games: int | None = None  # Wild Twister: games per deck cycle (R-WILD-4)

    @property
    def total_weight(self) -> int:
        return self.cumulative[-1]



    @property
    def published_total_percent(self) -> Decimal:
        return sum((Decimal(r.probability_percent) for r in self.rows), Decimal(0))

    def probability(self, multiplier: int) -> Fraction:
        """The exact normalised probability of ``multiplier``."""
        for r in self.rows:
            if r.multiplier == multiplier:
                return Fraction(r.weight, self.total_weight)
        raise TwisterError(f"table {self.name} has no {multiplier}x prize")

    def expected_multiplier(self) -> Fraction:
        return Fraction(sum(r.multiplier * r.weight for r in self.rows), self.total_weight)

    def return_to_player(self) -> Fraction:
        """Expected prize over the three buy-ins collected (R-TWIST-8's derived figure, exactly)."""
        return self.expected_multiplier() / SEATS


def _weights(rows: list[dict[str, object]], cycle_games: int | None) -> list[int]:
    if cycle_games is not None:
        games = [int(str(r["games"])) for r in rows]
        if sum(games) != cycle_games:
            raise TwisterError(f"the games of a Wild table add up to {sum(games)}, not {cycle_games}")
        for r, g in zip(rows, games, strict=True):
            if Fraction(Decimal(str(r["probability_percent"]))) / 100 != Fraction(g, cycle_games):
                raise TwisterError(f"printed probability {r['probability_percent']}% is not {g}/{cycle_games}")
        return games
    percents = [Decimal(str(r["probability_percent"])) for r in rows]
    decimals = max(-int(p.as_tuple().exponent) for p in percents)
    weights = [p.scaleb(decimals) for p in percents]
    if any(w != w.to_integral_value() or w <= 0 for w in weights):  # pragma: no cover - guarded by the data test
        raise TwisterError("probabilities must be positive decimals")
    return [int(w) for w in weights]


@cache
def load_tables() -> tuple[PrizeTable, ...]:
    """Every published table, from ``prize_tables.json``."""
    raw = json.loads(resources.files("riverboat.twister").joinpath("prize_tables.json").read_text("utf-8"))
    out: list[PrizeTable] = []
    for t in raw["tables"]:
        cycle = t.get("cycle_games")
        weights = _weights(t["rows"], cycle)
        rows = tuple(PrizeRow(int(r["multiplier"]), str(r["probability_percent"]), w)
                     for r, w in zip(t["rows"], weights, strict=True))
        if t["kind"] not in KINDS:
            raise TwisterError(f"unknown Twister kind {t['kind']!r} in prize_tables.json")
        cumulative = tuple(itertools.accumulate(weights))
        out.append(PrizeTable(t["name"], t["kind"], t["rule"], t["title"], tuple(t["buy_ins"]), rows, cumulative,
                              tuple(r.multiplier for r in rows), cycle))
    return tuple(out)


def table_for(kind: str, buy_in: int) -> PrizeTable:
    """The published table for a Twister ``kind`` at ``buy_in`` (minor units). A buy-in that no table lists has
    no published odds and is refused."""
    if kind not in KINDS:
        raise TwisterError(f"Twister type must be one of {', '.join(KINDS)}, got {kind!r}")
    for t in load_tables():
        if t.kind == kind and buy_in in t.buy_ins:
            return t
    offered = sorted(b for t in load_tables() if t.kind == kind for b in t.buy_ins)
    raise TwisterError(
        f"no published {kind} prize table for a buy-in of {buy_in} minor units; published buy-ins: "
        + ", ".join(str(b) for b in offered)
    )


def table_by_name(name: str) -> PrizeTable:
    for t in load_tables():
        if t.name == name:
            return t
    raise TwisterError(f"no prize table named {name!r}")


def buy_ins(kind: str) -> tuple[int, ...]:
    return tuple(sorted(b for t in load_tables() if t.kind == kind for b in t.buy_ins))
