"""Store access for the async room: every call to the synchronous store runs off the event loop, and store refusals
become ``RoomError``s.

Two ways to run the store work:

- **threads** (default): worker threads in this process (one for SQLite, so the database is never written by two
  threads of the room at once).
- **a store process** (``process=True``, the server's choice for a file or PostgreSQL database): one child process
  with its own ``Store`` on the same database runs the calls of :data:`PROCESS_CALLS`. Its ORM work then no longer competes for this
  process's GIL with the event loop. (With a busy store thread, the loop thread, which gives the GIL up at every
  ``select``, waits up to a whole switch interval to get it back after each one, so the room's latency grows with
  the store's load even while the CPU is half idle.) Calls are addressed by service and method name
  (``ledger.settle_hand``, the explicit list :data:`PROCESS_CALLS`); exceptions come back pickled.

Group commit, in both: a worker takes every call queued at that moment (up to ``max_batch``) and runs them in ONE
database transaction, each in its own SAVEPOINT (``riverboat.store._tx.Database.batch``). A call that is refused
rolls back to its savepoint and changes nothing, exactly as it would alone; the others commit together. No caller
hears its answer before that commit, so a table never deals a hand whose ``start_hand`` is not durable, and a crash
before the commit loses the whole group at once (every hand in it is then voided and refunded as R-SERVER requires,
and no buy-in or settlement was acknowledged). With a quiet room a batch holds one call: latency is as before;
under load the per-transaction cost (BEGIN, COMMIT, fsync) is shared by the whole group.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import multiprocessing
import pickle
import queue
import signal
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError

from riverboat.errors import wire_error
from riverboat.room import probe
from riverboat.room.errors import RoomError

if TYPE_CHECKING:
    from riverboat.store import Store
    from riverboat.store.ledger import Ledger

T = TypeVar("T")
P = ParamSpec("P")
log = logging.getLogger("riverboat.room")

MAX_BATCH = 64  # calls per group commit
#: Group commits a store process runs at once on PostgreSQL, each on its own connection (threads of the store
#: process). Its time there is mostly spent waiting for the database's answers (each statement, SAVEPOINT and
#: RELEASE is a round trip: 60% of the store process's time at 10,000 bots, docs/performance.md), so one group at
#: a time left the database and the CPU idle while every table's start_hand / settle_hand and every seat's buy-in
#: queued behind it. SQLite has one writer: one group at a time there.
PG_STORE_WORKERS = 4

#: The store calls a store process runs, as ``service.method`` of the ``Store``: an explicit list (a call of any
#: other callable runs on this process's worker thread, in the same group commits). Add a method here to move it
#: off this process's GIL.
PROCESS_CALLS: frozenset[str] = frozenset({
    "ledger.balance", "ledger.table_stack", "ledger.buy_in", "ledger.top_up", "ledger.cash_out", "ledger.deposit",
    "ledger.start_hand",
    "ledger.settle_hand", "ledger.void_unsettled_hands", "ledger.kept_stacks", "ledger.hands_dealt",
    "accounts.record_aai_use", "accounts.aai_uses_since",
    "accounts.get", "accounts.authenticate", "accounts.logout", "integrity.blocked",
    "aliases.set", "aliases.change",
    "hands.get", "hands.for_player",
    "fences.claim",
    "tournament_play.hand_done", "tournament_play.finish_unplayed",
})


#: Store calls that run on a thread of their own, each in its own transaction, outside the group commit: password
#: hashing (argon2, which releases the GIL) takes tens of milliseconds and must not hold a batch of settlements.
OWN_THREAD_CALLS: frozenset[str] = frozenset({
    "accounts.register", "accounts.login", "accounts.check_password",
    # issue #35: each checks or hashes a password
    "security.begin_enrolment", "security.confirm_enrolment", "security.change_password", "security.reset_password",
})


def _routes(store: Store) -> dict[Callable[..., object], str]:
    """``store``'s bound methods of :data:`PROCESS_CALLS` and :data:`OWN_THREAD_CALLS` -> their names (a bound method
    equals another bound method of the same object and function, so a call's callable is looked up, never taken
    apart)."""
    out: dict[Callable[..., object], str] = {}
    for name in PROCESS_CALLS | OWN_THREAD_CALLS:
        service, method = name.split(".")
        fn = getattr(getattr(store, service, None), method, None)
        if callable(fn):
            out[fn] = name
    return out


def _room_error(exc: BaseException) -> BaseException:
    """A store refusal as the room's ``RoomError``, with the code and player message the error registry gives its
    class (:mod:`riverboat.errors`: the same as REST and the WebSocket give it); anything else unchanged."""
    if isinstance(exc, RoomError):
        return exc
    wire = wire_error(exc)
    if wire is None:
        return exc
    err = RoomError(wire.code, wire.message)
    err.__cause__ = exc
    return err


#: One store call's outcome: ``(True, its result)`` or ``(False, the exception it raised)``. The result is whatever
#: the store method returns (the gateway runs all of them, queued and grouped together), so it is untyped here; the
#: typed entry points (:meth:`StoreGateway.call`, ``run``) give their caller the method's own return type.
Outcome = tuple[bool, Any]


def _run(fn: Callable[[], object]) -> Outcome:
    try:
        return True, fn()
    except Exception as exc:
        return False, exc


Batch = Callable[[], AbstractContextManager[None]]


def run_group(batch: Batch | None, fns: Sequence[Callable[[], object]]) -> list[Outcome]:
    """Run ``fns`` in one transaction opened by ``batch`` (``Store.batch``), one savepoint each, and return
    ``(ok, result or exception)`` per call once the transaction has committed. A call that hit a transient database
    error inside the group is run again on its own afterwards; if the group itself fails to commit (nothing of it
    is stored), every call is run again on its own."""
    if len(fns) == 1 or batch is None:
        return [_run(fn) for fn in fns]
    outcomes: list[Outcome] = []
    alone: list[int] = []
    try:
        with batch():
            for i, fn in enumerate(fns):
                ok, value = _run(fn)
                if not ok and isinstance(value, DBAPIError):
                    alone.append(i)
                outcomes.append((ok, value))
    except Exception:
        log.warning("group commit of %d store calls failed; running them one by one", len(fns), exc_info=True)
        return [_run(fn) for fn in fns]
    for i in alone:
        outcomes[i] = _run(fns[i])
    return outcomes


@dataclass(slots=True)
class _Job:
    fn: Callable[[], object]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


def _settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if fut.done():  # the caller went away (cancelled)
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


def _answer(loop: asyncio.AbstractEventLoop, fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    try:
        loop.call_soon_threadsafe(_settle, fut, ok, value)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        pass


class StoreGateway:
    """Runs store calls off the event loop with group commit: on worker threads, or in one store process
    (``process=True``; the calls of :data:`PROCESS_CALLS` go there). ``inline=True`` calls them directly (tools);
    ``group_commit=False``: one transaction per call. The one path from the room and the server to the store."""

    def __init__(self, store: Store, *, inline: bool = False, workers: int = 1, group_commit: bool = True,
                 max_batch: int = MAX_BATCH, process: bool = False) -> None:
        self.store = store
        self.inline = inline
        self._batch: Batch | None = store.batch if group_commit else None
        self._routes = _routes(store)
        self.max_batch = max(1, max_batch)
        self.batches = 0  # group commits of 2+ calls (thread mode statistics)
        self.batched_calls = 0
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._process: _StoreProcess | None = None
        self._closed = False
        self._probe = bool(probe.period())  # RIVERBOAT_PROBE: time every call (riverboat.room.probe)
        if inline:
            return
        if process:
            url = str(store.url)
            self._process = _StoreProcess(url, self.max_batch if group_commit else 1,
                                          workers=PG_STORE_WORKERS if url.startswith("postgresql") else 1)
        n = 1 if process else max(1, workers)  # in process mode the thread only runs calls the process cannot
        for i in range(n):
            t = threading.Thread(target=self._work, name=f"room-store-{i}", daemon=True)
            t.start()
            self._threads.append(t)

    @property
    def uses_process(self) -> bool:
        return self._process is not None

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn(*args, **kwargs)`` off the loop; a store refusal comes back as a ``RoomError`` with the code the
        error registry gives its class (the room's commands raise only ``RoomError``)."""
        try:
            return await self.run(fn, *args, **kwargs)
        except Exception as exc:
            err = _room_error(exc)
            if err is exc:
                raise
            raise err from exc

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """:meth:`call` keeping the store's own exception classes (the server answers them by class)."""
        if self.inline:
            return fn(*args, **kwargs)
        if self._closed:
            raise RoomError("store_closed", "the room's store gateway is closed")
        name = self.name_of(fn)
        if name in OWN_THREAD_CALLS:
            return await asyncio.to_thread(fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        t0 = time.perf_counter() if self._probe else 0.0
        if self._process is not None and name in PROCESS_CALLS:
            self._process.submit(name, args, kwargs, loop, fut)
        else:
            self._queue.put(_Job(lambda: fn(*args, **kwargs), loop, fut))
        if not self._probe:
            return await fut
        try:
            return await fut
        finally:
            timing = getattr(fut, "probe_timing", None) if fut.done() else None
            probe.STORE.record(name or f"thread:{getattr(fn, '__qualname__', fn)}", time.perf_counter() - t0,
                               *(timing or ()))

    async def call_all(self, calls: Sequence[tuple[Callable[..., object], tuple[object, ...]]]) -> list[Outcome]:
        """Hand several store calls ``(fn, args)`` over at once, for the group commit: inline, they run here in
        transactions of up to ``max_batch`` calls (:func:`run_group`); on the worker thread or the store process
        they are queued together, and the worker groups them the same way. Returns ``(ok, result or error)`` per
        call, in order, once each is committed (errors as :meth:`call` raises them); a refused call changes
        nothing and the others stand."""
        if self.inline:
            out: list[Outcome] = []
            for lo in range(0, len(calls), self.max_batch):
                chunk: list[Callable[[], object]] = [functools.partial(fn, *args)
                                                  for fn, args in calls[lo:lo + self.max_batch]]
                out.extend((ok, value if ok else _room_error(value)) for ok, value in run_group(self._batch, chunk))
            return out
        results = await asyncio.gather(*(self.call(fn, *args) for fn, args in calls), return_exceptions=True)
        return [(not isinstance(r, BaseException), r) for r in results]

    def name_of(self, fn: Callable[..., object]) -> str | None:
        """``"service.method"`` if ``fn`` is the store's method of that name listed in :data:`PROCESS_CALLS` or
        :data:`OWN_THREAD_CALLS`."""
        try:
            return self._routes.get(fn)
        except TypeError:  # an unhashable callable: not one of the store's methods
            return None

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
            t0 = time.perf_counter()
            outcomes = run_group(self._batch, [j.fn for j in jobs])
            if self._probe:
                took = time.perf_counter() - t0
                for j in jobs:
                    j.future.probe_timing = (took, len(jobs))  # type: ignore[attr-defined]
            if len(jobs) > 1 and self._batch is not None:
                self.batches += 1
                self.batched_calls += len(jobs)
            for j, (ok, value) in zip(jobs, outcomes, strict=True):
                _answer(j.loop, j.future, ok, value)
            if stop:
                return

    @property
    def ledger(self) -> Ledger:
        return self.store.ledger

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        threads, self._threads = self._threads, []
        for _ in threads:
            self._queue.put(None)
        for t in threads:
            t.join()
        if self._process is not None:
            self._process.close()


# ---------------------------------------------------------------------------------------------- store process

#: A call for the store process, as sent over the pipe: request id, ``service.method`` (one of
#: :data:`PROCESS_CALLS`), its positional and keyword arguments; ``None`` tells the process to stop.
Request = tuple[int, str, tuple[object, ...], dict[str, object]]
#: The store process's answer: request id, ok, the call's result or its exception, and the group's
#: ``(run seconds, size)`` (:mod:`riverboat.room.probe`).
Answer = tuple[int, bool, object, tuple[float, int]]
#: A call queued for the sender thread: name, arguments, and the loop and future its answer goes to.
_Submitted = tuple[str, tuple[object, ...], dict[str, object], asyncio.AbstractEventLoop, asyncio.Future[Any]]


class _StoreProcess:
    """One child process with its own ``Store(url)``; requests and answers go over a pipe. A reader thread here
    hands each answer to the waiting coroutine's loop. If the child dies, the calls in flight fail and the next
    call starts a new child."""

    _conn: Connection  # this end of the pipe to the current child (set by _start)
    _proc: BaseProcess

    def __init__(self, url: str, max_batch: int, workers: int = 1) -> None:
        self.url = url
        self.max_batch = max_batch
        self.workers = max(1, workers)
        self._ids = itertools.count(1)
        self._send_lock = threading.Lock()
        self._pending: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future[Any]]] = {}
        self._closing = False
        self._outgoing: queue.SimpleQueue[_Submitted | None] = queue.SimpleQueue()
        self._start()
        self._sender = threading.Thread(target=self._send_loop, name="room-store-sender", daemon=True)
        self._sender.start()

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork a process that runs an event loop and threads
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=store_process_main, args=(child, self.url, self.max_batch, self.workers),
                           daemon=True,
                           name="riverboat-store")
        proc.start()
        child.close()
        self._conn, self._proc = parent, proc
        reader = threading.Thread(target=self._read, args=(parent,), name="room-store-reader", daemon=True)
        reader.start()

    def submit(self, name: str, args: tuple[object, ...], kwargs: dict[str, object],
               loop: asyncio.AbstractEventLoop, fut: asyncio.Future[Any]) -> None:
        """Queue one call of ``name`` (one of :data:`PROCESS_CALLS`; never blocks: the sender thread pickles and
        writes it, so a full pipe while the child runs a large batch never stalls the event loop)."""
        self._outgoing.put((name, args, kwargs, loop, fut))

    def _send_loop(self) -> None:
        while True:
            item = self._outgoing.get()
            if item is None:
                return
            name, args, kwargs, loop, fut = item
            with self._send_lock:
                if not self._proc.is_alive():
                    log.error("store process is gone; starting a new one")
                    self._start()
                rid = next(self._ids)
                self._pending[rid] = (loop, fut)
                conn = self._conn
            request: Request = (rid, name, args, kwargs)
            try:
                conn.send(request)
            except Exception as exc:
                with self._send_lock:
                    self._pending.pop(rid, None)
                log.error("could not send a call to the store process: %r", exc)
                _answer(loop, fut, False, RoomError("store_unavailable", "the room cannot reach its database just "
                                                                         "now; please try again"))

    def _read(self, conn: Connection) -> None:
        while True:
            try:
                answer: Answer = conn.recv()
                rid, ok, value, timing = answer
            except (EOFError, OSError):
                break
            except Exception as exc:  # an answer that could not be unpickled: fail that call only if we can tell
                log.error("unreadable answer from the store process: %r", exc)
                continue
            waiter = self._pending.pop(rid, None)
            if waiter is not None:
                waiter[1].probe_timing = timing  # type: ignore[attr-defined]  # (group's run seconds, group size)
                _answer(waiter[0], waiter[1], ok, value)
        with self._send_lock:
            if self._conn is conn:
                pending, self._pending = self._pending, {}
                for loop, fut in pending.values():
                    _answer(loop, fut, False, RoomError("store_unavailable", "the room lost its database connection; "
                                                                       "please try again"))
                if not self._closing:
                    log.error("the store process stopped unexpectedly")

    def close(self) -> None:
        self._outgoing.put(None)
        self._sender.join()
        with self._send_lock:
            self._closing = True
            try:
                self._conn.send(None)
            except Exception:
                pass
        self._proc.join(timeout=30)
        if self._proc.is_alive():  # pragma: no cover - a stuck child
            self._proc.terminate()
            self._proc.join(timeout=5)
        self._conn.close()


def store_process_main(conn: Connection, url: str, max_batch: int, workers: int = 1) -> None:
    """Body of the store process: serve calls in arrival order, grouped like the thread workers, until the parent
    says stop or goes away. Ctrl-C is for the parent (it stops the room, which still needs the store).

    ``workers`` > 1 (PostgreSQL): that many threads run their groups at once, each group in its own transaction on
    its own connection (the threads wait for the database with the GIL released). A call goes to the worker that
    its first argument (the table, player or tournament it is about) names, so the calls about one thing run in
    the order they were sent, as with one worker (a tournament's staged hands, sent together, are recorded in
    their order); calls that depend on each other otherwise are never in flight together (a table's actor, a
    connection's command, a player's money call each await the answer, given after the commit, before the next
    one). Two groups that touch the same account wait for each other's commit on its row lock
    (``lock_accounts``); a deadlock between groups is the transient error after which each call of the failed
    group runs again alone (:func:`run_group`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    from riverboat.store import Store

    store = Store(url)
    batch = store.batch if max_batch > 1 else None
    if workers > 1:
        try:
            _serve_parallel(conn, store, batch, max_batch, workers)
        finally:
            store.dispose()
        return
    try:
        while True:
            try:
                first: Request | None = conn.recv()
            except (EOFError, OSError):
                return
            if first is None:
                return
            msgs = [first]
            stop = False
            while len(msgs) < max_batch and conn.poll():
                try:
                    more: Request | None = conn.recv()
                except (EOFError, OSError):
                    stop = True
                    break
                if more is None:
                    stop = True
                    break
                msgs.append(more)
            outcomes, timing = _run_timed(store, batch, msgs)
            for (rid, *_), (ok, value) in zip(msgs, outcomes, strict=True):
                if not ok:
                    value = _portable(value)
                try:
                    conn.send((rid, ok, value, timing))
                except (pickle.PicklingError, TypeError, AttributeError) as exc:
                    conn.send((rid, False, RuntimeError(f"unpicklable store answer: {exc}"), timing))
                except (EOFError, OSError):
                    return
            if stop:
                return
    finally:
        store.dispose()


def _run_timed(store: Store, batch: Batch | None, msgs: list[Request]) -> tuple[list[Outcome], tuple[float, int]]:
    """One group of the store process's calls run together: the outcomes, and the group's run time and size
    (reported with every answer, :mod:`riverboat.room.probe`)."""
    fns = [_bind(store, name, args, kwargs) for _rid, name, args, kwargs in msgs]
    t0 = time.perf_counter()
    outcomes = run_group(batch, fns)
    return outcomes, (time.perf_counter() - t0, len(msgs))


def _serve_parallel(conn: Connection, store: Store, batch: Batch | None, max_batch: int, workers: int) -> None:
    """:func:`store_process_main` with ``workers`` threads: this thread reads the calls off the pipe into the queue
    of the worker their first argument names (:func:`worker_of`); each worker takes what is queued for it (up to
    ``max_batch``), runs it as one group and answers (one sender at a time on the pipe)."""
    queues: list[queue.SimpleQueue[Request | None]] = [queue.SimpleQueue() for _ in range(workers)]
    send_lock = threading.Lock()
    gone = threading.Event()

    def answer(rid: int, ok: bool, value: object, timing: tuple[float, int]) -> None:
        with send_lock:
            try:
                conn.send((rid, ok, value, timing))
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                conn.send((rid, False, RuntimeError(f"unpicklable store answer: {exc}"), timing))

    def work(calls: queue.SimpleQueue[Request | None]) -> None:
        while True:
            first = calls.get()
            if first is None:
                return
            msgs = [first]
            stop = False
            while len(msgs) < max_batch:
                try:
                    more = calls.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                msgs.append(more)
            outcomes, timing = _run_timed(store, batch, msgs)
            try:
                for (rid, *_), (ok, value) in zip(msgs, outcomes, strict=True):
                    answer(rid, ok, value if ok else _portable(value), timing)
            except (EOFError, OSError):
                gone.set()
                return
            if stop:
                return

    threads = [threading.Thread(target=work, args=(q,), name=f"store-worker-{i}", daemon=True)
               for i, q in enumerate(queues)]
    for t in threads:
        t.start()
    try:
        while not gone.is_set():
            try:
                msg: Request | None = conn.recv()
            except (EOFError, OSError):
                break
            if msg is None:
                break
            queues[worker_of(msg[1], msg[2], workers)].put(msg)
    finally:
        for q in queues:
            q.put(None)
        for t in threads:
            t.join()


def worker_of(name: str, args: tuple[object, ...], workers: int) -> int:
    """The worker of a call: by its first argument (the table, player or tournament it is about), else its name;
    the same one every time, so the calls about one thing keep their order."""
    key = args[0] if args else name
    return zlib.crc32(f"{type(key).__name__}:{key}".encode()) % workers


def _portable(exc: BaseException) -> BaseException:
    """The exception itself if it survives a pickle round trip (every store error does), else a RuntimeError
    with its text (e.g. a database driver's error)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _bind(store: Store, name: str, args: tuple[object, ...], kwargs: dict[str, object]) -> Callable[[], object]:
    if name not in PROCESS_CALLS:
        def refuse() -> object:
            raise RuntimeError(f"the store process does not serve {name}")
        return refuse
    service, method = name.split(".")
    fn = getattr(getattr(store, service), method)
    return lambda: fn(*args, **kwargs)
