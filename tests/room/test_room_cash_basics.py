"""Cash tables end to end on a real store: seating and buy-ins (R-CASH-2, R-BUYIN), a hand to the end with
settlement, leaving (R-CASH-3), top-ups, bad input changing nothing, and chip conservation throughout."""

from __future__ import annotations

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.room.move import Move
from riverboat.store import Store

from .conftest import (
    Recorder,
    assert_conserved,
    assert_table_matches_store,
    make_players,
    play_hand_passively,
)

NL = TableSpec(name="Riga", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


async def test_r_buyin_2_limits_and_bad_seats_change_nothing(room: Room, store: Store) -> None:
    (a, b) = make_players(store, 2)
    tid = await room.open_table(NL)
    before = store.ledger.balances("EUR")
    for seat, amount, code in [
        (0, 199, "buy_in_range"),
        (0, 1001, "buy_in_range"),
        (0, 250.5, "bad_amount"),
        (0, -5, "bad_amount"),
        (6, 300, "bad_seat"),
        ("1", 300, "bad_seat"),
    ]:
        with pytest.raises(RoomError) as err:
            await room.sit(a, tid, seat, amount)  # type: ignore[arg-type]
        assert err.value.code == code
    assert store.ledger.balances("EUR") == before
    assert room.tables[tid].seats == {}
    await room.sit(a, tid, 2, 500)
    with pytest.raises(RoomError) as err:
        await room.sit(b, tid, 2, 500)
    assert err.value.code == "seat_taken"
    with pytest.raises(RoomError) as err:
        await room.sit(a, tid, 3, 500)
    assert err.value.code == "already_seated"
    assert store.ledger.balance(a) == 9_500 and store.ledger.balance(b) == 10_000


async def test_r_buyin_1_insufficient_funds_refused(room: Room, store: Store) -> None:
    (poor,) = make_players(store, 1, deposit=150)
    tid = await room.open_table(NL)
    with pytest.raises(RoomError) as err:
        await room.sit(poor, tid, 0, 200)
    assert err.value.code == "insufficient_funds"
    assert store.ledger.balance(poor) == 150 and room.tables[tid].seats == {}


async def test_r_cash_2_hand_starts_with_two_players_and_settles(room: Room, store: Store) -> None:
    a, b, c = make_players(store, 3)
    tid = await room.open_table(NL)
    table = room.tables[tid]
    await room.sit(a, tid, 0, 500)
    await room.quiesce()
    assert table.hand is None  # one player: no hand (R-CASH-2)
    await room.sit(b, tid, 3, 500)
    await room.quiesce()
    assert table.hand is not None and set(table.hand.seats) == {0, 3}
    await play_hand_passively(room, tid)
    assert table.hand_no >= 1
    assert_conserved(store, 30_000)
    hands = store.hands.for_table(tid)
    assert len(hands) >= 1
    assert c not in {st.player_id for st in table.seats.values()}


async def test_r_cash_3_leave_mid_hand_credits_after_the_hand(room: Room, store: Store, clock: FakeClock) -> None:
    a, b, c = make_players(store, 3)
    tid = await room.open_table(NL)
    table = room.tables[tid]
    for pid, seat in ((a, 0), (b, 1), (c, 2)):
        await room.sit(pid, tid, seat, 500)
    await room.quiesce()
    hand = table.hand
    assert hand is not None
    leaver_seat = hand.to_act
    assert leaver_seat is not None
    leaver = table.seats[leaver_seat].player_id
    result = await room.leave(leaver, tid)
    assert result.pending is True
    assert table.hand is hand and hand.folded[hand.seats.index(leaver_seat)]  # folded at once, it was their turn
    await play_hand_passively(room, tid)
    await room.quiesce()
    assert hand.result is not None
    assert table.seat_of(leaver) is None
    assert store.ledger.table_stack(leaver, tid) == 0
    assert store.ledger.balance(leaver) == 10_000 - 500 + hand.result.stacks[leaver_seat]
    assert_conserved(store, 30_000)
    # a player not in a hand leaves at once with the whole stack
    await clock.advance(60)
    seated_now = [st for st in table.seats.values()]
    for st in seated_now:
        if not table.in_hand(st):
            bal = store.ledger.balance(st.player_id)
            out = await room.leave(st.player_id, tid)
            assert out.pending is False and store.ledger.balance(st.player_id) == bal + (out.cashed_out or 0)
    assert_conserved(store, 30_000)


async def test_r_buyin_1_top_up_between_hands_only_and_r_gen_5_secrecy(room: Room, store: Store) -> None:
    a, b = make_players(store, 2)
    tid = await room.open_table(NL)
    table = room.tables[tid]
    rec_a, rec_b = Recorder(a), Recorder(b)
    room.attach(a, rec_a)
    room.attach(b, rec_b)
    await room.sit(a, tid, 0, 300)
    await room.sit(b, tid, 1, 300)
    await room.quiesce()
    assert table.hand is not None
    # during the hand the top-up waits (table stakes)
    out = await room.top_up(a, tid, 200)
    assert out.pending is True and table.seat_of(a).stack <= 300  # type: ignore[union-attr]
    with pytest.raises(RoomError) as err:
        await room.top_up(b, tid, 800)  # 300 + 800 > max 1000
    assert err.value.code == "buy_in_range"
    await play_hand_passively(room, tid)
    await room.quiesce()
    assert table.seat_of(a).pending_top_up == 0  # type: ignore[union-attr]
    assert store.ledger.balance(a) == 10_000 - 500
    assert_conserved(store, 20_000)
    for rec in (rec_a, rec_b):
        assert rec.violations == []
        assert rec.events("dealt"), "each player saw their own cards"
    # between hands (table paused by a sit-out) the top-up is immediate
    await room.sit_out(b, tid)
    await play_hand_passively(room, tid)
    await room.quiesce()
    assert table.hand is None
    assert_table_matches_store(store, table)
    stack = table.seat_of(b).stack  # type: ignore[union-attr]
    out = await room.top_up(b, tid, 10)
    assert out.pending is False and table.seat_of(b).stack == stack + 10  # type: ignore[union-attr]
    assert_table_matches_store(store, table)


async def test_r_gen_5_spectator_sees_no_hole_cards_until_showdown(room: Room, store: Store) -> None:
    a, b, watcher = make_players(store, 3)
    tid = await room.open_table(NL)
    rec = Recorder(watcher)
    room.attach(watcher, rec)
    await room.watch(watcher, tid)
    await room.sit(a, tid, 0, 300)
    await room.sit(b, tid, 1, 300)
    await play_hand_passively(room, tid)  # checked down: both hands are shown at the showdown
    assert rec.violations == []
    assert rec.events("acted") and not rec.events("dealt")  # public actions only, no private deal events
    shown = rec.events("showed")
    mucked = rec.events("mucked")
    # at showdown the spectator sees the cards shown (R-GEN-5); a beaten hand may be mucked unseen (R-SHOW-4)
    assert shown and all(len(e["cards"]) == 2 for e in shown)
    assert {e["seat"] for e in shown} | {e["seat"] for e in mucked} == {0, 1}


async def test_r_wallet_3_settlement_failure_is_retried_and_nothing_is_lost(
    room: Room, store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store failure while settling leaves every stack at its pre-hand value; the table retries (the store's
    settle is idempotent) and no new hand starts meanwhile."""
    a, b = make_players(store, 2)
    tid = await room.open_table(NL)
    table = room.tables[tid]
    real_settle = store.ledger.settle_hand
    calls = {"n": 0}

    def flaky(*args: object, **kwargs: object) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("database went away")
        return real_settle(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store.ledger, "settle_hand", flaky)
    await room.sit(a, tid, 0, 300)
    await room.sit(b, tid, 1, 300)
    await room.quiesce()
    hand = table.hand
    assert hand is not None
    await room.act(table.seats[hand.to_act].player_id, tid, Move.parse("fold"))  # type: ignore[index]
    await room.quiesce()
    assert table.hand is hand and hand.is_over  # settlement failed: the hand is still pending
    assert store.ledger.table_stacks(tid) == {a: 300, b: 300}
    await clock.advance(2)
    assert table.hand is hand  # no new hand before the old one is settled
    await clock.advance(3.5)
    assert calls["n"] >= 2 and table.hand is not hand
    assert sum(store.ledger.table_stacks(tid).values()) == 600
    assert_conserved(store, 20_000)


async def test_r_time_1_everyone_sees_whose_turn_and_the_timer_and_r_alias_1_seat_aliases(
    room: Room, store: Store
) -> None:
    a, b = make_players(store, 2)
    store.aliases.set(a, "RigaShark")
    rec_b = Recorder(b)
    room.attach(b, rec_b)
    tid = await room.open_table(NL)
    await room.sit(a, tid, 0, 300)
    await room.sit(b, tid, 1, 300)
    await room.quiesce()
    table = room.tables[tid]
    assert table.hand is not None and table.hand.to_act == 0  # heads-up: the button (seat 0) acts first
    turns = rec_b.events("turn")
    assert turns and turns[-1]["seat"] == 0 and turns[-1]["phase"] == "action" and turns[-1]["remaining"] == 20.0
    seats = {s["seat"]: s for s in room.table_info(tid)["seats"]}
    assert seats[0]["alias"] == "RigaShark" and seats[1]["alias"] is None
