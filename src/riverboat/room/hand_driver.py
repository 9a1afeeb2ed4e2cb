"""One hand played out, for every kind of table: the :class:`HandDriver`.

A driver owns one engine :class:`~riverboat.engine.Hand` from its first event to its settlement and everything
about playing it: the decision timer and the time bank (R-TIME-1..4), the fallback actions when time runs out
(R-TIME-3 check/fold, R-TIME-4 stand pat and no raise after it, R-DISC-1 reconnect window, R-AAI artificial all-in,
R-AUTODRAW-1 automatic draw), players who left the hand (fold at their turn), the relay of every event to whoever
may see it (R-GEN-5), and the settlement with retry (R-SERVER: settling is idempotent in the store).

The table that owns the hand (a cash table, a Speed Poker pool, a tournament or Twister table) keeps what is its
own -- seats, button, buy-ins, queues -- and talks to the driver through two small interfaces:

- :class:`HandHost`, implemented by the table: its clock and actor, who is connected, who holds a seat of this hand
  now (``participant``: the object whose ``timebank`` the driver reads and writes), who hears the hand's events
  (``audience``), what to tell the player whose turn it is (``on_turn``) and what to do once the hand is settled
  (``on_settled``);
- :class:`Settler`, chosen by the table: the rake rule of the hand and how its result moves money (a cash table
  through the ledger with rake; a tournament in tournament chips without rake, R-RAKE-12).

and one value, :class:`HandRules`: the table's timer settings, the disconnection policy, the R-AAI allowance and an
optional ``auto`` hook that acts at once for a seat instead of starting its timer (a tournament player sitting
out, R-SITOUT-1; Wild Twister, R-WILD-2).

Every method runs inside the owning table's actor (single writer); timers post back into that actor.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from riverboat.cards import Card
from riverboat.engine import AGGRESSIVE, Action, ActionKind, Hand, HandConfig, IllegalAction, RakeRule
from riverboat.engine.events import Event as EngineEventObject
from riverboat.engine.views import HandView
from riverboat.room.actor import Actor
from riverboat.room.autodraw import autodraw_27, autodraw_high
from riverboat.room.clock import Clock, TimerHandle
from riverboat.room.disconnect import AaiAllowance, AutoAction, aai_applies, auto_action
from riverboat.room.errors import RoomError
from riverboat.room.exposure import exposed_hands, runout_start, streets
from riverboat.room.frames import (
    Address,
    ArtificialAllinEvent,
    AutoDrawEvent,
    ExposedEvent,
    RoomFrame,
    TableEvent,
    TimebankEvent,
    TimedOutEvent,
    TurnEvent,
)
from riverboat.room.move import Move
from riverboat.room.settings import TableSettings
from riverboat.room.timers import (
    DecisionTimer,
    Phase,
    bank_used,
    on_disconnect,
    on_expiry,
    on_reconnect,
    refill,
)
from riverboat.room.timers import start_decision as new_decision

log = logging.getLogger("riverboat.room")
SETTLE_RETRY_SECONDS = 5.0

#: Actions that count as "has bet" for the time bank (R-TIME-2 reading): forced posts do not.
VOLUNTARY = frozenset(
    {ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BRING_IN, ActionKind.STRADDLE}
)
#: What the table does for a player who cannot decide (R-TIME-3 reading: check if free; the votes say no).
_FALLBACK_ORDER = (ActionKind.CHECK, ActionKind.FOLD, ActionKind.STAND_PAT, ActionKind.RUN_ONCE,
                   ActionKind.DECLINE_SPLIT, ActionKind.BRING_IN)


class Participant(Protocol):
    """A player holding a seat of a hand, as the owning table keeps them (a cash seat, a pool player...)."""

    player_id: int
    timebank: float


class HandHost(Protocol):
    """What a :class:`HandDriver` needs from the table that owns its hand."""

    @property
    def clock(self) -> Clock: ...

    @property
    def actor(self) -> Actor: ...

    def is_connected(self, player_id: int) -> bool: ...

    def send(self, player_id: int, message: RoomFrame) -> None: ...

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None:
        """``send`` to each of ``player_ids`` (one public frame object for all of them)."""
        ...

    def participant(self, player_id: int) -> Participant | None:
        """The player as the table knows them now; None once they are gone from the table."""
        ...

    def audience(self, driver: HandDriver) -> Iterable[tuple[int, int | None]]:
        """Who receives this hand's events: ``(player_id, seat)`` with the seat the player holds in this hand
        (their private events reach them) or None (public events only: spectators, other players)."""
        ...

    def on_turn(self, driver: HandDriver, seat: int, player_id: int) -> None:
        """A decision has come to ``seat``: tell its player (the table's own view or prompt)."""
        ...

    async def on_settled(self, driver: HandDriver) -> None:
        """The hand is over and settled: update stacks, deal the next hand..."""
        ...


class Settler(Protocol):
    """How a hand's money moves (the table chooses it). ``rake`` is the rake rule the hand is built with (None: no
    rake). ``open`` runs before the hand is played (a refusal there means the hand never happened); ``settle``
    after it is over: it must be idempotent (it is retried after a failure, SETTLE_RETRY_SECONDS later)."""

    rake: RakeRule | None

    async def open(self, driver: HandDriver) -> None: ...

    async def settle(self, driver: HandDriver) -> None: ...


AutoHook = Callable[["HandDriver", int], Action | None]


@dataclass(frozen=True, slots=True)
class HandRules:
    """The table's rules for playing a hand out.

    ``settings``: timers, time bank, disconnection and autodraw settings of the table. ``aai``: the room's
    R-AAI-2 allowance (None: never an artificial all-in). ``play_money``: R-AAI-4 (no artificial all-in).
    ``auto(driver, seat)``: return an action to play at once for ``seat`` instead of starting its timer (None: the
    player decides).
    """

    settings: TableSettings
    aai: AaiAllowance | None = None
    play_money: bool = False
    auto: AutoHook | None = None


def audience_once(audience: Iterable[tuple[int, int | None]]) -> dict[int, int | None]:
    """Each player of an audience once, with their seat if any entry gives one (issue #31: a seated player who
    also watches the table is listed twice, and got every public event twice on one connection, in one process and
    through a cluster's gateway alike: every table kind's events go through here)."""
    once: dict[int, int | None] = {}
    for pid, seat in audience:
        if once.get(pid) is None:
            once[pid] = seat
    return once


def fallback_kind(kinds: frozenset[ActionKind]) -> ActionKind:
    """The action the table takes for a player who cannot decide: check if free, else fold (or the vote's no)."""
    for k in _FALLBACK_ORDER:
        if k in kinds:
            return k
    return sorted(kinds, key=lambda k: k.value)[0]


def fold_kind(kinds: frozenset[ActionKind]) -> ActionKind:
    """A player who left the hand: fold when folding is possible, else the fallback."""
    return ActionKind.FOLD if ActionKind.FOLD in kinds else fallback_kind(kinds)


def event_record(event: EngineEventObject) -> dict[str, Any]:
    """An engine event as the store keeps it (with who may see it)."""
    return event.to_dict() | {"visible_to": sorted(event.visible_to) if event.visible_to is not None else None}


class HandDriver:
    """Plays one hand out for its :class:`HandHost`. Build it with :meth:`deal`, then ``await open()`` (the
    settler's opening; nothing has happened if it raises) and ``play()``.

    ``address`` says where its frames go: :class:`~riverboat.room.frames.TableAddress` at a table,
    :class:`~riverboat.room.frames.PoolHandAddress` for a Speed Poker hand.
    """

    def __init__(self, host: HandHost, hand: Hand, hand_id: str, players: Mapping[int, int],
                 address: Address, settler: Settler, rules: HandRules) -> None:
        self.host = host
        self.hand = hand
        self.hand_id = hand_id
        self.players: dict[int, int] = dict(players)  # seat -> player id, for the whole hand
        self.address = address
        self.settler = settler
        self.rules = rules
        self.has_bet: set[int] = set()
        self.no_raise: dict[int, int] = {}  # seat -> street whose betting round it may not bet/raise in (R-TIME-4)
        self.gone: set[int] = set()  # seats whose player left the hand: they fold at their turn
        self.decision: DecisionTimer | None = None
        self.settled = False
        self.closed = False
        self._timer: TimerHandle | None = None
        self._token = 0
        self._sent = 0  # events already relayed
        self._runout: list[list[EngineEventObject]] = []  # the streets of an all-in run-out still to deal
        self._runout_timer: TimerHandle | None = None
        self._flop_players: int | None = None

    @classmethod
    def deal(cls, host: HandHost, config: HandConfig, hand_id: str, players: Mapping[int, int],
             address: Address, settler: Settler, rules: HandRules) -> HandDriver:
        """Build the engine hand (pure: nothing has moved yet) with the settler's rake rule."""
        hand = Hand(replace(config, rake=settler.rake))
        return cls(host, hand, hand_id, players, address, settler, rules)

    # ------------------------------------------------------------------ queries
    @property
    def now(self) -> float:
        return self.host.clock.now()

    def seat_of(self, player_id: int) -> int | None:
        for seat, pid in self.players.items():
            if pid == player_id:
                return seat
        return None

    @property
    def players_at_flop(self) -> int:
        """Players still in when the first three community cards were dealt (0 if none were: lobby statistics)."""
        return self._flop_players or 0

    def restricted(self, seat: int) -> bool:
        """R-TIME-4: a player who stood pat on the draw timer may not bet or raise in the next betting round."""
        hand = self.hand
        street = self.no_raise.get(seat)
        if street is None or hand.street != street or hand.to_act != seat:
            return False
        kinds = hand.legal_actions().kinds
        return ActionKind.DRAW not in kinds and ActionKind.STAND_PAT not in kinds

    def view(self, seat: int | None) -> HandView:
        """The engine's view for ``seat`` (None: a spectator) with the legal actions this table allows: after a
        draw timeout (R-TIME-4) no bet or raise, and no amounts for them."""
        out = self.hand.view(seat)
        legal = out.get("legal")
        if legal is not None and self.restricted(legal["seat"]):
            legal["kinds"] = [k for k in legal["kinds"] if ActionKind(k) not in AGGRESSIVE]
            legal["min_to"] = legal["max_to"] = 0
            legal["allowed_to"] = []
        return out

    # ------------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        await self.settler.open(self)

    def play(self) -> None:
        """Relay what the deal produced and start the first decision (or finish a hand that needs none)."""
        self._after_change()

    def close(self) -> None:
        """The table closes: no more timers (the hand is voided by the room, R-SERVER)."""
        self.closed = True
        self._cancel_decision()
        if self._runout_timer is not None:
            self._runout_timer.cancel()
            self._runout_timer = None

    # ------------------------------------------------------------------ commands from the table
    def act(self, seat: int, move: Move) -> None:
        """The player of ``seat`` makes ``move``. Refused (nothing changes) with ``RoomError`` when it is not legal."""
        hand = self.hand
        if hand.is_over or self.players.get(seat) is None:
            raise RoomError("not_your_turn", "you are not in a hand at this table")
        if hand.to_act != seat:
            raise RoomError("not_your_turn", f"it is seat {hand.to_act}'s turn, not yours (seat {seat})")
        action = move.action(seat)
        if action.kind in AGGRESSIVE and self.restricted(seat):
            raise RoomError("illegal_action", "you did not draw in time, so you may not bet or raise in this "
                                              "betting round (R-TIME-4)")
        self._apply(action, manual=True)

    def abandon(self, seat: int) -> None:
        """The player of ``seat`` left the hand (left the table, speed-folded): they fold at their turn (now if it
        is their turn)."""
        self.gone.add(seat)
        hand = self.hand
        if not hand.is_over and hand.to_act == seat:
            self._fold_gone(seat)

    def player_disconnected(self, player_id: int) -> None:
        """R-DISC-1: the player whose turn it is lost the connection: a betting player who has bet gets the
        reconnect window."""
        timer = self.decision
        if timer is not None and self.players.get(timer.seat) == player_id:
            on_disconnect(self.rules.settings, timer, self.now)
            self._schedule()

    def player_reconnected(self, player_id: int) -> None:
        timer = self.decision
        if timer is not None and self.players.get(timer.seat) == player_id:
            on_reconnect(timer)

    # ------------------------------------------------------------------ playing
    def _apply(self, action: Action, *, manual: bool) -> None:
        try:
            self.hand.act(action)
        except IllegalAction as exc:
            raise RoomError("illegal_action", str(exc)) from None
        if action.kind in VOLUNTARY:
            self.has_bet.add(action.seat)
        timer = self.decision
        if manual and timer is not None and timer.seat == action.seat:
            p = self.host.participant(self.players[action.seat])
            if p is not None:
                p.timebank = max(0.0, p.timebank - bank_used(timer, self.now))
        self._after_change()

    def _after_change(self) -> None:
        """Relay the new events, then either finish the hand or start the next decision."""
        self._relay()
        if self.closed:
            return
        if self.hand.is_over:
            self._cancel_decision()
            if not self._runout:  # else the run-out's last street finishes the hand
                self.host.actor.post(self._finish)
            return
        self._next_decision()

    def _fold_gone(self, seat: int) -> None:
        self._apply(Action(seat, fold_kind(self.hand.legal_actions().kinds)), manual=False)

    def _next_decision(self) -> None:
        hand = self.hand
        seat = hand.to_act
        self._cancel_decision()
        if seat is None:
            return
        pid = self.players[seat]
        if seat in self.gone or self.host.participant(pid) is None:
            self._fold_gone(seat)
            return
        auto = self.rules.auto
        if auto is not None:
            action = auto(self, seat)
            if action is not None:
                self._apply(action, manual=False)
                return
        kinds = hand.legal_actions().kinds
        self.decision = new_decision(
            self.rules.settings, seat=seat, is_draw=ActionKind.DRAW in kinds or ActionKind.STAND_PAT in kinds,
            has_bet=seat in self.has_bet, connected=self.host.is_connected(pid), now=self.now,
        )
        self._schedule()
        self._turn(self.decision)
        self.host.on_turn(self, seat, pid)

    # ------------------------------------------------------------------ timer
    def _cancel_decision(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.decision = None
        self._token += 1

    def _schedule(self) -> None:
        timer = self.decision
        if timer is None:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._token += 1
        token = self._token

        async def fire() -> None:
            await self._on_deadline(token)

        actor = self.host.actor
        self._timer = self.host.clock.call_later(timer.remaining(self.now), lambda: actor.post(fire))

    async def _on_deadline(self, token: int) -> None:
        timer = self.decision
        hand = self.hand
        if token != self._token or timer is None or hand.is_over or hand.to_act != timer.seat:
            return
        pid = self.players[timer.seat]
        p = self.host.participant(pid)
        if p is None:
            self._fold_gone(timer.seat)
            return
        connected = self.host.is_connected(pid)
        if on_expiry(timer, connected=connected, bank=p.timebank, now=self.now):
            self._public(TimebankEvent(kind="timebank", seat=timer.seat, seconds=round(p.timebank, 3),
                                       rule="R-TIME-2"))
            self._schedule()
            self._turn(timer)
            return
        if timer.phase is Phase.TIMEBANK:
            p.timebank = 0.0
        self._time_out(timer.seat, pid, connected)

    # ------------------------------------------------------------------ fallback actions
    def _time_out(self, seat: int, player_id: int, connected: bool) -> None:
        """The decision timer ran out: R-TIME-4 / R-AUTODRAW-1 on a draw, the bring-in when nothing else is
        possible, else R-AAI-1 / R-TIME-3 / R-DISC-1 (check if free, else fold)."""
        hand = self.hand
        legal = hand.legal_actions()
        kinds = legal.kinds
        if ActionKind.DRAW in kinds or ActionKind.STAND_PAT in kinds:
            self._draw_timeout(seat, legal.max_discards, connected)
            return
        if ActionKind.CHECK not in kinds and ActionKind.FOLD not in kinds:
            kind = fallback_kind(kinds)
            self._apply(Action(seat, kind, legal.bring_in if kind is ActionKind.BRING_IN else 0), manual=False)
            return
        if not connected and self._artificial_allin(seat, player_id):
            return
        kind = ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.FOLD
        self._public(TimedOutEvent(kind="timed_out", seat=seat, action=kind.value,
                                   rule="R-TIME-3" if connected else "R-DISC-1"))
        self._apply(Action(seat, kind), manual=False)

    def _draw_timeout(self, seat: int, max_discards: int, connected: bool) -> None:
        hand = self.hand
        discards: list[Card] = [] if connected else self._autodraw(seat, max_discards)  # R-AUTODRAW-1
        action = Action(seat, ActionKind.DRAW if discards else ActionKind.STAND_PAT, 0,
                        tuple(int(c) for c in discards))
        if connected:
            self._public(TimedOutEvent(kind="timed_out", seat=seat, discards=0, rule="R-TIME-4"))
        else:
            self._public(AutoDrawEvent(kind="auto_draw", seat=seat, discards=len(discards), rule="R-AUTODRAW-1"))
        self.no_raise[seat] = hand.street
        self._apply(action, manual=False)

    def _autodraw(self, seat: int, max_discards: int) -> list[Card]:
        hand = self.hand
        cards = list(hand.cards[hand.seats.index(seat)])
        if "LOW_27" in hand.game.rankings:
            return autodraw_27(cards, max_discards=max_discards)
        min_rank = min(int(c.rank) for c in hand.game.deck.cards)
        return autodraw_high(cards, min_rank=min_rank, max_discards=max_discards,
                             priority_one=self.rules.settings.autodraw_priority_one)

    def _artificial_allin(self, seat: int, player_id: int) -> bool:
        """R-AAI-1: a disconnected player with money in the pot is all-in for it, while the R-AAI-2 allowance
        lasts and the game allows it (R-AAI-4). True if it was applied."""
        rules = self.rules
        hand = self.hand
        if rules.aai is None:
            return False
        committed = hand.total[hand.seats.index(seat)]
        possible = aai_applies(rules.settings.disconnect_policy, structure=hand.structure.value,
                               play_money=rules.play_money)
        wall = self.host.clock.wall()
        decision = auto_action(connected=False, can_check=ActionKind.CHECK in hand.legal_actions().kinds,
                               committed=committed, aai_possible=possible,
                               aai_available=rules.aai.available(player_id, wall))
        if decision is not AutoAction.ARTIFICIAL_ALLIN:
            return False
        try:
            hand.artificial_allin(seat)
        except IllegalAction:  # e.g. not a betting decision: the ordinary check/fold applies
            return False
        rules.aai.use(player_id, wall)
        self._public(ArtificialAllinEvent(kind="artificial_allin", seat=seat, committed=committed, rule="R-AAI-1"))
        self._after_change()
        return True

    # ------------------------------------------------------------------ relaying
    def _turn(self, timer: DecisionTimer) -> None:
        t = timer.to_dict(self.now)
        self._public(TurnEvent(kind="turn", seat=t["seat"], phase=t["phase"], remaining=t["remaining"]))

    def _public(self, event: TableEvent) -> None:
        """A table event about this hand (turn, time bank, timed out...) for its whole audience."""
        frame = self.address.event(event)
        self.host.send_many(list(audience_once(self.host.audience(self))), frame)

    def relay_pending(self) -> None:
        """Send the hand's events not relayed yet (the table calls it before building a view that includes them;
        a paced run-out is dealt at once then, so the view and the events agree)."""
        self._relay()
        while self._runout:
            self._send(self._runout.pop(0))

    def _relay(self) -> None:
        hand = self.hand
        new = hand.events[self._sent:]
        self._sent = len(hand.events)
        if not new:
            return
        if self._flop_players is None and len(hand.board) >= 3:
            for ev in new:
                if ev.kind == "board":
                    self._flop_players = hand.folded.count(False)
                    break
        start = runout_start(new)
        hands = exposed_hands(hand.events[:len(hand.events) - len(new) + start], new) if start is not None else {}
        if start is None or not hands:
            self._send(new)
            return
        # R-SHOW-4 reading: the hands go face up before the run-out, which is dealt street by street
        self._send(new[:start])
        self._public(ExposedEvent(kind="exposed", hands=hands, rule="R-SHOW-4"))
        self._runout = streets(new[start:])
        self._deal_runout()

    def _deal_runout(self, paced: bool = False) -> None:
        """Deal an all-in run-out: at once without a pause (``_after_change`` settles the hand), else one street
        per ``allin_runout_seconds`` after the hands went face up, and after the last street (with the showdown)
        the hand is settled."""
        pause = self.rules.settings.allin_runout_seconds
        if pause <= 0:
            while self._runout:
                self._send(self._runout.pop(0))
            return
        if paced and self._runout:
            self._send(self._runout.pop(0))
        if self._runout:
            actor = self.host.actor

            async def next_street() -> None:
                self._runout_timer = None
                if not self.closed:
                    self._deal_runout(paced=True)

            self._runout_timer = self.host.clock.call_later(pause, lambda: actor.post(next_street))
        elif paced and self.hand.is_over:
            self.host.actor.post(self._finish)

    def _send(self, events: list[EngineEventObject]) -> None:
        if not events:
            return
        event_frame = self.address.event
        audience = list(audience_once(self.host.audience(self)).items())
        send_many = self.host.send_many
        for ev in events:  # each event once to all who may see it: every player's events keep their order
            frame = event_frame(ev.to_dict())
            send_many([pid for pid, seat in audience if ev.visible(seat)], frame)

    # ------------------------------------------------------------------ settling
    async def _finish(self) -> None:
        if self.settled or self.closed or not self.hand.is_over:
            return
        try:
            await self.settler.settle(self)
        except Exception:
            # nothing has changed here and settling is idempotent in the store: try again shortly; until then the
            # table does not go on (and after a crash the store voids the hand, R-SERVER)
            log.exception("%s: settling hand %s failed; retrying in %s s", self.address, self.hand_id,
                          SETTLE_RETRY_SECONDS)
            actor = self.host.actor
            self.host.clock.call_later(SETTLE_RETRY_SECONDS, lambda: actor.post(self._finish))
            return
        self.settled = True
        settings = self.rules.settings
        for pid in self.players.values():  # R-TIME-3 reading: the time bank grows after each hand dealt in
            p = self.host.participant(pid)
            if p is not None:
                p.timebank = refill(settings, p.timebank)
        await self.host.on_settled(self)


def stack_changes(driver: HandDriver) -> dict[int, int]:
    """player id -> chips won (+) or lost (-) in the finished hand."""
    result = driver.hand.result
    assert result is not None
    return {driver.players[s]: net for s, net in result.net.items()}
