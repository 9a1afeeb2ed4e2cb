"""Run the app on uvicorn in the current event loop, with a clean shutdown on Ctrl-C and SIGTERM.

Shutdown order: the ``on_exit`` hooks run first (e.g. demo bots stop playing), then uvicorn stops accepting
connections and closes the open ones, then the app's lifespan calls ``room.stop()`` (unfinished hands are voided and
refunded, R-SERVER). The process then returns normally (exit status 0) instead of dying from the signal.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

import uvicorn

from .app import create_app
from .hub import ServerConfig
from .protocol import MAX_FRAME_BYTES

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_exit = on_exit

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        try:
            self._on_exit()
        finally:
            super().handle_exit(sig, frame)


async def serve(
    store: Any,
    room: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    config: ServerConfig | None = None,
    on_started: Callable[[str], Awaitable[None]] | None = None,
    on_exit: Callable[[], None] | None = None,
    log_level: str = "warning",
    access_log: bool = False,
) -> None:
    """Serve until a signal arrives. ``on_started(base_url)`` runs once the socket listens and ``/health`` is 200."""
    app = create_app(store, room, config)
    uv_config = uvicorn.Config(
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
        timeout_graceful_shutdown=10,
        backlog=4096,
    )
    exits: list[Callable[[], None]] = []
    if on_exit is not None:
        exits.append(on_exit)

    def run_exit_hooks() -> None:
        for hook in exits:
            try:
                hook()
            except Exception:  # pragma: no cover - a hook must not stop the shutdown
                log.exception("shutdown hook failed")
        exits.clear()

    hub = app.state.hub
    loop = asyncio.get_running_loop()

    def shutdown_now() -> None:
        hub.begin_shutdown()
        run_exit_hooks()

    def on_signal() -> None:  # runs in the signal handler: hand the work to the event loop
        loop.call_soon_threadsafe(shutdown_now)

    server = _Server(uv_config, on_signal)
    # uvicorn re-raises the captured signal after its graceful shutdown; these handlers absorb it so the process
    # finishes normally once everything is closed.
    previous = {sig: signal.signal(sig, _absorb) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started and on_started is not None:
            shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
            actual_port = _bound_port(server) or port
            await on_started(f"http://{shown}:{actual_port}")
        await task
    finally:
        run_exit_hooks()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _absorb(sig: int, frame: FrameType | None) -> None:
    log.info("signal %s received after shutdown", sig)


def _bound_port(server: uvicorn.Server) -> int | None:
    for srv in getattr(server, "servers", []):
        for sock in getattr(srv, "sockets", []) or []:
            try:
                return int(sock.getsockname()[1])
            except (OSError, IndexError, TypeError):
                continue
    return None
