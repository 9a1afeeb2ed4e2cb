"""Table options of a seat (issue #14 part 2; the ``options`` command): without auto-post a player due to post a
blind is sat out instead (R-SITOUT-5: no blinds while sat out; R-MISSED-1 the big blind is then owed), and "sit out
at the next big blind" sits the player out just before their big blind, once."""

from __future__ import annotations

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.store import Store

from .conftest import play_hand_passively, seat_players

NL = TableSpec(name="Opt", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


async def _next_hand(room: Room, clock: FakeClock, table_id: str) -> None:
    await play_hand_passively(room, table_id)
    for _ in range(10):
        await clock.advance(2)
        if room.tables[table_id].hand is not None:
            return


async def test_sit_out_next_big_blind_and_no_auto_post(room: Room, store: Store, clock: FakeClock) -> None:
    """R-SITOUT-5, R-MISSED-1: the options take effect at the deal where the seat would post."""
    tid, table, players = await seat_players(room, store, NL, 4, 500)
    result = await room.set_options(players[0], tid, {"sit_out_next_bb": True})
    assert result.wire()["options"] == {"auto_post": True, "sit_out_next_bb": True, "wait_for_bb": True,
                                        "auto_muck": True}
    for _ in range(6):  # within a round of four hands seat 0 would be the big blind
        await _next_hand(room, clock, tid)
        if table.seats[0].sitting_out:
            break
    assert table.seats[0].sitting_out and not table.seats[0].sit_out_next_bb
    hand = table.hand
    assert hand is None or 0 not in hand.seats
    # without auto-post, the next blind due sits the player out instead of posting
    await room.set_options(players[1], tid, {"auto_post": False})
    for _ in range(6):
        await _next_hand(room, clock, tid)
        if table.seats[1].sitting_out:
            break
    assert table.seats[1].sitting_out
    hand = table.hand
    assert hand is None or 1 not in hand.seats


async def test_options_refused_for_a_player_without_a_seat(room: Room, store: Store, clock: FakeClock) -> None:
    """Bad input: nothing changed, a clear error."""
    tid, _table, players = await seat_players(room, store, NL, 2, 500)
    with pytest.raises(RoomError) as info:
        await room.set_options(players[0] + 1000, tid, {"auto_post": False})
    assert info.value.code == "not_seated"
