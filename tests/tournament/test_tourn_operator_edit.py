"""Operator edits of a tournament players have entered (R-OPER-2, reading in room/tournament/edits.py and
docs/tournaments.md): time, guarantee and conditions change in place (same id, the entries and their money kept,
every player told); what the players paid for never changes and what helps them only goes their way; a refused
edit changes nothing (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.errors import RoomError
from riverboat.room.frames import RoomFrame
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.lifecycle import PLAYING, Status
from riverboat.room.tournament.lobby import TournamentLobby
from riverboat.room.tournament.simulate import SimHost, default_spec, make_bots, play
from riverboat.store import Store

START = 1_800_000_000.0  # the FakeClock's wall time at 0


class RecordingHost(SimHost):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.frames: list[tuple[int, RoomFrame]] = []

    def send(self, player_id: int, message: RoomFrame) -> None:
        self.frames.append((player_id, message))

    def edited(self) -> dict[int, list[dict[str, Any]]]:
        out: dict[int, list[dict[str, Any]]] = {}
        for pid, f in self.frames:
            if f.get("event") == "edited":
                out.setdefault(pid, []).append(dict(f["data"]))  # type: ignore[typeddict-item]
        return out


def lobby(store: Store, bots: dict[int, ShoveBot]) -> tuple[TournamentLobby, FakeClock, RecordingHost]:
    clock = FakeClock()
    host = RecordingHost(clock, seeded_rng(2), StoreGateway(store, inline=True))
    lob = TournamentLobby(host, bots=bots)

    async def settle() -> None:
        for d in list(lob.directors.values()):
            await d.quiesce()

    clock.add_settle_hook(settle)
    return lob, clock, host


async def test_r_oper_2_edit_time_guarantee_and_conditions_with_entries(tstore: Store) -> None:
    """R-OPER-2: an MTT with three entrants is edited before its start: start time an hour later, guarantee up,
    late registration, maximum up, minimum down, name, level length. It keeps its id and its entries (nobody
    charged or refunded), the store holds the new description, every registered player gets one ``edited`` event
    naming the changes, it does not start at the old time but at the new one, and the raised guarantee is what the
    house tops the pool up to (overlay)."""
    players = make_bots(tstore, 3, 10_000, "EUR", prefix="edit")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock, host = lobby(tstore, bots)
    d = await lob.create(default_spec("mtt", 3, 9, "holdem", "NL", starts_at=START + 600, guarantee=4_000,
                                      max_entrants=50), "ed1")
    for p in players:
        await d.register(p)
    changes = {"starts_at": START + 3600, "guarantee": 9_000, "late_registration_levels": 2, "max_entrants": 100,
               "min_entrants": 2, "name": "Sunday Special", "level_seconds": 240.0}
    same = await lob.edit("ed1", changes)
    assert same is d and lob.get("ed1") is d and d.registered == players
    assert all(tstore.ledger.balance(p) == 10_000 - 1_100 for p in players)
    assert d.spec.guarantee == 9_000 and d.spec.starts_at == START + 3600 and d.spec.name == "Sunday Special"
    stored = tstore.tournament_play.snapshot("ed1").spec
    assert stored is not None and stored["guarantee"] == 9_000 and stored["starts_at"] == START + 3600
    told = host.edited()
    assert set(told) == set(players)
    for notes in told.values():
        assert notes == [{"changes": {k: changes[k] for k in changes if k != "min_entrants"}, "rule": "R-OPER-2"}]
    await clock.advance(700)
    assert d.status is Status.REGISTERING  # the old start time passed: it waits for the new one
    await clock.advance(2899)
    assert d.status is Status.REGISTERING
    await clock.advance(1)  # the new start time
    assert d.status is not Status.REGISTERING and d.lifecycle.started_at == START + 3600
    await play(d, clock)
    assert d.overlay == 9_000 - 3_000 and sum(r.prize for r in d.results.values()) == 9_000
    await lob.close()


REFUSED = [
    ({"buy_in": 2_000}, "buy_in cannot change"),
    ({"fee": 50}, "fee cannot change"),
    ({"currency": "USD"}, "currency cannot change"),
    ({"game": "omaha", "structure": "PL"}, "game cannot change"),
    ({"knockout": {"bounty": 100}}, "knockout cannot change"),
    ({"guarantee": 3_000}, "guarantee may only go up"),
    ({"max_entrants": 2}, "below the 3 entrants"),
    ({"max_entrants": 20}, "max_entrants may only go up"),
    ({"min_entrants": 3}, "min_entrants may only go down"),
    ({"starts_at": START - 10}, "in the past"),
]


@pytest.mark.parametrize("changes,message", REFUSED)
async def test_r_oper_2_refused_edits_change_nothing(sqlite_store: Store, changes: dict[str, Any],
                                                     message: str) -> None:
    """R-OPER-2 reading: with players in, the buy-in and fee (what they paid) and the game never change, the
    guarantee and maximum only go up, the minimum only down, the start not into the past: each refused with a
    message saying why; the tournament, the store and the balances are as before and nobody is told anything."""
    players = make_bots(sqlite_store, 3, 10_000, "EUR", prefix="noed")
    lob, _clock, host = lobby(sqlite_store, {})
    d = await lob.create(default_spec("mtt", 3, 9, "holdem", "NL", starts_at=START + 600, guarantee=4_000,
                                      max_entrants=30), "noed1")
    for p in players:
        await d.register(p)
    before, stored = d.spec, sqlite_store.tournament_play.snapshot("noed1").spec
    with pytest.raises(RoomError) as err:
        await lob.edit("noed1", changes)
    assert err.value.code == "bad_state" and message in err.value.message
    assert d.spec == before and sqlite_store.tournament_play.snapshot("noed1").spec == stored
    assert all(sqlite_store.ledger.balance(p) == 10_000 - 1_100 for p in players) and not host.edited()
    await lob.close()


async def test_r_oper_2_after_the_start_only_what_cannot_hurt(sqlite_store: Store) -> None:
    """R-OPER-2 reading, a running MTT: the start time or the structure can no longer change (refused, nothing
    changes); the guarantee goes up while late registration keeps the pool open, and the house pays the overlay of
    the new guarantee when the pool is final; after that the guarantee is final too."""
    players = make_bots(sqlite_store, 6, 10_000, "EUR", prefix="run")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock, host = lobby(sqlite_store, bots)
    d = await lob.create(default_spec("mtt", 6, 6, "holdem", "NL", starts_at=START + 60, guarantee=6_000,
                                      late_registration_levels=1), "run1")
    for p in players:
        await d.register(p)
    await clock.advance(60)
    assert d.status in PLAYING and not d.pool_final
    for bad in ({"starts_at": START + 9_000}, {"level_seconds": 60.0}, {"starting_stack": 5_000}):
        with pytest.raises(RoomError) as err:
            await lob.edit("run1", bad)
        assert "started" in err.value.message
    still_in = set(d.entrants_by_id)
    await lob.edit("run1", {"guarantee": 10_000})
    assert set(host.edited()) == still_in  # every player still in is told
    await play(d, clock)
    assert d.pool_final and d.overlay == 10_000 - 6_000
    assert sum(r.prize for r in d.results.values()) == 10_000
    await lob.close()


async def test_r_oper_2_guarantee_final_once_the_overlay_is_paid(sqlite_store: Store) -> None:
    """R-OPER-2 reading: once the pool is final (the overlay paid), the guarantee cannot change any more."""
    players = make_bots(sqlite_store, 4, 10_000, "EUR", prefix="fin")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock, _ = lobby(sqlite_store, bots)
    d = await lob.create(default_spec("mtt", 4, 6, "holdem", "NL", starts_at=START + 60, guarantee=5_000), "fin1")
    for p in players:
        await d.register(p)
    await clock.advance(60)
    assert d.pool_final and d.overlay == 1_000
    with pytest.raises(RoomError) as err:
        await lob.edit("fin1", {"guarantee": 8_000})
    assert "fixed" in err.value.message and d.spec.guarantee == 5_000
    await lob.close()
