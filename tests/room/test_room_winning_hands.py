"""The winning hand on the wire (issue #14 "winning hand highlighted"): at a room table with a stacked deck, the
``pot_awarded`` event frame and the result in the ``table_state`` view name each winner's five cards and the hand's
name (R-CARD-2), both validate against the strict protocol models, and a mucked loser's cards reach nobody
(R-SHOW-4, R-GEN-5): not the other players, not a spectator."""

from __future__ import annotations

import json

from riverboat.cards import Card, parse_cards
from riverboat.games import get_game
from riverboat.room import FakeClock, TableSpec
from riverboat.room.move import Move
from riverboat.store import Store

from .test_room_frames import StackedDeck, scenario


async def test_r_card_2_r_show_4_pot_awarded_names_the_winning_five_and_hides_the_mucked_hands(
    store: Store, clock: FakeClock
) -> None:
    """Hold'em, three players checked down: the flush (Ah 2h with 9h 6h 5h) beats the straight the board plays
    (5h 6h 7c 8d 9h) and a pair of Kings. The event and the final view carry exactly those five cards and
    "Flush, Ace high"; the mucked hands are in no frame sent to anyone else."""
    holdings = [parse_cards(h) for h in ("Ah 2h", "Kc Kd", "3s 3d")]
    order = [c for round_ in zip(*holdings, strict=True) for c in round_] + parse_cards("5h 6h 7c 8d 9h")
    order += [c for c in get_game("holdem").deck.cards if c not in order]
    async with scenario(store, clock, 0, 4, rng=StackedDeck(order)) as (room, players, sinks, _seen):
        tid = await room.open_table(TableSpec(name="Show", small_blind=5, big_blind=10, min_buy_in=200,
                                              max_buy_in=1000, settings={"min_players": 3}))
        await room.watch(players[3], tid)
        for seat, pid in enumerate(players[:3]):
            await room.sit(pid, tid, seat, 500)
        await room.quiesce()
        table = room.tables[tid]
        hand = table.hand
        assert hand is not None
        held = {s: [str(Card(c)) for c in hand.cards[i]] for i, s in enumerate(hand.seats)}
        flush_seat = next(s for s, cards in held.items() if cards == ["Ah", "2h"])
        for _ in range(40):
            await room.quiesce()
            if hand.is_over:
                break
            assert hand.to_act is not None
            pid = table.seats[hand.to_act].player_id
            legal = sinks[pid].last_legal(tid)
            assert legal is not None
            await room.act(pid, tid, Move.parse("check" if "check" in legal["kinds"] else "call"))
        await room.quiesce()
        assert hand.is_over
        mucked = {e.seat for e in hand.events if e.kind == "mucked"}
        shown = {e.seat for e in hand.events if e.kind == "showed"}
        assert flush_seat in shown and mucked  # at least one loser did not have to show
        winning = {"cards": ["Ah", "9h", "6h", "5h", "2h"], "label": "Flush, Ace high"}
        for pid, sink in sinks.items():
            awarded = [m["event"] for m in sink.messages if m["type"] == "event" and m["event"]["kind"] == "pot_awarded"]
            assert awarded and awarded[-1]["hands"] == {flush_seat: winning}, awarded
            # the wire form (JSON keys are strings), as the browser reads it
            assert json.loads(json.dumps(awarded[-1]))["hands"] == {str(flush_seat): winning}
            results = [m["view"]["hand"]["result"] for m in sink.messages if m["type"] == "table_state"
                       and m["table"] == tid and m["view"]["hand"] and "result" in m["view"]["hand"]]
            if results:
                assert results[-1]["pots"][0]["hands"] == {flush_seat: winning}
            own_seat = next((s for s, st in table.seats.items() if st.player_id == pid), None)
            text = json.dumps([m for m in sink.messages if m.get("table") == tid])
            for seat in mucked - {own_seat}:
                for card in held[seat]:
                    assert f'"{card}"' not in text, (pid, seat, card)
