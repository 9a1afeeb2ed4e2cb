"""The opt-in latency probe (riverboat.room.probe, ``RIVERBOAT_PROBE``): each store call's round trip is split into
its wait and its group's run time, and the loop's lag is measured (benchmarks: docs/performance.md)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import re
import time
from contextlib import contextmanager
from typing import Any

import pytest

from riverboat.room import probe
from riverboat.room.gateway import StoreGateway


class _Store:
    url = "sqlite://"

    @contextmanager
    def batch(self) -> Any:
        yield

    def slow(self, x: int) -> int:
        time.sleep(0.02)
        return x * 2


def test_the_probe_times_store_calls_and_the_loop(monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("RIVERBOAT_PROBE", "0.05")
    probe.STORE.take()
    store = _Store()
    gw = StoreGateway(store)

    async def main() -> None:
        task = probe.start()
        assert task is not None
        assert await asyncio.gather(*(gw.call(store.slow, i) for i in range(3))) == [0, 2, 4]
        await asyncio.sleep(0.12)
        task.cancel()

    try:
        with caplog.at_level(logging.WARNING, logger="riverboat.probe"):
            asyncio.run(main())
    finally:
        gw.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "riverboat.probe"]
    assert lines and lines[0].startswith("loop lag ms")
    calls = "".join(lines)
    assert "thread:_Store.slow n=3" in calls and "exec p50=" in calls and "batch mean=" in calls


def test_the_probe_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RIVERBOAT_PROBE", raising=False)
    assert probe.period() == 0

    async def main() -> None:
        assert probe.start() is None

    asyncio.run(main())
    gw = StoreGateway(_Store())
    try:
        assert not gw._probe
    finally:
        gw.close()


def test_the_probe_reports_the_loop_cpu_and_the_collectors_time(monkeypatch: pytest.MonkeyPatch,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """The probe's ``cpu`` part: the loop thread's CPU and the cyclic collector's time and collections per
    generation in the period (how a change of the GC pacing is measured, docs/performance.md); its gc callback is
    removed when the probe ends."""
    monkeypatch.setenv("RIVERBOAT_PROBE", "0.05")

    async def main() -> None:
        task = probe.start()
        assert task is not None
        await asyncio.sleep(0)
        for _ in range(3):
            gc.collect(0)
        gc.collect(2)
        busy = time.thread_time() + 0.03
        while time.thread_time() < busy:  # CPU in the loop thread, within the first period
            pass
        await asyncio.sleep(0.07)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.WARNING, logger="riverboat.probe"):
        asyncio.run(main())
    first = next(r.getMessage() for r in caplog.records if r.name == "riverboat.probe")
    m = re.search(r"cpu loop=([0-9.]+)% gc=([0-9.]+) ms/s \(n=(\d+)/(\d+)/(\d+)\)", first)
    assert m, first
    assert float(m.group(1)) >= 20.0  # 30 ms of CPU in a period of about 80 ms
    assert (int(m.group(3)), int(m.group(5))) >= (3, 1)  # the collections made in the period were counted
    assert float(m.group(2)) > 0.0
    assert probe.GC.callback not in gc.callbacks
