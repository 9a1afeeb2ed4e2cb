"""Shared server state: the store, the room, the configuration, rate limiters and the live connections."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .ratelimit import Rate, RateLimiter

if TYPE_CHECKING:
    from .ws import Connection


def default_web_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "web"


@dataclass
class ServerConfig:
    """Settings of the ASGI app (not of the tables: those are the room's)."""

    web_dir: Path | None = field(default_factory=default_web_dir)
    #: login attempts per client address, and per username
    login_rate: Rate = field(default_factory=lambda: Rate(burst=20, per_second=0.5))
    login_user_rate: Rate = field(default_factory=lambda: Rate(burst=8, per_second=0.1))
    #: registrations per client address
    register_rate: Rate = field(default_factory=lambda: Rate(burst=20, per_second=0.5))
    #: WebSocket frames per connection
    frame_rate: Rate = field(default_factory=lambda: Rate(burst=40, per_second=20.0))
    #: play money granted to every new account (R-GEN-3: play money costs nothing); 0 = none
    signup_play_chips: int = 1_000_000
    #: a connection whose outgoing queue exceeds this many frames is too slow and is closed
    send_queue_limit: int = 2000
    #: whether the app's lifespan starts and stops the room (False when the caller manages it)
    manage_room: bool = True


class Hub:
    def __init__(self, store: Any, room: Any, config: ServerConfig | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.room = room
        self.config = config or ServerConfig()
        self.ready = False
        self.stopping = False
        self.login_ip = RateLimiter(self.config.login_rate, now)
        self.login_user = RateLimiter(self.config.login_user_rate, now)
        self.register_ip = RateLimiter(self.config.register_rate, now)
        self.now = now
        self.connections: dict[Any, Connection] = {}
        self.anonymous: set[Connection] = set()

    async def call_store(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a synchronous store method in a worker thread (the store is synchronous SQLAlchemy)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def notify_all(self, frame: dict[str, Any]) -> None:
        for conn in [*self.connections.values(), *self.anonymous]:
            conn.push(frame)

    def begin_shutdown(self) -> None:
        """Stop taking commands and tell every client (called on SIGINT/SIGTERM, before connections close)."""
        if self.stopping:
            return
        self.stopping = True
        for conn in [*self.connections.values(), *self.anonymous]:
            conn.push({"type": "notice", "code": "shutdown", "message": "the server is shutting down"})
