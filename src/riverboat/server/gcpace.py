"""Garbage-collector pacing for a long-running server process.

CPython's cyclic collector runs a *full* collection whenever enough objects have survived into the oldest
generation; its pause grows with the whole heap. With thousands of connections that heap is millions of objects and
each full collection stopped the event loop for 0.1–1.2 s every few seconds (measured in ``bench/load.py`` at 2,000
bots: docs/performance.md, "Server under load") — the main source of the latency tail.

:class:`GcPacer` keeps the young generations automatic (they are cheap and catch most cyclic garbage) and takes the
old generation out of the automatic schedule:

- at start, everything alive (modules, tables, the app) is frozen (``gc.freeze``): never scanned again;
- every ``young_every`` seconds: a full collection of the *unfrozen* heap (only what was created since the last
  freeze: small), then ``gc.freeze()`` so that the survivors are not scanned again either;
- every ``full_every`` seconds: ``gc.unfreeze()`` and one real full collection, so that cyclic garbage among
  objects that were frozen while alive (a closed connection, a finished hand) is reclaimed; this is the one long
  pause left, once per ``full_every`` instead of every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)


class GcPacer:
    def __init__(self, *, young_every: float = 5.0, full_every: float = 1800.0) -> None:
        self.young_every = young_every
        self.full_every = full_every
        self.pauses: list[float] = []  # seconds of the paced collections (most recent last, at most 100)
        self._task: asyncio.Task[None] | None = None
        self._old_threshold = gc.get_threshold()

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        t0, t1, _t2 = self._old_threshold
        gc.set_threshold(t0, t1, 1_000_000_000)  # no automatic collection of the oldest generation
        self._task = asyncio.get_running_loop().create_task(self._run(), name="gc-pacer")

    def _collect(self, full: bool) -> None:
        t = time.perf_counter()
        if full:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        took = time.perf_counter() - t
        self.pauses.append(took)
        del self.pauses[:-100]
        if took > 0.05:
            log.info("paced %s collection took %.0f ms", "full" if full else "young", took * 1000)

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.young_every)
            full = time.monotonic() - last_full >= self.full_every
            self._collect(full)
            if full:
                last_full = time.monotonic()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        gc.unfreeze()
        gc.set_threshold(*self._old_threshold)
