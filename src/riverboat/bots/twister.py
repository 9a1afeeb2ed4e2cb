"""A protocol bot for Twister tournaments (issue #12): it presses "Play" (``twister_play``) and plays every
decision it is offered at its tournament table (``tournament`` frame ``state`` with the legal actions) with
``tournament_act``: all-in when it may bet or raise, else call, else check. Used by the end-to-end tests, the
browser test and ``bench/twister_games.py``."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from riverboat.bots.client import ProtocolClient


class TwisterBot:
    def __init__(self, client: ProtocolClient) -> None:
        self.client = client
        self.frames: list[dict[str, Any]] = []  # every tournament frame received
        self.finished = asyncio.Event()
        self.result: dict[str, Any] | None = None
        self.decisions = 0
        self._tasks: set[asyncio.Task[None]] = set()
        client.on_frame.append(self._on_frame)

    async def play(self, kind: str, buy_in: int, ticket: int | None = None) -> dict[str, Any]:
        """Press Play; returns the ack (raises CommandRefused on a refusal)."""
        self.finished.clear()
        self.result = None
        # a fresh id: "Play" is a money frame, idempotent per player and frame id (a new connection restarts ids)
        frame: dict[str, Any] = {"type": "twister_play", "kind": kind, "buy_in": buy_in,
                                 "id": f"play-{secrets.token_hex(8)}"}
        if ticket is not None:
            frame["ticket"] = ticket
        return await self.client.command(frame)

    def events(self, name: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("event") == name]

    def _on_frame(self, frame: dict[str, Any]) -> None:
        if frame.get("type") != "tournament":
            return
        self.frames.append(frame)
        data = frame.get("data") or {}
        if frame.get("event") == "finished":
            self.result = data
            self.finished.set()
            return
        hand = data.get("hand") if frame.get("event") == "state" else None
        legal = hand.get("legal") if isinstance(hand, dict) else None
        if isinstance(legal, dict) and legal.get("seat") == data.get("seat"):
            self.decisions += 1
            task = asyncio.get_running_loop().create_task(self._act(str(frame["tournament"]), legal))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _act(self, tournament: str, legal: dict[str, Any]) -> None:
        kinds = legal.get("kinds") or []
        act: dict[str, Any] = {"type": "tournament_act", "tournament": tournament}
        for kind in ("raise", "bet"):
            if kind in kinds:
                act.update(kind=kind, amount=int(legal["max_to"]))
                break
        else:
            act["kind"] = next(k for k in ("call", "check", "fold") if k in kinds)
        with contextlib.suppress(Exception):
            await self.client.request(act)
