"""A WebSocket client of the Riverboat protocol (v1), used by the bots, the integration tests and the load benchmark.

It speaks exactly what a browser speaks (docs/protocol.md): ``auth`` on connect, commands with client ids, and it
matches each ``ack`` / ``error`` to the command that caused it. Every frame received is kept in ``frames`` (when
``keep_frames`` is on) and handed to ``on_frame`` callbacks, so tests can record and check them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from typing import Any

import orjson
import websockets
from websockets.asyncio.client import ClientConnection


class CommandRefused(Exception):
    """The server answered a command with an ``error`` frame."""

    def __init__(self, frame: dict[str, Any]) -> None:
        super().__init__(f"{frame.get('code')}: {frame.get('message')}")
        self.frame = frame
        self.code = frame.get("code")


class ProtocolClient:
    def __init__(self, ws_url: str, token: str | None = None, *, keep_frames: bool = False,
                 batch: bool = False) -> None:
        self.ws_url = ws_url
        self.token = token
        self.batch = batch  # accept `batch` frames (several frames per message) from the server
        self.keep_frames = keep_frames
        self.frames: list[dict[str, Any]] = []
        self.on_frame: list[Callable[[dict[str, Any]], None]] = []
        self.player_id: Any = None
        self.views: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self._pending: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._welcome: asyncio.Future[dict[str, Any]] | None = None
        self.closed = asyncio.Event()

    # ---------------------------------------------------------------------------------------------- connection

    async def connect(self, timeout: float = 10.0) -> dict[str, Any]:
        """Open the socket and authenticate; returns the ``welcome`` frame."""
        loop = asyncio.get_running_loop()
        self._welcome = loop.create_future()
        self._ws = await websockets.connect(self.ws_url, max_size=2**22, open_timeout=timeout,
                                            ping_interval=None, compression=None)
        self._reader = asyncio.create_task(self._read_loop())
        if self.token is not None:
            auth: dict[str, Any] = {"type": "auth", "token": self.token}
            if self.batch:
                auth["batch"] = True
            await self.send(auth)
            welcome = await asyncio.wait_for(asyncio.shield(self._welcome), timeout)
            self.player_id = welcome.get("player_id")
            return welcome
        return {}

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            # asyncio.wait, not wait_for: the reader's own end (an error, a cancellation) is not raised here, while a
            # cancellation of the task closing this client still is (a suppress(BaseException) swallowed it, and
            # a demo bot then kept the server's event loop from ever closing: issue #16)
            await asyncio.wait({self._reader}, timeout=5.0)

    async def __aenter__(self) -> ProtocolClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read_loop(self) -> None:
        assert self._ws is not None
        try:
            async for raw in self._ws:
                frame = orjson.loads(raw)  # a bot process holds thousands of connections: the C decoder
                now = time.perf_counter()
                for one in frame["frames"] if frame.get("type") == "batch" else (frame,):
                    one["_t"] = now
                    self._dispatch(one)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))
            if self._welcome is not None and not self._welcome.done():
                self._welcome.set_exception(ConnectionError("connection closed before welcome"))

    def _dispatch(self, frame: dict[str, Any]) -> None:
        if self.keep_frames:
            self.frames.append(frame)
        kind = frame.get("type")
        if kind == "welcome" and self._welcome is not None and not self._welcome.done():
            self._welcome.set_result(frame)
        elif kind == "error" and self._welcome is not None and not self._welcome.done() and self.player_id is None \
                and frame.get("code") in ("bad_token", "unauthenticated"):
            self._welcome.set_exception(CommandRefused(frame))
        elif kind == "table_state":
            self.views[str(frame.get("table"))] = frame.get("view") or {}
        elif kind == "event" and isinstance(frame.get("event"), dict) and frame["event"].get("kind") == "left" \
                and frame["event"].get("player", self.player_id) == self.player_id:
            # we left the table (cashed out): no view of it comes any more, so the last one must not say we sit
            # there (a demo bot then topped up a seat it no longer had: not_seated)
            view = self.views.get(str(frame.get("table")))
            if view is not None:
                view["you"] = None
        elif kind == "speed" and frame.get("event") == "your_turn" and isinstance(frame.get("view"), dict):
            # Speed Poker: the decision comes with the engine's view of the current hand; act by pool id
            self.views[str(frame.get("pool"))] = {"hand": frame["view"], "speed_hand": frame.get("hand")}
        ref = frame.get("ref")
        if kind in ("ack", "error", "pong") and ref in self._pending:
            fut = self._pending.pop(ref)
            if not fut.done():
                fut.set_result(frame)
        for callback in self.on_frame:
            callback(frame)

    async def next_frame(self, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame received from now on for which ``pred(frame)`` is true (TimeoutError after ``timeout``)."""
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def watch(frame: dict[str, Any]) -> None:
            if not fut.done() and pred(frame):
                fut.set_result(frame)

        self.on_frame.append(watch)
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self.on_frame.remove(watch)

    # ---------------------------------------------------------------------------------------------- sending

    async def send(self, frame: dict[str, Any]) -> Any:
        """Send a frame (``v`` and a fresh ``id`` are added if absent); returns its id."""
        assert self._ws is not None, "connect() first"
        frame = dict(frame)
        frame.setdefault("v", 1)
        frame.setdefault("id", next(self._ids))
        await self.send_raw(orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode())
        return frame["id"]

    async def send_raw(self, text: str) -> None:
        assert self._ws is not None, "connect() first"
        try:
            await self._ws.send(text)
        except websockets.ConnectionClosed as exc:  # the server went away (a gateway stopping: 1012): the one
            # error a caller of this client handles for a closed connection, as for a request that was in flight
            raise ConnectionError(f"connection closed ({exc})") from exc

    async def request(self, frame: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a command and wait for its ``ack``/``error``/``pong``; returns that frame."""
        frame = dict(frame)
        frame.setdefault("v", 1)
        frame.setdefault("id", next(self._ids))
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[frame["id"]] = fut
        try:
            await self.send(frame)
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._pending.pop(frame["id"], None)

    async def command(self, frame: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Like :meth:`request` but raises :class:`CommandRefused` on an ``error`` answer."""
        reply = await self.request(frame, timeout)
        if reply.get("type") == "error":
            raise CommandRefused(reply)
        return reply

    async def sit(self, table: str, seat: int, buy_in: int, **extra: Any) -> dict[str, Any]:
        return await self.command({"type": "sit", "table": table, "seat": seat, "buy_in": buy_in, **extra})

    async def act(self, table: str, kind: str, amount: int | None = None, cards: list[str] | None = None
                  ) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "act", "table": table, "kind": kind}
        if amount is not None:
            frame["amount"] = amount
        if cards is not None:
            frame["cards"] = cards
        return await self.request(frame)

    async def leave(self, table: str) -> dict[str, Any]:
        return await self.command({"type": "leave", "table": table})
