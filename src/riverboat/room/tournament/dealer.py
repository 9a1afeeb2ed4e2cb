"""The level clock and the deal (part of the director, issue #29 item 3): levels by time or by hands and breaks
(:mod:`.levels`), which tables deal and when (the pause between hands, tables ready at the same instant dealt
together), hand-for-hand play on the money bubble (R-TOURN-GEN-6 reading) and the end of a Day 1 flight's levels
(R-TOURN-FLIGHT-3)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.levels import LevelClock
from riverboat.room.tournament.lifecycle import PLAYING
from riverboat.room.tournament.purse import Purse
from riverboat.room.tournament.state import TournamentState
from riverboat.room.tournament.tables import TourneyTable


class Dealer:
    def __init__(self, st: TournamentState, herald: Herald, purse: Purse,
                 show_deal: Callable[[TourneyTable], None], end_flight: Callable[[], Awaitable[None]]) -> None:
        self.st = st
        self.herald = herald
        self.purse = purse
        self.show_deal = show_deal
        self.end_flight = end_flight

    async def first_deal(self) -> None:
        st = self.st
        if st.status not in PLAYING:
            return
        st.levels = LevelClock(st.spec, started_at=st.now)  # the level clock starts with the first hand
        st.waiting = {t.id for t in st.tables.values() if len(t.seats) >= 2}
        await self.pump()

    async def pump(self) -> None:
        """Deal every waiting table, unless the tournament is on a break, playing hand-for-hand between rounds,
        or its flight day is over."""
        st = self.st
        if st.status not in PLAYING or st.flight_over or st.levels is None:
            return
        pos = st.levels.position(st.now)
        if pos.on_break:
            self._arm_break(pos.seconds_left or 0.0)
            return
        if pos.level != st.level_seen:
            st.level_seen = pos.level
            lv = st.spec.level(pos.level)
            self.herald.notify_all("level", {"level": pos.level + 1, "small_blind": lv.small_blind,
                                             "big_blind": lv.big_blind, "ante": lv.ante,
                                             "seconds_left": pos.seconds_left})
            await self.purse.maybe_finalize_pool()
            if await self._flight_done(pos.level):
                return
        if st.h4h_round and not self._next_round():
            return
        level = st.spec.level(pos.level)
        waiting, st.waiting = st.waiting, set()
        for tid in sorted(waiting):
            table = st.tables.get(tid)
            if table is not None and not table.in_hand and await table.deal(level):
                st.in_hand += 1
                self.show_deal(table)

    def _next_round(self) -> bool:
        """Hand-for-hand: True when the next round may be dealt (every table done, the pause over)."""
        st = self.st
        if st.in_hand or st.h4h_pause_armed:
            return False
        delay = st.settings.between_hands_seconds
        if delay > 0 and not st.h4h_pause_over:
            self._arm_h4h_pause(delay)
            return False
        st.h4h_pause_over = False
        st.h4h_round += 1
        st.stats.hand_for_hand_rounds += 1
        return True

    def _arm_h4h_pause(self, delay: float) -> None:
        """Every table of the last hand-for-hand round is done: the next round is dealt, to all tables at once,
        after the same pause as between two hands (without it, players who never bust played hands in no time)."""
        st = self.st
        st.h4h_pause_armed = True

        async def resume() -> None:
            st.h4h_pause_armed = False
            st.h4h_pause_over = True
            await self.pump()

        st.clock.call_later(delay, lambda: st.actor.post(resume))

    def _arm_break(self, seconds: float) -> None:
        st = self.st
        if st.break_timer is not None:
            return
        self.herald.notify_all("break", {"seconds": round(seconds, 1)})

        async def resume() -> None:
            st.break_timer = None
            await self.pump()

        st.break_timer = st.clock.call_later(max(seconds, 0.001), lambda: st.actor.post(resume))

    async def _flight_done(self, level: int) -> bool:
        st = self.st
        flight = st.spec.flight
        if flight is None or level < flight.levels:
            return False
        st.flight_over = True
        if not st.in_hand:
            await self.end_flight()
        return True

    def ready(self, table: TourneyTable) -> None:
        """The table deals again after the pause between hands (in hand-for-hand play, with every table after the
        round's pause). Tables ready at the same instant share one timer and are dealt together (their hands then
        end, and are recorded, together)."""
        st = self.st
        if len(table.seats) < 2:
            return
        delay = st.settings.between_hands_seconds
        if delay <= 0 or st.h4h_round:
            st.waiting.add(table.id)
            return
        when = st.clock.now() + delay
        group = st.ready_at.get(when)
        if group is not None:
            group.append(table.id)
            return
        st.ready_at[when] = [table.id]

        async def ready() -> None:
            for tid in st.ready_at.pop(when, ()):
                t = st.tables.get(tid)
                if t is not None and len(t.seats) >= 2 and not t.in_hand:
                    st.waiting.add(tid)
            await self.pump()

        st.clock.call_later(delay, lambda: st.actor.post(ready))

    def update_hand_for_hand(self) -> None:
        """Hand-for-hand on the money bubble, with more than one table: from the moment one bust per table could
        burst it (``paid < alive <= paid + tables``) until it has burst. Starting only at ``paid + 1`` let the
        bubble burst outside hand-for-hand whenever two tables busted players in hands dealt apart (most seeds at
        400 and 1,000 entrants), and never started when two busts went from ``paid + 2`` to ``paid``."""
        st = self.st
        paid = self.purse.paid_places()
        bubble = len(st.tables) > 1 and paid < st.alive <= paid + len(st.tables) and st.pool_final
        if bubble and not st.h4h_round:
            st.h4h_round = 1
            st.h4h_pause_over = False
            self.herald.notify_all("hand_for_hand", {"on": True})
        elif not bubble and st.h4h_round and not st.in_hand and not st.round_busts:
            st.h4h_round = 0
            self.herald.notify_all("hand_for_hand", {"on": False})
