"""The tournament director: one running tournament, from registration to the last prize (RULES.md section 20).

A :class:`Director` owns one tournament described by a :class:`~riverboat.room.tournament.spec.TournamentSpec`.
It runs in ONE actor (every table of the tournament posts into it, so balancing never races a hand) and uses:

- :mod:`.lifecycle` for scheduled -> registering -> running -> final table -> finished / cancelled
  (R-TOURN-REG, R-TOURN-SNG-1 start when full, R-TOURN-MTT-2 start at the time, on its clock's timers);
- ``store.tournaments`` for the money of registration, unregistration, cancellation, re-buys and add-ons, overlay
  (R-FEE, R-TOURN-REG-3/4, R-TOURN-MTT-4) and ``store.tournament_play`` for the running tournament: seating, every
  completed hand with its eliminations and payments in one transaction (R-TOURN-GEN-5, R-WALLET-6, R-SERVER-1);
- :class:`~riverboat.room.tournament.tables.TourneyTable` for the tables, each hand played by the shared
  :class:`~riverboat.room.hand_driver.HandDriver` with no rake (R-RAKE-12);
- :mod:`.levels` (levels by time or by hands, breaks), :mod:`.ranking` and :mod:`.awards` (places, prizes, bounties),
  :mod:`.balancing` (R-TOURN-BAL-1..7, O(seats) per step), hand-for-hand on the money bubble;
- :mod:`.variants` for formats that plug in (Twister: the prize draw before the first hand, Wild all-in).

Players who are not connected when it starts, or who sit out, are dealt in and folded at once (R-TOURN-REG-5,
R-SITOUT-1); in-process bots (``bots``) act through the same hook. See docs/tournaments.md, "The director".
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import random
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from riverboat.cards import RandomSource
from riverboat.engine import Action
from riverboat.room import frames
from riverboat.room.actor import Actor
from riverboat.room.clock import Clock, TimerHandle
from riverboat.room.errors import RoomError
from riverboat.room.frames import RoomFrame, TournamentData, TournamentEventName
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import SETTLE_RETRY_SECONDS, HandDriver, event_record, fallback_kind
from riverboat.room.history_text import hand_history_text
from riverboat.room.settings import TableSettings
from riverboat.room.tournament import awards, flights
from riverboat.room.tournament.awards import Outcome, PlaceAward
from riverboat.room.tournament.balancing import Balancer, Break, Move, seat_far_from_big_blind
from riverboat.room.tournament.levels import LevelClock
from riverboat.room.tournament.lifecycle import PLAYING, Lifecycle, LifecycleError, Status, Transition
from riverboat.room.tournament.ranking import Bust, eliminators
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament.tables import Entrant, TournamentSettler, TourneyTable
from riverboat.room.tournament.variants import get_variant
from riverboat.store.tournament_play import HandCheckpoint

log = logging.getLogger("riverboat.room.tournament")

BotPolicy = Callable[[HandDriver, int], Action]


class DirectorHost(Protocol):
    """What a director needs from its room (the :class:`~riverboat.room.room.Room` is one)."""

    @property
    def clock(self) -> Clock: ...

    @property
    def rng(self) -> RandomSource: ...

    @property
    def gateway(self) -> StoreGateway: ...

    def is_connected(self, player_id: int) -> bool: ...

    def send(self, player_id: int, message: RoomFrame) -> None: ...

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None: ...


@dataclass(slots=True)
class Result:
    player_id: int
    place: int
    place_to: int
    prize: int
    bounties: int = 0  # knockout and named bounties won (R-TOURN-KO-1, R-TOURN-PKO-3, R-TOURN-BOUNTY-1)


@dataclass(slots=True)
class Stats:
    hands: int = 0
    hand_for_hand_rounds: int = 0
    chips_conserved: bool = True
    naive_scan: int = 0  # tables a balancer that scans every table per elimination would read (the peer)
    hand_commits: int = 0  # store commits of hands (a group commit of several hands counts once)
    bubble_outside_hand_for_hand: int = 0  # money bubbles burst by a hand dealt outside hand-for-hand play (0 expected)


class Director:
    """One tournament (see the module docstring). Public coroutines are commands run inside its actor."""

    def __init__(self, host: DirectorHost, tournament_id: str, spec: TournamentSpec, *,
                 bots: Mapping[int, BotPolicy] | None = None, notify_players: bool = True,
                 record_history: bool = True, seed: int | None = None,
                 on_hand: Callable[[Director, TourneyTable, HandDriver], None] | None = None,
                 on_start: Callable[[Director], Awaitable[None]] | None = None, batch_hands: bool = True) -> None:
        self.host = host
        self.id = tournament_id
        self.spec = spec
        self.settings = TableSettings.from_dict(spec.settings)
        self.variant = get_variant(spec.variant)
        self.actor = Actor(f"tournament {tournament_id}")
        self.rng: RandomSource = host.rng
        self._choice = random.Random(seed if seed is not None else secrets.randbits(64))
        self.bots: dict[int, BotPolicy] = dict(bots or {})
        self.notify_players = notify_players
        self.record_history = record_history
        self.on_hand = on_hand
        self.on_start = on_start
        self.settler = TournamentSettler(self)
        self.lifecycle = Lifecycle(spec)
        self.levels: LevelClock | None = None
        self.balancer = Balancer(spec.seats, rng=self._choice)
        self.tables: dict[str, TourneyTable] = {}
        self.entrants_by_id: dict[int, Entrant] = {}  # everyone still in
        self.registered = []  # registration order (before the start)
        self.results: dict[int, Result] = {}
        self.entries = 0  # entrants (registrations) of the field
        self.alive = 0
        self.chips_issued = 0
        self.pool_collected = 0  # place-prize money collected (buy-ins less bounties, re-buys, add-ons, added)
        self.overlay = 0
        self.pool_final = False
        self.paid_total = 0
        self.payments_made = 0  # payments sent to the store (each one ledger transaction)
        self.disqualified: dict[int, int] = {}  # player -> operator: to be removed once their hand is over (R-INTEG-5)
        self.prize_paid = 0  # place prizes, tickets and named bounties paid (everything but knockout bounties)
        self._early: dict[int, int] = {}
        self.bounties_won: dict[int, int] = {}  # player -> knockout and named bounties won so far (cash)
        self.named_left = dict(spec.named_bounties)
        self.stats = Stats()
        self.done = asyncio.Event()
        self._override: list[int] | None = None
        self._override_ticket_for: str | None = None
        self._awards: list[PlaceAward] | None = None
        self._init_dealing()
        self._timer: TimerHandle | None = None
        self._break_timer: TimerHandle | None = None
        self._level_seen = 0
        self._table_seq = 0
        self._flight_over = False
        self.aliases: dict[int, str | None] = {}  # public aliases of the players the tables show (R-ALIAS-1)
        self._stacks: list[int] | None = None  # every stack left, negated and sorted (chip_rank)
        self._stacks_dirty = True
        self._offers: dict[int, TimerHandle] = {}  # busted players deciding whether to re-buy (R-TOURN-REBUY-3)
        self.carried: dict[int, int] = {}  # a Day 2: each qualifier's stack from Day 1 (R-TOURN-FLIGHT-3)
        self.advanced: dict[int, int] = {}  # a Day 1 flight once over: each survivor's Day 2 stack
        self.on_end: Callable[[Director], Awaitable[None]] | None = None  # a flight over (the lobby pokes Day 2)
        self._init_recording(batch_hands)

    def _init_dealing(self) -> None:
        """Which tables deal next: those waiting between hands, the hands in progress, hand-for-hand rounds."""
        self._waiting: set[str] = set()  # tables between hands that can deal (two or more players)
        self._in_hand = 0
        self._h4h_round = 0  # > 0: hand-for-hand round number
        # the pause between hand-for-hand rounds (``between_hands_seconds``, once for all tables): armed, and over
        self._h4h_pause_armed = False
        self._h4h_pause_over = False
        self._round_busts: list[tuple[Bust, str]] = []

    def _init_recording(self, batch_hands: bool) -> None:
        """The bookkeeping of hands recorded in groups (:meth:`record_hand`): hands decided and waiting for their
        group commit (in decision order), hands settled by their table and carried on once committed (in order),
        players ranked but not carried on yet (still in ``entrants_by_id`` and ``alive``)."""
        self.batch_hands = batch_hands
        self._outcomes: dict[tuple[str, str], tuple[Outcome, list[int], list[int], bool]] = {}
        self.seated = 0  # players seated at the tables (kept by TourneyTable.add/remove)
        self._staged: dict[tuple[str, str], HandCheckpoint] = {}
        self._committed: set[tuple[str, str]] = set()
        self._flush_posted = False
        self._settling: deque[tuple[TourneyTable, HandDriver]] = deque()
        self._out_pending: set[int] = set()
        self._ready_at: dict[float, list[str]] = {}  # tables dealing again at the same instant (one timer each)

    # ------------------------------------------------------------------ basics
    @property
    def registered(self) -> list[int]:
        """The players registered before the start, in registration order (read it; assign a new list)."""
        return self._registered

    @registered.setter
    def registered(self, players: list[int]) -> None:
        self._registered = list(players)
        self._is_registered = set(self._registered)  # membership in O(1): a field of 100,000 registers one by one

    @property
    def clock(self) -> Clock:
        return self.host.clock

    @property
    def now(self) -> float:
        """Unix seconds (the spec's times are Unix seconds; a FakeClock's wall moves with its ``now``)."""
        return self.host.clock.wall()

    @property
    def gw(self) -> StoreGateway:
        return self.host.gateway

    @property
    def status(self) -> Status:
        return self.lifecycle.status

    def level_index(self) -> int:
        return self.levels.position(self.now).level if self.levels is not None else 0

    def notify(self, player_id: int, event: TournamentEventName, data: TournamentData) -> None:
        """Send the player the ``tournament`` frame of ``event`` (its ``data`` the model of
        ``frames.TOURNAMENT_DATA[event]``)."""
        if self.notify_players:
            self.host.send(player_id, frames.tournament_frame(self.id, event, data))

    def notify_all(self, event: TournamentEventName, data: TournamentData) -> None:
        if self.notify_players:
            for pid in list(self.entrants_by_id) or self.registered:
                self.notify(pid, event, data)

    async def quiesce(self) -> None:
        """Wait until the director's actor has nothing left to do (tests, FakeClock settle hook)."""
        for _ in range(100_000):
            if not self.actor.busy:
                await asyncio.sleep(0)
                if not self.actor.busy:
                    return
            await self.actor.idle.wait()

    # ------------------------------------------------------------------ opening
    async def open(self) -> None:
        """Declare the tournament in the store and open it (registration opens now or at its time)."""
        spec = self.spec
        deadline = (datetime.fromtimestamp(spec.unregister_deadline, UTC)
                    if spec.unregister_deadline is not None else None)
        if not await self.variant.create(self):  # a variant may declare it itself (Twister: store.twister)
            await self.gw.call(self.gw.store.tournaments.create, self.id, spec.currency, spec.buy_in, spec.fee,
                               unregister_deadline=deadline, name=spec.name, kind=spec.kind, spec=spec.to_dict(),
                               guarantee=spec.guarantee, bounty=spec.knockout.bounty if spec.knockout else 0,
                               pool_id=spec.flight.day2 if spec.flight else None)
        self.actor.start()
        await self.actor.submit(self._tick)

    async def _tick(self) -> None:
        held = False  # a Day 2 waits for every flight of its event (R-TOURN-FLIGHT-1..3)
        if self.spec.day2_of is not None and self.status is Status.REGISTERING:
            held = not await flights.day2_ready(self)
        entrants = len(self.registered)
        if self.spec.day2_of is not None and entrants:  # a Day 2 never cancels a qualifier's prize (FLIGHT-4)
            entrants = max(entrants, self.spec.min_entrants)
        t = None if held else self.lifecycle.due(self.now, entrants)
        if t is not None:
            await self._apply(t)
        wake = self.lifecycle.next_wakeup(self.now)
        if held and wake is not None:
            wake = max(wake, self.now + flights.POLL_SECONDS)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if wake is not None and self.status not in PLAYING:
            self._timer = self.clock.call_later(wake - self.now, lambda: self.actor.post(self._tick))

    async def _apply(self, t: Transition) -> None:
        if t.to is Status.RUNNING:
            await self._start()
        elif t.to is Status.CANCELLED:
            await self._cancel(t.reason)
        else:
            self.lifecycle.apply(t, self.now)  # registration opens (R-TOURN-REG-1): nobody to tell yet

    # ------------------------------------------------------------------ registration (R-TOURN-REG)
    async def register(self, player_id: int, *, promo_code: str | None = None, password: str | None = None,
                       ticket_id: int | None = None, idem_key: str | None = None) -> dict[str, object]:
        """Register (or enter late). ``idem_key``: the command's idempotency key (made from the player and the frame
        id, issue #29): a repeat of a used key moves no money (``id_reused``); without one, a fresh key."""
        return await self.actor.submit(lambda: self._register(player_id, promo_code, password, ticket_id, idem_key))

    async def _register(self, player_id: int, promo_code: str | None, password: str | None,
                        ticket_id: int | None, idem_key: str | None = None) -> dict[str, object]:
        if self.spec.day2_of is not None:
            raise RoomError("registration_closed", "Day 2 is entered by surviving a Day 1 flight (R-TOURN-FLIGHT-2, R-TOURN-FLIGHT-3)")
        priv = self.spec.private
        if priv is not None and (promo_code != priv.promo_code or password != priv.password):
            raise RoomError("bad_password", "this private tournament needs its promo code and password "
                                            "(R-TOURN-PRIV-1)")
        if player_id in self.entrants_by_id or player_id in self._is_registered or player_id in self.results:
            raise RoomError("already_registered", "you are already registered for this tournament")
        try:
            self.lifecycle.check_register(self.now, len(self.registered) if self.status is Status.REGISTERING
                                          else self.entries, self.level_index())
        except LifecycleError as exc:
            raise RoomError(exc.code, exc.message) from None
        late = self.status in PLAYING
        if late and self.pool_final:
            raise RoomError("registration_closed", "the tournament is in the money: its prizes are fixed and late "
                                                   "registration is over (R-TOURN-REG-1)")
        await self.gw.call(self.gw.store.tournaments.register, player_id, self.id,
                           f"t_register:{self.id}:{player_id}:{idem_key or secrets.token_hex(6)}",
                           ticket_id=ticket_id, late=late, once=idem_key is not None)
        self.pool_collected += self.spec.pool_per_entry
        if late:
            await self._late_seat(player_id)
        else:
            self._registered.append(player_id)
            self._is_registered.add(player_id)
            await self.learn_aliases([player_id])
            self.notify(player_id, "registered", {"entrants": len(self.registered)})
            t = self.lifecycle.due(self.now, len(self.registered))
            if t is not None:
                await self._apply(t)
        return {"tournament": self.id, "registered": True, "entrants": len(self.registered) or self.entries}

    async def unregister(self, player_id: int) -> dict[str, object]:
        return await self.actor.submit(lambda: self._unregister(player_id))

    async def _unregister(self, player_id: int) -> dict[str, object]:
        if player_id not in self._is_registered:
            raise RoomError("not_registered", "you are not registered for this tournament")
        try:
            self.lifecycle.check_unregister(self.now)
        except LifecycleError as exc:
            raise RoomError(exc.code, exc.message) from None
        await self.gw.call(self.gw.store.tournaments.unregister, player_id, self.id,
                           f"t_unregister:{self.id}:{player_id}:{secrets.token_hex(6)}")
        self._registered.remove(player_id)
        self._is_registered.discard(player_id)
        self.pool_collected -= self.spec.pool_per_entry
        self.notify(player_id, "unregistered", {})
        return {"tournament": self.id, "registered": False}

    async def _cancel(self, reason: str) -> None:
        """R-TOURN-REG-4: too few entrants at the start: every buy-in and fee back."""
        self.lifecycle.apply(Transition(Status.CANCELLED, reason), self.now)
        await self.gw.call(self.gw.store.tournaments.cancel, self.id)
        for pid in self.registered:
            self.notify(pid, "cancelled", {"reason": reason})
        self.done.set()

    # ------------------------------------------------------------------ the start
    def _new_table(self) -> TourneyTable:
        self._table_seq += 1
        table = self.make_table(f"{self.id}/t{self._table_seq}")
        self.tables[table.id] = table
        return table

    def make_table(self, table_id: str) -> TourneyTable:
        """A table of this tournament (a cluster's director makes tables that may be dealt on another host)."""
        return TourneyTable(self, table_id)

    def _initial_seating(self) -> dict[int, tuple[str, int]]:
        """Random seats, as many tables as needed, their sizes differing by at most one (R-TOURN-BAL-1)."""
        order = {pid: i + 1 for i, pid in enumerate(self.registered)}
        players = list(self.registered)
        self._choice.shuffle(players)
        n_tables = max(1, -(-len(players) // self.spec.seats))
        tables = [self._new_table() for _ in range(n_tables)]
        seating: dict[int, tuple[str, int]] = {}
        timebank = self.settings.timebank_seconds
        for i, pid in enumerate(players):
            table = tables[i % n_tables]
            e = Entrant(pid, order[pid], self.carried.get(pid, self.spec.starting_stack), timebank,
                        bounty=self.spec.knockout.bounty if self.spec.knockout else 0)
            e.sitting_out = pid not in self.bots and not self.host.is_connected(pid)  # R-TOURN-REG-5
            free = table.free_seats()
            table.add(e, free[self._choice.randrange(len(free))])
            self.entrants_by_id[pid] = e
            assert e.table_id is not None and e.seat is not None
            seating[pid] = (e.table_id, e.seat)
        for table in tables:
            self.balancer.add_table(table.id, len(table.seats))
        return seating

    async def _start(self) -> None:
        t = Transition(Status.RUNNING, "start")
        self.lifecycle.apply(t, self.now)
        self.entries = self.alive = len(self.registered)
        seating = self._initial_seating()
        await self.learn_aliases(list(self.registered))
        stacks = {pid: e.chips for pid, e in self.entrants_by_id.items()}
        self.chips_issued = sum(stacks.values())
        self.levels = LevelClock(self.spec, started_at=self.now)
        await self.gw.call(self.gw.store.tournament_play.start, self.id, seating, stacks, {"started": self.now})
        if self.spec.day2_of is not None:  # the pool holds every flight's buy-ins (R-TOURN-FLIGHT-4)
            self.pool_collected = await self.gw.call(self.gw.store.tournaments.prize_pool, self.id)
        if self.spec.added_prize:
            await self.gw.call(self.gw.store.tournaments.add_to_prize_pool, self.id, self.spec.added_prize,
                               f"t_added:{self.id}")
            self.pool_collected += self.spec.added_prize
        if self.on_start is not None:
            await self.on_start(self)  # R-TOURN-SNG-1: the next Sit & Go opens at once
        await self.variant.before_start(self)
        await self._maybe_finalize_pool()
        if self.alive == 1:  # a Day 2 with a single qualifier: they win at once (R-TOURN-FLIGHT-4)
            await flights.lone_winner(self)
            return
        for table in self.tables.values():
            self.notify_table(table, "started", lambda tid, seat: {"table": tid, "seat": seat,
                                                                   "entrants": self.entries})
        delay = self.variant.start_delay(self)  # e.g. the Twister spin shown before the first hand (R-TWIST-3)
        if delay > 0:
            self.clock.call_later(delay, lambda: self.actor.post(self._first_deal))
            return
        await self._first_deal()

    async def _first_deal(self) -> None:
        if self.status not in PLAYING:
            return
        self.levels = LevelClock(self.spec, started_at=self.now)  # the level clock starts with the first hand
        self._waiting = {t.id for t in self.tables.values() if len(t.seats) >= 2}
        await self._pump()

    def notify_table(self, table: TourneyTable, event: TournamentEventName,
                     data: Callable[[str, int], TournamentData]) -> None:
        """Tell everyone at ``table`` (``data(table_id, seat)``: each player's frame data)."""
        for seat, e in table.seats.items():
            self.notify(e.player_id, event, data(table.id, seat))

    # ------------------------------------------------------------------ variants' context
    def add_to_pool(self, amount: int) -> None:
        """A variant's room money added to the pool (call from ``before_start``; paid by ``set_prizes``)."""
        self.pool_collected += amount

    def set_prizes(self, prizes: list[int], *, ticket_for: str | None = None) -> None:
        """A variant fixes the prize of every place (e.g. the Twister draw); with ``ticket_for`` each prize is a
        non-cashable ticket valid for that tournament id or scope (Wild Twister, R-WILD-1)."""
        self._override = list(prizes)
        self._override_ticket_for = ticket_for
        self._awards = None

    @property
    def prize_pool(self) -> int:
        """The pool: what was collected plus the overlay; before the start also the room's added prize
        (R-TOURN-FREE-1: a freeroll's lobby shows the pool it will play for), which is paid in at the start."""
        added = self.spec.added_prize if self.status in (Status.SCHEDULED, Status.REGISTERING) else 0
        return self.pool_collected + self.overlay + added

    def place_awards(self) -> list[PlaceAward]:
        """The award of each place; before the start, for the field registered so far (at least the minimum)."""
        if self._awards is not None:
            return self._awards
        entrants = self.entries or max(len(self.registered), self.spec.min_entrants, 1)
        pool = self.prize_pool - sum(b for _, b in self.spec.named_bounties)
        override = self._override
        if self.spec.flight is not None:
            return []  # a Day 1 flight pays nothing: its buy-ins are Day 2's pool (R-TOURN-FLIGHT-4)
        if override is None and self.spec.day2_of is not None:
            override = flights.day2_awards(self.spec, max(0, pool), entrants)
        if override is None:
            maybe = self.variant.prizes(self, pool, entrants)
            override = list(maybe) if maybe is not None else None
        out = awards.place_awards(self.spec, max(0, pool), entrants, override,
                                  ticket_for=self._override_ticket_for)
        if self.entries:
            self._awards = out
        return out

    def paid_places(self) -> int:
        return len(self.place_awards())

    async def _maybe_finalize_pool(self, *, money: bool = False) -> None:
        """Once no more money can come in (late registration and re-buy/add-on periods over), the house pays any
        overlay of the guarantee (R-TOURN-MTT-4, R-TOURN-GEN-1) and the prizes are fixed. ``money``: a hand about
        to be recorded pays the first prize: the pool is final now (late registration and re-buys end with it)."""
        if self.pool_final:
            return
        spec = self.spec
        last_money_level = spec.late_registration_levels
        if spec.rebuy is not None:
            last_money_level = max(last_money_level, spec.rebuy.period_levels + (1 if spec.rebuy.addon_price else 0))
        if not money and self.level_index() < last_money_level and self.alive > self.paid_places():
            return
        self.pool_final = True
        if spec.guarantee:
            self.overlay += await self.gw.call(self.gw.store.tournaments.pay_overlay, self.id, f"t_overlay:{self.id}")
        self._awards = None

    # ------------------------------------------------------------------ the level clock and dealing
    async def _pump(self) -> None:
        """Deal every waiting table, unless the tournament is on a break, playing hand-for-hand between rounds,
        or its flight day is over."""
        if self.status not in PLAYING or self._flight_over or self.levels is None:
            return
        pos = self.levels.position(self.now)
        if pos.on_break:
            self._arm_break(pos.seconds_left or 0.0)
            return
        if pos.level != self._level_seen:
            self._level_seen = pos.level
            lv = self.spec.level(pos.level)
            self.notify_all("level", {"level": pos.level + 1, "small_blind": lv.small_blind,
                                      "big_blind": lv.big_blind, "ante": lv.ante,
                                      "seconds_left": pos.seconds_left})
            await self._maybe_finalize_pool()
            if await self._flight_done(pos.level):
                return
        if self._h4h_round:
            if self._in_hand or self._h4h_pause_armed:
                return
            delay = self.settings.between_hands_seconds
            if delay > 0 and not self._h4h_pause_over:
                self._arm_h4h_pause(delay)
                return
            self._h4h_pause_over = False
            self._h4h_round += 1
            self.stats.hand_for_hand_rounds += 1
        level = self.spec.level(pos.level)
        waiting, self._waiting = self._waiting, set()
        for tid in sorted(waiting):
            table = self.tables.get(tid)
            if table is not None and not table.in_hand and await table.deal(level):
                self._in_hand += 1
                self._show_deal(table)

    def _arm_h4h_pause(self, delay: float) -> None:
        """Every table of the last hand-for-hand round is done: the next round is dealt, to all tables at once,
        after the same pause as between two hands (without it, players who never bust played hands in no time)."""
        self._h4h_pause_armed = True

        async def resume() -> None:
            self._h4h_pause_armed = False
            self._h4h_pause_over = True
            await self._pump()

        self.clock.call_later(delay, lambda: self.actor.post(resume))

    def _show_deal(self, table: TourneyTable) -> None:
        """A new hand: every player at the table (not the in-process bots) gets the table as it is now (who sits
        there after balancing, the stacks, the hand just dealt)."""
        if self.notify_players:
            driver = table.driver
            acting = driver.hand.to_act if driver is not None else None  # already told by on_turn, with `legal`
            for seat, e in list(table.seats.items()):
                if e.player_id not in self.bots and not (seat == acting and driver is not None
                                                         and driver.players.get(seat) == e.player_id):
                    self.send_table_state(table, e.player_id)

    def _arm_break(self, seconds: float) -> None:
        if self._break_timer is not None:
            return
        self.notify_all("break", {"seconds": round(seconds, 1)})

        async def resume() -> None:
            self._break_timer = None
            await self._pump()

        self._break_timer = self.clock.call_later(max(seconds, 0.001), lambda: self.actor.post(resume))

    async def _flight_done(self, level: int) -> bool:
        flight = self.spec.flight
        if flight is None or level < flight.levels:
            return False
        self._flight_over = True
        if not self._in_hand:
            await self._end_flight()
        return True

    async def _end_flight(self) -> None:
        """R-TOURN-FLIGHT: the Day 1 flight is over; its survivors go to Day 2 with their chips."""
        await flights.end_flight(self)
        if self.on_end is not None:
            await self.on_end(self)

    # ------------------------------------------------------------------ the hand's bots and absentees
    def auto_action(self, driver: HandDriver, seat: int) -> Action | None:
        """The driver's ``auto`` hook: the variant's action (Wild all-in), a bot's, or check/fold for a player
        sitting out or absent (R-SITOUT-1, R-TOURN-REG-5); None lets the player decide on the table's timers."""
        act = self.variant.auto(self, driver, seat)
        if act is not None:
            return act
        pid = driver.players[seat]
        bot = self.bots.get(pid)
        if bot is not None:
            return bot(driver, seat)
        e = self.entrants_by_id.get(pid)
        if e is not None and e.folded_away:
            return Action(seat, fallback_kind(driver.hand.legal_actions().kinds))
        return None

    async def connected(self, player_id: int) -> None:
        """A registered player logged in (or came back, R-DISC-1/2): no longer blinded away (R-TOURN-REG-5); a
        decision of theirs running on the reconnect window goes back to the normal timer."""
        e = self.entrants_by_id.get(player_id)
        if e is not None:
            e.sitting_out = e.away = False
            table = self.tables.get(e.table_id or "")
            if table is not None:
                if table.driver is not None:
                    table.driver.player_reconnected(player_id)
                await self.learn_aliases([x.player_id for x in table.seats.values()])
                self.send_table_state(table, player_id)

    async def disconnected(self, player_id: int) -> None:
        """R-DISC-1: the player lost the connection: at their turn in the hand in progress (now, or to come) a
        player who has bet gets the reconnect window, then is checked or folded; from the next hand on they are
        dealt in and checked or folded at once until they return (R-DISC-2, :meth:`TourneyTable.deal`)."""
        e = self.entrants_by_id.get(player_id)
        table = self.tables.get(e.table_id or "") if e is not None else None
        if table is not None and table.driver is not None:
            table.driver.player_disconnected(player_id)

    async def sit_out(self, player_id: int, out: bool = True) -> dict[str, object]:
        """R-SITOUT-1/2: the player sits out (``out``) or back in. Sitting out, they stay seated, are dealt in
        and keep paying blinds and antes, and are folded (checked when free) at once; their chips are blinded
        away until they sit in (a decision of theirs already running is played for them now)."""
        async def run() -> dict[str, object]:
            e = self._need(player_id)
            e.sat_out = out
            table = self.tables.get(e.table_id or "")
            driver = table.driver if table is not None else None
            if out and driver is not None and e.seat is not None and driver.players.get(e.seat) == player_id \
                    and driver.hand.to_act == e.seat and not driver.hand.is_over:
                with contextlib.suppress(RoomError):  # (a vote or a draw the table decides on its timer)
                    driver.act(e.seat, fallback_kind(driver.hand.legal_actions().kinds).value)
            if table is not None:
                self.send_table_state(table, player_id)
            return {"tournament": self.id, "sitting_out": out}

        return await self.actor.submit(run)

    def _need(self, player_id: int) -> Entrant:
        e = self.entrants_by_id.get(player_id)
        if e is None:
            raise RoomError("not_registered", "you are not playing in this tournament")
        return e

    async def act(self, player_id: int, kind: object, amount: object = None, cards: object = None
                  ) -> dict[str, object]:
        async def run() -> dict[str, object]:
            e = self._need(player_id)
            table = self.tables.get(e.table_id or "")
            driver = table.driver if table is not None else None
            if driver is None or e.seat is None or driver.players.get(e.seat) != player_id:
                raise RoomError("not_your_turn", "you are not in a hand of this tournament")
            driver.act(e.seat, kind, amount, cards)
            return {"ok": True}

        return await self.actor.submit(run)

    def send_table_state(self, table: TourneyTable, player_id: int) -> None:
        """The player's ``state`` frame: their table, the hand view (``legal`` when it is their turn), everyone at
        the table and the HUD (issue #11 item 8)."""
        if not self.notify_players:
            return
        e = self.entrants_by_id.get(player_id)
        seat = e.seat if e is not None and e.table_id == table.id else None
        driver = table.driver
        view = None
        if driver is not None:
            view = driver.view(seat if seat is not None and driver.players.get(seat) == player_id else None)
        data = frames.tournament_state(table.id, seat, view, self.hud())
        data["seats"] = [self._seat_view(s, x) for s, x in sorted(table.seats.items())]
        data["hand_id"] = driver.hand_id if driver is not None else None
        data["seq"] = table.address.counter.last
        data["rank"] = self.chip_rank(e.chips) if e is not None else None
        data["rebuy"] = e is not None and (e.player_id in self._offers or self.rebuy_open(e))
        data["addon"] = e is not None and e.chips > 0 and self.addon_open(e)
        data["sitting_out"] = e is not None and e.sat_out  # the page offers "I'm back" (R-SITOUT-1)
        self.notify(player_id, "state", data)

    def _seat_view(self, seat: int, x: Entrant) -> frames.TournamentSeatView:
        """A player at the table as everyone there sees them (their bounty in a knockout, R-TOURN-KO-1 / PKO-2)."""
        view: frames.TournamentSeatView = {"seat": seat, "player": x.player_id,
                                           "alias": self.aliases.get(x.player_id), "stack": x.chips}
        if self.spec.knockout is not None:
            view["bounty"] = x.bounty
        if x.folded_away:
            view["away"] = True
        return view

    def hud(self) -> frames.TournamentHud:
        """What the table shows (issue #11 item 8): level, blinds, time to the next level or break, players left,
        average stack."""
        pos = self.levels.position(self.now) if self.levels is not None else None
        lv = self.spec.level(pos.level if pos else 0)
        return {"level": (pos.level + 1) if pos else 0, "small_blind": lv.small_blind, "big_blind": lv.big_blind,
                "ante": lv.ante, "on_break": bool(pos and pos.on_break),
                "seconds_left": pos.seconds_left if pos else None,
                "next_break_in": pos.next_break_in if pos else None, "players_left": self.alive,
                "entrants": self.entries, "average_stack": self.chips_issued // max(1, self.alive),
                "prize_pool": self.prize_pool, "hand_for_hand": self._h4h_round > 0}

    def chip_rank(self, chips: int) -> int:
        """The place by chips of a stack among the players left (1 = the chip leader); the sorted stacks are
        re-read at most once per hand (only when frames are sent: never in simulations)."""
        if self._stacks_dirty or self._stacks is None:
            self._stacks = sorted(-x.chips for x in self.entrants_by_id.values())
            self._stacks_dirty = False
        return bisect.bisect_left(self._stacks, -chips) + 1

    async def learn_aliases(self, player_ids: list[int]) -> None:
        """Remember the public alias (R-ALIAS-1) of players the table shows (a host without ``alias_of``, e.g. a
        simulation, shows none)."""
        alias_of = getattr(self.host, "alias_of", None)
        if alias_of is None or not self.notify_players:
            return
        for pid in player_ids:
            if pid not in self.aliases:
                self.aliases[pid] = await alias_of(pid)

    # ------------------------------------------------------------------ re-buys and add-ons (R-TOURN-REBUY)
    def rebuy_open(self, e: Entrant, chips: int | None = None) -> bool:
        """A re-buy is open to ``e`` now (``chips``: their stack after the hand just decided, else ``e.chips``)."""
        rb = self.spec.rebuy
        if rb is None or self.level_index() >= rb.period_levels or self.pool_final:
            return False  # the period is over, or the money reached (the pool is final)
        if rb.max_rebuys and e.rebuys >= rb.max_rebuys:
            return False
        return (e.chips if chips is None else chips) <= (rb.max_stack or self.spec.starting_stack)

    def addon_open(self, e: Entrant) -> bool:
        rb = self.spec.rebuy
        if rb is None or not rb.addon_price or e.addons or self.pool_final:
            return False
        pos = self.levels.position(self.now) if self.levels is not None else None
        return pos is not None and (pos.level == rb.period_levels or (pos.on_break and pos.level + 1 ==
                                                                      rb.period_levels))

    async def rebuy(self, player_id: int, *, idem_key: str | None = None) -> dict[str, object]:
        """A re-buy; ``idem_key`` as for :meth:`register` (a used key: ``id_reused``, no money, no chips)."""
        return await self.actor.submit(lambda: self._pay_in(player_id, "rebuy", idem_key))

    async def addon(self, player_id: int, *, idem_key: str | None = None) -> dict[str, object]:
        return await self.actor.submit(lambda: self._pay_in(player_id, "addon", idem_key))

    async def set_auto_rebuy(self, player_id: int, on: bool) -> dict[str, object]:
        self._need(player_id).auto_rebuy = on
        return {"tournament": self.id, "auto_rebuy": on}

    async def _pay_in(self, player_id: int, kind: str, idem_key: str | None = None) -> dict[str, object]:
        """A re-buy (stack at or below the limit, during the period) or the add-on; the chips are added between
        hands (table stakes)."""
        e = self._need(player_id)
        rb = self.spec.rebuy
        deciding = kind == "rebuy" and player_id in self._offers  # busted in the period: the window holds
        ok = deciding or (self.rebuy_open(e) if kind == "rebuy" else self.addon_open(e))
        table = self.tables.get(e.table_id or "")
        if rb is None or not ok or (table is not None and table.in_hand and e.chips > 0):
            raise RoomError("rebuy_closed", f"no {kind} now (R-TOURN-REBUY-3)")
        price, fee, chips = ((rb.price, rb.fee, rb.chips) if kind == "rebuy"
                             else (rb.addon_price, rb.addon_fee, rb.addon_chips))
        key = (f"t_{kind}:{self.id}:{player_id}:{idem_key}" if idem_key is not None
               else f"t_{kind}:{self.id}:{player_id}:{e.rebuys}:{e.addons}")
        await self.gw.call(self.gw.store.tournaments.pay_in, player_id, self.id, price, fee, key, kind=kind,
                           once=idem_key is not None)
        self.pool_collected += price
        self._awards = None
        self.chips_issued += chips
        e.chips += chips
        if kind == "rebuy":
            e.rebuys += 1
        else:
            e.addons += 1
        assert e.table_id is not None and e.seat is not None
        await self.gw.call(self.gw.store.tournament_play.seat, self.id, [(player_id, e.table_id, e.seat, e.chips)])
        self._stacks_dirty = True
        if deciding:
            await self._decided(player_id, rebuy=True)
        return {"tournament": self.id, "chips": e.chips}

    def _wants_rebuy(self, e: Entrant, chips: int | None = None) -> bool:
        return (e.player_id in self.bots or e.auto_rebuy) and self.rebuy_open(e, chips)

    # ------------------------------------------------------------------ one hand recorded (the settler)
    async def record_hand(self, driver: HandDriver) -> None:
        """Decide everything the hand decided (stacks, eliminations, places, prizes, bounties; R-TOURN-GEN-5/6,
        R-WALLET-6, R-TOURN-KO/PKO/BOUNTY) and record it in ONE store call, ``tournament_play.hand_done``.

        Group commit: hands that end together at several tables are decided one after the other, in the order
        their tables settle, and then recorded together (:meth:`_commit_staged`: the gateway's group commit, one
        database transaction for up to ``max_batch`` hands, each in its own savepoint). Nothing a hand decided is
        acted on before its commit: its table stays in the hand, its players hear nothing and the next hand
        there is not dealt (:meth:`hand_settled` waits for the commit), so a crash loses only hands nobody was
        told the outcome of, and resume starts from the stacks after the last committed hand (R-SERVER-1).
        Hands are recorded one by one (as soon as decided) while money can still come in (re-buys, add-ons, late
        registration, a pool not yet final), when prizes could change between two decisions. Idempotent: a retry
        (the driver's, after a failed commit) sends the same checkpoint."""
        table = self._table_of(driver)
        key = (table.id, driver.hand_id)
        if key in self._committed:
            return
        if key not in self._outcomes:
            await self._money_reached(driver)
            self._outcomes[key] = self._decide(table, driver)
            self._staged[key] = self._checkpoint(table, driver, self._outcomes[key][0])
        if self._can_batch():
            if not self._flush_posted:
                self._flush_posted = True
                self.actor.post(self._flush)  # after the other tables' settlements already queued
            return
        await self._commit_staged()

    def _can_batch(self) -> bool:
        """Hands are decided ahead of their commit only when no decision can change the next one's prizes: the pool
        is final and no re-buy or add-on can come in."""
        if not self.batch_hands or not self.pool_final:
            return False
        rb = self.spec.rebuy
        return rb is None or self.level_index() > rb.period_levels

    def _checkpoint(self, table: TourneyTable, driver: HandDriver, outcome: Outcome) -> HandCheckpoint:
        hand = driver.hand
        result = hand.result
        assert result is not None
        start = {driver.players[s]: st for s, st in zip(hand.seats, hand.start_stacks, strict=True)}
        after = {driver.players[s]: st for s, st in result.stacks.items()}
        if sum(start.values()) != sum(after.values()):
            self.stats.chips_conserved = False
        elapsed = self.levels.elapsed(self.now) if self.levels is not None else 0.0
        phh, events = self.history(table, driver)
        return HandCheckpoint(
            table_id=table.id, hand_id=driver.hand_id, start_stacks=start, stacks=after, phh=phh, events=events,
            button=table.button, big_blind=table.big_blind, elapsed=elapsed, finishes=outcome.finishes,
            payments=outcome.payments, bounties=outcome.bounties)

    async def _commit_staged(self) -> None:
        """Record every staged hand, in decision order, through the gateway's group commit. A hand the store
        refused stays staged (its table waits; the next commit or the driver's retry sends it again) and the first
        refusal is raised."""
        if not self._staged:
            return
        items = list(self._staged.items())
        calls = [(self.gw.store.tournament_play.hand_done, (self.id, cp)) for _, cp in items]
        outcomes = await self.gw.call_all(calls)
        self.stats.hand_commits += -(-len(items) // self.gw.max_batch)
        failed: BaseException | None = None
        for (key, _cp), (ok, value) in zip(items, outcomes, strict=True):
            if ok:
                del self._staged[key]
                self._committed.add(key)
            elif failed is None:
                failed = value
            else:
                log.error("tournament %s: recording hand %s failed: %r", self.id, key, value)
        if failed is not None:
            raise failed

    async def _flush(self) -> None:
        """The group commit of the hands staged since the last one, then each of their tables carries on."""
        self._flush_posted = False
        try:
            await self._commit_staged()
        except Exception:
            log.exception("tournament %s: recording %d hands failed; retrying in %s s", self.id, len(self._staged),
                          SETTLE_RETRY_SECONDS)
            self.clock.call_later(SETTLE_RETRY_SECONDS, lambda: self.actor.post(self._flush))
        await self._carry_on()

    def history(self, table: TourneyTable, driver: HandDriver) -> tuple[str, list[dict[str, Any]]]:
        """The hand's history text and event records (empty without ``record_history``); a hand dealt on another
        host of a cluster brings its own."""
        if not self.record_history:
            return "", []
        hand = driver.hand
        return (hand_history_text(hand, table.id, driver.hand_id, driver.players),
                [event_record(e) for e in hand.events])

    async def _money_reached(self, driver: HandDriver) -> None:
        """Before the hand's eliminations are ranked: if they reach a paid place while late registration or
        re-buys still keep the pool open, the pool becomes final first, so that the guarantee's overlay is in it
        before the first prize is paid (R-TOURN-MTT-4, R-TOURN-GEN-5); no entry or re-buy comes in after that."""
        result = driver.hand.result
        if self.pool_final or result is None:
            return
        out = 0
        for s, st in result.stacks.items():
            e = self.entrants_by_id[driver.players[s]]
            # busted: judged with the stack after the hand (0), as _decide does; a player who busts from above the
            # re-buy limit may re-buy too, so they are not "out" yet (R-TOURN-REBUY-3)
            out += st == 0 and not (self._wants_rebuy(e, 0) or self._may_decide(e, 0))
        await self._money_at(out)

    async def _money_at(self, out: int) -> None:
        """``out`` players are about to be ranked: if that pays a place (or decides the winner) while the pool is
        still open, it becomes final first (:meth:`_money_reached`)."""
        if out and not self.pool_final and self.spec.flight is None and \
                self.alive - out < max(self.paid_places(), 2):
            await self._maybe_finalize_pool(money=True)

    def _table_of(self, driver: HandDriver) -> TourneyTable:
        host = driver.host
        assert isinstance(host, TourneyTable)
        return host

    def _decide(self, table: TourneyTable, driver: HandDriver) -> tuple[Outcome, list[int], list[int], bool]:
        """(outcome, players out now, players who re-buy, whether they were ranked now: not while hand-for-hand,
        where they are ranked with the whole round) of a finished hand."""
        result = driver.hand.result
        assert result is not None
        hand = driver.hand
        pots = [(p.eligible, p.winners) for p in result.pots]
        start = dict(zip(hand.seats, hand.start_stacks, strict=True))
        out = Outcome()
        busted = [s for s, st in result.stacks.items() if st == 0]
        rebuyers: list[int] = []
        gone: list[Bust] = []
        for seat in busted:
            e = self.entrants_by_id[driver.players[seat]]  # its chips stay as before the hand until it is carried on
            if self._wants_rebuy(e, 0) or self._may_decide(e, 0):
                rebuyers.append(e.player_id)
                continue
            killers = [driver.players[w] for w in eliminators(seat, pots)]
            awards.knockout(self.spec, e.player_id, out.bounties.get(e.player_id, e.bounty), killers,
                            {k: self.entrants_by_id[k].bounty for k in killers}, out)
            if awards.named_bounty(e.player_id, self.named_left, killers, out):
                self.named_left.pop(e.player_id, None)
            gone.append(Bust(e.player_id, start[seat], e.entry_no))
        ranked = not self._h4h_round
        if ranked:
            self._rank(gone, out)
        else:
            self._round_busts.extend((b, table.id) for b in gone)
        return out, [b.player_id for b in gone], rebuyers, ranked

    def _rank(self, gone: list[Bust], out: Outcome) -> None:
        if not gone:
            return
        prizes = self.place_awards()
        # players ranked by a hand decided before this one (another table, same group commit) count as out
        alive = self.alive - len(self._out_pending)
        paid = self.paid_places()
        if alive > paid >= alive - len(gone) and len(self.tables) > 1 and not self._h4h_round:
            self.stats.bubble_outside_hand_for_hand += 1
        awards.rank_and_pay(self.spec, gone, alive, prizes, out)
        self._out_pending.update(b.player_id for b in gone)
        if alive - len(gone) == 1 and self.spec.flight is None:  # the last of a flight goes to Day 2, not wins
            waiting = {b.player_id for b, _ in self._round_busts}
            last = next(pid for pid in self.entrants_by_id if pid not in self._out_pending and pid not in waiting)
            e = self.entrants_by_id[last]
            awards.winner(self.spec, last, prizes, out.bounties.get(last, e.bounty) if self.spec.knockout else 0,
                          sum(self.named_left.values()), out)
            self.named_left.clear()
            self._out_pending.add(last)

    # ------------------------------------------------------------------ after the hand
    async def hand_settled(self, table: TourneyTable, driver: HandDriver) -> None:
        """The table's hand is over and settled: it carries on once recorded, in the order the tables settled."""
        self._settling.append((table, driver))
        await self._carry_on()

    async def _carry_on(self) -> None:
        while self._settling:
            table, driver = self._settling[0]
            key = (table.id, driver.hand_id)
            if key not in self._committed:
                return
            self._settling.popleft()
            self._committed.discard(key)
            await self._after_hand(table, driver)

    async def _after_hand(self, table: TourneyTable, driver: HandDriver) -> None:
        table.hand_over()
        self._in_hand -= 1
        self.stats.hands += 1
        self.balancer.set_idle(table.id, True)
        outcome, gone, rebuyers, ranked = self._outcomes.pop((table.id, driver.hand_id))
        result = driver.hand.result
        assert result is not None
        for s, st in result.stacks.items():
            self.entrants_by_id[driver.players[s]].chips = st
        for pid, b in outcome.bounties.items():
            if pid in self.entrants_by_id:
                self.entrants_by_id[pid].bounty = b
        self._stacks_dirty = True
        for pid in rebuyers:
            if self._wants_rebuy(self.entrants_by_id[pid]):
                await self._bust_rebuy(pid)
            else:
                self._offer_rebuy(pid)
        for pid in [p for p in driver.players.values() if p in self.disqualified and p in self.entrants_by_id]:
            await self.disqualify_now(pid, self.disqualified[pid])
        await self._bot_addons(table)
        if self.levels is not None:
            self.levels.hand_finished(self.now, len(self.tables))
        if self.on_hand is not None:
            self.on_hand(self, table, driver)
        self._count(outcome)
        self._announce_bounties(table, driver.hand_id, outcome)
        if ranked:
            self._finish_players(outcome, gone)
        else:
            self._mark_round(gone)
        if self.status in PLAYING and not self._in_hand and self._round_busts:
            await self._close_round()
        await self._after_field_change(table)

    def _announce_bounties(self, table: TourneyTable, hand_id: str, outcome: Outcome) -> None:
        """Every bounty the hand paid, to everyone at its table (and the players it knocked out): the hand log
        shows who won which bounty and what is on their head now (R-TOURN-KO-1, R-TOURN-PKO-1/3,
        R-TOURN-BOUNTY-1)."""
        if not outcome.won or not self.notify_players:
            return
        audience = {e.player_id for e in table.seats.values()} | {w.busted for w in outcome.won}
        for w in outcome.won:
            e = self.entrants_by_id.get(w.player)
            data: frames.TournamentBountyData = {
                "table": table.id, "hand_id": hand_id, "player": w.player, "alias": self.aliases.get(w.player),
                "busted": w.busted, "busted_alias": self.aliases.get(w.busted), "cash": w.cash, "added": w.added,
                "bounty": e.bounty if e is not None else 0, "named": w.named,
                "rule": "R-TOURN-BOUNTY-1" if w.named else "R-TOURN-PKO-3" if w.added else "R-TOURN-KO-1"}
            for pid in sorted(audience):
                if pid not in self.bots:
                    self.notify(pid, "bounty", data)

    async def _bot_addons(self, table: TourneyTable) -> None:
        """In-process bots take the add-on when it is offered (R-TOURN-REBUY-3)."""
        if self.spec.rebuy is None or not self.spec.rebuy.addon_price:
            return
        for e in list(table.seats.values()):
            if e.player_id in self.bots and e.chips > 0 and self.addon_open(e):
                await self._pay_in(e.player_id, "addon")

    async def disqualify_now(self, player_id: int, operator_id: int) -> None:
        """R-INTEG-5 / R-WALLET-8: the player is out of the tournament with no place; their chips leave play and
        their buy-ins and fees stay forfeited in the pool and with the house."""
        e = self.entrants_by_id.pop(player_id)
        self.disqualified.pop(player_id, None)
        await self.gw.call(self.gw.store.tournaments.disqualify, operator_id, self.id, player_id)
        table = self.tables.get(e.table_id or "")
        if table is not None:
            table.remove(e)
            self.balancer.change(table.id, -1)
        self.chips_issued -= e.chips
        self.alive -= 1
        self.notify(player_id, "disqualified", {"rule": "R-INTEG-5"})

    async def _bust_rebuy(self, pid: int) -> None:
        try:
            await self._pay_in(pid, "rebuy")
        except RoomError:
            await self._out_without_rebuy(pid)

    async def _out_without_rebuy(self, pid: int) -> None:
        """A busted player who did not re-buy is out now: ranked at this moment (R-TOURN-GEN-6) and paid."""
        e = self.entrants_by_id[pid]
        await self._money_at(1)
        out = Outcome()
        self._rank([Bust(pid, 0, e.entry_no)], out)
        await self.gw.call(self.gw.store.tournament_play.finish_unplayed, self.id, out.finishes, out.payments,
                           f"rebuy-out:{pid}:{e.rebuys}")
        self._count(out)
        self._finish_players(out, [pid])

    # ------------------------------------------------------------------ the re-buy decision (R-TOURN-REBUY-3)
    def _may_decide(self, e: Entrant, chips: int | None = None) -> bool:
        """A busted human during the re-buy period gets ``decision_seconds`` to re-buy before being ranked."""
        rb = self.spec.rebuy
        return rb is not None and rb.decision_seconds > 0 and self.rebuy_open(e, chips)

    def _offer_rebuy(self, pid: int) -> None:
        """Tell the busted player they may re-buy (``rebuy_offer``); they keep their seat with no chips (not dealt
        in) and are ranked only when they decline or the time runs out."""
        rb = self.spec.rebuy
        assert rb is not None
        self._offers[pid] = self.clock.call_later(
            rb.decision_seconds, lambda: self.actor.post(lambda: self._decided(pid, rebuy=False)))
        self.notify(pid, "rebuy_offer", {"seconds": rb.decision_seconds, "price": rb.price, "fee": rb.fee,
                                         "chips": rb.chips, "currency": self.spec.currency,
                                         "rule": "R-TOURN-REBUY-3"})
        e = self.entrants_by_id[pid]
        table = self.tables.get(e.table_id or "")
        if table is not None:
            self.send_table_state(table, pid)

    async def decline_rebuy(self, player_id: int) -> dict[str, object]:
        """The busted player declines to re-buy: their place is fixed now."""
        async def run() -> dict[str, object]:
            if player_id not in self._offers:
                raise RoomError("rebuy_closed", "you have no re-buy to decide (R-TOURN-REBUY-3)")
            await self._decided(player_id, rebuy=False)
            return {"tournament": self.id, "declined": True}

        return await self.actor.submit(run)

    async def _decided(self, pid: int, *, rebuy: bool) -> None:
        timer = self._offers.pop(pid, None)
        if timer is None or pid not in self.entrants_by_id:
            return
        timer.cancel()
        e = self.entrants_by_id[pid]
        table = self.tables.get(e.table_id or "")
        if rebuy or self.status not in PLAYING:
            if table is not None:
                self._ready(table)
                await self._pump()
            return
        await self._out_without_rebuy(pid)
        if self.status in PLAYING and not self._in_hand and self._round_busts:
            await self._close_round()
        if table is not None:
            await self._after_field_change(table)

    def _mark_round(self, gone: list[int]) -> None:
        for pid in gone:  # out, ranked with the whole hand-for-hand round (R-TOURN-GEN-6)
            e = self.entrants_by_id[pid]
            e.busted_round = True
            table = self.tables.get(e.table_id or "")
            if table is not None:
                table.remove(e)
                self.balancer.change(table.id, -1)

    async def _close_round(self) -> None:
        busts = [b for b, _ in self._round_busts]
        out = Outcome()
        self._round_busts = []
        self._rank(busts, out)
        await self.gw.call(self.gw.store.tournament_play.finish_unplayed, self.id, out.finishes, out.payments,
                           f"h4h:{self._h4h_round}")
        self._count(out)
        self._finish_players(out, [b.player_id for b in busts])

    def _count(self, out: Outcome) -> None:
        self.paid_total += sum(p.amount for p in out.payments)
        self.prize_paid += sum(p.amount for p in out.payments if p.kind != "bounty")
        self.payments_made += len(out.payments)
        for w in out.won:
            self.bounties_won[w.player] = self.bounties_won.get(w.player, 0) + w.cash
        finishing = {f.player_id for f in out.finishes}
        for pid, amount in out.prizes.items():  # a named bounty won before the player's own finish
            if pid not in finishing:
                self._early[pid] = self._early.get(pid, 0) + amount

    def _finish_players(self, out: Outcome, gone: list[int]) -> None:
        """Players ranked by :meth:`_rank` leave their tables and hear their place and prize."""
        self._stacks_dirty = True
        for f in out.finishes:
            prize = out.prizes.get(f.player_id, 0) + self._early.pop(f.player_id, 0)
            self.results[f.player_id] = Result(f.player_id, f.place, f.place_to, prize,
                                               self.bounties_won.get(f.player_id, 0))
        self.stats.naive_scan += len(gone) * len(self.tables)
        for pid in gone:
            self._leave(pid)
            self.notify(pid, "finished", self._finished_data(self.results[pid]))
        for f in out.finishes:
            if f.won:
                e = self._leave(f.player_id, balance=False)
                self.notify(f.player_id, "finished", self._finished_data(self.results[f.player_id]))
                if e.chips != self.chips_issued:
                    self.stats.chips_conserved = False

    def _finished_data(self, r: Result) -> frames.TournamentFinishedData:
        """The player's place and prize; in a tournament with bounties also the bounties they won (R-TOURN-KO-1)."""
        data: frames.TournamentFinishedData = {"place": r.place, "place_to": r.place_to, "prize": r.prize}
        if self.spec.knockout is not None or self.spec.named_bounties:
            data["bounties"] = r.bounties
        return data

    def _leave(self, pid: int, *, balance: bool = True) -> Entrant:
        e = self.entrants_by_id.pop(pid)
        self._out_pending.discard(pid)
        self.alive -= 1
        table = self.tables.get(e.table_id or "")
        if table is not None:
            table.remove(e)
            if balance:
                self.balancer.change(table.id, -1)
        return e

    async def _after_field_change(self, table: TourneyTable) -> None:
        if self.status not in PLAYING:
            return
        if self.alive <= 1 and not self._round_busts and not self._settling and not self._staged:
            await (self._end_flight() if self.spec.flight is not None else self._finished())
            return
        if self._flight_over:
            if not self._in_hand:
                await self._end_flight()
            return
        self._update_hand_for_hand()
        self._ready(table)
        if not self._in_hand or not self._h4h_round:
            await self._rebalance()
        t = self.lifecycle.on_field(self.alive, len(self.tables))
        if t is not None and t.to is Status.FINAL_TABLE:
            self.lifecycle.apply(t, self.now)
            self.notify_all("final_table", {"players": self.alive})
        await self._pump()

    def _ready(self, table: TourneyTable) -> None:
        """The table deals again after the pause between hands (in hand-for-hand play, with every table after the
        round's pause, ``_arm_h4h_pause``). Tables ready at the
        same instant share one timer and are dealt together (their hands then end, and are recorded, together)."""
        if len(table.seats) < 2:
            return
        delay = self.settings.between_hands_seconds
        if delay <= 0 or self._h4h_round:
            self._waiting.add(table.id)
            return
        when = self.clock.now() + delay
        group = self._ready_at.get(when)
        if group is not None:
            group.append(table.id)
            return
        self._ready_at[when] = [table.id]

        async def ready() -> None:
            for tid in self._ready_at.pop(when, ()):
                t = self.tables.get(tid)
                if t is not None and len(t.seats) >= 2 and not t.in_hand:
                    self._waiting.add(tid)
            await self._pump()

        self.clock.call_later(delay, lambda: self.actor.post(ready))

    def _update_hand_for_hand(self) -> None:
        """Hand-for-hand on the money bubble, with more than one table: from the moment one bust per table could
        burst it (``paid < alive <= paid + tables``) until it has burst. Starting only at ``paid + 1`` let the
        bubble burst outside hand-for-hand whenever two tables busted players in hands dealt apart (most seeds at
        400 and 1,000 entrants), and never started when two busts went from ``paid + 2`` to ``paid``."""
        paid = self.paid_places()
        bubble = len(self.tables) > 1 and paid < self.alive <= paid + len(self.tables) and self.pool_final
        if bubble and not self._h4h_round:
            self._h4h_round = 1
            self._h4h_pause_over = False
            self.notify_all("hand_for_hand", {"on": True})
        elif not bubble and self._h4h_round and not self._in_hand and not self._round_busts:
            self._h4h_round = 0
            self.notify_all("hand_for_hand", {"on": False})

    async def _finished(self) -> None:
        self.lifecycle.apply(Transition(Status.FINISHED, "one player left (R-TOURN-GEN-6)"), self.now)
        await self.gw.call(self.gw.store.tournaments.close, self.id, f"t_close:{self.id}")
        await self.variant.on_finished(self)
        self.done.set()

    # ------------------------------------------------------------------ balancing (R-TOURN-BAL-1..7)
    async def _rebalance(self) -> None:
        steps = self.balancer.rebalance()
        if not steps:
            return
        moves: list[tuple[int, str, int, int]] = []
        closed: list[str] = []
        for step in steps:
            if isinstance(step, Move):
                src = self.tables[step.source]
                players = list(src.seats.values())
                e = players[self._choice.randrange(len(players))]  # R-TOURN-BAL-4: a random player
                moves.append(self._move(e, src, self.tables[step.target]))
            elif isinstance(step, Break):
                src = self.tables.pop(step.table)
                self._waiting.discard(src.id)
                closed.append(src.id)
                for e, target in zip(list(src.seats.values()), step.targets, strict=True):
                    moves.append(self._move(e, src, self.tables[target]))
        await self.gw.call(self.gw.store.tournament_play.seat, self.id, moves, close_tables=closed)

    def _move(self, e: Entrant, src: TourneyTable, dst: TourneyTable) -> tuple[int, str, int, int]:
        """Seat ``e`` at ``dst`` in the seat furthest from its big blind (R-TOURN-BAL-6) and tell them
        (R-TOURN-BAL-3). Counts were already moved by the balancer."""
        src.remove(e)
        seat = seat_far_from_big_blind(dst.free_seats(), dst.seats, dst.big_blind, dst.max_seats, self._choice)
        dst.add(e, seat)
        if len(dst.seats) >= 2 and not dst.in_hand:
            self._waiting.add(dst.id)
        if len(src.seats) < 2:
            self._waiting.discard(src.id)
        self.notify(e.player_id, "moved", {"table": dst.id, "seat": seat, "rule": "R-TOURN-BAL-3",
                                           "from_table": src.id, "broken": src.id not in self.tables})
        if e.player_id not in self.bots:
            self.send_table_state(dst, e.player_id)  # the client follows the player to the new table
        return (e.player_id, dst.id, seat, e.chips)

    async def _late_seat(self, player_id: int) -> None:
        """R-TOURN-REG-1: a late entrant sits at a smallest table (a new one when every table is full)."""
        self.entries += 1
        self.alive += 1
        self.chips_issued += self.spec.starting_stack
        e = Entrant(player_id, self.entries, self.spec.starting_stack, self.settings.timebank_seconds,
                    bounty=self.spec.knockout.bounty if self.spec.knockout else 0)
        e.sitting_out = player_id not in self.bots and not self.host.is_connected(player_id)
        self.entrants_by_id[player_id] = e
        self._awards = None
        tid = self.balancer.pick_smallest()
        opened: list[str] = []
        if tid is None or self.balancer.count(tid) >= self.spec.seats:
            table = self._new_table()
            self.balancer.add_table(table.id, 0)
            opened.append(table.id)
        else:
            table = self.tables[tid]
        seat = seat_far_from_big_blind(table.free_seats(), table.seats, table.big_blind, table.max_seats,
                                       self._choice)
        table.add(e, seat)
        self.balancer.change(table.id, +1)
        await self.learn_aliases([player_id])
        await self.gw.call(self.gw.store.tournament_play.seat, self.id,
                           [(player_id, table.id, seat, e.chips)], open_tables=opened)
        self.notify(player_id, "registered", {"table": table.id, "seat": seat, "late": True})
        if len(table.seats) >= 2 and not table.in_hand:
            self._waiting.add(table.id)
            await self._pump()

    # ------------------------------------------------------------------ reading
    def places(self) -> list[int]:
        """Player of place 1, 2, ... (tied players in their registration order)."""
        order = sorted(self.results.values(), key=lambda r: (r.place, self._entry_no(r.player_id)))
        return [r.player_id for r in order]

    def _entry_no(self, pid: int) -> int:
        return pid

    def check_seating(self) -> None:
        """Nobody seated twice, nobody lost: every player still in sits at exactly one table (tests)."""
        seen: dict[int, str] = {}
        for table in self.tables.values():
            for seat, e in table.seats.items():
                assert e.player_id not in seen, f"player {e.player_id} seated twice"
                assert e.table_id == table.id and e.seat == seat
                seen[e.player_id] = table.id
        waiting = {pid for pid, e in self.entrants_by_id.items() if e.busted_round}
        assert set(seen) | waiting == set(self.entrants_by_id), "a player is lost"

    def total_chips(self) -> int:
        """Chips in play now (between hands: every stack; tests)."""
        return sum(e.chips for e in self.entrants_by_id.values())

    async def close(self) -> None:
        """Stop the tournament's actor (a server stop: the hands in progress are voided, R-SERVER-1)."""
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.close()
        for t in (self._timer, self._break_timer, *self._offers.values()):
            if t is not None:
                t.cancel()
        self._offers.clear()
        await self.actor.stop()

