"""The demo room of ``riverboat serve`` (issue #14 item 10): what the README promises is there -- a table of every
game RULES.md describes (section 4), HORSE and 8-Game tables whose stud hands have antes (R-STUD-1, R-HORSE,
R-8GAME), Speed Poker pools with bots -- and every entry is a table the room accepts. A table spec that would deal
stud without an ante is refused (R-STUD-1, R-STUD-HL-1, R-ANTE-1)."""

from __future__ import annotations

import pytest

from riverboat.games import GAMES, MIXED_ROTATIONS, Kind
from riverboat.room import RoomError, SpeedSpec, TableSpec
from riverboat.room.room import validate_table_spec
from riverboat.server.demo import DEMO_TABLES, table_spec

# PHH readings of games and PHH-only games (badugi), tagged "phh" in the catalog: not games of the room
PHH_ONLY = {gid for gid, g in GAMES.items() if "phh" in g.tags}


def _spec(entry: dict) -> TableSpec:
    spec = table_spec(entry)
    return spec.table_spec() if isinstance(spec, SpeedSpec) else spec


def test_demo_has_a_table_of_every_game_both_mixed_games_and_speed_pools_with_bots() -> None:
    cash = [e for e in DEMO_TABLES if not e.get("speed")]
    games = {e["game"] for e in cash if not e.get("mixed")}
    assert games == set(GAMES) - PHH_ONLY
    assert {e["mixed"] for e in cash if e.get("mixed")} == set(MIXED_ROTATIONS)
    pools = [e for e in DEMO_TABLES if e.get("speed")]
    assert pools and all(e.get("bots", 0) >= 2 for e in pools)
    assert all(e.get("bots", 0) >= 2 for e in cash if e["currency"] == "PLAY")
    assert len({e["name"] for e in DEMO_TABLES}) == len(DEMO_TABLES)


@pytest.mark.parametrize("entry", DEMO_TABLES, ids=lambda e: e["name"])
def test_every_demo_table_is_accepted_and_its_stud_hands_have_antes(entry: dict) -> None:
    spec = _spec(entry)
    validate_table_spec(spec)
    rotation = MIXED_ROTATIONS.get(spec.mixed or "", [(spec.game, spec.structure)])
    if any(GAMES[g].kind is Kind.STUD for g, _ in rotation):
        assert spec.ante > 0 and spec.bring_in > 0


@pytest.mark.parametrize("mixed", [None, "horse", "8game"])
def test_r_stud_1_a_table_that_would_deal_stud_without_an_ante_is_refused(mixed: str | None) -> None:
    spec = TableSpec(name="NoAnte", game="stud" if mixed is None else "holdem", structure="FL", small_blind=50,
                     big_blind=100, ante=0, small_bet=100, big_bet=200, max_seats=6, min_buy_in=1000,
                     max_buy_in=20000, currency="PLAY", mixed=mixed)
    with pytest.raises(RoomError) as err:
        validate_table_spec(spec)
    assert err.value.code == "bad_settings" and "ante" in err.value.message
    validate_table_spec(_with_ante(spec))  # the same table with an ante is fine


def _with_ante(spec: TableSpec) -> TableSpec:
    from dataclasses import replace

    return replace(spec, ante=10, bring_in=25)
