"""The gateway's command timeout without a timer per command.

Every command a gateway sends waits for its reply at most ``timeout`` seconds (``RemoteRoom``'s ``table_timeout``).
``asyncio.timeout`` around each wait scheduled a timer and cancelled it again for every command, hundreds a second
at 10,000 bots (``bench/command_timeout.py`` measures both ways, docs/performance.md). All commands share one
timeout, so their deadlines come in the order they were sent: :class:`Deadlines` keeps them in a queue and runs one timer, at the oldest deadline (plus ``granularity``, so
that one firing expires every deadline that fell in it). A future still waiting at its deadline gets
``TimeoutError``; one answered before it is dropped from the queue when its deadline passes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

#: at most this late, in seconds, a command's timeout fires (one timer per this long under load, not per command)
GRANULARITY_S = 0.1


class Deadlines:
    def __init__(self, timeout: float, granularity: float = GRANULARITY_S) -> None:
        self.timeout = timeout
        self.granularity = min(granularity, timeout / 4)
        self._queue: deque[tuple[float, asyncio.Future[Any]]] = deque()  # (deadline, future), deadlines rising
        self._timer: asyncio.TimerHandle | None = None
        self.expired = 0  # futures failed with TimeoutError (statistics)

    def watch(self, fut: asyncio.Future[Any]) -> None:
        """Fail ``fut`` with ``TimeoutError`` if it is not done ``timeout`` seconds from now."""
        loop = asyncio.get_running_loop()
        self._queue.append((loop.time() + self.timeout, fut))
        if self._timer is None:
            self._timer = loop.call_at(self._queue[0][0] + self.granularity, self._sweep)

    def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        now, queue = loop.time(), self._queue
        while queue and queue[0][0] <= now:
            self._expire(queue.popleft()[1])
        self._timer = loop.call_at(queue[0][0] + self.granularity, self._sweep) if queue else None

    def close(self) -> None:
        """Stop the timer; every future still waiting fails with ``TimeoutError`` now (its reply can no longer
        come: the gateway is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._queue:
            self._expire(self._queue.popleft()[1])

    def _expire(self, fut: asyncio.Future[Any]) -> None:
        if not fut.done():
            fut.set_exception(TimeoutError())
            self.expired += 1
