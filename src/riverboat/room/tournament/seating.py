"""Seats and tables (part of the director, issue #29 item 3): the random seating at the start (R-TOURN-BAL-1), a
late entrant's seat (R-TOURN-REG-1), and balancing and breaking tables between hands (R-TOURN-BAL-1..7, through
:mod:`.balancing`: O(seats) per step)."""

from __future__ import annotations

from collections.abc import Callable

from riverboat.room.tournament.balancing import Break, Move, seat_far_from_big_blind
from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.state import TournamentState
from riverboat.room.tournament.tables import Entrant, TourneyTable

#: makes a table of the tournament (a cluster's director makes tables that may be dealt on another host)
TableFactory = Callable[[str], TourneyTable]


class Seating:
    def __init__(self, st: TournamentState, herald: Herald, make_table: TableFactory,
                 is_connected: Callable[[int], bool]) -> None:
        self.st = st
        self.herald = herald
        self.make_table = make_table
        self.is_connected = is_connected

    def new_table(self) -> TourneyTable:
        st = self.st
        st.table_seq += 1
        table = self.make_table(f"{st.id}/t{st.table_seq}")
        st.tables[table.id] = table
        return table

    def _entrant(self, player_id: int, entry_no: int, chips: int) -> Entrant:
        st = self.st
        e = Entrant(player_id, entry_no, chips, st.settings.timebank_seconds,
                    bounty=st.spec.knockout.bounty if st.spec.knockout else 0)
        e.sitting_out = player_id not in st.bots and not self.is_connected(player_id)  # R-TOURN-REG-5
        return e

    def initial(self) -> dict[int, tuple[str, int]]:
        """Random seats, as many tables as needed, their sizes differing by at most one (R-TOURN-BAL-1)."""
        st = self.st
        order = {pid: i + 1 for i, pid in enumerate(st.registered)}
        players = list(st.registered)
        st.choice.shuffle(players)
        n_tables = max(1, -(-len(players) // st.spec.seats))
        tables = [self.new_table() for _ in range(n_tables)]
        seating: dict[int, tuple[str, int]] = {}
        for i, pid in enumerate(players):
            table = tables[i % n_tables]
            e = self._entrant(pid, order[pid], st.carried.get(pid, st.spec.starting_stack))
            free = table.free_seats()
            table.add(e, free[st.choice.randrange(len(free))])
            st.entrants_by_id[pid] = e
            assert e.table_id is not None and e.seat is not None
            seating[pid] = (e.table_id, e.seat)
        for table in tables:
            st.balancer.add_table(table.id, len(table.seats))
        return seating

    async def late(self, player_id: int) -> TourneyTable:
        """R-TOURN-REG-1: a late entrant sits at a smallest table (a new one when every table is full)."""
        st = self.st
        st.entries += 1
        st.alive += 1
        st.chips_issued += st.spec.starting_stack
        e = self._entrant(player_id, st.entries, st.spec.starting_stack)
        st.entrants_by_id[player_id] = e
        st.awards = None
        tid = st.balancer.pick_smallest()
        opened: list[str] = []
        if tid is None or st.balancer.count(tid) >= st.spec.seats:
            table = self.new_table()
            st.balancer.add_table(table.id, 0)
            opened.append(table.id)
        else:
            table = st.tables[tid]
        seat = seat_far_from_big_blind(table.free_seats(), table.seats, table.big_blind, table.max_seats, st.choice)
        table.add(e, seat)
        st.balancer.change(table.id, +1)
        await self.herald.learn_aliases([player_id])
        await st.gw.call(st.gw.store.tournament_play.seat, st.id, [(player_id, table.id, seat, e.chips)],
                         open_tables=opened)
        self.herald.notify(player_id, "registered", {"table": table.id, "seat": seat, "late": True})
        return table

    async def rebalance(self) -> None:
        """R-TOURN-BAL-1..7: the balancer's moves and breaks, between hands."""
        st = self.st
        steps = st.balancer.rebalance()
        if not steps:
            return
        moves: list[tuple[int, str, int, int]] = []
        closed: list[str] = []
        for step in steps:
            if isinstance(step, Move):
                src = st.tables[step.source]
                players = list(src.seats.values())
                e = players[st.choice.randrange(len(players))]  # R-TOURN-BAL-4: a random player
                moves.append(self._move(e, src, st.tables[step.target]))
            elif isinstance(step, Break):
                src = st.tables.pop(step.table)
                st.waiting.discard(src.id)
                closed.append(src.id)
                for e, target in zip(list(src.seats.values()), step.targets, strict=True):
                    moves.append(self._move(e, src, st.tables[target]))
        await st.gw.call(st.gw.store.tournament_play.seat, st.id, moves, close_tables=closed)

    def _move(self, e: Entrant, src: TourneyTable, dst: TourneyTable) -> tuple[int, str, int, int]:
        """Seat ``e`` at ``dst`` in the seat furthest from its big blind (R-TOURN-BAL-6) and tell them
        (R-TOURN-BAL-3). Counts were already moved by the balancer."""
        st = self.st
        src.remove(e)
        seat = seat_far_from_big_blind(dst.free_seats(), dst.seats, dst.big_blind, dst.max_seats, st.choice)
        dst.add(e, seat)
        if len(dst.seats) >= 2 and not dst.in_hand:
            st.waiting.add(dst.id)
        if len(src.seats) < 2:
            st.waiting.discard(src.id)
        self.herald.notify(e.player_id, "moved", {"table": dst.id, "seat": seat, "rule": "R-TOURN-BAL-3",
                                                  "from_table": src.id, "broken": src.id not in st.tables})
        if e.player_id not in st.bots:
            self.herald.send_table_state(dst, e.player_id)  # the client follows the player to the new table
        return (e.player_id, dst.id, seat, e.chips)
