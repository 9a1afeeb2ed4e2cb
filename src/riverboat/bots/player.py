"""A bot player: one account, a protocol connection, a strategy; it acts whenever a view offers it legal actions.

The bot reads the same ``table_state`` views a browser gets (docs/protocol.md). When the view of a table offers
this player legal actions, the strategy chooses a move and the bot sends one ``act`` frame, then waits for its
``ack``/``error`` before looking at that table again, so it never acts twice on the same decision.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from .client import ProtocolClient
from .strategies import Decision, Move, Strategy, passive_move

log = logging.getLogger(__name__)
RATE_LIMIT_RETRIES = 8  # a move refused as ``rate_limited`` is sent again (the server kept the decision open)
RATE_LIMIT_BACKOFF_S = 0.25


def hand_view(view: dict[str, Any]) -> dict[str, Any] | None:
    """The engine's per-seat hand view inside a room table view (or None between hands)."""
    hand = view.get("hand")
    if isinstance(hand, dict):
        return hand
    if "players" in view and "board" in view:
        return view
    return None


def my_seat(view: dict[str, Any]) -> int | None:
    you = view.get("you")
    if isinstance(you, dict) and isinstance(you.get("seat"), int):
        return int(you["seat"])
    for key in ("seat", "your_seat"):
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def legal_of(view: dict[str, Any]) -> dict[str, Any] | None:
    for source in (view, hand_view(view) or {}):
        legal = source.get("legal")
        if isinstance(legal, dict) and legal.get("kinds"):
            return legal
    return None


def decision_from_view(table: str, view: dict[str, Any]) -> Decision | None:
    legal = legal_of(view)
    if legal is None:
        return None
    hv = hand_view(view) or {}
    seat = legal.get("seat", my_seat(view))
    hole: tuple[str, ...] = ()
    opponents = 0
    stack = 0
    for p in hv.get("players", []):
        if p.get("seat") == seat:
            hole = tuple(c for c in p.get("cards", []) if isinstance(c, str) and c != "??")
            stack = int(p.get("stack", 0))
        elif not p.get("folded"):
            opponents += 1
    return Decision(
        table=table,
        seat=seat,
        game=hv.get("game"),
        kinds=frozenset(legal.get("kinds", ())),
        call=int(legal.get("call", 0) or 0),
        min_to=int(legal.get("min_to", 0) or 0),
        max_to=int(legal.get("max_to", 0) or 0),
        bring_in=int(legal.get("bring_in", 0) or 0),
        max_discards=int(legal.get("max_discards", 0) or 0),
        allowed_to=tuple(legal.get("allowed_to", ()) or ()),
        hole=hole,
        board=tuple(hv.get("board", ()) or ()),
        opponents=max(1, opponents),
        pot=int(hv.get("pot", 0) or 0),
        stack=stack,
        view=view,
    )


class Bot:
    """Plays every table the account sits at. ``on_act(table, latency_s)`` is called when the first frame about
    that table arrives after an action was sent (used by the load benchmark). The bot waits ``think`` seconds
    before each action, or, with ``think_range=(lo, hi)``, a time drawn uniformly from that range each time (a
    human pace: about 1 to 4 s)."""

    def __init__(self, client: ProtocolClient, strategy: Strategy, *, think: float = 0.0,
                 think_range: tuple[float, float] | None = None,
                 on_act: Callable[[str, float], None] | None = None) -> None:
        self.client = client
        self.strategy = strategy
        self.think = think
        self.think_range = think_range
        self.on_act = on_act
        self.actions = 0
        self.refused = 0
        self._busy: set[str] = set()
        self._dirty: set[str] = set()
        self._sent_at: dict[str, float] = {}
        self._used: dict[str, dict[str, Any]] = {}  # the view each table's last decision was made on
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopped = False
        client.on_frame.append(self._on_frame)

    def _on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "speed":
            if frame.get("event") == "your_turn" and not self.stopped:
                self._schedule(str(frame.get("pool")))
            return
        if kind not in ("table_state", "event"):
            return
        table = str(frame.get("table") if "table" in frame else frame.get("pool"))
        sent = self._sent_at.pop(table, None)
        if sent is not None and self.on_act is not None:
            self.on_act(table, frame.get("_t", time.perf_counter()) - sent)
        if kind == "table_state" and not self.stopped:
            self._schedule(table)

    def _schedule(self, table: str) -> None:
        if table in self._busy:
            self._dirty.add(table)
            return
        view = self.client.views.get(table)
        if not view or legal_of(view) is None or view is self._used.get(table):
            return  # no decision, or one already answered (the room sends a new view for the next decision)
        self._busy.add(table)
        task = asyncio.get_running_loop().create_task(self._act(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _act(self, table: str) -> None:
        try:
            delay = random.uniform(*self.think_range) if self.think_range is not None else self.think
            if delay > 0:
                await asyncio.sleep(delay)
            view = self.client.views.get(table) or {}
            decision = decision_from_view(table, view)
            if decision is None or self.stopped or view is self._used.get(table):
                return
            self._used[table] = view
            try:
                move = self.strategy.decide(decision)
            except Exception:  # a strategy bug must not stall the table: fall back to the passive move
                log.exception("strategy failed; playing passively")
                move = passive_move(decision)
            reply = await self._send(table, move)
            for _ in range(RATE_LIMIT_RETRIES):  # too fast for the server's frame limit: the decision still waits
                if reply.get("type") != "error" or reply.get("code") != "rate_limited":
                    break
                await asyncio.sleep(RATE_LIMIT_BACKOFF_S)
                reply = await self._send(table, move)
            if reply.get("type") == "error":
                self._sent_at.pop(table, None)  # a refused action causes no broadcast: no latency sample
            if reply.get("type") == "error" and reply.get("code") not in ("not_your_turn",):
                self.refused += 1
                log.debug("move %s refused: %s", move, reply)
                fallback = passive_move(decision)
                if fallback != move:
                    await self._send(table, fallback)
        except (TimeoutError, ConnectionError):
            pass
        finally:
            self._busy.discard(table)
            if table in self._dirty:
                self._dirty.discard(table)
                if not self.stopped:
                    self._schedule(table)

    async def _send(self, table: str, move: Move) -> dict[str, Any]:
        self._sent_at[table] = time.perf_counter()
        self.actions += 1
        return await self.client.act(table, move.kind, move.amount,
                                     list(move.cards) if move.cards is not None else None)

    async def stop(self) -> None:
        self.stopped = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:  # asyncio.wait: the tasks' cancellation is not raised here, the caller's own still is
            await asyncio.wait(tasks)
