"""Idempotent money frames (issue #16): a money-moving WebSocket frame sent again with the same id gets the same
reply and moves no money, for at least ``REPLY_TTL_S`` seconds.

Two layers, so that neither alone has to be perfect:

- **the reply cache** (:class:`FrameReplies`, one per server): ``(player, frame id)`` -> the digest of the
  frame's content and its reply (an ``ack`` or a refusal). The same id with the same content gets that reply
  again without reaching the room; the same id with other content gets ``id_reused``. A second copy that arrives
  while the first is still being handled (another tab of the same player) waits for the first's reply. Entries
  expire ``REPLY_TTL_S`` after the first copy, by the hub's injected clock; the cache is bounded (per player and
  in all), dropping the oldest entries first.
- **the store's idempotency key** (:func:`store_key`, from the player and the frame id): the ledger call of the
  command carries it with ``once=True``, so a copy that comes after its reply left the cache (expired, evicted,
  or a restart of the server) moves nothing either: the store refuses it and the player gets ``id_reused``.

Replies that say nothing about the command's outcome (``internal``, a closed or unavailable store, shutting down)
are not kept: the client may retry with the same id, and the store key still stops a second movement.

Frames without an id cannot be recognised again and are handled every time. A new money frame type joins by
being named in :data:`riverboat.room.commands.MONEY_COMMANDS` and by passing its handler's key (``Caller.key``, made
here by :func:`store_key`) to its ledger call.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel

from riverboat.room.commands import MONEY_COMMANDS

from . import protocol

#: Frame types that move money: the room's money commands (their handlers pass the key to the ledger)
MONEY_FRAMES = MONEY_COMMANDS
REPLY_TTL_S = 900.0  # at least ten minutes (issue #16): fifteen
MAX_PER_PLAYER = 512  # replies kept per player (beyond that the oldest goes: its store key still holds)
MAX_ENTRIES = 100_000  # replies kept in all
#: Refusals that say nothing about the command's outcome: never kept, a retry with the same id runs again.
NOT_KEPT = frozenset({"internal", "store_unavailable", "store_closed", "shutting_down", "rate_limited"})

Reply = dict[str, Any]  # a server frame: protocol.ack(...) or protocol.error(...)
Key = tuple[Any, str]


def store_key(player_id: Any, frame_id: int | str) -> str:
    """The ledger idempotency key of a money frame: the player and the frame id (an int id and the same digits as
    a string are different ids, as they are different JSON). At most 64 + ~30 characters (the store takes 255)."""
    kind = "i" if isinstance(frame_id, int) else "s"
    return f"ws:{player_id}:{kind}:{frame_id}"


def digest(frame: BaseModel) -> str:
    """What the frame asks for, without its id: two copies with the same digest are the same command."""
    body = frame.model_dump(mode="json", exclude={"id"})
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass(slots=True)
class _Entry:
    digest: str
    command: str
    expires: float
    reply: asyncio.Future[Reply]


class FrameReplies:
    """The reply cache of money frames (see the module docstring). ``now``: the hub's clock (monotonic seconds)."""

    def __init__(self, now: Callable[[], float], *, ttl: float = REPLY_TTL_S, per_player: int = MAX_PER_PLAYER,
                 max_entries: int = MAX_ENTRIES) -> None:
        self.now = now
        self.ttl = ttl
        self.per_player = per_player
        self.max_entries = max_entries
        self._entries: OrderedDict[Key, _Entry] = OrderedDict()  # oldest first (one ttl: also soonest to expire)
        self._counts: dict[Any, int] = {}

    def __len__(self) -> int:
        return len(self._entries)

    async def once(self, player_id: Any, frame: BaseModel, run: Callable[[], Awaitable[Reply]]) -> Reply:
        """The reply to ``frame`` of ``player_id``: ``run()``'s (the command, once) or the one kept for its id."""
        frame_id = getattr(frame, "id", None)
        if frame_id is None:
            return await run()
        self._expire()
        key: Key = (player_id, f"{type(frame_id).__name__}:{frame_id}")
        wanted = digest(frame)
        entry = self._entries.get(key)
        if entry is not None:
            if entry.digest != wanted:
                return dict(protocol.error(
                    "id_reused", f"frame id {frame_id!r} was already used for another {entry.command} command; "
                    "nothing was done: send a new id for a new command", frame_id))
            await asyncio.wait({entry.reply})  # a copy of a command still being handled: its reply
            if entry.reply.cancelled() or entry.reply.exception() is not None:
                return await self.once(player_id, frame, run)  # the first copy failed without a reply: run it
            return entry.reply.result()
        entry = _Entry(wanted, str(getattr(frame, "type", "")), self.now() + self.ttl,
                       asyncio.get_running_loop().create_future())
        self._add(key, entry)
        try:
            reply = await run()
        except BaseException:
            self._drop(key, entry)
            entry.reply.cancel()  # a copy waiting for this reply runs the command itself (its store key holds)
            raise
        if reply.get("type") == "error" and reply.get("code") in NOT_KEPT:
            self._drop(key, entry)
        entry.reply.set_result(reply)
        return reply

    def _add(self, key: Key, entry: _Entry) -> None:
        player = key[0]
        if self._counts.get(player, 0) >= self.per_player:
            oldest = next(k for k in self._entries if k[0] == player)
            self._drop(oldest, self._entries[oldest])
        while len(self._entries) >= self.max_entries:
            k, e = next(iter(self._entries.items()))
            self._drop(k, e)
        self._entries[key] = entry
        self._counts[player] = self._counts.get(player, 0) + 1

    def _drop(self, key: Key, entry: _Entry) -> None:
        if self._entries.get(key) is not entry:
            return
        del self._entries[key]
        left = self._counts.get(key[0], 1) - 1
        if left:
            self._counts[key[0]] = left
        else:
            self._counts.pop(key[0], None)

    def _expire(self) -> None:
        now = self.now()
        while self._entries:
            key, entry = next(iter(self._entries.items()))
            if entry.expires > now or not entry.reply.done():
                return
            self._drop(key, entry)
