"""The table host's only HTTP: ``/health`` (200 with the node's state while it runs; ``metrics`` names the URL of
its ``/metrics``, on a listener of their own, :class:`~riverboat.cluster.metrics.MetricsListener`)."""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from riverboat.cluster.host import TableHostNode
from riverboat.room.commands import TWISTER_OFFER


def host_app(host: TableHostNode, metrics_url: str | None = None) -> Starlette:
    async def health(request: Request) -> Response:
        body: dict[str, Any] = {
            "status": "ok" if host.link.connected else "nats_down",
            "node": host.node,
            "role": "tables",
            "tables": sorted(t for t in host.owned if t != TWISTER_OFFER),  # tables, pools, tournaments
            "twister_offer": TWISTER_OFFER in host.owned,  # this host runs the room's Twister offer
            "players": len(host.routes),
            "hands": host.hands_total(),
            "tournament_tables": host.tourneys.dealt(),  # hands dealt here, by tournament table
            "delivery_window_ms": host.router.window * 1000,  # at most one delivery per gateway per window
            "metrics": metrics_url,
        }
        return JSONResponse(body, status_code=200 if host.link.connected else 503)

    return Starlette(routes=[Route("/health", health)])
