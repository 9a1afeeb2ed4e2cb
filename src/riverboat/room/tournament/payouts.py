"""Payout structures as data (R-TOURN-GEN-4, R-TOURN-SNG-4; UNCLEAR U-29, reading: a per-tournament payout table).

``payouts.json`` holds named structures (``mtt``, ``sng``, ``winner_takes_all``, ``twister_large``); a tournament
names one or carries its own rows in the same form. A structure is a list of rows, each for a range of entrants,
giving the share of the prize pool of every paid place in parts per billion (``PPB``): ``[first, last, ppb]``
means each place from ``first`` to ``last`` gets ``ppb``. More entrants, more paid places (R-TOURN-GEN-4).

Money stays integer: a prize is ``pool * ppb // PPB``; what the rounding leaves over goes to first place
(remainder rule, documented in docs/tournaments.md).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

PPB = 1_000_000_000


class PayoutError(ValueError):
    """A payout table that does not describe a valid structure."""


@dataclass(frozen=True, slots=True)
class PayoutRow:
    """The paid places for fields of ``lo`` to ``hi`` entrants: ``groups`` of ``(first, last, ppb each)``."""

    lo: int
    hi: int
    groups: tuple[tuple[int, int, int], ...]

    @property
    def paid_places(self) -> int:
        return self.groups[-1][1] if self.groups else 0

    def shares(self) -> list[int]:
        """The share of every paid place, place 1 first (parts per billion)."""
        out: list[int] = []
        for first, last, ppb in self.groups:
            out.extend([ppb] * (last - first + 1))
        return out


def parse_structure(rows: Sequence[Mapping[str, Any]], name: str = "payout") -> tuple[PayoutRow, ...]:
    """Check and convert rows of the JSON form; raises :class:`PayoutError` saying what is wrong."""
    if not isinstance(rows, Sequence) or isinstance(rows, str) or not rows:
        raise PayoutError(f"{name}: a payout structure is a non-empty list of rows")
    out: list[PayoutRow] = []
    for i, row in enumerate(rows):
        where = f"{name} row {i + 1}"
        try:
            lo, hi = (int(v) for v in row["entrants"])
            groups = tuple((int(a), int(b), int(c)) for a, b, c in row["places"])
        except (KeyError, TypeError, ValueError) as exc:
            raise PayoutError(f"{where}: needs 'entrants': [lo, hi] and 'places': [[first, last, ppb], ...] "
                              f"({exc})") from None
        if not 1 <= lo <= hi:
            raise PayoutError(f"{where}: entrants range [{lo}, {hi}] is empty or below 1")
        expect, prev_share, total = 1, None, 0
        for first, last, ppb in groups:
            if first != expect or last < first:
                raise PayoutError(f"{where}: places must run 1, 2, ... without gaps (got {first}-{last})")
            if ppb < 0 or (prev_share is not None and ppb > prev_share):
                raise PayoutError(f"{where}: a place may not pay more than the place above it")
            prev_share, expect = ppb, last + 1
            total += (last - first + 1) * ppb
        if total != PPB:
            raise PayoutError(f"{where}: shares add up to {total}, not {PPB} (parts per billion)")
        if groups[-1][1] > lo:
            raise PayoutError(f"{where}: pays {groups[-1][1]} places but the field can be as small as {lo}")
        if out and lo != out[-1].hi + 1:
            raise PayoutError(f"{where}: entrants ranges must follow each other ({out[-1].hi} then {lo})")
        if out and groups[-1][1] < out[-1].paid_places:
            raise PayoutError(f"{where}: a larger field may not pay fewer places (R-TOURN-GEN-4)")
        out.append(PayoutRow(lo, hi, groups))
    return tuple(out)


@functools.cache
def structures() -> dict[str, tuple[PayoutRow, ...]]:
    """Every named structure of ``payouts.json`` (checked once)."""
    text = resources.files("riverboat.room.tournament").joinpath("payouts.json").read_text()
    data = json.loads(text)
    return {name: parse_structure(rows, name) for name, rows in data.items() if not name.startswith("_")}


def structure(name_or_rows: str | Sequence[Mapping[str, Any]]) -> tuple[PayoutRow, ...]:
    if isinstance(name_or_rows, str):
        known = structures()
        if name_or_rows not in known:
            raise PayoutError(f"unknown payout structure {name_or_rows!r}; known: {', '.join(sorted(known))}")
        return known[name_or_rows]
    return parse_structure(name_or_rows)


def row_for(rows: Sequence[PayoutRow], entrants: int) -> PayoutRow:
    """The row for a field of ``entrants`` (a field below the first row pays as that row's smallest field)."""
    if entrants < 1:
        raise PayoutError("a tournament has at least one entrant")
    for row in rows:
        if row.lo <= entrants <= row.hi:
            return row
    if entrants < rows[0].lo:
        return rows[0]
    raise PayoutError(f"the payout structure has no row for {entrants} entrants (largest: {rows[-1].hi})")


def row_paying(rows: Sequence[PayoutRow], places: int) -> PayoutRow:
    """The first row that pays at least ``places`` places (the largest row if none does): a field where every
    player must be paid (a flight event's Day 2, R-TOURN-FLIGHT-4 reading)."""
    for row in rows:
        if row.paid_places >= places:
            return row
    return rows[-1]


def prizes(pool: int, row: PayoutRow, entrants: int | None = None) -> list[int]:
    """Prize of place 1, 2, ... in minor units: ``pool * share // PPB`` each, the rounding remainder to first
    place. With ``entrants`` below the paid places (a tiny field), only ``entrants`` places are paid and the unpaid
    shares go to first place too."""
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise PayoutError(f"the prize pool must be a non-negative integer, got {pool!r}")
    shares = row.shares()
    if entrants is not None and entrants < len(shares):
        shares = shares[:entrants]
        shares[0] += PPB - sum(shares)
    out = [pool * s // PPB for s in shares]
    out[0] += pool - sum(out)
    return out
