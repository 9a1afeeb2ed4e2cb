"""The gateway's command timeout: :class:`riverboat.cluster.deadlines.Deadlines` (one timer for every command in
flight) against its peer, ``asyncio.timeout`` around each wait (a timer scheduled and cancelled per command), and
a bare wait (no timeout) as the floor.

Each command is modelled as the gateway sends it: a future created, the wait started, the reply arriving a loop turn
later (``call_soon(set_result)``), with ``--in-flight`` commands outstanding at once (the gateway at 10,000 bots
holds dozens). Reports µs per command for each way on uvloop (the server's loop) and the ratios; ends with one
JSON line.

Run: ``.venv/bin/python bench/command_timeout.py --commands 200000``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable

from riverboat.cluster.deadlines import Deadlines

TIMEOUT_S = 5.0


async def run(way: str, commands: int, in_flight: int) -> float:
    loop = asyncio.get_running_loop()
    deadlines = Deadlines(TIMEOUT_S)

    async def bare() -> None:
        fut: asyncio.Future[int] = loop.create_future()
        loop.call_soon(fut.set_result, 1)
        await fut

    async def with_asyncio_timeout() -> None:
        fut: asyncio.Future[int] = loop.create_future()
        async with asyncio.timeout(TIMEOUT_S):
            loop.call_soon(fut.set_result, 1)
            await fut

    async def with_deadlines() -> None:
        fut: asyncio.Future[int] = loop.create_future()
        deadlines.watch(fut)
        loop.call_soon(fut.set_result, 1)
        await fut

    one: Callable[[], Awaitable[None]] = {"bare": bare, "asyncio_timeout": with_asyncio_timeout,
                                          "deadlines": with_deadlines}[way]

    async def worker(n: int) -> None:
        for _ in range(n):
            await one()

    t0 = time.process_time()
    await asyncio.gather(*(worker(commands // in_flight) for _ in range(in_flight)))
    cpu = time.process_time() - t0
    deadlines.close()
    return cpu / (commands // in_flight * in_flight) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=200_000)
    parser.add_argument("--in-flight", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    try:
        import uvloop

        new_loop: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    except ImportError:  # pragma: no cover
        new_loop = asyncio.new_event_loop
    best: dict[str, float] = {}
    for _ in range(args.repeats):  # interleaved, best of the repeats: the machine's noise hits every way alike
        for way in ("bare", "asyncio_timeout", "deadlines"):
            loop = new_loop()
            try:
                us = loop.run_until_complete(run(way, args.commands, args.in_flight))
            finally:
                loop.close()
            best[way] = min(best.get(way, us), us)
    extra_timeout = best["asyncio_timeout"] - best["bare"]
    extra_deadlines = best["deadlines"] - best["bare"]
    out = {"bench": "command_timeout", "commands": args.commands, "in_flight": args.in_flight,
           "repeats": args.repeats, "us_per_command": {k: round(v, 3) for k, v in best.items()},
           "timeout_cost_us": {"asyncio_timeout": round(extra_timeout, 3), "deadlines": round(extra_deadlines, 3)},
           "asyncio_timeout_over_deadlines": round(best["asyncio_timeout"] / best["deadlines"], 2)}
    for way, us in best.items():
        print(f"{way:16s} {us:7.3f} µs per command (CPU)")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
