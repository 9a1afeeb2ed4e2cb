"""The same rule scenarios at a cash table and in a Speed Poker pool: both play their hands through one
:class:`~riverboat.room.hand_driver.HandDriver`, so every rule the cash table honours holds in Speed Poker too.

Each scenario is one heads-up hand (seat 0: button and small blind, acts first before the flop; seat 1: big blind)
on the FakeClock, run against both venues: R-TIME-1/3 (fold or check when the action timer runs out), R-TIME-2
(time bank for a player who has bet, then fold; refilled after the hand), R-DISC-1 (a disconnected player who has
bet gets the 30-second reconnect window, then is folded), R-TIME-4 (no bet or raise after standing pat on the draw
timer), R-AUTODRAW-1 (a disconnected drawer's cards are exchanged for them) and the rake (R-RAKE-3/4: the row of
the table's big blind, taken from the pot and credited to the house).
"""

from __future__ import annotations

from typing import Any

import pytest

from riverboat.room import FakeClock, Room, RoomError, SpeedSpec, TableSpec
from riverboat.room.autodraw import autodraw_27
from riverboat.room.hand_driver import HandDriver
from riverboat.room.move import Move
from riverboat.room.rake import get_schedule
from riverboat.store import Store

from .conftest import Recorder, assert_conserved, make_players, seat_players

VENUES = ("cash", "speed")


class Venue:
    """A heads-up hand at a cash table or in a Speed Poker pool of two, with a recorder per player."""

    def __init__(self, kind: str, room: Room, store: Store, clock: FakeClock) -> None:
        self.kind, self.room, self.store, self.clock = kind, room, store, clock
        self.id = ""
        self.players: list[int] = []
        self.recorders: dict[int, Recorder] = {}

    async def open(self, game: str = "holdem", structure: str = "NL", *, rake: str = "none",
                   max_buy_in: int | None = 1000) -> HandDriver:
        common: dict[str, Any] = {"name": "Rules", "game": game, "structure": structure, "small_blind": 5,
                                  "big_blind": 10, "min_buy_in": 200, "max_buy_in": max_buy_in, "rake": rake}
        if self.kind == "cash":
            spec = TableSpec(max_seats=6, **common)
            self.id, _table, self.players = await seat_players(self.room, self.store, spec, 2, 1000)
        else:
            self.players = make_players(self.store, 2)
            self.id = await self.room.open_speed_pool(SpeedSpec(table_size=2, **common))
        for pid in self.players:
            self.recorders[pid] = Recorder(pid)
            self.room.attach(pid, self.recorders[pid])
        if self.kind == "speed":
            for pid in self.players:
                await self.room.join_speed(pid, self.id, 1000)
        await self.room.quiesce()
        return self.driver

    @property
    def driver(self) -> HandDriver:
        if self.kind == "cash":
            driver = self.room.tables[self.id].driver
        else:
            driver = next(iter(self.room.pools[self.id].hands.values()), None)
        assert driver is not None
        return driver

    async def next_driver(self, old: HandDriver) -> HandDriver:
        """The next hand (a cash table pauses between hands; a pool deals the next one at once)."""
        for _ in range(10):
            if self.kind == "cash":
                driver = self.room.tables[self.id].driver
            else:
                driver = next(iter(self.room.pools[self.id].hands.values()), None)
            if driver is not None and driver is not old:
                return driver
            await self.clock.advance(1.0)
        raise AssertionError("no next hand")

    def participant(self, player_id: int) -> Any:
        if self.kind == "cash":
            return self.room.tables[self.id].seat_of(player_id)
        return self.room.pools[self.id].players[player_id]

    async def act(self, driver: HandDriver, seat: int, kind: str, amount: int | None = None) -> None:
        assert driver.hand.to_act == seat, (driver.hand.to_act, seat)
        pid = driver.players[seat]
        if self.kind == "cash":
            await self.room.act(pid, self.id, Move.parse(kind, amount))
        else:
            await self.room.speed_act(pid, self.id, Move.parse(kind, amount))
        await self.room.quiesce()

    async def try_act(self, driver: HandDriver, seat: int, kind: str, amount: int | None = None) -> None:
        pid = driver.players[seat]
        if self.kind == "cash":
            await self.room.act(pid, self.id, Move.parse(kind, amount))
        else:
            await self.room.speed_act(pid, self.id, Move.parse(kind, amount))

    def legal_kinds(self, driver: HandDriver, seat: int) -> set[str]:
        pid = driver.players[seat]
        if self.kind == "cash":
            hand_view = self.room.view(pid, self.id)["hand"]
        else:
            hand_view = self.room.speed_view(pid, self.id)["view"]
        return set(hand_view["legal"]["kinds"])

    def events(self, player_id: int, kind: str) -> list[dict[str, Any]]:
        return self.recorders[player_id].events(kind)


@pytest.fixture(params=VENUES)
def venue(request: pytest.FixtureRequest, room: Room, store: Store, clock: FakeClock) -> Venue:
    return Venue(request.param, room, store, clock)


def acted(driver: HandDriver) -> list[tuple[int | None, str]]:
    return [(e.seat, e.data["action"]) for e in driver.hand.events if e.kind == "acted"]


async def test_r_time_1_r_time_3_timeout_folds_facing_a_bet_and_checks_when_free(venue: Venue) -> None:
    """R-TIME-1: 20 s, then the hand of a player who has not bet is folded; R-TIME-3 reading: a free check is
    checked instead. The time bank is not touched (R-TIME-2 is for players who have bet)."""
    driver = await venue.open()
    await venue.clock.advance(19.9)
    assert acted(driver) == []
    await venue.clock.advance(0.2)
    assert acted(driver) == [(0, "fold")]
    other = driver.players[1]
    assert [e["action"] for e in venue.events(other, "timed_out")] == ["fold"]
    assert venue.events(other, "timed_out")[0]["rule"] == "R-TIME-3"
    await venue.room.quiesce()
    assert venue.participant(driver.players[0]).timebank == 35.0  # nothing spent, +5 s after the hand
    second = await venue.next_driver(driver)
    # the next hand: the small blind limps, the big blind lets its timer run out: check, not fold
    sb = second.hand.to_act
    assert sb is not None
    await venue.act(second, sb, "call")
    bb = second.hand.to_act
    assert bb is not None and bb != sb
    await venue.clock.advance(20.1)
    assert acted(second)[-1] == (bb, "check")


async def test_r_time_2_time_bank_for_a_player_who_has_bet_then_fold_and_refill(venue: Venue) -> None:
    """R-TIME-2: a player who has bet gets their time bank after the 20 s (a ``timebank`` event tells the
    table), is folded when it is spent, and the bank grows again after the hand (R-TIME-3 reading: +5 s)."""
    driver = await venue.open()
    await venue.act(driver, 0, "call")
    await venue.act(driver, 1, "raise", 40)
    await venue.clock.advance(20.5)
    assert driver.decision is not None and driver.decision.phase == "timebank"
    assert [e["seconds"] for e in venue.events(driver.players[1], "timebank")] == [30.0]
    await venue.clock.advance(29.0)
    assert driver.hand.to_act == 0
    await venue.clock.advance(1.0)
    assert acted(driver)[-1] == (0, "fold")
    await venue.room.quiesce()
    assert driver.settled
    assert venue.participant(driver.players[0]).timebank == pytest.approx(5.0)


async def test_r_disc_1_disconnected_player_who_has_bet_gets_30_seconds_then_is_folded(venue: Venue) -> None:
    """R-DISC-1 / R-TIME-5: the player to act, who has bet, loses the connection: the reconnect window runs 30 s
    from the start of the turn (no time bank while away), then the hand is folded (cannot check)."""
    driver = await venue.open()
    await venue.act(driver, 0, "call")
    await venue.act(driver, 1, "raise", 40)
    away = driver.players[0]
    venue.room.detach(away)
    await venue.room.quiesce()
    assert driver.decision is not None and driver.decision.phase == "reconnect"
    await venue.clock.advance(29.9)
    assert driver.hand.to_act == 0
    await venue.clock.advance(0.2)
    assert acted(driver)[-1] == (0, "fold")
    timed_out = venue.events(driver.players[1], "timed_out")
    assert timed_out[-1]["rule"] == "R-DISC-1" and timed_out[-1]["action"] == "fold"
    assert venue.participant(away).timebank == 35.0  # not spent while disconnected; +5 s after the hand


async def _to_the_draw(venue: Venue) -> HandDriver:
    driver = await venue.open("triple_draw_27", "FL", max_buy_in=None)
    await venue.act(driver, 0, "call")
    await venue.act(driver, 1, "check")
    assert driver.hand.to_act is not None
    assert "stand_pat" in {k.value for k in driver.hand.legal_actions().kinds}
    return driver


async def test_r_time_4_late_drawer_stands_pat_and_may_not_bet_or_raise(venue: Venue) -> None:
    """R-TIME-4: 30 s to draw; the late drawer stands pat and may not bet or raise in the next betting round:
    the view does not offer it and the command is refused (nothing changes)."""
    driver = await _to_the_draw(venue)
    late = driver.hand.to_act
    assert late is not None
    other = 1 - late
    await venue.clock.advance(29.9)
    assert driver.hand.to_act == late
    await venue.clock.advance(0.2)
    drew = [e for e in driver.hand.events if e.kind == "drew" and e.seat == late]
    assert drew and drew[-1].data["count"] == 0
    assert venue.events(driver.players[other], "timed_out")[-1]["rule"] == "R-TIME-4"
    await venue.act(driver, other, "stand_pat")
    if driver.hand.to_act == other:
        await venue.act(driver, other, "bet", 10)
    assert driver.hand.to_act == late
    kinds = venue.legal_kinds(driver, late)
    assert not kinds & {"bet", "raise"} and kinds & {"check", "call"}
    before = len(driver.hand.events)
    with pytest.raises(RoomError) as err:
        await venue.try_act(driver, late, "raise" if "call" in kinds else "bet", 20)
    assert err.value.code == "illegal_action" and "R-TIME-4" in str(err.value) and "R-" not in err.value.message
    assert len(driver.hand.events) == before


async def test_r_autodraw_1_disconnected_drawer_exchanges_by_the_keep_list(venue: Venue) -> None:
    """R-AUTODRAW-1 / R-AUTODRAW-3 reading (2-7): a drawer who is disconnected when the draw timer runs out has
    cards exchanged for them by the keep list, and the table is told (``auto_draw``)."""
    driver = await _to_the_draw(venue)
    drawer = driver.hand.to_act
    assert drawer is not None
    hand = driver.hand
    cards = list(hand.cards[hand.seats.index(drawer)])
    expected = autodraw_27(cards, max_discards=5)
    venue.room.detach(driver.players[drawer])
    await venue.room.quiesce()
    await venue.clock.advance(30.1)
    drew = [e for e in hand.events if e.kind == "drew" and e.seat == drawer]
    assert drew and drew[-1].data["count"] == len(expected)
    kept = [c for c in cards if c not in expected]
    assert all(c in hand.cards[hand.seats.index(drawer)] for c in kept)
    auto = venue.events(driver.players[1 - drawer], "auto_draw")
    assert auto and auto[-1]["rule"] == "R-AUTODRAW-1" and auto[-1]["discards"] == len(expected)


async def test_r_rake_3_4_pot_raked_by_the_big_blind_row_and_credited_to_the_house(venue: Venue) -> None:
    """R-RAKE-3/4 (iPoker, R-RAKE-6): the pot of a flop hand is raked by the schedule row of the table's big
    blind and player count; the rake leaves the pot and reaches the house account; chips are conserved."""
    driver = await venue.open(rake="ipoker")
    await venue.act(driver, 0, "raise", 500)
    await venue.act(driver, 1, "call")
    while not driver.hand.is_over:
        seat = driver.hand.to_act
        assert seat is not None
        await venue.act(driver, seat, "check")
    await venue.room.quiesce()
    result = driver.hand.result
    assert result is not None
    expected = get_schedule("ipoker").rake("NL", 10, 2, 1000)
    assert expected > 0 and result.rake == expected
    assert sum(p.amount for p in result.pots) == 1000 - expected
    house = {k: v for k, v in venue.store.ledger.balances("EUR").items() if k.startswith("rake")}
    assert sum(house.values()) == expected
    assert_conserved(venue.store, 2 * 10_000)
