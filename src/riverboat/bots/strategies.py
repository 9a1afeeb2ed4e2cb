"""Bot strategies: given a :class:`Decision` (what the player may do and see), choose a :class:`Move`.

* :class:`CallingStation` checks or calls, never bets or folds when it can stay in, and stands pat: every hand it
  plays to the end goes to showdown (used by the integration tests).
* :class:`RandomBot` picks a random legal action and a random legal amount (never folds when checking is free).
* :class:`StrengthBot` (:mod:`.strength`) plays by its hand's equity against random hands.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Decision:
    """What a strategy knows when it is asked to act."""

    table: str
    seat: int | None
    game: str | None
    kinds: frozenset[str]
    call: int = 0
    min_to: int = 0
    max_to: int = 0
    bring_in: int = 0
    max_discards: int = 0
    allowed_to: tuple[int, ...] = ()
    hole: tuple[str, ...] = ()  # my cards, as text ("Ah")
    board: tuple[str, ...] = ()
    opponents: int = 1  # players still in the hand besides me
    pot: int = 0
    stack: int = 0
    view: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Move:
    kind: str
    amount: int | None = None
    cards: tuple[str, ...] | None = None


class Strategy(Protocol):
    def decide(self, d: Decision) -> Move: ...


def passive_move(d: Decision) -> Move:
    """Stay in as cheaply as possible: check, call, bring in, stand pat; fold only when nothing else is legal."""
    for kind in ("check", "stand_pat", "call", "bring_in", "run_once", "decline_split"):
        if kind in d.kinds:
            if kind == "bring_in":
                return Move(kind, d.bring_in or None)
            return Move(kind)
    if "draw" in d.kinds:
        return Move("draw", cards=())
    if "fold" in d.kinds:
        return Move("fold")
    kind = sorted(d.kinds)[0]
    return Move(kind, d.min_to or None)


class CallingStation:
    """Check/call down every hand (so hands reach showdown)."""

    def decide(self, d: Decision) -> Move:
        return passive_move(d)


class RandomBot:
    """A random legal action with a random legal amount; discards a random subset in draw games."""

    def __init__(self, rng: random.Random | None = None, aggression: float = 0.25) -> None:
        self.rng = rng or secrets.SystemRandom()
        self.aggression = aggression

    def decide(self, d: Decision) -> Move:
        rng = self.rng
        if "draw" in d.kinds and d.hole:
            n = rng.randint(0, min(d.max_discards or len(d.hole), len(d.hole)))
            if n == 0 and "stand_pat" in d.kinds:
                return Move("stand_pat")
            return Move("draw", cards=tuple(rng.sample(list(d.hole), n)))
        for aggressive in ("raise", "bet", "complete"):
            if aggressive in d.kinds and rng.random() < self.aggression:
                return Move(aggressive, self._amount(d))
        if "fold" in d.kinds and "check" not in d.kinds and rng.random() < 0.15:
            return Move("fold")
        return passive_move(d)

    def _amount(self, d: Decision) -> int:
        if d.allowed_to:
            return self.rng.choice(list(d.allowed_to))
        low, high = d.min_to, max(d.min_to, d.max_to)
        if high > low and self.rng.random() < 0.7:
            high = min(high, low * 3)  # mostly modest sizes; sometimes anything up to all-in
        return self.rng.randint(low, max(low, high))
