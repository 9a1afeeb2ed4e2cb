"""A cash table: the single-writer actor that seats players, moves the button, takes buy-ins and top-ups and deals
hands, each played out by a :class:`~riverboat.room.hand_driver.HandDriver`.

Everything that changes a table runs inside its :class:`~riverboat.room.actor.Actor`. Rules handled here:
R-CASH-2/3 (seats, leaving), R-BUYIN (buy-in, top-up between hands), R-TABLE-3 / R-BLIND / R-NEWPLAYER / R-MISSED
(through :mod:`riverboat.room.deal` and :mod:`riverboat.room.blinds`), R-DISC-3 / R-SITOUT (a disconnected player
is sat out; sit-out, 7-minute eviction), R-HORSE-3 / R-8GAME-3 (mixed rotation) and R-SERVER (the hand is recorded
before the deal and settled in one transaction after it, :class:`~riverboat.room.settle.LedgerSettler`). The hand
itself -- timers, time bank, fallback actions (R-TIME, R-DISC-1, R-AAI, R-AUTODRAW), rake (R-RAKE) -- is the
driver's.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Iterable
from typing import Any, Protocol

from riverboat.cards import RandomSource
from riverboat.engine import Hand
from riverboat.engine.views import HandOverEvent
from riverboat.games import Game, Kind, Rotation, Structure, get_game
from riverboat.room import frames
from riverboat.room.actor import Actor
from riverboat.room.blinds import BlindPlan, SeatStatus, clockwise_after, missed_blinds, on_arc
from riverboat.room.clock import Clock
from riverboat.room.deal import DealPlan, engine_settings, hand_config, plan_deal, stakes_for, table_game
from riverboat.room.disconnect import AaiAllowance
from riverboat.room.errors import RoomError
from riverboat.room.frames import (
    AliasChangedEvent,
    CashLobbyEntry,
    Event,
    EvictedEvent,
    HandStartedEvent,
    LeavingEvent,
    LeftEvent,
    RoomFrame,
    SatInEvent,
    SatOutEvent,
    SeatedEvent,
    SeatOfferedEvent,
    TableHeader,
    TableView,
    ToppedUpEvent,
    TopUpFailedEvent,
)
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver, HandRules
from riverboat.room.move import Move
from riverboat.room.rake import get_schedule, rake_rule
from riverboat.room.replies import (
    ACTED,
    Acted,
    Left,
    NotWaiting,
    Options,
    OptionsSet,
    SatIn,
    Seated,
    ToppedUp,
    Waiting,
    Watching,
)
from riverboat.room.seating import SeatState, check_buy_in, check_seat
from riverboat.room.settings import TableSettings, TableSpec
from riverboat.room.settle import LedgerSettler
from riverboat.room.timers import DecisionTimer

__all__ = ["Table", "TableHost", "stakes_for"]


class TableHost(Protocol):
    """What a table (or pool) needs from its room."""

    clock: Clock
    rng: RandomSource
    gateway: StoreGateway
    aai: AaiAllowance

    def is_connected(self, player_id: int) -> bool: ...

    def send(self, player_id: int, message: RoomFrame) -> None: ...

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None: ...

    def seated(self, player_id: int, table_id: str) -> None: ...

    async def alias_of(self, player_id: int) -> str | None: ...

    def unseated(self, player_id: int, table_id: str) -> None: ...


class Table:
    """One cash table. Public coroutines are commands; each runs inside the table's actor."""

    def __init__(self, host: TableHost, table_id: str, spec: TableSpec, settings: TableSettings) -> None:
        self.host = host
        self.id = table_id
        self.spec = spec
        self.settings = settings
        self.actor = Actor(f"table {table_id}")
        self.rotation: Rotation | None = (
            Rotation.named(spec.mixed, mode=settings.rotation_mode, hands_per_game=settings.hands_per_game)
            if spec.mixed
            else None
        )
        self.rake_schedule = get_schedule("none" if spec.play_money else spec.rake)
        self.address = frames.TableAddress(table_id)
        self.settler = LedgerSettler(host.gateway, table_id, spec.currency,
                                     rake_rule(self.rake_schedule, play_money=spec.play_money))
        self.seats: dict[int, SeatState] = {}
        self.watchers: set[int] = set()
        self.waiting: list[int] = []  # the waiting list, first come first offered
        self.driver: HandDriver | None = None
        self.hand_no = 0
        self.button: int | None = None
        self.prev_plan: BlindPlan | None = None
        self.orbit_start: int | None = None
        self._deal_timer: Any = None
        self._deal_pending = False
        self.stats: deque[tuple[int, int, int]] = deque(maxlen=50)  # (pot, players dealt, players who saw a flop)
        self.hand_times: deque[float] = deque(maxlen=2000)  # when each hand was settled (lobby: hands per hour)
        self.opened_at = host.clock.now()
        self.closed = False

    # ------------------------------------------------------------------ the hand in progress
    @property
    def hand(self) -> Hand | None:
        return self.driver.hand if self.driver is not None else None

    @property
    def hand_id(self) -> str | None:
        return self.driver.hand_id if self.driver is not None else None

    @property
    def hand_players(self) -> dict[int, int]:
        """seat -> player id of the hand in progress."""
        return self.driver.players if self.driver is not None else {}

    @property
    def decision(self) -> DecisionTimer | None:
        return self.driver.decision if self.driver is not None else None

    # ------------------------------------------------------------------ helpers
    @property
    def clock(self) -> Clock:
        return self.host.clock

    @property
    def now(self) -> float:
        return self.host.clock.now()

    def game_now(self) -> tuple[Game, Structure]:
        if self.rotation is not None:
            return self.rotation.current()
        return get_game(self.spec.game), Structure(self.spec.structure)

    def seat_of(self, player_id: int) -> SeatState | None:
        for st in self.seats.values():
            if st.player_id == player_id:
                return st
        return None

    def _need_seat(self, player_id: int) -> SeatState:
        st = self.seat_of(player_id)
        if st is None:
            raise RoomError("not_seated", "you are not seated at this table")
        return st

    def in_hand(self, st: SeatState) -> bool:
        """Dealt into the hand in progress (even if folded: the store settles them with the hand)."""
        return self.driver is not None and self.driver.players.get(st.seat) == st.player_id

    def _idem(self, what: str, player_id: int) -> str:
        return f"{what}:{self.id}:{player_id}:{secrets.token_hex(8)}"

    # ------------------------------------------------------------------ HandHost (for the driver)
    def is_connected(self, player_id: int) -> bool:
        return self.host.is_connected(player_id)

    def send(self, player_id: int, message: RoomFrame) -> None:
        self.host.send(player_id, message)

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None:
        self.host.send_many(player_ids, message)

    def participant(self, player_id: int) -> SeatState | None:
        st = self.seat_of(player_id)
        return None if st is None or st.leaving else st

    def audience(self, driver: HandDriver) -> Iterable[tuple[int, int | None]]:
        players = driver.players
        out: list[tuple[int, int | None]] = []
        for st in self.seats.values():
            out.append((st.player_id, st.seat if players.get(st.seat) == st.player_id else None))
        out.extend((pid, None) for pid in self.watchers)
        return out

    def on_turn(self, driver: HandDriver, seat: int, player_id: int) -> None:
        self.send_state(player_id)

    # ------------------------------------------------------------------ publishing
    def recipients(self) -> set[int]:
        return {st.player_id for st in self.seats.values()} | self.watchers

    def view_for(self, player_id: int | None) -> TableView:
        st = self.seat_of(player_id) if player_id is not None else None
        driver = self.driver
        hand_view = None
        if driver is not None:
            driver.relay_pending()  # events the view includes go out (numbered) before it: applied exactly once
            in_hand = st is not None and driver.players.get(st.seat) == player_id
            hand_view = driver.view(st.seat if st is not None and in_hand else None)
        game, structure = self.game_now()
        connected = self.host.is_connected
        return {
            "table": self.info_header(),
            "game": game.id,
            "structure": structure.value,
            "seats": [self.seats[s].public(connected(self.seats[s].player_id)) for s in sorted(self.seats)],
            "button": self.button,
            "hand_id": self.hand_id,
            "hand": hand_view,
            "timer": self.decision.to_dict(self.now) if self.decision is not None else None,
            "you": st.private() if st is not None else None,
            "seq": self.address.counter.last,
        }

    def info_header(self) -> TableHeader:
        spec = self.spec
        return {
            "id": self.id,
            "name": spec.name,
            "game": spec.game,
            "structure": spec.structure,
            "mixed": spec.mixed,
            "small_blind": spec.small_blind,
            "big_blind": spec.big_blind,
            "ante": spec.ante,
            "small_bet": spec.small_bet or spec.big_blind,
            "big_bet": spec.big_bet or 2 * (spec.small_bet or spec.big_blind),
            "max_seats": spec.max_seats,
            "min_buy_in": spec.min_buy_in,
            "max_buy_in": spec.max_buy_in,
            "currency": spec.currency,
            "rake": self.rake_schedule.name,
        }

    def send_state(self, player_id: int) -> None:
        self.host.send(player_id, frames.table_state(self.id, self.view_for(player_id)))

    def broadcast_state(self) -> None:
        for pid in self.recipients():
            self.send_state(pid)

    def table_event(self, event: Event) -> None:
        self.host.send_many(list(self.recipients()), self.address.event(event))

    async def alias_changed(self, player_id: int, alias: str | None) -> dict[str, Any]:
        """R-ALIAS-2: the seated player's new alias, shown at once (event + fresh views; run inside the actor)."""
        st = self.seat_of(player_id)
        if st is None or st.alias == alias:
            return {}
        st.alias = alias
        self.table_event(AliasChangedEvent(kind="alias_changed", seat=st.seat, player=player_id, alias=alias))
        self.broadcast_state()
        return {}

    # ------------------------------------------------------------------ commands (run inside the actor)
    async def sit(self, player_id: int, seat: object, buy_in: object, wait_for_bb: bool = True, *,
                  idem_key: str | None = None) -> Seated:
        if self.seat_of(player_id) is not None:
            raise RoomError("already_seated", "you already have a seat at this table")
        seat_no = check_seat(seat, self.spec.max_seats, self.seats)
        amount = check_buy_in(buy_in, self.spec.min_buy_in, self.spec.max_buy_in)
        await self.host.gateway.call(
            self.host.gateway.ledger.buy_in, player_id, self.id, amount, idem_key or self._idem("buy_in", player_id),
            currency=self.spec.currency, min_buy_in=self.spec.min_buy_in, max_buy_in=self.spec.max_buy_in,
            once=idem_key is not None, seat=seat_no,
        )
        st = SeatState(seat_no, player_id, amount, timebank=self.settings.timebank_seconds)
        st.alias = await self.host.alias_of(player_id)
        st.owes_bb = True  # R-NEWPLAYER-1; a starting table deals everyone in free (blinds.plan_blinds)
        if player_id in self.waiting:
            self.waiting.remove(player_id)
        st.post_now = not wait_for_bb
        self.seats[seat_no] = st
        self.host.seated(player_id, self.id)
        self.table_event(SeatedEvent(kind="seated", seat=seat_no, player=player_id, alias=st.alias, stack=amount))
        self.broadcast_state()
        self._maybe_deal(soon=True)
        return Seated(table=self.id, seat=seat_no, stack=amount)

    def reopen(self, seats: list[tuple[int, int, int, str | None]], hands_played: int, button: int | None) -> None:
        """Reopen a table whose chips are already on it, with no buy-in: a table taken over by another cluster
        host (docs/cluster.md). ``seats``: ``(player_id, seat, stack, alias)`` as after the last settled hand
        (R-SERVER-1: the hand in progress was voided, every stack is its pre-hand value); ``hands_played`` goes
        on rising, the button goes on from where it was. Nobody owes a blind; dealing resumes at once."""
        for player_id, seat, stack, alias in seats:
            if seat in self.seats or self.seat_of(player_id) is not None or not 0 <= seat < self.spec.max_seats:
                raise RoomError("bad_seat", f"cannot restore player {player_id} to seat {seat} of table {self.id}")
            st = SeatState(seat, player_id, stack, timebank=self.settings.timebank_seconds)
            st.alias = alias
            self.seats[seat] = st
            self.host.seated(player_id, self.id)
        self.hand_no = hands_played
        self.button = button
        self._maybe_deal(soon=True)

    async def act(self, player_id: int, move: Move) -> Acted:
        st = self._need_seat(player_id)
        if self.driver is None or not self.in_hand(st):
            raise RoomError("not_your_turn", "you are not in a hand at this table")
        self.driver.act(st.seat, move)
        return ACTED

    async def sit_out(self, player_id: int, *, reason: str = "player") -> None:
        """R-SITOUT: no blinds from the next hand on; evicted after ``sitout_evict_seconds`` (R-SITOUT-3)."""
        st = self._need_seat(player_id)
        if not st.sitting_out:
            st.sitting_out = True
            st.sitout_since = self.now
            st.post_now = False
            self._arm_eviction(st)
            self.table_event(SatOutEvent(kind="sat_out", seat=st.seat, player=player_id, alias=st.alias,
                                         reason=reason))
            self.broadcast_state()

    async def sit_in(self, player_id: int, post: bool = False) -> SatIn:
        """Back from sit-out (or stop waiting for the big blind): post now (R-NEWPLAYER-1, R-MISSED) or wait."""
        st = self._need_seat(player_id)
        if st.stack <= 0 and st.pending_top_up <= 0:
            raise RoomError("bad_amount", "you have no chips on this table; top up first")
        st.sitting_out = False
        st.sitout_since = None
        st.post_now = bool(post)
        if st.evict_timer is not None:
            st.evict_timer.cancel()
            st.evict_timer = None
        self.table_event(SatInEvent(kind="sat_in", seat=st.seat, player=player_id, alias=st.alias,
                                    post=st.post_now))
        self.broadcast_state()
        self._maybe_deal(soon=True)
        return SatIn(table=self.id, owes_bb=st.owes_bb, missed_sb=st.missed_sb)

    async def leave(self, player_id: int) -> Left:
        """R-CASH-3: leave at any time; the stack goes back to the balance (after the hand if dealt in)."""
        st = self._need_seat(player_id)
        if self.driver is not None and self.in_hand(st):
            st.leaving = True
            self.driver.abandon(st.seat)
            self.table_event(LeavingEvent(kind="leaving", seat=st.seat, player=player_id, alias=st.alias))
            return Left(table=self.id, pending=True, cashed_out=None)
        amount = await self._cash_out(st)
        return Left(table=self.id, pending=False, cashed_out=amount)

    async def top_up(self, player_id: int, value: int, *, idem_key: str | None = None) -> ToppedUp:
        """R-BUYIN-1: chips are added between hands only (table stakes); during a hand the top-up waits (then it
        joins the other waiting top-ups in one ledger call with a key of its own: ``idem_key`` is for the ledger
        call made now). ``value``: a positive integer, as the ``top_up`` frame's validation left it."""
        st = self._need_seat(player_id)
        mx = self.spec.max_buy_in
        if mx is not None and st.stack + st.pending_top_up + value > mx:
            raise RoomError(
                "buy_in_range",
                f"top-up to {st.stack + st.pending_top_up + value} would exceed the table maximum of {mx} (R-BUYIN-2)",
            )
        balance = await self.host.gateway.call(self.host.gateway.ledger.balance, player_id, self.spec.currency)
        if balance < st.pending_top_up + value:
            raise RoomError("insufficient_funds", f"your balance of {balance} does not cover a top-up of {value}")
        if self.in_hand(st):
            st.pending_top_up += value
            return ToppedUp(table=self.id, pending=True, stack=st.stack)
        await self._do_top_up(st, value, idem_key)
        self._maybe_deal(soon=True)
        return ToppedUp(table=self.id, pending=False, stack=st.stack)

    async def _do_top_up(self, st: SeatState, value: int, idem_key: str | None = None) -> None:
        await self.host.gateway.call(
            self.host.gateway.ledger.top_up, st.player_id, self.id, value,
            idem_key or self._idem("top_up", st.player_id),
            currency=self.spec.currency, max_buy_in=self.spec.max_buy_in, once=idem_key is not None,
        )
        st.stack += value
        self.table_event(ToppedUpEvent(kind="topped_up", seat=st.seat, player=st.player_id, alias=st.alias,
                                       stack=st.stack))
        self.broadcast_state()

    async def disconnected(self, player_id: int) -> None:
        """R-DISC-3: a cash player who loses the connection is sat out (the current hand goes on, on timers)."""
        st = self.seat_of(player_id)
        if st is None:
            self.watchers.discard(player_id)
            return
        if self.driver is not None:
            self.driver.player_disconnected(player_id)
        if not st.sitting_out:
            await self.sit_out(player_id, reason="disconnected")
            st.disconnected_at = self.now

    async def reconnected(self, player_id: int) -> None:
        """Back within the reconnect window (R-TIME-5; a page reload): a player sat out only by the lost connection
        sits in again by themselves, exactly as before (docs/rules-differences.md)."""
        st = self.seat_of(player_id)
        if st is not None and st.disconnected_at is not None:
            back_in_time = self.now - st.disconnected_at <= self.settings.reconnect_seconds
            st.disconnected_at = None
            if back_in_time and st.sitting_out and (st.stack > 0 or st.pending_top_up > 0):
                await self.sit_in(player_id, post=st.post_now)
        if st is not None and self.driver is not None:
            self.driver.player_reconnected(player_id)
        if st is not None or player_id in self.watchers:
            self.send_state(player_id)

    async def waitlist(self, player_id: int) -> Waiting:
        """Put the player on the waiting list (a full table); they are told when a seat is free."""
        if self.seat_of(player_id) is not None:
            raise RoomError("already_seated", "you already have a seat at this table")
        gw = self.host.gateway
        await gw.call(gw.store.protections.require_may_play, player_id)  # issue #30: no new play under a block
        if player_id not in self.waiting:
            self.waiting.append(player_id)
        await self._offer_seats()
        if player_id not in self.waiting:  # blocked meanwhile (the offer looked again)
            raise RoomError("play_blocked", "you cannot join the waiting list now")
        return Waiting(table=self.id, position=self.waiting.index(player_id) + 1)

    async def unwaitlist(self, player_id: int) -> NotWaiting:
        if player_id in self.waiting:
            self.waiting.remove(player_id)
        return NotWaiting(table=self.id)

    async def _offer_seats(self) -> None:
        """Each free seat is offered to the next player of the waiting list (a private ``seat_offered`` event); they
        keep their place until they sit or leave the list. A player whose time-out or self-exclusion began since
        they joined leaves the list here (issue #30), instead of holding the seat's offer from the next in line."""
        free = [s for s in range(self.spec.max_seats) if s not in self.seats]
        if not free or not self.waiting:
            return
        gw = self.host.gateway
        offered: list[int] = []
        for pid in list(self.waiting):
            if len(offered) == len(free):
                break
            if await gw.call(gw.store.protections.may_play, pid):
                offered.append(pid)
            elif pid in self.waiting:
                self.waiting.remove(pid)
        for pid, seat in zip(offered, free, strict=False):
            self.host.send(pid, self.address.event(SeatOfferedEvent(kind="seat_offered", seat=seat)))

    async def watch(self, player_id: int) -> Watching:
        """A spectator: the public view now, then every public frame of the table (``recipients``)."""
        self.watchers.add(player_id)
        self.send_state(player_id)
        return Watching(table=self.id, watching=True)

    async def unwatch(self, player_id: int) -> Watching:
        self.watchers.discard(player_id)
        return Watching(table=self.id, watching=False)

    # ------------------------------------------------------------------ money out
    async def _cash_out(self, st: SeatState) -> int:
        amount = await self.host.gateway.call(
            self.host.gateway.ledger.cash_out, st.player_id, self.id, self._idem("cash_out", st.player_id),
            currency=self.spec.currency,
        )
        if st.evict_timer is not None:
            st.evict_timer.cancel()
        del self.seats[st.seat]
        self.host.unseated(st.player_id, self.id)
        self.table_event(LeftEvent(kind="left", seat=st.seat, player=st.player_id, alias=st.alias,
                                   cashed_out=amount))
        self.host.send(st.player_id, self.address.event(LeftEvent(kind="left", seat=st.seat, cashed_out=amount)))
        self.broadcast_state()
        await self._offer_seats()
        return int(amount)

    def _arm_eviction(self, st: SeatState) -> None:
        if st.evict_timer is not None:
            st.evict_timer.cancel()
        since = st.sitout_since
        player = st.player_id

        async def evict() -> None:
            cur = self.seat_of(player)
            if cur is None or not cur.sitting_out or cur.sitout_since != since:
                return
            self.table_event(EvictedEvent(kind="evicted", seat=cur.seat, player=player, alias=cur.alias,
                                          rule="R-SITOUT-3"))
            if self.driver is not None and self.in_hand(cur):
                cur.leaving = True
                self.driver.abandon(cur.seat)
            else:
                await self._cash_out(cur)

        st.evict_timer = self.host.clock.call_later(self.settings.sitout_evict_seconds, lambda: self.actor.post(evict))

    # ------------------------------------------------------------------ dealing
    def _ready(self, st: SeatState) -> bool:
        return not st.sitting_out and st.stack > 0 and not st.leaving

    def _maybe_deal(self, soon: bool) -> None:
        if self.driver is not None or self.closed or self._deal_pending:
            return
        if sum(1 for st in self.seats.values() if self._ready(st)) < self.settings.min_players:
            return
        self._deal_pending = True
        delay = 0.0 if soon else self.settings.between_hands_seconds
        if delay <= 0:
            self.actor.post(self._deal)
        else:
            self._deal_timer = self.host.clock.call_later(delay, lambda: self.actor.post(self._deal))

    def _statuses(self) -> dict[int, SeatStatus]:
        return {s: SeatStatus(s, self._ready(st), owes_bb=st.owes_bb, missed_sb=st.missed_sb, post_now=st.post_now)
                for s, st in self.seats.items()}

    def _new_driver(self, game: Game, structure: Structure, plan: DealPlan) -> HandDriver:
        stakes = stakes_for(self.spec, game, structure)
        config = hand_config(table_game(game, self.settings), structure, stakes, plan,
                             {s: self.seats[s].stack for s in plan.dealt}, self.host.rng,
                             engine_settings(self.settings))
        rules = HandRules(self.settings, aai=self.host.aai, play_money=self.spec.play_money)
        return HandDriver.deal(self, config, f"{self.hand_no + 1}-{secrets.token_hex(4)}",
                               {s: self.seats[s].player_id for s in plan.dealt}, self.address, self.settler, rules)

    async def _deal(self) -> None:
        self._deal_pending = False
        if self.driver is not None or self.closed:
            return
        game, structure = self.game_now()
        plan = self._plan(game, structure)
        for _ in range(self.spec.max_seats):
            skip = self._skips_blind(plan)
            if skip is None:
                break
            await self.sit_out(self.seats[skip].player_id, reason="options")
            plan = self._plan(game, structure)
        if plan is None:
            return
        driver = self._new_driver(game, structure, plan)
        await driver.open()
        # committed: from here the hand exists in the store (R-SERVER: voided if we die before settling)
        self.hand_no += 1
        self.driver = driver
        self._record_blinds(plan)
        for s in plan.dealt:
            st = self.seats[s]
            st.owes_bb = st.missed_sb = st.post_now = False
            st.hands_dealt += 1
        self.table_event(HandStartedEvent(kind="hand_started", hand_id=driver.hand_id, button=plan.button,
                                          seats=list(plan.dealt), game=game.id, structure=structure.value))
        self.broadcast_state()
        driver.play()

    def _plan(self, game: Game, structure: Structure) -> DealPlan | None:
        return plan_deal(game, stakes_for(self.spec, game, structure), self._statuses(),
                         max_seats=self.spec.max_seats, prev_button=self.button,
                         min_players=self.settings.min_players, policy=self.settings.missed_blind_policy)

    def _skips_blind(self, plan: DealPlan | None) -> int | None:
        """The table options: a seat that would post a blind without ``auto_post``, or the big blind of a seat that
        asked to sit out at its next big blind (the request is used up), is sat out instead of dealt."""
        blind_plan = plan.blind_plan if plan is not None else None
        if blind_plan is None or blind_plan.free_start:
            return None
        posting = {blind_plan.big_blind, *blind_plan.live_posts, *blind_plan.dead_posts}
        if blind_plan.small_blind is not None:
            posting.add(blind_plan.small_blind)
        for s in blind_plan.dealt:
            st = self.seats[s]
            if s == blind_plan.big_blind and st.sit_out_next_bb:
                st.sit_out_next_bb = False
                return s
            if s in posting and not st.auto_post:
                return s
        return None

    async def set_options(self, player_id: int, changes: dict[str, bool]) -> OptionsSet:
        """The seat's table options (``auto_post``, ``sit_out_next_bb``, ``wait_for_bb``); applied from the next
        deal on."""
        st = self._need_seat(player_id)
        for name, value in changes.items():
            if name not in ("auto_post", "sit_out_next_bb", "wait_for_bb"):
                raise RoomError("bad_option", f"unknown table option {name!r}")
            setattr(st, name, bool(value))
        self.send_state(player_id)
        return OptionsSet(table=self.id, options=Options(**st.options()))

    def _record_blinds(self, plan: DealPlan) -> None:
        """R-MISSED: the blinds that passed sitting-out seats are owed; the button moves (R-TABLE-3)."""
        blind_plan = plan.blind_plan
        if blind_plan is None:
            return
        sitting_out = [s for s, st in self.seats.items() if st.sitting_out and s not in blind_plan.dealt]
        for s, (m_bb, m_sb) in missed_blinds(
            sitting_out, prev=self.prev_plan, plan=blind_plan, max_seats=self.spec.max_seats
        ).items():
            self.seats[s].owes_bb |= m_bb
            self.seats[s].missed_sb |= m_sb
        if self.orbit_start is None:
            self.orbit_start = blind_plan.button
        self.prev_plan = blind_plan
        self.button = blind_plan.button

    # ------------------------------------------------------------------ end of hand
    async def on_settled(self, driver: HandDriver) -> None:
        hand = driver.hand
        result = hand.result
        assert result is not None
        self.stats.append((sum(p.amount for p in result.pots) + result.rake, len(hand.seats), driver.players_at_flop))
        self.hand_times.append(self.now)
        for s, stack in result.stacks.items():
            st = self.seats.get(s)
            if st is not None and st.player_id == driver.players[s]:
                st.stack = stack
        prev_button = self.button
        self.driver = None
        self.table_event(HandOverEvent(kind="hand_over", hand_id=driver.hand_id, rake=result.rake,
                                       stacks=dict(result.stacks)))
        if self.rotation is not None:
            self.rotation.hand_finished(orbit_completed=self._orbit_completed(prev_button))
        for st in list(self.seats.values()):
            await self._between_hands(st)
        self.broadcast_state()
        self._maybe_deal(soon=False)

    async def _between_hands(self, st: SeatState) -> None:
        """A seat after a hand: leave if leaving, the waiting top-up (R-BUYIN-1), sit out when out of chips."""
        if st.leaving:
            await self._cash_out(st)
            return
        if st.pending_top_up:
            value, st.pending_top_up = st.pending_top_up, 0
            try:
                await self._do_top_up(st, value)
            except RoomError as exc:
                self.host.send(st.player_id, self.address.event(
                    TopUpFailedEvent(kind="top_up_failed", message=exc.message)))
        if st.stack <= 0 and not st.sitting_out:
            await self.sit_out(st.player_id, reason="no_chips")

    def _orbit_completed(self, button: int | None) -> bool:
        """R-HORSE-3 orbit mode: the button is about to pass the seat where the current game began."""
        if self.rotation is None:
            return False
        game, _ = self.rotation.current()
        if game.kind is Kind.STUD or button is None or self.orbit_start is None:
            count = self.rotation.hands_in_game + 1
            players = max(2, sum(1 for st in self.seats.values() if not st.sitting_out))
            done = count >= players
        else:
            active = [s for s, st in self.seats.items() if not st.sitting_out and st.stack > 0] or [button]
            nxt = clockwise_after(button, active, self.spec.max_seats)[0]
            done = on_arc(self.orbit_start, button, nxt, self.spec.max_seats) and nxt != button
        if done:
            self.orbit_start = None
        return done

    # ------------------------------------------------------------------ lobby
    def lobby_entry(self) -> CashLobbyEntry:
        header = self.info_header()
        hands = list(self.stats)
        avg_pot = sum(p for p, _, _ in hands) // len(hands) if hands else 0
        flop_pct = (
            round(100 * sum(f for _, _, f in hands) / sum(n for _, n, _ in hands)) if hands else 0
        )
        game, structure = self.game_now()
        entry: CashLobbyEntry = {
            **header, "kind": "cash", "current_game": game.id, "current_structure": structure.value,
            "seats_taken": len(self.seats), "players": len(self.seats), "average_pot": avg_pot,
            "players_per_flop_pct": flop_pct, "hands_played": self.hand_no, "hands_per_hour": self.hands_per_hour(),
            "waiting": len(self.waiting),
            "rotation": [gid for gid, _ in self.rotation.schedule] if self.rotation is not None else [],
            "rotation_structures": [st.value for _, st in self.rotation.schedule] if self.rotation is not None else [],
            "rotation_index": self.rotation.index if self.rotation is not None else 0,
        }
        return entry

    def hands_per_hour(self) -> int:
        """Hands settled in the last hour; a table open for less than an hour is extrapolated from its age (at
        least five minutes, so that the first hands do not read as thousands an hour)."""
        now = self.now
        recent = sum(1 for t in self.hand_times if now - t <= 3600.0)
        span = min(3600.0, max(now - self.opened_at, 300.0))
        return round(recent * 3600.0 / span)

    async def close(self) -> None:
        self.closed = True
        if self.driver is not None:
            self.driver.close()
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        for st in self.seats.values():
            if st.evict_timer is not None:
                st.evict_timer.cancel()
