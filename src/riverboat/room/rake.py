"""Rake (R-RAKE): the rake tables of RULES.md section 22 as data, and the rake rule.

The tables live in ``rake_tables.json`` next to this module, one *schedule* per room type (R-RAKE-5):
``ipoker`` (R-RAKE-6/7), ``uvs_002`` (R-RAKE-9), ``uvs_004`` (R-RAKE-10) and ``none``. A row is chosen by the
table's structure, its big blind and the number of players dealt in (R-RAKE-3); the rake is
``per_step * floor(pot / step)`` capped at the row's maximum (R-RAKE-4), with the small-pot step of R-RAKE-10.

No flop, no drop (R-RAKE-2): the engine decides whether the game's trigger happened (a flop, the third card in
Soko and Americana, the fourth in the stud games, a draw: ``RakeContext.trigger_reached``, ``Hand._rake_trigger``)
and :func:`compute_rake` returns 0 when it did not. Play money is never raked (R-GEN-3).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from riverboat.engine import RakeContext, RakeRule
from riverboat.games import Stakes

STRUCTURES = ("FL", "SL", "PL", "HPL", "NL")


@dataclass(frozen=True, slots=True)
class RakeRow:
    structures: frozenset[str]
    bb_min: int
    bb_max: int | None
    players_min: int
    players_max: int
    step: int
    per_step: int
    cap: int
    small_pot_below: int | None = None
    small_step: int | None = None
    small_per_step: int | None = None

    def matches(self, structure: str, big_blind: int, players: int) -> bool:
        return (
            structure in self.structures
            and big_blind >= self.bb_min
            and (self.bb_max is None or big_blind <= self.bb_max)
            and self.players_min <= players <= self.players_max
        )

    def rake_for(self, pot: int) -> int:
        """R-RAKE-4: per_step x floor(pot / step), capped; the small-pot step below its threshold (R-RAKE-10)."""
        if pot <= 0:
            return 0
        if self.small_pot_below is not None and pot < self.small_pot_below:
            assert self.small_step is not None and self.small_per_step is not None
            raw = self.small_per_step * (pot // self.small_step)
        else:
            raw = self.per_step * (pot // self.step)
        return min(raw, self.cap)


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    name: str
    rules: str
    rows: tuple[RakeRow, ...]

    def row_for(self, structure: str, big_blind: int, players: int) -> RakeRow | None:
        for row in self.rows:
            if row.matches(structure, big_blind, players):
                return row
        return None

    def covers(self, structure: str, big_blind: int, max_players: int) -> bool:
        """True if every player count 2..max_players has a row (checked when a table opens)."""
        if not self.rows:
            return True
        return all(self.row_for(structure, big_blind, n) is not None for n in range(2, max_players + 1))

    def rake(self, structure: str, big_blind: int, players: int, pot: int) -> int:
        row = self.row_for(structure, big_blind, players)
        return 0 if row is None else row.rake_for(pot)


def _row(data: dict[str, object]) -> RakeRow:
    def opt(key: str) -> int | None:
        value = data.get(key)
        return None if value is None else int(value)  # type: ignore[call-overload]

    structures = data["structures"]
    assert isinstance(structures, list)
    for s in structures:
        if s not in STRUCTURES:
            raise ValueError(f"unknown structure {s!r} in rake table")
    return RakeRow(
        structures=frozenset(structures),
        bb_min=int(data["bb_min"]),  # type: ignore[call-overload]
        bb_max=opt("bb_max"),
        players_min=int(data["players_min"]),  # type: ignore[call-overload]
        players_max=int(data["players_max"]),  # type: ignore[call-overload]
        step=int(data["step"]),  # type: ignore[call-overload]
        per_step=int(data["per_step"]),  # type: ignore[call-overload]
        cap=int(data["cap"]),  # type: ignore[call-overload]
        small_pot_below=opt("small_pot_below"),
        small_step=opt("small_step"),
        small_per_step=opt("small_per_step"),
    )


@cache
def load_schedules() -> dict[str, RakeSchedule]:
    """Every rake schedule shipped in ``rake_tables.json``, by name."""
    raw = json.loads(resources.files("riverboat.room").joinpath("rake_tables.json").read_text(encoding="utf-8"))
    out: dict[str, RakeSchedule] = {}
    for name, body in raw.items():
        if name.startswith("_"):
            continue
        out[name] = RakeSchedule(name=name, rules=body["rules"], rows=tuple(_row(r) for r in body["rows"]))
    return out


def get_schedule(name: str) -> RakeSchedule:
    schedules = load_schedules()
    if name not in schedules:
        raise ValueError(f"unknown rake schedule {name!r}; known: {', '.join(sorted(schedules))}")
    return schedules[name]


def compute_rake(
    schedule: RakeSchedule,
    *,
    structure: str,
    big_blind: int,
    players_dealt: int,
    pot_total: int,
    triggered: bool,
    play_money: bool,
) -> int:
    """The rake of one finished hand.

    ``pot_total`` is the final pot with every side pot, after uncalled bets were returned (R-RAKE-4);
    ``triggered`` says whether the game's trigger happened (the engine's ``RakeContext.trigger_reached``: no flop,
    no drop, R-RAKE-2).
    """
    if play_money or not triggered:
        return 0
    return schedule.rake(structure, big_blind, players_dealt, pot_total)


def rake_key(stakes: Stakes) -> int:
    """The stake a rake row is chosen by (R-RAKE-3): the big blind, or the small bet of a game without blinds
    (stud, fixed-limit tables without blinds)."""
    return stakes.big_blind or stakes.small_bet


def rake_rule(schedule: RakeSchedule, *, play_money: bool) -> RakeRule:
    """The engine's rake hook for a table raked by ``schedule`` (every kind of raked table uses this one)."""

    def rule(pot_total: int, ctx: RakeContext) -> int:
        return compute_rake(schedule, structure=ctx.structure.value, big_blind=rake_key(ctx.stakes),
                            players_dealt=ctx.players, pot_total=pot_total, triggered=ctx.trigger_reached,
                            play_money=play_money)

    return rule
