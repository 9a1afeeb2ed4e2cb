"""Crash voiding (R-SERVER-1..3), rake at a live table (R-RAKE-2/4/6, R-GEN-3) and mixed-game rotation
(R-HORSE-1/3, R-8GAME-3), with a real store."""

from __future__ import annotations

from dataclasses import replace

import pytest

from riverboat.cards import seeded_rng
from riverboat.room import FakeClock, Room, TableSpec
from riverboat.store import Store
from riverboat.store.postings import AccountKey

from .conftest import act_as_seat, assert_conserved, make_players, play_hand_passively, seat_players

NL = TableSpec(name="Rake", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


def house(store: Store, currency: str = "EUR") -> int:
    return store.ledger.account_balance(AccountKey.rake(currency))


@pytest.mark.parametrize("cash_out_on_crash", [True, False])
async def test_r_server_1_3_crash_mid_hand_voids_and_restores_pre_hand_stacks(
    store: Store, clock: FakeClock, cash_out_on_crash: bool
) -> None:
    crashed = Room(store, clock=clock, rng=seeded_rng(1))
    await crashed.start()
    tid, table, players = await seat_players(crashed, store, NL, 3, 500)
    await act_as_seat(crashed, table, 0, "raise", 40)
    await act_as_seat(crashed, table, 1, "call")
    hand_id = table.hand_id
    assert hand_id is not None and table.hand is not None and table.hand.pot > 0
    # the process dies: actors vanish, nothing else reaches the store
    for actor in crashed._actors():
        await actor.stop()
    crashed.gateway.close()
    clock.remove_settle_hook(crashed.quiesce)

    restarted = Room(store, clock=clock, rng=seeded_rng(2), cash_out_on_crash=cash_out_on_crash)
    voided = await restarted.start()
    assert voided == [(tid, hand_id)]
    record = store.hands.get(tid, hand_id)
    assert record is not None and record.status == "void"
    for pid in players:
        if cash_out_on_crash:  # R-SERVER-3 flag on: the table money goes back to the account
            assert store.ledger.balance(pid) == 10_000 and store.ledger.table_stack(pid, tid) == 0
        else:  # every stack is what it was when the hand started
            assert store.ledger.table_stack(pid, tid) == 500
    assert_conserved(store, 30_000)
    await restarted.stop()


async def test_r_server_1_stop_during_a_hand_voids_it_and_returns_every_stack(
    store: Store, clock: FakeClock
) -> None:
    room = Room(store, clock=clock, rng=seeded_rng(3))
    await room.start()
    tid, table, players = await seat_players(room, store, NL, 2, 400)
    await act_as_seat(room, table, 0, "raise", 100)
    hand_id = table.hand_id
    await room.stop()
    assert store.hands.get(tid, hand_id).status == "void"  # type: ignore[arg-type, union-attr]
    assert [store.ledger.balance(p) for p in players] == [10_000, 10_000]
    assert_conserved(store, 20_000)


async def test_r_rake_6_flop_hand_raked_into_the_house_account(room: Room, store: Store) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")  # pot 30 at the flop
    await play_hand_passively(room, table.id)
    # R-RAKE-6: EUR0.05/0.10, 3 players: 1 cent per 15 cents -> floor(30 / 15) = 2 cents
    assert house(store) == 2
    assert_conserved(store, 30_000)


async def test_r_rake_2_no_flop_no_drop(room: Room, store: Store) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "raise", 40)
    await act_as_seat(room, table, 1, "fold")
    await act_as_seat(room, table, 2, "fold")
    await room.quiesce()
    assert table.hand_no == 1 and house(store) == 0
    assert_conserved(store, 30_000)


async def test_r_rake_6_cap_heads_up(room: Room, store: Store) -> None:
    _tid, table, _ = await seat_players(room, store, NL, 2, 1000)
    await act_as_seat(room, table, 0, "raise", 1000)
    await act_as_seat(room, table, 1, "call")
    await play_hand_passively(room, table.id)  # the run-it-twice vote (R-RIT) is answered "once"
    # pot 2000 -> 133 cents uncapped; heads-up cap at EUR0.05/0.10 is EUR1
    assert house(store) == 100
    assert_conserved(store, 20_000)


async def test_r_gen_3_play_money_never_raked(room: Room, store: Store) -> None:
    players = make_players(store, 2, currency="PLAY")
    tid = await room.open_table(replace(NL, currency="PLAY"))
    table = room.tables[tid]
    for seat, pid in enumerate(players):
        await room.sit(pid, tid, seat, 1000)
    await room.quiesce()
    await act_as_seat(room, table, 0, "raise", 1000)
    await act_as_seat(room, table, 1, "call")
    await play_hand_passively(room, table.id)
    assert table.hand_no >= 1 and house(store, "PLAY") == 0
    assert_conserved(store, 20_000, "PLAY")


HORSE = TableSpec(name="Horse", game="holdem", structure="FL", mixed="horse", small_blind=5, big_blind=10,
                  ante=2, bring_in=5, max_seats=6, min_buy_in=100, max_buy_in=None)


async def test_r_horse_3_rotation_by_hands(room: Room, store: Store, clock: FakeClock) -> None:
    spec = replace(HORSE, settings={"rotation_mode": "hands", "hands_per_game": 2})
    _tid, table, _ = await seat_players(room, store, spec, 3, 1000)
    games = []
    for _ in range(7):
        assert table.hand is not None
        games.append(table.hand.game.id)
        await play_hand_passively(room, table.id)
        await clock.advance(2)
    # R-HORSE-1: Limit Hold'em, Omaha Hi/Lo, Razz, 7 Card Stud, Stud Hi/Lo
    assert games == ["holdem", "holdem", "omaha_hl", "omaha_hl", "razz", "razz", "stud"]
    assert_conserved(store, 30_000)


async def test_r_horse_3_rotation_after_each_orbit(room: Room, store: Store, clock: FakeClock) -> None:
    spec = replace(HORSE, settings={"rotation_mode": "orbit"})
    _tid, table, _ = await seat_players(room, store, spec, 3, 1000)
    games, buttons = [], []
    for _ in range(7):
        assert table.hand is not None
        games.append(table.hand.game.id)
        buttons.append(table.button)
        await play_hand_passively(room, table.id)
        await clock.advance(2)
    assert games == ["holdem"] * 3 + ["omaha_hl"] * 3 + ["razz"]
    assert buttons[:6] == [0, 1, 2, 0, 1, 2]
    assert_conserved(store, 30_000)


async def test_r_8game_1_rotation_starts_with_triple_draw(room: Room, store: Store, clock: FakeClock) -> None:
    spec = replace(HORSE, mixed="8game", max_buy_in=1000, settings={"rotation_mode": "hands", "hands_per_game": 1})
    _tid, table, _ = await seat_players(room, store, spec, 2, 1000)
    games = []
    for _ in range(8):
        assert table.hand is not None
        games.append((table.hand.game.id, table.hand.structure.value))
        await play_hand_passively(room, table.id)
        await clock.advance(2)
    assert games == [("triple_draw_27", "FL"), ("holdem", "FL"), ("omaha_hl", "FL"), ("razz", "FL"),
                     ("stud", "FL"), ("stud_hl", "FL"), ("holdem", "NL"), ("omaha", "PL")]
    assert_conserved(store, 20_000)
