"""One tournament table: seats, button and the hand in progress, played by the shared
:class:`~riverboat.room.hand_driver.HandDriver` (its third user, after cash tables and Speed Poker).

The table is a :class:`~riverboat.room.hand_driver.HandHost` run inside its director's actor (every table of a
tournament shares that single writer, so balancing never races a hand). Who is dealt in: every seated player with
chips, sitting out or not (R-SITOUT-1, R-TOURN-REG-5, R-BLIND-4); the button and blinds move as at a cash table
(:func:`~riverboat.room.deal.plan_deal` with nobody owing a blind); the stakes are the level's. Hands are not raked
(R-RAKE-12): :class:`TournamentSettler` has no rake rule and records the hand through the director, in tournament
chips (``store.tournament_play.hand_done``).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from riverboat.cards import RandomSource
from riverboat.engine import Action, RakeRule
from riverboat.engine.views import HandView
from riverboat.games import Game, Kind, Rotation, Stakes, Structure, get_game
from riverboat.room import frames
from riverboat.room.actor import Actor
from riverboat.room.blinds import SeatStatus, clockwise_after, on_arc
from riverboat.room.clock import Clock
from riverboat.room.deal import engine_settings, hand_config, plan_deal, table_game
from riverboat.room.frames import RoomFrame
from riverboat.room.hand_driver import HandDriver, HandRules, Settler
from riverboat.room.settings import TableSettings
from riverboat.room.tournament.balancing import Balancer
from riverboat.room.tournament.spec import Level, TournamentSpec


@dataclass(slots=True)
class Entrant:
    """A player in the tournament, as the director keeps them (the driver's ``Participant``)."""

    player_id: int
    entry_no: int
    chips: int
    timebank: float
    table_id: str | None = None
    seat: int | None = None
    sitting_out: bool = False  # absent since the start (or a restart): dealt in, folded at once (R-TOURN-REG-5)
    sat_out: bool = False  # sat out by the player: dealt in, folded at once until they sit in (R-SITOUT-1/2)
    away: bool = False  # disconnected when the hand was dealt: checked or folded every hand (R-DISC-2)
    rebuys: int = 0
    addons: int = 0
    bounty: int = 0  # knockout bounty on this player's head (R-TOURN-KO / PKO)
    auto_rebuy: bool = False
    busted_round: bool = False  # hand-for-hand: out, waiting for the round to end to be ranked
    bounties_won: int = 0  # knockout and named bounties won so far (R-TOURN-KO / PKO / BOUNTY), shown with the seat

    @property
    def folded_away(self) -> bool:
        """Dealt in and checked or folded at once: absent, sat out or disconnected (R-SITOUT-1, R-DISC-2)."""
        return self.sitting_out or self.sat_out or self.away


class PotOutcome(Protocol):
    @property
    def eligible(self) -> Sequence[int]: ...

    @property
    def winners(self) -> Mapping[int, int]: ...


class HandOutcome(Protocol):
    @property
    def stacks(self) -> Mapping[int, int]: ...

    @property
    def pots(self) -> Sequence[PotOutcome]: ...


class HandRecord(Protocol):
    @property
    def seats(self) -> Sequence[int]: ...

    @property
    def start_stacks(self) -> Sequence[int]: ...

    @property
    def result(self) -> HandOutcome | None: ...


class FinishedHand(Protocol):
    """A finished hand as the director records it: dealt here (a :class:`HandDriver`) or on another host of a
    cluster (``cluster.tourney_tables.PlayedHand``)."""

    @property
    def hand_id(self) -> str: ...

    @property
    def players(self) -> Mapping[int, int]: ...

    @property
    def hand(self) -> HandRecord: ...


class LiveHand(Protocol):
    """The hand in play at a tournament table, as the director commands it: a :class:`HandDriver`, or a hand dealt
    on another host of a cluster (``cluster.tourney_tables.RemoteHand``)."""

    @property
    def hand_id(self) -> str: ...

    @property
    def players(self) -> Mapping[int, int]: ...

    def seat_of(self, player_id: int) -> int | None: ...

    def abandon(self, seat: int) -> None: ...

    def close(self) -> None: ...

    def player_disconnected(self, player_id: int) -> None: ...

    def player_reconnected(self, player_id: int) -> None: ...

    def view(self, seat: int | None) -> HandView | None: ...


class Presence(Protocol):
    def is_connected(self, player_id: int) -> bool: ...

    def send(self, player_id: int, message: RoomFrame) -> None: ...

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None: ...


class TableOwner(Protocol):
    """What a :class:`TourneyTable` needs of the tournament that owns it: a director, or a cluster host dealing
    another host's tables (``cluster.tourney_tables.ShadowTables``)."""

    seated: int

    @property
    def host(self) -> Presence: ...

    @property
    def spec(self) -> TournamentSpec: ...

    @property
    def settings(self) -> TableSettings: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def actor(self) -> Actor: ...

    @property
    def rng(self) -> RandomSource: ...

    @property
    def bots(self) -> Mapping[int, object]: ...

    @property
    def notify_players(self) -> bool: ...

    @property
    def entrants_by_id(self) -> Mapping[int, Entrant]: ...

    @property
    def balancer(self) -> Balancer: ...

    @property
    def settler(self) -> Settler: ...

    def auto_action(self, driver: HandDriver, seat: int) -> Action | None: ...

    def send_table_state(self, table: TourneyTable, player_id: int) -> None: ...

    async def hand_settled(self, table: TourneyTable, driver: FinishedHand) -> None: ...


def level_stakes(level: Level, game: Game, structure: Structure) -> Stakes:
    """The engine stakes of a level for ``game`` (stud: ante, bring-in, completion; fixed limit: small and big
    bets defaulting to the big blind and twice it, R-FL-3)."""
    small_bet = level.small_bet or level.big_blind
    big_bet = level.big_bet or 2 * small_bet
    if game.kind is Kind.STUD:
        bring_in = level.bring_in or max(1, small_bet // 4)
        return Stakes(ante=level.ante, bring_in=min(bring_in, small_bet), small_bet=small_bet, big_bet=big_bet)
    return Stakes(small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante,
                  small_bet=small_bet if structure is Structure.FIXED_LIMIT else 0,
                  big_bet=big_bet if structure is Structure.FIXED_LIMIT else 0)


class TournamentSettler:
    """No rake (R-RAKE-12); nothing is written before a hand (a crash voids it: every stack stays as after the
    last completed hand, R-SERVER-1); after it the director records the hand, its eliminations and payments in
    one store transaction (R-TOURN-GEN-5), possibly the group commit of several tables' hands
    (:meth:`~riverboat.room.tournament.director.Director.record_hand`)."""

    rake: RakeRule | None = None

    def __init__(self, record: Callable[[TourneyTable, FinishedHand], Awaitable[None]]) -> None:
        self.record = record

    async def open(self, driver: HandDriver) -> None:
        return None

    async def settle(self, driver: HandDriver) -> None:
        table = driver.host
        assert isinstance(table, TourneyTable)
        await self.record(table, driver)


class TourneyTable:
    """A tournament table (see the module docstring). Its methods run inside the director's actor."""

    def __init__(self, director: TableOwner, table_id: str) -> None:
        self.director = director
        self.id = table_id
        self.max_seats = director.spec.seats
        self.seats: dict[int, Entrant] = {}
        self.button: int | None = None
        self.big_blind: int | None = None
        self.driver: LiveHand | None = None
        self.hand_no = 0
        self.watchers: set[int] = set()
        self.address = frames.TableAddress(table_id)
        spec = director.spec
        settings = director.settings  # R-HORSE-3: by orbit or by hands, as the tournament's table settings say
        self.rotation: Rotation | None = (
            Rotation.named(spec.mixed, mode=settings.rotation_mode, hands_per_game=settings.hands_per_game)
            if spec.mixed else None)
        self.orbit_start: int | None = None  # the button when the current game of the rotation began
        self.played_round = -1  # the hand-for-hand round this table last dealt in

    # ------------------------------------------------------------------ HandHost
    @property
    def clock(self) -> Clock:
        return self.director.clock

    @property
    def actor(self) -> Actor:
        return self.director.actor

    def is_connected(self, player_id: int) -> bool:
        return self.director.host.is_connected(player_id)

    def send(self, player_id: int, message: RoomFrame) -> None:
        self.director.host.send(player_id, message)

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None:
        self.director.host.send_many(player_ids, message)

    def participant(self, player_id: int) -> Entrant | None:
        e = self.director.entrants_by_id.get(player_id)
        return e if e is not None and e.table_id == self.id else None

    def audience(self, driver: HandDriver) -> Iterable[tuple[int, int | None]]:
        if not self.director.notify_players:
            return ()
        players = driver.players
        out: list[tuple[int, int | None]] = [
            (e.player_id, s if players.get(s) == e.player_id else None) for s, e in self.seats.items()]
        out.extend((pid, None) for pid in self.watchers)
        return out

    def on_turn(self, driver: HandDriver, seat: int, player_id: int) -> None:
        self.director.send_table_state(self, player_id)

    async def on_settled(self, driver: HandDriver) -> None:
        if self.rotation is not None:
            self.rotation.hand_finished(orbit_completed=self._orbit_completed(driver))
        await self.director.hand_settled(self, driver)  # the director calls hand_over once it is recorded

    def hand_over(self) -> None:
        """The hand is recorded and carried on: the table is between hands again (until then it stays in the
        hand: nobody moves from it, nobody re-buys at it, it is not dealt)."""
        self.driver = None

    def _orbit_completed(self, driver: HandDriver) -> bool:
        """R-HORSE-3 orbit mode (as at a cash table): the button is about to pass the seat where the current game
        began; stud games (no button) count one hand per player left."""
        assert self.rotation is not None
        result = driver.hand.result
        stacks = {s: e.chips for s, e in self.seats.items()}
        if result is not None:
            stacks.update({s: st for s, st in result.stacks.items() if s in stacks})
        active = [s for s, chips in stacks.items() if chips > 0]
        game, _ = self.rotation.current()
        button = self.button
        if game.kind is Kind.STUD or button is None or self.orbit_start is None:
            done = self.rotation.hands_in_game + 1 >= max(2, len(active))
        else:
            nxt = clockwise_after(button, active or [button], self.max_seats)[0]
            done = on_arc(self.orbit_start, button, nxt, self.max_seats) and nxt != button
        if done:
            self.orbit_start = None
        return done

    # ------------------------------------------------------------------ seats
    def free_seats(self) -> list[int]:
        return [s for s in range(self.max_seats) if s not in self.seats]

    def add(self, e: Entrant, seat: int) -> None:
        assert seat not in self.seats
        self.seats[seat] = e
        e.table_id, e.seat = self.id, seat
        self.director.seated += 1

    def remove(self, e: Entrant) -> None:
        assert e.seat is not None and self.seats.get(e.seat) is e
        del self.seats[e.seat]
        e.table_id = e.seat = None
        self.director.seated -= 1

    @property
    def in_hand(self) -> bool:
        return self.driver is not None

    def game_now(self) -> tuple[Game, Structure]:
        if self.rotation is not None:
            return self.rotation.current()
        spec = self.director.spec
        return get_game(spec.game), Structure(spec.structure)

    # ------------------------------------------------------------------ dealing
    async def deal(self, level: Level) -> bool:
        """Deal the next hand at ``level``'s stakes; False when fewer than two players have chips."""
        if self.driver is not None:
            return False
        game, structure = self.game_now()
        stakes = level_stakes(level, game, structure)
        statuses = {s: SeatStatus(s, e.chips > 0) for s, e in self.seats.items()}
        plan = plan_deal(game, stakes, statuses, max_seats=self.max_seats, prev_button=self.button)
        if plan is None:
            return False
        director = self.director
        # R-TOURN-GEN-7: the table settings' readings of RULES.md section 27 apply as at a cash table (no straddle
        # and no run it twice in a tournament: spec.py refuses them)
        config = hand_config(table_game(game, director.settings), structure, stakes, plan,
                             {s: self.seats[s].chips for s in plan.dealt}, director.rng,
                             engine_settings(director.settings, straddle=False, run_it_twice=False))
        connected = director.host.is_connected
        for s in plan.dealt:  # R-DISC-2: a player away when the hand is dealt is checked or folded in it
            e = self.seats[s]
            e.away = e.player_id not in director.bots and not connected(e.player_id)
        rules = HandRules(director.settings, aai=None, play_money=True, auto=director.auto_action)
        self.hand_no += 1
        driver = HandDriver.deal(self, config, f"{self.hand_no}-{secrets.token_hex(3)}",
                                 {s: self.seats[s].player_id for s in plan.dealt}, self.address,
                                 director.settler, rules)
        await driver.open()
        self.driver = driver
        self.button = plan.button
        if self.orbit_start is None:
            self.orbit_start = plan.button
        if plan.blind_plan is not None:
            self.big_blind = plan.blind_plan.big_blind
        director.balancer.set_idle(self.id, False)
        # as at a cash table, the hand's events begin with hand_started (numbered before the deal's events)
        started = self.address.event(frames.HandStartedEvent(
            kind="hand_started", hand_id=driver.hand_id, button=plan.button, seats=list(plan.dealt), game=game.id,
            structure=structure.value))
        for pid, _ in self.audience(driver):
            self.send(pid, started)
        driver.play()
        return True
