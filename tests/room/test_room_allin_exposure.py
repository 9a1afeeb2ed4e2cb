"""All-in hands face up before the run-out (issue #14; R-SHOW-4 reading: online rooms show all-in hands
automatically). When an all-in is called and no more betting can happen, the room sends an ``exposed`` event with
the hands the showdown will show *before* the first card of the run-out, and with ``allin_runout_seconds`` deals the
rest street by street with that pause; the hand is settled after the last street (money conserved: the ledger is
verified after every room test)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from riverboat.room import FakeClock, Room, TableSpec
from riverboat.room.move import Move
from riverboat.store import Store

from .conftest import Recorder, assert_conserved, seat_players

NL = TableSpec(name="Allin", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
               min_buy_in=200, max_buy_in=1000)


async def _all_in_preflop(room: Room, store: Store, pause: float) -> tuple[Any, list[Recorder], list[int]]:
    tid, table, players = await seat_players(room, store, replace(NL, settings={"allin_runout_seconds": pause}),
                                             2, 500)
    sinks = [Recorder(p) for p in players]
    for p, sink in zip(players, sinks, strict=True):
        room.attach(p, sink)
    hand = table.hand
    first = hand.to_act
    await room.act(table.seats[first].player_id, tid, Move.parse("raise", hand.legal_actions().max_to))
    await room.quiesce()
    other = table.hand.to_act
    await room.act(table.seats[other].player_id, tid, Move.parse("call", None))
    await room.quiesce()
    return table, sinks, players


def _kinds_after_exposure(sink: Recorder) -> list[str]:
    kinds = [e["kind"] for e in sink.events()]
    return kinds[kinds.index("exposed"):]


async def test_r_show_4_all_in_hands_face_up_before_the_run_out_street_by_street(store: Store, clock: FakeClock,
                                                                               room: Room) -> None:
    table, sinks, players = await _all_in_preflop(room, store, pause=1.0)
    for sink in sinks:
        exposed = sink.events("exposed")
        assert len(exposed) == 1 and exposed[0]["rule"] == "R-SHOW-4"
        assert sorted(exposed[0]["hands"]) == sorted(str(s) for s in table.seats)
        assert all(len(cards) == 2 for cards in exposed[0]["hands"].values())
        assert _kinds_after_exposure(sink) == ["exposed"]  # the hands are up; no card of the run-out yet
        assert not sink.violations
    assert table.hand is not None  # not settled while the run-out is dealt
    boards = []
    for _ in range(3):
        await clock.advance(1.0)
        await room.quiesce()
        boards.append([e["cards"] for e in sinks[0].events("board")])
    assert [len(b) for b in boards] == [1, 2, 3]  # flop, then turn, then river: one street per second
    assert [len(c) for c in boards[-1]] == [3, 1, 1]
    shown = {str(e["seat"]): e["cards"] for e in sinks[0].events("showed")}
    assert shown == sinks[0].events("exposed")[0]["hands"]  # the same hands the showdown shows
    await clock.advance(5.0)
    await room.quiesce()
    assert table.hand is None or table.hand_no >= 2  # settled: the next hand may be under way
    assert any(e["kind"] == "pot_awarded" for e in sinks[1].events())
    assert_conserved(store, 2 * 10_000)


async def test_r_show_4_without_a_pause_the_exposure_still_comes_first(store: Store, clock: FakeClock,
                                                                        room: Room) -> None:
    table, sinks, _ = await _all_in_preflop(room, store, pause=0.0)
    kinds = _kinds_after_exposure(sinks[0])
    assert kinds[1] in ("board", "street") and "board" in kinds and "showed" in kinds
    assert kinds.index("board") < kinds.index("showed")
    assert not [k for k in [e["kind"] for e in sinks[0].events()][: [e["kind"] for e in sinks[0].events()].index("exposed")]
                if k == "board"]  # nothing of the run-out before the hands went up
    assert_conserved(store, 2 * 10_000)


async def test_no_exposure_when_the_hand_is_checked_down(store: Store, clock: FakeClock, room: Room) -> None:
    """A showdown after betting on the river (no run-out) turns nothing up early (R-SHOW-1 order unchanged)."""
    from .conftest import play_hand_passively

    tid, table, players = await seat_players(room, store, NL, 2, 500)
    sink = Recorder(players[0])
    room.attach(players[0], sink)
    await play_hand_passively(room, tid)
    assert sink.events("exposed") == []
    assert sink.events("showed")
