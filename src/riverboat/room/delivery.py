"""The room's per-player delivery (a part of :class:`~riverboat.room.Room`, issue #29): each connected player's way
in (a sink with its queue and delivery task, or an ``immediate`` callable), who is disconnected (R-DISC), and the
sending of frames in the order the room produced them (R-GEN-5), one frame object for every recipient of a public
event (``send_many``, with a cluster table host's ``group_sink``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from riverboat.room.frames import RoomFrame

log = logging.getLogger("riverboat.room")
Sink = Callable[[RoomFrame], Awaitable[None]]


class Delivery:
    """Where each player's frames go, and whether they are connected."""

    def __init__(self) -> None:
        self.sinks: dict[int, Sink] = {}
        self.outbox: dict[int, asyncio.Queue[RoomFrame]] = {}
        self.immediate: dict[int, Callable[[RoomFrame], None]] = {}
        # send_many's short way (a cluster table host's router, riverboat.cluster.delivery): ONE call per frame with
        # every recipient that has an ``immediate`` callable, instead of one call per recipient; set only where
        # every such callable is that sink's own (per-player) way in
        self.group_sink: Callable[[list[int], RoomFrame], None] | None = None
        self.senders: dict[int, asyncio.Task[None]] = {}
        self.disconnected: set[int] = set()

    def is_connected(self, player_id: int) -> bool:
        return player_id not in self.disconnected

    def connect(self, player_id: int, sink: Sink, immediate: Callable[[RoomFrame], None] | None) -> None:
        """The player's frames go to ``immediate`` (called at once, in order) or, without it, through a queue and
        a delivery task to ``sink``; they count as connected."""
        old = self.senders.pop(player_id, None)
        if old is not None:
            old.cancel()
        self.sinks[player_id] = sink
        self.disconnected.discard(player_id)
        if immediate is not None:
            self.outbox.pop(player_id, None)
            self.immediate[player_id] = immediate
        else:
            self.immediate.pop(player_id, None)
            queue: asyncio.Queue[RoomFrame] = asyncio.Queue()
            self.outbox[player_id] = queue
            self.senders[player_id] = asyncio.get_running_loop().create_task(
                self._deliver(player_id, sink, queue))

    def disconnect(self, player_id: int) -> None:
        """No frames to the player any more; they count as disconnected (R-DISC)."""
        task = self.senders.pop(player_id, None)
        if task is not None:
            task.cancel()
        self.sinks.pop(player_id, None)
        self.outbox.pop(player_id, None)
        self.immediate.pop(player_id, None)
        self.disconnected.add(player_id)

    def send(self, player_id: int, message: RoomFrame) -> None:
        immediate = self.immediate.get(player_id)
        if immediate is not None:
            try:
                immediate(message)
            except Exception:
                log.exception("delivery to player %s failed", player_id)
            return
        queue = self.outbox.get(player_id)
        if queue is not None:
            queue.put_nowait(message)

    def send_many(self, player_ids: Iterable[int], message: RoomFrame) -> None:
        """``send(pid, message)`` for each of ``player_ids``, in order: one frame object for all of them (a public
        event). With a ``group_sink`` the players reached immediately get it in one call."""
        group = self.group_sink
        immediate = self.immediate
        if group is None:  # send() inlined: one frame to ~6 players per event on the room's hot path
            outbox = self.outbox
            for pid in player_ids:
                way_in = immediate.get(pid)
                if way_in is not None:
                    try:
                        way_in(message)
                    except Exception:
                        log.exception("delivery to player %s failed", pid)
                    continue
                queue = outbox.get(pid)
                if queue is not None:
                    queue.put_nowait(message)
            return
        reached: list[int] = []
        for pid in player_ids:
            if pid in immediate:
                reached.append(pid)
            else:
                self.send(pid, message)  # queued for a sink, or nobody
        if reached:
            try:
                group(reached, message)
            except Exception:
                log.exception("delivery to players %s failed", reached)

    def queued(self) -> list[asyncio.Queue[RoomFrame]]:
        """The queues that still hold (or are delivering) a frame (``Room.quiesce``)."""
        return [q for q in self.outbox.values() if q.qsize() or q._unfinished_tasks]  # type: ignore[attr-defined]

    def any_queued(self) -> bool:
        return any(q.qsize() for q in self.outbox.values())

    def close(self) -> None:
        """Stop every delivery task (the room stops)."""
        for task in self.senders.values():
            task.cancel()
        self.senders.clear()

    async def _deliver(self, player_id: int, sink: Sink, queue: asyncio.Queue[RoomFrame]) -> None:
        """Send queued messages in order; one wake-up drains everything queued so far."""
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            for message in batch:
                try:
                    await sink(message)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("delivery to player %s failed", player_id)
                finally:
                    queue.task_done()
