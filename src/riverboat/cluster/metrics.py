"""``/metrics`` of a cluster node in the Prometheus text format (prometheus_client, one registry per node).

Gateway: ``riverboat_connections`` (open WebSocket connections), ``riverboat_players`` (players attached),
``riverboat_action_seconds`` (histogram: a command's round trip from this gateway to the table host and back),
``riverboat_command_errors_total{code}``, ``riverboat_command_window_seconds`` (at most one NATS write of commands
per window, :mod:`riverboat.cluster.outbox`), ``riverboat_commands_sent_total`` and ``riverboat_command_writes_total``
(their ratio: commands per write). Table host: ``riverboat_tables`` (tables and pools it owns),
``riverboat_hands_total`` (hands finished at its tables; ``rate()`` gives hands/s), ``riverboat_hands_per_second``
(over the last 10 s), ``riverboat_host_command_seconds`` (histogram: handling one command), ``riverboat_failovers_total``
(tables it took from a lost host), ``riverboat_voided_hands_total``. Both: ``riverboat_nats_rtt_seconds`` (the last
request to the node's own echo subject through NATS), ``riverboat_nats_reconnects_total``, ``riverboat_node_up``, ``riverboat_gc_frozen_objects``
(objects the paced garbage collector, :mod:`riverboat.server.gcpace`, has moved out of the automatic collections:
0 when the node runs without it, whose full collections then stall its loop and cost CPU as its heap grows).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import time
from collections import deque
from collections.abc import Callable, Iterator

import uvicorn
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST


class NodeMetrics:
    def __init__(self, node: str, role: str) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.up = Gauge("riverboat_node_up", "1 while the node runs", ["node", "role"], registry=r)
        self.up.labels(node, role).set(1)
        self.nats_rtt = Gauge("riverboat_nats_rtt_seconds", "last NATS round trip (a request to this node's own echo subject)", registry=r)
        self.nats_reconnects = Gauge("riverboat_nats_reconnects_total", "NATS reconnections", registry=r)
        self.action = Histogram("riverboat_action_seconds", "gateway: command round trip to the table host",
                                buckets=LATENCY_BUCKETS, registry=r)
        self.command = Histogram("riverboat_host_command_seconds", "table host: handling one command",
                                 buckets=LATENCY_BUCKETS, registry=r)
        self.errors = Counter("riverboat_command_errors_total", "commands refused, by code", ["code"], registry=r)
        self.retries = Counter("riverboat_command_retries_total", "gateway: commands sent again because no host had "
                               "the table (NATS no responders: a table between hosts)", registry=r)
        self.command_window = Gauge("riverboat_command_window_seconds", "gateway: at most one NATS write of "
                                    "commands per this many seconds", registry=r)
        self.commands_sent = Gauge("riverboat_commands_sent_total", "gateway: commands published", registry=r)
        self.command_writes = Gauge("riverboat_command_writes_total", "gateway: NATS writes of commands", registry=r)
        self.connections = Gauge("riverboat_connections", "open WebSocket connections", registry=r)
        self.players = Gauge("riverboat_players", "players attached through this node", registry=r)
        self.tables = Gauge("riverboat_tables", "tables and pools this host owns", registry=r)
        self.hands = Gauge("riverboat_hands_total", "hands finished at this host's tables", registry=r)
        self.hands_rate = Gauge("riverboat_hands_per_second", "hands finished per second (last 10 s)", registry=r)
        self.failovers = Counter("riverboat_failovers_total", "tables taken from a lost host", registry=r)
        self.voided = Counter("riverboat_voided_hands_total", "hands voided when taking a table", registry=r)
        self.gc_frozen = Gauge("riverboat_gc_frozen_objects", "objects in the permanent generation (paced GC)",
                               registry=r)
        self.gc_frozen.set_function(lambda: float(gc.get_freeze_count()))
        self._hands_seen: deque[tuple[float, int]] = deque(maxlen=64)

    def track_hands(self, total: Callable[[], int]) -> None:
        self.hands.set_function(lambda: float(total()))

        def rate() -> float:
            now, n = time.monotonic(), total()
            seen = self._hands_seen
            seen.append((now, n))
            while len(seen) > 2 and now - seen[0][0] > 10.0:
                seen.popleft()
            t0, n0 = seen[0]
            return (n - n0) / (now - t0) if now > t0 else 0.0

        self.hands_rate.set_function(rate)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _QuietServer(uvicorn.Server):
    """uvicorn without its own signal handling (the process's StopSignals stop the node)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class MetricsListener:
    """A node's ``/metrics`` on a listener of its own (issue #29: the gateway's public port served them to any
    player): ``127.0.0.1`` by default, port 0 = any free port; its URL is in the node's ``/health``."""

    def __init__(self, metrics: NodeMetrics, host: str = "127.0.0.1", port: int = 0) -> None:
        self.metrics = metrics
        self.host = host
        self.port = port
        self.url: str | None = None
        self._server: _QuietServer | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> str:
        """Listen (an ``OSError`` here if the address is taken); returns the URL of ``/metrics``."""
        async def metrics(request: Request) -> Response:
            return Response(self.metrics.render(), media_type=CONTENT_TYPE)

        app = Starlette(routes=[Route("/metrics", metrics)])
        sock = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(64)
        server = _QuietServer(uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False))
        self._server = server
        self._task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]), name="metrics")
        port = sock.getsockname()[1]
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{host}:{port}/metrics"
        return self.url

    async def stop(self) -> None:
        server, task = self._server, self._task
        if server is not None and task is not None:
            server.should_exit = True
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, 5)

