"""Gateway → table hosts: the players' commands, published at most once per window.

Every command a gateway forwarded was one NATS publish, and nats-py writes what is pending to its socket at the
next loop turn: one ``send`` per command, each waking the NATS server. :class:`Outbox` publishes the commands queued
since the last write together, at most once per ``window`` seconds (:data:`COMMAND_WINDOW_S`; ``riverboat serve
--role gateway --command-window-ms``): nats-py then writes them with one ``send``. Measured (docs/performance.md,
cluster section of 2026-12-05 11:45 UTC): 5 ms took a quarter off the NATS server's CPU and little off the
gateway's; with the hosts' delivery window, doubling both (10 and 20 ms) saved 4-12 % of the cluster's CPU per
action.

A command queued when the last write is at least a window old leaves at the next loop turn, as without a window; one
queued sooner waits for the window to close, with every command queued meanwhile. So an idle room pays nothing, and
under load a command waits up to ``window`` (half of it on average). Commands leave in the order they were queued (a
player's commands stay in order); a command whose caller stopped waiting (its timeout) before its turn is not sent;
a publish that fails fails its command's future, as the publish itself did before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from riverboat.cluster.window import call_in_window

#: seconds between two writes of a gateway's commands under load (docs/performance.md, cluster section of
#: 2026-12-05 11:45 UTC: 0 against 5 ms, then 5 against 10 ms)
COMMAND_WINDOW_S = 0.01

Publish = Callable[[str, bytes, str], Awaitable[None]]  # (subject, data, reply subject)


class Outbox:
    def __init__(self, publish: Publish, window: float = COMMAND_WINDOW_S) -> None:
        self.publish = publish
        self.window = window  # at most one write per this many seconds (0: at every loop turn)
        self._queued: list[tuple[str, bytes, str, asyncio.Future[Any]]] = []
        self._scheduled = False
        self._sent_at = float("-inf")  # loop time of the last write (the window runs from there)
        self._last: asyncio.Future[None] | None = None  # the batch being published (the next one waits for it)
        self.commands = 0  # commands published (statistics)
        self.writes = 0  # batches published

    def put(self, subject: str, data: bytes, reply: str, fut: asyncio.Future[Any]) -> None:
        """Queue a command; ``fut`` (its caller's reply future) gets the exception if its publish fails."""
        self._queued.append((subject, data, reply, fut))
        if not self._scheduled:
            self._scheduled = True
            call_in_window(self._sent_at, self.window, self._go)

    def _go(self) -> None:
        self._scheduled = False
        batch, self._queued = self._queued, []
        if batch:
            self._sent_at = asyncio.get_running_loop().time()
            self.writes += 1
            self._last = asyncio.ensure_future(self._send(batch, self._last))

    async def _send(self, batch: list[tuple[str, bytes, str, asyncio.Future[Any]]],
                    before: asyncio.Future[None] | None) -> None:
        if before is not None and not before.done():
            await before  # a publish that waited (nats-py's full buffer): the batches stay in order
        for subject, data, reply, fut in batch:
            if fut.done():
                continue  # its caller gave up (timeout) before it left: not sent at all
            try:
                await self.publish(subject, data, reply)
                self.commands += 1
            except Exception as exc:  # noqa: BLE001 - handed to the caller, as the publish raised it before
                if not fut.done():
                    fut.set_exception(exc)
