"""The gateway's command timeout (riverboat.cluster.deadlines, issue #15 speed; docs/cluster.md): a command whose
host does not answer within the timeout fails with ``table_timeout`` (R-SERVER-1: the player is told the command may
not have applied) -- through one timer for all commands instead of one per command."""

from __future__ import annotations

import asyncio

import pytest

from riverboat.cluster.deadlines import Deadlines


def test_r_server_1_an_unanswered_command_times_out_after_its_timeout_and_not_before() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        d = Deadlines(0.2, granularity=0.02)
        fut: asyncio.Future[int] = loop.create_future()
        t0 = loop.time()
        d.watch(fut)
        await asyncio.sleep(0.15)
        assert not fut.done()  # before its deadline: still waiting
        with pytest.raises(TimeoutError):
            await fut
        waited = loop.time() - t0
        assert 0.2 <= waited < 0.2 + 0.02 + 0.1  # at most one granularity late (plus scheduling slack)
        assert d.expired == 1

    asyncio.run(scenario())


def test_r_server_1_answered_commands_are_left_alone_and_the_others_expire_in_order() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        d = Deadlines(0.2, granularity=0.02)
        futs: list[asyncio.Future[int]] = []
        for _ in range(6):
            fut: asyncio.Future[int] = loop.create_future()
            d.watch(fut)
            futs.append(fut)
            await asyncio.sleep(0.03)
        for i in (0, 2, 4):
            futs[i].set_result(i)  # answered in time
        expired_at: dict[int, float] = {}

        async def wait(i: int) -> None:
            with pytest.raises(TimeoutError):
                await futs[i]
            expired_at[i] = loop.time()

        await asyncio.gather(*(wait(i) for i in (1, 3, 5)))
        assert [futs[i].result() for i in (0, 2, 4)] == [0, 2, 4]
        assert sorted(expired_at, key=expired_at.__getitem__) == [1, 3, 5] and d.expired == 3

    asyncio.run(scenario())


def test_one_timer_serves_every_command_in_flight() -> None:
    """The point of the class: 1,000 commands in flight, one timer handle on the loop (not one per command)."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        d = Deadlines(5.0)
        futs = [loop.create_future() for _ in range(1000)]
        d.watch(futs[0])
        timer = d._timer
        assert timer is not None
        for fut in futs[1:]:
            d.watch(fut)
        assert d._timer is timer and not timer.cancelled()
        for fut in futs:
            fut.set_result(None)
        d.close()
        assert timer.cancelled() and d._timer is None and d.expired == 0

    asyncio.run(scenario())


def test_closing_fails_the_commands_still_waiting() -> None:
    """A gateway that stops can no longer get any reply: its waiting commands fail now, none hangs."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        d = Deadlines(5.0)
        waiting, answered = loop.create_future(), loop.create_future()
        d.watch(waiting)
        d.watch(answered)
        answered.set_result(1)
        d.close()
        with pytest.raises(TimeoutError):
            await waiting
        assert answered.result() == 1 and d.expired == 1

    asyncio.run(scenario())
