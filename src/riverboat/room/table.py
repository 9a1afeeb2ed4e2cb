"""A cash table: the single-writer actor that seats players, moves the button, takes buy-ins and top-ups and deals
hands, each played out by a :class:`~riverboat.room.hand_driver.HandDriver`.

Everything that changes a table runs inside its :class:`~riverboat.room.actor.Actor`. :class:`Table` holds what the
table is (spec, settings, seats, spectators, the hand in progress) and what everyone sees of it (views, events, the
lobby entry); its parts, each in its own module and composed here, hold the rules:

- :class:`~riverboat.room.cash_seats.CashSeats`: R-CASH-2/3 (seats, leaving), R-BUYIN (buy-in, top-up between hands),
  every chip to and from the ledger;
- :class:`~riverboat.room.waiting_list.WaitingList`: the waiting list of a full table;
- :class:`~riverboat.room.cash_presence.CashPresence`: R-SITOUT (sit-out, sit-in, the 7-minute eviction), R-DISC-3 /
  R-TIME-5 (a lost connection), the seat's table options;
- :class:`~riverboat.room.cash_dealer.CashDealer`: the hand loop -- R-TABLE-3 / R-BLIND / R-NEWPLAYER / R-MISSED
  (through :mod:`riverboat.room.deal` and :mod:`riverboat.room.blinds`), R-HORSE-3 / R-8GAME-3 (mixed rotation),
  between hands.

R-SERVER: the hand is recorded before the deal and settled in one transaction after it
(:class:`~riverboat.room.settle.LedgerSettler`). The hand itself -- timers, time bank, fallback actions (R-TIME,
R-DISC-1, R-AAI, R-AUTODRAW), rake (R-RAKE) -- is the driver's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Protocol

from riverboat.cards import RandomSource
from riverboat.engine import Hand
from riverboat.games import Game, Rotation, Structure, get_game
from riverboat.room import frames
from riverboat.room.actor import Actor
from riverboat.room.cash_dealer import CashDealer
from riverboat.room.cash_presence import CashPresence
from riverboat.room.cash_seats import CashSeats
from riverboat.room.clock import Clock
from riverboat.room.deal import stakes_for
from riverboat.room.disconnect import AaiAllowance
from riverboat.room.errors import RoomError
from riverboat.room.frames import (
    AliasChangedEvent,
    CashLobbyEntry,
    Event,
    RoomFrame,
    TableHeader,
    TableView,
)
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver
from riverboat.room.move import Move
from riverboat.room.rake import get_schedule, rake_rule
from riverboat.room.replies import (
    ACTED,
    Acted,
    Left,
    NotWaiting,
    OptionsSet,
    SatIn,
    Seated,
    ToppedUp,
    Waiting,
    Watching,
)
from riverboat.room.seating import SeatState
from riverboat.room.settings import TableSettings, TableSpec
from riverboat.room.settle import LedgerSettler
from riverboat.room.timers import DecisionTimer
from riverboat.room.waiting_list import WaitingList

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
        self.driver: HandDriver | None = None
        self.hand_no = 0
        self.button: int | None = None
        self.stats: deque[tuple[int, int, int]] = deque(maxlen=50)  # (pot, players dealt, players who saw a flop)
        self.hand_times: deque[float] = deque(maxlen=2000)  # when each hand was settled (lobby: hands per hour)
        self.opened_at = host.clock.now()
        self.closed = False
        # the table's parts (each runs inside this actor and reads the table's seats and hand)
        self.cash_seats = CashSeats(self)
        self.waiting_list = WaitingList(self)
        self.presence = CashPresence(self)
        self.dealer = CashDealer(self)

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

    @property
    def waiting(self) -> list[int]:
        """The waiting list's players, first come first offered (:class:`WaitingList`)."""
        return self.waiting_list.players

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

    def need_seat(self, player_id: int) -> SeatState:
        st = self.seat_of(player_id)
        if st is None:
            raise RoomError("not_seated", "you are not seated at this table")
        return st

    def in_hand(self, st: SeatState) -> bool:
        """Dealt into the hand in progress (even if folded: the store settles them with the hand)."""
        return self.driver is not None and self.driver.players.get(st.seat) == st.player_id

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

    async def alias_changed(self, player_id: int, alias: str | None) -> None:
        """R-ALIAS-2: the seated player's new alias, shown at once (event + fresh views; run inside the actor)."""
        st = self.seat_of(player_id)
        if st is None or st.alias == alias:
            return
        st.alias = alias
        self.table_event(AliasChangedEvent(kind="alias_changed", seat=st.seat, player=player_id, alias=alias))
        self.broadcast_state()

    # ------------------------------------------------------------------ commands (run inside the actor)
    async def sit(self, player_id: int, seat: object, buy_in: object, wait_for_bb: bool = True, *,
                  idem_key: str | None = None) -> Seated:
        """R-CASH-2, R-BUYIN, R-NEWPLAYER: take ``seat`` with ``buy_in`` from the balance (:class:`CashSeats`)."""
        return await self.cash_seats.sit(player_id, seat, buy_in, wait_for_bb, idem_key=idem_key)

    def reopen(self, seats: list[tuple[int, int, int, str | None]], hands_played: int, button: int | None) -> None:
        """A table taken over by another cluster host, its chips already on it (:meth:`CashSeats.reopen`)."""
        self.cash_seats.reopen(seats, hands_played, button)

    async def act(self, player_id: int, move: Move) -> Acted:
        st = self.need_seat(player_id)
        if self.driver is None or not self.in_hand(st):
            raise RoomError("not_your_turn", "you are not in a hand at this table")
        self.driver.act(st.seat, move)
        return ACTED

    async def leave(self, player_id: int) -> Left:
        """R-CASH-3: leave at any time (:meth:`CashSeats.leave`)."""
        return await self.cash_seats.leave(player_id)

    async def top_up(self, player_id: int, value: int, *, idem_key: str | None = None) -> ToppedUp:
        """R-BUYIN-1: chips between hands only (:meth:`CashSeats.top_up`)."""
        return await self.cash_seats.top_up(player_id, value, idem_key=idem_key)

    async def sit_out(self, player_id: int, *, reason: str = "player") -> None:
        """R-SITOUT (:meth:`CashPresence.sit_out`)."""
        await self.presence.sit_out(player_id, reason=reason)

    async def sit_in(self, player_id: int, post: bool = False) -> SatIn:
        """Back from sit-out (:meth:`CashPresence.sit_in`)."""
        return await self.presence.sit_in(player_id, post)

    async def set_options(self, player_id: int, changes: dict[str, bool]) -> OptionsSet:
        """The seat's table options (:meth:`CashPresence.set_options`)."""
        return await self.presence.set_options(player_id, changes)

    async def disconnected(self, player_id: int) -> None:
        """R-DISC-3 (:meth:`CashPresence.disconnected`)."""
        await self.presence.disconnected(player_id)

    async def reconnected(self, player_id: int) -> None:
        """R-TIME-5 (:meth:`CashPresence.reconnected`)."""
        await self.presence.reconnected(player_id)

    async def waitlist(self, player_id: int) -> Waiting:
        """Join the waiting list (:meth:`WaitingList.join`)."""
        return await self.waiting_list.join(player_id)

    async def unwaitlist(self, player_id: int) -> NotWaiting:
        return await self.waiting_list.leave(player_id)

    async def watch(self, player_id: int) -> Watching:
        """A spectator: the public view now, then every public frame of the table (``recipients``)."""
        self.watchers.add(player_id)
        self.send_state(player_id)
        return Watching(table=self.id, watching=True)

    async def unwatch(self, player_id: int) -> Watching:
        self.watchers.discard(player_id)
        return Watching(table=self.id, watching=False)

    async def on_settled(self, driver: HandDriver) -> None:
        """The hand is over and settled (``HandHost``): the dealer goes on (:meth:`CashDealer.on_settled`)."""
        await self.dealer.on_settled(driver)

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
            "waiting": len(self.waiting_list),
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
        self.dealer.close()
        for st in self.seats.values():
            if st.evict_timer is not None:
                st.evict_timer.cancel()
