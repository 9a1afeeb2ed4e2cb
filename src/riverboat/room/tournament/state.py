"""What one running tournament knows (issue #29 item 3: the director split by responsibility).

:class:`TournamentState` is the data every part of a director reads and writes -- the spec and its settings, the
field (entrants, registrations, results), the tables, the money counters, the dealing and recording bookkeeping --
with no behaviour beyond reading it. The parts (:mod:`.purse`, :mod:`.herald`, :mod:`.seating`, :mod:`.dealer`,
:mod:`.field`, :mod:`.rebuys`, :mod:`.recorder`, :mod:`.discipline`, :mod:`.presence`, :mod:`.registration`) each
hold the state and the parts below them; :class:`~riverboat.room.tournament.director.Director` composes them. All of
them run inside the tournament's ONE actor (every table posts into it, so balancing never races a hand).
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from riverboat.cards import RandomSource
from riverboat.engine import Action
from riverboat.room.actor import Actor
from riverboat.room.clock import Clock, TimerHandle
from riverboat.room.errors import RoomError
from riverboat.room.frames import RoomFrame
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver
from riverboat.room.settings import TableSettings
from riverboat.room.tournament.awards import Outcome, PlaceAward
from riverboat.room.tournament.balancing import Balancer
from riverboat.room.tournament.levels import LevelClock
from riverboat.room.tournament.lifecycle import Lifecycle, Status
from riverboat.room.tournament.ranking import Bust
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament.tables import Entrant, FinishedHand, TourneyTable
from riverboat.store.tournament_play import HandCheckpoint

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


class TournamentState:
    """The data of one tournament (see the module docstring)."""

    def __init__(self, host: DirectorHost, tournament_id: str, spec: TournamentSpec, *,
                 bots: Mapping[int, BotPolicy] | None = None, notify_players: bool = True,
                 record_history: bool = True, seed: int | None = None, batch_hands: bool = True) -> None:
        self.host = host
        self.id = tournament_id
        self.spec = spec
        self.settings = TableSettings.from_dict(spec.settings)
        self.actor = Actor(f"tournament {tournament_id}")
        self.rng: RandomSource = host.rng
        self.choice = random.Random(seed if seed is not None else secrets.randbits(64))
        self.bots: dict[int, BotPolicy] = dict(bots or {})
        self.notify_players = notify_players
        self.record_history = record_history
        self.lifecycle = Lifecycle(spec)
        self.levels: LevelClock | None = None
        self.balancer = Balancer(spec.seats, rng=self.choice)
        self.done = asyncio.Event()
        self.stats = Stats()
        self._init_field()
        self._init_money()
        self._init_dealing()
        self._init_recording(batch_hands)

    def _init_field(self) -> None:
        """Who is in: registrations before the start, entrants still in, results, the tables and what they show."""
        self.tables: dict[str, TourneyTable] = {}
        self.table_seq = 0
        self.entrants_by_id: dict[int, Entrant] = {}  # everyone still in
        self.registered = []  # registration order (before the start)
        self.results: dict[int, Result] = {}
        self.entries = 0  # entrants (registrations) of the field
        self.alive = 0
        self.chips_issued = 0
        self.seated = 0  # players seated at the tables (kept by TourneyTable.add/remove)
        self.aliases: dict[int, str | None] = {}  # public aliases of the players the tables show (R-ALIAS-1)
        self.stacks: list[int] | None = None  # every stack left, negated and sorted (chip_rank)
        self.stacks_dirty = True
        self.disqualified: dict[int, int] = {}  # player -> operator: removed once their hand is over (R-INTEG-5)
        self.offers: dict[int, TimerHandle] = {}  # busted players deciding whether to re-buy (R-TOURN-REBUY-3)
        self.carried: dict[int, int] = {}  # a Day 2: each qualifier's stack from Day 1 (R-TOURN-FLIGHT-3)
        self.advanced: dict[int, int] = {}  # a Day 1 flight once over: each survivor's Day 2 stack

    def _init_money(self) -> None:
        """The prize pool and what was paid from it (R-TOURN-GEN-5, R-TOURN-KO/PKO/BOUNTY)."""
        self.pool_collected = 0  # place-prize money collected (buy-ins less bounties, re-buys, add-ons, added)
        self.overlay = 0
        self.pool_final = False
        self.paid_total = 0
        self.payments_made = 0  # payments sent to the store (each one ledger transaction)
        self.prize_paid = 0  # place prizes, tickets and named bounties paid (everything but knockout bounties)
        self.early: dict[int, int] = {}  # named bounties won before the player's own finish
        self.bounties_won: dict[int, int] = {}  # player -> knockout and named bounties won so far (cash)
        self.named_left = dict(self.spec.named_bounties)
        self.override: list[int] | None = None
        self.override_ticket_for: str | None = None
        self.awards: list[PlaceAward] | None = None

    def _init_dealing(self) -> None:
        """Which tables deal next: those waiting between hands, the hands in progress, hand-for-hand rounds."""
        self.waiting: set[str] = set()  # tables between hands that can deal (two or more players)
        self.in_hand = 0
        self.h4h_round = 0  # > 0: hand-for-hand round number
        # the pause between hand-for-hand rounds (``between_hands_seconds``, once for all tables): armed, and over
        self.h4h_pause_armed = False
        self.h4h_pause_over = False
        self.round_busts: list[tuple[Bust, str]] = []
        self.timer: TimerHandle | None = None
        self.break_timer: TimerHandle | None = None
        self.level_seen = 0
        self.flight_over = False
        self.ready_at: dict[float, list[str]] = {}  # tables dealing again at the same instant (one timer each)

    def _init_recording(self, batch_hands: bool) -> None:
        """The bookkeeping of hands recorded in groups (:class:`~.recorder.Recorder`): hands decided and waiting
        for their group commit (in decision order), hands settled by their table and carried on once committed (in
        order), players ranked but not carried on yet (still in ``entrants_by_id`` and ``alive``)."""
        self.batch_hands = batch_hands
        self.outcomes: dict[tuple[str, str], tuple[Outcome, list[int], list[int], bool]] = {}
        self.staged: dict[tuple[str, str], HandCheckpoint] = {}
        self.committed: set[tuple[str, str]] = set()
        self.flush_posted = False
        self.settling: deque[tuple[TourneyTable, FinishedHand]] = deque()
        self.out_pending: set[int] = set()

    # ------------------------------------------------------------------ reading
    @property
    def registered(self) -> list[int]:
        """The players registered before the start, in registration order (read it; assign a new list)."""
        return self._registered

    @registered.setter
    def registered(self, players: list[int]) -> None:
        self._registered = list(players)
        self.is_registered = set(self._registered)  # membership in O(1): a field of 100,000 registers one by one

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

    def need(self, player_id: int) -> Entrant:
        e = self.entrants_by_id.get(player_id)
        if e is None:
            raise RoomError("not_registered", "you are not playing in this tournament")
        return e

    def table_of(self, e: Entrant | None) -> TourneyTable | None:
        return self.tables.get(e.table_id or "") if e is not None else None

    def places(self) -> list[int]:
        """Player of place 1, 2, ... (tied players in their registration order)."""
        order = sorted(self.results.values(), key=lambda r: (r.place, r.player_id))
        return [r.player_id for r in order]

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

    async def quiesce(self) -> None:
        """Wait until the director's actor has nothing left to do (tests, FakeClock settle hook)."""
        for _ in range(100_000):
            if not self.actor.busy:
                await asyncio.sleep(0)
                if not self.actor.busy:
                    return
            await self.actor.idle.wait()
