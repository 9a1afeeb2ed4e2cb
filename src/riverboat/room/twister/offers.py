"""The lobby's Twister "Play" (R-TWIST-11): one open Sit & Go per type and buy-in; "Play" registers the player in
it (cash, or a Twister ticket of that value, R-WILD-1) and the director seats the three at random and starts it
when the third is in; the next one of that type and buy-in opens at once (R-TOURN-SNG-1). Which types are offered
is the room's setting (R-WILD-5).

:class:`TwisterOffers` runs on any :class:`~riverboat.room.tournament.director.DirectorHost` (the
:class:`~riverboat.room.Room`): the server holds one (``hub.twister``) and routes the ``twister_play`` and
``tournament_act`` frames here. Finished tournaments are closed and forgotten; their results stay in the store.

Where a Sit & Go of the offer runs is its :class:`TwisterTables`: in this process (:class:`InProcess`, the
default), or on a cluster's table host as a tournament record of the cluster, owned, dealt and resumed there like
any cluster tournament (``riverboat.cluster.tourney.TournamentHosting``; the offer itself is a record of its own,
``TWISTER_OFFER``, whose host runs this class, docs/cluster.md "Twister").
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from riverboat.errors import declare
from riverboat.room.clock import FakeClock
from riverboat.room.errors import RoomError
from riverboat.room.move import Move
from riverboat.room.tournament.director import BotPolicy, Director, DirectorHost
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.twister.interrupt import interrupt_answer, interrupt_twister
from riverboat.room.twister.spec import twister_spec
from riverboat.room.twister.variants import VARIANTS
from riverboat.store.twister import ID_PREFIX
from riverboat.twister import BitSource, TwisterError, TwisterSettings, table_for
from riverboat.twister.lobby import offer

for _code, _status in (("no_tournament", 404), ("not_offered", 422)):
    declare(_code, _status)


OnStart = Callable[[Director], Awaitable[None]]


class TwisterTables(Protocol):
    """Where the Sit & Go's of the offer run (see the module docstring)."""

    def takes(self, tournament_id: str) -> bool:
        """Whether a new Sit & Go may have this id here (a cluster host takes only the ids it is preferred for)."""
        ...

    async def open(self, tournament_id: str, spec: TournamentSpec, settings: TwisterSettings,
                   on_start: OnStart) -> Director:
        """Declare and open the Sit & Go ``tournament_id`` (registering), its variant configured with
        ``settings``; ``on_start`` runs when it starts (R-TOURN-SNG-1: the next one opens)."""
        ...

    async def forget(self, d: Director) -> None:
        """``d`` is over and closed: whatever names it outside the store goes (a cluster: its record)."""
        ...


class InProcess:
    """The Sit & Go's of the offer run in this process, on the offer's host (the room)."""

    def __init__(self, offers: TwisterOffers) -> None:
        self.offers = offers

    def takes(self, tournament_id: str) -> bool:
        return True

    async def open(self, tournament_id: str, spec: TournamentSpec, settings: TwisterSettings,
                   on_start: OnStart) -> Director:
        o = self.offers
        VARIANTS[spec.variant or ""].configure(tournament_id, settings, o.rng)
        d = Director(o.host, tournament_id, spec, bots=o.bots, on_start=on_start)
        await d.open()
        return d

    async def forget(self, d: Director) -> None:
        return None


class TwisterOffers:
    def __init__(self, host: DirectorHost, settings: TwisterSettings | None = None, *,
                 rng: BitSource | None = None, table_settings: Mapping[str, Any] | None = None,
                 currency: str = "EUR", fill_bots: int = 0, tables: TwisterTables | None = None,
                 bots: dict[int, BotPolicy] | None = None) -> None:
        self.host = host
        self.settings = settings or TwisterSettings()
        self.rng = rng  # None: the CSPRNG (production); tests pass a seeded source
        self.table_settings = dict(table_settings or {})
        self.currency = currency
        self.fill_bots = max(0, min(2, fill_bots))  # in-process bots that fill a Twister a player joins (demo)
        # in-process bots (the demo), by player id (a cluster host shares its tournaments' dict: they play there)
        self.bots: dict[int, BotPolicy] = bots if bots is not None else {}
        self.tables: TwisterTables = tables if tables is not None else InProcess(self)
        self.open: dict[tuple[str, int, str], Director] = {}  # (kind, buy-in, currency) -> registering
        self.directors: dict[str, Director] = {}  # every tournament not yet over
        self._seq = itertools.count(1)
        self._lock = asyncio.Lock()
        self._watchers: set[asyncio.Task[None]] = set()

    @classmethod
    def from_config(cls, host: DirectorHost, config: Mapping[str, Any], *, tables: TwisterTables | None = None,
                    bots: dict[int, BotPolicy] | None = None) -> TwisterOffers:
        """From the server's ``twister`` settings: TwisterSettings fields plus ``currency``, ``table_settings``
        and ``fill_bots``."""
        data = dict(config)
        currency = str(data.pop("currency", "EUR"))
        table_settings = data.pop("table_settings", None)
        fill = int(data.pop("fill_bots", 0))
        return cls(host, TwisterSettings.from_dict(data), table_settings=table_settings, currency=currency,
                   fill_bots=fill, tables=tables, bots=bots)

    # ------------------------------------------------------------------ lobby
    def lobby(self) -> dict[str, Any]:
        """The offer (types, buy-ins, prizes, R-TWIST-11) with the players waiting in each open Sit & Go."""
        out = offer(self.settings)
        out["currency"] = self.currency
        for t in out["types"]:
            for b in t["buy_ins"]:
                d = self.open.get((t["kind"], int(b["buy_in"]), self.currency))
                b["waiting"] = len(d.registered) if d is not None else 0
        return out

    # ------------------------------------------------------------------ play
    async def play(self, player_id: int, kind: str, buy_in: int, *, currency: str | None = None,
                   ticket_id: int | None = None, idem_key: str | None = None) -> dict[str, Any]:
        """Register ``player_id`` in the open Sit & Go of ``kind`` at ``buy_in`` (opening one if needed);
        ``idem_key``: the command's idempotency key (a used one moves no money, ``id_reused``; issue #29)."""
        currency = currency or self.currency
        if kind not in self.settings.enabled_kinds:
            raise RoomError("not_offered", f"this room does not offer that Twister type (R-WILD-5): {kind}")
        try:
            table_for(kind, buy_in)
        except TwisterError as exc:
            raise RoomError("not_offered", exc.message) from None
        for d in self.directors.values():
            if player_id in d.registered or player_id in d.entrants_by_id:
                if d.spec.variant == kind and d.spec.buy_in == buy_in:
                    raise RoomError("already_registered", "you are already in this Twister")
        async with self._lock:
            if self.fill_bots and len(self.bots) < 2 * self.fill_bots:
                await self._make_bots(2 * self.fill_bots - len(self.bots), currency)
            waiting = self.open.get((kind, buy_in, currency))
            if waiting is None:
                waiting = await self._open(kind, buy_in, currency)
        result = await waiting.register(player_id, ticket_id=ticket_id, idem_key=idem_key)
        if self.fill_bots and player_id not in self.bots:
            await self._fill(waiting, buy_in, currency)
        return {**result, "kind": kind, "buy_in": buy_in, "currency": currency}

    async def _make_bots(self, n: int, currency: str) -> None:
        """Funded in-process bot accounts (the demo's fill bots), shoving or calling at once."""
        import random

        from riverboat.room.tournament.bots import ShoveBot

        gw = self.host.gateway
        for _ in range(n):
            name = f"twisterbot-{secrets.token_hex(4)}"
            info = await gw.call(gw.store.accounts.register, name, secrets.token_urlsafe(16))
            await gw.call(gw.store.aliases.set_person_like, info.id, random.Random(secrets.randbits(32)))
            self.bots[info.id] = ShoveBot(random.Random(secrets.randbits(32)), shove=0.3, call=0.4)

    async def _fill(self, d: Director, buy_in: int, currency: str) -> None:
        busy = {pid for other in self.directors.values() for pid in (*other.registered, *other.entrants_by_id)}
        gw = self.host.gateway
        for pid in [b for b in self.bots if b not in busy][:self.fill_bots]:
            if d.status.value != "registering" or len(d.registered) >= d.spec.seats:
                return
            if await gw.call(gw.store.ledger.balance, pid, currency) < buy_in:
                await gw.call(gw.store.ledger.deposit, pid, currency, 100 * buy_in,
                              f"twister-bot:{pid}:{secrets.token_hex(6)}")
            await d.register(pid)

    async def _open(self, kind: str, buy_in: int, currency: str) -> Director:
        spec = twister_spec(kind, buy_in, settings=self.settings, currency=currency,
                            table_settings=self.table_settings)
        tid = self.fresh_id(kind, buy_in)
        while not self.tables.takes(tid):
            tid = self.fresh_id(kind, buy_in)
        key = (kind, buy_in, currency)

        async def started(d: Director) -> None:  # R-TOURN-SNG-1: the next one opens at once
            if self.open.get(key) is d:
                del self.open[key]

        d = await self.tables.open(tid, spec, self.settings, started)
        self.open[key] = d
        self._watch(d)
        return d

    def fresh_id(self, kind: str, buy_in: int) -> str:
        """A new Sit & Go's id (``twister:twister-100-3-ab12cd``): the prefix names the family, the random part
        keeps the ids of every process and restart apart."""
        return f"{ID_PREFIX[kind]}{kind}-{buy_in}-{next(self._seq)}-{secrets.token_hex(3)}"

    async def _reap(self, d: Director) -> None:
        await d.done.wait()
        await d.close()
        self.directors.pop(d.id, None)
        await self.tables.forget(d)
        clock = self.host.clock
        if isinstance(clock, FakeClock):
            clock.remove_settle_hook(d.quiesce)

    # ------------------------------------------------------------------ after a restart (R-SERVER-1)
    async def recover(self) -> dict[str, list[str]]:
        """Every Twister-family tournament the store has running resumes from the stacks after its last completed
        hand (the hand in progress was never written: void), with its stored spin and prizes, as any tournament
        (:mod:`riverboat.room.tournament.resume`); one still registering (fewer than three players when the server
        stopped) is cancelled and every stake refunded, to the balance or the ticket (R-TOURN-REG-4 reading, as
        the lobby's tournaments). Returns the ids."""
        from riverboat.room.tournament.resume import resume

        gw = self.host.gateway
        out: dict[str, list[str]] = {"resumed": [], "cancelled": []}
        for tid in await gw.call(gw.store.tournament_play.unfinished):
            if tid in self.directors or not tid.startswith(tuple(set(ID_PREFIX.values()))):
                continue
            if await gw.call(gw.store.tournaments.status, tid) == "registering":
                await gw.call(gw.store.tournaments.cancel, tid)
                out["cancelled"].append(tid)
                continue
            kind = await gw.call(gw.store.twister.kind, tid)
            VARIANTS[kind].configure(tid, self.settings, self.rng)
            d = await resume(self.host, tid, bots=self.bots)
            self._watch(d)
            out["resumed"].append(tid)
        return out

    def _watch(self, d: Director) -> None:
        self.directors[d.id] = d
        clock = self.host.clock
        if isinstance(clock, FakeClock):
            clock.add_settle_hook(d.quiesce)
        task = asyncio.get_running_loop().create_task(self._reap(d))
        self._watchers.add(task)
        task.add_done_callback(self._watchers.discard)

    # ------------------------------------------------------------------ at the table
    def director(self, tournament_id: str) -> Director:
        d = self.directors.get(tournament_id)
        if d is None:
            raise RoomError("no_tournament", f"no running Twister {tournament_id}")
        return d

    async def interrupt(self, tournament_id: str) -> dict[str, Any]:
        """The operator stops a running Twister and pays the compensation (R-TOURN-INT-9/10, :mod:`.interrupt`)."""
        return interrupt_answer(await interrupt_twister(self.director(tournament_id)))

    def owns(self, tournament_id: str) -> bool:
        return tournament_id in self.directors

    async def act(self, player_id: int, tournament_id: str, move: Move) -> dict[str, object]:
        return await self.director(tournament_id).act(player_id, move)

    def tournaments_of(self, player_id: int) -> list[str]:
        """The player's Twisters not yet over (one that has just finished is left out while it is being closed)."""
        return [tid for tid, d in self.directors.items()
                if not d.done.is_set() and (player_id in d.registered or player_id in d.entrants_by_id)]

    async def connected(self, player_id: int) -> None:
        """A (re)connected player gets their table's state again and is no longer folded away. A tournament that
        ends meanwhile (its actor stops and drops the request) is skipped."""
        for tid in self.tournaments_of(player_id):
            d = self.directors[tid]
            try:
                await d.actor.submit(functools.partial(d.connected, player_id))
            except RoomError:
                continue
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the caller itself is being cancelled
                continue  # the actor stopped (the Twister is over): nothing to send

    def disconnected(self, player_id: int) -> None:
        """A player's last connection closed: their Twister tables give the reconnect window (R-DISC-1/2)."""
        for tid in self.tournaments_of(player_id):
            d = self.directors[tid]
            d.actor.post(functools.partial(d.disconnected, player_id))

    async def close(self) -> None:
        """A server stop: every running Twister's hand in progress is voided (R-SERVER-1)."""
        for task in list(self._watchers):
            task.cancel()
        for d in list(self.directors.values()):
            await d.close()
        self.directors.clear()
        self.open.clear()
