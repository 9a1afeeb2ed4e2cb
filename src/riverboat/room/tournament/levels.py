"""The level clock as pure code given ``now`` (R-TOURN-BREAK-1, R-GEN-6): which blind level is in force, whether
the tournament is on a break, how long until the next level or break.

By time: level 1 lasts ``level_seconds``, then level 2, ...; after every ``break_every_levels`` levels a break of
``break_seconds`` is inserted; the last level lasts for ever. A pause (an operator pause, the Age of the Gods
jackpot game) stops the clock.

By hands (``level_hands`` > 0, fast formats): the level advances once the tournament has dealt ``level_hands``
hands per table on average since the level began (hands dealt in the level >= level_hands x tables running when
it began), so every table plays the same level; at one table (a Sit & Go) that is exactly ``level_hands`` hands.
Breaks in this mode start when a level that ends a break block is over and last ``break_seconds``.

Levels change between hands: a hand is dealt with the level in force when it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from riverboat.room.tournament.spec import TournamentSpec


@dataclass(frozen=True, slots=True)
class Position:
    level: int  # 0-based index into spec.levels (the last one repeats)
    on_break: bool
    seconds_left: float | None  # until the next level or the end of the break (None: last level, or by hands)
    next_break_in: float | None  # seconds until the next break starts (None: no more breaks, or by hands)
    paused: bool = False


@dataclass(slots=True)
class LevelClock:
    """Mutable but pure: the caller feeds ``now`` (Unix seconds) and, in hands mode, every finished hand."""

    spec: TournamentSpec
    started_at: float
    paused_total: float = 0.0
    paused_since: float | None = None
    # hands mode
    hand_level: int = 0
    hands_in_level: int = 0
    level_tables: int = 1
    break_until: float | None = None

    # ------------------------------------------------------------------ pause (R-AOG-3, operator)
    def pause(self, now: float) -> None:
        if self.paused_since is None:
            self.paused_since = now

    def resume(self, now: float) -> None:
        if self.paused_since is not None:
            self.paused_total += max(0.0, now - self.paused_since)
            if self.break_until is not None:
                self.break_until += max(0.0, now - self.paused_since)
            self.paused_since = None

    def elapsed(self, now: float) -> float:
        """Seconds of tournament play (pauses excluded) since the start."""
        end = self.paused_since if self.paused_since is not None else now
        return max(0.0, end - self.started_at - self.paused_total)

    def resume_from(self, elapsed: float, now: float) -> None:
        """After a restart: continue with ``elapsed`` seconds already played (the downtime does not count)."""
        self.started_at = now - elapsed
        self.paused_total = 0.0
        self.paused_since = None

    # ------------------------------------------------------------------ position
    def position(self, now: float) -> Position:
        if self.spec.level_hands > 0:
            return self._hands_position(now)
        return self._time_position(self.elapsed(now))

    def _time_position(self, t: float) -> Position:
        spec = self.spec
        length = spec.level_seconds
        last = len(spec.levels) - 1
        block = spec.break_every_levels
        pause = spec.break_seconds if block > 0 else 0.0
        cycle = block * length + pause if block > 0 else 0.0
        paused = self.paused_since is not None
        if block > 0 and cycle > 0:
            cycles = int(t // cycle)
            # breaks only come between levels that exist before the last one
            if cycles * block > last:
                cycles = last // block
            within = t - cycles * cycle
            base = cycles * block
            if base + block <= last and within >= block * length:
                left = cycle - within
                return Position(base + block - 1, True, left, 0.0, paused)
            level = min(last, base + int(within // length))
            if level == last:
                return Position(level, False, None, None, paused)
            left = length - (within - (level - base) * length)
            to_break = block * length - within if base + block <= last else None
            return Position(level, False, left, to_break, paused)
        level = min(last, int(t // length))
        if level == last:
            return Position(level, False, None, None, paused)
        return Position(level, False, length - (t - level * length), None, paused)

    def _hands_position(self, now: float) -> Position:
        paused = self.paused_since is not None
        last = len(self.spec.levels) - 1
        level = min(self.hand_level, last)
        if self.break_until is not None:
            if now < self.break_until or paused:
                return Position(max(0, level - 1), True, max(0.0, self.break_until - now), 0.0, paused)
            self.break_until = None
        return Position(level, False, None, None, paused)

    def hand_finished(self, now: float, tables: int) -> bool:
        """Hands mode: count a finished hand; True when it moved the tournament to the next level."""
        spec = self.spec
        if spec.level_hands <= 0 or self.hand_level >= len(spec.levels) - 1:
            return False
        self.hands_in_level += 1
        if self.hands_in_level < spec.level_hands * max(1, self.level_tables):
            return False
        self.hand_level += 1
        self.hands_in_level = 0
        self.level_tables = max(1, tables)
        if spec.break_every_levels > 0 and self.hand_level % spec.break_every_levels == 0:
            self.break_until = now + spec.break_seconds
        return True
