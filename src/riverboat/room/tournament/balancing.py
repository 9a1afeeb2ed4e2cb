"""Table balancing in MTTs (R-TOURN-BAL-1..7) as pure code; the cost of a step does not grow with the field.

Tables are kept in buckets by player count (one bucket per count 0..seats, each an :class:`IndexedSet` with O(1)
add, remove and random choice), separately for all tables and for the tables *between hands* (idle). Finding a
largest or a smallest table is a walk over at most ``seats + 1`` buckets; nothing scans the tables.

R-TOURN-BAL-7 reading (standard), applied by :meth:`Balancer.rebalance` after every hand and every change:

1. When all remaining players fit at one fewer table, break a table: the idle table with the fewest players (at
   random among equals); each of its players goes to a smallest other table (R-TOURN-BAL-2, -5).
2. Otherwise, while the largest and smallest tables differ by two or more players, move one player from a largest
   table (R-TOURN-BAL-4) to a smallest table (R-TOURN-BAL-5).

Only a table whose hand is over gives players up (R-TOURN-BAL-7: "a table is rebalanced only when its current hand
is over"); a player may join a table in the middle of a hand and is dealt in from the next one. When every largest
table is in a hand, the move waits until one of them finishes (``pending``). Which player moves is the director's
random choice (R-TOURN-BAL-4); the seat is :func:`seat_far_from_big_blind` (R-TOURN-BAL-6 reading).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K")


class IndexedSet(Generic[K]):
    """A set with O(1) add, discard and uniform random choice (a list plus positions; swap-remove)."""

    __slots__ = ("_items", "_pos")

    def __init__(self) -> None:
        self._items: list[K] = []
        self._pos: dict[K, int] = {}

    def add(self, item: K) -> None:
        if item not in self._pos:
            self._pos[item] = len(self._items)
            self._items.append(item)

    def discard(self, item: K) -> None:
        i = self._pos.pop(item, None)
        if i is None:
            return
        last = self._items.pop()
        if i < len(self._items):
            self._items[i] = last
            self._pos[last] = i

    def choice(self, rng: random.Random, exclude: K | None = None) -> K | None:
        n = len(self._items)
        if n == 0 or (n == 1 and self._items[0] == exclude):
            return None
        while True:
            item = self._items[rng.randrange(n)]
            if item != exclude:
                return item

    def __contains__(self, item: object) -> bool:
        return item in self._pos

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._items))


@dataclass(frozen=True, slots=True)
class Move:
    """Move one (randomly chosen) player from ``source`` to ``target`` (R-TOURN-BAL-4/5)."""

    source: str
    target: str


@dataclass(frozen=True, slots=True)
class Break:
    """Break ``table``: its players go, in order, to ``targets`` (one entry per player, R-TOURN-BAL-2)."""

    table: str
    targets: tuple[str, ...]


Step = Move | Break


@dataclass(slots=True)
class _Table:
    count: int
    idle: bool


@dataclass(slots=True)
class Balancer:
    seats: int
    rng: random.Random = field(default_factory=random.Random)
    tables: dict[str, _Table] = field(default_factory=dict)
    total: int = 0
    max_gap_after_step: int = 0  # largest minus smallest table after each complete balancing pass (no break)
    max_gap_waiting: int = 0  # the same after a pass cut short because every largest table was in a hand
    moves: int = 0
    breaks: int = 0
    work: int = 0  # buckets examined (the cost of balancing; bounded by seats + 1 per query)
    _all: list[IndexedSet[str]] = field(default_factory=list)
    _idle: list[IndexedSet[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.seats < 2:
            raise ValueError("tables seat at least two players")
        self._all = [IndexedSet() for _ in range(self.seats + 1)]
        self._idle = [IndexedSet() for _ in range(self.seats + 1)]

    # ------------------------------------------------------------------ bookkeeping
    def add_table(self, table_id: str, count: int, *, idle: bool = True) -> None:
        if table_id in self.tables:
            raise ValueError(f"table {table_id} is already known")
        self._check_count(count)
        self.tables[table_id] = _Table(count, idle)
        self._all[count].add(table_id)
        if idle:
            self._idle[count].add(table_id)
        self.total += count

    def remove_table(self, table_id: str) -> None:
        t = self.tables.pop(table_id)
        self._all[t.count].discard(table_id)
        self._idle[t.count].discard(table_id)
        self.total -= t.count

    def set_idle(self, table_id: str, idle: bool) -> None:
        """The table's hand is over (``True``) or a hand has started (``False``)."""
        t = self.tables[table_id]
        if t.idle == idle:
            return
        t.idle = idle
        if idle:
            self._idle[t.count].add(table_id)
        else:
            self._idle[t.count].discard(table_id)

    def change(self, table_id: str, delta: int) -> None:
        """Players left (eliminations, disqualification: negative) or joined (late registration, a move)."""
        t = self.tables[table_id]
        new = t.count + delta
        self._check_count(new)
        self._all[t.count].discard(table_id)
        self._idle[t.count].discard(table_id)
        t.count = new
        self._all[new].add(table_id)
        if t.idle:
            self._idle[new].add(table_id)
        self.total += delta

    def count(self, table_id: str) -> int:
        return self.tables[table_id].count

    def _check_count(self, count: int) -> None:
        if not 0 <= count <= self.seats:
            raise ValueError(f"a table holds 0 to {self.seats} players, not {count}")

    # ------------------------------------------------------------------ queries (O(seats))
    def largest(self) -> int:
        for c in range(self.seats, -1, -1):
            self.work += 1
            if len(self._all[c]):
                return c
        return 0

    def smallest(self) -> int:
        for c in range(self.seats + 1):
            self.work += 1
            if len(self._all[c]):
                return c
        return 0

    def pick_smallest(self) -> str | None:
        """A table with the fewest players (at random among them): where a late entrant sits (R-TOURN-REG-1)."""
        for c in range(self.seats + 1):
            table = self._all[c].choice(self.rng)
            if table is not None:
                return table
        return None

    def gap(self) -> int:
        return self.largest() - self.smallest() if self.tables else 0

    def tables_needed(self) -> int:
        return max(1, -(-self.total // self.seats))

    def pending(self) -> bool:
        """Balancing is needed but waits for a table to finish its hand."""
        return len(self.tables) > self.tables_needed() or (len(self.tables) > 1 and self.gap() >= 2)

    # ------------------------------------------------------------------ the step
    def rebalance(self) -> list[Step]:
        """Every step possible now (see the module docstring); counts are updated as the steps are planned."""
        steps: list[Step] = []
        while len(self.tables) > 1:
            if len(self.tables) > self.tables_needed():
                step = self._break_one()
                if step is None:
                    break
                steps.append(step)
                continue
            lo, hi = self.smallest(), self.largest()
            if hi - lo < 2:
                break
            source = self._idle[hi].choice(self.rng)
            if source is None:
                break
            target = self._all[lo].choice(self.rng, exclude=source)
            if target is None:  # pragma: no cover - lo < hi, so a different table holds lo players
                break
            self.change(source, -1)
            self.change(target, +1)
            self.moves += 1
            steps.append(Move(source, target))
        if steps and not any(isinstance(s, Break) for s in steps) and len(self.tables) > 1:
            if self.pending():  # a move waits for a largest table to finish its hand (R-TOURN-BAL-7)
                self.max_gap_waiting = max(self.max_gap_waiting, self.gap())
            else:
                self.max_gap_after_step = max(self.max_gap_after_step, self.gap())
        return steps

    def _break_one(self) -> Break | None:
        victim = None
        for c in range(self.seats + 1):
            self.work += 1
            victim = self._idle[c].choice(self.rng)
            if victim is not None:
                break
        if victim is None:
            return None
        n = self.tables[victim].count
        self.remove_table(victim)
        targets: list[str] = []
        for _ in range(n):  # each player to a smallest table at that moment (R-TOURN-BAL-5)
            target = self._all[self.smallest()].choice(self.rng)
            assert target is not None
            self.change(target, +1)
            targets.append(target)
        self.breaks += 1
        return Break(victim, tuple(targets))


def seat_far_from_big_blind(
    free: Iterable[int], occupied: Iterable[int], big_blind: int | None, max_seats: int, rng: random.Random
) -> int:
    """R-TOURN-BAL-6 reading: the free seat with the most hands to play before it becomes the big blind; at random
    among equals. The big blind moves clockwise to the next occupied seat after ``big_blind`` (the last hand's
    big blind) each hand, so a free seat waits one hand for every occupied seat between the big blind and it."""
    free_seats = sorted(set(free))
    if not free_seats:
        raise ValueError("no free seat")
    if big_blind is None:
        return rng.choice(free_seats)
    occ = sorted(set(occupied))

    def distance(seat: int) -> int:
        d = (seat - big_blind) % max_seats
        return d if d else max_seats

    def hands_before(seat: int) -> int:
        d = distance(seat)
        return sum(1 for o in occ if distance(o) < d)

    best = max(hands_before(s) for s in free_seats)
    return rng.choice([s for s in free_seats if hands_before(s) == best])


def max_minus_min(counts: Sequence[int]) -> int:
    return max(counts) - min(counts) if counts else 0
