"""Where a room process's latency goes: an opt-in probe for benchmarks (``RIVERBOAT_PROBE=<seconds>``).

When the environment variable is set to a period in seconds, the process logs one line per period (logger
``riverboat.probe``, WARNING so that it shows at the benches' ``--log-level warning``):

- ``loop``: the event loop's lag, i.e. how late a 10 ms timer fires (p50 / p99 / max): a loop busy with CPU work
  or stalled by the GIL shows here;
- ``store``: each store call of the :class:`~riverboat.room.gateway.StoreGateway` from the caller's ``await`` to
  its answer, split into the time it waited (queued behind other calls, the pipe, the answer's way back to the loop)
  and the time its group commit took to run in the store process, with the group's size; per call name;
- ``cpu``: the CPU the event loop's thread used in the period (``time.thread_time``, per cent of one core), and
  how much of it the cyclic garbage collector took (``gc.callbacks``: milliseconds per second and collections per
  generation): it says whether a change of the collector's pacing (:mod:`riverboat.server.gcpace`) saved CPU,
  which the whole machine's noise hides in the benches' CPU per action.

Off (the default), the probe costs one attribute test per store call. Nothing in it changes behaviour.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import os
import threading
import time
from collections import defaultdict

log = logging.getLogger("riverboat.probe")


def period() -> float:
    """The probe's reporting period in seconds (0: off), from ``RIVERBOAT_PROBE``."""
    try:
        return max(0.0, float(os.environ.get("RIVERBOAT_PROBE", "0") or 0))
    except ValueError:
        return 0.0


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


class StoreTimings:
    """Store calls' round trips (thread-safe: answers arrive on the gateway's reader thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[str, list[tuple[float, float, int]]] = defaultdict(list)  # name -> (total, exec, batch)

    def record(self, name: str, total: float, exec_s: float = float("nan"), batch: int = 0) -> None:
        with self._lock:
            self._calls[name].append((total, exec_s, batch))

    def take(self) -> dict[str, list[tuple[float, float, int]]]:
        with self._lock:
            calls, self._calls = self._calls, defaultdict(list)
        return calls


def summary(calls: dict[str, list[tuple[float, float, int]]]) -> str:
    parts = []
    every = [c for v in calls.values() for c in v]
    for name, rows in sorted([("ALL", every), *calls.items()], key=lambda kv: -len(kv[1])):
        if not rows:
            continue
        totals = [r[0] * 1000 for r in rows]
        execs = [r[1] * 1000 for r in rows if not math.isnan(r[1])]
        waits = [(r[0] - r[1]) * 1000 for r in rows if not math.isnan(r[1])]
        batches = [r[2] for r in rows if r[2]]
        parts.append(f"{name} n={len(rows)} total p50={_pct(totals, 50):.1f} p99={_pct(totals, 99):.1f} "
                     f"max={max(totals):.1f}"
                     + (f" | wait p50={_pct(waits, 50):.1f} p99={_pct(waits, 99):.1f} exec p50={_pct(execs, 50):.1f} "
                        f"p99={_pct(execs, 99):.1f} batch mean={sum(batches) / len(batches):.1f} max={max(batches)}"
                        if execs else ""))
    return "; ".join(parts)


STORE = StoreTimings()


class GcTimings:
    """Time spent in the process's cyclic garbage collector, in whichever thread (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.counts = [0, 0, 0]
        self._t0 = 0.0

    def callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._t0
            self.counts[info.get("generation", 0)] += 1

    def take(self) -> tuple[float, list[int]]:
        out = self.seconds, self.counts
        self.seconds, self.counts = 0.0, [0, 0, 0]
        return out


GC = GcTimings()


async def run(every: float, interval: float = 0.01) -> None:
    """Measure the loop's lag and log it with the store calls' timings every ``every`` seconds."""
    lags: list[float] = []
    loop = asyncio.get_running_loop()
    last = loop.time()
    if GC.callback not in gc.callbacks:
        gc.callbacks.append(GC.callback)
    GC.take()
    cpu0 = time.thread_time()
    try:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(interval)
            lags.append((time.perf_counter() - t - interval) * 1000)
            if loop.time() - last >= every:
                span, last = loop.time() - last, loop.time()
                cpu, cpu0 = time.thread_time() - cpu0, time.thread_time()
                gc_s, gc_n = GC.take()
                log.warning("loop lag ms p50=%.1f p99=%.1f max=%.1f (n=%d) | cpu loop=%.1f%% gc=%.1f ms/s (n=%s) | "
                            "store: %s", _pct(lags, 50), _pct(lags, 99), max(lags), len(lags), 100 * cpu / span,
                            1000 * gc_s / span, "/".join(map(str, gc_n)), summary(STORE.take()) or "no calls")
                lags = []
    finally:
        if GC.callback in gc.callbacks:
            gc.callbacks.remove(GC.callback)


_tasks: set[asyncio.Task[None]] = set()


def start() -> asyncio.Task[None] | None:
    """Start the probe in the running loop if ``RIVERBOAT_PROBE`` is set; returns its task (it ends with the loop)."""
    every = period()
    if not every:
        return None
    task = asyncio.get_running_loop().create_task(run(every), name="riverboat-probe")
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
    return task
