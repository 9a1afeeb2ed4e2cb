"""The opt-in latency probe (riverboat.room.probe, ``RIVERBOAT_PROBE``): each store call's round trip is split into
its wait and its group's run time, and the loop's lag is measured (benchmarks: docs/performance.md)."""

from __future__ import annotations

import asyncio
import logging
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
