"""Injected time for the room: every timer of every table goes through a :class:`Clock`.

``RealClock`` uses the running asyncio loop. ``FakeClock`` keeps a virtual ``now`` and a heap of timers; tests
call ``await clock.advance(seconds)``, which fires the due timers in deadline order and, after each one, awaits
the *settle* hooks registered by rooms so that table actors process what the timer queued before the next timer
is looked at. Nothing ever sleeps for real.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since an arbitrary epoch (monotonic)."""
        ...

    def wall(self) -> float:
        """Unix time (used for rolling 24-hour allowances, R-AAI-2)."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle: ...

    async def sleep(self, delay: float) -> None: ...


class RealClock:
    """Wall-clock time on the running event loop."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)

    async def sleep(self, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))


class _FakeTimer:
    __slots__ = ("deadline", "seq", "callback", "cancelled")

    def __init__(self, deadline: float, seq: int, callback: Callable[[], None]) -> None:
        self.deadline = deadline
        self.seq = seq
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: _FakeTimer) -> bool:
        return (self.deadline, self.seq) < (other.deadline, other.seq)


class FakeClock:
    """A clock for tests: time only moves when ``advance`` is awaited."""

    def __init__(self, start: float = 0.0, wall_start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._wall_offset = wall_start - start
        self._heap: list[_FakeTimer] = []
        self._seq = itertools.count()
        self._settle_hooks: list[Callable[[], Awaitable[None]]] = []

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._wall_offset

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        timer = _FakeTimer(self._now + max(0.0, delay), next(self._seq), callback)
        heapq.heappush(self._heap, timer)
        return timer

    async def sleep(self, delay: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not fut.done():
                fut.set_result(None)

        self.call_later(delay, wake)
        await fut

    def add_settle_hook(self, hook: Callable[[], Awaitable[None]]) -> None:
        """Register an awaitable run after every fired timer (a room's ``quiesce``)."""
        self._settle_hooks.append(hook)

    def remove_settle_hook(self, hook: Callable[[], Awaitable[None]]) -> None:
        if hook in self._settle_hooks:
            self._settle_hooks.remove(hook)

    def pending(self) -> list[float]:
        """Deadlines of the live timers, earliest first (for tests and debugging)."""
        return sorted(t.deadline for t in self._heap if not t.cancelled)

    async def settle(self) -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        for hook in list(self._settle_hooks):
            await hook()

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, firing every timer that falls due, in order."""
        if seconds < 0:
            raise ValueError("time cannot go backwards")
        target = self._now + seconds
        await self.settle()
        while True:
            while self._heap and self._heap[0].cancelled:
                heapq.heappop(self._heap)
            if not self._heap or self._heap[0].deadline > target:
                break
            timer = heapq.heappop(self._heap)
            self._now = max(self._now, timer.deadline)
            timer.callback()
            await self.settle()
        self._now = target
        await self.settle()
