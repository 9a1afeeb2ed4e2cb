"""Every frame the room sends validates against the documented protocol models (``riverboat.server.protocol``,
built on ``riverboat.room.frames``): unknown fields are refused, so a frame that drifts from the documentation fails
here. The bots act only on what the frames offer them (``legal``: kinds, ``min_to``..``max_to``, ``allowed_to``),
and every such action must be accepted: a client that offers what the frames say never sends a refused move.

Scenarios (one room each, FakeClock): random no-limit and stud play with a spectator, sit-out, top-up, leave and
eviction; draw games with timeouts and disconnections (R-TIME-4, R-AUTODRAW-1); fixed limit with artificial
all-in (R-AAI-1); a Speed Poker pool with speed folds, a disconnection and a leave. The R-STUD-6 open-pair street
is checked on its own: ``allowed_to`` carries the only two amounts, and the server takes exactly those.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from riverboat.cards import Card
from riverboat.room import FakeClock, Room, RoomError, SpeedSpec, TableSpec
from riverboat.room.move import Move
from riverboat.server import protocol
from riverboat.store import Store

from .conftest import make_players


class ValidatingSink:
    """Validates every message as the server would send it (``v`` added) and keeps it."""

    def __init__(self, player_id: int, seen: dict[str, int]) -> None:
        self.player_id = player_id
        self.seen = seen
        self.messages: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        protocol.validate_server_frame({"v": 1, **message})
        self.messages.append(message)
        kind = message["type"]
        if kind == "event":
            kind = f"event:{message['event']['kind']}"
        elif kind == "speed":
            kind = f"speed:{message['event']}"
        self.seen[kind] = self.seen.get(kind, 0) + 1

    def last_legal(self, where: str) -> dict[str, Any] | None:
        """The legal actions of the newest view this player got for a table (or pool) id."""
        for m in reversed(self.messages):
            if m["type"] == "table_state" and m["table"] == where:
                hand = m["view"]["hand"]
                return hand.get("legal") if hand else None
            if m["type"] == "speed" and m["pool"] == where and m["event"] in ("your_turn", "dealt"):
                return m["view"].get("legal")
        return None


def choose(legal: dict[str, Any], rng: random.Random, hand_cards: list[str] | None = None
           ) -> tuple[str, int | None, list[str] | None]:
    """A random move among what ``legal`` offers (amounts from ``allowed_to`` or the range)."""
    kinds = legal["kinds"]
    kind = rng.choice(kinds)
    if kind in ("bet", "raise", "complete"):
        amount = rng.choice(legal["allowed_to"]) if legal["allowed_to"] else rng.randint(legal["min_to"],
                                                                                         legal["max_to"])
        return kind, amount, None
    if kind == "draw":
        cards = hand_cards or []
        k = rng.randint(0, min(len(cards), legal["max_discards"]))
        return kind, None, rng.sample(cards, k)
    return kind, None, None


def attach_all(room: Room, players: list[int], seen: dict[str, int]) -> dict[int, ValidatingSink]:
    sinks = {p: ValidatingSink(p, seen) for p in players}
    for p, sink in sinks.items():
        room.attach(p, sink)
    return sinks


@contextlib.asynccontextmanager
async def scenario(store: Store, clock: FakeClock, seed: int, n: int, rng: Any = None
                   ) -> AsyncIterator[tuple[Room, list[int], dict[int, ValidatingSink], dict[str, int]]]:
    """A started room, ``n`` funded players, each with a validating sink; the room is stopped afterwards."""
    room = Room(store, clock=clock, rng=rng if rng is not None else random.Random(seed))
    await room.start()
    try:
        seen: dict[str, int] = {}
        players = make_players(store, n, deposit=20_000)
        yield room, players, attach_all(room, players, seen), seen
    finally:
        await room.stop()


def assert_covered(seen: dict[str, int], kinds: tuple[str, ...]) -> None:
    for kind in kinds:
        assert seen.get(kind), f"no {kind} frame was produced: the scenario no longer covers it"


async def play_table(room: Room, clock: FakeClock, tid: str, sinks: dict[int, ValidatingSink], hands: int,
                     rng: random.Random, *, timeout_p: float = 0.0) -> None:
    """Act from the frames each player received; sometimes let the timer run out instead."""
    table = room.tables[tid]
    target = table.hand_no + hands
    for _ in range(hands * 200):
        await room.quiesce()
        if table.hand_no >= target and table.hand is None:
            return
        hand = table.hand
        if hand is None:
            for st in list(table.seats.values()):  # a busted player buys more chips and comes back
                if st.stack == 0 and st.pending_top_up == 0:
                    await room.top_up(st.player_id, tid, 600)
                    await room.sit_in(st.player_id, tid)
        if hand is None or hand.to_act is None:
            await clock.advance(1.0)
            continue
        seat = hand.to_act
        pid = table.seats[seat].player_id
        if rng.random() < timeout_p:
            await clock.advance(35.0)
            continue
        legal = sinks[pid].last_legal(tid)
        assert legal is not None and legal["seat"] == seat
        mine = [str(Card(c)) for c in hand.cards[hand.seats.index(seat)]]
        kind, amount, cards = choose(legal, rng, mine)
        await room.act(pid, tid, Move.parse(kind, amount, cards))  # offered by the frame, so it must be accepted
    raise AssertionError("the table stalled")


async def test_every_room_frame_validates_cash_spectator_seat_changes(store: Store, clock: FakeClock) -> None:
    """No-limit hold'em and stud, three players and a spectator: every table_state, engine event and table event
    (seated, sat_out, sat_in, topped_up, leaving, left, evicted, hand_started, hand_over, turn, timed_out)."""
    async with scenario(store, clock, 11, 5) as (room, players, sinks, seen):
        rng = random.Random(5)
        nl = await room.open_table(TableSpec(name="NL", small_blind=5, big_blind=10, min_buy_in=200,
                                             max_buy_in=1000, settings={"straddle": True}))
        stud = await room.open_table(TableSpec(name="Stud", game="stud", structure="FL", ante=1, bring_in=2,
                                               small_bet=10, big_bet=20, min_buy_in=200, max_buy_in=None))
        await room.watch(players[4], nl)
        for tid in (nl, stud):
            for seat, pid in enumerate(players[:3]):
                await room.sit(pid, tid, seat, 600)
        await play_table(room, clock, nl, sinks, 12, rng, timeout_p=0.05)
        await play_table(room, clock, stud, sinks, 6, rng, timeout_p=0.05)
        await room.sit_out(players[0], nl)
        await room.quiesce()
        await room.sit_in(players[0], nl, post=True)
        poorest = min(room.tables[nl].seats.values(), key=lambda st: st.stack)
        await room.top_up(poorest.player_id, nl, 100)
        await room.sit(players[3], nl, 3, 300)
        await play_table(room, clock, nl, sinks, 3, rng)
        await room.sit_out(players[3], nl)
        await clock.advance(421.0)  # R-SITOUT-3: evicted
        await room.leave(players[2], nl)
        await room.quiesce()
        for sink in sinks.values():
            for m in sink.messages:
                if m["type"] == "event" and "player" in m["event"]:
                    assert "alias" in m["event"], m  # R-ALIAS-1: named where the player is named
    assert_covered(seen, ("table_state", "event:hand_started", "event:hand_over", "event:posted", "event:dealt",
                          "event:acted", "event:board", "event:street", "event:pot_awarded", "event:seated",
                          "event:sat_out", "event:sat_in", "event:topped_up", "event:left", "event:evicted",
                          "event:turn", "event:timed_out", "event:showed"))


async def _disconnect_at(room: Room, clock: FakeClock, tid: str, sinks: dict[int, ValidatingSink],
                         wanted: Any) -> None:
    """Call/check until ``wanted(hand)`` holds at a decision, then disconnect the player to act and let their
    timer run out."""
    table = room.tables[tid]
    for _ in range(60):
        await room.quiesce()
        hand = table.hand
        if hand is not None and hand.to_act is not None:
            if wanted(hand):
                room.detach(table.seats[hand.to_act].player_id)
                await clock.advance(31.0)
                return
            pid = table.seats[hand.to_act].player_id
            legal = sinks[pid].last_legal(tid)
            assert legal is not None
            await room.act(pid, tid, Move.parse("call" if "call" in legal["kinds"] else "check"))
        else:
            await clock.advance(1.0)
    raise AssertionError("the situation never came")


async def test_every_room_frame_validates_draw_timeouts_autodraw_and_aai(store: Store, clock: FakeClock) -> None:
    """Triple draw with draw timeouts (R-TIME-4) and a disconnected drawer (R-AUTODRAW-1); fixed-limit hold'em
    under the artificial all-in policy with a disconnected player (R-AAI-1)."""
    async with scenario(store, clock, 12, 3) as (room, players, sinks, seen):
        rng = random.Random(6)
        draw = await room.open_table(TableSpec(name="TD", game="triple_draw_27", structure="FL", small_blind=5,
                                               big_blind=10, min_buy_in=200, max_buy_in=None))
        fl = await room.open_table(TableSpec(name="FL", structure="FL", small_blind=5, big_blind=10,
                                             min_buy_in=200, max_buy_in=None,
                                             settings={"disconnect_policy": "artificial_allin"}))
        for tid in (draw, fl):
            for seat, pid in enumerate(players):
                await room.sit(pid, tid, seat, 600)
        await play_table(room, clock, draw, sinks, 4, rng, timeout_p=0.3)
        await play_table(room, clock, fl, sinks, 2, rng)
        await _disconnect_at(room, clock, fl, sinks, lambda h: h.total[h.seats.index(h.to_act)] > 0)
        for pid in players:
            room.attach(pid, sinks[pid])
            for tid in room.tables_of(pid):
                await room.sit_in(pid, tid)
        await _disconnect_at(room, clock, draw, sinks,
                             lambda h: "stand_pat" in {k.value for k in h.legal_actions().kinds})
        await room.quiesce()
    assert_covered(seen, ("event:drew", "event:drew_cards", "event:timed_out", "event:auto_draw",
                          "event:artificial_allin"))


async def test_every_room_frame_validates_speed_pool(store: Store, clock: FakeClock) -> None:
    """A Speed Poker pool of four: dealt, your_turn, fast_folded, hand_over, state (after a reconnect), left, and
    the pool's hand events."""
    async with scenario(store, clock, 13, 4) as (room, players, sinks, seen):
        rng = random.Random(7)
        pool_id = await room.open_speed_pool(SpeedSpec(name="Speedy", small_blind=5, big_blind=10, table_size=4,
                                                       min_buy_in=200, max_buy_in=1000))
        pool = room.pools[pool_id]
        for pid in players:
            await room.join_speed(pid, pool_id, 800)
        for _ in range(400):
            await room.quiesce()
            if pool.hands_settled >= 15:
                break
            todo = [(d, d.hand.to_act) for d in pool.hands.values() if d.hand.to_act is not None]
            if not todo:
                await clock.advance(1.0)
                continue
            driver, seat = todo[0]
            assert seat is not None
            pid = driver.players[seat]
            if pool.players[pid].current != driver.hand_id:
                await clock.advance(1.0)
                continue
            if rng.random() < 0.2:
                await room.fast_fold(pid, pool_id)
                continue
            legal = sinks[pid].last_legal(pool_id)
            assert legal is not None and legal["seat"] == seat
            kind, amount, _ = choose(legal, rng)
            await room.speed_act(pid, pool_id, Move.parse(kind, amount))
        member = next(iter(pool.players))
        room.detach(member)  # a reconnect resends the pool state
        await room.quiesce()
        room.attach(member, sinks[member])
        await room.leave_speed(member, pool_id)
        await room.quiesce()
        await clock.advance(40.0)
    assert_covered(seen, ("speed:dealt", "speed:your_turn", "speed:fast_folded", "speed:hand_over", "speed:state",
                          "speed:left", "event:acted", "event:turn"))


class StackedDeck:
    """A random source whose first shuffle deals a given deck order (then random ones)."""

    def __init__(self, order: list[Card]) -> None:
        self.order = order
        self.rng = random.Random(1)

    def shuffle(self, x: list[Card]) -> None:
        if self.order:
            x[:] = self.order
            self.order = []
        else:
            self.rng.shuffle(x)


async def test_r_stud_6_open_pair_amounts_are_in_the_frame_and_are_exactly_what_the_server_takes(
    store: Store, clock: FakeClock
) -> None:
    """R-STUD-6: an open pair on fourth street allows the small or the big bet and nothing between: the frame's
    ``legal.allowed_to`` lists exactly those two amounts, an amount between is refused (nothing changes), and an
    offered one is accepted."""
    from riverboat.cards import parse_cards
    from riverboat.games import get_game

    third = [parse_cards(h) for h in ("AsAh 9c", "QsQh Kd", "JsJh 2c")]  # seats 0, 1, 2 (dealer box 5)
    order = [c for round_ in zip(*third, strict=True) for c in round_] + parse_cards("9d Ad 3c")
    order += [c for c in get_game("stud").deck.cards if c not in order]
    async with scenario(store, clock, 0, 3, rng=StackedDeck(order)) as (room, players, sinks, _seen):
        tid = await room.open_table(TableSpec(name="Stud", game="stud", structure="FL", ante=1, bring_in=2,
                                              small_bet=4, big_bet=8, min_buy_in=100, max_buy_in=None,
                                              settings={"min_players": 3}))
        for seat, pid in enumerate(players):
            await room.sit(pid, tid, seat, 200)
        await room.quiesce()
        await room.act(players[2], tid, Move.parse("bring_in"))  # 2c: the lowest card brings in
        await room.act(players[0], tid, Move.parse("call"))
        await room.act(players[1], tid, Move.parse("call"))
        await room.quiesce()
        hand = room.tables[tid].hand
        assert hand is not None and hand.street == 1 and hand.to_act == 0  # the open nines act first
        legal = sinks[players[0]].last_legal(tid)
        assert legal is not None and legal["allowed_to"] == [4, 8] and "bet" in legal["kinds"]
        before = len(hand.events)
        with pytest.raises(RoomError) as err:
            await room.act(players[0], tid, Move.parse("bet", 6))
        assert err.value.code == "illegal_action" and len(hand.events) == before
        await room.act(players[0], tid, Move.parse("bet", 8))
        await room.quiesce()
        assert [e.data for e in hand.events if e.kind == "acted"][-1]["to"] == 8
