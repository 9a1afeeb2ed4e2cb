"""The injected FakeClock that every timer test relies on (R-TIME timers are driven by it, nothing sleeps)."""

from __future__ import annotations

import asyncio

import pytest

from riverboat.room import FakeClock, RoomError
from riverboat.room.actor import Actor


async def test_fake_clock_fires_timers_in_deadline_order_and_honours_cancel() -> None:
    clock = FakeClock()
    fired: list[tuple[str, float]] = []
    clock.call_later(5, lambda: fired.append(("b", clock.now())))
    clock.call_later(2, lambda: fired.append(("a", clock.now())))
    cancelled = clock.call_later(3, lambda: fired.append(("x", clock.now())))
    cancelled.cancel()
    await clock.advance(4.9)
    assert fired == [("a", 2.0)] and clock.now() == 4.9
    await clock.advance(0.1)
    assert fired == [("a", 2.0), ("b", 5.0)]
    assert clock.pending() == []


async def test_fake_clock_sleep_resolves_only_when_time_is_advanced() -> None:
    clock = FakeClock()
    task = asyncio.get_running_loop().create_task(clock.sleep(30))
    await asyncio.sleep(0)
    await clock.advance(29.99)
    assert not task.done()
    await clock.advance(0.01)
    await asyncio.sleep(0)
    assert task.done()
    with pytest.raises(ValueError):
        await clock.advance(-1)


async def test_fake_clock_timers_scheduled_by_a_timer_fire_within_the_same_advance() -> None:
    clock = FakeClock()
    times: list[float] = []

    def again() -> None:
        times.append(clock.now())
        if len(times) < 3:
            clock.call_later(20, again)

    clock.call_later(20, again)
    await clock.advance(60)
    assert times == [20.0, 40.0, 60.0]
    assert clock.wall() - clock.now() == FakeClock().wall()


async def test_actor_runs_commands_one_at_a_time_and_reports_errors() -> None:
    actor = Actor("test")
    with pytest.raises(RoomError) as err:
        await actor.submit(lambda: asyncio.sleep(0))
    assert err.value.code == "not_started"
    actor.start()
    order: list[int] = []

    async def slow(i: int) -> int:
        order.append(i)
        await asyncio.sleep(0)
        order.append(-i)
        return i

    results = await asyncio.gather(*(actor.submit(lambda i=i: slow(i)) for i in (1, 2, 3)))
    assert results == [1, 2, 3] and order == [1, -1, 2, -2, 3, -3]

    async def boom() -> None:
        raise RoomError("bad_amount", "no")

    with pytest.raises(RoomError):
        await actor.submit(boom)
    assert await actor.submit(lambda: slow(4)) == 4  # still alive after a failed command
    await actor.stop()
    with pytest.raises(RoomError) as err:
        await actor.submit(lambda: slow(5))
    assert err.value.code == "table_closed"
