"""Action, time-bank and draw timers on the FakeClock (R-TIME-1..4); nothing sleeps."""

from __future__ import annotations

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.room.move import Move
from riverboat.store import Store

from .conftest import act_as_seat, acted, assert_conserved, seat_players

NL = TableSpec(name="Timers", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)
# first hand with seats 0,1,2: button 0, small blind 1, big blind 2; seat 0 acts first pre-flop


async def test_r_time_1_player_who_has_not_bet_is_folded_after_20_seconds(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500)
    hand = table.hand
    assert hand is not None and hand.to_act == 0
    await clock.advance(19.9)
    assert hand.to_act == 0 and acted(table) == []
    await clock.advance(0.2)
    assert acted(table) == [(0, "fold")]  # facing the big blind: no free check
    assert table.seats[0].timebank == 30.0  # the time bank is not used by a player who has not bet
    assert_conserved(store, 30_000)


async def test_r_time_3_expiry_checks_when_checking_is_free(room: Room, store: Store, clock: FakeClock) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    assert table.hand is not None and table.hand.to_act == 2  # big blind, unraised pot
    await clock.advance(20.1)
    assert acted(table)[-1] == (2, "check")


async def test_r_time_2_time_bank_after_20_seconds_for_a_player_who_has_bet(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500)
    hand = table.hand
    assert hand is not None
    await act_as_seat(room, table, 0, "call")  # seat 0 has now bet in this hand
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")
    # flop: small blind first
    await act_as_seat(room, table, 1, "check")
    await act_as_seat(room, table, 2, "bet", 20)
    assert hand.to_act == 0
    await clock.advance(20.5)
    assert hand.to_act == 0 and table.decision is not None and table.decision.phase == "timebank"
    await clock.advance(29.0)  # 20 s + 29.5 s of the 30 s bank
    assert hand.to_act == 0
    await clock.advance(1.0)
    assert acted(table)[-1] == (0, "fold")
    assert table.seats[0].timebank == 0.0


async def test_r_time_3_acting_inside_the_time_bank_spends_only_what_was_used(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500, )
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")
    await act_as_seat(room, table, 1, "check")
    await act_as_seat(room, table, 2, "bet", 20)
    await clock.advance(30)  # 20 s action + 10 s of time bank
    await act_as_seat(room, table, 0, "fold")
    assert abs(table.seats[0].timebank - 20.0) < 1e-6
    await act_as_seat(room, table, 1, "fold")
    await room.quiesce()
    # refill after the hand (R-TIME-3 reading: +5 s per hand dealt, capped at 60 s)
    assert abs(table.seats[0].timebank - 25.0) < 1e-6


async def test_r_time_4_draw_timer_30_seconds_then_stand_pat(room: Room, store: Store, clock: FakeClock) -> None:
    td = TableSpec(name="Draw", game="triple_draw_27", structure="FL", small_blind=5, big_blind=10, max_seats=6,
                   min_buy_in=100, max_buy_in=None)
    _tid, table, _ = await seat_players(room, store, td, 2, 500)
    hand = table.hand
    assert hand is not None
    # heads-up: button (seat 0) posts the small blind and acts first
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "check")
    drawer = hand.to_act
    assert drawer is not None and "stand_pat" in {k.value for k in hand.legal_actions().kinds}
    await clock.advance(29.9)
    assert hand.to_act == drawer
    await clock.advance(0.2)
    draws = [e for e in hand.events if e.kind == "drew" and e.seat == drawer]
    assert draws and draws[-1].data["count"] == 0  # stood pat
    assert hand.to_act != drawer


async def test_r_time_4_late_drawer_may_not_bet_or_raise_in_the_next_round(
    room: Room, store: Store, clock: FakeClock
) -> None:
    td = TableSpec(name="Draw", game="triple_draw_27", structure="FL", small_blind=5, big_blind=10, max_seats=6,
                   min_buy_in=100, max_buy_in=None)
    _tid, table, players = await seat_players(room, store, td, 2, 500)
    hand = table.hand
    assert hand is not None
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "check")
    late = hand.to_act
    assert late is not None
    other = 1 - late
    await clock.advance(30.1)  # late drawer stands pat on the timer
    await act_as_seat(room, table, other, "stand_pat")
    assert hand.to_act is not None
    if hand.to_act == other:
        await act_as_seat(room, table, other, "bet", 10)
        kinds = room.view(players[late], table.id)["hand"]["legal"]["kinds"]
        assert "raise" not in kinds and "call" in kinds
        with pytest.raises(RoomError) as err:
            await room.act(players[late], table.id, Move.parse("raise", 30))
        assert err.value.code == "illegal_action" and "R-TIME-4" in str(err.value) and "R-" not in err.value.message
        await act_as_seat(room, table, late, "call")
    else:
        kinds = room.view(players[late], table.id)["hand"]["legal"]["kinds"]
        assert "bet" not in kinds and "check" in kinds
        with pytest.raises(RoomError) as err:
            await room.act(players[late], table.id, Move.parse("bet", 10))
        assert err.value.code == "illegal_action" and "R-TIME-4" in str(err.value) and "R-" not in err.value.message
        await act_as_seat(room, table, late, "check")
        await act_as_seat(room, table, other, "check")
    # the next draw and betting round: the restriction is over
    for seat in (hand.to_act, 1 - hand.to_act):  # type: ignore[operator]
        await act_as_seat(room, table, seat, "stand_pat")
    first = hand.to_act
    assert first is not None
    kinds = room.view(table.seats[first].player_id, table.id)["hand"]["legal"]["kinds"]
    assert "bet" in kinds
