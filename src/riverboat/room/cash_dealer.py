"""A cash table's hand loop: when to deal, who is dealt in and who posts (R-TABLE-3, R-BLIND, R-NEWPLAYER,
R-MISSED through :mod:`riverboat.room.deal` and :mod:`riverboat.room.blinds`), the table options at the deal, and
what happens between hands (stacks, leavers, waiting top-ups, R-HORSE-3 / R-8GAME-3 mixed rotation).

Part of :class:`~riverboat.room.table.Table` (composed, runs inside the table's actor). Each hand is played out by a
:class:`~riverboat.room.hand_driver.HandDriver` whose host is the table; the table passes its ``on_settled`` here.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from riverboat.engine.views import HandOverEvent
from riverboat.games import Game, Kind, Structure
from riverboat.room.blinds import BlindPlan, SeatStatus, clockwise_after, missed_blinds, on_arc
from riverboat.room.clock import TimerHandle
from riverboat.room.deal import DealPlan, engine_settings, hand_config, plan_deal, stakes_for, table_game
from riverboat.room.errors import RoomError
from riverboat.room.frames import HandStartedEvent, TopUpFailedEvent
from riverboat.room.hand_driver import HandDriver, HandRules
from riverboat.room.seating import SeatState

if TYPE_CHECKING:
    from riverboat.room.table import Table


class CashDealer:
    """Deals ``table``'s hands one after the other and keeps the blinds' history between them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.prev_plan: BlindPlan | None = None
        self.orbit_start: int | None = None
        self.timer: TimerHandle | None = None
        self.pending = False  # a deal is posted or timed

    @staticmethod
    def ready(st: SeatState) -> bool:
        return not st.sitting_out and st.stack > 0 and not st.leaving

    def maybe_deal(self, soon: bool) -> None:
        t = self.table
        if t.driver is not None or t.closed or self.pending:
            return
        if sum(1 for st in t.seats.values() if self.ready(st)) < t.settings.min_players:
            return
        self.pending = True
        delay = 0.0 if soon else t.settings.between_hands_seconds
        if delay <= 0:
            t.actor.post(self._deal)
        else:
            self.timer = t.host.clock.call_later(delay, lambda: t.actor.post(self._deal))

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def _statuses(self) -> dict[int, SeatStatus]:
        return {s: SeatStatus(s, self.ready(st), owes_bb=st.owes_bb, missed_sb=st.missed_sb, post_now=st.post_now)
                for s, st in self.table.seats.items()}

    def _new_driver(self, game: Game, structure: Structure, plan: DealPlan) -> HandDriver:
        t = self.table
        stakes = stakes_for(t.spec, game, structure)
        config = hand_config(table_game(game, t.settings), structure, stakes, plan,
                             {s: t.seats[s].stack for s in plan.dealt}, t.host.rng,
                             engine_settings(t.settings))
        rules = HandRules(t.settings, aai=t.host.aai, play_money=t.spec.play_money)
        return HandDriver.deal(t, config, f"{t.hand_no + 1}-{secrets.token_hex(4)}",
                               {s: t.seats[s].player_id for s in plan.dealt}, t.address, t.settler, rules)

    async def _deal(self) -> None:
        t = self.table
        self.pending = False
        if t.driver is not None or t.closed:
            return
        game, structure = t.game_now()
        plan = self._plan(game, structure)
        for _ in range(t.spec.max_seats):
            skip = self._skips_blind(plan)
            if skip is None:
                break
            await t.presence.sit_out(t.seats[skip].player_id, reason="options")
            plan = self._plan(game, structure)
        if plan is None:
            return
        driver = self._new_driver(game, structure, plan)
        await driver.open()
        # committed: from here the hand exists in the store (R-SERVER: voided if we die before settling)
        t.hand_no += 1
        t.driver = driver
        self._record_blinds(plan)
        for s in plan.dealt:
            st = t.seats[s]
            st.owes_bb = st.missed_sb = st.post_now = False
            st.hands_dealt += 1
        t.table_event(HandStartedEvent(kind="hand_started", hand_id=driver.hand_id, button=plan.button,
                                       seats=list(plan.dealt), game=game.id, structure=structure.value))
        t.broadcast_state()
        driver.play()

    def _plan(self, game: Game, structure: Structure) -> DealPlan | None:
        t = self.table
        return plan_deal(game, stakes_for(t.spec, game, structure), self._statuses(),
                         max_seats=t.spec.max_seats, prev_button=t.button,
                         min_players=t.settings.min_players, policy=t.settings.missed_blind_policy)

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
            st = self.table.seats[s]
            if s == blind_plan.big_blind and st.sit_out_next_bb:
                st.sit_out_next_bb = False
                return s
            if s in posting and not st.auto_post:
                return s
        return None

    def _record_blinds(self, plan: DealPlan) -> None:
        """R-MISSED: the blinds that passed sitting-out seats are owed; the button moves (R-TABLE-3)."""
        t = self.table
        blind_plan = plan.blind_plan
        if blind_plan is None:
            return
        sitting_out = [s for s, st in t.seats.items() if st.sitting_out and s not in blind_plan.dealt]
        for s, (m_bb, m_sb) in missed_blinds(
            sitting_out, prev=self.prev_plan, plan=blind_plan, max_seats=t.spec.max_seats
        ).items():
            t.seats[s].owes_bb |= m_bb
            t.seats[s].missed_sb |= m_sb
        if self.orbit_start is None:
            self.orbit_start = blind_plan.button
        self.prev_plan = blind_plan
        t.button = blind_plan.button

    # ------------------------------------------------------------------ end of hand
    async def on_settled(self, driver: HandDriver) -> None:
        t = self.table
        hand = driver.hand
        result = hand.result
        assert result is not None
        t.stats.append((sum(p.amount for p in result.pots) + result.rake, len(hand.seats), driver.players_at_flop))
        t.hand_times.append(t.now)
        for s, stack in result.stacks.items():
            st = t.seats.get(s)
            if st is not None and st.player_id == driver.players[s]:
                st.stack = stack
        prev_button = t.button
        t.driver = None
        t.table_event(HandOverEvent(kind="hand_over", hand_id=driver.hand_id, rake=result.rake,
                                    stacks=dict(result.stacks)))
        if t.rotation is not None:
            t.rotation.hand_finished(orbit_completed=self._orbit_completed(prev_button))
        for st in list(t.seats.values()):
            await self._between_hands(st)
        t.broadcast_state()
        self.maybe_deal(soon=False)

    async def _between_hands(self, st: SeatState) -> None:
        """A seat after a hand: leave if leaving, the waiting top-up (R-BUYIN-1), sit out when out of chips."""
        t = self.table
        if st.leaving:
            await t.cash_seats.cash_out(st)
            return
        if st.pending_top_up:
            value, st.pending_top_up = st.pending_top_up, 0
            try:
                await t.cash_seats.add_chips(st, value)
            except RoomError as exc:
                t.host.send(st.player_id, t.address.event(
                    TopUpFailedEvent(kind="top_up_failed", message=exc.message)))
        if st.stack <= 0 and not st.sitting_out:
            await t.presence.sit_out(st.player_id, reason="no_chips")

    def _orbit_completed(self, button: int | None) -> bool:
        """R-HORSE-3 orbit mode: the button is about to pass the seat where the current game began."""
        t = self.table
        if t.rotation is None:
            return False
        game, _ = t.rotation.current()
        if game.kind is Kind.STUD or button is None or self.orbit_start is None:
            count = t.rotation.hands_in_game + 1
            players = max(2, sum(1 for st in t.seats.values() if not st.sitting_out))
            done = count >= players
        else:
            active = [s for s, st in t.seats.items() if not st.sitting_out and st.stack > 0] or [button]
            nxt = clockwise_after(button, active, t.spec.max_seats)[0]
            done = on_arc(self.orbit_start, button, nxt, t.spec.max_seats) and nxt != button
        if done:
            self.orbit_start = None
        return done
