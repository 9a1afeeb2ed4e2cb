"""The scheduled integrity scan of the server (issues #13, #34): every ``ServerConfig.integrity_scan_every`` seconds
the hands recorded since the last scan are folded into the stored counts (``store.integrity.scan``, incremental)
and the flags over every hand so far saved (``store.integrity.save_flags``).

The scan runs in a worker process of its own (it opens the database by URL), so its CPU time never competes with
the tables on the event loop's thread (the GIL), and its memory is the counts (players, pairs, table sessions),
never the hands; an in-memory SQLite database, which another process cannot open, is scanned in a worker thread
instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
from typing import Any

log = logging.getLogger(__name__)


def scan_database(url: str, min_hands: int) -> tuple[int, int]:
    """Fold the hands recorded since the last scan into the counts of the database at ``url`` and save the flags:
    (flags saved, worker process id)."""
    from riverboat.integrity import ScanConfig
    from riverboat.store import Store

    with Store(url) as store:
        run = store.integrity.scan(ScanConfig(min_hands=min_hands), incremental=True)
        log.info("integrity scan: %d new hand(s), %d in all", run.read, run.result.hands)
        return len(store.integrity.save_flags(run.result.flags, run.names)), os.getpid()


def _in_memory(url: str) -> bool:
    return url.startswith("sqlite") and (":memory:" in url or url.rstrip("/") in ("sqlite:", "sqlite://"))


class ScheduledScan:
    worker_pid: int | None = None  # the process the last scan ran in (a worker, never the server's)

    def __init__(self, store: Any, every: float, min_hands: int = 30) -> None:
        self.url = str(getattr(store, "url", ""))
        self.every = every
        self.min_hands = min_hands
        self.runs = 0
        self.last_flags = 0
        self._pool: concurrent.futures.Executor | None = None
        self._task: asyncio.Task[None] | None = None

    async def once(self) -> int:
        """One scan, off the event loop; the number of flags it saved."""
        loop = asyncio.get_running_loop()
        if self._pool is None:
            self._pool = (concurrent.futures.ThreadPoolExecutor(1) if _in_memory(self.url) else
                          concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")))
        self.last_flags, pid = await loop.run_in_executor(self._pool, scan_database, self.url, self.min_hands)
        ScheduledScan.worker_pid = pid
        self.runs += 1
        return self.last_flags

    def start(self) -> None:
        if self.every > 0 and self._task is None:
            self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                n = await self.once()
                log.info("integrity scan: %d flag(s) saved", n)
            except Exception:
                log.exception("integrity scan failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
