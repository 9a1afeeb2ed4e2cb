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
from collections.abc import Iterable
from dataclasses import dataclass, field

from riverboat.engine import HandConfig
from riverboat.games import Structure, get_game
from riverboat.room import frames
from riverboat.room.actor import Actor
from riverboat.room.clock import Clock, TimerHandle
from riverboat.room.deal import engine_settings, stakes_for, table_game
from riverboat.room.errors import RoomError
from riverboat.room.frames import PoolLobbyEntry, PoolView, RoomFrame
from riverboat.room.hand_driver import HandDriver, HandRules
from riverboat.room.move import Move
from riverboat.room.rake import get_schedule, rake_rule
from riverboat.room.replies import FastFolded, JoinedPool, LeftPool, SpeedActed
from riverboat.room.seating import check_buy_in
from riverboat.room.settings import SpeedSpec, TableSettings
from riverboat.room.settle import DeferredLedgerSettler
from riverboat.room.table import TableHost


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
        self.settler = DeferredLedgerSettler(host.gateway, pool_id, spec.currency,
                                             rake_rule(self.rake_schedule, play_money=spec.play_money), self._escrows)
        self.rules = HandRules(settings, aai=host.aai, play_money=spec.play_money)
        self.players: dict[int, SpeedPlayer] = {}
        self.queue: list[int] = []
        self.hands: dict[str, HandDriver] = {}
        self.hand_no = 0
        self.hands_settled = 0
        self.rake_total = 0
        self._wait_timer: TimerHandle | None = None
        self.closed = False
        self.pots: list[int] = []

    @property
    def clock(self) -> Clock:
        return self.host.clock

    @property
    def now(self) -> float:
        return self.host.clock.now()

    def has_player(self, player_id: int) -> bool:
        return player_id in self.players

    def _need(self, player_id: int) -> SpeedPlayer:
        p = self.players.get(player_id)
        if p is None:
            raise RoomError("not_seated", "you are not in this Speed Poker pool")
        return p

    def _current(self, p: SpeedPlayer) -> tuple[HandDriver, int] | None:
        """The hand the player is live in and their seat there."""
        driver = self.hands.get(p.current) if p.current else None
        if driver is None:
            return None
        seat = driver.seat_of(p.player_id)
        assert seat is not None
        return driver, seat

    def available(self, p: SpeedPlayer) -> int:
        """Chips for a new hand: escrow minus commitments in unsettled hands (pending wins not counted)."""
        pending = 0
        for key, start in p.inflight.items():
            driver = self.hands.get(key)
            if driver is None:
                continue
            hand = driver.hand
            seat = driver.seat_of(p.player_id)
            now_stack = hand.stacks[hand.seats.index(seat)]  # type: ignore[arg-type]
            pending += min(0, now_stack - start)
        return p.escrow + pending

    def _escrows(self, driver: HandDriver) -> dict[int, int]:
        return {pid: self.players[pid].escrow for pid in driver.players.values()}


    # ------------------------------------------------------------------ HandHost (for the drivers)
    def is_connected(self, player_id: int) -> bool:
        return self.host.is_connected(player_id)

    def send(self, player_id: int, message: RoomFrame) -> None:
        self.host.send(player_id, message)

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None:
        self.host.send_many(player_ids, message)

    def participant(self, player_id: int) -> SpeedPlayer | None:
        return self.players.get(player_id)

    def audience(self, driver: HandDriver) -> Iterable[tuple[int, int | None]]:
        """The hand's players, except those who speed-folded or left it and moved on."""
        out: list[tuple[int, int | None]] = []
        for seat, pid in driver.players.items():
            p = self.players.get(pid)
            if p is None or (seat in driver.gone and p.current != driver.hand_id):
                continue
            out.append((pid, seat))
        return out

    def on_turn(self, driver: HandDriver, seat: int, player_id: int) -> None:
        timer = driver.decision
        self.host.send(player_id, frames.speed_your_turn(self.id, driver.hand_id, driver.view(seat),
                                                         timer.to_dict(self.now) if timer else None))

    # ------------------------------------------------------------------ commands
    async def join(self, player_id: int, buy_in: object, *, idem_key: str | None = None) -> JoinedPool:
        if player_id in self.players:
            raise RoomError("already_seated", "you are already in this Speed Poker pool")
        amount = check_buy_in(buy_in, self.spec.min_buy_in, self.spec.max_buy_in)
        await self.host.gateway.call(
            self.host.gateway.ledger.buy_in, player_id, self.id, amount,
            idem_key or f"buy_in:{self.id}:{player_id}:{secrets.token_hex(8)}", currency=self.spec.currency,
            min_buy_in=self.spec.min_buy_in, max_buy_in=self.spec.max_buy_in, once=idem_key is not None,
        )
        p = SpeedPlayer(player_id, amount, timebank=self.settings.timebank_seconds)
        self.players[player_id] = p
        self._enqueue(p)
        await self._form_tables()
        return JoinedPool(pool=self.id, stack=amount)

    async def act(self, player_id: int, move: Move) -> SpeedActed:
        current = self._current(self._need(player_id))
        if current is None:
            raise RoomError("not_your_turn", "you are not in a hand in this pool")
        driver, seat = current
        driver.act(seat, move)
        return SpeedActed(hand=driver.hand_id)

    async def fast_fold(self, player_id: int) -> FastFolded:
        """R-SPEED-1: leave the hand at once and be dealt a new one; the old hand goes on with a fold."""
        p = self._need(player_id)
        current = self._current(p)
        if current is None:
            raise RoomError("not_in_hand", "you are not in a hand to speed-fold")
        driver, seat = current
        idx = driver.hand.seats.index(seat)
        if driver.hand.folded[idx]:
            raise RoomError("not_in_hand", "your hand is already folded")
        if driver.hand.allin[idx]:
            raise RoomError("illegal_action", "an all-in hand cannot be folded")
        p.current = None
        self.host.send(player_id, frames.speed_fast_folded(self.id, driver.hand_id))
        driver.abandon(seat)
        if not p.leaving and not p.away:
            self._enqueue(p)
            await self._form_tables()
        return FastFolded(pool=self.id, folded=driver.hand_id)

    async def leave(self, player_id: int) -> LeftPool:
        p = self._need(player_id)
        p.leaving = True
        if player_id in self.queue:
            self.queue.remove(player_id)
        current = self._current(p)
        if current is not None:
            driver, seat = current
            idx = driver.hand.seats.index(seat)
            if not driver.hand.folded[idx] and not driver.hand.allin[idx]:
                driver.abandon(seat)
        cashed = await self._maybe_cash_out(p)
        return LeftPool(pool=self.id, pending=cashed is None, cashed_out=cashed)

    async def disconnected(self, player_id: int) -> None:
        """Not dealt new hands while away; in the hands they are in, the R-DISC-1 timers apply."""
        p = self.players.get(player_id)
        if p is None:
            return
        p.away = True
        if player_id in self.queue:
            self.queue.remove(player_id)
        for key in p.inflight:
            driver = self.hands.get(key)
            if driver is not None:
                driver.player_disconnected(player_id)

    async def reconnected(self, player_id: int) -> None:
        p = self.players.get(player_id)
        if p is None:
            return
        p.away = False
        for key in p.inflight:
            driver = self.hands.get(key)
            if driver is not None:
                driver.player_reconnected(player_id)
        if p.current is None and not p.leaving and player_id not in self.queue and self.available(p) > 0:
            self._enqueue(p)
            await self._form_tables()
        self.host.send(player_id, frames.speed_state(self.id, self.view_for(player_id)))

    # ------------------------------------------------------------------ queue and dealing
    def _enqueue(self, p: SpeedPlayer) -> None:
        if p.player_id in self.queue:
            return
        p.queued_at = self.now
        p.queued_hand_no = self.hand_no
        self.queue.append(p.player_id)

    async def _form_tables(self) -> None:
        size = self.spec.table_size
        while len(self.queue) >= size:
            await self._deal(self.queue[:size])
        if len(self.queue) >= 2:
            everyone_waiting = all(
                pid in self.queue or pl.leaving or pl.away for pid, pl in self.players.items()
            )
            queued_at = self.players[self.queue[0]].queued_at
            waited = 0.0 if queued_at is None else self.now - queued_at
            if everyone_waiting or waited >= self.settings.speed_max_wait_seconds:
                await self._deal(self.queue[:size])
            elif self._wait_timer is None:
                delay = self.settings.speed_max_wait_seconds - waited

                def fire() -> None:
                    self._wait_timer = None
                    self.actor.post(self._form_tables)

                self._wait_timer = self.host.clock.call_later(delay, fire)

    def _take(self, chosen: list[int]) -> list[SpeedPlayer]:
        """Take the chosen players off the queue; those without chips stay off it."""
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
            return []
        return players

    def _seating(self, players: list[SpeedPlayer], chosen: list[int]) -> tuple[dict[int, SpeedPlayer], int]:
        """Blind fairness: the longest without a big blind posts it, the next-longest the small blind. Seats 0 and
        1 are the blinds; returns the seating and the button."""
        order = sorted(players, key=lambda p: (-p.since_bb, chosen.index(p.player_id)))
        bb_p, sb_p, rest = order[0], order[1], order[2:]
        k = len(players)
        seating = {0: sb_p, 1: bb_p} | {2 + i: p for i, p in enumerate(rest)}
        return seating, 0 if k == 2 else k - 1

    async def _deal(self, chosen: list[int]) -> None:
        players = self._take(chosen)
        if not players:
            return
        seating, button = self._seating(players, chosen)
        seats = sorted(seating)
        stacks = [self.available(seating[s]) for s in seats]
        rng = self.host.rng
        config = HandConfig(
            game=table_game(self.game, self.settings), structure=self.structure, stakes=self.stakes, seats=seats,
            stacks=stacks, button=button, deck=self.game.deck.shuffled(rng),
            settings=engine_settings(self.settings, straddle=False, run_it_twice=False),
            blinds={0: self.stakes.small_blind, 1: self.stakes.big_blind}, shuffle=lambda cards: rng.shuffle(cards),
        )
        key = f"{self.hand_no + 1}-{secrets.token_hex(4)}"
        driver = HandDriver.deal(self, config, key, {s: seating[s].player_id for s in seats},
                                 frames.PoolHandAddress(self.id, key), self.settler, self.rules)
        await driver.open()
        self.hand_no += 1
        self.hands[key] = driver
        for s, stack in zip(seats, stacks, strict=True):
            self._dealt_in(seating[s], key, stack)
        bb_p = seating[1]
        bb_p.since_bb = 0
        bb_p.big_blinds += 1
        for s in seats:
            self.host.send(seating[s].player_id, frames.speed_dealt(self.id, key, s, driver.view(s)))
        driver.play()

    def _dealt_in(self, p: SpeedPlayer, key: str, stack: int) -> None:
        """Fairness statistics (R-SPEED-2 reading) and the hand the player is now live in."""
        waited_hands = self.hand_no - 1 - p.queued_hand_no
        p.max_hands_waited = max(p.max_hands_waited, waited_hands)
        if p.queued_at is not None:
            p.max_wait_seconds = max(p.max_wait_seconds, self.now - p.queued_at)
        p.queued_at = None
        p.current = key
        p.inflight[key] = stack
        p.hands_dealt += 1
        p.since_bb += 1
        p.max_hands_without_bb = max(p.max_hands_without_bb, p.since_bb - 1)

    # ------------------------------------------------------------------ end of a hand
    async def on_settled(self, driver: HandDriver) -> None:
        result = driver.hand.result
        assert result is not None
        key = driver.hand_id
        self.hands.pop(key, None)
        self.hands_settled += 1
        self.rake_total += result.rake
        self.pots.append(sum(p.amount for p in result.pots) + result.rake)
        del self.pots[:-50]
        changes = {driver.players[s]: net for s, net in result.net.items()}
        for pid in driver.players.values():
            p = self.players[pid]
            p.escrow += changes[pid]
            p.inflight.pop(key, None)
            if p.current == key:
                p.current = None
            if p.current is None and not p.leaving and not p.away and self.available(p) > 0:
                self._enqueue(p)  # no-op for players already waiting
            self.host.send(pid, frames.speed_hand_over(self.id, key, changes[pid], self.available(p)))
        for pid in list(driver.players.values()):
            maybe = self.players.get(pid)
            if maybe is not None and (maybe.leaving or (maybe.current is None and not maybe.inflight
                                                        and self.available(maybe) <= 0)):
                await self._maybe_cash_out(maybe)
        await self._form_tables()

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
        self.host.send(p.player_id, frames.speed_left(self.id, int(amount)))
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
        for driver in self.hands.values():
            driver.close()
        self.hands.clear()

    # ------------------------------------------------------------------ views
    def view_for(self, player_id: int) -> PoolView:
        p = self.players.get(player_id)
        if p is None:
            return {"pool": self.id, "joined": False}
        driver = self.hands.get(p.current) if p.current else None
        seat = driver.seat_of(player_id) if driver is not None else None
        return {
            "pool": self.id,
            "joined": True,
            "stack": self.available(p),
            "waiting": player_id in self.queue,
            "hand": driver.hand_id if driver else None,
            "seat": seat,
            "view": driver.view(seat) if driver else None,
        }

    def lobby_entry(self) -> PoolLobbyEntry:
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
