"""Run the app on uvicorn in the current event loop, with a clean shutdown on Ctrl-C and SIGTERM.

Shutdown order: the ``on_exit`` hooks run first (e.g. demo bots stop playing), then uvicorn stops accepting
connections and closes the open ones, then the app's lifespan calls ``room.stop()`` (unfinished hands are voided and
refunded, R-SERVER). The process then returns normally (exit status 0) instead of dying from the signal.

Signals are :class:`StopSignals`' for the whole life of the process (``launch`` installs them before the tables
open; uvicorn's own handlers are not used): the first SIGINT or SIGTERM asks for that clean stop, any later one
ends the process at once (exit status 128 + signal). What such a forced stop leaves unfinished is a crash for the
room: the next start voids and refunds it (R-SERVER-2).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType
from typing import Any

import uvicorn

from riverboat.room.port import RoomPort
from riverboat.store import Store

from .app import create_app
from .console import Listener
from .hub import ServerConfig
from .protocol import MAX_FRAME_BYTES

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """SIGINT and SIGTERM for a server process: the first calls the ``on_stop`` listeners (from the signal handler,
    on the main thread: a listener only sets flags or hands work to a loop with ``call_soon_threadsafe``), any
    later one exits the process at once."""

    def __init__(self) -> None:
        self.received = 0
        self._listeners: list[Callable[[], None]] = []

    @property
    def requested(self) -> bool:
        return self.received > 0

    def on_stop(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` on the first signal (at once if it already came)."""
        self._listeners.append(listener)
        if self.received:
            listener()

    def handle(self, sig: int, frame: FrameType | None) -> None:
        self.received += 1
        if self.received > 1:
            with contextlib.suppress(OSError):
                os.write(2, f"riverboat: signal {sig} again while stopping: exiting now (the next start voids "
                         "and refunds what is unfinished)\n".encode())
            os._exit(128 + sig)
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:  # pragma: no cover - a listener must not stop the shutdown
                log.exception("stop listener failed")

    @contextlib.contextmanager
    def installed(self) -> Iterator[StopSignals]:
        """Handle SIGINT/SIGTERM while the block runs (main thread only; elsewhere signals are not ours)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {sig: signal.signal(sig, self.handle) for sig in STOP_SIGNALS}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: :class:`StopSignals` sets ``should_exit``."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve(
    store: Store,
    room: RoomPort,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    config: ServerConfig | None = None,
    on_started: Callable[[str], Awaitable[None]] | None = None,
    on_exit: Callable[[], None] | None = None,
    log_level: str = "warning",
    access_log: bool = False,
    signals: StopSignals | None = None,
    sock: socket.socket | None = None,
    forwarded_allow_ips: str | None = None,
    console_sock: socket.socket | None = None,
) -> None:
    """Serve until a signal arrives. ``on_started(base_url)`` runs once the socket listens and ``/health`` is 200.
    ``signals``: the process's :class:`StopSignals` (a new one is installed for the call if not given). ``sock``: the
    socket from :func:`listen_socket` (bound here if not given): a port in use is an ``OSError`` raised here, not
    uvicorn's ``sys.exit`` inside its task (a traceback and exit code 3 after the whole room had started). ``console_sock``:
    the console's own listener (``--console-port``, issue #35: server.console)."""
    if signals is None:
        with StopSignals().installed() as own:
            await serve(store, room, host=host, port=port, config=config, on_started=on_started, on_exit=on_exit,
                        log_level=log_level, access_log=access_log, signals=own, sock=sock,
                        forwarded_allow_ips=forwarded_allow_ips, console_sock=console_sock)
        return
    if sock is None:
        sock = listen_socket(host, port)
    app: Any = create_app(store, room, config)
    hub = app.state.hub
    make_config = functools.partial(_uvicorn_config, host=host, port=port, log_level=log_level,
                                    access_log=access_log, forwarded_allow_ips=forwarded_allow_ips)
    console = _ConsoleListener(app, console_sock, make_config)
    app = console.players(app)
    uv_config = make_config(app)
    exits: list[Callable[[], None]] = [on_exit] if on_exit is not None else []
    run_exit_hooks = functools.partial(_run_hooks, exits)
    loop = asyncio.get_running_loop()
    server = _Server(uv_config)

    async def shutdown_now() -> None:
        hub.begin_shutdown()
        run_exit_hooks()
        # the shutdown notices reach the sockets before uvicorn sends its closing frames (at most 1 s)
        deadline = loop.time() + 1.0
        while loop.time() < deadline and any(c.queue.qsize() for c in [*hub.links.all(), *hub.anonymous]):
            await asyncio.sleep(0.01)
        server.should_exit = True
        console.stop()

    def on_signal() -> None:  # runs in the signal handler: the work is handed to the event loop
        loop.call_soon_threadsafe(lambda: stopping.append(loop.create_task(shutdown_now())))

    stopping: list[asyncio.Task[None]] = []
    signals.on_stop(on_signal)
    try:
        await _run(server, sock, console, on_started, host, port)
    finally:
        run_exit_hooks()


async def _run(server: _Server, sock: socket.socket, console: _ConsoleListener,
               on_started: Callable[[str], Awaitable[None]] | None, host: str, port: int) -> None:
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    console.start()
    if server.started and on_started is not None and not server.should_exit:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        actual_port = _bound_port(server) or port
        await on_started(f"http://{shown}:{actual_port}")
    await task
    await console.wait()


class _ConsoleListener:
    """The operator console's own listener (``--console-port``, issue #35): a second uvicorn server on the same
    app, its requests tagged ``console`` (server.console), without a lifespan of its own."""

    def __init__(self, app: Any, sock: socket.socket | None, make_config: Callable[[Any], uvicorn.Config]) -> None:
        self.sock = sock
        self.server: _Server | None = None
        self.task: asyncio.Task[None] | None = None
        if sock is not None:
            config = make_config(Listener(app, "console"))
            config.lifespan = "off"  # one lifespan: the players' listener runs it
            self.server = _Server(config)

    def players(self, app: Any) -> Any:
        """The players' listener's app: its requests tagged ``public`` (no console there) when the console has its
        own listener."""
        return Listener(app, "public") if self.server is not None else app

    def start(self) -> None:
        if self.server is not None and self.sock is not None:
            self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True

    async def wait(self) -> None:
        self.stop()
        if self.task is not None:
            await self.task


def listen_socket(host: str, port: int) -> socket.socket:
    """The server's TCP socket, bound to ``host:port`` (0: any free port). A port in use, an address that is not this
    machine's or a port out of range raise ``OSError`` / ``ValueError`` with one plain line."""
    if not 0 <= port <= 65535:
        raise ValueError(f"--port must be between 0 and 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def _uvicorn_config(app: Any, *, host: str, port: int, log_level: str, access_log: bool,
                    forwarded_allow_ips: str | None = None) -> uvicorn.Config:
    """``forwarded_allow_ips``: the proxies whose ``X-Forwarded-Proto``/``-For`` are believed (uvicorn's default:
    ``$FORWARDED_ALLOW_IPS`` or 127.0.0.1); the scheme they give decides HSTS (server.security_headers)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        lifespan="on",
        log_level=log_level,
        access_log=access_log,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME_BYTES * 4,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_graceful_shutdown=3,  # then open connections are cut: the whole stop stays within 5 s
        backlog=4096,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def _run_hooks(exits: list[Callable[[], None]]) -> None:
    """Run the shutdown hooks once (a failing hook does not stop the others)."""
    for hook in exits:
        try:
            hook()
        except Exception:  # pragma: no cover - a hook must not stop the shutdown
            log.exception("shutdown hook failed")
    exits.clear()


def _bound_port(server: uvicorn.Server) -> int | None:
    for srv in getattr(server, "servers", []):
        for sock in getattr(srv, "sockets", []) or []:
            try:
                return int(sock.getsockname()[1])
            except (OSError, IndexError, TypeError):
                continue
    return None
