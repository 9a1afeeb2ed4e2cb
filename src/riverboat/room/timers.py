"""Decision timers as a pure state machine (R-TIME, R-DISC-1, R-TIME-4). No clock inside: callers pass ``now``.

One :class:`DecisionTimer` exists per pending decision. Phases:

- ``action``: 20 s (R-TIME-1/2). On expiry a player who *has bet* in this hand moves to the time bank (R-TIME-2);
  one who has not is acted for at once (R-TIME-1).
- ``timebank``: the player's remaining time bank (R-TIME-3 reading: ``timebank_seconds``, refilled by
  ``timebank_refill_seconds`` after each hand dealt in, up to ``timebank_max_seconds``); then the auto action.
- ``reconnect``: a disconnected player who has bet gets 30 s from the start of their turn (R-DISC-1, R-TIME-5).
- ``draw``: 30 s to choose discards (R-TIME-4); on expiry stand pat, or the automatic draw when disconnected.

"Has bet" (reading): made a voluntary call, bet, raise, completion or bring-in in this hand; posted blinds and
antes are forced and do not count.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from riverboat.room.frames import TimerView
from riverboat.room.settings import TableSettings


class Phase(StrEnum):
    ACTION = "action"
    TIMEBANK = "timebank"
    RECONNECT = "reconnect"
    DRAW = "draw"


@dataclass(slots=True)
class DecisionTimer:
    seat: int
    is_draw: bool
    has_bet: bool
    turn_started: float
    phase: Phase
    deadline: float
    phase_started: float

    def remaining(self, now: float) -> float:
        return max(0.0, self.deadline - now)

    def to_dict(self, now: float) -> TimerView:
        return {"seat": self.seat, "phase": self.phase.value, "remaining": round(self.remaining(now), 3)}


def start_decision(
    settings: TableSettings, *, seat: int, is_draw: bool, has_bet: bool, connected: bool, now: float
) -> DecisionTimer:
    """The timer for a decision that has just come to ``seat``."""
    if is_draw:
        phase, length = Phase.DRAW, settings.draw_seconds
    elif not connected and has_bet:
        phase, length = Phase.RECONNECT, max(settings.reconnect_seconds, settings.action_seconds)
    else:
        phase, length = Phase.ACTION, settings.action_seconds
    return DecisionTimer(seat, is_draw, has_bet, now, phase, now + length, now)


def on_disconnect(settings: TableSettings, timer: DecisionTimer, now: float) -> None:
    """The player whose turn it is lost their connection (R-DISC-1): a betting player who has bet gets the
    reconnect window counted from the start of the turn, never less than the time already granted."""
    if timer.is_draw or not timer.has_bet or timer.phase is not Phase.ACTION:
        return
    timer.phase = Phase.RECONNECT
    timer.deadline = max(timer.deadline, timer.turn_started + settings.reconnect_seconds)


def on_reconnect(timer: DecisionTimer) -> None:
    """Back in time: the normal timer continues with the same deadline (the time bank can follow)."""
    if timer.phase is Phase.RECONNECT:
        timer.phase = Phase.ACTION


def on_expiry(timer: DecisionTimer, *, connected: bool, bank: float, now: float) -> bool:
    """The deadline passed. Returns True if the timer was extended into the time bank (R-TIME-2), False if the
    player must now be acted for (auto action)."""
    if timer.phase is Phase.ACTION and connected and timer.has_bet and bank > 0:
        timer.phase = Phase.TIMEBANK
        timer.phase_started = now
        timer.deadline = now + bank
        return True
    return False


def bank_used(timer: DecisionTimer, now: float) -> float:
    """Seconds of time bank consumed by this decision so far."""
    if timer.phase is not Phase.TIMEBANK:
        return 0.0
    return max(0.0, min(now, timer.deadline) - timer.phase_started)


def refill(settings: TableSettings, bank: float) -> float:
    """The time bank after a hand the player was dealt into (R-TIME-3 reading)."""
    return min(settings.timebank_max_seconds, bank + settings.timebank_refill_seconds)
