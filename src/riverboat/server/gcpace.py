"""Garbage-collector pacing for a long-running server process.

CPython's cyclic collector runs a *full* collection whenever enough objects have survived into the oldest
generation; its pause grows with the whole heap. With thousands of connections that heap is millions of objects and
each full collection stopped the event loop for 0.1–1.2 s every few seconds (measured in ``bench/load.py`` at 2,000
bots: docs/performance.md, "Server under load") — the main source of the latency tail.

:class:`GcPacer` leaves the two young generations automatic (they are small, and catch the cycles that die young:
most of them) and takes the old generation out of the automatic schedule:

- every ``freeze_every`` seconds, ``gc.freeze()``: whatever is alive moves to the permanent generation and is not
  scanned again (a freeze costs nothing: no traversal);
- every ``full_every`` seconds, ``gc.unfreeze()`` and one real full collection, then a freeze: cyclic garbage among
  objects that were frozen while alive (a closed connection, a finished hand) is reclaimed then. This is the one
  long pause left: once per ``full_every`` instead of every few seconds.

(A first version collected the unfrozen heap every 5 s before freezing it; with 5,000 connections each of those
collections still took 60–120 ms, which set the latency p99.)

The youngest generation is collected every ``young_threshold`` net allocations of tracked objects instead of
CPython's 700. A server allocates and frees short-lived containers at a high rate (a frame's dicts, the futures,
tasks and queue entries of every socket write): with 700, a young collection ran every few hundred microseconds of
work and traversed objects a moment before their reference counts freed them anyway. That was 14 % of a cluster
gateway's CPU at 10,000 bots (``perf``: ``gc_collect_main``, ``visit_decref``, ``visit_reachable``;
docs/performance.md). A larger threshold lets most of them die first; a young collection then traverses at most
that many objects (about a millisecond).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time

log = logging.getLogger(__name__)

#: net allocations of tracked objects between two collections of the youngest generation (CPython's default: 700;
#: ``RIVERBOAT_GC_YOUNG`` overrides it, for benchmarks comparing the two, docs/performance.md)
YOUNG_THRESHOLD = int(os.environ.get("RIVERBOAT_GC_YOUNG", "20000"))


class GcPacer:
    def __init__(self, *, freeze_every: float = 1.0, full_every: float = 1800.0,
                 young_threshold: int = YOUNG_THRESHOLD) -> None:
        self.freeze_every = freeze_every
        self.young_threshold = young_threshold
        self.full_every = full_every
        self.pauses: list[float] = []  # seconds of the paced full collections (most recent last, at most 100)
        self._task: asyncio.Task[None] | None = None
        self._old_threshold = gc.get_threshold()

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        _t0, t1, _t2 = self._old_threshold
        gc.set_threshold(self.young_threshold, t1, 1_000_000_000)  # no automatic collection of the oldest generation
        self._task = asyncio.get_running_loop().create_task(self._run(), name="gc-pacer")

    def full_collection(self) -> int:
        """Unfreeze, collect everything, freeze the survivors; returns the number of unreachable objects found."""
        t = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        took = time.perf_counter() - t
        self.pauses.append(took)
        del self.pauses[:-100]
        log.info("paced full collection: %d unreachable objects, %.0f ms", found, took * 1000)
        return found

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.freeze_every)
            if time.monotonic() - last_full >= self.full_every:
                self.full_collection()
                last_full = time.monotonic()
            else:
                gc.freeze()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        gc.unfreeze()
        gc.set_threshold(*self._old_threshold)
