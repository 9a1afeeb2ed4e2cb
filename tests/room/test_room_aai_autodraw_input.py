"""Artificial all-in policy and allowance (R-AAI-1/2/4/6), automatic draw at a live table (R-AUTODRAW-1), bad input
changing nothing, and the lobby."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from riverboat.cards import Card
from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.room.autodraw import autodraw_high
from riverboat.room.commands import TopUpFrame
from riverboat.room.disconnect import DAY, AaiAllowance, AutoAction, aai_applies, auto_action
from riverboat.room.move import Move
from riverboat.room.settings import DisconnectPolicy
from riverboat.store import Store

from .conftest import act_as_seat, assert_conserved, play_hand_passively, seat_players

NL = TableSpec(name="Input", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


@pytest.mark.parametrize(("structure", "play_money", "applies"), [
    ("FL", False, True), ("SL", False, True), ("NL", False, False), ("PL", False, False), ("HPL", False, False),
    ("FL", True, False),
])
def test_r_aai_4_only_real_money_fixed_and_spread_limit(structure: str, play_money: bool, applies: bool) -> None:
    assert aai_applies(DisconnectPolicy.ARTIFICIAL_ALLIN, structure=structure, play_money=play_money) is applies
    # R-AAI-6 default policy: never artificial all-in
    assert not aai_applies(DisconnectPolicy.CHECK_FOLD, structure=structure, play_money=play_money)


def test_r_aai_1_money_in_the_pot_is_all_in_otherwise_fold() -> None:
    common = dict(connected=False, aai_possible=True, aai_available=True)
    assert auto_action(can_check=False, committed=20, **common) is AutoAction.ARTIFICIAL_ALLIN  # type: ignore[arg-type]
    assert auto_action(can_check=False, committed=0, **common) is AutoAction.FOLD  # type: ignore[arg-type]
    # allowance used up (R-AAI-2): folded
    assert auto_action(connected=False, can_check=False, committed=20, aai_possible=True,
                       aai_available=False) is AutoAction.FOLD
    # a connected player who timed out is never artificially all-in (R-TIME-3)
    assert auto_action(connected=True, can_check=False, committed=20, aai_possible=True,
                       aai_available=True) is AutoAction.FOLD


async def test_r_aai_2_allowance_counts_a_rolling_24_hours(clock: FakeClock) -> None:
    allowance = AaiAllowance(per_24h=2)
    player = 42
    t0 = clock.wall()
    allowance.use(player, t0)
    await clock.advance(3600)
    allowance.use(player, clock.wall())
    await clock.advance(3600)
    assert not allowance.available(player, clock.wall())
    await clock.advance(DAY - 2 * 3600 + 1)  # the first use is now more than 24 hours old
    assert allowance.available(player, clock.wall()) and allowance.used(player, clock.wall()) == 1


async def test_r_autodraw_1_disconnected_player_draws_by_the_keep_list(
    room: Room, store: Store, clock: FakeClock
) -> None:
    spec = TableSpec(name="Draw5", game="draw5", structure="FL", small_blind=5, big_blind=10, max_seats=6,
                     min_buy_in=100, max_buy_in=None)
    _tid, table, players = await seat_players(room, store, spec, 2, 500)
    hand = table.hand
    assert hand is not None
    await act_as_seat(room, table, hand.to_act, "call")  # type: ignore[arg-type]
    await act_as_seat(room, table, hand.to_act, "check")  # type: ignore[arg-type]
    drawer = hand.to_act
    assert drawer is not None and "draw" in {k.value for k in hand.legal_actions().kinds}
    cards = [Card(c) for c in hand.cards[hand.seats.index(drawer)]]
    expected = autodraw_high(cards, max_discards=5)
    room.detach(table.seats[drawer].player_id)
    await room.quiesce()
    await clock.advance(30.1)
    drew = [e for e in hand.events if e.kind == "drew" and e.seat == drawer]
    assert drew and drew[-1].data["count"] == len(expected)
    private = [e for e in hand.events if e.kind == "drew_cards" and e.seat == drawer]
    assert sorted(private[-1].data["discarded"]) == sorted(str(c) for c in expected)


async def test_bad_input_is_refused_and_changes_nothing(room: Room, store: Store) -> None:
    tid, table, players = await seat_players(room, store, NL, 3, 500)
    hand = table.hand
    assert hand is not None
    to_act = hand.to_act
    assert to_act is not None
    actor, other = table.seats[to_act].player_id, table.seats[(to_act + 1) % 3].player_id
    before_view, before_events = hand.view(None), len(hand.events)
    before_money = store.ledger.balances("EUR")
    malformed = [  # refused where the move is made (Move.parse: the frame's fields), before any table
        (dict(kind="shove"), "illegal_action"),
        (dict(kind=7), "illegal_action"),
        (dict(kind="raise", amount="lots"), "bad_amount"),
        (dict(kind="raise", amount=True), "bad_amount"),
        (dict(kind="draw", cards=["Zz"]), "illegal_action"),
        (dict(kind="draw", cards=7), "illegal_action"),
    ]
    for fields, code in malformed:
        with pytest.raises(RoomError) as err:
            Move.parse(**fields)
        assert err.value.code == code, (fields, err.value)
    refused = [  # well-formed moves the table or the engine refuses
        (dict(player_id=actor, table_id=tid, move=Move.parse("raise", 10**12)), "illegal_action"),
        (dict(player_id=actor, table_id=tid, move=Move.parse("raise", -5)), "illegal_action"),
        (dict(player_id=actor, table_id=tid, move=Move.parse("check")), "illegal_action"),
        (dict(player_id=other, table_id=tid, move=Move.parse("fold")), "not_your_turn"),
        (dict(player_id=999_999, table_id=tid, move=Move.parse("fold")), "not_seated"),
        (dict(player_id=actor, table_id="nope", move=Move.parse("fold")), "no_table"),
    ]
    for kwargs, code in refused:
        with pytest.raises(RoomError) as err:
            await room.act(**kwargs)  # type: ignore[arg-type]
        assert err.value.code == code, (kwargs, err.value)
    for bad in (0, 1.5, True):  # the top-up frame refuses these (issue #29: the amount is an int from there on)
        with pytest.raises(ValidationError):
            TopUpFrame(v=1, type="top_up", table=tid, amount=bad)  # type: ignore[arg-type]
    with pytest.raises(RoomError):
        await room.sit_in(999_999, tid)
    assert hand.view(None) == before_view and len(hand.events) == before_events
    assert store.ledger.balances("EUR") == before_money
    await play_hand_passively(room, tid)
    assert_conserved(store, 30_000)


@pytest.mark.parametrize(("change", "code"), [
    (dict(game="poker"), "bad_settings"),
    (dict(structure="XL"), "bad_settings"),
    (dict(max_seats=11), "bad_settings"),  # R-TABLE-1: hold'em seats at most 10
    (dict(max_buy_in=None), "bad_settings"),  # R-BUYIN-2: NL needs a maximum
    (dict(min_buy_in=0), "bad_settings"),
    (dict(big_blind=15, small_blind=5), "bad_settings"),  # R-RAKE-5: no iPoker row for a 15-cent big blind
    (dict(rake="mystery"), "bad_settings"),
    (dict(settings={"action_seconds": "soon"}), "bad_settings"),
    (dict(settings={"disconnect_policy": "pray"}), "bad_settings"),
    (dict(settings={"color": "green"}), "bad_settings"),
])
async def test_open_table_refuses_what_the_rules_do_not_allow(room: Room, change: dict, code: str) -> None:
    from dataclasses import replace

    with pytest.raises(RoomError) as err:
        await room.open_table(replace(NL, **change))
    assert err.value.code == code
    assert room.tables == {}


async def test_lobby_reports_seats_average_pot_and_flop_percentage(room: Room, store: Store) -> None:
    tid, table, _ = await seat_players(room, store, NL, 3, 500)
    await act_as_seat(room, table, 0, "call")
    await act_as_seat(room, table, 1, "call")
    await act_as_seat(room, table, 2, "check")
    await play_hand_passively(room, tid)
    entry = next(e for e in room.lobby() if e["id"] == tid)
    assert entry["game"] == "holdem" and entry["structure"] == "NL"
    assert entry["seats_taken"] == 3 and entry["max_seats"] == 6
    assert entry["hands_played"] == 1
    assert entry["average_pot"] == 30  # three 10-cent bets, checked down (the rake is part of the pot)
    assert entry["players_per_flop_pct"] == 100
    info = room.table_info(tid)
    assert info["you"] is None and len(info["seats"]) == 3


FL_AAI = TableSpec(name="AAI", game="holdem", structure="FL", small_blind=5, big_blind=10, max_seats=6,
                   min_buy_in=100, max_buy_in=None, settings={"disconnect_policy": "artificial_allin"})


async def _to_flop_bet_facing_seat0(room: Room, table: object) -> None:
    from .conftest import act_as_seat as a

    await a(room, table, 0, "call")  # type: ignore[arg-type]
    await a(room, table, 1, "call")  # type: ignore[arg-type]
    await a(room, table, 2, "check")  # type: ignore[arg-type]
    await a(room, table, 1, "check")  # type: ignore[arg-type]
    await a(room, table, 2, "bet", 10)  # type: ignore[arg-type]


async def test_r_aai_1_disconnected_player_with_money_in_is_all_in_for_what_they_committed(
    store: Store, clock: FakeClock
) -> None:
    from riverboat.cards import seeded_rng

    from .conftest import acted

    room = Room(store, clock=clock, rng=seeded_rng(5), aai_per_24h=1)
    await room.start()
    try:
        _tid, table, players = await seat_players(room, store, FL_AAI, 3, 500)
        await _to_flop_bet_facing_seat0(room, table)
        hand = table.hand
        assert hand is not None and hand.to_act == 0
        room.detach(players[0])
        await room.quiesce()
        await clock.advance(30.1)
        assert acted(table)[-1] == (0, "artificial_allin")
        assert hand.allin[hand.seats.index(0)] and not hand.folded[hand.seats.index(0)]
        assert room.aai.used(players[0], clock.wall()) == 1
        # the others go on betting into a side pot (R-AAI-1, R-ALLIN)
        await play_hand_passively(room, table.id)
        assert hand.result is not None
        final0 = hand.result.stacks[0]
        assert final0 >= 500 - 10  # at most the 10 committed was at risk
        assert_conserved(store, 30_000)
        # R-AAI-2: the allowance (1 per 24 h here) is used up -> the next time the player is folded
        room.attach(players[0], lambda m: _noop())
        await room.sit_in(players[0], table.id)
        await clock.advance(2)
        await room.quiesce()
        hand2 = table.hand
        assert hand2 is not None and 0 in hand2.seats
        assert (table.button, table.dealer.prev_plan.big_blind) == (1, 0)  # type: ignore[union-attr]
        await act_as_seat(room, table, 1, "raise", 20)
        await act_as_seat(room, table, 2, "call")
        assert hand2.to_act == 0  # the big blind, with 10 in the pot, faces a raise
        room.detach(players[0])
        await room.quiesce()
        await clock.advance(30.1)
        assert acted(table)[-1] == (0, "fold")
        assert room.aai.used(players[0], clock.wall()) == 1
        await play_hand_passively(room, table.id)
        assert_conserved(store, 30_000)
    finally:
        await room.stop()


async def _noop() -> None:
    return None


async def test_r_aai_4_no_artificial_all_in_in_no_limit(room: Room, store: Store, clock: FakeClock) -> None:
    from dataclasses import replace

    from .conftest import acted

    spec = replace(FL_AAI, structure="NL", min_buy_in=200, max_buy_in=1000)
    _tid, table, players = await seat_players(room, store, spec, 3, 500)
    await _to_flop_bet_facing_seat0(room, table)
    room.detach(players[0])
    await room.quiesce()
    await clock.advance(30.1)
    assert acted(table)[-1] == (0, "fold")


async def test_r_aai_2_allowance_survives_a_restart_of_the_room(store: Store, clock: FakeClock) -> None:
    """R-AAI-2, issue #16: the per-24-hour allowance is stored: an artificial all-in given before a restart still
    counts after it (a new Room on the same store), until it is 24 hours old."""
    from riverboat.cards import seeded_rng

    from .conftest import acted

    room = Room(store, clock=clock, rng=seeded_rng(5), aai_per_24h=1)
    await room.start()
    try:
        _tid, table, players = await seat_players(room, store, FL_AAI, 3, 500)
        await _to_flop_bet_facing_seat0(room, table)
        room.detach(players[0])
        await room.quiesce()
        await clock.advance(30.1)
        assert acted(table)[-1] == (0, "artificial_allin")
        given_at = clock.wall()
        await play_hand_passively(room, table.id)
    finally:
        await room.stop()
    assert store.accounts.aai_uses_since(given_at - 60) == [(players[0], pytest.approx(given_at, abs=31))]

    again = Room(store, clock=clock, aai_per_24h=1)
    await again.start()
    try:
        assert again.aai.used(players[0], clock.wall()) == 1
        assert not again.aai.available(players[0], clock.wall())
        assert again.aai.available(players[1], clock.wall())
        await clock.advance(DAY)
        assert again.aai.available(players[0], clock.wall())
    finally:
        await again.stop()
    # the store forgets uses older than a day when it records the next one
    store.accounts.record_aai_use(players[1], clock.wall())
    assert store.accounts.aai_uses_since(0) == [(players[1], clock.wall())]


def test_r_aai_2_store_refuses_bad_uses(store: Store) -> None:
    """Bad input changes nothing: a non-integer player, a non-finite time, an unknown player."""
    from riverboat.store import InvalidRequest, NotFound

    for bad in ((True, 1.0), ("7", 1.0), (1, float("nan"))):
        with pytest.raises(InvalidRequest):
            store.accounts.record_aai_use(*bad)  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        store.accounts.record_aai_use(10**9, 1.0)
    assert store.accounts.aai_uses_since(0) == []
