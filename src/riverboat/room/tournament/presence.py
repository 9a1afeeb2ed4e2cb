"""Who plays their own hands (part of the director, issue #29 item 3): the players' actions, the bots', and the
players who are away -- absent at the start (R-TOURN-REG-5), sat out (R-SITOUT-1/2) or disconnected (R-DISC-1/2,
R-TOURN-DISC-1) -- dealt in and checked or folded at once."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from riverboat.engine import Action
from riverboat.room.errors import RoomError
from riverboat.room.hand_driver import HandDriver, fallback_kind
from riverboat.room.move import Move
from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.state import TournamentState

VariantAuto = Callable[[HandDriver, int], Action | None]


class Presence:
    def __init__(self, st: TournamentState, herald: Herald, variant_auto: VariantAuto) -> None:
        self.st = st
        self.herald = herald
        self.variant_auto = variant_auto

    def auto_action(self, driver: HandDriver, seat: int) -> Action | None:
        """The driver's ``auto`` hook: the variant's action (Wild all-in), a bot's, or check/fold for a player
        away (R-SITOUT-1, R-DISC-2, R-TOURN-REG-5); None lets the player decide on the table's timers."""
        act = self.variant_auto(driver, seat)
        if act is not None:
            return act
        pid = driver.players[seat]
        bot = self.st.bots.get(pid)
        if bot is not None:
            return bot(driver, seat)
        e = self.st.entrants_by_id.get(pid)
        if e is not None and e.folded_away:
            return Action(seat, fallback_kind(driver.hand.legal_actions().kinds))
        return None

    async def connected(self, player_id: int) -> None:
        """A registered player logged in (or came back, R-DISC-1/2): no longer blinded away (R-TOURN-REG-5); a
        decision of theirs running on the reconnect window goes back to the normal timer."""
        e = self.st.entrants_by_id.get(player_id)
        if e is None:
            return
        e.sitting_out = e.away = False
        table = self.st.table_of(e)
        if table is not None:
            if table.driver is not None:
                table.driver.player_reconnected(player_id)
            await self.herald.learn_aliases([x.player_id for x in table.seats.values()])
            self.herald.send_table_state(table, player_id)

    async def disconnected(self, player_id: int) -> None:
        """R-DISC-1: the player lost the connection: at their turn in the hand in progress (now, or to come) a
        player who has bet gets the reconnect window, then is checked or folded; from the next hand on they are
        dealt in and checked or folded at once until they return (R-DISC-2, :meth:`TourneyTable.deal`)."""
        table = self.st.table_of(self.st.entrants_by_id.get(player_id))
        if table is not None and table.driver is not None:
            table.driver.player_disconnected(player_id)

    async def sit_out(self, player_id: int, out: bool) -> dict[str, object]:
        """R-SITOUT-1/2: the player sits out (``out``) or back in. Sitting out, they stay seated, are dealt in
        and keep paying blinds and antes, and are folded (checked when free) at once; their chips are blinded
        away until they sit in (a decision of theirs already running is played for them now)."""
        e = self.st.need(player_id)
        e.sat_out = out
        table = self.st.table_of(e)
        driver = table.driver if table is not None else None
        if out and isinstance(driver, HandDriver) and e.seat is not None and driver.players.get(e.seat) == player_id \
                and driver.hand.to_act == e.seat and not driver.hand.is_over:
            with contextlib.suppress(RoomError):  # (a vote or a draw the table decides on its timer)
                driver.act(e.seat, Move(fallback_kind(driver.hand.legal_actions().kinds)))
        if table is not None:
            self.herald.send_table_state(table, player_id)
        return {"tournament": self.st.id, "sitting_out": out}

    def act(self, player_id: int, move: Move) -> dict[str, object]:
        """The player's action in their hand (refused, nothing changes, when it is not theirs to take)."""
        e = self.st.need(player_id)
        table = self.st.table_of(e)
        driver = table.driver if table is not None else None
        if not isinstance(driver, HandDriver) or e.seat is None or driver.players.get(e.seat) != player_id:
            raise RoomError("not_your_turn", "you are not in a hand of this tournament")
        driver.act(e.seat, move)
        return {"ok": True}
