"""The :class:`Room` facade: the registry of tables and Speed Poker pools, per-player message delivery, connection
state, and the room-wide rules (R-SITOUT-4: sitting out at one cash table sits the player out at all of them, and
back in at one is back in at all, here and, in a cluster, at the other table hosts' tables (``Room.elsewhere``);
R-SERVER: unsettled hands are voided on start and on stop).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from riverboat.cards import RandomSource
from riverboat.engine import Hand, HandConfig
from riverboat.games import Kind, Structure, get_game
from riverboat.room.actor import Actor
from riverboat.room.clock import Clock, FakeClock, RealClock
from riverboat.room.commands import Caller, Commands, Result, RoomCommand
from riverboat.room.deal import stakes_for
from riverboat.room.disconnect import DAY, AaiAllowance
from riverboat.room.errors import RoomError
from riverboat.room.frames import LobbyEntry, PoolLobbyEntry, PoolView, RoomFrame, TableView
from riverboat.room.gateway import StoreGateway
from riverboat.room.port import Elsewhere
from riverboat.room.rake import get_schedule, load_schedules, rake_key
from riverboat.room.settings import STRUCTURES, SpeedSpec, TableSettings, TableSpec
from riverboat.room.speed import SpeedPool
from riverboat.room.table import Table
from riverboat.room.table_commands import register_table_commands
from riverboat.room.tournament_commands import register_tournament_commands
from riverboat.store.db import is_memory_url
from riverboat.store.ledger import KeptStack

log = logging.getLogger("riverboat.room")
MAX_WATCHED = 20  # tables one player may watch as a spectator at a time
Sink = Callable[[RoomFrame], Awaitable[None]]


class Room:
    """Tables, pools and players of one poker room. See :mod:`riverboat.room` for the API."""

    def __init__(
        self,
        store: Any,
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
        url = str(getattr(store, "url", ""))
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
        self.cash_out_on_crash = cash_out_on_crash
        self.tables: dict[str, Table] = {}
        self.pools: dict[str, SpeedPool] = {}
        self._player_tables: dict[int, set[str]] = {}
        #: the room's tables in other processes (a cluster's other table hosts), for the room-wide rules
        #: (R-SITOUT-4); None: every table of the room is here
        self.elsewhere: Elsewhere | None = None
        self._watching: dict[int, set[str]] = {}  # player -> tables they watch as a spectator
        self._sinks: dict[int, Sink] = {}
        self._outbox: dict[int, asyncio.Queue[RoomFrame]] = {}
        self._immediate: dict[int, Callable[[RoomFrame], None]] = {}
        # send_many's short way (a cluster table host's router, riverboat.cluster.delivery): ONE call per frame with
        # every recipient that has an ``immediate`` callable, instead of one call per recipient; set only where
        # every such callable is that sink's own (per-player) way in
        self.group_sink: Callable[[list[int], RoomFrame], None] | None = None
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._disconnected: set[int] = set()
        self._started = False
        self._counter = 0
        if isinstance(self.clock, FakeClock):
            self.clock.add_settle_hook(self.quiesce)
        #: the command registry (issue #29): the tables' and pools' handlers; tournaments and Twister add theirs
        self.commands = Commands()
        register_table_commands(self, self.commands)
        register_tournament_commands(self.commands, None, None)  # the app registers its lobby and Twister

    async def execute(self, player_id: int, command: RoomCommand, key: str | None = None) -> Result:
        """Run one command of the player (``key``: the idempotency key of a money command, made from the player
        and the frame id): the handler registered for its type answers, or refuses with a clear error."""
        return await self.commands.execute(Caller(player_id, key), command)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, *, void_unsettled: bool = True) -> list[tuple[str, str]]:
        """R-SERVER-1/2: void every hand a crash left unsettled (chips only move at settlement: every stack is its
        pre-hand value), then R-SERVER-3 for the chips left on tables (:meth:`_after_crash`), and read the R-AAI-2
        allowance back. Open the room's tables (with their stable ids, ``table_id_for``) BEFORE starting it, so
        that their players find their seats. Returns the voided (table_id, hand_id) pairs.
        ``void_unsettled=False``: a cluster table host, which voids per table when it claims one (the other
        hosts' hands are theirs)."""
        voided: list[tuple[str, str]] = []
        if void_unsettled:
            voided = await self.gateway.call(self.gateway.ledger.void_unsettled_hands, cash_out_on_crash=False)
            await self._after_crash()
        uses = await self.gateway.call(self.store.accounts.aai_uses_since, self.clock.wall() - DAY)
        self.aai.load(uses)
        self._started = True
        for t in self.tables.values():
            t.actor.start()
        for p in self.pools.values():
            p.actor.start()
        return voided

    def cashes_out_on_crash(self, spec: TableSpec | SpeedSpec) -> bool:
        """R-SERVER-3 for one table: its ``cash_out_on_crash`` setting if the spec gives one, else the room's flag.
        A Speed Poker pool always cashes out (its players join again)."""
        if isinstance(spec, SpeedSpec):
            return True
        setting = spec.settings.get("cash_out_on_crash") if spec.settings else None
        return self.cash_out_on_crash if setting is None else bool(setting)

    async def _after_crash(self) -> None:
        """R-SERVER-3 for the chips a crash (or a kill) left on tables: at an open table whose setting is off, its
        players get their seats (the seat of their buy-in, else a free one) and stacks back, sat out and
        disconnected until they come back (R-SITOUT-3 evicts them, stack to the balance, if they do not); every
        other stack of an open table or pool goes back to its owner's balance, and so do those of tables not open
        here when the room's flag is on (off: they stay, for a cluster host or a later start)."""
        kept = await self.gateway.call(self.gateway.ledger.kept_stacks)
        by_table: dict[str, list[KeptStack]] = {}
        for k in kept:
            by_table.setdefault(k.table_id, []).append(k)
        for tid, stacks in by_table.items():
            table = self.tables.get(tid)
            thing: Table | SpeedPool | None = table if table is not None else self.pools.get(tid)
            if thing is None and not self.cash_out_on_crash:
                continue
            back = stacks
            if table is not None and not self.cashes_out_on_crash(table.spec):
                back = await self._reseat(table, stacks)
            for k in back:
                await self.gateway.call(self.gateway.ledger.cash_out, k.player_id, tid,
                                        f"crash-cashout:{tid}:{k.player_id}:{secrets.token_hex(6)}",
                                        currency=k.currency)

    async def _reseat(self, table: Table, stacks: list[KeptStack]) -> list[KeptStack]:
        """Put the kept stacks of ``table`` back in their seats (``Table.reopen``); returns those that found no
        seat (another currency, or the table is full), for the balance."""
        mine = [k for k in stacks if k.currency == table.spec.currency]
        placed: dict[int, KeptStack] = {}
        for k in mine:
            if k.seat is not None and 0 <= k.seat < table.spec.max_seats and k.seat not in placed:
                placed[k.seat] = k
        free = [s for s in range(table.spec.max_seats) if s not in placed]
        rest = [k for k in stacks if k.currency != table.spec.currency]
        for k in mine:
            if k not in placed.values():
                if free:
                    placed[free.pop(0)] = k
                else:
                    rest.append(k)
        seats = [(k.player_id, seat, k.chips, await self.alias_of(k.player_id)) for seat, k in sorted(placed.items())]
        table.reopen(seats, await self.gateway.call(self.gateway.ledger.hands_dealt, table.id), None)
        for pid, *_ in seats:
            await table.sit_out(pid, reason="R-SERVER-3")
            self._disconnected.add(pid)
        log.warning("table %s reopened after a crash with %d stack(s) kept", table.id, len(seats))
        return rest

    def _record_aai(self, player: object, at: float) -> None:
        """R-AAI-2: store an artificial all-in use (queued on the store gateway before the hand's settlement)."""
        task = asyncio.ensure_future(self._store_aai(player, at))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _store_aai(self, player: object, at: float) -> None:
        try:
            await self.gateway.call(self.store.accounts.record_aai_use, player, at)
        except Exception:
            log.exception("could not store the artificial all-in of player %s", player)

    async def stop(self) -> None:
        """Stop every actor; hands in progress are voided (chips back to their pre-hand owners, R-SERVER-1) and
        every table stack returns to its owner's balance (tables do not outlive the room)."""
        actors = [t.actor for t in self.tables.values()] + [p.actor for p in self.pools.values()]
        for t in self.tables.values():
            await t.close()
        for p in self.pools.values():
            await p.close()
        for a in actors:
            await a.stop()
        if self._writes:
            await asyncio.wait(set(self._writes), timeout=5.0)
        try:
            await self.gateway.call(self.gateway.ledger.void_unsettled_hands, cash_out_on_crash=False)
            # every cash-out at once: the store gateway commits them in a few group commits, not one fsync each
            calls: list[Awaitable[Any]] = [
                self.gateway.call(self.gateway.ledger.cash_out, st.player_id, t.id,
                                  f"stop:{t.id}:{st.player_id}:{secrets.token_hex(6)}", currency=t.spec.currency)
                for t in self.tables.values() for st in list(t.seats.values())]
            calls += [p.cash_out_all() for p in self.pools.values()]
            failed = [r for r in await asyncio.gather(*calls, return_exceptions=True) if isinstance(r, BaseException)]
            if failed:
                raise failed[0]
        finally:
            for task in self._senders.values():
                task.cancel()
            self._senders.clear()
            self.gateway.close()
            if isinstance(self.clock, FakeClock):
                self.clock.remove_settle_hook(self.quiesce)
            self._started = False

    async def drop(self, table_id: str) -> None:
        """Forget a table or pool WITHOUT touching its money: a cluster host that lost the table's lease (its new
        owner voids the hand in progress and reopens it from the store). Its actor stops at once."""
        table = self.tables.pop(table_id, None)
        pool = self.pools.pop(table_id, None)
        for thing in (table, pool):
            if thing is None:
                continue
            thing.closed = True
            await thing.actor.stop()
            await thing.close()
        if table is not None:
            for st in table.seats.values():
                self.unseated(st.player_id, table_id)
        for watched in self._watching.values():
            watched.discard(table_id)

    def _actors(self) -> list[Actor]:
        return [t.actor for t in self.tables.values()] + [p.actor for p in self.pools.values()]

    async def quiesce(self) -> None:
        """Wait until every actor is idle and every queued message has been delivered (tests, FakeClock)."""
        for _ in range(10_000):
            busy = [a for a in self._actors() if a.busy]
            outs = [q for q in self._outbox.values() if q.qsize() or q._unfinished_tasks]  # type: ignore[attr-defined]
            if not busy and not outs:
                for _ in range(3):
                    await asyncio.sleep(0)
                if not any(a.busy for a in self._actors()) and not any(
                    q.qsize() for q in self._outbox.values()
                ):
                    return
                continue
            for a in busy:
                await a.idle.wait()
            for q in outs:
                await q.join()
        raise RuntimeError("room did not become idle")  # pragma: no cover

    # ------------------------------------------------------------------ tables
    def _new_id(self, prefix: str, name: str) -> str:
        self._counter += 1
        slug = "".join(ch for ch in name.lower() if ch.isalnum())[:24] or prefix
        return f"{prefix}{self._counter}-{slug}-{secrets.token_hex(3)}"

    async def open_table(self, spec: TableSpec, table_id: str | None = None) -> str:
        """Open a cash table; ``table_id``: a given id (a cluster's stable one) instead of a new one."""
        settings = TableSettings.from_dict(spec.settings)
        validate_table_spec(spec)
        table_id = table_id or self._new_id("t", spec.name)
        if table_id in self.tables or table_id in self.pools:
            raise RoomError("bad_settings", f"table {table_id!r} is already open")
        table = Table(self, table_id, spec, settings)
        self.tables[table_id] = table
        if self._started:
            table.actor.start()
        return table_id

    def _table(self, table_id: object) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise RoomError("no_table", f"no table {table_id!r}")
        return table

    def lobby(self) -> list[LobbyEntry]:
        entries: list[LobbyEntry] = [t.lobby_entry() for t in self.tables.values()]
        return entries + [p.lobby_entry() for p in self.pools.values()]

    def lobby_entry(self, table_id: str) -> LobbyEntry | None:
        """The lobby entry of one open cash table or Speed Poker pool (None: not open here)."""
        thing: Table | SpeedPool | None = self.tables.get(table_id) or self.pools.get(table_id)
        return thing.lobby_entry() if thing is not None else None

    def table_info(self, table_id: str) -> TableView | PoolLobbyEntry:
        """Spectator view of a cash table; for a Speed Poker pool id, the pool's lobby entry."""
        if isinstance(table_id, str) and table_id in self.pools:
            return self.pools[table_id].lobby_entry()
        return self._table(table_id).view_for(None)

    def speed_view(self, player_id: int, pool_id: str) -> PoolView:
        """A pool player's view: stack, waiting or the hand they are in (own cards only)."""
        return self._pool(pool_id).view_for(player_id)

    def view(self, player_id: int, table_id: str) -> TableView:
        return self._table(table_id).view_for(player_id)

    def tables_of(self, player_id: int) -> list[str]:
        return sorted(self._player_tables.get(player_id, ()))

    async def sit(self, player_id: int, table_id: str, seat: int, buy_in: int, wait_for_bb: bool = True, *,
                  idem_key: str | None = None) -> dict[str, Any]:
        """``idem_key`` (every money command): the ledger key of the buy-in, given by a caller that derives it
        from a client's frame id; a key already used moves nothing and fails with ``id_reused``."""
        table = self._table(table_id)
        return await table.actor.submit(lambda: table.sit(player_id, seat, buy_in, wait_for_bb, idem_key=idem_key))

    async def act(self, player_id: int, table_id: str, kind: str, amount: int | None = None,
                  cards: list[str] | None = None) -> dict[str, Any]:
        table = self._table(table_id)
        return await table.actor.submit(lambda: table.act(player_id, kind, amount, cards))

    async def waitlist(self, player_id: int, table_id: str) -> dict[str, Any]:
        """Join the waiting list of a (full) cash table."""
        table = self._table(table_id)
        return await table.actor.submit(lambda: table.waitlist(player_id))

    async def unwaitlist(self, player_id: int, table_id: str) -> dict[str, Any]:
        table = self._table(table_id)
        return await table.actor.submit(lambda: table.unwaitlist(player_id))

    async def set_options(self, player_id: int, table_id: str, changes: dict[str, bool]) -> dict[str, Any]:
        """A seated player's table options (auto-post blinds, sit out at the next big blind, wait for the big
        blind); the answer holds all of them."""
        table = self._table(table_id)
        if table.seat_of(player_id) is None:
            raise RoomError("not_seated", "you are not seated at this table")
        return await table.actor.submit(lambda: table.set_options(player_id, changes))

    async def sit_out(self, player_id: int, table_id: str) -> dict[str, Any]:
        """R-SITOUT-4: sitting out at one cash table sits the player out at all their cash tables: this room's
        (:meth:`sit_out_here`) and, in a cluster, those of the other table hosts (:attr:`elsewhere`)."""
        table = self._table(table_id)
        if table.seat_of(player_id) is None:
            raise RoomError("not_seated", "you are not seated at this table")
        result = await table.actor.submit(lambda: table.sit_out(player_id))
        others = await self.sit_out_here(player_id, skip=table_id)
        if self.elsewhere is not None:
            others += await self.elsewhere.sit_out(player_id)
        return result | {"also_sat_out": sorted(others)}

    async def sit_in(self, player_id: int, table_id: str, post: bool = False) -> dict[str, Any]:
        """Back from sitting out; R-SITOUT-4 (no sitting out at one cash table while playing at another): back at
        the player's other cash tables too (:meth:`sit_in_here`, and :attr:`elsewhere`'s), waiting for the big
        blind there (``post`` is this table's choice)."""
        table = self._table(table_id)
        result = await table.actor.submit(lambda: table.sit_in(player_id, post))
        others = await self.sit_in_here(player_id, skip=table_id)
        if self.elsewhere is not None:
            others += await self.elsewhere.sit_in(player_id)
        return result | {"also_sat_in": sorted(others)}

    async def sit_out_here(self, player_id: int, skip: str | None = None) -> list[str]:
        """R-SITOUT-4 at this room's cash tables where the player sits and plays (``skip``: the one they chose):
        sat out there too. The tables where that happened."""
        done = []
        for tid in self.tables_of(player_id):
            table = self.tables.get(tid)
            st = table.seat_of(player_id) if table is not None and tid != skip else None
            if table is not None and st is not None and not st.sitting_out:
                await table.actor.submit(functools.partial(table.sit_out, player_id, reason="R-SITOUT-4"))
                done.append(tid)
        return done

    async def sit_in_here(self, player_id: int, skip: str | None = None) -> list[str]:
        """R-SITOUT-4's other half at this room's cash tables where the player sits out (``skip``: the one they
        chose): back in, waiting for the big blind; a table where they have no chips left stays as it is."""
        done = []
        for tid in self.tables_of(player_id):
            table = self.tables.get(tid)
            st = table.seat_of(player_id) if table is not None and tid != skip else None
            if table is not None and st is not None and st.sitting_out:
                with contextlib.suppress(RoomError):  # no chips there (bad_amount): sat out until topped up
                    await table.actor.submit(functools.partial(table.sit_in, player_id, False))
                    done.append(tid)
        return done

    async def leave(self, player_id: int, table_id: str) -> dict[str, Any]:
        table = self._table(table_id)
        return await table.actor.submit(lambda: table.leave(player_id))

    async def top_up(self, player_id: int, table_id: str, amount: int, *, idem_key: str | None = None
                     ) -> dict[str, Any]:
        table = self._table(table_id)
        return await table.actor.submit(lambda: table.top_up(player_id, amount, idem_key=idem_key))

    async def watch(self, player_id: int, table_id: str) -> dict[str, Any]:
        """Watch a table as a spectator (public frames only); at most ``MAX_WATCHED`` tables at a time."""
        table = self._table(table_id)
        watched = self._watching.setdefault(player_id, set())
        if table_id not in watched and len(watched) >= MAX_WATCHED:
            raise RoomError("too_many_watched", f"a player may watch at most {MAX_WATCHED} tables at a time")
        watched.add(table_id)
        return await table.actor.submit(lambda: table.watch(player_id))

    async def unwatch(self, player_id: int, table_id: str) -> dict[str, Any]:
        table = self._table(table_id)
        watched = self._watching.get(player_id)
        if watched is not None:
            watched.discard(table_id)
            if not watched:
                del self._watching[player_id]
        return await table.actor.submit(lambda: table.unwatch(player_id))

    async def table_view(self, table_id: str) -> TableView | PoolLobbyEntry:
        """:meth:`table_info` as the room port gives it (a cluster gateway asks the table's host)."""
        return self.table_info(table_id)

    @property
    def store_gateway(self) -> StoreGateway:
        return self.gateway

    async def relay(self, player_id: int, table_id: str, frame: dict[str, Any]) -> dict[str, Any]:
        """Table chat: ``frame`` (the server's chat frame) to the table's audience, if the player is in it."""
        audience = self.table_audience(table_id)
        if player_id not in audience:
            raise RoomError("not_at_table", "sit down or watch the table to chat there")
        self.send_many(sorted(audience), frame)  # type: ignore[arg-type]  # a server frame, passed on as is
        return {"table": table_id, "audience": len(audience)}

    def table_audience(self, table_id: str) -> set[int]:
        """Who hears a cash table now: its seated players and its spectators (``no_table`` if unknown)."""
        return set(self._table(table_id).recipients())

    def watched_by(self, player_id: int) -> list[str]:
        """Tables the player watches as a spectator (and that still exist)."""
        return sorted(t for t in self._watching.get(player_id, ()) if t in self.tables)

    # ------------------------------------------------------------------ Speed Poker
    async def open_speed_pool(self, spec: SpeedSpec, pool_id: str | None = None) -> str:
        settings = TableSettings.from_dict(spec.settings)
        validate_table_spec(TableSpec(name=spec.name, game=spec.game, structure=spec.structure,
                                      small_blind=spec.small_blind, big_blind=spec.big_blind,
                                      max_seats=spec.table_size, min_buy_in=spec.min_buy_in,
                                      max_buy_in=spec.max_buy_in, currency=spec.currency, rake=spec.rake))
        if get_game(spec.game).kind is Kind.STUD:
            raise RoomError("bad_settings", "Speed Poker pools deal blind games only")
        pool_id = pool_id or self._new_id("s", spec.name)
        if pool_id in self.tables or pool_id in self.pools:
            raise RoomError("bad_settings", f"pool {pool_id!r} is already open")
        pool = SpeedPool(self, pool_id, spec, settings)
        self.pools[pool_id] = pool
        if self._started:
            pool.actor.start()
        return pool_id

    def _pool(self, pool_id: object) -> SpeedPool:
        pool = self.pools.get(pool_id) if isinstance(pool_id, str) else None
        if pool is None:
            raise RoomError("no_pool", f"no Speed Poker pool {pool_id!r}")
        return pool

    async def join_speed(self, player_id: int, pool_id: str, buy_in: int, *, idem_key: str | None = None
                         ) -> dict[str, Any]:
        pool = self._pool(pool_id)
        return await pool.actor.submit(lambda: pool.join(player_id, buy_in, idem_key=idem_key))

    async def fast_fold(self, player_id: int, pool_id: str) -> dict[str, Any]:
        pool = self._pool(pool_id)
        return await pool.actor.submit(lambda: pool.fast_fold(player_id))

    async def speed_act(self, player_id: int, pool_id: str, kind: str, amount: int | None = None,
                        cards: list[str] | None = None) -> dict[str, Any]:
        pool = self._pool(pool_id)
        return await pool.actor.submit(lambda: pool.act(player_id, kind, amount, cards))

    async def leave_speed(self, player_id: int, pool_id: str) -> dict[str, Any]:
        pool = self._pool(pool_id)
        return await pool.actor.submit(lambda: pool.leave(player_id))

    # ------------------------------------------------------------------ players and delivery
    def seated(self, player_id: int, table_id: str) -> None:
        self._player_tables.setdefault(player_id, set()).add(table_id)

    def unseated(self, player_id: int, table_id: str) -> None:
        tables = self._player_tables.get(player_id)
        if tables is not None:
            tables.discard(table_id)
            if not tables:
                del self._player_tables[player_id]

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
        for table_id in sorted(self._player_tables.get(player_id, ())):
            table = self.tables.get(table_id)
            if table is not None:
                with contextlib.suppress(RoomError):  # a table closing meanwhile names nobody any more
                    await table.actor.submit(functools.partial(table.alias_changed, player_id, alias))

    def is_connected(self, player_id: int) -> bool:
        return player_id not in self._disconnected

    def attach(self, player_id: int, sink: Sink, *, immediate: Callable[[RoomFrame], None] | None = None,
               encoded: Callable[[str], None] | None = None) -> None:
        """(Re)connect a player: messages go to ``sink``; every table of theirs sends the full view.

        ``immediate`` (optional): a synchronous, non-blocking callable that takes each message in order at the
        moment the room produces it (the server's connection queues it for its socket writer). Given, it replaces
        the per-player queue and delivery task (and ``sink`` is not called): one hand-off less per message.
        ``encoded``: for frames that arrive already encoded, as a cluster gateway's do (``RemoteRoom.attach``);
        this room produces none, so it is not used here."""
        old = self._senders.pop(player_id, None)
        if old is not None:
            old.cancel()
        self._sinks[player_id] = sink
        self._disconnected.discard(player_id)
        if immediate is not None:
            self._outbox.pop(player_id, None)
            self._immediate[player_id] = immediate
        else:
            self._immediate.pop(player_id, None)
            queue: asyncio.Queue[RoomFrame] = asyncio.Queue()
            self._outbox[player_id] = queue
            self._senders[player_id] = asyncio.get_running_loop().create_task(
                self._deliver(player_id, sink, queue))
        for tid in self.tables_of(player_id):
            table = self.tables.get(tid)
            if table is not None:
                table.actor.post(functools.partial(table.reconnected, player_id))
        seated = set(self.tables_of(player_id))
        for tid in self.watched_by(player_id):  # a spectator gets the view of the tables they watch again
            if tid not in seated:
                table = self.tables[tid]
                table.actor.post(functools.partial(table.watch, player_id))
        for pool in self.pools.values():
            if pool.has_player(player_id):
                pool.actor.post(functools.partial(pool.reconnected, player_id))

    def detach(self, player_id: int) -> None:
        """A disconnect (R-DISC): the player's timers switch to the reconnect rules; cash tables sit them out."""
        task = self._senders.pop(player_id, None)
        if task is not None:
            task.cancel()
        self._sinks.pop(player_id, None)
        self._outbox.pop(player_id, None)
        self._immediate.pop(player_id, None)
        self._disconnected.add(player_id)
        for tid in self.tables_of(player_id):
            table = self.tables.get(tid)
            if table is not None:
                table.actor.post(functools.partial(table.disconnected, player_id))
        seated = set(self.tables_of(player_id))
        for tid in self.watched_by(player_id):  # no frames to a gone spectator; attach() resumes watching
            if tid not in seated:
                table = self.tables[tid]
                table.actor.post(functools.partial(table.unwatch, player_id))
        for pool in self.pools.values():
            if pool.has_player(player_id):
                pool.actor.post(functools.partial(pool.disconnected, player_id))

    def send(self, player_id: int, message: RoomFrame) -> None:
        immediate = self._immediate.get(player_id)
        if immediate is not None:
            try:
                immediate(message)
            except Exception:
                log.exception("delivery to player %s failed", player_id)
            return
        queue = self._outbox.get(player_id)
        if queue is not None:
            queue.put_nowait(message)

    def send_many(self, player_ids: Iterable[int], message: RoomFrame) -> None:
        """``send(pid, message)`` for each of ``player_ids``, in order: one frame object for all of them (a public
        event). With a ``group_sink`` the players reached immediately get it in one call."""
        group = self.group_sink
        if group is None:
            for pid in player_ids:
                self.send(pid, message)
            return
        immediate = self._immediate
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


def validate_table_spec(spec: TableSpec) -> None:
    """Refuse a table the rules do not allow (R-TABLE-1, R-BUYIN-2, R-RAKE-5...) with ``bad_settings``."""
    def bad(msg: str) -> RoomError:
        return RoomError("bad_settings", msg)

    if spec.mixed is not None:
        from riverboat.games import MIXED_ROTATIONS

        if spec.mixed not in MIXED_ROTATIONS:
            raise bad(f"unknown mixed game {spec.mixed!r}; known: {', '.join(MIXED_ROTATIONS)}")
        games = [(get_game(g), s) for g, s in MIXED_ROTATIONS[spec.mixed]]
    else:
        try:
            game = get_game(spec.game)
        except KeyError as exc:
            raise bad(str(exc.args[0])) from None
        if spec.structure not in STRUCTURES:
            raise bad(f"unknown structure {spec.structure!r}; known: {', '.join(STRUCTURES)}")
        structure = Structure(spec.structure)
        if structure not in game.structures:
            raise bad(f"{game.name} is not played {spec.structure}")
        games = [(game, structure)]
    for name in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet", "min_buy_in"):
        v = getattr(spec, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise bad(f"{name} must be a non-negative integer (minor units), got {v!r}")
    if spec.max_buy_in is not None and (
        isinstance(spec.max_buy_in, bool) or not isinstance(spec.max_buy_in, int) or spec.max_buy_in < spec.min_buy_in
    ):
        raise bad("max_buy_in must be an integer not below min_buy_in")
    if spec.min_buy_in <= 0:
        raise bad("min_buy_in must be positive (R-BUYIN-2)")
    if not isinstance(spec.currency, str) or not spec.currency:
        raise bad("currency must be a code such as 'EUR' or 'PLAY'")
    if spec.rake not in load_schedules():
        raise bad(f"unknown rake schedule {spec.rake!r}; known: {', '.join(sorted(load_schedules()))}")
    for game, structure in games:
        if not 2 <= spec.max_seats <= game.max_players:
            raise bad(f"{game.name} seats 2 to {game.max_players} players (R-TABLE-1), not {spec.max_seats}")
        if structure.value in ("PL", "HPL", "NL") and spec.max_buy_in is None:
            raise bad("pot-limit, half-pot-limit and no-limit tables need a maximum buy-in (R-BUYIN-2)")
        stakes = stakes_for(spec, game, structure)
        if game.kind is Kind.STUD and spec.ante <= 0:
            where = f"the stud games of {spec.mixed}" if spec.mixed else game.name
            raise bad(f"{where}: every stud hand has antes (R-STUD-1, R-STUD-HL-1, R-ANTE-1); give the table an ante")
        if game.kind is not Kind.STUD and (spec.big_blind <= 0 or spec.small_blind <= 0):
            raise bad("blind games need positive blinds")
        if not spec.play_money:
            schedule = get_schedule(spec.rake)
            if not schedule.covers(structure.value, rake_key(stakes), spec.max_seats):
                raise bad(f"the {spec.rake} rake table has no row for {structure.value} at these stakes (R-RAKE-5)")
        try:  # a dry run of the engine with these stakes
            Hand(HandConfig(game=game, structure=structure, stakes=stakes, seats=[0, 1], stacks=[10**6, 10**6],
                            button=1, deck=list(game.deck.cards)))
        except ValueError as exc:
            raise bad(f"the engine refuses these stakes: {exc}") from None
