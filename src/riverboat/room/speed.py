"""Speed Poker (R-SPEED-1, R-SPEED-2 reading): one pool per game and stake, one actor per pool.

Players wait in a FIFO queue. As soon as ``table_size`` players wait (or fewer, once the oldest has waited
``speed_max_wait_seconds``, or when everyone in the pool is waiting) a new hand is dealt to them. Blinds rotate
fairly: the waiting player who has gone longest without posting the big blind posts it, the next-longest the small
blind. *Speed Fold* is allowed at any time once dealt in: the player is queued for a new hand at once and their
old hand is played out without them (they fold when their turn comes, R-SPEED-2).

Money: the pool is one table in the store (``table_id = pool id``) holding each player's chips in escrow. A hand is
recorded and settled in the store when it ends (``start_hand`` + ``settle_hand`` back to back, in the pool actor),
because one player can be in two unfinished hands at once (a folded one and a new one). If the process dies
mid-hand nothing has moved: every stack is its pre-hand value, which is exactly the R-SERVER-1 refund. A new hand's
stack is the escrow minus what the player has committed in hands not yet settled (never counting a pending win).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from riverboat.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, RakeContext
from riverboat.engine import Settings as EngineSettings
from riverboat.games import Structure, get_game
from riverboat.room.actor import Actor
from riverboat.room.clock import TimerHandle
from riverboat.room.errors import RoomError
from riverboat.room.history_text import hand_history_text
from riverboat.room.rake import compute_rake, get_schedule
from riverboat.room.seating import check_buy_in
from riverboat.room.settings import SpeedSpec, TableSettings
from riverboat.room.table import SETTLE_RETRY_SECONDS, VOLUNTARY, TableHost, build_action, log, stakes_for
from riverboat.room.timers import DecisionTimer, Phase, bank_used, on_expiry, refill
from riverboat.room.timers import start_decision as new_decision


@dataclass(slots=True)
class SpeedPlayer:
    player_id: int
    escrow: int  # the store's escrow for this player in the pool (settled hands only)
    timebank: float
    current: str | None = None  # key of the hand the player is live in
    inflight: dict[str, int] = field(default_factory=dict)  # unsettled hand key -> start stack there
    queued_at: float | None = None
    queued_hand_no: int = 0  # pool hand counter when queued
    leaving: bool = False
    away: bool = False  # disconnected: not dealt new hands
    hands_dealt: int = 0
    big_blinds: int = 0
    since_bb: int = 0
    max_hands_waited: int = 0
    max_wait_seconds: float = 0.0
    max_hands_without_bb: int = 0


@dataclass(slots=True)
class SpeedHand:
    key: str
    hand: Hand
    players: dict[int, int]  # seat -> player id
    gone: set[int] = field(default_factory=set)  # seats that speed-folded or left: fold at their turn
    has_bet: set[int] = field(default_factory=set)
    decision: DecisionTimer | None = None
    timer: TimerHandle | None = None
    token: int = 0
    sent: int = 0
    recorded: bool = False  # start_hand done in the store


class SpeedPool:
    def __init__(self, host: TableHost, pool_id: str, spec: SpeedSpec, settings: TableSettings) -> None:
        self.host = host
        self.id = pool_id
        self.spec = spec
        self.table_spec = spec.table_spec()
        self.settings = settings
        self.actor = Actor(f"speed pool {pool_id}")
        self.game = get_game(spec.game)
        self.structure = Structure(spec.structure)
        self.stakes = stakes_for(self.table_spec, self.game, self.structure)
        self.rake_schedule = get_schedule("none" if spec.play_money else spec.rake)
        self.players: dict[int, SpeedPlayer] = {}
        self.queue: list[int] = []
        self.hands: dict[str, SpeedHand] = {}
        self.hand_no = 0
        self.hands_settled = 0
        self.rake_total = 0
        self._wait_timer: TimerHandle | None = None
        self.closed = False
        self.pots: list[int] = []

    @property
    def now(self) -> float:
        return self.host.clock.now()

    def has_player(self, player_id: int) -> bool:
        return player_id in self.players

    def _need(self, player_id: int) -> SpeedPlayer:
        p = self.players.get(player_id)
        if p is None:
            raise RoomError("not_seated", f"player {player_id} is not in Speed Poker pool {self.id}")
        return p

    def available(self, p: SpeedPlayer) -> int:
        """Chips for a new hand: escrow minus commitments in unsettled hands (pending wins not counted)."""
        pending = 0
        for key, start in p.inflight.items():
            sh = self.hands.get(key)
            if sh is None:
                continue
            seat = next(s for s, pid in sh.players.items() if pid == p.player_id)
            now_stack = sh.hand.stacks[sh.hand.seats.index(seat)]
            pending += min(0, now_stack - start)
        return p.escrow + pending

    def _send(self, player_id: int, message: dict[str, Any]) -> None:
        self.host.send(player_id, message | {"pool": self.id})

    # ------------------------------------------------------------------ commands
    async def join(self, player_id: int, buy_in: object) -> dict[str, Any]:
        if player_id in self.players:
            raise RoomError("already_seated", f"player {player_id} is already in pool {self.id}")
        amount = check_buy_in(buy_in, self.spec.min_buy_in, self.spec.max_buy_in)
        await self.host.gateway.call(
            self.host.gateway.ledger.buy_in, player_id, self.id, amount,
            f"buy_in:{self.id}:{player_id}:{secrets.token_hex(8)}", currency=self.spec.currency,
            min_buy_in=self.spec.min_buy_in, max_buy_in=self.spec.max_buy_in,
        )
        p = SpeedPlayer(player_id, amount, timebank=self.settings.timebank_seconds)
        self.players[player_id] = p
        self._enqueue(p)
        self._form_tables()
        return {"pool": self.id, "stack": amount}

    async def act(self, player_id: int, kind: object, amount: object = None, cards: object = None
                  ) -> dict[str, Any]:
        p = self._need(player_id)
        sh = self.hands.get(p.current) if p.current else None
        if sh is None:
            raise RoomError("not_your_turn", "you are not in a hand in this pool")
        seat = next(s for s, pid in sh.players.items() if pid == player_id)
        if sh.hand.to_act != seat:
            raise RoomError("not_your_turn", f"it is seat {sh.hand.to_act}'s turn, not yours (seat {seat})")
        action = build_action(seat, kind, amount, cards)
        self._apply(sh, action, manual=True)
        return {"ok": True, "hand": sh.key}

    async def fast_fold(self, player_id: int) -> dict[str, Any]:
        """R-SPEED-1: leave the hand at once and be dealt a new one; the old hand goes on with a fold."""
        p = self._need(player_id)
        sh = self.hands.get(p.current) if p.current else None
        if sh is None:
            raise RoomError("not_in_hand", "you are not in a hand to speed-fold")
        seat = next(s for s, pid in sh.players.items() if pid == player_id)
        idx = sh.hand.seats.index(seat)
        if sh.hand.folded[idx]:
            raise RoomError("not_in_hand", "your hand is already folded")
        if sh.hand.allin[idx]:
            raise RoomError("illegal_action", "an all-in hand cannot be folded")
        sh.gone.add(seat)
        p.current = None
        self._send(player_id, {"type": "speed", "event": "fast_folded", "hand": sh.key})
        if sh.hand.to_act == seat:
            self._fold_gone(sh, seat)
        if not p.leaving and not p.away:
            self._enqueue(p)
            self._form_tables()
        return {"pool": self.id, "folded": sh.key}

    async def leave(self, player_id: int) -> dict[str, Any]:
        p = self._need(player_id)
        p.leaving = True
        if player_id in self.queue:
            self.queue.remove(player_id)
        sh = self.hands.get(p.current) if p.current else None
        if sh is not None:
            seat = next(s for s, pid in sh.players.items() if pid == player_id)
            idx = sh.hand.seats.index(seat)
            if not sh.hand.folded[idx] and not sh.hand.allin[idx]:
                sh.gone.add(seat)
                if sh.hand.to_act == seat:
                    self._fold_gone(sh, seat)
        cashed = await self._maybe_cash_out(p)
        return {"pool": self.id, "pending": cashed is None, "cashed_out": cashed}

    async def disconnected(self, player_id: int) -> None:
        p = self.players.get(player_id)
        if p is None:
            return
        p.away = True
        if player_id in self.queue:
            self.queue.remove(player_id)

    async def reconnected(self, player_id: int) -> None:
        p = self.players.get(player_id)
        if p is None:
            return
        p.away = False
        if p.current is None and not p.leaving and player_id not in self.queue and self.available(p) > 0:
            self._enqueue(p)
            self._form_tables()
        self._send(player_id, {"type": "speed", "event": "state", "view": self.view_for(player_id)})

    # ------------------------------------------------------------------ queue and dealing
    def _enqueue(self, p: SpeedPlayer) -> None:
        if p.player_id in self.queue:
            return
        p.queued_at = self.now
        p.queued_hand_no = self.hand_no
        self.queue.append(p.player_id)

    def _form_tables(self) -> None:
        size = self.spec.table_size
        while len(self.queue) >= size:
            self._deal(self.queue[:size])
        if len(self.queue) >= 2:
            everyone_waiting = all(
                pid in self.queue or pl.leaving or pl.away for pid, pl in self.players.items()
            )
            queued_at = self.players[self.queue[0]].queued_at
            waited = 0.0 if queued_at is None else self.now - queued_at
            if everyone_waiting or waited >= self.settings.speed_max_wait_seconds:
                self._deal(self.queue[:size])
            elif self._wait_timer is None:
                delay = self.settings.speed_max_wait_seconds - waited

                def fire() -> None:
                    self._wait_timer = None
                    self.actor.post(self._recheck)

                self._wait_timer = self.host.clock.call_later(delay, fire)

    async def _recheck(self) -> None:
        self._form_tables()

    def _deal(self, chosen: list[int]) -> None:
        for pid in chosen:
            self.queue.remove(pid)
        players = [self.players[pid] for pid in chosen if self.available(self.players[pid]) > 0]
        for pid in chosen:
            p = self.players[pid]
            if p not in players:
                p.queued_at = None
        if len(players) < 2:
            for p in players:
                self.queue.insert(0, p.player_id)
            return
        # blind fairness: longest without a big blind posts it, the next-longest the small blind
        order = sorted(players, key=lambda p: (-p.since_bb, chosen.index(p.player_id)))
        bb_p, sb_p, rest = order[0], order[1], order[2:]
        k = len(players)
        if k == 2:
            seating = {0: sb_p, 1: bb_p}
            button, sb_seat, bb_seat = 0, 0, 1
        else:
            seating = {0: sb_p, 1: bb_p} | {2 + i: p for i, p in enumerate(rest)}
            button, sb_seat, bb_seat = k - 1, 0, 1
        seats = sorted(seating)
        stacks = [self.available(seating[s]) for s in seats]
        config = HandConfig(
            game=self.game, structure=self.structure, stakes=self.stakes, seats=seats, stacks=stacks,
            button=button, deck=self.game.deck.shuffled(self.host.rng),
            settings=EngineSettings(straddle=False, run_it_twice=False),
            blinds={sb_seat: self.stakes.small_blind, bb_seat: self.stakes.big_blind},
            shuffle=lambda cards: self.host.rng.shuffle(cards), rake=self._rake_rule(),
        )
        hand = Hand(config)
        self.hand_no += 1
        key = f"{self.hand_no}-{secrets.token_hex(4)}"
        sh = SpeedHand(key, hand, {s: seating[s].player_id for s in seats})
        self.hands[key] = sh
        for s in seats:
            p = seating[s]
            waited_hands = self.hand_no - 1 - p.queued_hand_no
            p.max_hands_waited = max(p.max_hands_waited, waited_hands)
            if p.queued_at is not None:
                p.max_wait_seconds = max(p.max_wait_seconds, self.now - p.queued_at)
            p.queued_at = None
            p.current = key
            p.inflight[key] = stacks[seats.index(s)]
            p.hands_dealt += 1
            p.since_bb += 1
            p.max_hands_without_bb = max(p.max_hands_without_bb, p.since_bb - 1)
        bb_p.since_bb = 0
        bb_p.big_blinds += 1
        for s in seats:
            pid = seating[s].player_id
            self._send(pid, {"type": "speed", "event": "dealt", "hand": key, "seat": s,
                             "view": hand.view(s)})
        self._after_change(sh)

    def _rake_rule(self) -> Callable[[int, RakeContext], int]:
        schedule = self.rake_schedule
        play_money = self.spec.play_money

        def rule(pot_total: int, ctx: RakeContext) -> int:
            return compute_rake(schedule, structure=ctx.structure.value, big_blind=ctx.stakes.big_blind,
                                players_dealt=ctx.players, pot_total=pot_total, triggered=ctx.trigger_reached,
                                play_money=play_money)

        return rule

    # ------------------------------------------------------------------ playing a hand
    def _apply(self, sh: SpeedHand, action: Action, *, manual: bool) -> None:
        try:
            sh.hand.act(action)
        except IllegalAction as exc:
            raise RoomError("illegal_action", str(exc)) from None
        if action.kind in VOLUNTARY:
            sh.has_bet.add(action.seat)
        if manual and sh.decision is not None and sh.decision.seat == action.seat:
            p = self.players.get(sh.players[action.seat])
            if p is not None:
                p.timebank = max(0.0, p.timebank - bank_used(sh.decision, self.now))
        self._after_change(sh)

    def _fold_gone(self, sh: SpeedHand, seat: int) -> None:
        kinds = sh.hand.legal_actions().kinds
        kind = next(k for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.STAND_PAT, ActionKind.RUN_ONCE,
                                ActionKind.DECLINE_SPLIT) if k in kinds)
        self._apply(sh, Action(seat, kind), manual=False)

    def _after_change(self, sh: SpeedHand) -> None:
        hand = sh.hand
        new = hand.events[sh.sent :]
        sh.sent = len(hand.events)
        frames = [(ev, {"type": "event", "hand": sh.key, "event": ev.to_dict(), "pool": self.id}) for ev in new]
        for seat, pid in sh.players.items():
            if pid not in self.players or (seat in sh.gone and self.players[pid].current != sh.key):
                continue
            for ev, frame in frames:
                if ev.visible(seat):
                    self.host.send(pid, frame)
        if sh.timer is not None:
            sh.timer.cancel()
            sh.timer = None
        sh.decision = None
        sh.token += 1
        if hand.is_over:
            self.actor.post(lambda: self._finish(sh))
            return
        actor_seat = hand.to_act
        assert actor_seat is not None
        seat = actor_seat
        if seat in sh.gone:
            self._fold_gone(sh, seat)
            return
        p = self.players[sh.players[seat]]
        legal = hand.legal_actions()
        sh.decision = new_decision(
            self.settings, seat=seat, is_draw=ActionKind.STAND_PAT in legal.kinds, has_bet=seat in sh.has_bet,
            connected=self.host.is_connected(p.player_id), now=self.now,
        )
        self._arm(sh)
        self._send(p.player_id, {"type": "speed", "event": "your_turn", "hand": sh.key,
                                 "view": hand.view(seat), "timer": sh.decision.to_dict(self.now)})

    def _arm(self, sh: SpeedHand) -> None:
        timer = sh.decision
        if timer is None:
            return
        sh.token += 1
        token = sh.token

        async def fire() -> None:
            await self._on_deadline(sh, token)

        sh.timer = self.host.clock.call_later(timer.remaining(self.now), lambda: self.actor.post(fire))

    async def _on_deadline(self, sh: SpeedHand, token: int) -> None:
        timer = sh.decision
        if token != sh.token or timer is None or sh.hand.is_over or sh.hand.to_act != timer.seat:
            return
        p = self.players[sh.players[timer.seat]]
        connected = self.host.is_connected(p.player_id)
        if on_expiry(timer, connected=connected, bank=p.timebank, now=self.now):
            self._arm(sh)
            return
        if timer.phase is Phase.TIMEBANK:
            p.timebank = 0.0
        kinds = sh.hand.legal_actions().kinds
        kind = next(k for k in (ActionKind.CHECK, ActionKind.FOLD, ActionKind.STAND_PAT, ActionKind.RUN_ONCE,
                                ActionKind.DECLINE_SPLIT, ActionKind.BRING_IN) if k in kinds)
        self._apply(sh, Action(timer.seat, kind), manual=False)

    async def _finish(self, sh: SpeedHand) -> None:
        if sh.key not in self.hands:
            return
        hand = sh.hand
        result = hand.result
        assert result is not None
        ledger = self.host.gateway.ledger
        changes = {sh.players[s]: net for s, net in result.net.items()}
        start = {pid: self.players[pid].escrow for pid in sh.players.values()}
        try:
            if not sh.recorded:
                await self.host.gateway.call(ledger.start_hand, self.id, sh.key, start, currency=self.spec.currency)
                sh.recorded = True
            await self.host.gateway.call(
                ledger.settle_hand, self.id, sh.key, changes, result.rake,
                hand_history_text(hand, self.id, sh.key, sh.players),
                [e.to_dict() | {"visible_to": sorted(e.visible_to) if e.visible_to is not None else None}
                 for e in hand.events],
            )
        except Exception:
            log.exception("pool %s: settling hand %s failed; retrying in %s s", self.id, sh.key,
                          SETTLE_RETRY_SECONDS)
            self.host.clock.call_later(SETTLE_RETRY_SECONDS, lambda: self.actor.post(lambda: self._finish(sh)))
            return
        del self.hands[sh.key]
        self.hands_settled += 1
        self.rake_total += result.rake
        self.pots.append(sum(p.amount for p in result.pots) + result.rake)
        del self.pots[:-50]
        for pid in sh.players.values():
            p = self.players[pid]
            p.escrow += changes[pid]
            p.inflight.pop(sh.key, None)
            p.timebank = refill(self.settings, p.timebank)
            if p.current == sh.key:
                p.current = None
            if p.current is None and not p.leaving and not p.away and self.available(p) > 0:
                self._enqueue(p)  # no-op for players already waiting
            self._send(pid, {"type": "speed", "event": "hand_over", "hand": sh.key,
                             "net": changes[pid], "stack": self.available(p)})
        for pid in list(sh.players.values()):
            maybe = self.players.get(pid)
            if maybe is None:
                continue
            p = maybe
            if p.leaving or (p.current is None and not p.inflight and self.available(p) <= 0):
                await self._maybe_cash_out(p)
        self._form_tables()

    async def _maybe_cash_out(self, p: SpeedPlayer) -> int | None:
        """Cash out once no unsettled hand holds the player's chips (the store refuses earlier)."""
        if p.current is not None or p.inflight:
            p.leaving = True
            return None
        amount = 0
        if p.escrow > 0:
            amount = await self.host.gateway.call(
                self.host.gateway.ledger.cash_out, p.player_id, self.id,
                f"cash_out:{self.id}:{p.player_id}:{secrets.token_hex(8)}", currency=self.spec.currency,
            )
        self.players.pop(p.player_id, None)
        if p.player_id in self.queue:
            self.queue.remove(p.player_id)
        self._send(p.player_id, {"type": "speed", "event": "left", "cashed_out": amount})
        return int(amount)

    async def cash_out_all(self) -> None:
        """Room stop: unfinished pool hands were never recorded, so every escrow is its pre-hand value."""
        for p in list(self.players.values()):
            p.current = None
            p.inflight.clear()
            await self._maybe_cash_out(p)

    async def close(self) -> None:
        self.closed = True
        if self._wait_timer is not None:
            self._wait_timer.cancel()
        for sh in self.hands.values():
            if sh.timer is not None:
                sh.timer.cancel()
        self.hands.clear()

    # ------------------------------------------------------------------ views
    def view_for(self, player_id: int) -> dict[str, Any]:
        p = self.players.get(player_id)
        if p is None:
            return {"pool": self.id, "joined": False}
        sh = self.hands.get(p.current) if p.current else None
        seat: int | None = None
        if sh is not None:
            seat = next((s for s, pid in sh.players.items() if pid == player_id), None)
        return {
            "pool": self.id,
            "joined": True,
            "stack": self.available(p),
            "waiting": player_id in self.queue,
            "hand": sh.key if sh else None,
            "seat": seat,
            "view": sh.hand.view(seat) if sh else None,
        }

    def lobby_entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": "speed",
            "name": self.spec.name,
            "game": self.spec.game,
            "structure": self.spec.structure,
            "small_blind": self.spec.small_blind,
            "big_blind": self.spec.big_blind,
            "max_seats": self.spec.table_size,
            "min_buy_in": self.spec.min_buy_in,
            "max_buy_in": self.spec.max_buy_in,
            "currency": self.spec.currency,
            "players": len(self.players),
            "seats_taken": len(self.players),
            "hands_running": len(self.hands),
            "hands_played": self.hands_settled,
            "average_pot": sum(self.pots) // len(self.pots) if self.pots else 0,
        }
