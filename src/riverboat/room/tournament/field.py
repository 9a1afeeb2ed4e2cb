"""The field after every change (part of the director, issue #29 item 3): players ranked leave their tables and
hear their place and prize (R-TOURN-GEN-5/6), a hand-for-hand round's busts ranked together, the tables
rebalanced and dealt again, the final table, the end (one player left, R-TOURN-GEN-6) and the end of a Day 1
flight, whose survivors go to Day 2 with their chips (R-TOURN-FLIGHT-1..6, :mod:`.flights`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from riverboat.room.tournament import awards
from riverboat.room.tournament.awards import Outcome
from riverboat.room.tournament.dealer import Dealer
from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.lifecycle import PLAYING, Status, Transition
from riverboat.room.tournament.purse import Purse
from riverboat.room.tournament.seating import Seating
from riverboat.room.tournament.state import Result, TournamentState
from riverboat.room.tournament.tables import Entrant, TourneyTable

Hook = Callable[[], Awaitable[None]]


class Field:
    def __init__(self, st: TournamentState, herald: Herald, purse: Purse, seating: Seating, dealer: Dealer, *,
                 on_finished: Hook, flight_ended: Hook) -> None:
        self.st = st
        self.herald = herald
        self.purse = purse
        self.seating = seating
        self.dealer = dealer
        self.on_finished = on_finished  # the variant's hook
        self.flight_ended = flight_ended  # the lobby's (a Day 2 may start now)

    def finish_players(self, out: Outcome, gone: list[int]) -> None:
        """Players ranked by :meth:`Purse.rank` leave their tables and hear their place and prize."""
        st = self.st
        st.stacks_dirty = True
        for f in out.finishes:
            prize = out.prizes.get(f.player_id, 0) + st.early.pop(f.player_id, 0)
            st.results[f.player_id] = Result(f.player_id, f.place, f.place_to, prize,
                                             st.bounties_won.get(f.player_id, 0))
        st.stats.naive_scan += len(gone) * len(st.tables)
        for pid in gone:
            self.leave(pid)
            self.herald.finished(st.results[pid])
        for f in out.finishes:
            if f.won:
                e = self.leave(f.player_id, balance=False)
                self.herald.finished(st.results[f.player_id])
                if e.chips != st.chips_issued:
                    st.stats.chips_conserved = False

    def leave(self, pid: int, *, balance: bool = True) -> Entrant:
        st = self.st
        e = st.entrants_by_id.pop(pid)
        st.out_pending.discard(pid)
        st.alive -= 1
        table = st.table_of(e)
        if table is not None:
            table.remove(e)
            if balance:
                st.balancer.change(table.id, -1)
        return e

    def mark_round(self, gone: list[int]) -> None:
        st = self.st
        for pid in gone:  # out, ranked with the whole hand-for-hand round (R-TOURN-GEN-6)
            e = st.entrants_by_id[pid]
            e.busted_round = True
            table = st.table_of(e)
            if table is not None:
                table.remove(e)
                st.balancer.change(table.id, -1)

    async def close_round(self) -> None:
        st = self.st
        busts = [b for b, _ in st.round_busts]
        out = Outcome()
        st.round_busts = []
        self.purse.rank(busts, out)
        await st.gw.call(st.gw.store.tournament_play.finish_unplayed, st.id, out.finishes, out.payments,
                         f"h4h:{st.h4h_round}")
        self.purse.count(out)
        self.finish_players(out, [b.player_id for b in busts])

    async def changed(self, table: TourneyTable) -> None:
        """After a hand or a player's departure at ``table``: the end, the end of the flight, or the next deal
        (hand-for-hand on the bubble, rebalancing, the final table)."""
        st = self.st
        if st.status not in PLAYING:
            return
        if st.alive <= 1 and not st.round_busts and not st.settling and not st.staged:
            await (self.end_flight() if st.spec.flight is not None else self.finished())
            return
        if st.flight_over:
            if not st.in_hand:
                await self.end_flight()
            return
        self.dealer.update_hand_for_hand()
        self.dealer.ready(table)
        if not st.in_hand or not st.h4h_round:
            await self.seating.rebalance()
        t = st.lifecycle.on_field(st.alive, len(st.tables))
        if t is not None and t.to is Status.FINAL_TABLE:
            st.lifecycle.apply(t, st.now)
            self.herald.notify_all("final_table", {"players": st.alive})
        await self.dealer.pump()

    async def finished(self) -> None:
        st = self.st
        st.lifecycle.apply(Transition(Status.FINISHED, "one player left (R-TOURN-GEN-6)"), st.now)
        await st.gw.call(st.gw.store.tournaments.close, st.id, f"t_close:{st.id}")
        await self.on_finished()
        st.done.set()

    # ------------------------------------------------------------------ flights (R-TOURN-FLIGHT)
    async def end_flight(self) -> None:
        """The flight is over (its levels played, or one player left): its survivors go to Day 2 with their chips
        (R-TOURN-FLIGHT-3/6) and each is told their Day 2 stack."""
        st = self.st
        assert st.spec.flight is not None
        survivors = {pid: e.chips for pid, e in st.entrants_by_id.items()}
        stacks = await st.gw.call(st.gw.store.tournament_play.advance, st.id, survivors)
        st.advanced = dict(stacks)
        st.lifecycle.apply(Transition(Status.FINISHED, "the flight's levels are over (R-TOURN-FLIGHT-3)"), st.now)
        for pid, chips in survivors.items():
            self.herald.notify(pid, "flight_over", {"day2": st.spec.flight.day2, "chips": chips,
                                                    "day2_chips": stacks[pid], "rule": "R-TOURN-FLIGHT-3"})
        await self.on_finished()
        st.done.set()
        await self.flight_ended()

    async def lone_winner(self) -> None:
        """A Day 2 with a single qualifier (R-TOURN-FLIGHT-4 reading: reaching Day 2 is a prize, never cancelled):
        they finish first at once and take the whole pool."""
        st = self.st
        (pid,) = st.entrants_by_id
        out = Outcome()
        awards.winner(st.spec, pid, self.purse.place_awards(), 0, 0, out)
        await st.gw.call(st.gw.store.tournament_play.finish_unplayed, st.id, out.finishes, out.payments,
                         "lone-winner")
        self.purse.count(out)
        self.finish_players(out, [])
        await self.finished()
