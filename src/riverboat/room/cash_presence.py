"""Who is playing at a cash table: sitting out and back in (R-SITOUT, R-NEWPLAYER-1, R-MISSED), the eviction after
a long sit-out (R-SITOUT-3), a lost connection (R-DISC-3, R-TIME-5) and the seat's table options.

Part of :class:`~riverboat.room.table.Table` (composed, runs inside the table's actor). R-SITOUT-4 (sitting out at
one cash table sits the player out at all of them) is the room's, which calls :meth:`CashPresence.sit_out` here at
each table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riverboat.room.errors import RoomError
from riverboat.room.frames import EvictedEvent, SatInEvent, SatOutEvent
from riverboat.room.replies import Options, OptionsSet, SatIn
from riverboat.room.seating import SeatState

if TYPE_CHECKING:
    from riverboat.room.table import Table

OPTION_NAMES = ("auto_post", "sit_out_next_bb", "wait_for_bb")


class CashPresence:
    """Sit-out, sit-in, disconnections and table options at ``table``."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def sit_out(self, player_id: int, *, reason: str = "player") -> None:
        """R-SITOUT: no blinds from the next hand on; evicted after ``sitout_evict_seconds`` (R-SITOUT-3)."""
        t = self.table
        st = t.need_seat(player_id)
        if not st.sitting_out:
            st.sitting_out = True
            st.sitout_since = t.now
            st.post_now = False
            self._arm_eviction(st)
            t.table_event(SatOutEvent(kind="sat_out", seat=st.seat, player=player_id, alias=st.alias,
                                      reason=reason))
            t.broadcast_state()

    async def sit_in(self, player_id: int, post: bool = False) -> SatIn:
        """Back from sit-out (or stop waiting for the big blind): post now (R-NEWPLAYER-1, R-MISSED) or wait."""
        t = self.table
        st = t.need_seat(player_id)
        if st.stack <= 0 and st.pending_top_up <= 0:
            raise RoomError("bad_amount", "you have no chips on this table; top up first")
        st.sitting_out = False
        st.sitout_since = None
        st.post_now = bool(post)
        if st.evict_timer is not None:
            st.evict_timer.cancel()
            st.evict_timer = None
        t.table_event(SatInEvent(kind="sat_in", seat=st.seat, player=player_id, alias=st.alias,
                                 post=st.post_now))
        t.broadcast_state()
        t.dealer.maybe_deal(soon=True)
        return SatIn(table=t.id, owes_bb=st.owes_bb, missed_sb=st.missed_sb)

    async def disconnected(self, player_id: int) -> None:
        """R-DISC-3: a cash player who loses the connection is sat out (the current hand goes on, on timers)."""
        t = self.table
        st = t.seat_of(player_id)
        if st is None:
            t.watchers.discard(player_id)
            return
        if t.driver is not None:
            t.driver.player_disconnected(player_id)
        if not st.sitting_out:
            await self.sit_out(player_id, reason="disconnected")
            st.disconnected_at = t.now

    async def reconnected(self, player_id: int) -> None:
        """Back within the reconnect window (R-TIME-5; a page reload): a player sat out only by the lost connection
        sits in again by themselves, exactly as before (docs/rules-differences.md)."""
        t = self.table
        st = t.seat_of(player_id)
        if st is not None and st.disconnected_at is not None:
            back_in_time = t.now - st.disconnected_at <= t.settings.reconnect_seconds
            st.disconnected_at = None
            if back_in_time and st.sitting_out and (st.stack > 0 or st.pending_top_up > 0):
                await self.sit_in(player_id, post=st.post_now)
        if st is not None and t.driver is not None:
            t.driver.player_reconnected(player_id)
        if st is not None or player_id in t.watchers:
            t.send_state(player_id)

    async def set_options(self, player_id: int, changes: dict[str, bool]) -> OptionsSet:
        """The seat's table options (``auto_post``, ``sit_out_next_bb``, ``wait_for_bb``); applied from the next
        deal on."""
        t = self.table
        st = t.need_seat(player_id)
        for name, value in changes.items():
            if name not in OPTION_NAMES:
                raise RoomError("bad_option", f"unknown table option {name!r}")
            setattr(st, name, bool(value))
        t.send_state(player_id)
        return OptionsSet(table=t.id, options=Options(**st.options()))

    def _arm_eviction(self, st: SeatState) -> None:
        t = self.table
        if st.evict_timer is not None:
            st.evict_timer.cancel()
        since = st.sitout_since
        player = st.player_id

        async def evict() -> None:
            cur = t.seat_of(player)
            if cur is None or not cur.sitting_out or cur.sitout_since != since:
                return
            t.table_event(EvictedEvent(kind="evicted", seat=cur.seat, player=player, alias=cur.alias,
                                       rule="R-SITOUT-3"))
            if t.driver is not None and t.in_hand(cur):
                cur.leaving = True
                t.driver.abandon(cur.seat)
            else:
                await t.cash_seats.cash_out(cur)

        st.evict_timer = t.host.clock.call_later(t.settings.sitout_evict_seconds, lambda: t.actor.post(evict))
