"""Speed Poker (R-SPEED-1, R-SPEED-2 reading): 30 bots in one pool for 500 hands on the FakeClock and a real store.

Bots act one second (fake time) after each decision reaches them and speed-fold at random moments, also when it
is not their turn. Checked: nobody waits more than one hand between deals, blinds rotate fairly across the pool,
no private card reaches another player, and chips are conserved in the ledger (wallets + pool escrow + rake).
"""

from __future__ import annotations

import random

import pytest

from riverboat.engine import ActionKind
from riverboat.room import FakeClock, Room, RoomError, SpeedSpec
from riverboat.room.move import Move
from riverboat.store import Store

from .conftest import Recorder, assert_conserved, make_players

SPEC = SpeedSpec(name="Speedy", game="holdem", structure="NL", small_blind=5, big_blind=10, table_size=6,
                 min_buy_in=400, max_buy_in=1000)


def bot_action(legal: object, rng: random.Random) -> tuple[str, int | None]:
    kinds = legal.kinds  # type: ignore[attr-defined]
    r = rng.random()
    if ActionKind.RAISE in kinds and r < 0.08:
        return "raise", legal.min_to  # type: ignore[attr-defined]
    if ActionKind.BET in kinds and r < 0.15:
        return "bet", legal.min_to  # type: ignore[attr-defined]
    for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.RUN_ONCE, ActionKind.STAND_PAT):
        if k in kinds:
            if k is ActionKind.CALL and r > 0.8:
                return "fold", None
            return k.value, None
    return "fold", None


@pytest.mark.slow
async def test_r_speed_30_bots_500_hands_no_waiting_fair_blinds_chips_conserved(
    room: Room, store: Store, clock: FakeClock
) -> None:
    rng = random.Random(2026)
    players = make_players(store, 30, deposit=5_000)
    recorders = {p: Recorder(p) for p in players}
    for p in players:
        room.attach(p, recorders[p])
    pool_id = await room.open_speed_pool(SPEC)
    pool = room.pools[pool_id]
    for p in players:
        await room.join_speed(p, pool_id, 1000)
    await room.quiesce()
    assert len(pool.hands) == 5  # 30 players, tables of 6, dealt at once
    rejoins = 0
    fast_folds = 0
    steps = 0
    while pool.hands_settled < 500:
        steps += 1
        assert steps < 20_000, "the pool stalled"
        await room.quiesce()
        # re-buy for anyone who went broke and left
        for p in players:
            if p not in pool.players and store.ledger.balance(p) >= 400:
                await room.join_speed(p, pool_id, min(1000, store.ledger.balance(p)))
                rejoins += 1
        todo = [(sh.hand_id, sh.hand.to_act) for sh in pool.hands.values() if sh.hand.to_act is not None]
        for key, seat in todo:
            sh = pool.hands.get(key)
            if sh is None or sh.hand.to_act != seat or seat is None:
                continue
            pid = sh.players[seat]
            if pool.players.get(pid) is None or pool.players[pid].current != key:
                continue
            if rng.random() < 0.2:
                await room.fast_fold(pid, pool_id)  # R-SPEED-1: leave now, new hand at once
                fast_folds += 1
                continue
            kind, amount = bot_action(sh.hand.legal_actions(), rng)
            await room.speed_act(pid, pool_id, Move.parse(kind, amount))
        # speed fold out of turn (allowed any time once dealt in, R-SPEED-2)
        live = [pl.player_id for pl in pool.players.values() if pl.current is not None]
        for pid in rng.sample(live, k=min(2, len(live))):
            try:
                await room.fast_fold(pid, pool_id)
                fast_folds += 1
            except RoomError as exc:
                assert exc.code in ("not_in_hand", "illegal_action")
        await clock.advance(1)
    await room.quiesce()
    stats = list(pool.players.values())
    assert fast_folds > 300 and pool.hand_no >= 500
    # nobody waits more than one hand between deals
    assert max(p.max_hands_waited for p in stats) <= 1
    # blinds rotate fairly: every player posts the big blind at least once every table_size + 2 hands dealt
    assert max(p.max_hands_without_bb for p in stats) <= SPEC.table_size + 2
    for p in stats:
        if p.hands_dealt >= 3 * SPEC.table_size:
            assert p.big_blinds >= p.hands_dealt // (SPEC.table_size + 3)
    for rec in recorders.values():
        assert rec.violations == []
    # chips: the ledger is balanced; pool escrow equals what the pool holds for its players
    assert_conserved(store, 30 * 5_000)
    escrow = store.ledger.table_stacks(pool_id)
    assert escrow == {p.player_id: p.escrow for p in stats if p.escrow > 0}
    print(f"speed pool: {pool.hand_no} hands dealt, {pool.hands_settled} settled, {fast_folds} speed folds, "
          f"{rejoins} re-buys, max wait {max(p.max_wait_seconds for p in stats):.1f} s (fake), rake "
          f"{pool.rake_total}")


async def test_r_speed_1_fast_fold_moves_the_player_to_a_new_hand_at_once(
    room: Room, store: Store, clock: FakeClock
) -> None:
    """R-SPEED-1 / R-SPEED-2: speed fold before one's turn; the old hand is played out with a fold."""
    players = make_players(store, 8, deposit=2_000)
    spec = SpeedSpec(name="Small", game="holdem", structure="NL", small_blind=5, big_blind=10, table_size=4,
                     min_buy_in=400, max_buy_in=1000)
    pool_id = await room.open_speed_pool(spec)
    pool = room.pools[pool_id]
    for p in players:
        await room.join_speed(p, pool_id, 1000)
    await clock.advance(3)  # the last arrivals get a short table after speed_max_wait_seconds
    assert not pool.queue and sum(len(sh.players) for sh in pool.hands.values()) == 8
    first = next(sh for sh in pool.hands.values() if len(sh.players) >= 3)
    waiting_seat = next(s for s in first.hand.seats if s != first.hand.to_act)
    quitter = first.players[waiting_seat]
    with pytest.raises(RoomError) as err:
        await room.speed_act(quitter, pool_id, Move.parse("fold"))
    assert err.value.code == "not_your_turn"
    await room.fast_fold(quitter, pool_id)  # not their turn: still allowed (R-SPEED-2 reading)
    view = room.speed_view(quitter, pool_id)
    assert view["hand"] is None and view["waiting"] is True  # queued for a new hand at once
    other = next(sh for sh in pool.hands.values() if sh is not first and sh.hand.to_act is not None)
    mover = other.players[other.hand.to_act]  # type: ignore[index]
    await room.fast_fold(mover, pool_id)  # a second free player: with the quitter, a new 2-player hand
    await clock.advance(spec.settings.get("speed_max_wait_seconds", 3.0))
    new = room.speed_view(quitter, pool_id)
    assert new["hand"] is not None and new["hand"] != first.hand_id
    assert "??" not in next(p for p in new["view"]["players"] if p["seat"] == new["seat"])["cards"]
    # the old hand folds the quitter when the turn comes
    while first.hand_id in pool.hands and first.hand.to_act is not None:
        seat = first.hand.to_act
        assert seat != waiting_seat
        await room.speed_act(first.players[seat], pool_id, Move.parse("fold" if first.hand.legal_actions().call else "check"))
        await room.quiesce()
    assert first.hand.folded[first.hand.seats.index(waiting_seat)]
    assert room.table_info(pool_id)["kind"] == "speed"
    assert_conserved(store, 8 * 2_000)
