"""The Twister draws: one code path for the room, the tests and ``riverboat twister draws``.

Randomness comes from a :class:`BitSource` (anything with ``getrandbits``): :class:`secrets.SystemRandom`, a
CSPRNG, in production (:func:`system_source`); ``random.Random(seed)`` in tests and for the CLI's ``--seed``.
A uniform integer below ``n`` is drawn by rejection (:func:`uniform_below`: ``k = n.bit_length()`` random bits,
retried while ``>= n``), so no value is favoured; the drawn integer is the *random value* stored with every draw
for audit (R-TWIST-3, issue item 5), and re-running the lookup on it reproduces the multiplier.

* :func:`draw_multiplier` - the Twister / Age of the Gods spin: value ``u`` below the table's total weight, the
  multiplier is the first row whose running weight exceeds ``u`` (R-TWIST-7/8, R-AOG-7/8).
* :func:`draw_from_deck` - the Wild Twister prize deck (R-WILD-3/4): a cycle holds exactly the published games
  per multiplier; each game takes a uniformly random card of what is left (``u`` below the cards left). Drawing
  without replacement card by card is the same distribution as shuffling the whole cycle once, and it keeps the
  future order out of the database: only the counts left are stored, so nobody who can read the store can
  know the next prizes. When a cycle is used up the next one starts full.
* :func:`split_prize` - R-TWIST-5: winner takes all below the threshold, else the configured split.
"""

from __future__ import annotations

import bisect
import secrets
from collections.abc import Callable
from typing import NamedTuple, Protocol

from riverboat.twister.errors import TwisterError
from riverboat.twister.tables import PrizeTable

BASIS_POINTS = 10_000


class BitSource(Protocol):
    def getrandbits(self, k: int, /) -> int: ...


_SYSTEM = secrets.SystemRandom()


def system_source() -> BitSource:
    """The production source: the operating system's CSPRNG."""
    return _SYSTEM


def uniform_below(rng: BitSource, n: int) -> int:
    """A uniformly distributed integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise TwisterError(f"cannot draw below {n}")
    k = n.bit_length()
    getbits = rng.getrandbits
    r = getbits(k)
    while r >= n:
        r = getbits(k)
    return r


class Draw(NamedTuple):
    """One prize draw, as stored for audit: the multiplier, the table used and the random value drawn."""

    table: str
    multiplier: int
    random_value: int  # u, uniform in [0, random_range)
    random_range: int  # the table's total weight (Wild: the cards left in the cycle)
    cycle: int | None = None  # Wild: deck cycle number (from 1)
    position: int | None = None  # Wild: games drawn in this cycle before this one


def index_at(counts: tuple[int, ...], u: int) -> int:
    """The index whose share of ``range(sum(counts))`` holds ``u`` (counts laid end to end, in order)."""
    acc = 0
    for i, count in enumerate(counts):
        acc += count
        if u < acc:
            return i
    raise TwisterError(f"random value {u} is outside [0, {acc})")


def multiplier_at(table: PrizeTable, u: int) -> int:
    """The multiplier a random value ``u`` selects (the lookup an auditor re-runs on stored values)."""
    if not 0 <= u < table.total_weight:
        raise TwisterError(f"random value {u} is outside [0, {table.total_weight}) of table {table.name}")
    return table.rows[bisect.bisect_right(table.cumulative, u)].multiplier


def draw_multiplier(table: PrizeTable, rng: BitSource) -> Draw:
    """Spin a Twister or Age of the Gods prize (not for Wild Twister, which draws from its deck)."""
    if table.cycle_games is not None:
        raise TwisterError(f"table {table.name} is a prize deck: use draw_from_deck")
    total = table.cumulative[-1]
    u = uniform_below(rng, total)
    return Draw(table.name, table.multipliers[bisect.bisect_right(table.cumulative, u)], u, total)


class DeckState(NamedTuple):
    """Where a Wild Twister prize deck stands: which cycle, how many games drawn in it, cards left per row."""

    cycle: int
    position: int
    remaining: tuple[int, ...]  # in the table's row order

    @staticmethod
    def fresh(table: PrizeTable, cycle: int = 1) -> DeckState:
        if table.cycle_games is None:
            raise TwisterError(f"table {table.name} is not a prize deck")
        return DeckState(cycle, 0, tuple(r.weight for r in table.rows))

    def check(self, table: PrizeTable) -> None:
        if table.cycle_games is None or len(self.remaining) != len(table.rows):
            raise TwisterError(f"deck state does not fit table {table.name}")
        if any(left < 0 or left > r.weight for left, r in zip(self.remaining, table.rows, strict=True)):
            raise TwisterError("deck state holds more cards than a cycle")
        if self.position + sum(self.remaining) != table.cycle_games:
            raise TwisterError("deck position and cards left do not add up to a cycle")


def draw_from_deck(table: PrizeTable, state: DeckState, rng: BitSource) -> tuple[Draw, DeckState]:
    """Take the next Wild Twister prize: a uniformly random card of those left in the cycle (a new full cycle
    once it is used up). Returns the draw and the deck's new state."""
    cycle_games = table.cycle_games
    if cycle_games is None:
        raise TwisterError(f"table {table.name} is not a prize deck")
    if state.position >= cycle_games:
        state = DeckState.fresh(table, state.cycle + 1)
    left = cycle_games - state.position  # == sum(state.remaining), checked by DeckState.check on load
    u = uniform_below(rng, left)
    i = index_at(state.remaining, u)
    remaining = state.remaining[:i] + (state.remaining[i] - 1,) + state.remaining[i + 1:]
    draw = Draw(table.name, table.rows[i].multiplier, u, left, state.cycle, state.position)
    return draw, DeckState(state.cycle, state.position + 1, remaining)


def split_prize(prize: int, threshold: int, split_bp: tuple[int, ...]) -> tuple[int, ...]:
    """Prize per finishing place (R-TWIST-5): the winner takes all below ``threshold``; from it the places share
    by ``split_bp`` (basis points, default 8000/1000/1000). Places after the first get the floor of their share;
    the winner gets the rest, so the parts always add up to the prize exactly."""
    if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
        raise TwisterError(f"a prize is a non-negative integer of minor units, got {prize!r}")
    check_split(split_bp)
    if prize < threshold:
        return (prize,)
    rest = tuple(prize * bp // BASIS_POINTS for bp in split_bp[1:])
    return (prize - sum(rest),) + rest


def check_split(split_bp: tuple[int, ...]) -> None:
    if not 1 <= len(split_bp) <= 3 or any(isinstance(b, bool) or not isinstance(b, int) or b <= 0
                                          for b in split_bp):
        raise TwisterError(f"a split names 1 to 3 positive basis-point shares, got {split_bp!r}")
    if sum(split_bp) != BASIS_POINTS:
        raise TwisterError(f"the split must add up to {BASIS_POINTS} basis points, got {sum(split_bp)}")


def sample_counts(
    table: PrizeTable, count: int, rng: BitSource, *, chunk: int = 10_000,
    on_progress: Callable[[int], None] | None = None,
) -> dict[int, int]:
    """Draw ``count`` prizes from ``table`` with the production functions (the spin, or a Wild deck starting at a
    fresh cycle) and count them per multiplier, highest first. ``on_progress(n)`` is called after every ``chunk``
    draws with the number just done."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise TwisterError(f"count must be a non-negative integer, got {count!r}")
    counts = dict.fromkeys(table.multipliers, 0)
    deck = DeckState.fresh(table) if table.cycle_games is not None else None
    done = 0
    while done < count:
        n = min(chunk, count - done)
        if deck is None:
            for _ in range(n):
                counts[draw_multiplier(table, rng).multiplier] += 1
        else:
            for _ in range(n):
                d, deck = draw_from_deck(table, deck, rng)
                counts[d.multiplier] += 1
        done += n
        if on_progress is not None:
            on_progress(n)
    return counts
