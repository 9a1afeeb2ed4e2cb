"""``riverboat serve --role gateway`` and ``--role tables`` (docs/cluster.md).

- **gateway**: the whole HTTP + WebSocket server of :mod:`riverboat.server.launch`, but its room is a
  :class:`riverboat.cluster.RemoteRoom` (every table lives on a table host);
- **tables**: a :class:`riverboat.cluster.TableHostNode` and an HTTP server with ``/health`` only.

Each node's ``/metrics`` are on a listener of their own (``--metrics-host``, loopback by default, and
``--metrics-port``), never on the public port (issue #29), named by the node's ``/health``. The first table host of a room opens the demo tables (or ``--tables FILE``) and runs the demo bots, which
  connect through a gateway like any player.

PostgreSQL is required (every node of the room shares the store).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn

from riverboat.cluster.metrics import MetricsListener

from .demo import table_spec
from .gcpace import GcPacer
from .hub import ServerConfig
from .launch import (
    LaunchOptions,
    StartedHook,
    _start_probe,
    security_policy,
    server_config,
    table_entries,
    twister_config,
)
from .runner import StopSignals, serve

log = logging.getLogger(__name__)


def _require_postgres(url: str | None) -> str:
    from riverboat.store.db import resolve_url

    resolved = resolve_url(url)
    if not resolved.startswith("postgresql"):
        raise ValueError("--role gateway/tables needs --database-url postgresql+psycopg://... (every node shares "
                         "one store)")
    return resolved


async def launch_gateway(options: LaunchOptions, *, echo: Callable[[str], None] = print) -> None:
    from riverboat.cluster import Names, RemoteRoom, node_id
    from riverboat.cluster.identity import database_identity
    from riverboat.cluster.outbox import COMMAND_WINDOW_S
    from riverboat.store import Store

    # the room's account-security settings (issue #35), as one process has them (--lockout-after etc.)
    store = Store(_require_postgres(options.database_url), security=security_policy(options))
    store.upgrade()
    node = node_id(options.node_id, "gateway")
    window = COMMAND_WINDOW_S if options.command_window_ms is None else options.command_window_ms / 1000
    room = RemoteRoom(options.nats_url, node, names=Names(options.cluster), command_window=window,
                      database=database_identity(store))
    listener = MetricsListener(room.metrics, options.metrics_host, options.metrics_port)
    config = dataclasses.replace(gateway_config(options), metrics=room.metrics, metrics_url=await listener.start())
    signals = StopSignals()
    pacer = GcPacer()  # as in one process: no automatic full collections of the growing heap (server.gcpace)
    with signals.installed():
        await room.start()
        pacer.start()
        _start_probe()
        try:
            async def on_started(base_url: str) -> None:
                room.set_url(base_url)
                await room.announce()
                echo(f"Riverboat gateway {node} is running on {base_url}  (Ctrl-C to stop)")

            if not signals.requested:
                await serve(store, room, host=options.host, port=options.port, config=config,
                            on_started=on_started, log_level=options.log_level, signals=signals,
                            forwarded_allow_ips=options.forwarded_allow_ips)
        finally:
            pacer.stop()
            await room.stop()
            await listener.stop()
            store.dispose()
            echo(f"Riverboat gateway {node} stopped.")


def gateway_config(options: LaunchOptions) -> ServerConfig:
    """The gateway's settings: those of one process, without the demo's tournaments. Their bots play inside the
    tournament's own process (``TournamentLobby.bots``), which a gateway is not: a cluster room's tournaments are
    created through the operator API and run on a table host (docs/cluster.md "Tournaments")."""
    return dataclasses.replace(server_config(options), tournaments=[])


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling (the process's StopSignals stop it)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def launch_tables(options: LaunchOptions, *, echo: Callable[[str], None] = print,
                        started: StartedHook | None = None, stopping: Callable[[], None] | None = None) -> None:
    from riverboat.cluster import HostOptions, Names, TableHostNode, node_id
    from riverboat.cluster.health import host_app
    from riverboat.store import Store

    # the room's account-security settings (issue #35), as one process has them (--lockout-after etc.)
    store = Store(_require_postgres(options.database_url), security=security_policy(options))
    store.upgrade()
    node = node_id(options.node_id, "tables")
    host_options = HostOptions(nats_url=options.nats_url, node=node, names=Names(options.cluster),
                               cash_out_on_crash=bool(options.cash_out_on_crash),
                               twister=twister_config(options))  # the offer runs on a table host
    if options.delivery_window_ms is not None:
        host_options.delivery_window_seconds = options.delivery_window_ms / 1000
    host = TableHostNode(store, host_options)
    entries = table_entries(options)
    specs = [table_spec(e) for e in entries]
    signals = StopSignals()
    pacer = GcPacer()  # as in one process: no automatic full collections of the growing heap (server.gcpace)
    listener = MetricsListener(host.metrics, options.metrics_host, options.metrics_port)
    metrics_url = await listener.start()
    with signals.installed():
        await host.start()
        pacer.start()
        _start_probe()
        server = _Server(uvicorn.Config(host_app(host, metrics_url), host=options.host, port=options.port, lifespan="off",
                                        log_level=options.log_level, access_log=False))
        signals.on_stop(lambda: setattr(server, "should_exit", True))
        bots: asyncio.Task[None] | None = None
        try:
            ids = await host.open_room(specs) if specs else None
            if ids is not None and started is not None and options.bots:
                bots = asyncio.create_task(_start_bots(host, store, list(zip(ids, entries, strict=True)), started))
            serving = asyncio.create_task(server.serve())
            while not server.started and not serving.done():
                await asyncio.sleep(0.02)
            port = next((s.getsockname()[1] for srv in server.servers for s in srv.sockets), options.port)
            echo(f"Riverboat table host {node} is running (health on http://{options.host}:{port}/health; "
                 f"{'opened the room: ' + str(len(ids)) + ' tables' if ids else 'the room was open'})")
            await serving
        finally:
            pacer.stop()
            if stopping is not None:
                stopping()
            if bots is not None:
                bots.cancel()
            await host.stop()
            await listener.stop()
            store.dispose()
            echo(f"Riverboat table host {node} stopped: its tables go to the other hosts with their stacks.")


async def _start_bots(host: Any, store: Any, opened: list[tuple[str, dict[str, Any]]], started: StartedHook
                      ) -> None:
    """The demo bots play through the gateways like any player: wait until one is up, then seat them; each bot
    connects to one of the live gateways and, when its gateway dies, reconnects through another one."""

    def gateways() -> list[str]:
        return [g.url for g in host.live_gateways() if g.url]

    while True:
        if gateways() and all(tid in host.records.items for tid, _ in opened):
            await started(gateways, store, opened)
            return
        await asyncio.sleep(0.5)
