"""A cash table: the single-writer actor that seats players, deals hands through the engine, runs the timers and
settles every hand through the store.

Everything that changes a table runs inside its :class:`~riverboat.room.actor.Actor`. Rules handled here:
R-CASH-2/3 (seats, leaving), R-BUYIN (buy-in, top-up between hands), R-TABLE-3 / R-BLIND / R-NEWPLAYER / R-MISSED
(through :mod:`riverboat.room.blinds`), R-TIME (through :mod:`riverboat.room.timers`), R-DISC / R-AAI /
R-AUTODRAW (disconnected players), R-SITOUT (sit-out, 7-minute eviction), R-RAKE (the engine's rake hook fed by
:mod:`riverboat.room.rake`), R-HORSE-3 / R-8GAME-3 (mixed rotation) and R-SERVER (``start_hand`` before the deal,
``settle_hand`` in one transaction after it).
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from riverboat.cards import Card, RandomSource
from riverboat.engine import AGGRESSIVE, Action, ActionKind, Hand, HandConfig, IllegalAction, RakeContext
from riverboat.engine import Settings as EngineSettings
from riverboat.games import Game, Kind, Rotation, Stakes, Structure, get_game
from riverboat.room.actor import Actor
from riverboat.room.autodraw import autodraw_27, autodraw_high
from riverboat.room.blinds import BlindPlan, SeatStatus, clockwise_after, missed_blinds, on_arc, plan_blinds
from riverboat.room.clock import Clock, TimerHandle
from riverboat.room.disconnect import AaiAllowance, AutoAction, aai_applies, auto_action
from riverboat.room.errors import RoomError
from riverboat.room.gateway import StoreGateway
from riverboat.room.history_text import hand_history_text
from riverboat.room.rake import compute_rake, get_schedule
from riverboat.room.seating import SeatState, check_buy_in, check_int_amount, check_seat
from riverboat.room.settings import TableSettings, TableSpec
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

VOLUNTARY = frozenset(
    {ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BRING_IN, ActionKind.STRADDLE}
)


class TableHost(Protocol):
    """What a table needs from its room."""

    clock: Clock
    rng: RandomSource
    gateway: StoreGateway
    aai: AaiAllowance

    def is_connected(self, player_id: int) -> bool: ...

    def send(self, player_id: int, message: dict[str, Any]) -> None: ...

    def seated(self, player_id: int, table_id: str) -> None: ...

    async def alias_of(self, player_id: int) -> str | None: ...

    def unseated(self, player_id: int, table_id: str) -> None: ...


def parse_kind(kind: object) -> ActionKind:
    try:
        if not isinstance(kind, str):
            raise ValueError(kind)
        return ActionKind(kind)
    except ValueError:
        allowed = ", ".join(k.value for k in ActionKind)
        raise RoomError("illegal_action", f"unknown action {kind!r}; actions are: {allowed}") from None


def build_action(seat: int, kind: object, amount: object, cards: object) -> Action:
    """Turn a client command into an engine :class:`Action`; malformed input raises ``RoomError``."""
    k = parse_kind(kind)
    amt = 0
    if amount is not None:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise RoomError("bad_amount", f"amount must be an integer number of minor units, got {amount!r}")
        amt = amount
    if k is ActionKind.CALL:
        amt = 0
    card_tuple: tuple[int, ...] = ()
    if cards is not None:
        if isinstance(cards, str):
            cards = cards.split()
        if not isinstance(cards, list | tuple):
            raise RoomError("illegal_action", "cards must be a list of cards such as ['Ah', 'Td']")
        try:
            card_tuple = tuple(int(Card(c)) for c in cards)
        except (ValueError, TypeError) as exc:
            raise RoomError("illegal_action", f"bad card: {exc}") from None
    if k is ActionKind.DRAW and not card_tuple:
        k = ActionKind.STAND_PAT
    return Action(seat, k, amt, card_tuple)


def stakes_for(spec: TableSpec, game: Game, structure: Structure) -> Stakes:
    """The engine stakes of one hand; a mixed table's antes apply only to its stud games."""
    small_bet = spec.small_bet or spec.big_blind
    big_bet = spec.big_bet or 2 * small_bet
    if game.kind is Kind.STUD:
        ante = spec.ante
        bring_in = spec.bring_in or (2 * ante if ante else max(1, small_bet // 4))
        return Stakes(ante=ante, bring_in=min(bring_in, small_bet), small_bet=small_bet, big_bet=big_bet,
                      spread=tuple(spec.spread))
    return Stakes(
        small_blind=spec.small_blind,
        big_blind=spec.big_blind,
        ante=0 if spec.mixed else spec.ante,
        small_bet=small_bet if structure is Structure.FIXED_LIMIT else 0,
        big_bet=big_bet if structure is Structure.FIXED_LIMIT else 0,
        spread=tuple(spec.spread),
    )


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
        self.seats: dict[int, SeatState] = {}
        self.watchers: set[int] = set()
        self.hand: Hand | None = None
        self.hand_id: str | None = None
        self.hand_players: dict[int, int] = {}  # seat -> player id of the hand in progress
        self.hand_no = 0
        self.button: int | None = None
        self.prev_plan: BlindPlan | None = None
        self.orbit_start: int | None = None
        self.has_bet: set[int] = set()
        self.no_raise: dict[int, int] = {}  # seat -> street whose betting round it may not bet/raise in (R-TIME-4)
        self.decision: DecisionTimer | None = None
        self._decision_timer: TimerHandle | None = None
        self._decision_token = 0
        self._deal_timer: TimerHandle | None = None
        self._deal_pending = False
        self._sent = 0  # events of the current hand already relayed
        self._flop_seen: int | None = None
        self.stats: deque[tuple[int, int, int]] = deque(maxlen=50)  # (pot, players dealt, players who saw a flop)
        self.closed = False

    # ------------------------------------------------------------------ helpers
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
            raise RoomError("not_seated", f"player {player_id} is not seated at table {self.id}")
        return st

    def in_hand(self, st: SeatState) -> bool:
        """Dealt into the hand in progress (even if folded: the store settles them with the hand)."""
        return self.hand is not None and self.hand_players.get(st.seat) == st.player_id

    def _idem(self, what: str, player_id: int) -> str:
        return f"{what}:{self.id}:{player_id}:{secrets.token_hex(8)}"

    # ------------------------------------------------------------------ publishing
    def audience(self) -> set[int]:
        return {st.player_id for st in self.seats.values()} | self.watchers

    def view_for(self, player_id: int | None) -> dict[str, Any]:
        st = self.seat_of(player_id) if player_id is not None else None
        my_seat = st.seat if st is not None else None
        hand_view = None
        if self.hand is not None:
            hand_seat = my_seat if my_seat is not None and self.hand_players.get(my_seat) == player_id else None
            hand_view = self.hand.view(hand_seat)
            legal = hand_view.get("legal")
            if legal is not None and self._restricted(legal["seat"]):
                legal["kinds"] = [k for k in legal["kinds"] if ActionKind(k) not in AGGRESSIVE]
        game, structure = self.game_now()
        out: dict[str, Any] = {
            "table": self.info_header(),
            "game": game.id,
            "structure": structure.value,
            "seats": [self.seats[s].public(self.host.is_connected(self.seats[s].player_id)) for s in sorted(self.seats)],
            "button": self.button,
            "hand_id": self.hand_id,
            "hand": hand_view,
            "timer": self.decision.to_dict(self.now) if self.decision is not None else None,
            "you": None,
        }
        if st is not None:
            out["you"] = {
                "seat": st.seat,
                "stack": st.stack,
                "timebank": round(st.timebank, 3),
                "sitting_out": st.sitting_out,
                "owes_bb": st.owes_bb,
                "missed_sb": st.missed_sb,
                "post_now": st.post_now,
                "leaving": st.leaving,
                "pending_top_up": st.pending_top_up,
            }
        return out

    def info_header(self) -> dict[str, Any]:
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
        self.host.send(player_id, {"type": "table_state", "table": self.id, "view": self.view_for(player_id)})

    def broadcast_state(self) -> None:
        for pid in self.audience():
            self.send_state(pid)

    def table_event(self, kind: str, **data: Any) -> None:
        event = {"kind": kind, **data}
        for pid in self.audience():
            self.host.send(pid, {"type": "event", "table": self.id, "event": event})

    def _relay_hand_events(self) -> None:
        hand = self.hand
        if hand is None:
            return
        new = hand.events[self._sent :]
        self._sent = len(hand.events)
        if not new:
            return
        for ev in new:
            if ev.kind == "board" and self._flop_seen is None and len(hand.board) >= 3:
                self._flop_seen = sum(1 for f in hand.folded if not f)
        seat_of_player = {st.player_id: st.seat for st in self.seats.values()}
        frames = [(ev, {"type": "event", "table": self.id, "event": ev.to_dict()}) for ev in new]
        for pid in self.audience():
            seat = seat_of_player.get(pid)
            if seat is not None and self.hand_players.get(seat) != pid:
                seat = None
            for ev, frame in frames:
                if ev.visible(seat):
                    self.host.send(pid, frame)

    # ------------------------------------------------------------------ commands (run inside the actor)
    async def sit(self, player_id: int, seat: object, buy_in: object, wait_for_bb: bool = True) -> dict[str, Any]:
        if self.seat_of(player_id) is not None:
            raise RoomError("already_seated", f"player {player_id} already has a seat at table {self.id}")
        seat_no = check_seat(seat, self.spec.max_seats, self.seats)
        amount = check_buy_in(buy_in, self.spec.min_buy_in, self.spec.max_buy_in)
        await self.host.gateway.call(
            self.host.gateway.ledger.buy_in,
            player_id,
            self.id,
            amount,
            self._idem("buy_in", player_id),
            currency=self.spec.currency,
            min_buy_in=self.spec.min_buy_in,
            max_buy_in=self.spec.max_buy_in,
        )
        st = SeatState(seat_no, player_id, amount, timebank=self.settings.timebank_seconds)
        st.alias = await self.host.alias_of(player_id)
        st.owes_bb = True  # R-NEWPLAYER-1; a starting table deals everyone in free (blinds.plan_blinds)
        st.post_now = not wait_for_bb
        self.seats[seat_no] = st
        self.host.seated(player_id, self.id)
        self.table_event("seated", seat=seat_no, player=player_id, alias=st.alias, stack=amount)
        self.broadcast_state()
        self._maybe_deal(soon=True)
        return {"table": self.id, "seat": seat_no, "stack": amount}

    async def act(self, player_id: int, kind: object, amount: object = None, cards: object = None) -> dict[str, Any]:
        st = self._need_seat(player_id)
        hand = self.hand
        if hand is None or hand.is_over or not self.in_hand(st):
            raise RoomError("not_your_turn", "you are not in a hand at this table")
        if hand.to_act != st.seat:
            raise RoomError("not_your_turn", f"it is seat {hand.to_act}'s turn, not yours (seat {st.seat})")
        action = build_action(st.seat, kind, amount, cards)
        if action.kind in AGGRESSIVE and self._restricted(st.seat):
            raise RoomError("illegal_action", "you did not draw in time, so you may not bet or raise in this "
                                              "betting round (R-TIME-4)")
        self._apply(action, manual=True)
        return {"ok": True}

    def _restricted(self, seat: int) -> bool:
        """R-TIME-4: a player who stood pat on the draw timer may not bet or raise in the next betting round."""
        hand = self.hand
        street = self.no_raise.get(seat)
        if hand is None or street is None or hand.street != street:
            return False
        kinds = hand.legal_actions().kinds if hand.to_act == seat else frozenset()
        return ActionKind.DRAW not in kinds and ActionKind.STAND_PAT not in kinds

    def _apply(self, action: Action, *, manual: bool) -> None:
        hand = self.hand
        assert hand is not None
        try:
            hand.act(action)
        except IllegalAction as exc:
            raise RoomError("illegal_action", str(exc)) from None
        if action.kind in VOLUNTARY:
            self.has_bet.add(action.seat)
        timer = self.decision
        if manual and timer is not None and timer.seat == action.seat:
            st = self.seats.get(action.seat)
            if st is not None:
                st.timebank = max(0.0, st.timebank - bank_used(timer, self.now))
        self._after_change()

    def _after_change(self) -> None:
        """Relay the new events, then either finish the hand or arm the next decision's timer."""
        self._relay_hand_events()
        hand = self.hand
        if hand is None:
            return
        if hand.is_over:
            self._cancel_decision()
            self.actor.post(self._finish_hand)
            return
        self._arm_decision()

    async def sit_out(self, player_id: int, *, reason: str = "player") -> dict[str, Any]:
        """R-SITOUT: no blinds from the next hand on; evicted after ``sitout_evict_seconds`` (R-SITOUT-3)."""
        st = self._need_seat(player_id)
        if not st.sitting_out:
            st.sitting_out = True
            st.sitout_since = self.now
            st.post_now = False
            self._arm_eviction(st)
            self.table_event("sat_out", seat=st.seat, player=player_id, reason=reason)
            self.broadcast_state()
        return {"table": self.id, "sitting_out": True}

    async def sit_in(self, player_id: int, post: bool = False) -> dict[str, Any]:
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
        self.table_event("sat_in", seat=st.seat, player=player_id, post=st.post_now)
        self.broadcast_state()
        self._maybe_deal(soon=True)
        return {"table": self.id, "sitting_out": False, "owes_bb": st.owes_bb, "missed_sb": st.missed_sb}

    async def leave(self, player_id: int) -> dict[str, Any]:
        """R-CASH-3: leave at any time; the stack goes back to the balance (after the hand if dealt in)."""
        st = self._need_seat(player_id)
        if self.in_hand(st):
            st.leaving = True
            hand = self.hand
            if hand is not None and not hand.is_over and hand.to_act == st.seat:
                self._auto_fold_leaver(hand, st.seat)
            self.table_event("leaving", seat=st.seat, player=player_id)
            return {"table": self.id, "pending": True, "cashed_out": None}
        amount = await self._cash_out(st)
        return {"table": self.id, "pending": False, "cashed_out": amount}

    async def top_up(self, player_id: int, amount: object) -> dict[str, Any]:
        """R-BUYIN-1: chips are added between hands only (table stakes); during a hand the top-up waits."""
        st = self._need_seat(player_id)
        value = check_int_amount(amount, "top-up")
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
            return {"table": self.id, "pending": True, "stack": st.stack}
        await self._do_top_up(st, value)
        self._maybe_deal(soon=True)
        return {"table": self.id, "pending": False, "stack": st.stack}

    async def _do_top_up(self, st: SeatState, value: int) -> None:
        await self.host.gateway.call(
            self.host.gateway.ledger.top_up,
            st.player_id,
            self.id,
            value,
            self._idem("top_up", st.player_id),
            currency=self.spec.currency,
            max_buy_in=self.spec.max_buy_in,
        )
        st.stack += value
        self.table_event("topped_up", seat=st.seat, player=st.player_id, stack=st.stack)
        self.broadcast_state()

    async def disconnected(self, player_id: int) -> None:
        """R-DISC-3: a cash player who loses the connection is sat out (the current hand goes on, on timers)."""
        st = self.seat_of(player_id)
        if st is None:
            self.watchers.discard(player_id)
            return
        if self.decision is not None and self.decision.seat == st.seat:
            on_disconnect(self.settings, self.decision, self.now)
            self._schedule_decision_timer()
        await self.sit_out(player_id, reason="disconnected")

    async def reconnected(self, player_id: int) -> None:
        st = self.seat_of(player_id)
        if st is not None and self.decision is not None and self.decision.seat == st.seat:
            on_reconnect(self.decision)
        if st is not None or player_id in self.watchers:
            self.send_state(player_id)

    async def watch(self, player_id: int) -> dict[str, Any]:
        """A spectator: the public view now, then every public frame of the table (``audience``)."""
        self.watchers.add(player_id)
        self.send_state(player_id)
        return {"table": self.id, "watching": True}

    async def unwatch(self, player_id: int) -> dict[str, Any]:
        self.watchers.discard(player_id)
        return {"table": self.id, "watching": False}

    # ------------------------------------------------------------------ money out
    async def _cash_out(self, st: SeatState) -> int:
        amount = await self.host.gateway.call(
            self.host.gateway.ledger.cash_out,
            st.player_id,
            self.id,
            self._idem("cash_out", st.player_id),
            currency=self.spec.currency,
        )
        if st.evict_timer is not None:
            st.evict_timer.cancel()
        del self.seats[st.seat]
        self.host.unseated(st.player_id, self.id)
        self.table_event("left", seat=st.seat, player=st.player_id, cashed_out=amount)
        self.host.send(st.player_id, {"type": "event", "table": self.id,
                                      "event": {"kind": "left", "seat": st.seat, "cashed_out": amount}})
        self.broadcast_state()
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
            self.table_event("evicted", seat=cur.seat, player=player, rule="R-SITOUT-3")
            if self.in_hand(cur):
                cur.leaving = True
            else:
                await self._cash_out(cur)

        st.evict_timer = self.host.clock.call_later(self.settings.sitout_evict_seconds, lambda: self.actor.post(evict))

    # ------------------------------------------------------------------ dealing
    def _maybe_deal(self, soon: bool) -> None:
        if self.hand is not None or self.closed or self._deal_pending:
            return
        ready = [s for s in self.seats.values() if not s.sitting_out and s.stack > 0 and not s.leaving]
        if len(ready) < self.settings.min_players:
            return
        self._deal_pending = True
        delay = 0.0 if soon else self.settings.between_hands_seconds
        if delay <= 0:
            self.actor.post(self._deal)
        else:
            self._deal_timer = self.host.clock.call_later(delay, lambda: self.actor.post(self._deal))

    def _statuses(self) -> dict[int, SeatStatus]:
        out = {}
        for s, st in self.seats.items():
            ready = not st.sitting_out and st.stack > 0 and not st.leaving
            out[s] = SeatStatus(s, ready, owes_bb=st.owes_bb, missed_sb=st.missed_sb, post_now=st.post_now)
        return out

    async def _deal(self) -> None:
        self._deal_pending = False
        if self.hand is not None or self.closed:
            return
        game, structure = self.game_now()
        stakes = stakes_for(self.spec, game, structure)
        statuses = self._statuses()
        plan: BlindPlan | None = None
        blinds: dict[int, int] | None = None
        if game.kind is Kind.STUD:
            dealt = [s for s, v in statuses.items() if v.ready]
            if len(dealt) < max(2, self.settings.min_players):
                return
            button = self.spec.max_seats - 1  # R-TABLE-4: the fixed dealer box
            dealt = clockwise_after(button, dealt, self.spec.max_seats)
        else:
            plan = plan_blinds(
                statuses,
                max_seats=self.spec.max_seats,
                prev_button=self.button,
                small_blind=stakes.small_blind,
                big_blind=stakes.big_blind,
                policy=self.settings.missed_blind_policy,
            )
            if plan is None or len(plan.dealt) < self.settings.min_players:
                return
            dealt = list(plan.dealt)
            button = plan.button
            standard = (plan.heads_up and plan.small_blind == button) or (
                not plan.heads_up and plan.small_blind == dealt[0] and plan.big_blind == dealt[1]
            )
            if not standard:
                blinds = {plan.big_blind: stakes.big_blind}
                if plan.small_blind is not None and plan.small_blind != plan.big_blind:
                    blinds[plan.small_blind] = stakes.small_blind
        players = {s: self.seats[s].player_id for s in dealt}
        stacks = [self.seats[s].stack for s in dealt]
        config = HandConfig(
            game=game,
            structure=structure,
            stakes=stakes,
            seats=dealt,
            stacks=stacks,
            button=button,
            deck=game.deck.shuffled(self.host.rng),
            settings=EngineSettings(straddle=self.settings.straddle, run_it_twice=self.settings.run_it_twice),
            blinds=blinds,
            live_posts=dict(plan.live_posts) if plan else {},
            dead_posts=dict(plan.dead_posts) if plan else {},
            shuffle=lambda cards: self.host.rng.shuffle(cards),
            rake=self._rake_rule(),
        )
        hand = Hand(config)  # pure: nothing has moved yet
        hand_id = f"{self.hand_no + 1}-{secrets.token_hex(4)}"
        await self.host.gateway.call(
            self.host.gateway.ledger.start_hand,
            self.id,
            hand_id,
            {players[s]: self.seats[s].stack for s in dealt},
            currency=self.spec.currency,
        )
        # committed: from here the hand exists in the store (R-SERVER: voided if we die before settling)
        self.hand_no += 1
        self.hand, self.hand_id, self.hand_players = hand, hand_id, players
        self.has_bet = set()
        self.no_raise = {}
        self._sent = 0
        self._flop_seen = None
        if plan is not None:
            sitting_out = [s for s, st in self.seats.items() if st.sitting_out and s not in plan.dealt]
            for s, (m_bb, m_sb) in missed_blinds(
                sitting_out, prev=self.prev_plan, plan=plan, max_seats=self.spec.max_seats
            ).items():
                self.seats[s].owes_bb |= m_bb
                self.seats[s].missed_sb |= m_sb
            if self.orbit_start is None:
                self.orbit_start = plan.button
            self.prev_plan = plan
            self.button = plan.button
        for s in dealt:
            st = self.seats[s]
            st.owes_bb = st.missed_sb = st.post_now = False
            st.hands_dealt += 1
        self.table_event("hand_started", hand_id=hand_id, button=button, seats=dealt, game=game.id,
                         structure=structure.value)
        self.broadcast_state()
        self._after_change()

    def _rake_rule(self) -> Callable[[int, RakeContext], int]:
        schedule = self.rake_schedule
        play_money = self.spec.play_money

        def rule(pot_total: int, ctx: RakeContext) -> int:
            key = ctx.stakes.big_blind or ctx.stakes.small_bet
            return compute_rake(schedule, structure=ctx.structure.value, big_blind=key, players_dealt=ctx.players,
                                pot_total=pot_total, triggered=ctx.trigger_reached, play_money=play_money)

        return rule

    # ------------------------------------------------------------------ decisions and timers
    def _cancel_decision(self) -> None:
        if self._decision_timer is not None:
            self._decision_timer.cancel()
            self._decision_timer = None
        self.decision = None
        self._decision_token += 1

    def _auto_fold_leaver(self, hand: Hand, seat: int) -> None:
        legal = hand.legal_actions()
        kind = ActionKind.FOLD if ActionKind.FOLD in legal.kinds else self._fallback_kind(legal.kinds)
        self._apply(Action(seat, kind), manual=False)

    @staticmethod
    def _fallback_kind(kinds: frozenset[ActionKind]) -> ActionKind:
        for k in (ActionKind.CHECK, ActionKind.FOLD, ActionKind.STAND_PAT, ActionKind.RUN_ONCE,
                  ActionKind.DECLINE_SPLIT, ActionKind.BRING_IN):
            if k in kinds:
                return k
        return sorted(kinds, key=lambda k: k.value)[0]

    def _arm_decision(self) -> None:
        hand = self.hand
        assert hand is not None
        seat = hand.to_act
        self._cancel_decision()
        if seat is None:
            return
        st = self.seats.get(seat)
        if st is None or st.leaving:
            self._auto_fold_leaver(hand, seat)
            return
        legal = hand.legal_actions()
        is_draw = ActionKind.DRAW in legal.kinds or ActionKind.STAND_PAT in legal.kinds
        self.decision = new_decision(
            self.settings,
            seat=seat,
            is_draw=is_draw,
            has_bet=seat in self.has_bet,
            connected=self.host.is_connected(st.player_id),
            now=self.now,
        )
        self._schedule_decision_timer()
        self.table_event("turn", **self.decision.to_dict(self.now))
        self.host.send(st.player_id, {"type": "table_state", "table": self.id, "view": self.view_for(st.player_id)})

    def _schedule_decision_timer(self) -> None:
        timer = self.decision
        if timer is None:
            return
        if self._decision_timer is not None:
            self._decision_timer.cancel()
        self._decision_token += 1
        token = self._decision_token

        async def fire() -> None:
            await self._on_deadline(token)

        self._decision_timer = self.host.clock.call_later(timer.remaining(self.now), lambda: self.actor.post(fire))

    async def _on_deadline(self, token: int) -> None:
        timer = self.decision
        hand = self.hand
        if token != self._decision_token or timer is None or hand is None or hand.to_act != timer.seat:
            return
        st = self.seats.get(timer.seat)
        if st is None:
            return
        connected = self.host.is_connected(st.player_id)
        if on_expiry(timer, connected=connected, bank=st.timebank, now=self.now):
            self.table_event("timebank", seat=st.seat, seconds=round(st.timebank, 3), rule="R-TIME-2")
            self._schedule_decision_timer()
            self.table_event("turn", **timer.to_dict(self.now))
            return
        if timer.phase is Phase.TIMEBANK:
            st.timebank = 0.0
        self._auto_act(hand, st, connected)

    def _auto_act(self, hand: Hand, st: SeatState, connected: bool) -> None:
        legal = hand.legal_actions()
        seat = st.seat
        kinds = legal.kinds
        if ActionKind.DRAW in kinds or ActionKind.STAND_PAT in kinds:
            discards: list[Card] = []
            if not connected:  # R-AUTODRAW-1
                discards = self._autodraw(hand, seat, legal.max_discards)
            action = Action(seat, ActionKind.DRAW if discards else ActionKind.STAND_PAT, 0,
                            tuple(int(c) for c in discards))
            self.table_event("auto_draw" if not connected else "timed_out", seat=seat, discards=len(discards),
                             rule="R-AUTODRAW-1" if not connected else "R-TIME-4")
            self.no_raise[seat] = hand.street
            self._apply(action, manual=False)
            return
        if ActionKind.CHECK not in kinds and ActionKind.FOLD not in kinds:
            self._apply(Action(seat, self._fallback_kind(kinds), legal.bring_in if ActionKind.BRING_IN in kinds
                               else 0), manual=False)
            return
        game, structure = self.game_now()
        idx = hand.seats.index(seat)
        committed = hand.total[idx]
        possible = aai_applies(self.settings.disconnect_policy, structure=structure.value,
                               play_money=self.spec.play_money)
        wall = self.host.clock.wall()
        decision = auto_action(
            connected=connected,
            can_check=ActionKind.CHECK in kinds,
            committed=committed,
            aai_possible=possible,
            aai_available=self.host.aai.available(st.player_id, wall),
        )
        if decision is AutoAction.ARTIFICIAL_ALLIN:
            try:
                hand.artificial_allin(seat)
            except IllegalAction:  # e.g. not a betting decision: the ordinary check/fold applies
                decision = AutoAction.CHECK if ActionKind.CHECK in kinds else AutoAction.FOLD
            else:
                self.host.aai.use(st.player_id, wall)
                self.table_event("artificial_allin", seat=seat, committed=committed, rule="R-AAI-1")
                self._after_change()
                return
        kind = ActionKind.CHECK if decision is AutoAction.CHECK else ActionKind.FOLD
        self.table_event("timed_out", seat=seat, action=kind.value,
                         rule="R-TIME-3" if connected else "R-DISC-1")
        self._apply(Action(seat, kind), manual=False)

    def _autodraw(self, hand: Hand, seat: int, max_discards: int) -> list[Card]:
        idx = hand.seats.index(seat)
        cards = list(hand.cards[idx])
        if "LOW_27" in hand.game.rankings:
            return autodraw_27(cards, max_discards=max_discards)
        min_rank = min(int(c.rank) for c in hand.game.deck.cards)
        return autodraw_high(cards, min_rank=min_rank, max_discards=max_discards,
                             priority_one=self.settings.autodraw_priority_one)

    # ------------------------------------------------------------------ end of hand
    async def _finish_hand(self) -> None:
        hand, hand_id = self.hand, self.hand_id
        if hand is None or hand_id is None or not hand.is_over:
            return
        result = hand.result
        assert result is not None
        changes = {self.hand_players[s]: net for s, net in result.net.items()}
        phh = hand_history_text(hand, self.id, hand_id, self.hand_players)
        try:
            await self.host.gateway.call(
                self.host.gateway.ledger.settle_hand,
                self.id,
                hand_id,
                changes,
                result.rake,
                phh,
                [e.to_dict() | {"visible_to": sorted(e.visible_to) if e.visible_to is not None else None}
                 for e in hand.events],
            )
        except Exception:
            # nothing has changed here and settling is idempotent in the store: try again shortly; until then
            # no new hand starts (and after a crash the store voids the hand, R-SERVER)
            log.exception("table %s: settling hand %s failed; retrying in %s s", self.id, hand_id,
                          SETTLE_RETRY_SECONDS)
            self.host.clock.call_later(SETTLE_RETRY_SECONDS, lambda: self.actor.post(self._finish_hand))
            return
        pot = sum(p.amount for p in result.pots) + result.rake
        self.stats.append((pot, len(hand.seats), self._flop_seen or 0))
        for s, stack in result.stacks.items():
            st = self.seats.get(s)
            if st is not None and st.player_id == self.hand_players[s]:
                st.stack = stack
                st.timebank = refill(self.settings, st.timebank)
        prev_button = self.button
        self.hand = None
        self.hand_id = None
        self.hand_players = {}
        self._cancel_decision()
        self.table_event("hand_over", hand_id=hand_id, rake=result.rake,
                         stacks={str(s): v for s, v in result.stacks.items()})
        if self.rotation is not None:
            self.rotation.hand_finished(orbit_completed=self._orbit_completed(prev_button))
        for st in list(self.seats.values()):
            if st.leaving:
                await self._cash_out(st)
                continue
            if st.pending_top_up:
                value, st.pending_top_up = st.pending_top_up, 0
                try:
                    await self._do_top_up(st, value)
                except RoomError as exc:
                    self.host.send(st.player_id, {"type": "event", "table": self.id,
                                                  "event": {"kind": "top_up_failed", "message": exc.message}})
            if st.stack <= 0 and not st.sitting_out:
                await self.sit_out(st.player_id, reason="no_chips")
        self.broadcast_state()
        self._maybe_deal(soon=False)

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
    def lobby_entry(self) -> dict[str, Any]:
        header = self.info_header()
        hands = list(self.stats)
        avg_pot = sum(p for p, _, _ in hands) // len(hands) if hands else 0
        flop_pct = (
            round(100 * sum(f for _, _, f in hands) / sum(n for _, n, _ in hands)) if hands else 0
        )
        game, structure = self.game_now()
        return header | {
            "kind": "cash",
            "current_game": game.id,
            "current_structure": structure.value,
            "seats_taken": len(self.seats),
            "players": len(self.seats),
            "average_pot": avg_pot,
            "players_per_flop_pct": flop_pct,
            "hands_played": self.hand_no,
        }

    async def close(self) -> None:
        self.closed = True
        self._cancel_decision()
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        for st in self.seats.values():
            if st.evict_timer is not None:
                st.evict_timer.cancel()
