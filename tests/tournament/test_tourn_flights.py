"""Flight tournaments (R-TOURN-FLIGHT-1..6) through the room's TournamentLobby, the real directors and the store
(SQLite and PostgreSQL): Day 1 flights that end after their levels, survivors carried to Day 2 with their chips,
one entry per flight and the largest stack carried, Day 2 paying every place from the shared pool."""

from __future__ import annotations

import random
from typing import Any

import pytest

from riverboat.engine import Action
from riverboat.room.errors import RoomError
from riverboat.room.hand_driver import HandDriver, fallback_kind
from riverboat.room.tournament import payouts as payout_tables
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import BotPolicy
from riverboat.room.tournament.flights import FlightEvent, day2_awards
from riverboat.room.tournament.lifecycle import PLAYING, Status
from riverboat.room.tournament.simulate import default_spec, make_bots
from riverboat.room.tournament.spec import SpecError
from riverboat.store import AccountKey, Store
from riverboat.store.errors import InvalidRequest

from .test_tourn_operator import lobby_for

START = 1_800_000_000.0  # the FakeClock's wall time at 0


def folder(driver: HandDriver, seat: int) -> Action:
    """Checks when free, else folds: survives a short flight on its blinds."""
    return Action(seat, fallback_kind(driver.hand.legal_actions().kinds))


def flight_spec(starts_in: float, **extra: Any) -> dict[str, Any]:
    spec = default_spec("mtt", 12, 6, "holdem", "NL", starts_at=START + starts_in, **extra).to_dict()
    spec.pop("flight", None)
    spec.pop("day2_of", None)
    return spec


def event_data(day2_in: float = 3600.0, late_flight_in: float = 120.0) -> dict[str, Any]:
    day2 = default_spec("mtt", 30, 6, "holdem", "NL", starts_at=START + day2_in, buy_in=0, fee=0,
                        day2_of="ev").to_dict()
    day2.pop("day2_of")
    return {"event": "ev", "day2": day2,
            "flights": [{"day": "1A", "levels": 2, "spec": flight_spec(60)},
                        {"day": "1B", "levels": 2, "spec": flight_spec(60)},
                        {"day": "1C", "levels": 2, "spec": flight_spec(late_flight_in)}]}


async def test_r_tourn_flight_1_to_6_three_flights_to_the_day2_winner(tstore: Store) -> None:
    """R-TOURN-FLIGHT-1..6: three 12-player flights (1,000 + 100), each ending after 2 levels; player D enters 1A
    and 1B (one entry per flight) and folds, so survives both (so does a folder of 1C): Day 2 carries the larger of their two stacks
    (R-TOURN-FLIGHT-6 reading). Flight 1C is still playing at Day 2's start time: Day 2 waits for it. Day 2 seats
    exactly the distinct survivors with the chips they finished Day 1 with (chips conserved), at tables sized for
    that field (R-TOURN-FLIGHT-5), plays to the winner: places 1..N once each, every Day 2 place paid in cash
    (R-TOURN-FLIGHT-4), the prizes add up to the 36 flight buy-ins (the shared pool), the house keeps the 36 fees
    and nothing else, the ledger balanced. Players out on Day 1 get nothing. The lobby lists the flights and
    Day 2."""
    players = make_bots(tstore, 35, 10_000, "EUR", prefix="fl")
    double = players[0]
    bots: dict[int, BotPolicy] = {p: ShoveBot(random.Random(p)) for p in players[1:]}
    bots[double] = folder
    bots[players[23]] = folder  # flight 1C cannot end early with one player left: it plays its levels
    lob, clock = lobby_for(tstore, bots)  # type: ignore[arg-type]
    event = FlightEvent.from_dict(event_data(day2_in=480, late_flight_in=300))
    made = await lob.create_flights(event)
    assert made == {"event": "ev", "day2": "ev-day2", "flights": ["ev-1a", "ev-1b", "ev-1c"]}
    tabs = {e["id"]: (e["event"], e["day"]) for e in lob.lobby()["mtt"]}
    assert tabs == {"ev-day2": ("ev", "2"), "ev-1a": ("ev", "1A"), "ev-1b": ("ev", "1B"), "ev-1c": ("ev", "1C")}
    d1 = [lob.get(t) for t in made["flights"]]
    day2 = lob.get("ev-day2")
    with pytest.raises(RoomError) as err:  # nobody buys into Day 2 (R-TOURN-FLIGHT-2)
        await day2.register(players[1])
    assert err.value.code == "registration_closed"
    rest = players[1:]
    fields = [[double, *rest[:11]], [double, *rest[11:22]], rest[22:34]]
    for d, field in zip(d1, fields, strict=True):
        for p in field:
            await d.register(p)
    with pytest.raises(RoomError):  # one entry per flight
        await d1[0].register(double)
    while not all(d.done.is_set() for d in d1[:2]):
        await clock.advance(15)
    assert d1[2].status in PLAYING and clock.wall() < START + 480 + 60
    held = 0.0
    while not d1[2].done.is_set():
        assert day2.status is Status.REGISTERING  # waits for flight 1C, past its own start time
        held = clock.wall() - (START + 480)
        await clock.advance(15)
    assert held > 0
    flight_stacks: dict[int, list[int]] = {}
    for d in d1:
        assert d.status is Status.FINISHED and tstore.tournaments.status(d.id) == "finished" and d.results
        assert d.stats.chips_conserved and all(r.prize == 0 for r in d.results.values())  # no Day 1 prize
        snap = tstore.tournament_play.snapshot(d.id)
        advanced = {e.player_id: e.chips for e in snap.entries if e.status == "advanced"}
        assert advanced and set(advanced) == set(d.advanced)
        assert {e.status for e in snap.entries} <= {"advanced", "eliminated"}
        for pid, chips in advanced.items():
            flight_stacks.setdefault(pid, []).append(chips)
    assert len(flight_stacks[double]) == 2  # qualified from 1A and from 1B
    carried = {pid: max(stacks) for pid, stacks in flight_stacks.items()}
    await clock.advance(60)
    assert day2.carried[double] == max(flight_stacks[double])  # R-TOURN-FLIGHT-6 reading: the larger stack
    assert day2.status in (Status.RUNNING, Status.FINAL_TABLE, Status.FINISHED)
    assert day2.entries == len(carried) and day2.chips_issued == sum(carried.values())
    q = len(carried)
    while not day2.done.is_set():
        await clock.advance(60)
    # ---- Day 2's result
    assert day2.status is Status.FINISHED and day2.stats.chips_conserved
    places = day2.places()
    assert sorted(places) == sorted(carried) and len(set(places)) == q
    assert sorted(r.place for r in day2.results.values()) == list(range(1, q + 1))
    prizes = [day2.results[p].prize for p in places]
    assert all(x > 0 for x in prizes)  # R-TOURN-FLIGHT-4: reaching Day 2 is a cash prize
    assert sum(prizes) == 36 * 1000 == day2.prize_pool
    snap2 = tstore.tournament_play.snapshot("ev-day2")
    assert snap2.status == "finished" and snap2.prize_pool == 0
    assert len(snap2.tables) == -(-q // 6)  # R-TOURN-FLIGHT-5: tables for the Day 2 field, sizes within one
    assert {e.player_id: e.prize for e in snap2.entries} == {p: day2.results[p].prize for p in places}
    assert tstore.ledger.account_balance(AccountKey.fees("EUR")) == 36 * 100
    out_day1 = set(players) - set(carried)
    for p in out_day1:
        entered = sum(p in f for f in fields)
        assert tstore.ledger.balance(p) == 10_000 - 1_100 * entered
    assert tstore.ledger.total("EUR") == 0
    await lob.close()


def test_r_tourn_flight_4_day2_pays_every_place() -> None:
    """R-TOURN-FLIGHT-4 reading: whatever the Day 2 field (2 to 3,000 players), every place is paid, the prizes
    never rise with the place and add up to the pool to the cent."""
    spec = default_spec("mtt", 30, 9, "holdem", "NL", buy_in=0, fee=0, day2_of="ev")
    for players in (2, 3, 7, 10, 28, 100, 451, 3000):
        pool = 1_000 * players * 3 + 7
        prizes = day2_awards(spec, pool, players)
        assert len(prizes) == players and min(prizes) > 0 and sum(prizes) == pool
        assert prizes == sorted(prizes, reverse=True)
        row = payout_tables.row_paying(spec.payout_rows(), players)
        assert row.paid_places >= players


@pytest.mark.parametrize("change,message", [
    ({"day2": {"buy_in": 1000, "fee": 100}}, "no buy-in"),
    ({"flights": []}, "1 to 26"),
    ({"flights": [{"day": "2", "levels": 2}]}, "'1A'"),
    ({"flight0": {"levels": 0}}, "flight.levels"),
    ({"flight0": {"spec": {"buy_in": 0, "fee": 0}}}, "buy-in and a fee"),
    ({"flight0": {"spec": {"guarantee": 5000}}}, "guarantee"),
    ({"flight0": {"spec": {"knockout": {"bounty": 100}}}}, "knockout"),
    ({"flight0": {"spec": {"starts_at": START + 99_999}}}, "after Day 2"),
    ({"flight1": {"day": "1A"}}, "same day"),
])
def test_r_tourn_flight_bad_events_are_refused(change: dict[str, Any], message: str) -> None:
    """R-TOURN-FLIGHT-1..4: an event that the rules do not allow is refused with a message saying why."""
    data = event_data()
    for key, value in change.items():
        if key.startswith("flight") and key[-1].isdigit():
            f = data["flights"][int(key[-1])]
            f["spec"].update(value.pop("spec", {}))
            f.update(value)
        elif key == "day2":
            data["day2"].update(value)
        else:
            data[key] = value
    with pytest.raises(SpecError) as err:
        FlightEvent.from_dict(data)
    assert message in err.value.message


def test_r_tourn_flight_3_advance_takes_exactly_the_players_still_in(sqlite_store: Store) -> None:
    """R-TOURN-FLIGHT-3: the store refuses to carry to Day 2 anybody but exactly the flight's players still in,
    and refuses a tournament that is not a running flight; nothing changes."""
    st = sqlite_store
    p = make_bots(st, 3, 10_000, "EUR", prefix="adv")
    st.tournaments.create("ev-day2", "EUR", 0, 0)
    st.tournaments.create("ev-1a", "EUR", 1000, 100, pool_id="ev-day2")
    for pid in p:
        st.tournaments.register(pid, "ev-1a", f"reg-adv-{pid}")
    assert st.tournaments.prize_pool("ev-1a") == st.tournaments.prize_pool("ev-day2") == 3000
    st.tournament_play.start("ev-1a", {pid: ("ev-1a/t1", i) for i, pid in enumerate(p)}, {p[0]: 100, p[1]: 200,
                                                                                            p[2]: 4200})
    with pytest.raises(InvalidRequest):
        st.tournament_play.advance("ev-1a", {p[0]: 100, p[1]: 200})
    with pytest.raises(InvalidRequest):
        st.tournament_play.advance("ev-day2", {})
    assert st.tournament_play.qualifiers("ev-day2") == ([], [("ev-1a", "running")])
    assert st.tournament_play.advance("ev-1a", {p[0]: 100, p[1]: 200, p[2]: 4200}) == {p[0]: 100, p[1]: 200,
                                                                                       p[2]: 4200}
    assert st.tournament_play.qualifiers("ev-day2") == ([(p[0], 100), (p[1], 200), (p[2], 4200)],
                                                        [("ev-1a", "finished")])
    assert st.tournaments.close("ev-1a", "close-flight") == 0  # the pool stays Day 2's
    assert st.tournaments.prize_pool("ev-day2") == 3000


async def test_r_tourn_flight_4_a_single_qualifier_wins_the_pool(sqlite_store: Store) -> None:
    """R-TOURN-FLIGHT-4 reading: a heads-up flight that ends with one player left sends a single qualifier to Day 2;
    Day 2 is not cancelled under its minimum (which would return the flights' buy-ins to the house): the qualifier
    finishes first at once and is paid the whole pool (2,000); the house keeps only the two fees."""
    players = make_bots(sqlite_store, 2, 10_000, "EUR", prefix="lone")
    bots: dict[int, BotPolicy] = {p: ShoveBot(random.Random(p), shove=0.5) for p in players}
    lob, clock = lobby_for(sqlite_store, bots)  # type: ignore[arg-type]
    data = event_data(day2_in=20_000)
    data["flights"] = [{"day": "1A", "levels": 40, "spec": flight_spec(60)}]
    await lob.create_flights(FlightEvent.from_dict(data))
    flight, day2 = lob.get("ev-1a"), lob.get("ev-day2")
    for p in players:
        await flight.register(p)
    while not flight.done.is_set():
        await clock.advance(30)
    (winner,) = flight.advanced
    while not day2.done.is_set():
        await clock.advance(600)
    assert day2.status is Status.FINISHED and day2.results[winner].place == 1
    assert day2.results[winner].prize == 2_000 and sqlite_store.tournaments.prize_pool("ev-day2") == 0
    assert sqlite_store.ledger.balance(winner) == 10_000 - 1_100 + 2_000
    assert sqlite_store.ledger.account_balance(AccountKey.fees("EUR")) == 200
    await lob.close()
