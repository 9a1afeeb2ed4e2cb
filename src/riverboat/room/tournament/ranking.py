"""Places and prizes at elimination (R-TOURN-GEN-5, R-TOURN-GEN-6; UNCLEAR U-30).

Players are ranked in reverse order of elimination. Players eliminated in the same hand (and, in hand-for-hand
play, in the same hand-for-hand round, where the hands are played at the same time) are ranked by the reading of
R-TOURN-GEN-6: a larger stack at the start of that hand finishes higher; equal stacks share the combined prizes of
the places involved.

Integer split of a shared prize (remainder rule): each tied player gets ``total // k``; the ``total % k`` minor
units left over go one each to the tied players in registration order (earliest entry first).

Bounties (R-TOURN-KO / R-TOURN-PKO / R-TOURN-BOUNTY): the eliminators of a player are the winners of the highest
pot the player was eligible for (the pot their last chips went into); several winners of it share the bounty
with the same remainder rule, in seat order of the award.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bust:
    player_id: int
    start_stack: int  # stack at the start of the hand that eliminated the player
    entry_no: int  # registration order (remainder rule)


@dataclass(frozen=True, slots=True)
class PlaceGroup:
    """Players who finish on ``places`` (one place, or several shared by equal stacks)."""

    players: tuple[int, ...]  # in registration order
    places: tuple[int, ...]  # best place first

    @property
    def best(self) -> int:
        return self.places[0]


def rank_busts(busts: Sequence[Bust], players_left_before: int) -> list[PlaceGroup]:
    """The places of ``busts``, all eliminated at the same moment while ``players_left_before`` were still in.
    They take places ``players_left_before - len(busts) + 1`` to ``players_left_before``; best group first."""
    if not busts:
        return []
    if len({b.player_id for b in busts}) != len(busts):
        raise ValueError("a player cannot be eliminated twice")
    if len(busts) > players_left_before:
        raise ValueError("more eliminations than players left")
    first = players_left_before - len(busts) + 1
    by_stack: dict[int, list[Bust]] = {}
    for b in busts:
        by_stack.setdefault(b.start_stack, []).append(b)
    groups: list[PlaceGroup] = []
    place = first
    for stack in sorted(by_stack, reverse=True):
        members = sorted(by_stack[stack], key=lambda b: b.entry_no)
        places = tuple(range(place, place + len(members)))
        groups.append(PlaceGroup(tuple(b.player_id for b in members), places))
        place += len(members)
    return groups


def split_evenly(total: int, players: Sequence[int]) -> dict[int, int]:
    """``total`` shared by ``players`` (given in tie-break order): ``total // k`` each, the remainder one unit
    each to the first players."""
    if not players:
        return {}
    k = len(players)
    base, rest = divmod(total, k)
    return {p: base + (1 if i < rest else 0) for i, p in enumerate(players)}


def group_prizes(group: PlaceGroup, prizes: Sequence[int]) -> dict[int, int]:
    """What each player of ``group`` wins: the combined prizes of its places (place p pays ``prizes[p-1]``,
    places past the paid ones pay nothing), shared evenly."""
    total = sum(prizes[p - 1] for p in group.places if p - 1 < len(prizes))
    return split_evenly(total, group.players)


def eliminators(seat: int, pots: Iterable[tuple[Sequence[int], Mapping[int, int]]]) -> list[int]:
    """The seats that eliminated ``seat``: the winners of the highest pot ``seat`` was eligible for. ``pots`` are
    ``(eligible seats, {winner seat: chips})`` in pot order (main pot first, side pots after, as the engine awards
    them; run-it-twice and hi/lo halves of one pot appear as several awards with the same eligible list)."""
    chosen: list[int] = []
    best_size: int | None = None
    for eligible, winners in pots:
        if seat not in eligible:
            continue
        size = len(eligible)
        # later pots have fewer (or equal) eligible players: the last one the seat is in is its highest
        if best_size is None or size < best_size:
            best_size, chosen = size, []
        if size == best_size:
            for w in winners:
                if w != seat and w not in chosen:
                    chosen.append(w)
    return chosen
