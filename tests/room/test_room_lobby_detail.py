"""Lobby detail (issue #14 part 2): hands per hour from the hands a table settled, and a mixed table's rotation
(R-HORSE-1: Hold'em, Omaha Hi/Lo, Razz, Stud, Stud Hi/Lo) with the game being dealt."""

from __future__ import annotations

import random

from riverboat.room import FakeClock, TableSpec
from riverboat.store import Store

from .test_room_frames import play_table, scenario


async def test_lobby_hands_per_hour_and_the_mixed_rotation(store: Store, clock: FakeClock) -> None:
    """R-HORSE-1 rotation listed in order; hands per hour counts settled hands (five-minute floor on the age)."""
    async with scenario(store, clock, 5, 3) as (room, players, sinks, _seen):
        nl = await room.open_table(TableSpec(name="Lob", small_blind=5, big_blind=10, min_buy_in=200,
                                             max_buy_in=1000))
        horse = await room.open_table(TableSpec(name="Horse", game="holdem", structure="FL", small_blind=5,
                                                big_blind=10, ante=1, bring_in=2, small_bet=10, big_bet=20,
                                                min_buy_in=200, max_buy_in=None, mixed="horse"))
        entry = {e["id"]: e for e in room.lobby()}
        assert entry[nl]["hands_per_hour"] == 0
        assert entry[horse]["rotation"] == ["holdem", "omaha_hl", "razz", "stud", "stud_hl"]
        assert entry[horse]["rotation_index"] == 0
        assert entry[nl]["rotation"] == []
        for seat, pid in enumerate(players[:2]):
            await room.sit(pid, nl, seat, 600)
        await play_table(room, clock, nl, sinks, 4, random.Random(1))
        table = room.tables[nl]
        settled = len(table.hand_times)
        assert settled >= 4
        age = clock.now() - table.opened_at
        expected = round(settled * 3600 / min(3600, max(age, 300)))
        assert {e["id"]: e for e in room.lobby()}[nl]["hands_per_hour"] == expected > 0
