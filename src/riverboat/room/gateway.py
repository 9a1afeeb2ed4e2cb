"""Store access for the async room: every call to the synchronous store runs on one worker thread (so SQLite is
never written by two threads at once and the event loop never blocks), and store refusals become ``RoomError``s.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from riverboat.room.errors import RoomError

T = TypeVar("T")

_CODES = {
    "InsufficientFunds": "insufficient_funds",
    "NotFound": "not_found",
    "InvalidRequest": "bad_request",
    "IdempotencyConflict": "bad_request",
    "PermissionDenied": "forbidden",
}


class StoreGateway:
    """Runs store calls on a dedicated worker thread (``inline=True`` calls them directly, for tools)."""

    def __init__(self, store: Any, *, inline: bool = False, workers: int = 1) -> None:
        self.store = store
        self.inline = inline
        self._executor: ThreadPoolExecutor | None = (
            None if inline else ThreadPoolExecutor(max_workers=workers, thread_name_prefix="room-store")
        )

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            if self._executor is None:
                return fn(*args, **kwargs)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))
        except RoomError:
            raise
        except Exception as exc:
            code = next((c for name, c in _CODES.items() if any(k.__name__ == name for k in type(exc).__mro__)), None)
            if code is None:
                raise
            raise RoomError(code, str(exc)) from exc

    @property
    def ledger(self) -> Any:
        return self.store.ledger

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
