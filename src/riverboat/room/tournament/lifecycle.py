"""The tournament lifecycle as a pure state machine given ``now`` (R-TOURN-REG, R-TOURN-SNG-1, R-TOURN-MTT-2).

::

    scheduled --(registration opens)--> registering --(MTT: start time, minimum met | SNG: every seat taken)-->
    running (late registration while the level index < late_registration_levels) --(all left fit one table)-->
    final_table --(one player left)--> finished
    registering --(start time, minimum not met, R-TOURN-REG-4)--> cancelled (every buy-in and fee refunded)
    running / final_table --(operator, R-TOURN-INT / R-OPER)--> interrupted;  any but finished --> cancelled

A Sit & Go starts as soon as its last seat is taken, and the next one of the same description opens at once
(``Transition.open_next``, R-TOURN-SNG-1). Registration and unregistration questions are answered here too:
``can_register`` (window, late registration, maximum) and ``can_unregister`` (before the deadline and the start,
R-TOURN-REG-3). Nothing here has a clock: the director passes ``now`` and the counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from riverboat.room.tournament.spec import TournamentSpec


class Status(StrEnum):
    SCHEDULED = "scheduled"
    REGISTERING = "registering"
    RUNNING = "running"
    FINAL_TABLE = "final_table"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"


PLAYING = frozenset({Status.RUNNING, Status.FINAL_TABLE})
OVER = frozenset({Status.FINISHED, Status.CANCELLED, Status.INTERRUPTED})


@dataclass(frozen=True, slots=True)
class Transition:
    to: Status
    reason: str
    open_next: bool = False  # a Sit & Go started: open the next one (R-TOURN-SNG-1)


class LifecycleError(Exception):
    """A refused step (the director turns it into a RoomError)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Lifecycle:
    spec: TournamentSpec
    status: Status = Status.SCHEDULED
    started_at: float | None = None
    ended_at: float | None = None

    # ------------------------------------------------------------------ time-driven steps
    def due(self, now: float, entrants: int) -> Transition | None:
        """The transition the clock or the field calls for now, if any (the director applies it)."""
        spec = self.spec
        if self.status is Status.SCHEDULED:
            if spec.registration_opens is None or now >= spec.registration_opens:
                return Transition(Status.REGISTERING, "registration opens (R-TOURN-REG-1)")
            return None
        if self.status is Status.REGISTERING:
            if spec.is_sng:
                if entrants >= spec.seats:
                    return Transition(Status.RUNNING, "every seat is taken (R-TOURN-SNG-1)", open_next=True)
                return None
            assert spec.starts_at is not None
            if now >= spec.starts_at:
                if entrants >= spec.min_entrants:
                    return Transition(Status.RUNNING, "start time (R-TOURN-MTT-2)")
                return Transition(Status.CANCELLED,
                                  f"{entrants} entrants, the minimum is {spec.min_entrants} (R-TOURN-REG-4)")
        return None

    def next_wakeup(self, now: float) -> float | None:
        """When :meth:`due` could next return something by the clock alone (a timer for the director)."""
        spec = self.spec
        if self.status is Status.SCHEDULED and spec.registration_opens is not None:
            return max(now, spec.registration_opens)
        if self.status is Status.REGISTERING and not spec.is_sng and spec.starts_at is not None:
            return max(now, spec.starts_at)
        return None

    def on_field(self, players_left: int, tables: int) -> Transition | None:
        """After eliminations or a table break: the final table, or the end (R-TOURN-MTT-1)."""
        if self.status not in PLAYING:
            return None
        if players_left <= 1:
            return Transition(Status.FINISHED, "one player left: the winner (R-TOURN-GEN-6)")
        if (self.status is Status.RUNNING and not self.spec.is_sng and tables == 1
                and players_left <= self.spec.seats):
            return Transition(Status.FINAL_TABLE, "every player left fits one table (R-TOURN-MTT-1)")
        return None

    def apply(self, t: Transition, now: float) -> None:
        allowed = {
            Status.REGISTERING: {Status.SCHEDULED},
            Status.RUNNING: {Status.REGISTERING},
            Status.FINAL_TABLE: {Status.RUNNING},
            Status.FINISHED: PLAYING,
            Status.CANCELLED: {Status.SCHEDULED, Status.REGISTERING} | PLAYING,
            Status.INTERRUPTED: PLAYING,
        }[t.to]
        if self.status not in allowed:
            raise LifecycleError("bad_state", f"a {self.status.value} tournament cannot become {t.to.value}")
        self.status = t.to
        if t.to is Status.RUNNING:
            self.started_at = now
        if t.to in OVER:
            self.ended_at = now

    # ------------------------------------------------------------------ registration questions
    def registration_open(self, level_index: int) -> bool:
        """R-TOURN-REG-1: open while registering, and in the first ``late_registration_levels`` levels."""
        if self.status is Status.REGISTERING:
            return True
        return self.status is Status.RUNNING and level_index < self.spec.late_registration_levels

    def check_register(self, now: float, entrants: int, level_index: int = 0) -> None:
        """Raise :class:`LifecycleError` if a new entry is not accepted now."""
        if not self.registration_open(level_index):
            if self.status is Status.SCHEDULED:
                raise LifecycleError("registration_closed", "registration has not opened yet")
            raise LifecycleError("registration_closed",
                                 f"registration is closed (the tournament is {self.status.value}, R-TOURN-REG-1)")
        cap = self.spec.capacity
        if cap and entrants >= cap:
            raise LifecycleError("tournament_full", f"the tournament is full ({cap} entrants)")

    def check_unregister(self, now: float) -> None:
        """R-TOURN-REG-3: only before the start and the unregistration deadline."""
        if self.status is not Status.REGISTERING:
            raise LifecycleError("unregister_closed",
                                 "the tournament has started: no unregistration, no refund (R-TOURN-REG-3)")
        deadline = self.spec.unregister_deadline
        if deadline is not None and now > deadline:
            raise LifecycleError("unregister_closed",
                                 "the unregistration deadline has passed: no refund (R-TOURN-REG-3)")
