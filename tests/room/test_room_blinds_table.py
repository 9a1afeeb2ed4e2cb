"""Button and blinds at a live table: R-TABLE-3, R-BLIND-3, R-NEWPLAYER-1, R-MISSED-1..3 (both readings of
R-MISSED-2), R-SITOUT-5 -- driven hand by hand on the FakeClock."""

from __future__ import annotations

from dataclasses import replace

import pytest

from riverboat.room import FakeClock, Room, TableSpec
from riverboat.room.table import Table
from riverboat.store import Store

from .conftest import assert_conserved, make_players, play_hand_passively, seat_players

NL = TableSpec(name="Blinds", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


def posts(table: Table) -> dict[int, list[tuple[str, int]]]:
    assert table.hand is not None
    out: dict[int, list[tuple[str, int]]] = {}
    for e in table.hand.events:
        if e.kind == "posted":
            assert e.seat is not None
            out.setdefault(e.seat, []).append((e.data["what"], e.data["amount"]))
    return out


async def next_hand(room: Room, table: Table, clock: FakeClock) -> None:
    await play_hand_passively(room, table.id)
    await clock.advance(2)
    assert table.hand is not None


async def test_r_blind_3_heads_up_button_posts_small_blind(room: Room, store: Store, clock: FakeClock) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 2, 500)
    for _ in range(3):
        hand = table.hand
        assert hand is not None
        button = table.button
        assert button is not None
        assert posts(table)[button] == [("blind", 5)]
        other = next(s for s in hand.seats if s != button)
        assert posts(table)[other] == [("blind", 10)]
        assert hand.to_act == button  # the button acts first pre-flop heads-up
        await next_hand(room, table, clock)


async def test_r_table_3_button_moves_clockwise_every_hand(room: Room, store: Store, clock: FakeClock) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500)
    buttons = [table.button]
    for _ in range(3):
        await next_hand(room, table, clock)
        buttons.append(table.button)
    assert buttons == [0, 1, 2, 0]
    assert_conserved(store, 30_000)


@pytest.mark.parametrize(("policy", "expected"), [
    ("bb_plus_dead_sb", [("live", 10), ("dead", 5)]),  # R-MISSED-2 default (004)
    ("sb_dead", [("dead", 5)]),  # R-MISSED-2 reading of 002
])
async def test_r_missed_2_returning_after_missing_both_blinds_posts_per_setting(
    room: Room, store: Store, clock: FakeClock, policy: str, expected: list[tuple[str, int]]
) -> None:
    spec = replace(NL, settings={"missed_blind_policy": policy})
    _tid, table, players = await seat_players(room, store, spec, 4, 500)
    assert (table.button, table.dealer.prev_plan.small_blind, table.dealer.prev_plan.big_blind) == (0, 1, 2)  # type: ignore[union-attr]
    await room.sit_out(players[3], table.id)  # sits out from hand 2 on
    await next_hand(room, table, clock)  # hand 2: BB passes seat 3
    stack3 = table.seats[3].stack  # after hand 1, the last one seat 3 played
    assert 3 not in table.hand.seats  # type: ignore[union-attr]
    assert table.seats[3].owes_bb and not table.seats[3].missed_sb
    await next_hand(room, table, clock)  # hand 3: SB passes seat 3
    assert table.seats[3].owes_bb and table.seats[3].missed_sb
    assert table.seats[3].stack == stack3  # R-SITOUT-5: nothing charged while sitting out
    await room.sit_in(players[3], table.id, post=True)
    await next_hand(room, table, clock)
    hand = table.hand
    assert hand is not None and 3 in hand.seats
    got = [p for p in posts(table)[3] if p[0] != "blind"]
    assert sorted(got) == sorted(expected)
    # R-MISSED-3: dead money goes to the pot and does not count as the poster's bet
    live = sum(a for what, a in got if what == "live")
    assert hand.bets[hand.seats.index(3)] == live
    assert not table.seats[3].owes_bb and not table.seats[3].missed_sb
    await play_hand_passively(room, table.id)
    assert_conserved(store, 40_000)


async def test_r_missed_1_waiting_for_the_big_blind_instead_of_posting(
    room: Room, store: Store, clock: FakeClock
) -> None:
    _tid, table, players = await seat_players(room, store, NL, 4, 500)
    await room.sit_out(players[3], table.id)
    await next_hand(room, table, clock)
    await next_hand(room, table, clock)
    await room.sit_in(players[3], table.id, post=False)
    dealt_with_3 = []
    for _ in range(4):
        await next_hand(room, table, clock)
        hand = table.hand
        assert hand is not None
        if 3 in hand.seats:
            dealt_with_3.append(table.dealer.prev_plan)
            break
    assert dealt_with_3, "the big blind reached seat 3"
    plan = dealt_with_3[0]
    assert plan is not None and plan.big_blind == 3
    assert posts(table)[3] == [("blind", 10)]  # posts only the big blind, no dead money (R-MISSED-1)


@pytest.mark.parametrize("wait_for_bb", [True, False])
async def test_r_newplayer_1_new_player_waits_for_or_posts_the_big_blind(
    room: Room, store: Store, clock: FakeClock, wait_for_bb: bool
) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 4, 500)  # hand 1: button 0, SB 1, BB 2
    (newcomer,) = make_players(store, 1)
    await room.sit(newcomer, table.id, 5, 500, wait_for_bb=wait_for_bb)
    await next_hand(room, table, clock)  # hand 2: button 1, SB 2, BB 3 -- seat 5 is not the big blind
    hand = table.hand
    assert hand is not None and table.dealer.prev_plan is not None and table.dealer.prev_plan.big_blind == 3
    if wait_for_bb:
        assert 5 not in hand.seats  # waits (no chips charged)
        await next_hand(room, table, clock)  # hand 3: button 2, SB 3, BB reaches seat 5
        assert table.hand is not None and 5 in table.hand.seats
        assert table.dealer.prev_plan.big_blind == 5
        assert posts(table)[5] == [("blind", 10)]
    else:
        assert 5 in hand.seats
        assert posts(table)[5] == [("live", 10)]  # one big blind, live, from any position
    await play_hand_passively(room, table.id)
    assert_conserved(store, 50_000)
