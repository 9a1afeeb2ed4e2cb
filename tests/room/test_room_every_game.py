"""Every game and structure of RULES.md section 4/5 plays through a cash table: a hand each, settled in the
store, chips conserved (R-CASH-2, R-TABLE-1 seat limits, R-TABLE-4 fixed dealer box in stud games)."""

from __future__ import annotations

import pytest

from riverboat.room import Room, TableSpec
from riverboat.store import Store

from .conftest import assert_conserved, play_hand_passively, seat_players

BLINDS = dict(small_blind=5, big_blind=10)
STUD = dict(ante=2, bring_in=5, small_bet=10, big_bet=20, small_blind=5, big_blind=10)

CASES = [
    ("holdem", "SL", dict(BLINDS, spread=(10, 10, 20, 30)), 6),
    ("omaha", "HPL", BLINDS, 6),
    ("omaha5", "PL", BLINDS, 8),
    ("omaha5_hl", "PL", BLINDS, 8),
    ("six_plus", "NL", BLINDS, 6),
    ("stud", "FL", STUD, 8),
    ("stud_hl", "FL", STUD, 8),
    ("razz", "FL", STUD, 8),
    ("soko", "FL", STUD, 8),
    ("americana", "FL", STUD, 6),
    ("draw5", "FL", BLINDS, 6),
    ("draw32", "FL", BLINDS, 5),
]


@pytest.mark.parametrize(("game", "structure", "stakes", "seats"), CASES)
async def test_every_game_plays_and_settles_through_a_table(
    room: Room, store: Store, game: str, structure: str, stakes: dict, seats: int
) -> None:
    limit = structure in ("FL", "SL")
    spec = TableSpec(name=f"{game}-{structure}", game=game, structure=structure, max_seats=seats,
                     min_buy_in=100, max_buy_in=None if limit else 1000, **stakes)
    _tid, table, _ = await seat_players(room, store, spec, 3, 400)
    hand = table.hand
    assert hand is not None and hand.game.id == game and hand.structure.value == structure
    if hand.game.kind.value == "stud":
        assert table.button is None and hand.config.button == seats - 1  # fixed dealer box (R-TABLE-4)
    await play_hand_passively(room, table.id)
    assert hand.is_over
    assert len(store.hands.for_table(table.id)) == 1
    assert_conserved(store, 30_000)
