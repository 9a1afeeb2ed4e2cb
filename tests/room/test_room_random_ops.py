"""Random sequences of room commands on two cash tables (seeded, reproducible): sits, buy-ins, actions, bad
actions, top-ups, sit-outs, disconnects, leaves and clock jumps. After every step the ledger is balanced and holds
exactly what was deposited (chip conservation: wallets + table escrow, pots in play included + rake); between
hands every seated stack equals the store's escrow; no player ever sees another's face-down cards (R-GEN-5)."""

from __future__ import annotations

import random

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.room.move import Move
from riverboat.store import Store

from .conftest import Recorder, assert_conserved, make_players, money, passive_action

SPECS = [
    TableSpec(name="Chaos NL", game="holdem", structure="NL", small_blind=5, big_blind=10, max_seats=6,
              min_buy_in=200, max_buy_in=1000),
    TableSpec(name="Chaos Draw", game="triple_draw_27", structure="FL", small_blind=5, big_blind=10, max_seats=6,
              min_buy_in=100, max_buy_in=None, rake="uvs_004"),
]


def check_between_hands(store: Store, room: Room) -> None:
    for table in room.tables.values():
        if table.hand is None:
            stacks = store.ledger.table_stacks(table.id, table.spec.currency)
            seated = {st.player_id: st.stack for st in table.seats.values() if st.stack > 0}
            assert stacks == seated, (table.id, stacks, seated)


@pytest.mark.parametrize("seed", [11, 23])
async def test_random_commands_conserve_chips_and_keep_table_and_store_in_step(
    room: Room, store: Store, clock: FakeClock, seed: int
) -> None:
    rng = random.Random(seed)
    players = make_players(store, 7, deposit=3_000)
    total = 7 * 3_000
    recorders = {p: Recorder(p) for p in players}
    for p in players:
        room.attach(p, recorders[p])
    tables = [await room.open_table(spec) for spec in SPECS]
    refused = 0
    for _step in range(160):
        op = rng.random()
        pid = rng.choice(players)
        tid = rng.choice(tables)
        table = room.tables[tid]
        try:
            if op < 0.62:  # the player to act acts (sometimes wrongly)
                hand = table.hand
                if hand is not None and hand.to_act is not None:
                    actor = table.seats[hand.to_act].player_id
                    legal = hand.legal_actions()
                    if rng.random() < 0.15:
                        await room.act(actor, tid, Move.parse(rng.choice(["raise", "bet", "check", "draw"]),
                                                              rng.choice([None, -1, 10**9, 3])))
                    elif rng.random() < 0.2 and legal.max_to:
                        kind = next(k.value for k in legal.kinds if k.value in ("bet", "raise", "complete"))
                        await room.act(actor, tid, Move.parse(kind, rng.randint(legal.min_to, legal.max_to)))
                    else:
                        await room.act(actor, tid, Move.parse(*passive_action(legal)))
            elif op < 0.72:
                await room.sit(pid, tid, rng.randrange(6), rng.choice([50, 150, 300, 700, 1500]),
                               wait_for_bb=rng.random() < 0.5)
            elif op < 0.76:
                await room.top_up(pid, tid, rng.choice([10, 100, 900]))
            elif op < 0.80:
                await room.sit_out(pid, tid)
            elif op < 0.87:
                await room.sit_in(pid, tid, post=rng.random() < 0.5)
            elif op < 0.90:
                await room.leave(pid, tid)
            elif op < 0.92:
                room.detach(pid)
            elif op < 0.95:
                room.attach(pid, recorders[pid])
            else:
                await clock.advance(rng.choice([1, 5, 21, 31, 60, 200]))
        except RoomError:
            refused += 1
        await room.quiesce()
        if _step % 25 == 0:
            assert_conserved(store, total)  # includes the full ledger audit (verify)
        else:
            assert sum(money(store).values()) == total
        check_between_hands(store, room)
    # wind down: everyone leaves; every chip ends in a wallet or the house
    for _ in range(100):
        await clock.advance(60)
        if all(t.hand is None for t in room.tables.values()):
            break
        for t in room.tables.values():
            hand = t.hand
            if hand is not None and hand.to_act is not None:
                await room.act(t.seats[hand.to_act].player_id, t.id, Move.parse(*passive_action(hand.legal_actions())))
    for tid in tables:
        for st in list(room.tables[tid].seats.values()):
            await room.leave(st.player_id, tid)
    await room.quiesce()
    assert all(not t.seats for t in room.tables.values())
    hands = sum(t.hand_no for t in room.tables.values())
    print(f"random ops: {hands} hands, {refused} refused commands")
    assert hands >= 15 and refused > 10
    assert_conserved(store, total)
    house = sum(v for k, v in store.ledger.balances("EUR").items() if k.startswith("rake"))
    assert sum(store.ledger.balance(p) for p in players) + house == total
    for rec in recorders.values():
        assert rec.violations == []
