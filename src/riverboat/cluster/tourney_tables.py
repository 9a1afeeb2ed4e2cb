"""A tournament's tables on several hosts (docs/cluster.md "Tournaments across hosts").

The tournament stays ONE record owned by one host (:mod:`.tourney`), whose **director** keeps every decision of the
tournament: seating, balancing and table breaks (R-TOURN-BAL), levels, eliminations, places and prizes, and the
store's record of every completed hand (``tournament_play.hand_done``, fenced by the director's lease epoch). What
is spread over the hosts is the **dealing**: each table of the tournament is dealt by one table host, chosen by the
rendezvous hash of the table over the live hosts (the director's own host deals its share in place, as in one
process). For a table dealt elsewhere, the director's :class:`ClusterTable` sends the hand to deal (the seats with
the stacks as after the last completed hand, the button, the level: :class:`~riverboat.cluster.wire.TableDeal`) to
that host, whose :class:`ShadowTables` plays it with the shared hand driver -- the players' frames go from there
to their gateways like any table's, their actions come through the director's host -- and sends the outcome back
(:class:`~riverboat.cluster.wire.HandPlayed`), which the director records and acts on exactly as for a local hand.
A player moved by balancing to a table of another host is therefore dealt there from the next hand on.

Failover (R-SERVER-1): nothing of a hand is recorded before its outcome reaches the director, so

- when a **dealing host** is lost (its node lease expires), the director voids its hands in progress and deals
  those tables again on a live host, from the stacks it holds (as after each table's last completed hand);
- when the **director's host** is lost, another host takes the tournament record and resumes the director from
  the store with a higher epoch; dealing hosts drop any hand of an older epoch on the next deal, and the outcome of
  such a hand is refused by the new director (it knows only the hands it dealt), so no hand is recorded twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout

from riverboat.cards import RandomSource
from riverboat.cluster.link import Link
from riverboat.cluster.names import Names, preferred_host
from riverboat.cluster.wire import (
    HandPlayed,
    PeerBody,
    Reply,
    SeatWire,
    TableAbandon,
    TableAct,
    TableCheck,
    TableDeal,
    TableState,
    TableVoid,
)
from riverboat.engine import Action, RakeRule
from riverboat.room import frames
from riverboat.room.actor import Actor
from riverboat.room.clock import Clock
from riverboat.room.errors import RoomError
from riverboat.room.hand_driver import HandDriver, event_record
from riverboat.room.history_text import hand_history_text
from riverboat.room.move import Move
from riverboat.room.settings import TableSettings
from riverboat.room.tournament.balancing import Balancer
from riverboat.room.tournament.director import DealingFactory, Director, HandHistory, LocalDealing
from riverboat.room.tournament.herald import AliasOf, Herald
from riverboat.room.tournament.presence import Presence
from riverboat.room.tournament.spec import Level, TournamentSpec
from riverboat.room.tournament.state import BotPolicy, DirectorHost, TournamentState
from riverboat.room.tournament.tables import Entrant, FinishedHand, TourneyTable

log = logging.getLogger("riverboat.cluster")
PEER_TIMEOUT = 5.0
RETRY_DEAL_SECONDS = 0.5
CHECK_AFTER_SECONDS = 5.0  # a hand dealt elsewhere that long ago is checked on at every scan


class Peers:
    """What a tournament needs of its host to deal on others: this node, the live table hosts, the NATS link."""

    def __init__(self, node: str, link: Link, names: Names, live_hosts: Callable[[], list[str]]) -> None:
        self.node = node
        self.link = link
        self.names = names
        self.live_hosts = live_hosts
        self._tasks: set[asyncio.Task[None]] = set()

    def place(self, table_id: str) -> str:
        """The host that deals a table: the rendezvous hash of the table over the live table hosts."""
        return preferred_host(self.live_hosts(), table_id)

    async def ask(self, node: str, message: PeerBody) -> dict[str, Any]:
        """Request/reply to a host; ``table_unavailable`` when it is gone, ``table_timeout`` when it is silent."""
        try:
            msg = await self.link.client.request(self.names.peer(node), message.model_dump_json().encode(),
                                                 timeout=PEER_TIMEOUT)
        except NoRespondersError:
            raise RoomError("table_unavailable", f"host {node} is gone") from None
        except (TimeoutError, NatsTimeout):
            raise RoomError("table_timeout", f"host {node} did not answer within {PEER_TIMEOUT:.0f} s") from None
        reply = Reply.model_validate_json(msg.data)
        if not reply.ok:
            raise RoomError(reply.code or "refused", reply.message or "refused")
        return reply.result or {}

    def tell(self, node: str, message: PeerBody) -> None:
        """Send without waiting for the answer (a void, a fold of a disqualified player, a state to resend)."""
        async def send() -> None:
            with contextlib.suppress(RoomError):
                await self.ask(node, message)

        self.keep(asyncio.get_running_loop().create_task(send()))

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold a background task until it ends."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


# ---------------------------------------------------------------------------------------------- the director's side
class RemoteHand:
    """What the director holds of a hand being dealt on another host (its ``table.driver`` meanwhile, a
    :class:`~riverboat.room.tournament.tables.LiveHand`). ``token`` names this deal: only the outcome that carries
    it is recorded."""

    def __init__(self, table: ClusterTable, node: str, token: str, players: dict[int, int]) -> None:
        self.table = table
        self.node = node
        self.token = token
        self.hand_id = ""  # known from the dealing host's answer
        self.players = players
        self.since = time.monotonic()
        self.checking = False

    def seat_of(self, player_id: int) -> int | None:
        return next((s for s, p in self.players.items() if p == player_id), None)

    def abandon(self, seat: int) -> None:
        c = self.table.dealing
        c.peers.tell(self.node, TableAbandon(tournament=c.d.id, table=self.table.id, epoch=c.epoch, seat=seat))

    def close(self) -> None:
        c = self.table.dealing
        c.peers.tell(self.node, TableVoid(tournament=c.d.id, table=self.table.id, epoch=c.epoch))

    def player_disconnected(self, player_id: int) -> None:
        return None  # the dealing host sees the player's presence itself

    def player_reconnected(self, player_id: int) -> None:
        return None

    def view(self, seat: int | None) -> None:
        return None


@dataclass
class _Pot:
    eligible: list[int]
    winners: dict[int, int]


@dataclass
class _Result:
    stacks: dict[int, int]
    pots: list[_Pot]


@dataclass
class _Hand:
    seats: list[int]
    start_stacks: list[int]
    result: _Result


@dataclass
class PlayedHand:
    """A hand played on another host, as the director records a finished hand
    (:class:`~riverboat.room.tournament.tables.FinishedHand`), with its history from the dealing host."""

    hand_id: str
    players: dict[int, int]
    hand: _Hand
    phh: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, msg: HandPlayed) -> PlayedHand:
        result = _Result(dict(msg.stacks), [_Pot(list(e), dict(w)) for e, w in msg.pots])
        return cls(msg.hand_id, dict(msg.players), _Hand(list(msg.seats), list(msg.start_stacks), result),
                   msg.phh, list(msg.events))


class ClusterTable(TourneyTable):
    """A table of a cluster tournament: dealt here, or on the host the rendezvous hash names among the live hosts
    (``node``, chosen again at every deal: a table goes back to a host that returns, between two hands)."""

    def __init__(self, dealing: ClusterDealing, table_id: str) -> None:
        super().__init__(dealing.d, table_id)
        self.dealing = dealing
        self.node: str | None = None
        self.dealt_here = 0  # hands this table dealt on the director's own host (``/health``)

    @property
    def remote(self) -> RemoteHand | None:
        return self.driver if isinstance(self.driver, RemoteHand) else None

    async def deal(self, level: Level) -> bool:
        c = self.dealing
        d = c.d
        # between hands a table follows the live hosts (one that came back); a variant's table stays with its director
        self.node = c.peers.node if c.in_place else c.peers.place(self.id)
        if self.node == c.peers.node:
            dealt = await super().deal(level)
            self.dealt_here += dealt
            return dealt
        if self.driver is not None:
            return False
        seats = [SeatWire(seat=s, player=e.player_id, entry_no=e.entry_no, chips=e.chips,
                          sitting_out=e.sitting_out, sat_out=e.sat_out,
                          bounty=e.bounty, timebank=e.timebank, alias=d.aliases.get(e.player_id),
                          rank=d.chip_rank(e.chips), rebuy=d.rebuy_open(e), addon=e.chips > 0 and d.addon_open(e))
                 for s, e in sorted(self.seats.items())]
        if sum(1 for w in seats if w.chips > 0) < 2:
            return False
        self.hand_no += 1
        token = secrets.token_hex(8)
        msg = TableDeal(tournament=d.id, table=self.id, epoch=c.epoch, director=c.peers.node, token=token,
                        hand_no=self.hand_no, button=self.button, big_blind=self.big_blind, level=asdict(level),
                        seats=seats, hud=dict(d.hud()))
        hand = RemoteHand(self, self.node, token, {w.seat: w.player for w in seats if w.chips > 0})
        self.driver = hand
        d.balancer.set_idle(self.id, False)
        c.send_deal(hand, msg)  # the director's actor never waits for another host
        return True


class ClusterHerald(Herald):
    """The director's herald in a cluster: the state of a hand dealt on another host is sent by that host."""

    def __init__(self, dealing: ClusterDealing, alias_of: AliasOf | None) -> None:
        super().__init__(dealing.d, dealing.d.purse, alias_of)
        self.dealing = dealing

    def show_deal(self, table: TourneyTable) -> None:
        if self.dealing.remote_of(table.id) is None:  # a hand dealt elsewhere is shown by its dealing host
            super().show_deal(table)

    def send_table_state(self, table: TourneyTable, player_id: int) -> None:
        found = self.dealing.remote_of(table.id)
        if found is not None:  # the hand is on its dealing host: that host sends the state, with the player's
            # sit-out as the director holds it (R-SITOUT-1: out or back at once, as in one process)
            e = self.st.entrants_by_id.get(player_id)
            self.dealing.peers.tell(found[1].node, TableState(tournament=self.st.id, table=table.id,
                                                              player=player_id,
                                                              sat_out=e.sat_out if e is not None else None))
            return
        super().send_table_state(table, player_id)


class ClusterDealing:
    """How a cluster tournament's director deals (see the module docstring; issue #29: the director is the same
    :class:`~riverboat.room.tournament.director.Director` as in one process, composed with this part instead of
    subclassed): its tables may be dealt on other hosts, whose outcomes come back to :meth:`hand_played`.
    ``epochs``: this host's lease epoch of each record it owns (the tournament's fences its messages)."""

    def __init__(self, director: Director, peers: Peers, epochs: Mapping[str, int]) -> None:
        self.d = director
        self.local = LocalDealing(director)  # a table dealt on the director's own host, as in one process
        self.peers = peers
        self.epochs = epochs
        # a variant's tables are dealt on the director's host: its hooks (the Twister spin shown to the table, Wild
        # Twister's all-in at every decision, R-TWIST-3, R-WILD-2) run with the director (one host per Twister)
        self.in_place = director.spec.variant is not None

    @classmethod
    def factory(cls, peers: Peers, epochs: Mapping[str, int]) -> DealingFactory:
        """What a :class:`Director` is given (``dealing=``) to deal a cluster tournament."""
        return lambda director: cls(director, peers, epochs)

    @property
    def epoch(self) -> int:
        return self.epochs.get(self.d.id, 0)

    # ------------------------------------------------------------------ the director's seams (Dealing)
    def table(self, table_id: str) -> TourneyTable:
        return ClusterTable(self, table_id)

    def herald(self, alias_of: AliasOf | None) -> Herald:
        return ClusterHerald(self, alias_of)

    def history(self, table: TourneyTable, driver: FinishedHand) -> HandHistory:
        if isinstance(driver, PlayedHand):
            return driver.phh, list(driver.events)
        return self.local.history(table, driver)

    async def act(self, player_id: int, move: Move) -> dict[str, object]:
        e = self.d.entrants_by_id.get(player_id)
        found = self.remote_of(e.table_id if e is not None else None)
        if found is None:
            return await self.local.act(player_id, move)
        table, hand = found
        return await self.peers.ask(hand.node, TableAct(tournament=self.d.id, table=table.id, player=player_id,
                                                        move=move))

    # ------------------------------------------------------------------ the hands dealt on other hosts
    def remote_of(self, table_id: str | None) -> tuple[ClusterTable, RemoteHand] | None:
        table = self.d.tables.get(table_id or "")
        if isinstance(table, ClusterTable) and (hand := table.remote) is not None:
            return table, hand
        return None

    def send_deal(self, hand: RemoteHand, msg: TableDeal) -> None:
        """Send the deal in the background; the answer (hand id, button) or the failure comes back into the actor."""
        async def send() -> None:
            try:
                reply = await self.peers.ask(hand.node, msg)
            except RoomError as exc:
                log.warning("tournament %s: table %s could not be dealt on %s (%s); placing it again", self.d.id,
                            msg.table, hand.node, exc.code)
                reply = {"dealt": False, "retry": True}
            self.d.actor.post(lambda: self._dealt(hand, reply))

        task = asyncio.get_running_loop().create_task(send())
        self.peers.keep(task)

    async def _dealt(self, hand: RemoteHand, reply: dict[str, Any]) -> None:
        table = hand.table
        if table.driver is not hand:
            return  # voided meanwhile (its host was lost), or already over
        if reply.get("dealt"):
            hand.hand_id = str(reply.get("hand_id") or "")
            return
        self._void_remote(table)
        if reply.get("retry"):
            self.deal_later(table)

    def _void_remote(self, table: ClusterTable) -> None:
        """The table's hand on another host is void (nothing of it was recorded, R-SERVER-1)."""
        table.driver = None
        self.d.in_hand -= 1
        self.d.balancer.set_idle(table.id, True)

    async def hand_played(self, msg: HandPlayed) -> dict[str, Any]:
        return await self.d.actor.submit(lambda: self._hand_played(msg))

    async def _hand_played(self, msg: HandPlayed) -> dict[str, Any]:
        """A hand dealt elsewhere is over: recorded and acted on as a local one (R-TOURN-GEN-5). Refused quietly if
        this director did not deal it (voided since: its host was lost, or the tournament moved here)."""
        found = self.remote_of(msg.table)
        if found is None or found[1].token != msg.token or msg.epoch != self.epoch:
            return {"recorded": False}
        table, _ = found
        played = PlayedHand.of(msg)
        table.button, table.big_blind = msg.button, msg.big_blind  # as the deal set them (recorded with the hand)
        await self.d.record_hand(table, played)
        table.driver = None
        for pid, bank in msg.timebanks.items():
            if (e := self.d.entrants_by_id.get(pid)) is not None:
                e.timebank = bank
        await self.d.hand_settled(table, played)
        return {"recorded": True}

    async def hosts_lost(self, live: list[str]) -> None:
        """Tables dealt by a host that is gone: their hands are void (nothing of them was recorded, R-SERVER-1) and
        they are dealt again on a live host from the stacks after their last completed hand."""
        lost = [t for t in self.d.tables.values() if isinstance(t, ClusterTable) and t.node and t.node not in live]
        for table in lost:
            log.warning("tournament %s: host %s of table %s is gone; dealing it elsewhere", self.d.id, table.node,
                        table.id)
            table.node = None
            if table.remote is not None:
                self._void_remote(table)
                if len(table.seats) >= 2:
                    self.d.waiting.add(table.id)
        if lost:
            await self.d.dealer.pump()

    def check_remote(self) -> None:
        """Ask the dealing host about every hand it has played for a while: one it no longer plays under that deal's
        token (its outcome was lost, or a later message replaced it there) is void and dealt again, so that no
        table waits for ever (R-SERVER-1: nothing of it was recorded)."""
        now = time.monotonic()
        for table in list(self.d.tables.values()):
            hand = table.remote if isinstance(table, ClusterTable) else None
            if hand is None or hand.checking or not hand.hand_id or now - hand.since < CHECK_AFTER_SECONDS:
                continue
            hand.checking = True
            self.peers.keep(asyncio.get_running_loop().create_task(self._check(hand)))

    async def _check(self, hand: RemoteHand) -> None:
        table = hand.table
        try:
            reply = await self.peers.ask(hand.node, TableCheck(tournament=self.d.id, table=table.id, token=hand.token))
            playing = bool(reply.get("playing"))
        except RoomError:
            playing = True  # its host is gone or slow: hosts_lost decides
        hand.checking = False
        if not playing:
            async def lost() -> None:
                if table.driver is hand:
                    log.warning("tournament %s: hand %s of table %s is no longer played on %s; dealing again",
                                self.d.id, hand.hand_id, table.id, hand.node)
                    self._void_remote(table)
                    self.deal_later(table)

            self.d.actor.post(lost)

    def deal_later(self, table: ClusterTable) -> None:
        """Deal the table again shortly (its host did not take the hand)."""
        async def again() -> None:
            if self.d.tables.get(table.id) is table and not table.in_hand and len(table.seats) >= 2:
                self.d.waiting.add(table.id)
                await self.d.dealer.pump()

        self.d.clock.call_later(RETRY_DEAL_SECONDS, lambda: self.d.actor.post(again))

    def dealt_here(self) -> dict[str, int]:
        """Hands each table dealt on this (the director's) host."""
        return {t.id: t.dealt_here for t in self.d.tables.values() if isinstance(t, ClusterTable) and t.dealt_here}

    def lost_tables(self, live: list[str]) -> bool:
        return any(isinstance(t, ClusterTable) and t.node and t.node not in live for t in self.d.tables.values())


# ---------------------------------------------------------------------------------------------- the dealing side
class ShadowSettler:
    """Settles a hand dealt for another host's director by sending its outcome there (no rake, R-RAKE-12; nothing
    written here). While the director's host is live a failure raises, so the hand driver tries again; once it is
    gone the hand is dropped (its next director deals the table again from the store)."""

    rake: RakeRule | None = None

    def __init__(self, shadow: ShadowTables) -> None:
        self.shadow = shadow

    async def open(self, driver: HandDriver) -> None:
        return None

    async def settle(self, driver: HandDriver) -> None:
        sd = self.shadow
        table = driver.host
        assert isinstance(table, TourneyTable)
        hand, result = driver.hand, driver.hand.result
        assert result is not None
        phh, events = (hand_history_text(hand, table.id, driver.hand_id, driver.players),
                       [event_record(e) for e in hand.events])
        msg = HandPlayed(
            tournament=sd.id, table=table.id, epoch=sd.epoch, token=sd.tokens.get(table.id, ""),
            hand_id=driver.hand_id, players=dict(driver.players),
            seats=list(hand.seats), start_stacks=list(hand.start_stacks), stacks=dict(result.stacks),
            pots=[(list(p.eligible), dict(p.winners)) for p in result.pots], phh=phh, events=events,
            button=table.button, big_blind=table.big_blind,
            timebanks={e.player_id: e.timebank for e in table.seats.values()})
        try:
            await sd.peers.ask(sd.director_node, msg)
        except RoomError:
            if sd.director_node in sd.peers.live_hosts():
                raise
            log.warning("tournament %s: the director's host %s is gone; hand %s dropped", sd.id, sd.director_node,
                        driver.hand_id)


class DealtWindows:
    """What the director sent with the deal: the pool, and who may re-buy or take the add-on."""

    def __init__(self) -> None:
        self.rebuy: set[int] = set()
        self.addon: set[int] = set()
        self.pool = 0

    @property
    def prize_pool(self) -> int:
        return self.pool

    def rebuy_open(self, e: Entrant, chips: int | None = None) -> bool:
        return e.player_id in self.rebuy

    def addon_open(self, e: Entrant) -> bool:
        return e.player_id in self.addon


class ShadowHerald(Herald):
    """The state frames of the tables dealt here, with the HUD and ranks the director sent with each deal."""

    def __init__(self, st: TournamentState, windows: DealtWindows) -> None:
        super().__init__(st, windows, None)
        self.hud_sent: dict[str, Any] = {}
        self.ranks: dict[int, int] = {}

    def hud(self) -> frames.TournamentHud:
        h = self.hud_sent
        return {"level": int(h.get("level", 0)), "small_blind": int(h.get("small_blind", 0)),
                "big_blind": int(h.get("big_blind", 0)), "ante": int(h.get("ante", 0)),
                "on_break": bool(h.get("on_break")), "seconds_left": h.get("seconds_left"),
                "next_break_in": h.get("next_break_in"), "players_left": int(h.get("players_left", 0)),
                "entrants": int(h.get("entrants", 0)), "average_stack": int(h.get("average_stack", 0)),
                "prize_pool": int(h.get("prize_pool", 0)), "hand_for_hand": bool(h.get("hand_for_hand"))}

    def chip_rank(self, chips: int) -> int:
        return self.ranks.get(chips, 0)


class ShadowTables:
    """This host's share of the tables of a tournament directed on another host, composed of the parts it needs
    -- the tournament's state, the tables, a herald of the state frames and the players' presence -- and nothing
    else: it deals what it is told, plays the hands (the shared hand driver, the players' frames to their
    gateways) and sends each outcome to the director (:class:`ShadowSettler`)."""

    def __init__(self, host: DirectorHost, tournament_id: str, spec: TournamentSpec, peers: Peers) -> None:
        self.st = TournamentState(host, tournament_id, spec)
        self.windows = DealtWindows()
        self.herald = ShadowHerald(self.st, self.windows)
        self.presence = Presence(self.st, self.herald, lambda driver, seat: None)
        self.settler = ShadowSettler(self)
        self.peers = peers
        self.epoch = 0
        self.director_node = ""
        self.dealt: dict[str, int] = {}  # table -> hands dealt here (``/health``)
        self.tokens: dict[str, str] = {}  # table -> the director's token of the hand dealt there
        self.st.actor.start()

    # ------------------------------------------------------------------ what its tables need (TableOwner)
    @property
    def seated(self) -> int:
        return self.st.seated

    @seated.setter
    def seated(self, n: int) -> None:
        self.st.seated = n

    @property
    def id(self) -> str:
        return self.st.id

    @property
    def host(self) -> DirectorHost:
        return self.st.host

    @property
    def spec(self) -> TournamentSpec:
        return self.st.spec

    @property
    def settings(self) -> TableSettings:
        return self.st.settings

    @property
    def clock(self) -> Clock:
        return self.st.clock

    @property
    def actor(self) -> Actor:
        return self.st.actor

    @property
    def rng(self) -> RandomSource:
        return self.st.rng

    @property
    def bots(self) -> dict[int, BotPolicy]:
        return self.st.bots

    @property
    def notify_players(self) -> bool:
        return self.st.notify_players

    @property
    def entrants_by_id(self) -> dict[int, Entrant]:
        return self.st.entrants_by_id

    @property
    def balancer(self) -> Balancer:
        return self.st.balancer

    @property
    def tables(self) -> dict[str, TourneyTable]:
        return self.st.tables

    def auto_action(self, driver: HandDriver, seat: int) -> Action | None:
        return self.presence.auto_action(driver, seat)

    def send_table_state(self, table: TourneyTable, player_id: int) -> None:
        self.herald.send_table_state(table, player_id)

    async def hand_settled(self, table: TourneyTable, driver: FinishedHand) -> None:
        table.hand_over()  # the director decides what follows

    # ------------------------------------------------------------------ the director's messages
    def _void(self, table: TourneyTable) -> None:
        if table.driver is not None:
            table.driver.close()
            table.driver = None

    async def act(self, player_id: int, move: Move) -> dict[str, object]:
        async def run() -> dict[str, object]:
            return self.presence.act(player_id, move)

        return await self.actor.submit(run)

    async def deal(self, msg: TableDeal) -> dict[str, Any]:
        if msg.epoch < self.epoch:
            raise RoomError("fenced", f"tournament {self.id} has moved (epoch {msg.epoch} < {self.epoch})")
        if msg.epoch > self.epoch:  # a new director: every hand of the old one is void
            for old in self.tables.values():
                self._void(old)
            self.epoch = msg.epoch
        table = self.tables.get(msg.table)
        if table is not None and msg.epoch == self.epoch and msg.hand_no <= table.hand_no:
            # an older deal that arrived after a newer one (both were in flight): the director waits for the newer
            raise RoomError("stale_deal", f"table {msg.table}: hand {msg.hand_no} was dealt over already")
        self.director_node = msg.director
        self.herald.hud_sent = dict(msg.hud)
        self.windows.pool = int(msg.hud.get("prize_pool", 0))
        if table is None:
            table = self.tables[msg.table] = TourneyTable(self, msg.table)
            self.balancer.add_table(table.id, 0)
        self._void(table)
        self._seat(table, msg)
        table.button, table.big_blind, table.hand_no = msg.button, msg.big_blind, msg.hand_no - 1
        self.tokens[table.id] = msg.token
        dealt = await table.deal(Level(**msg.level))
        self.dealt[table.id] = self.dealt.get(table.id, 0) + dealt
        if dealt:
            self.herald.show_deal(table)  # every player at the table gets it as it is now, as the director's does
        driver = table.driver
        return {"dealt": dealt, "hand_id": driver.hand_id if driver else "",
                "players": dict(driver.players) if driver else {}, "button": table.button,
                "big_blind": table.big_blind}

    def _seat(self, table: TourneyTable, msg: TableDeal) -> None:
        """The table's players as the director holds them (stacks after its last recorded hand)."""
        for e in list(table.seats.values()):
            table.remove(e)
        for w in msg.seats:
            e = Entrant(w.player, w.entry_no, w.chips, w.timebank, sitting_out=w.sitting_out, sat_out=w.sat_out,
                        bounty=w.bounty)
            table.add(e, w.seat)
            self.entrants_by_id[w.player] = e
            self.st.aliases[w.player] = w.alias
            if w.rank is not None:
                self.herald.ranks[w.chips] = w.rank
            for flag, players in ((w.rebuy, self.windows.rebuy), (w.addon, self.windows.addon)):
                (players.add if flag else players.discard)(w.player)

    async def on_message(self, msg: TableVoid | TableAbandon | TableState | TableCheck) -> dict[str, Any]:
        table = self.tables.get(msg.table)
        if table is None:
            return {"table": msg.table, "playing": False}
        match msg:
            case TableCheck():  # its hand is in play (or its outcome is being delivered) under that deal
                return {"table": msg.table, "playing": self.tokens.get(table.id) == msg.token and
                        table.driver is not None}
            case TableVoid() if msg.epoch >= self.epoch:
                self._void(table)
            case TableAbandon() if msg.epoch >= self.epoch and table.driver is not None:
                table.driver.abandon(msg.seat)
            case TableState():
                e = self.entrants_by_id.get(msg.player)
                if msg.sat_out is not None and e is not None and e.sat_out != msg.sat_out:
                    await self.presence.sit_out(msg.player, msg.sat_out)  # a decision running is played now
                else:
                    self.send_table_state(table, msg.player)
        return {"table": msg.table}

    async def reconnected(self, player_id: int) -> None:
        """The player is back (R-DISC-1): a decision of theirs running here on the reconnect window goes back to the
        normal timer. Whether they sit out is the director's to say (its next deal)."""
        table = self.st.table_of(self.entrants_by_id.get(player_id))
        if table is not None and table.driver is not None:
            table.driver.player_reconnected(player_id)

    async def close(self) -> None:
        for table in self.tables.values():
            self._void(table)
        await self.actor.stop()


class TableService:
    """The tournament tables this host deals for directors on other hosts (one :class:`ShadowTables` per
    tournament), answering the messages of :mod:`riverboat.cluster.wire` "between hosts"."""

    def __init__(self, host: DirectorHost, peers: Peers, spec_of: Callable[[str], TournamentSpec | None]) -> None:
        self.host = host
        self.peers = peers
        self.spec_of = spec_of
        self.shadows: dict[str, ShadowTables] = {}

    def _shadow(self, tournament_id: str) -> ShadowTables:
        sd = self.shadows.get(tournament_id)
        if sd is None:
            spec = self.spec_of(tournament_id)
            if spec is None:
                raise RoomError("no_tournament", f"no tournament {tournament_id!r} in the cluster")
            sd = self.shadows[tournament_id] = ShadowTables(self.host, tournament_id, spec, self.peers)
        return sd

    async def handle(self, msg: TableDeal | TableVoid | TableAbandon | TableAct | TableState | TableCheck
                     ) -> dict[str, Any]:
        if isinstance(msg, TableDeal):
            sd = self._shadow(msg.tournament)
            return await sd.actor.submit(lambda: sd.deal(msg))
        found = self.shadows.get(msg.tournament)
        if found is None:
            if isinstance(msg, TableCheck):
                return {"table": msg.table, "playing": False}
            raise RoomError("no_tournament", f"no table of tournament {msg.tournament!r} here")
        shadow = found
        if isinstance(msg, TableAct):
            return await shadow.act(msg.player, msg.move)
        return await shadow.actor.submit(lambda: shadow.on_message(msg))

    def disconnected(self, player_id: int) -> None:
        """R-DISC-1: the player lost the connection; a hand dealt here in which it is their turn gives them the
        reconnect window. The director, on its own host, cannot: the hand's timer runs here (``ClusterTable``)."""
        for sd in self.shadows.values():
            if player_id in sd.entrants_by_id:
                sd.actor.post(functools.partial(sd.presence.disconnected, player_id))

    def connected(self, player_id: int) -> None:
        """The player is back: their decision running here returns to the normal timer (R-DISC-1)."""
        for sd in self.shadows.values():
            if player_id in sd.entrants_by_id:
                sd.actor.post(functools.partial(sd.reconnected, player_id))

    def dealt(self) -> dict[str, int]:
        """Hands this host dealt for other hosts' directors, by table (``/health``)."""
        return {tid: n for sd in self.shadows.values() for tid, n in sd.dealt.items()}

    async def drop(self, tournament_id: str) -> None:
        """The tournament is directed here now (or over): its shadow goes, with any hand of the old director."""
        sd = self.shadows.pop(tournament_id, None)
        if sd is not None:
            with contextlib.suppress(Exception):
                await sd.close()

    async def sweep(self, over: Callable[[str], bool]) -> None:
        """Drop the shadows of tournaments that are over (or gone from the cluster)."""
        for tid in [t for t in self.shadows if over(t)]:
            await self.drop(tid)

    async def close(self) -> None:
        for tid in list(self.shadows):
            await self.drop(tid)
