"""Many NATS round trips at once, a bounded batch at a time (taking tables over, handing them back, forgetting
presences): one at a time they add up to minutes under load; all at once they flood the connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


async def gather_in_batches(fn: Callable[[T], Awaitable[Any]], items: Sequence[T], size: int, *,
                            return_exceptions: bool = False) -> None:
    """``fn(item)`` for every item, ``size`` of them concurrently, batch after batch. With ``return_exceptions``
    a failure of one call does not stop the others (a stopping node does what it can)."""
    for i in range(0, len(items), size):
        await asyncio.gather(*(fn(item) for item in items[i:i + size]), return_exceptions=return_exceptions)
