"""The single-writer actor: one asyncio task runs every command of one table (or pool), one at a time.

Commands are coroutine functions put on a queue; callers await their result (a ``RoomError`` propagates to the
caller and, because commands validate before they change anything, leaves the state as it was). Timers post
commands without waiting. ``idle`` is set whenever the queue is empty and nothing runs, which lets tests (through
``FakeClock.advance``) wait until every actor has finished reacting to a timer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from riverboat.room.errors import RoomError

T = TypeVar("T")
log = logging.getLogger("riverboat.room")


class Actor:
    def __init__(self, name: str) -> None:
        self.name = name
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]] = (
            asyncio.Queue()
        )
        self.idle = asyncio.Event()
        self.idle.set()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"actor:{self.name}")

    async def submit(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` inside the actor and return its result (or raise its exception)."""
        if self.closed:
            raise RoomError("table_closed", f"{self.name} is closed")
        if self._task is None:
            raise RoomError("not_started", f"{self.name} is not running yet: call room.start() first")
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.idle.clear()
        self._queue.put_nowait((fn, fut))
        return await fut

    def post(self, fn: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``fn`` without waiting for it (timers, internal follow-ups)."""
        if self.closed:
            return
        self.idle.clear()
        self._queue.put_nowait((fn, None))

    async def _run(self) -> None:
        while True:
            fn, fut = await self._queue.get()
            try:
                result = await fn()
            except asyncio.CancelledError:
                if fut is not None and not fut.done():
                    fut.cancel()
                raise
            except Exception as exc:  # a command failed: report to its caller, keep the actor alive
                if fut is not None:
                    if not fut.done():
                        fut.set_exception(exc)
                else:
                    log.exception("%s: internal command failed", self.name)
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)
            finally:
                if self._queue.empty():
                    self.idle.set()

    @property
    def busy(self) -> bool:
        return not self.idle.is_set()

    async def stop(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        while not self._queue.empty():
            _fn, fut = self._queue.get_nowait()
            if fut is not None and not fut.done():
                fut.cancel()
        self.idle.set()
