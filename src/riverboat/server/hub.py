"""Shared server state: the store, the room, the configuration, rate limiters and the live connections."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import orjson

from riverboat.cluster.metrics import NodeMetrics
from riverboat.room.frames import players_without_alias
from riverboat.room.gateway import StoreGateway
from riverboat.room.port import RoomPort

from . import protocol
from .chat import TableChat
from .mailer import ResetMailer
from .players import PlayerLinks
from .protocol import PROTOCOL_VERSION
from .ratelimit import Rate, RateLimiter
from .replies import FrameReplies

T = TypeVar("T")
P = ParamSpec("P")
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode_frame(frame: Mapping[str, Any], default: Callable[[Any], Any] | None = None) -> str:
    """One server frame as compact JSON text (orjson; non-string keys become strings, as with ``json``)."""
    return orjson.dumps(frame, default=default, option=_ORJSON_OPTIONS).decode()

if TYPE_CHECKING:
    from riverboat.cluster.remote import RemoteTournaments
    from riverboat.cluster.twister import RemoteTwister
    from riverboat.room.tournament.lobby import TournamentLobby
    from riverboat.room.twister.offers import TwisterOffers
    from riverboat.store import Store

    from .integrity_scan import ScheduledScan
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
    #: seconds between integrity scans of the stored hands (issue #13; in a worker process); 0 = no scheduled scan
    integrity_scan_every: float = 0.0
    integrity_min_hands: int = 30
    #: the Twister section (issue #12): TwisterSettings fields plus "currency" (default EUR), "table_settings" (of
    #: the tournament tables) and "fill_bots" (in-process bots that fill a Twister a player joins: the demo)
    twister: dict[str, Any] = field(default_factory=dict)
    #: tournaments opened at the start (issue #11, the demo): [{"spec": TournamentSpec JSON, "series": bool,
    #: "fill_bots": n (in-process bots registered at once), "starts_in": seconds (an MTT's start from now)}]
    tournaments: list[dict[str, Any]] = field(default_factory=list)
    #: money settings (issue #30, server/payments_api.py): cooling_off_hours, four_eyes_above, payments {name: settings}
    money: dict[str, Any] = field(default_factory=dict)
    #: the operator's mail sender for password reset codes (issue #35, server.mailer); None: staff issue them
    reset_mailer: ResetMailer | None = None
    #: a cluster gateway's node metrics (served on their own listener, not here: issue #29) and that listener's URL,
    #: named by ``/health``
    metrics: NodeMetrics | None = None
    metrics_url: str | None = None


class Hub:
    def __init__(self, store: Store, room: RoomPort, config: ServerConfig | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.room = room
        self.config = config or ServerConfig()
        # the room's store gateway (one queue, one group commit for room and server); a room without one (a cluster
        # gateway node's RemoteRoom) gets one of the hub's own
        room_gateway = room.store_gateway
        self._own_gateway = room_gateway is None
        self.gateway = room_gateway if room_gateway is not None else StoreGateway(store, workers=4)
        self.ready = False
        self.stopping = False
        self.login_ip = RateLimiter(self.config.login_rate, now)
        self.login_user = RateLimiter(self.config.login_user_rate, now)
        self.register_ip = RateLimiter(self.config.register_rate, now)
        self.now = now
        self.links = PlayerLinks(self)  # player -> their live connections (several tabs at once)
        self.chat = TableChat(room, now)
        self.replies = FrameReplies(now)  # money frames are idempotent by frame id (issue #16)
        self.anonymous: set[Connection] = set()
        self.integrity_scan: ScheduledScan | None = None  # the scheduled integrity scan (server.integrity_scan), set by the app
        # the Twister "Play" of the room (issue #12), set by the app (a gateway's: its view of the offer's host)
        self.twister: TwisterOffers | RemoteTwister | None = None
        self.tournaments: TournamentLobby | RemoteTournaments | None = None  # Sit & Go's and MTTs (issue #11), set by the app
        self.aliases: dict[int, str | None] = {}  # player id -> public alias (R-ALIAS-1), filled on demand
        # room message (by identity) -> its encoded frame, for the rest of this loop iteration: a public event is
        # one dict shared by all its recipients, so it is named and encoded once, not once per player
        self._encoded: dict[int, tuple[dict[str, Any], str]] = {}
        if self.config.metrics is not None:
            self.config.metrics.connections.set_function(lambda: float(len(self.links.all()) + len(self.anonymous)))

    async def call_store(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a synchronous store call through the store gateway (the one path to the store: group commit, the
        store process); the store's own exception classes come back (the error registry answers them)."""
        return await self.gateway.run(fn, *args, **kwargs)

    def close(self) -> None:
        """Close the store gateway if the hub opened it (a room's own gateway is closed by the room)."""
        if self._own_gateway:
            self.gateway.close()

    async def alias_of(self, player_id: int) -> str | None:
        if player_id not in self.aliases:
            try:
                info = await self.call_store(self.store.accounts.get, player_id)
            except Exception:  # an unknown id (should not happen): show no alias rather than fail the frame
                return None
            self.aliases[player_id] = info.alias
        return self.aliases[player_id]

    async def alias_changed(self, player_id: int, alias: str | None) -> None:
        """R-ALIAS-2, the one path after the store changed an alias: the server's cache, the player's connections
        and the room (every seat view at the player's tables, with an ``alias_changed`` event) show it at once;
        hand logs and sheets read this cache."""
        self.aliases[player_id] = alias
        for conn in self.links.of(player_id):
            conn.alias = alias
        await self.room.alias_changed(player_id, alias)
        from riverboat.room.tournament.lobby import TournamentLobby as Lobby

        if isinstance(self.tournaments, Lobby):  # and the tournaments entered before it (issue #31 item 7)
            await self.tournaments.alias_changed(player_id, alias)

    async def add_aliases(self, message: dict[str, Any]) -> dict[str, Any]:
        """Name the players in a room message by their public alias (R-ALIAS-1): every seat of a ``table_state``
        view and the player of a ``seated`` / ``left`` event get an ``alias`` field (additive)."""
        kind = message.get("type")
        if kind == "table_state":
            view = message.get("view")
            seats = view.get("seats") if isinstance(view, dict) else None
            if isinstance(view, dict) and isinstance(seats, list):
                named = []
                for seat in seats:
                    if isinstance(seat, dict) and "player" in seat and "alias" not in seat:
                        seat = {**seat, "alias": await self.alias_of(seat["player"])}
                    named.append(seat)
                return {**message, "view": {**view, "seats": named}}
        elif kind == "event":
            event = message.get("event")
            if isinstance(event, dict) and "player" in event and "alias" not in event:
                return {**message, "event": {**event, "alias": await self.alias_of(event["player"])}}
        return message

    def missing_aliases(self, message: dict[str, Any]) -> list[Any]:
        """Player ids named in a room message whose alias is not cached yet (see :meth:`add_aliases`)."""
        return [pid for pid in players_without_alias(message) if pid not in self.aliases]

    def add_aliases_now(self, message: dict[str, Any]) -> dict[str, Any]:
        """:meth:`add_aliases` without waiting: every alias it needs must be cached (:meth:`missing_aliases`)."""
        kind = message.get("type")
        if kind == "table_state":
            view = message.get("view")
            seats = view.get("seats") if isinstance(view, dict) else None
            if isinstance(view, dict) and isinstance(seats, list):
                named = [{**seat, "alias": self.aliases.get(seat["player"])}
                         if isinstance(seat, dict) and "player" in seat and "alias" not in seat else seat
                         for seat in seats]
                return {**message, "view": {**view, "seats": named}}
        elif kind == "event":
            event = message.get("event")
            if isinstance(event, dict) and "player" in event and "alias" not in event:
                return {**message, "event": {**event, "alias": self.aliases.get(event["player"])}}
        return message

    def encode_room_message(self, message: dict[str, Any], default: Callable[[Any], Any] | None = None) -> str:
        """The frame text of a room message, named with aliases (all cached) and tagged with the protocol version;
        encoded once per message object per loop iteration, however many players receive it."""
        key = id(message)
        hit = self._encoded.get(key)
        if hit is not None and hit[0] is message:
            return hit[1]
        named = self.add_aliases_now(message)
        text = encode_frame(named if "v" in named else {"v": PROTOCOL_VERSION, **named}, default)
        if message.get("type") != "table_state":  # views are per player: never shared, not worth caching
            if not self._encoded:
                asyncio.get_running_loop().call_soon(self._encoded.clear)
            self._encoded[key] = (message, text)
        return text

    def end_session(self, token: str) -> int:
        """The token was logged out: every connection authenticated with it is told and closed (issue #16: they
        kept working, a ``sit`` with a buy-in included). Returns how many were closed."""
        closing = [conn for conn in self.links.all() if conn.token == token and not conn.closed]
        for conn in closing:
            conn.push(protocol.notice("logged_out", "this session was logged out"))
            conn.push_close()
        return len(closing)

    def close_player(self, player_id: int, status: str) -> int:
        """The account was suspended or banned (R-INTEG-5c): every connection of the player is told and closed
        (their new logins and old tokens are refused by the store). Returns how many were closed."""
        closing = [conn for conn in self.links.of(player_id) if not conn.closed]
        for conn in closing:
            conn.push(protocol.notice("account_blocked", f"this account is {status}"))
            conn.push_close()
        return len(closing)

    def begin_shutdown(self) -> None:
        """Stop taking commands and tell every client (called on SIGINT/SIGTERM, before connections close)."""
        if self.stopping:
            return
        self.stopping = True
        for conn in [*self.links.all(), *self.anonymous]:
            conn.push(protocol.notice("shutdown", "the server is shutting down"))
