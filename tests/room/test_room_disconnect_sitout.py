"""Disconnection (R-DISC-1, R-DISC-3, R-TIME-5), sit-out (R-SITOUT-3/4/5) and eviction, on the FakeClock."""

from __future__ import annotations

from riverboat.room import FakeClock, Room, TableSpec
from riverboat.store import Store

from .conftest import (
    Recorder,
    act_as_seat,
    acted,
    assert_conserved,
    assert_table_matches_store,
    make_players,
    play_hand_passively,
    seat_players,
)

NL = TableSpec(name="Disc", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


async def test_r_disc_1_disconnected_player_who_has_bet_gets_30_seconds_then_check(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, players = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")
    await act_as_seat(room, table, 1, "check")
    await act_as_seat(room, table, 2, "check")
    hand = table.hand
    assert hand is not None and hand.to_act == 0
    room.detach(players[0])
    await room.quiesce()
    await clock.advance(25)  # past the 20 s action timer, inside the 30 s reconnect window
    assert hand.to_act == 0
    await clock.advance(5.1)
    assert acted(table)[-1] == (0, "check")  # R-DISC-1: can check -> checked
    assert table.seats[0].sitting_out  # R-DISC-3: sat out from the next hand


async def test_r_disc_1_disconnected_player_who_has_not_bet_is_on_the_20_second_timer(
    room: Room, store: Store, clock: FakeClock
) -> None:
    """R-DISC-1 implementation note: a disconnected player who has not bet is handled by R-TIME-1 (20 s)."""
    _tid, table, players = await seat_players(room, store, NL, 3, 500)
    room.detach(players[0])
    await room.quiesce()
    await clock.advance(19.9)
    assert table.hand is not None and table.hand.to_act == 0
    await clock.advance(0.2)
    assert acted(table) == [(0, "fold")]


async def test_r_disc_1_fold_when_check_is_not_possible(room: Room, store: Store, clock: FakeClock) -> None:
    _tid, table, players = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")
    await act_as_seat(room, table, 1, "bet", 20)
    await act_as_seat(room, table, 2, "call")
    room.detach(players[0])
    await room.quiesce()
    await clock.advance(29.9)
    assert table.hand is not None and table.hand.to_act == 0
    await clock.advance(0.2)
    assert acted(table)[-1] == (0, "fold")


async def test_r_disc_1_reconnect_in_time_restores_the_normal_timer(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, players = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")
    await act_as_seat(room, table, 1, "bet", 20)
    await act_as_seat(room, table, 2, "call")
    room.detach(players[0])
    await clock.advance(10)
    rec = Recorder(players[0])
    room.attach(players[0], rec)  # back: full view again
    await room.quiesce()
    states = [m for m in rec.messages if m["type"] == "table_state"]
    assert states and states[-1]["view"]["you"]["seat"] == 0
    mine = next(p for p in states[-1]["view"]["hand"]["players"] if p["seat"] == 0)
    assert "??" not in mine["cards"] and len(mine["cards"]) == 2
    # the deadline is unchanged (30 s) but expiry now leads into the time bank (R-TIME-2)
    await clock.advance(20.5)
    assert table.decision is not None and table.decision.phase == "timebank"
    await act_as_seat(room, table, 0, "call")
    assert rec.violations == []


async def test_r_disc_3_disconnected_cash_player_pays_no_blinds_and_is_evicted_after_7_minutes(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, players = await seat_players(room, store, NL, 3, 500)
    gone = players[2]
    room.detach(gone)
    await room.quiesce()
    assert table.seats[2].sitting_out
    await play_hand_passively(room, table.id)
    stack_after_first = table.seats[2].stack
    # the table plays on heads-up without seat 2 (R-SITOUT-5: no blinds while sat out)
    for _ in range(3):
        await clock.advance(2)
        hand = table.hand
        if hand is None:
            break
        assert 2 not in hand.seats
        await play_hand_passively(room, table.id)
    assert table.seats[2].stack == stack_after_first
    assert table.seats[2].owes_bb  # missed blinds recorded (R-MISSED)
    since = table.seats[2].sitout_since
    assert since is not None
    await clock.advance(since + 419 - clock.now())
    assert 2 in table.seats  # not yet 7 minutes
    await clock.advance(2)
    assert 2 not in table.seats  # R-DISC-3 / R-SITOUT-3: lost the seat ...
    assert store.ledger.table_stack(gone, table.id) == 0
    assert store.ledger.balance(gone) == 10_000 - 500 + stack_after_first  # ... and the chips went home
    assert_conserved(store, 30_000)


async def test_r_disc_3_back_within_the_reconnect_window_is_exactly_as_before(
    room: Room, store: Store, clock: FakeClock
) -> None:
    """R-DISC-3 with R-TIME-5 (issue #14 item 4): after a page reload (detach, attach again within the 30 s window)
    the cash player sits in again by themselves: not sitting out, dealt the next hand; a return after the window
    leaves them sat out until they sit in (R-SITOUT-5)."""
    _tid, table, players = await seat_players(room, store, NL, 3, 500)
    back = players[1]
    sink = Recorder(back)
    room.detach(back)
    await room.quiesce()
    await clock.advance(1.0)
    room.attach(back, sink)
    await room.quiesce()
    await play_hand_passively(room, table.id)
    await clock.advance(table.settings.reconnect_seconds + 5)
    await room.quiesce()
    assert not table.seats[1].sitting_out
    hand = table.hand
    if hand is None:
        await clock.advance(5)
        hand = table.hand
    assert hand is not None and 1 in hand.seats  # dealt the next hand
    # too late: back after the window, still sat out
    room.detach(back)
    await room.quiesce()
    await clock.advance(table.settings.reconnect_seconds + 1)
    room.attach(back, sink)
    await room.quiesce()
    assert table.seats[1].sitting_out


async def test_r_sitout_3_eviction_exactly_after_seven_minutes(room: Room, store: Store, clock: FakeClock) -> None:
    a, b, c = make_players(store, 3)
    tid = await room.open_table(NL)
    table = room.tables[tid]
    await room.sit(a, tid, 0, 300)
    await room.sit(b, tid, 1, 300)
    await room.sit(c, tid, 2, 300)
    await room.sit_out(c, tid)  # c was never dealt in (two-player first hand), so c leaves at once on eviction
    t0 = clock.now()
    await play_hand_passively(room, tid)
    await clock.advance(t0 + 419.5 - clock.now())
    assert table.seat_of(c) is not None
    await clock.advance(0.6)
    assert table.seat_of(c) is None
    assert store.ledger.balance(c) == 10_000
    assert_conserved(store, 30_000)


async def _seated_at_two_tables(room: Room, store: Store) -> tuple[int, str, str]:
    """Player ``a`` seated at two cash tables (hold'em and Omaha), each with one opponent (R-SITOUT-4 set-up)."""
    a, b, c = make_players(store, 3)
    t1 = await room.open_table(NL)
    t2 = await room.open_table(TableSpec(name="Second", game="omaha", structure="PL", small_blind=5, big_blind=10,
                                         max_seats=6, min_buy_in=200, max_buy_in=1000))
    await room.sit(a, t1, 0, 300)
    await room.sit(b, t1, 1, 300)
    await room.sit(a, t2, 0, 300)
    await room.sit(c, t2, 1, 300)
    return a, t1, t2


async def test_r_sitout_4_sitting_out_at_one_cash_table_sits_out_at_all(
    room: Room, store: Store, clock: FakeClock
) -> None:
    a, t1, t2 = await _seated_at_two_tables(room, store)
    result = await room.sit_out(a, t1)
    assert result.also_sat_out == [t2]
    assert room.tables[t1].seat_of(a).sitting_out  # type: ignore[union-attr]
    assert room.tables[t2].seat_of(a).sitting_out  # type: ignore[union-attr]
    for tid in (t1, t2):
        await play_hand_passively(room, tid)
    await clock.advance(5)
    assert room.tables[t1].hand is None and room.tables[t2].hand is None  # nobody left to play with
    for tid in (t1, t2):
        assert_table_matches_store(store, room.tables[tid])
    assert_conserved(store, 30_000)


async def test_r_sitout_4_back_in_at_one_cash_table_is_back_in_at_all(room: Room, store: Store, clock: FakeClock
                                                                       ) -> None:
    """R-SITOUT-4 (no sitting out at one cash table while playing at another): sat out at both, the player sits in
    at one and is back at the other too (``also_sat_in``), waiting for the big blind there; a table where they
    have no chips stays as it is."""
    a, t1, t2 = await _seated_at_two_tables(room, store)
    await room.sit_out(a, t1)
    back = await room.sit_in(a, t2)
    assert back.also_sat_in == [t1] and back.sitting_out is False
    for tid in (t1, t2):
        st = room.tables[tid].seat_of(a)
        assert st is not None and not st.sitting_out
    assert room.tables[t1].seat_of(a).post_now is False  # type: ignore[union-attr]  # waits for the big blind there
    assert (await room.sit_out(a, t2)).also_sat_out == [t1]
    for tid in (t1, t2):
        await play_hand_passively(room, tid)
    await clock.advance(5)
    for tid in (t1, t2):
        assert room.tables[tid].hand is None  # out at both again: nobody left to play with
        assert_table_matches_store(store, room.tables[tid])
    assert_conserved(store, 30_000)
