"""A cash table's seats and their money: sitting down with a buy-in, reopening a table taken over with its chips,
topping up, leaving and cashing out (R-CASH-2/3, R-BUYIN).

Part of :class:`~riverboat.room.table.Table` (composed, runs inside the table's actor). Every chip that comes to or
leaves the table goes through the ledger here, with the command's idempotency key where the player's frame gave
one (issue #29) and a fresh key otherwise.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from riverboat.room.errors import RoomError
from riverboat.room.frames import LeavingEvent, LeftEvent, SeatedEvent, ToppedUpEvent
from riverboat.room.replies import Left, Seated, ToppedUp
from riverboat.room.seating import SeatState, check_buy_in, check_seat

if TYPE_CHECKING:
    from riverboat.room.table import Table


class CashSeats:
    """Buy-ins, top-ups and cash-outs at ``table``."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def _idem(self, what: str, player_id: int) -> str:
        return f"{what}:{self.table.id}:{player_id}:{secrets.token_hex(8)}"

    async def sit(self, player_id: int, seat: object, buy_in: object, wait_for_bb: bool = True, *,
                  idem_key: str | None = None) -> Seated:
        t = self.table
        if t.seat_of(player_id) is not None:
            raise RoomError("already_seated", "you already have a seat at this table")
        seat_no = check_seat(seat, t.spec.max_seats, t.seats)
        amount = check_buy_in(buy_in, t.spec.min_buy_in, t.spec.max_buy_in)
        gw = t.host.gateway
        await gw.call(
            gw.ledger.buy_in, player_id, t.id, amount, idem_key or self._idem("buy_in", player_id),
            currency=t.spec.currency, min_buy_in=t.spec.min_buy_in, max_buy_in=t.spec.max_buy_in,
            once=idem_key is not None, seat=seat_no,
        )
        st = SeatState(seat_no, player_id, amount, timebank=t.settings.timebank_seconds)
        st.alias = await t.host.alias_of(player_id)
        st.owes_bb = True  # R-NEWPLAYER-1; a starting table deals everyone in free (blinds.plan_blinds)
        t.waiting_list.discard(player_id)
        st.post_now = not wait_for_bb
        t.seats[seat_no] = st
        t.host.seated(player_id, t.id)
        t.table_event(SeatedEvent(kind="seated", seat=seat_no, player=player_id, alias=st.alias, stack=amount))
        t.broadcast_state()
        t.dealer.maybe_deal(soon=True)
        return Seated(table=t.id, seat=seat_no, stack=amount)

    def reopen(self, seats: list[tuple[int, int, int, str | None]], hands_played: int, button: int | None) -> None:
        """Reopen a table whose chips are already on it, with no buy-in: a table taken over by another cluster
        host (docs/cluster.md). ``seats``: ``(player_id, seat, stack, alias)`` as after the last settled hand
        (R-SERVER-1: the hand in progress was voided, every stack is its pre-hand value); ``hands_played`` goes
        on rising, the button goes on from where it was. Nobody owes a blind; dealing resumes at once."""
        t = self.table
        for player_id, seat, stack, alias in seats:
            if seat in t.seats or t.seat_of(player_id) is not None or not 0 <= seat < t.spec.max_seats:
                raise RoomError("bad_seat", f"cannot restore player {player_id} to seat {seat} of table {t.id}")
            st = SeatState(seat, player_id, stack, timebank=t.settings.timebank_seconds)
            st.alias = alias
            t.seats[seat] = st
            t.host.seated(player_id, t.id)
        t.hand_no = hands_played
        t.button = button
        t.dealer.maybe_deal(soon=True)

    async def leave(self, player_id: int) -> Left:
        """R-CASH-3: leave at any time; the stack goes back to the balance (after the hand if dealt in)."""
        t = self.table
        st = t.need_seat(player_id)
        if t.driver is not None and t.in_hand(st):
            st.leaving = True
            t.driver.abandon(st.seat)
            t.table_event(LeavingEvent(kind="leaving", seat=st.seat, player=player_id, alias=st.alias))
            return Left(table=t.id, pending=True, cashed_out=None)
        amount = await self.cash_out(st)
        return Left(table=t.id, pending=False, cashed_out=amount)

    async def top_up(self, player_id: int, value: int, *, idem_key: str | None = None) -> ToppedUp:
        """R-BUYIN-1: chips are added between hands only (table stakes); during a hand the top-up waits (then it
        joins the other waiting top-ups in one ledger call with a key of its own: ``idem_key`` is for the ledger
        call made now). ``value``: a positive integer, as the ``top_up`` frame's validation left it."""
        t = self.table
        st = t.need_seat(player_id)
        mx = t.spec.max_buy_in
        if mx is not None and st.stack + st.pending_top_up + value > mx:
            raise RoomError(
                "buy_in_range",
                f"top-up to {st.stack + st.pending_top_up + value} would exceed the table maximum of {mx} (R-BUYIN-2)",
            )
        balance = await t.host.gateway.call(t.host.gateway.ledger.balance, player_id, t.spec.currency)
        if balance < st.pending_top_up + value:
            raise RoomError("insufficient_funds", f"your balance of {balance} does not cover a top-up of {value}")
        if t.in_hand(st):
            st.pending_top_up += value
            return ToppedUp(table=t.id, pending=True, stack=st.stack)
        await self.add_chips(st, value, idem_key)
        t.dealer.maybe_deal(soon=True)
        return ToppedUp(table=t.id, pending=False, stack=st.stack)

    async def add_chips(self, st: SeatState, value: int, idem_key: str | None = None) -> None:
        """A top-up's chips from the balance onto the seat, now (between hands)."""
        t = self.table
        await t.host.gateway.call(
            t.host.gateway.ledger.top_up, st.player_id, t.id, value,
            idem_key or self._idem("top_up", st.player_id),
            currency=t.spec.currency, max_buy_in=t.spec.max_buy_in, once=idem_key is not None,
        )
        st.stack += value
        t.table_event(ToppedUpEvent(kind="topped_up", seat=st.seat, player=st.player_id, alias=st.alias,
                                    stack=st.stack))
        t.broadcast_state()

    async def cash_out(self, st: SeatState) -> int:
        """The seat's stack back to the balance; the seat is free (and offered to the waiting list)."""
        t = self.table
        amount = await t.host.gateway.call(
            t.host.gateway.ledger.cash_out, st.player_id, t.id, self._idem("cash_out", st.player_id),
            currency=t.spec.currency,
        )
        if st.evict_timer is not None:
            st.evict_timer.cancel()
        del t.seats[st.seat]
        t.host.unseated(st.player_id, t.id)
        t.table_event(LeftEvent(kind="left", seat=st.seat, player=st.player_id, alias=st.alias,
                                cashed_out=amount))
        t.host.send(st.player_id, t.address.event(LeftEvent(kind="left", seat=st.seat, cashed_out=amount)))
        t.broadcast_state()
        await t.waiting_list.offer_seats()
        return int(amount)
