"""Re-buys and the add-on (part of the director, issue #29 item 3; R-TOURN-REBUY): paying in (the chips come
between hands, table stakes), the decision window of a busted player (R-TOURN-REBUY-3 reading: ``rebuy_offer``,
ranked only when they decline or the time runs out), automatic re-buys and the bots' add-ons."""

from __future__ import annotations

from riverboat.room.errors import RoomError
from riverboat.room.tournament.awards import Outcome
from riverboat.room.tournament.dealer import Dealer
from riverboat.room.tournament.field import Field
from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.lifecycle import PLAYING
from riverboat.room.tournament.purse import Purse
from riverboat.room.tournament.ranking import Bust
from riverboat.room.tournament.state import TournamentState
from riverboat.room.tournament.tables import TourneyTable


class Rebuys:
    def __init__(self, st: TournamentState, herald: Herald, purse: Purse, dealer: Dealer, field: Field) -> None:
        self.st = st
        self.herald = herald
        self.purse = purse
        self.dealer = dealer
        self.field = field

    async def set_auto_rebuy(self, player_id: int, on: bool) -> dict[str, object]:
        self.st.need(player_id).auto_rebuy = on
        return {"tournament": self.st.id, "auto_rebuy": on}

    async def pay_in(self, player_id: int, kind: str, idem_key: str | None = None) -> dict[str, object]:
        """A re-buy (stack at or below the limit, during the period) or the add-on; the chips are added between
        hands (table stakes). ``idem_key``: the command's key (a used one: ``id_reused``, nothing moves)."""
        st = self.st
        e = st.need(player_id)
        rb = st.spec.rebuy
        deciding = kind == "rebuy" and player_id in st.offers  # busted in the period: the window holds
        ok = deciding or (self.purse.rebuy_open(e) if kind == "rebuy" else self.purse.addon_open(e))
        table = st.table_of(e)
        if rb is None or not ok or (table is not None and table.in_hand and e.chips > 0):
            raise RoomError("rebuy_closed", f"no {kind} now (R-TOURN-REBUY-3)")
        price, fee, chips = ((rb.price, rb.fee, rb.chips) if kind == "rebuy"
                             else (rb.addon_price, rb.addon_fee, rb.addon_chips))
        key = (f"t_{kind}:{st.id}:{player_id}:{idem_key}" if idem_key is not None
               else f"t_{kind}:{st.id}:{player_id}:{e.rebuys}:{e.addons}")
        await st.gw.call(st.gw.store.tournaments.pay_in, player_id, st.id, price, fee, key, kind=kind,
                         once=idem_key is not None)
        st.pool_collected += price
        st.awards = None
        st.chips_issued += chips
        e.chips += chips
        if kind == "rebuy":
            e.rebuys += 1
        else:
            e.addons += 1
        assert e.table_id is not None and e.seat is not None
        await st.gw.call(st.gw.store.tournament_play.seat, st.id, [(player_id, e.table_id, e.seat, e.chips)])
        st.stacks_dirty = True
        if deciding:
            await self.decided(player_id, rebuy=True)
        return {"tournament": st.id, "chips": e.chips}

    async def bust(self, pid: int) -> None:
        """A busted player who re-buys at once (a bot, or automatic re-buys): paid, or out when refused."""
        try:
            await self.pay_in(pid, "rebuy")
        except RoomError:
            await self.out_without_rebuy(pid)

    async def out_without_rebuy(self, pid: int) -> None:
        """A busted player who did not re-buy is out now: ranked at this moment (R-TOURN-GEN-6) and paid."""
        st = self.st
        e = st.entrants_by_id[pid]
        await self.purse.money_at(1)
        out = Outcome()
        self.purse.rank([Bust(pid, 0, e.entry_no)], out)
        await st.gw.call(st.gw.store.tournament_play.finish_unplayed, st.id, out.finishes, out.payments,
                         f"rebuy-out:{pid}:{e.rebuys}")
        self.purse.count(out)
        self.field.finish_players(out, [pid])

    def offer(self, pid: int) -> None:
        """Tell the busted player they may re-buy (``rebuy_offer``); they keep their seat with no chips (not dealt
        in) and are ranked only when they decline or the time runs out (R-TOURN-REBUY-3)."""
        st = self.st
        rb = st.spec.rebuy
        assert rb is not None
        st.offers[pid] = st.clock.call_later(
            rb.decision_seconds, lambda: st.actor.post(lambda: self.decided(pid, rebuy=False)))
        self.herald.notify(pid, "rebuy_offer", {"seconds": rb.decision_seconds, "price": rb.price, "fee": rb.fee,
                                                "chips": rb.chips, "currency": st.spec.currency,
                                                "rule": "R-TOURN-REBUY-3"})
        table = st.table_of(st.entrants_by_id[pid])
        if table is not None:
            self.herald.send_table_state(table, pid)

    async def decline(self, player_id: int) -> dict[str, object]:
        """The busted player declines to re-buy: their place is fixed now."""
        if player_id not in self.st.offers:
            raise RoomError("rebuy_closed", "you have no re-buy to decide (R-TOURN-REBUY-3)")
        await self.decided(player_id, rebuy=False)
        return {"tournament": self.st.id, "declined": True}

    async def decided(self, pid: int, *, rebuy: bool) -> None:
        st = self.st
        timer = st.offers.pop(pid, None)
        if timer is None or pid not in st.entrants_by_id:
            return
        timer.cancel()
        table = st.table_of(st.entrants_by_id[pid])
        if rebuy or st.status not in PLAYING:
            if table is not None:
                self.dealer.ready(table)
                await self.dealer.pump()
            return
        await self.out_without_rebuy(pid)
        if st.status in PLAYING and not st.in_hand and st.round_busts:
            await self.field.close_round()
        if table is not None:
            await self.field.changed(table)

    async def bot_addons(self, table: TourneyTable) -> None:
        """In-process bots take the add-on when it is offered (R-TOURN-REBUY-3)."""
        st = self.st
        if st.spec.rebuy is None or not st.spec.rebuy.addon_price:
            return
        for e in list(table.seats.values()):
            if e.player_id in st.bots and e.chips > 0 and self.purse.addon_open(e):
                await self.pay_in(e.player_id, "addon")
