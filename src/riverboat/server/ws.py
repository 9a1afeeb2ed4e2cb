"""One WebSocket connection: authentication, frame parsing, rate limiting, room commands, and the ordered writer.

Incoming frames are handled one at a time, in order. Outgoing frames (answers and everything the room pushes to
the player's sink) go through one queue and one writer task, so the room never waits on a slow socket: a client
whose queue exceeds ``send_queue_limit`` frames is disconnected (and the room treats it as a disconnection).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any, Union

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from riverboat.errors import RiverboatError, wire_error
from riverboat.room.commands import MONEY_COMMANDS, RoomCommand, UnwatchFrame, WatchFrame
from riverboat.room.replies import CommandReply, Watching
from riverboat.store.errors import AccountBlocked, AuthError

from . import protocol
from .hub import Hub, encode_frame
from .ratelimit import RateLimiter
from .replies import MONEY_FRAMES, store_key
from .rest import jsonable, player_id_of
from .sessions import websocket_token

log = logging.getLogger(__name__)

_CLOSE = None  # queue sentinel
MAX_BATCH = 64  # frames per batch message
# A queued frame: its text, or (for a room message naming a player whose alias is not cached yet) the task that
# looks the alias up and encodes it; the writer sends them in queue order either way.
_Item = Union[str, "asyncio.Task[str]", None]
#: A frame of an authenticated player that gets an ``ack``: the server's session frames and the room's commands.
CommandFrame = protocol.ChatFrame | protocol.ResyncFrame | RoomCommand


class Connection:
    def __init__(self, hub: Hub, ws: WebSocket) -> None:
        self.hub = hub
        self.ws = ws
        self.player_id: int | None = None
        self.alias: str | None = None
        self.queue: asyncio.Queue[_Item] = asyncio.Queue()
        self.limiter = RateLimiter(hub.config.frame_rate, hub.now, max_keys=1)
        self.closed = False
        self.batch = ws.query_params.get("batch") in ("1", "true")
        self.token: str | None = None
        self.watched: set[str] = set()  # tables this connection watches as a spectator

    # ------------------------------------------------------------------------------------------- outgoing

    def push(self, frame: Mapping[str, Any]) -> None:
        """Queue a server frame built by :mod:`riverboat.server.protocol` (non-blocking). Closes the connection if
        the client cannot keep up."""
        if self.closed:
            return
        self._enqueue(encode_frame(frame, _default))

    def push_close(self) -> None:
        """Close after the frames already queued: no command is taken from here on."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(_CLOSE)

    def _enqueue(self, item: str | asyncio.Task[str]) -> None:
        if self.queue.qsize() >= self.hub.config.send_queue_limit:
            log.warning("closing slow connection of player %s (%d frames queued)", self.player_id, self.queue.qsize())
            self.closed = True
            if isinstance(item, asyncio.Task):
                item.cancel()
            self.queue.put_nowait(_CLOSE)
            return
        self.queue.put_nowait(item)

    def deliver(self, message: dict[str, Any]) -> None:
        """A room message for this connection's player (``PlayerLinks`` calls it for each of their connections):
        named with aliases and encoded now (once per message for all its recipients, ``Hub.encode_room_message``)
        and queued for the writer. Only a message naming a player whose alias is not cached yet waits for the
        store, in order."""
        if self.closed:
            return
        if self.hub.missing_aliases(message):
            self._enqueue(asyncio.ensure_future(self._named_later(message)))
            return
        self._enqueue(self.hub.encode_room_message(message, _default))

    def deliver_text(self, text: str) -> None:
        """A frame a cluster's table host already named and encoded (``RemoteRoom``): queued as it is."""
        if not self.closed:
            self._enqueue(text)

    async def _named_later(self, message: dict[str, Any]) -> str:
        for pid in self.hub.missing_aliases(message):
            await self.hub.alias_of(pid)
        return self.hub.encode_room_message(message, _default)

    def reply_error(self, code: str, message: str, ref: protocol.Ref) -> None:
        self.push(protocol.error(code, message, ref))

    @staticmethod
    def refusal(exc: RiverboatError, ref: protocol.Ref) -> protocol.ErrorFrame:
        """The error frame of a refusal: the code and message the error registry gives its class (as REST does)."""
        wire = wire_error(exc)
        assert wire is not None
        return protocol.error(wire.code, wire.message, ref)

    def reply_refusal(self, exc: RiverboatError, ref: protocol.Ref) -> None:
        self.push(self.refusal(exc, ref))

    @staticmethod
    async def _text(item: str | asyncio.Task[str]) -> str | None:
        if isinstance(item, str):
            return item
        try:
            return await item
        except asyncio.CancelledError:
            return None
        except Exception:  # pragma: no cover - an alias lookup that failed: the frame is dropped, not the socket
            log.exception("could not prepare a frame")
            return None

    async def _writer(self) -> None:
        try:
            stop = False
            while not stop:
                item = await self.queue.get()
                if item is _CLOSE:
                    break
                text = await self._text(item)
                if self.batch:
                    await asyncio.sleep(0)  # let the room finish relaying what this change produced
                if self.batch and not self.queue.empty():
                    # frames are piling up: one message (one write) for all that are waiting
                    texts = [text] if text is not None else []
                    while len(texts) < MAX_BATCH and not self.queue.empty():
                        more = self.queue.get_nowait()
                        if more is _CLOSE:
                            stop = True
                            break
                        more_text = await self._text(more)
                        if more_text is not None:
                            texts.append(more_text)
                    if len(texts) > 1:
                        text = '{"v":1,"type":"batch","frames":[' + ",".join(texts) + "]}"
                    else:
                        text = texts[0] if texts else None
                if text is not None:
                    await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - transport failures vary by server implementation
            log.debug("writer stopped", exc_info=True)
        finally:
            self.closed = True
            if self.ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1000)

    # ------------------------------------------------------------------------------------------- lifecycle

    async def run(self) -> None:
        await self.ws.accept()
        self.hub.anonymous.add(self)
        writer = asyncio.create_task(self._writer())
        try:
            # an API client's ?token=, else the browser's session cookie (same origin only; issue #35)
            token = self.ws.query_params.get("token") or websocket_token(self.ws)
            if token:
                await self._authenticate(token, None)
            while not self.closed:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await self._handle(raw)
        except WebSocketDisconnect:
            pass
        finally:
            self.closed = True
            self.hub.anonymous.discard(self)
            pid = self.player_id
            if pid is not None:
                for table_id in self.hub.links.remove(self, pid):
                    with contextlib.suppress(Exception):
                        unwatch = UnwatchFrame(v=1, type="unwatch", table=table_id)
                        await self.hub.room.execute(pid, unwatch)
            self.queue.put_nowait(_CLOSE)
            await asyncio.wait({writer}, timeout=2.0)  # never swallows a cancellation of this connection's task
            if not writer.done():
                writer.cancel()

    async def _authenticate(self, token: str, ref: protocol.Ref) -> None:
        if self.player_id is not None:
            self.reply_error("already_authenticated", "this connection is already authenticated", ref)
            return
        try:
            info = await self.hub.call_store(self.hub.store.accounts.authenticate, token)
        except AuthError:
            self.reply_error("bad_token", "the token is unknown, expired or logged out", ref)
            return
        pid = player_id_of(info)
        self.player_id = pid
        self.token = token  # POST /api/logout of this token closes the connection (Hub.end_session)
        self.alias = info.alias
        self.hub.anonymous.discard(self)
        self.push(protocol.welcome(pid, self.alias, ref))
        # A player may have several connections (tabs) at once; attaching (again) is also the room's reconnect: it
        # pushes a table_state for each of the player's tables.
        self.hub.links.add(self, pid)
        if self.hub.twister is not None:  # a Twister player gets their table back at once (issue #12)
            await self.hub.twister.connected(pid)
        if self.hub.tournaments is not None:  # no longer blinded away; their tournament table state (issue #11)
            await self.hub.tournaments.connected(pid)

    # ------------------------------------------------------------------------------------------- incoming

    async def _handle(self, raw: str | bytes) -> None:
        if self.closed:  # logged out (or too slow) meanwhile: nothing more is taken from this connection
            return
        wait = self.limiter.check("frames")
        if wait > 0:
            self.reply_error("rate_limited", f"too many frames; slow down ({wait:.2f} s)", protocol.peek_ref(raw))
            return
        try:
            frame = protocol.parse_client_frame(raw)
        except protocol.ProtocolError as exc:
            self.reply_refusal(exc, exc.ref)
            return
        kind = frame.type
        ref = frame.id
        if isinstance(frame, protocol.PingFrame):
            self.push(protocol.pong(ref))
            return
        if isinstance(frame, protocol.LobbyRequest):
            self.push(protocol.lobby(self.hub.room.lobby(), ref))
            return
        if isinstance(frame, protocol.AuthFrame):
            if frame.batch:
                self.batch = True
            await self._authenticate(frame.token, ref)
            return
        pid = self.player_id
        if pid is None:
            self.reply_error("unauthenticated", f"log in first: send an auth frame before {kind!r}", ref)
            return
        if self.hub.stopping:
            self.reply_error("shutting_down", "the server is shutting down", ref)
            return
        if kind in MONEY_FRAMES:  # idempotent by frame id (issue #16): the same id again gets the same reply
            self.push(await self.hub.replies.once(pid, frame, lambda: self._reply(pid, frame)))
            return
        self.push(await self._reply(pid, frame))

    async def _reply(self, pid: int, frame: CommandFrame) -> dict[str, Any]:
        """Run one command of the player ``pid`` (this connection's); its ``ack`` or the error frame that refuses
        it."""
        kind, ref = frame.type, frame.id
        try:
            result = await self._command(pid, frame)
        except RiverboatError as exc:  # a refusal: the registry's code for its class (riverboat.errors)
            return dict(self.refusal(exc, ref))
        except Exception:
            log.exception("internal error handling %s from player %s", kind, self.player_id)
            return dict(protocol.error("internal", "internal server error; the command may not have been applied",
                                       ref))
        # a room command's typed reply as its JSON object (the ack's ``result``); chat's line; nothing (resync)
        wire = result.wire() if isinstance(result, CommandReply) else (result if result is not None else {})
        return dict(protocol.ack(kind, wire, ref))

    async def _command(self, pid: int, frame: CommandFrame) -> CommandReply | dict[str, Any] | None:
        """A session frame (chat, resync) here; every other command is the room's (``RoomPort.execute``), with the
        idempotency key of a money command made once from the player and the frame id (issue #29)."""
        if isinstance(frame, protocol.ChatFrame):
            return await self.hub.chat.say(pid, await self.hub.alias_of(pid), frame.table, frame.text)
        if isinstance(frame, protocol.ResyncFrame):
            self.hub.links.resync(pid)
            if self.hub.tournaments is not None:  # and the player's tournament tables (their `state`)
                await self.hub.tournaments.connected(pid)
            return None
        kind = frame.type
        if kind in ("sit", "join_speed", "top_up"):
            await self._check_standing(pid)
        if isinstance(frame, UnwatchFrame):
            self.watched.discard(frame.table)
            if self.hub.links.watched_elsewhere(self, pid, frame.table):  # another tab of the player still watches it
                return Watching(table=frame.table, watching=False)
        key = store_key(pid, frame.id) if kind in MONEY_COMMANDS and frame.id is not None else None
        result = await self.hub.room.execute(pid, frame, key)
        if isinstance(frame, WatchFrame):
            self.watched.add(frame.table)
        return result

    async def _check_standing(self, pid: int) -> None:
        """A suspended or banned account cannot sit (R-INTEG-5c), even on a connection opened before."""
        status = await self.hub.call_store(self.hub.store.integrity.blocked, pid)
        if status is not None:
            raise AccountBlocked(status)


def _default(value: Any) -> Any:
    return jsonable(value)


async def websocket_endpoint(hub: Hub, ws: WebSocket) -> None:
    await Connection(hub, ws).run()
