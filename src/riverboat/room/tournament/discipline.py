"""Disqualification (part of the director, issue #29 item 3; R-INTEG-5, R-WALLET-8, R-OPER-1): a player in a hand
is folded at their turn and removed once it is over; otherwise at once. No place; their chips leave play and
their buy-ins and fees stay forfeited in the pool and with the house."""

from __future__ import annotations

from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.state import TournamentState


class Discipline:
    def __init__(self, st: TournamentState, herald: Herald) -> None:
        self.st = st
        self.herald = herald

    async def disqualify(self, player_id: int, operator_id: int) -> dict[str, object]:
        """The operator's power: pending until the player's hand is over (they fold at their turn), else now."""
        st = self.st
        e = st.need(player_id)
        table = st.table_of(e)
        if table is not None and table.driver is not None and table.driver.seat_of(player_id) is not None:
            table.driver.abandon(e.seat or 0)  # folds at their turn; out after this hand
            st.disqualified[player_id] = operator_id
            return {"tournament": st.id, "player": player_id, "pending": True}
        await self.now(player_id, operator_id)
        return {"tournament": st.id, "player": player_id, "pending": False}

    async def now(self, player_id: int, operator_id: int) -> None:
        """Out of the tournament with no place, now."""
        st = self.st
        e = st.entrants_by_id.pop(player_id)
        st.disqualified.pop(player_id, None)
        await st.gw.call(st.gw.store.tournaments.disqualify, operator_id, st.id, player_id)
        table = st.table_of(e)
        if table is not None:
            table.remove(e)
            st.balancer.change(table.id, -1)
        st.chips_issued -= e.chips
        st.alive -= 1
        self.herald.notify(player_id, "disqualified", {"rule": "R-INTEG-5"})

    async def after_hand(self, players: list[int]) -> None:
        """Players of a finished hand whose disqualification waited for it are out now."""
        st = self.st
        for pid in [p for p in players if p in st.disqualified and p in st.entrants_by_id]:
            await self.now(pid, st.disqualified[pid])
