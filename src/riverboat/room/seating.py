"""Seats at a cash table and the checks of R-BUYIN / R-CASH before anything moves.

A :class:`SeatState` is the table's record of one occupied seat: the player's chips (mirroring their table escrow
in the store between hands), sit-out and blind-debt flags, time bank and connection.
"""

from __future__ import annotations

from dataclasses import dataclass

from riverboat.room.clock import TimerHandle
from riverboat.room.errors import RoomError
from riverboat.room.frames import SeatStatusName, SeatView, TableOptions, YouView


@dataclass(slots=True)
class SeatState:
    seat: int
    player_id: int
    stack: int
    timebank: float
    sitting_out: bool = False
    sitout_since: float | None = None
    owes_bb: bool = False  # R-NEWPLAYER-1 / R-MISSED-1
    missed_sb: bool = False  # R-MISSED-2
    post_now: bool = False  # post instead of waiting for the big blind
    leaving: bool = False  # leave after the current hand (R-CASH-3)
    pending_top_up: int = 0
    evict_timer: TimerHandle | None = None
    #: R-DISC-3 / R-TIME-5 reading: when a lost connection sat the player out (back within the window: sit in)
    disconnected_at: float | None = None
    auto_post: bool = True  # table options (Table.set_options)
    sit_out_next_bb: bool = False
    wait_for_bb: bool = True
    hands_dealt: int = 0
    alias: str | None = None  # R-ALIAS-1: the name other players know them by

    def public(self, connected: bool) -> SeatView:
        status: SeatStatusName = "sitting_out" if self.sitting_out else (
            "waiting" if self.owes_bb and not self.post_now else "playing")
        return {
            "seat": self.seat,
            "player": self.player_id,
            "alias": self.alias,
            "stack": self.stack,
            "status": status,
            "connected": connected,
            "owes_bb": self.owes_bb,
            "missed_sb": self.missed_sb,
        }

    def private(self) -> YouView:
        """What only the seated player sees about their seat (the view's ``you``)."""
        return {
            "seat": self.seat,
            "stack": self.stack,
            "timebank": round(self.timebank, 3),
            "sitting_out": self.sitting_out,
            "owes_bb": self.owes_bb,
            "missed_sb": self.missed_sb,
            "post_now": self.post_now,
            "leaving": self.leaving,
            "pending_top_up": self.pending_top_up,
            "options": self.options(),
        }

    def options(self) -> TableOptions:
        return {"auto_post": self.auto_post, "sit_out_next_bb": self.sit_out_next_bb,
                "wait_for_bb": self.wait_for_bb, "auto_muck": True}


def check_int_amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError("bad_amount", f"{what} must be a whole number of minor units (an integer), got {value!r}")
    if value <= 0:
        raise RoomError("bad_amount", f"{what} must be positive, got {value}")
    return value


def check_buy_in(amount: object, min_buy_in: int, max_buy_in: int | None) -> int:
    """R-BUYIN-1/2: a buy-in between the table minimum and maximum (no maximum: all the player's money)."""
    value = check_int_amount(amount, "buy-in")
    if value < min_buy_in:
        raise RoomError("buy_in_range", f"buy-in {value} is below the table minimum of {min_buy_in} (R-BUYIN-2)")
    if max_buy_in is not None and value > max_buy_in:
        raise RoomError("buy_in_range", f"buy-in {value} is above the table maximum of {max_buy_in} (R-BUYIN-2)")
    return value


def check_seat(seat: object, max_seats: int, taken: dict[int, SeatState]) -> int:
    """R-CASH-2: any free seat, first come first served."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RoomError("bad_seat", f"seat must be an integer, got {seat!r}")
    if not 0 <= seat < max_seats:
        raise RoomError("bad_seat", f"seat {seat} does not exist (seats 0 to {max_seats - 1})")
    if seat in taken:
        raise RoomError("seat_taken", f"seat {seat} is taken")
    return seat
