"""Blind structures of the Twister family (R-TWIST-1 turbo, 500 chips; R-AOG-1, 100 chips), as data in
``structures.json``. The sources give no levels; these defaults start at 25 big blinds and double the blinds about
every four levels of three minutes (turbo). The room builds the Sit & Go's levels from :func:`structure_for`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from riverboat.twister.errors import TwisterError
from riverboat.twister.tables import KINDS


@dataclass(frozen=True, slots=True)
class BlindLevel:
    small_blind: int
    big_blind: int
    ante: int


@dataclass(frozen=True, slots=True)
class Structure:
    name: str
    kinds: tuple[str, ...]
    starting_chips: int
    level_seconds: int
    levels: tuple[BlindLevel, ...]  # the last level repeats


@cache
def load_structures() -> tuple[Structure, ...]:
    raw = json.loads(resources.files("riverboat.twister").joinpath("structures.json").read_text("utf-8"))
    out = []
    for s in raw["structures"]:
        levels = tuple(BlindLevel(*map(int, lv)) for lv in s["levels"])
        if any(not 0 < lv.small_blind < lv.big_blind or lv.ante < 0 for lv in levels):
            raise TwisterError(f"structure {s['name']}: every level needs 0 < small blind < big blind")
        if any(b.big_blind < a.big_blind for a, b in zip(levels, levels[1:], strict=False)):
            raise TwisterError(f"structure {s['name']}: blinds never go down")
        out.append(Structure(s["name"], tuple(s["kinds"]), int(s["starting_chips"]), int(s["level_seconds"]),
                             levels))
    return tuple(out)


def structure_for(kind: str) -> Structure:
    if kind not in KINDS:
        raise TwisterError(f"Twister type must be one of {', '.join(KINDS)}, got {kind!r}")
    return next(s for s in load_structures() if kind in s.kinds)
