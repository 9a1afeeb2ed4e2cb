"""The baseline peer for bench/load.py: a bare Starlette WebSocket echo server on uvicorn (same settings as
``riverboat serve``). Run: ``python bench/echo_peer.py PORT``. It answers every text frame with the same text."""

from __future__ import annotations

import sys

import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def echo(ws: WebSocket) -> None:
    await ws.accept()
    try:
        while True:
            await ws.send_text(await ws.receive_text())
    except WebSocketDisconnect:
        pass


async def health(request: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


app = Starlette(routes=[WebSocketRoute("/ws", echo), Route("/health", health)])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws="websockets-sansio",
                backlog=4096, access_log=False)
