"""Disconnection rules: the automatic action when a disconnected player's time runs out (R-DISC-1, R-AAI-1..6) and
the rolling 24-hour artificial all-in allowance (R-AAI-2).

Policy ``check_fold`` (default, R-AAI-6): check when checking is allowed, otherwise fold.
Policy ``artificial_allin``: in real-money Fixed and Spread Limit games only (R-AAI-4), a player who already has
money in the pot is treated as all-in for what they committed (R-AAI-1) while their 24-hour allowance lasts
(R-AAI-2); otherwise check if free, else fold.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from enum import StrEnum

from riverboat.room.settings import DisconnectPolicy

DAY = 24 * 3600.0


class AutoAction(StrEnum):
    CHECK = "check"
    FOLD = "fold"
    ARTIFICIAL_ALLIN = "artificial_allin"


def aai_applies(policy: DisconnectPolicy, *, structure: str, play_money: bool) -> bool:
    """R-AAI-4: artificial all-in exists only in real-money FL and SL games, under the ``artificial_allin`` policy."""
    return policy is DisconnectPolicy.ARTIFICIAL_ALLIN and structure in ("FL", "SL") and not play_money


def auto_action(
    *,
    connected: bool,
    can_check: bool,
    committed: int,
    aai_possible: bool,
    aai_available: bool,
) -> AutoAction:
    """What the table does for a player whose decision timer ran out (R-TIME-3 reading, R-DISC-1, R-AAI-1)."""
    if not connected and aai_possible and committed > 0 and aai_available:
        return AutoAction.ARTIFICIAL_ALLIN
    return AutoAction.CHECK if can_check else AutoAction.FOLD


class AaiAllowance:
    """Artificial all-ins used per player over a rolling 24 hours (R-AAI-2), on wall-clock time. ``on_use``: called
    with ``(player, now)`` at every use (the room stores it, so a restart does not reset the allowance); ``load``
    puts the stored uses back."""

    def __init__(self, per_24h: int, on_use: Callable[[int, float], None] | None = None) -> None:
        self.per_24h = per_24h
        self.on_use = on_use
        self._used: dict[int, deque[float]] = {}

    def load(self, uses: Iterable[tuple[int, float]]) -> None:
        """Uses read back from the store (oldest first), added to those already known."""
        for player, at in uses:
            q = self._used.setdefault(player, deque())
            if at not in q:
                q.append(at)

    def _prune(self, player: int, now: float) -> deque[float]:
        q = self._used.setdefault(player, deque())
        while q and q[0] <= now - DAY:
            q.popleft()
        return q

    def available(self, player: int, now: float) -> bool:
        return len(self._prune(player, now)) < self.per_24h

    def use(self, player: int, now: float) -> None:
        self._prune(player, now).append(now)
        if self.on_use is not None:
            self.on_use(player, now)

    def used(self, player: int, now: float) -> int:
        return len(self._prune(player, now))
