"""Table host → gateways: the room's frames for each player, batched per gateway and event-loop turn.

The room hands a public frame over ONCE with all its recipients (``send_many(players, frame)``: the room's
``group_sink``, :mod:`riverboat.room`) and a player's own frame with ``send(player, frame)``. :class:`Router`
collects what one loop turn produced, in that order, as groups ``(frame, players)`` (a ``send`` of the same frame
object as the group before joins it), and publishes per gateway one NATS message: the groups in order, each with
the players of that gateway who get it (:func:`riverboat.cluster.wire.encode_delivery`), each frame encoded once
as the text its players' WebSockets get, which the gateway forwards without decoding it (it had decoded every
frame and encoded it again: ~5 % of its CPU per action, docs/performance.md). Every player's frames keep their
order because the groups do. (Before, every recipient was a call and the router grouped them again at the flush:
a fifth of a table host's CPU, docs/performance.md.)

The replies to a gateway's commands ride in the same message (:meth:`Router.reply`), after the frames: an action
then costs one NATS message from the host instead of two (its frames, then its reply), and the flush waits one
loop turn while a command is being answered (:attr:`Router.answering`), so that an action's frames and its reply,
which come one turn apart, leave together.

The delivery window (``window``, :data:`DELIVERY_WINDOW_S`; ``riverboat serve --role tables --delivery-window-ms``):
the router flushes at most once per window. A frame handed over when the last flush is at least a window old
leaves at the next loop turn, as without a window; one handed over sooner waits for the window to close, with
everything else handed over meanwhile. A host's tables are many and each acts every few seconds, so one loop turn
rarely holds more than one action; under load the window puts several tables' actions in one message, which saves
a NATS message per action folded in (a publish here, a read and a dispatch on the gateway). The price, under load
only, is up to ``window`` (half of it on average) more latency on a host's frames; 0 flushes at every loop turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from riverboat.cluster.window import call_in_window
from riverboat.cluster.wire import Encoded, encode_delivery, encode_frame
from riverboat.room.frames import RoomFrame

log = logging.getLogger("riverboat.cluster")


#: bytes per delivery message: half of NATS's default max_payload (1 MiB), which refuses larger messages
MAX_DELIVERY_BYTES = 512 * 1024
#: seconds between two flushes of a host's frames under load (docs/performance.md, cluster sections of
#: 2026-12-05 09:40 UTC: 0 against 10 ms, after trials of 5 and 15 ms; and 12:27 UTC: 10 against 20 ms)
DELIVERY_WINDOW_S = 0.02


class Router:
    """``send(player, frame)`` → the player's gateway (``route(player)``: its id, or None: not connected)."""

    def __init__(self, publish: Callable[[str, bytes], Awaitable[None]], route: Callable[[int], str | None],
                 max_bytes: int = MAX_DELIVERY_BYTES, hold: Callable[[], bool] | None = None,
                 window: float = 0.0) -> None:
        self.publish = publish
        self.route = route
        self.max_bytes = max_bytes  # a larger batch is split (in order): NATS refuses messages over max_payload
        self.window = window  # at most one flush per this many seconds (0: at every loop turn)
        # hold(): True while the frames may not go out yet (a table host whose lease renewal is late: it may no
        # longer own its tables). They wait, in order, for release() (the lease was renewed: they go out) or
        # drop_held() (the lease was lost); they are not dropped because a renewal was merely late.
        self.hold = hold
        self._pending: list[tuple[RoomFrame, list[int]]] = []  # (frame, players), in send order
        self._pending_frames = 0  # frames to players in it
        self._replies: dict[str, list[tuple[str, bytes]]] = {}  # gateway -> (token, reply JSON), in answer order
        self.answering = 0  # commands being answered now (the host counts them): the next flush waits a turn
        self._deferred = False
        self._scheduled = False
        self._flushed_at = float("-inf")  # loop time of the last flush (the window runs from there)
        self.frames = 0  # frames handed over (per player)
        self.messages = 0  # NATS messages published
        self.replies = 0  # replies sent within deliveries
        self.held = 0  # frames that waited for a late lease renewal (statistics)
        self.held_now = 0

    def release(self) -> None:
        """The lease is confirmed: send what waited (now, in order)."""
        if self._pending_frames or self._replies:
            self._deferred = True  # now, not a turn later
            self.flush()

    def drop_held(self) -> int:
        """The lease was lost: forget the frames that waited (the tables' views are sent again by whoever deals
        them now). Returns how many were dropped."""
        dropped, self._pending, self._pending_frames, self.held_now = self._pending_frames, [], 0, 0
        self._replies = {}  # their gateways time out (table_timeout): the new owner does not know these commands
        return dropped

    def send(self, player_id: int, frame: RoomFrame) -> None:
        pending = self._pending
        if pending and pending[-1][0] is frame:
            pending[-1][1].append(player_id)
        else:
            pending.append((frame, [player_id]))
        self._pending_frames += 1
        self.frames += 1
        self._schedule()

    def send_many(self, player_ids: list[int], frame: RoomFrame) -> None:
        """One frame to several players (the room's ``group_sink``); the list is the router's from now on."""
        self._pending.append((frame, player_ids))
        self._pending_frames += len(player_ids)
        self.frames += len(player_ids)
        self._schedule()

    def reply(self, gateway: str, token: str, data: bytes) -> None:
        """The reply (JSON of a ``Reply``) to the gateway's command ``token``, in its next delivery."""
        self._replies.setdefault(gateway, []).append((token, data))
        self.replies += 1
        self._schedule()

    def _schedule(self) -> None:
        """Flush at the next loop turn, or when the window since the last flush closes (once, however much is
        handed over meanwhile)."""
        if not self._scheduled:
            self._scheduled = True
            call_in_window(self._flushed_at, self.window, self.flush)

    def flush(self) -> None:
        if self.answering and not self._deferred:  # a command's reply is a turn away: take it along
            self._deferred = True
            asyncio.get_running_loop().call_soon(self.flush)
            return
        self._deferred = False
        self._scheduled = False
        if self.hold is not None and self.hold():
            self.held += self._pending_frames - self.held_now
            self.held_now = self._pending_frames
            return  # kept, in order, for release() or drop_held()
        self.held_now = 0
        groups, self._pending, self._pending_frames = self._pending, [], 0
        by_gateway: dict[str, list[tuple[RoomFrame, list[int]]]] = {}
        route = self.route
        for frame, players in groups:  # in order: each gateway's groups keep every player's order
            if not players:
                continue
            gateways = list(map(route, players))
            gw = gateways[0]
            if gateways.count(gw) == len(gateways):  # all at one gateway (the usual case): the group as it is
                if gw is not None:
                    mine = by_gateway.get(gw)
                    if mine is None:
                        by_gateway[gw] = [(frame, players)]
                    else:
                        mine.append((frame, players))
                continue
            split: dict[str, list[int]] = {}  # this frame's players by gateway
            for pid, gw in zip(players, gateways, strict=True):
                if gw is not None:
                    split.setdefault(gw, []).append(pid)
            for gw, theirs in split.items():
                by_gateway.setdefault(gw, []).append((frame, theirs))
        replies, self._replies = self._replies, {}
        for gw in replies:
            by_gateway.setdefault(gw, [])
        if by_gateway:
            self._flushed_at = asyncio.get_running_loop().time()
            encoded: dict[int, Encoded | RoomFrame] = {}  # each frame encoded once, for every gateway it goes to

            def once(frame: RoomFrame) -> Encoded | RoomFrame:
                hit = encoded.get(id(frame))
                if hit is None:
                    hit = encoded[id(frame)] = encode_frame(frame)
                return hit

            batches = [(gw, data) for gw, mine in by_gateway.items()
                       for data in self._encode([(once(f), players) for f, players in mine], replies.get(gw))]
            self.messages += len(batches)
            asyncio.ensure_future(self._publish(batches))  # tasks run in creation order: frames stay in order

    def _encode(self, groups: list[tuple[Encoded | RoomFrame, list[int]]],
                replies: list[tuple[str, bytes]] | None = None) -> list[bytes]:
        """The groups (and the replies, after them) as one delivery, or as consecutive smaller ones when that would
        exceed ``max_bytes`` (many tables' full views in one loop turn, e.g. a group commit of 64 buy-ins; the
        gateway hands the deliveries out in order, so every player's frames keep their order)."""
        data = encode_delivery(groups, replies)
        if len(data) <= self.max_bytes or len(groups) <= 1:
            return [data]  # one frame over the limit alone cannot be split: publishing it fails and is logged
        half = len(groups) // 2
        return self._encode(groups[:half]) + self._encode(groups[half:], replies)

    async def _publish(self, batches: list[tuple[str, bytes]]) -> None:
        for gw, data in batches:
            try:
                await self.publish(gw, data)
            except Exception:  # NATS is down: the frames are lost; the player resyncs on reconnection
                log.warning("delivery to gateway %s failed", gw, exc_info=True)
