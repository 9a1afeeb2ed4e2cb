"""Assemble and run a room server: store (migrated), room, tables, the app on uvicorn.

Used by ``riverboat serve``. Bots live in a higher layer, so they are plugged in through the ``started`` hook
(which receives the base URL, the store and the opened tables) and the ``stopping`` hook.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .demo import DEMO_TABLES, DEMO_TOURNAMENTS, load_tables, open_tables
from .gcpace import GcPacer
from .hub import ServerConfig
from .ratelimit import Rate
from .runner import StopSignals, listen_socket, serve

if TYPE_CHECKING:  # the store is imported when it is opened (open_store)
    from riverboat.store import Store
    from riverboat.store.security import SecurityPolicy

log = logging.getLogger(__name__)


@dataclass
class LaunchOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    demo: bool = True
    tables_file: Path | None = None
    bots: bool = True
    signup_play_chips: int = 1_000_000
    login_rate: float = 0.5
    frame_rate: float = 20.0
    log_level: str = "warning"
    # a room on several processes or machines (docs/cluster.md): "all" (this process is the whole room), "gateway"
    # or "tables" (riverboat.server.cluster_launch)
    role: str = "all"
    nats_url: str = "nats://127.0.0.1:4222"
    node_id: str | None = None
    cluster: str = "rb"  # the room's name on NATS (subject and bucket prefix)
    # R-SERVER-3 room flag (a table's own ``cash_out_on_crash`` setting wins): after a crash, or when a cluster host
    # is lost, the table stacks go back to the balances; off: the tables reopen with their players and stacks.
    # None: on for role "all", off for role "tables".
    cash_out_on_crash: bool | None = None
    integrity_scan_every: float = 3600.0  # seconds between integrity scans of the stored hands (0 = none)
    twister_file: Path | None = None  # the Twister section's settings (JSON object, ServerConfig.twister)
    money_file: Path | None = None  # money settings and payment providers (JSON object, ServerConfig.money; #30)
    # role "tables": a host sends its frames to the gateways at most once per this many milliseconds (None: the
    # default of riverboat.cluster.delivery.DELIVERY_WINDOW_S)
    delivery_window_ms: float | None = None
    # role "gateway": it sends the players' commands to the hosts at most once per this many milliseconds (None: the
    # default of riverboat.cluster.outbox.COMMAND_WINDOW_S)
    command_window_ms: float | None = None
    # the reverse proxies whose X-Forwarded-Proto / X-Forwarded-For are believed (comma-separated addresses, "*":
    # any); None: uvicorn's default ($FORWARDED_ALLOW_IPS or 127.0.0.1). Decides HSTS (docs/security.md).
    forwarded_allow_ips: str | None = None
    # issue #35 (docs/security.md): the console on its own listener (None: on the players' one), staff sessions'
    # length, and the lock-out per account after repeated wrong passwords
    console_port: int | None = None
    console_host: str = "127.0.0.1"
    staff_session_minutes: float = 120.0
    lockout_after: int = 10
    lockout_minutes: float = 15.0
    # roles gateway and tables: the node's /metrics listen here (issue #29: not on the public port); port 0 = any
    # free port (named by the node's /health)
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 0


LEFTOVER_TASKS_S = 2.0  # how long the tasks still running after ``main`` get to end once cancelled


def run_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on a new event loop (uvloop when it is installed, as uvicorn[standard] brings it: the server's
    event loop then spends far less time per socket write and wake-up than the stdlib selector loop), then cancel
    the tasks still running and close the loop.

    Unlike ``asyncio.run``, the end is bounded: a task that does not end within ``LEFTOVER_TASKS_S`` of its
    cancellation is logged with its stack and left behind, instead of holding the process forever in
    ``asyncio.runners._cancel_all_tasks`` (issue #16: a demo bot that swallowed its cancellation did that)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is not available on every platform
        loop = asyncio.new_event_loop()
    else:
        loop = uvloop.new_event_loop()
    try:
        loop.run_until_complete(main)
    finally:
        try:
            loop.run_until_complete(_end_leftover_tasks(LEFTOVER_TASKS_S))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()


async def _end_leftover_tasks(timeout: float) -> None:
    me = asyncio.current_task()
    tasks = [t for t in asyncio.all_tasks() if t is not me]
    for task in tasks:
        task.cancel()
    if not tasks:
        return
    _done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        stack = "".join(f"\n  {f.f_code.co_filename}:{f.f_lineno} in {f.f_code.co_name}" for f in task.get_stack())
        log.error("task %s did not end %.0f s after its cancellation; left behind:%s", task.get_name(), timeout,
                  stack)


def server_config(options: LaunchOptions) -> ServerConfig:
    """The app's settings from the command line (the room is started and stopped by the launcher)."""
    return ServerConfig(
        signup_play_chips=options.signup_play_chips,
        login_rate=Rate(burst=20, per_second=options.login_rate),
        register_rate=Rate(burst=20, per_second=options.login_rate),
        frame_rate=Rate(burst=40, per_second=options.frame_rate),
        manage_room=False,
        integrity_scan_every=options.integrity_scan_every,
        twister=twister_config(options),
        money=money_config(options),
        tournaments=[dict(e) for e in DEMO_TOURNAMENTS] if options.demo and options.tables_file is None else [],
    )


def twister_config(options: LaunchOptions) -> dict[str, Any]:
    """``--twister FILE`` (a JSON object), else the demo's: the offer in play money with two bots that fill a
    Twister a player joins (so a newcomer can play at once with the play chips of sign-up)."""
    if options.twister_file is not None:
        data = json.loads(options.twister_file.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("--twister FILE must hold one JSON object")
        return data
    if options.demo and options.tables_file is None:
        return {"currency": "PLAY", "fill_bots": 2}
    return {}


def money_config(options: LaunchOptions) -> dict[str, Any]:
    """``--money FILE`` (a JSON object: cooling_off_hours, four_eyes_above, payments), else the demo's: the fake
    payment provider (a test provider: anyone can "pay" on its page), so a newcomer can try the cashier. A room
    started with --tables or --no-demo has no provider unless its file lists one."""
    if options.money_file is not None:
        data = json.loads(options.money_file.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("--money FILE must hold one JSON object")
        return data
    if options.demo and options.tables_file is None:
        return {"payments": {"fake": {}}}
    return {}


def table_entries(options: LaunchOptions) -> list[dict[str, Any]]:
    """The tables to open: ``--tables FILE``, else the demo tables (unless ``--no-demo``)."""
    if options.tables_file is not None:
        return load_tables(options.tables_file)
    if options.demo:
        return [dict(e) for e in DEMO_TABLES]
    return []


#: ``started(base, store, opened)``: ``base`` is the room's base URL, or (a cluster table host) a function giving
#: the live gateways' base URLs, so that the bots reconnect through another gateway when theirs dies.
def security_policy(options: LaunchOptions) -> SecurityPolicy:
    """The account-security settings of the room (issue #35)."""
    from datetime import timedelta

    from riverboat.store.security import SecurityPolicy

    return SecurityPolicy(staff_session_ttl=timedelta(minutes=options.staff_session_minutes),
                          lockout_after=options.lockout_after, lockout_for=timedelta(minutes=options.lockout_minutes))


def open_store(url: str | None, security: SecurityPolicy | None = None) -> Store:
    """The store, migrated; a database that cannot be opened (unknown dialect, a SQLite file in a folder that does
    not exist, a server that refuses) is a ``ValueError`` of one line, not the driver's traceback."""
    from sqlalchemy.exc import SQLAlchemyError

    from riverboat.store import Store

    try:
        store = Store(url, security=security)
    except (SQLAlchemyError, ValueError) as exc:
        raise ValueError(f"cannot open the database {url}: {_first_line(exc)}") from None
    try:
        store.upgrade()
    except SQLAlchemyError as exc:
        store.dispose()
        raise ValueError(f"cannot open the database {url or '(default)'}: {_first_line(exc)}") from None
    return store


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]


StartedHook = Callable[[str | Callable[[], Sequence[str]], Any, list[tuple[str, dict[str, Any]]]], Awaitable[None]]


async def launch(
    options: LaunchOptions,
    *,
    echo: Callable[[str], None] = print,
    started: StartedHook | None = None,
    stopping: Callable[[], None] | None = None,
) -> None:
    from riverboat.room import RealClock, Room

    # The files and the socket first: a missing --tables / --twister file or a port in use stops the start at once,
    # in one line, before the store process and the room exist.
    config = server_config(options)
    entries = table_entries(options)
    sock = listen_socket(options.host, options.port)
    console = listen_socket(options.console_host, options.console_port) if options.console_port is not None else None
    try:
        store = open_store(options.database_url, security_policy(options))
    except BaseException:
        sock.close()
        if console is not None:
            console.close()
        raise
    # The store's ORM work runs in its own process so that it never holds this process's GIL (docs/performance.md,
    # "Server under load"); an in-memory database cannot be shared, so it stays on a thread there.
    room = Room(store, clock=RealClock(), store_process=True,
                cash_out_on_crash=options.cash_out_on_crash is not False)
    signals = StopSignals()  # from here on the first SIGINT/SIGTERM asks for a clean stop, a second one forces it
    with signals.installed():
        pacer = GcPacer()
        try:
            opened = await open_tables(room, entries)  # before the start: seats and stacks come back (R-SERVER-3)
            await room.start()
            pacer.start()  # after the tables exist: they are frozen with the rest of the start-up heap
            _start_probe()

            async def on_started(base_url: str) -> None:
                if started is not None and options.bots:
                    await started(base_url, store, opened)
                echo(f"Riverboat is running on {base_url}  ({len(opened)} tables; Ctrl-C to stop)")

            if not signals.requested:
                await serve(store, room, host=options.host, port=options.port, config=config,
                            on_started=on_started, on_exit=stopping, log_level=options.log_level, signals=signals,
                            sock=sock, forwarded_allow_ips=options.forwarded_allow_ips, console_sock=console)
        finally:
            sock.close()
            if console is not None:
                console.close()
            pacer.stop()
            await room.stop()
            store.dispose()
            echo("Riverboat stopped: unfinished hands voided and refunded, table stacks returned to the balances.")


def _start_probe() -> None:
    """``RIVERBOAT_PROBE=<seconds>``: log the loop's lag and the store calls' timings (riverboat.room.probe)."""
    from riverboat.room import probe

    probe.start()
