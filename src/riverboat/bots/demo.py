"""Demo bots for ``riverboat serve``: accounts created in the store, seated over the WebSocket protocol.

Each table entry's ``"bots": n`` seats n bots (``"bot": "strength"`` for :class:`StrengthBot`, default
:class:`RandomBot`). Bot accounts get a random 256-bit password (so a cheap argon2id setting is safe for them),
are funded from the house (an operator deposit in the table's currency) and log in directly through the store;
then they connect to the server's ``/ws`` like any browser and play. A bot whose connection drops reconnects
(in a cluster, through another live gateway when its own is gone: ``base`` is then a function giving the live
gateways' base URLs, docs/cluster.md); one that runs short of chips tops up to the table minimum between hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher

from .client import CommandRefused, ProtocolClient
from .names import person_alias
from .player import Bot
from .strategies import RandomBot, Strategy
from .strength import StrengthBot

log = logging.getLogger(__name__)

BOT_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
BOT_BANKROLL_BUYINS = 50
STRENGTH_TRIALS = 60  # the Monte Carlo of a StrengthBot decision (tests/demo plays the demo pools with it)

#: The room's base URL (``http://host:port``), or a function giving the base URLs of its live gateways (a cluster).
BaseUrls = str | Callable[[], Sequence[str]]


def ws_url_of(base_url: str) -> str:
    return base_url.replace("http://", "ws://").replace("https://", "wss://") + "/ws"


@dataclass
class BotSeat:
    table: str
    seat: int
    buy_in: int
    currency: str
    username: str
    password: str
    player_id: int
    strategy: Strategy
    think: float
    pool: bool = False  # a Speed Poker pool (join_speed) rather than a seat at a cash table


@dataclass
class DemoBots:
    base: BaseUrls
    store: Any
    seats: list[BotSeat] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    stopping: bool = False

    def ws_url(self, attempt: int) -> str:
        """Where to connect: the room, or the ``attempt``-th live gateway (in turn, so that a bot whose gateway
        died, or does not answer, tries the next one; a dead gateway leaves the list when its lease expires)."""
        if isinstance(self.base, str):
            return ws_url_of(self.base)
        urls = sorted(self.base())
        if not urls:
            raise ConnectionError("no live gateway")
        return ws_url_of(urls[attempt % len(urls)])

    def stop(self) -> None:
        self.stopping = True
        for task in self.tasks:
            task.cancel()

    async def run_seat(self, seat: BotSeat) -> None:
        attempt = seat.seat
        while not self.stopping:
            client: ProtocolClient | None = None
            bot: Bot | None = None
            try:
                token = await asyncio.to_thread(self.store.accounts.login, seat.username, seat.password)
                client = ProtocolClient(self.ws_url(attempt), token)
                await client.connect()
                bot = Bot(client, seat.strategy, think=seat.think)
                tables = await self._seated_tables(client)
                out_of_pool = PoolWatch(seat.table)
                if seat.pool:
                    client.on_frame.append(out_of_pool)
                    await self._join_pool(client, seat)
                elif seat.table not in tables:
                    with contextlib.suppress(CommandRefused):
                        await client.sit(seat.table, seat.seat, seat.buy_in)
                while not client.closed.is_set() and not self.stopping:
                    await asyncio.sleep(5.0)
                    if not seat.pool:
                        await self._refill(client, seat)
                    elif out_of_pool.take():  # busted and cashed out (issue #31 item 2): buy in again
                        await self._join_pool(client, seat)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the server is restarting, the seat was taken...: retry later
                log.debug("demo bot %s: %s", seat.username, exc)
            finally:
                if bot is not None:
                    await bot.stop()
                if client is not None:
                    await client.close()
            if not self.stopping:
                attempt += 1
                await asyncio.sleep(2.0)

    async def _join_pool(self, client: ProtocolClient, seat: BotSeat) -> None:
        """Join (or, after going broke, re-join) the Speed Poker pool; the bankroll is topped up from the house when
        it no longer covers a buy-in (play money: the demo pools must not drain to one bot, issue #31 item 2)."""
        balance = await asyncio.to_thread(self.store.ledger.balance, seat.player_id, seat.currency)
        if balance < seat.buy_in:
            await asyncio.to_thread(self.store.ledger.deposit, seat.player_id, seat.currency,
                                    seat.buy_in * BOT_BANKROLL_BUYINS,
                                    f"demo-bankroll:{seat.player_id}:{secrets.token_hex(6)}")
        with contextlib.suppress(CommandRefused, asyncio.TimeoutError, ConnectionError):  # already in it
            await client.command({"type": "join_speed", "pool": seat.table, "buy_in": seat.buy_in})

    async def _seated_tables(self, client: ProtocolClient) -> set[str]:
        await asyncio.sleep(0.2)  # the welcome is followed by the views of the tables we sit at
        return {t for t, v in client.views.items() if isinstance(v.get("you"), dict)}

    async def _refill(self, client: ProtocolClient, seat: BotSeat) -> None:
        view = client.views.get(seat.table) or {}
        you = view.get("you")
        if not isinstance(you, dict) or you.get("pending_top_up"):
            return
        header = view.get("table") or {}
        minimum = int(header.get("min_buy_in") or 0)
        stack = int(you.get("stack") or 0)
        if minimum and stack < minimum:
            with contextlib.suppress(CommandRefused, asyncio.TimeoutError, ConnectionError):
                await client.command({"type": "top_up", "table": seat.table, "amount": minimum})
                if you.get("sitting_out"):
                    await client.command({"type": "sit_in", "table": seat.table})


class PoolWatch:
    """A frame callback that notes when the room cashed this bot out of its Speed Poker pool (``speed`` frame,
    event ``left``: the bot went broke, R-SPEED); :meth:`take` answers once per time it happened."""

    def __init__(self, pool: str) -> None:
        self.pool = pool
        self.left = False

    def __call__(self, frame: dict[str, Any]) -> None:
        if frame.get("type") == "speed" and str(frame.get("pool")) == self.pool and frame.get("event") == "left":
            self.left = True

    def take(self) -> bool:
        left, self.left = self.left, False
        return left


async def _name_like_a_person(store: Any, player_id: int, rng: random.Random, taken: set[str]) -> None:
    """Give a bot an alias like a person's (before its first login would assign ``PlayerNNNNNNNN``)."""
    for _ in range(20):
        try:
            await asyncio.to_thread(store.aliases.set, player_id, person_alias(rng, taken))
            return
        except Exception:  # noqa: BLE001 - taken by a player, or refused: try another name
            continue


def bot_buy_in(entry: dict[str, Any]) -> int:
    """What a demo bot buys in for at a table entry: half the maximum (five minimums when there is none), at least
    the minimum."""
    buy_in = int(entry.get("max_buy_in") or 0) or int(entry.get("min_buy_in", 0)) * 5
    return max(buy_in // 2, int(entry.get("min_buy_in", 0)))


async def start_demo_bots(base: BaseUrls, store: Any, opened: list[tuple[str, dict[str, Any]]]) -> DemoBots:
    """Create, fund and seat the bots the table entries ask for; returns the running :class:`DemoBots`."""
    from riverboat.store import Store

    bot_store = Store(store.url, password_hasher=BOT_HASHER)
    demo = DemoBots(base, bot_store)
    rng = random.Random()
    taken: set[str] = set()
    for table_id, entry in opened:
        count = int(entry.get("bots", 0) or 0)
        if count <= 0:
            continue
        currency = str(entry.get("currency", "EUR"))
        buy_in = bot_buy_in(entry)
        for i in range(count):
            username = f"bot-{secrets.token_hex(5)}"
            password = secrets.token_urlsafe(32)
            info = await asyncio.to_thread(bot_store.accounts.register, username, password)
            await _name_like_a_person(bot_store, info.id, rng, taken)
            await asyncio.to_thread(bot_store.ledger.deposit, info.id, currency, buy_in * BOT_BANKROLL_BUYINS,
                                    f"demo-bankroll:{info.id}")
            strategy: Strategy = StrengthBot(trials=STRENGTH_TRIALS) if entry.get("bot") == "strength" else RandomBot()
            seat = BotSeat(table_id, i, buy_in, currency, username, password, info.id, strategy, think=0.5,
                           pool=bool(entry.get("speed")))
            demo.seats.append(seat)
            demo.tasks.append(asyncio.create_task(demo.run_seat(seat), name=f"demo-bot:{username}"))
    return demo
