"""Store access for the async room: every call to the synchronous store runs on a worker thread (one for SQLite, so
the database is never written by two threads of the room at once, and the event loop never blocks), and store
refusals become ``RoomError``s.

Group commit: a worker takes every call queued at that moment (up to ``max_batch``) and runs them in ONE database
transaction, each in its own SAVEPOINT (``riverboat.store._tx.Database.batch``). A call that is refused rolls back
to its savepoint and changes nothing, exactly as it would alone; the others commit together. No caller hears its
answer before that commit, so a table never deals a hand whose ``start_hand`` is not durable, and a crash before
the commit loses the whole group at once (every hand in it is then voided and refunded as R-SERVER requires, and
no buy-in or settlement was acknowledged). With a quiet room a batch holds one call: latency is as before; under
load the per-transaction cost (BEGIN, COMMIT, fsync) is shared by the whole group.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError

from riverboat.room.errors import RoomError

T = TypeVar("T")
log = logging.getLogger("riverboat.room")

_CODES = {
    "InsufficientFunds": "insufficient_funds",
    "NotFound": "not_found",
    "InvalidRequest": "bad_request",
    "IdempotencyConflict": "bad_request",
    "PermissionDenied": "forbidden",
}

MAX_BATCH = 64  # calls per group commit


@dataclass(slots=True)
class _Job:
    fn: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


def _settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if fut.done():  # the caller went away (cancelled)
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


def _room_error(exc: BaseException) -> BaseException:
    if isinstance(exc, RoomError):
        return exc
    code = next((c for name, c in _CODES.items() if any(k.__name__ == name for k in type(exc).__mro__)), None)
    if code is None:
        return exc
    err = RoomError(code, str(exc))
    err.__cause__ = exc
    return err


class StoreGateway:
    """Runs store calls on dedicated worker threads with group commit (``inline=True`` calls them directly, for
    tools; ``group_commit=False`` runs one transaction per call)."""

    def __init__(self, store: Any, *, inline: bool = False, workers: int = 1, group_commit: bool = True,
                 max_batch: int = MAX_BATCH) -> None:
        self.store = store
        self.inline = inline
        db = getattr(store, "_db", None)
        self._db = db if group_commit and hasattr(db, "batch") else None
        self.max_batch = max(1, max_batch)
        self.batches = 0  # group commits of 2+ calls (statistics)
        self.batched_calls = 0
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        if not inline:
            for i in range(max(1, workers)):
                t = threading.Thread(target=self._work, name=f"room-store-{i}", daemon=True)
                t.start()
                self._threads.append(t)

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.inline:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                err = _room_error(exc)
                if err is exc:
                    raise
                raise err from exc
        if not self._threads:
            raise RoomError("store_closed", "the room's store gateway is closed")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Job(lambda: fn(*args, **kwargs), loop, fut))
        return await fut

    # ------------------------------------------------------------------ worker threads
    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            jobs = [job]
            stop = False
            while len(jobs) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                jobs.append(more)
            if len(jobs) == 1 or self._db is None:
                for j in jobs:
                    self._answer(j, *self._run(j))
            else:
                self._run_batch(jobs)
            if stop:
                return

    @staticmethod
    def _run(job: _Job) -> tuple[bool, Any]:
        try:
            return True, job.fn()
        except Exception as exc:
            return False, _room_error(exc)

    @staticmethod
    def _answer(job: _Job, ok: bool, value: Any) -> None:
        try:
            job.loop.call_soon_threadsafe(_settle, job.future, ok, value)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass

    def _run_batch(self, jobs: list[_Job]) -> None:
        """One transaction for all ``jobs``, one savepoint each; answers only after the commit."""
        assert self._db is not None
        outcomes: list[tuple[bool, Any]] = []
        alone: list[int] = []  # calls that hit a transient database error: re-run on their own afterwards
        try:
            with self._db.batch():
                for i, job in enumerate(jobs):
                    ok, value = self._run(job)
                    if not ok and isinstance(value, DBAPIError):
                        alone.append(i)
                    outcomes.append((ok, value))
        except Exception:
            # the commit (or the batch itself) failed: nothing of it is stored; run every call on its own
            log.warning("group commit of %d store calls failed; running them one by one", len(jobs), exc_info=True)
            for job in jobs:
                self._answer(job, *self._run(job))
            return
        self.batches += 1
        self.batched_calls += len(jobs)
        for i in alone:
            outcomes[i] = self._run(jobs[i])
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            self._answer(job, ok, value)

    @property
    def ledger(self) -> Any:
        return self.store.ledger

    def close(self) -> None:
        threads, self._threads = self._threads, []
        for _ in threads:
            self._queue.put(None)
        for t in threads:
            t.join()
