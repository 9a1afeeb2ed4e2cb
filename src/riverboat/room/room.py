"""The :class:`Room` facade: one poker room in this process, composed of its parts (issue #29), each in its own
module -- the tables and pools and who sits where, with the lobby (:mod:`.registry`), per-player delivery and
connection state (:mod:`.delivery`), spectators (:mod:`.spectators`), the room-wide rule R-SITOUT-4 (sitting out at
one cash table sits the player out at all of them, and back in at one is back in at all, here and, in a cluster, at
the other table hosts' tables, ``Room.elsewhere``: :mod:`.sitout`) and what a crash or a stop leaves on the tables
(R-SERVER: unsettled hands are voided on start and on stop, :mod:`.recovery`). The room itself keeps the command
registry, the store gateway, the aliases and the R-AAI-2 allowance, and starts and stops the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from riverboat.cards import RandomSource
from riverboat.room.actor import Actor
from riverboat.room.clock import Clock, FakeClock, RealClock
from riverboat.room.commands import Caller, Commands, Result, RoomCommand
from riverboat.room.delivery import Delivery, Sink
from riverboat.room.disconnect import DAY, AaiAllowance
from riverboat.room.errors import RoomError
from riverboat.room.frames import LobbyEntry, PoolLobbyEntry, PoolView, RoomFrame, TableView
from riverboat.room.gateway import StoreGateway
from riverboat.room.move import Move
from riverboat.room.port import Elsewhere
from riverboat.room.recovery import Recovery
from riverboat.room.registry import Registry, validate_table_spec
from riverboat.room.replies import (
    Acted,
    FastFolded,
    JoinedPool,
    Left,
    LeftPool,
    NotWaiting,
    OptionsSet,
    SatIn,
    SatOut,
    Seated,
    SpeedActed,
    ToppedUp,
    Waiting,
    Watching,
)
from riverboat.room.settings import SpeedSpec, TableSpec
from riverboat.room.sitout import SitOutRule
from riverboat.room.spectators import MAX_WATCHED, Spectators
from riverboat.room.table_commands import register_table_commands
from riverboat.room.tournament_commands import register_tournament_commands
from riverboat.store import Store
from riverboat.store.db import is_memory_url

__all__ = ["MAX_WATCHED", "Room", "Sink", "validate_table_spec"]

log = logging.getLogger("riverboat.room")


class Room:
    """Tables, pools and players of one poker room. See :mod:`riverboat.room` for the API."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        rng: RandomSource | None = None,
        *,
        cash_out_on_crash: bool = True,
        aai_per_24h: int = 2,
        store_inline: bool = False,
        store_workers: int | None = None,
        store_process: bool = False,
        gateway: StoreGateway | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock if clock is not None else RealClock()
        self.rng: RandomSource = rng if rng is not None else secrets.SystemRandom()
        url = store.url
        workers = store_workers if store_workers is not None else (4 if url.startswith("postgresql") else 1)
        # store_process: the store's work runs in a child process (off this process's GIL); needs a database that
        # two processes can open (a file or PostgreSQL, not an in-memory SQLite)
        in_memory = not url or is_memory_url(url)
        # gateway: given by a cluster table host (a fencing gateway that adds its lease epoch, docs/cluster.md)
        self.gateway = gateway if gateway is not None else StoreGateway(
            store, inline=store_inline, workers=workers, process=store_process and not store_inline and not in_memory)
        self._aliases: dict[int, str | None] = {}
        self.aai = AaiAllowance(aai_per_24h, on_use=self._record_aai)
        self._writes: set[asyncio.Task[None]] = set()  # stores of AAI uses in flight
        # the parts (issue #29): each in its own module, each knowing only what it is given
        self.registry = Registry(self)
        self.tables = self.registry.tables  # the same dicts: the registry's, read by the server and the cluster
        self.pools = self.registry.pools
        self.delivery = Delivery()
        self.spectators = Spectators(self.registry)
        self.sitout = SitOutRule(self.registry)
        self.recovery = Recovery(self.gateway, self.registry, self.delivery, self.alias_of,
                                 cash_out_on_crash=cash_out_on_crash)
        if isinstance(self.clock, FakeClock):
            self.clock.add_settle_hook(self.quiesce)
        #: the command registry (issue #29): the tables' and pools' handlers; tournaments and Twister add theirs
        self.commands = Commands()
        register_table_commands(self, self.commands)
        register_tournament_commands(self.commands, None, None)  # the app registers its lobby and Twister

    @property
    def elsewhere(self) -> Elsewhere | None:
        """The room's tables in other processes (a cluster's other table hosts), for the room-wide rules
        (R-SITOUT-4); None: every table of the room is here."""
        return self.sitout.elsewhere

    @elsewhere.setter
    def elsewhere(self, other: Elsewhere | None) -> None:
        self.sitout.elsewhere = other

    @property
    def group_sink(self) -> Callable[[list[int], RoomFrame], None] | None:
        """``send_many``'s short way (a cluster table host's router): :attr:`Delivery.group_sink`."""
        return self.delivery.group_sink

    @group_sink.setter
    def group_sink(self, sink: Callable[[list[int], RoomFrame], None] | None) -> None:
        self.delivery.group_sink = sink

    async def execute(self, player_id: int, command: RoomCommand, key: str | None = None) -> Result:
        """Run one command of the player (``key``: the idempotency key of a money command, made from the player
        and the frame id): the handler registered for its type answers, or refuses with a clear error."""
        return await self.commands.execute(Caller(player_id, key), command)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, *, void_unsettled: bool = True) -> list[tuple[str, str]]:
        """R-SERVER-1/2: void every hand a crash left unsettled (chips only move at settlement: every stack is its
        pre-hand value), then R-SERVER-3 for the chips left on tables (:meth:`Recovery.after_crash`), and read the
        R-AAI-2 allowance back. Open the room's tables (with their stable ids, ``table_id_for``) BEFORE starting
        it, so that their players find their seats. Returns the voided (table_id, hand_id) pairs.
        ``void_unsettled=False``: a cluster table host, which voids per table when it claims one (the other
        hosts' hands are theirs)."""
        voided: list[tuple[str, str]] = []
        if void_unsettled:
            voided = await self.recovery.void_unsettled()
            await self.recovery.after_crash()
        uses = await self.gateway.call(self.store.accounts.aai_uses_since, self.clock.wall() - DAY)
        self.aai.load(uses)
        self.registry.start()
        return voided

    def cashes_out_on_crash(self, spec: TableSpec | SpeedSpec) -> bool:
        """R-SERVER-3 for one table (:meth:`Recovery.cashes_out_on_crash`)."""
        return self.recovery.cashes_out_on_crash(spec)

    def _record_aai(self, player: int, at: float) -> None:
        """R-AAI-2: store an artificial all-in use (queued on the store gateway before the hand's settlement)."""
        task = asyncio.ensure_future(self._store_aai(player, at))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _store_aai(self, player: int, at: float) -> None:
        try:
            await self.gateway.call(self.store.accounts.record_aai_use, player, at)
        except Exception:
            log.exception("could not store the artificial all-in of player %s", player)

    async def stop(self) -> None:
        """Stop every actor; hands in progress are voided (chips back to their pre-hand owners, R-SERVER-1) and
        every table stack returns to its owner's balance (tables do not outlive the room)."""
        actors = self._actors()
        for t in self.tables.values():
            await t.close()
        for p in self.pools.values():
            await p.close()
        for a in actors:
            await a.stop()
        if self._writes:
            await asyncio.wait(set(self._writes), timeout=5.0)
        try:
            await self.recovery.cash_out_all()
        finally:
            self.delivery.close()
            self.gateway.close()
            if isinstance(self.clock, FakeClock):
                self.clock.remove_settle_hook(self.quiesce)
            self.registry.started = False

    async def drop(self, table_id: str) -> None:
        """Forget a table or pool WITHOUT touching its money: a cluster host that lost the table's lease (its new
        owner voids the hand in progress and reopens it from the store). Its actor stops at once."""
        await self.registry.drop(table_id)
        self.spectators.forget_table(table_id)

    def _actors(self) -> list[Actor]:
        return self.registry.actors()

    async def quiesce(self) -> None:
        """Wait until every actor is idle and every queued message has been delivered (tests, FakeClock)."""
        for _ in range(10_000):
            busy = [a for a in self._actors() if a.busy]
            outs = self.delivery.queued()
            if not busy and not outs:
                for _ in range(3):
                    await asyncio.sleep(0)
                if not any(a.busy for a in self._actors()) and not self.delivery.any_queued():
                    return
                continue
            for a in busy:
                await a.idle.wait()
            for q in outs:
                await q.join()
        raise RuntimeError("room did not become idle")  # pragma: no cover

    # ------------------------------------------------------------------ tables and the lobby (the registry)
    async def open_table(self, spec: TableSpec, table_id: str | None = None) -> str:
        """Open a cash table; ``table_id``: a given id (a cluster's stable one) instead of a new one."""
        return self.registry.open_table(spec, table_id)

    async def open_speed_pool(self, spec: SpeedSpec, pool_id: str | None = None) -> str:
        return self.registry.open_speed_pool(spec, pool_id)

    def lobby(self) -> list[LobbyEntry]:
        return self.registry.lobby()

    def lobby_entry(self, table_id: str) -> LobbyEntry | None:
        """The lobby entry of one open cash table or Speed Poker pool (None: not open here)."""
        return self.registry.lobby_entry(table_id)

    def table_info(self, table_id: str) -> TableView | PoolLobbyEntry:
        """Spectator view of a cash table; for a Speed Poker pool id, the pool's lobby entry."""
        return self.registry.table_info(table_id)

    async def table_view(self, table_id: str) -> TableView | PoolLobbyEntry:
        """:meth:`table_info` as the room port gives it (a cluster gateway asks the table's host)."""
        return self.registry.table_info(table_id)

    def speed_view(self, player_id: int, pool_id: str) -> PoolView:
        """A pool player's view: stack, waiting or the hand they are in (own cards only)."""
        return self.registry.speed_view(player_id, pool_id)

    def view(self, player_id: int, table_id: str) -> TableView:
        return self.registry.table(table_id).view_for(player_id)

    def tables_of(self, player_id: int) -> list[str]:
        return self.registry.tables_of(player_id)

    def seated(self, player_id: int, table_id: str) -> None:
        self.registry.seated(player_id, table_id)

    def unseated(self, player_id: int, table_id: str) -> None:
        self.registry.unseated(player_id, table_id)

    @property
    def store_gateway(self) -> StoreGateway:
        return self.gateway

    # ------------------------------------------------------------------ cash table commands
    async def sit(self, player_id: int, table_id: str, seat: int, buy_in: int, wait_for_bb: bool = True, *,
                  idem_key: str | None = None) -> Seated:
        """``idem_key`` (every money command): the ledger key of the buy-in, given by a caller that derives it
        from a client's frame id; a key already used moves nothing and fails with ``id_reused``."""
        table = self.registry.table(table_id)
        return await table.actor.submit(lambda: table.sit(player_id, seat, buy_in, wait_for_bb, idem_key=idem_key))

    async def act(self, player_id: int, table_id: str, move: Move) -> Acted:
        table = self.registry.table(table_id)
        return await table.actor.submit(lambda: table.act(player_id, move))

    async def waitlist(self, player_id: int, table_id: str) -> Waiting:
        """Join the waiting list of a (full) cash table."""
        table = self.registry.table(table_id)
        return await table.actor.submit(lambda: table.waitlist(player_id))

    async def unwaitlist(self, player_id: int, table_id: str) -> NotWaiting:
        table = self.registry.table(table_id)
        return await table.actor.submit(lambda: table.unwaitlist(player_id))

    async def set_options(self, player_id: int, table_id: str, changes: dict[str, bool]) -> OptionsSet:
        """A seated player's table options (auto-post blinds, sit out at the next big blind, wait for the big
        blind); the answer holds all of them."""
        table = self.registry.table(table_id)
        if table.seat_of(player_id) is None:
            raise RoomError("not_seated", "you are not seated at this table")
        return await table.actor.submit(lambda: table.set_options(player_id, changes))

    async def sit_out(self, player_id: int, table_id: str) -> SatOut:
        """R-SITOUT-4: out at every cash table of the player, here and elsewhere (:meth:`SitOutRule.sit_out`)."""
        return await self.sitout.sit_out(player_id, table_id)

    async def sit_in(self, player_id: int, table_id: str, post: bool = False) -> SatIn:
        """R-SITOUT-4: back at every cash table of the player, here and elsewhere (:meth:`SitOutRule.sit_in`)."""
        return await self.sitout.sit_in(player_id, table_id, post)

    async def sit_out_here(self, player_id: int, skip: str | None = None) -> list[str]:
        """R-SITOUT-4 at this room's cash tables only (another host's room asked): :meth:`SitOutRule.sit_out_here`."""
        return await self.sitout.sit_out_here(player_id, skip)

    async def sit_in_here(self, player_id: int, skip: str | None = None) -> list[str]:
        """R-SITOUT-4's other half at this room's cash tables only: :meth:`SitOutRule.sit_in_here`."""
        return await self.sitout.sit_in_here(player_id, skip)

    async def leave(self, player_id: int, table_id: str) -> Left:
        table = self.registry.table(table_id)
        return await table.actor.submit(lambda: table.leave(player_id))

    async def top_up(self, player_id: int, table_id: str, amount: int, *, idem_key: str | None = None
                     ) -> ToppedUp:
        table = self.registry.table(table_id)
        return await table.actor.submit(lambda: table.top_up(player_id, amount, idem_key=idem_key))

    async def watch(self, player_id: int, table_id: str) -> Watching:
        """Watch a table as a spectator (public frames only); at most ``MAX_WATCHED`` tables at a time."""
        return await self.spectators.watch(player_id, table_id)

    async def unwatch(self, player_id: int, table_id: str) -> Watching:
        return await self.spectators.unwatch(player_id, table_id)

    def watched_by(self, player_id: int) -> list[str]:
        """Tables the player watches as a spectator (and that still exist)."""
        return self.spectators.watched_by(player_id)

    async def relay(self, player_id: int, table_id: str, frame: dict[str, Any]) -> dict[str, Any]:
        """Table chat: ``frame`` (the server's chat frame) to the table's audience, if the player is in it."""
        audience = self.table_audience(table_id)
        if player_id not in audience:
            raise RoomError("not_at_table", "sit down or watch the table to chat there")
        self.send_many(sorted(audience), frame)  # type: ignore[arg-type]  # a server frame, passed on as is
        return {"table": table_id, "audience": len(audience)}

    def table_audience(self, table_id: str) -> set[int]:
        """Who hears a cash table now: its seated players and its spectators (``no_table`` if unknown)."""
        return set(self.registry.table(table_id).recipients())

    # ------------------------------------------------------------------ Speed Poker commands
    async def join_speed(self, player_id: int, pool_id: str, buy_in: int, *, idem_key: str | None = None
                         ) -> JoinedPool:
        pool = self.registry.pool(pool_id)
        return await pool.actor.submit(lambda: pool.join(player_id, buy_in, idem_key=idem_key))

    async def fast_fold(self, player_id: int, pool_id: str) -> FastFolded:
        pool = self.registry.pool(pool_id)
        return await pool.actor.submit(lambda: pool.fast_fold(player_id))

    async def speed_act(self, player_id: int, pool_id: str, move: Move) -> SpeedActed:
        pool = self.registry.pool(pool_id)
        return await pool.actor.submit(lambda: pool.act(player_id, move))

    async def leave_speed(self, player_id: int, pool_id: str) -> LeftPool:
        pool = self.registry.pool(pool_id)
        return await pool.actor.submit(lambda: pool.leave(player_id))

    # ------------------------------------------------------------------ players: aliases, connections, delivery
    async def alias_of(self, player_id: int) -> str | None:
        """The player's alias (R-ALIAS-1), cached; None if they have none yet or the store does not know them."""
        if player_id not in self._aliases:
            try:
                info = await self.gateway.call(self.store.accounts.get, player_id)
            except RoomError:
                return None
            self._aliases[player_id] = getattr(info, "alias", None)
        return self._aliases[player_id]

    async def alias_changed(self, player_id: int, alias: str | None) -> None:
        """R-ALIAS-2: the player's alias is now ``alias`` (the server calls this after the store changed it): the
        cache holds it, and every cash table where they sit names them by it at once (an ``alias_changed`` event
        and a fresh ``table_state`` for everyone there). Speed Poker views and lobby entries name nobody."""
        self._aliases[player_id] = alias
        for table_id in self.tables_of(player_id):
            table = self.tables.get(table_id)
            if table is not None:
                with contextlib.suppress(RoomError):  # a table closing meanwhile names nobody any more
                    await table.actor.submit(functools.partial(table.alias_changed, player_id, alias))

    def is_connected(self, player_id: int) -> bool:
        return player_id not in self.delivery.disconnected  # Delivery.is_connected, one call less (hot path)

    def attach(self, player_id: int, sink: Sink, *, immediate: Callable[[RoomFrame], None] | None = None,
               encoded: Callable[[str], None] | None = None) -> None:
        """(Re)connect a player: messages go to ``sink``; every table of theirs sends the full view.

        ``immediate`` (optional): a synchronous, non-blocking callable that takes each message in order at the
        moment the room produces it (the server's connection queues it for its socket writer). Given, it replaces
        the per-player queue and delivery task (and ``sink`` is not called): one hand-off less per message.
        ``encoded``: for frames that arrive already encoded, as a cluster gateway's do (``RemoteRoom.attach``);
        this room produces none, so it is not used here."""
        self.delivery.connect(player_id, sink, immediate)
        seated = self.tables_of(player_id)
        for tid in seated:
            table = self.tables.get(tid)
            if table is not None:
                table.actor.post(functools.partial(table.reconnected, player_id))
        for tid in self.watched_by(player_id):  # a spectator gets the view of the tables they watch again
            if tid not in seated:
                table = self.tables[tid]
                table.actor.post(functools.partial(table.watch, player_id))
        for pool in self.pools.values():
            if pool.has_player(player_id):
                pool.actor.post(functools.partial(pool.reconnected, player_id))

    def detach(self, player_id: int) -> None:
        """A disconnect (R-DISC): the player's timers switch to the reconnect rules; cash tables sit them out."""
        self.delivery.disconnect(player_id)
        seated = self.tables_of(player_id)
        for tid in seated:
            table = self.tables.get(tid)
            if table is not None:
                table.actor.post(functools.partial(table.disconnected, player_id))
        for tid in self.watched_by(player_id):  # no frames to a gone spectator; attach() resumes watching
            if tid not in seated:
                table = self.tables[tid]
                table.actor.post(functools.partial(table.unwatch, player_id))
        for pool in self.pools.values():
            if pool.has_player(player_id):
                pool.actor.post(functools.partial(pool.disconnected, player_id))

    def send(self, player_id: int, message: RoomFrame) -> None:
        self.delivery.send(player_id, message)

    def send_many(self, player_ids: Iterable[int], message: RoomFrame) -> None:
        """``send(pid, message)`` for each of ``player_ids``, in order (:meth:`Delivery.send_many`)."""
        self.delivery.send_many(player_ids, message)
