"""Operator powers over tournaments (R-OPER-1..5) through the room's TournamentLobby: edit before the start, cancel
with refunds, interrupt with the compensation of R-TOURN-INT paid through the ledger, disqualify with forfeit
(R-INTEG-5, R-WALLET-8); the lobby's two tabs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riverboat.cards import seeded_rng
from riverboat.cli import app
from riverboat.room.clock import FakeClock
from riverboat.room.errors import RoomError
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.compensation import compensate
from riverboat.room.tournament.lifecycle import Status
from riverboat.room.tournament.lobby import TournamentLobby, compensation_input
from riverboat.room.tournament.simulate import SimHost, default_spec, make_bots, play
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.store import AccountKey, Store

START = 1_800_000_000.0


def lobby_for(store: Store, bots: dict[int, ShoveBot]) -> tuple[TournamentLobby, FakeClock]:
    clock = FakeClock()
    host = SimHost(clock, seeded_rng(2), StoreGateway(store, inline=True))
    lob = TournamentLobby(host, bots=bots)

    async def settle() -> None:
        for d in list(lob.directors.values()):
            await d.quiesce()

    clock.add_settle_hook(settle)
    return lob, clock


async def test_r_oper_2_3_edit_then_cancel_with_refunds(sqlite_store: Store) -> None:
    """R-OPER-2: an MTT nobody entered yet is edited (guarantee and start time); R-OPER-3 / R-TOURN-REG-4: once
    players are in, the operator cancels it and every buy-in and fee goes back; the lobby lists it under
    Tournaments, not Sit & Go's."""
    players = make_bots(sqlite_store, 3, 10_000, "EUR", prefix="oper")
    lob, clock = lobby_for(sqlite_store, {})
    d = await lob.create(default_spec("mtt", 3, 9, "holdem", "NL", starts_at=START + 3600), "main")
    d2 = await lob.edit("main", {"guarantee": 50_000, "starts_at": START + 7200})
    assert d2.spec.guarantee == 50_000 and d2.spec.starts_at == START + 7200
    assert "main" not in lob.directors and d.status is Status.REGISTERING
    tabs = lob.lobby()
    assert [e["id"] for e in tabs["mtt"]] == [d2.id] and tabs["sng"] == []
    for p in players:
        await d2.register(p)
    assert sqlite_store.ledger.balance(players[0]) == 10_000 - 1_100
    with pytest.raises(RoomError):
        await lob.edit(d2.id, {"guarantee": 1})  # entrants: no more edits
    await lob.cancel(d2.id)
    assert d2.status is Status.CANCELLED
    assert all(sqlite_store.ledger.balance(p) == 10_000 for p in players)
    await lob.close()


async def test_r_tourn_int_r_wallet_7_interrupt_pays_the_compensation(sqlite_store: Store) -> None:
    """R-TOURN-INT-3/4 / R-WALLET-7: an operator interrupts a running 12-player MTT: every remaining player is
    paid exactly what compensate() computes for that state (buy-in and fee back, the rest of the pool shared)
    through the ledger; eliminated players get nothing more; the ledger stays balanced."""
    players = make_bots(sqlite_store, 12, 10_000, "EUR", prefix="intr")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock = lobby_for(sqlite_store, bots)
    d = await lob.create(default_spec("mtt", 12, 6, "holdem", "NL"), "intr")
    for p in players:
        await d.register(p)
    while d.alive > 8 or d.status not in (Status.RUNNING, Status.FINAL_TABLE):
        await clock.advance(5)
    quote = compensate(compensation_input(d))
    before = {p: sqlite_store.ledger.balance(p) for p in players}
    out = await lob.interrupt("intr")
    assert d.status is Status.INTERRUPTED and out["payouts"] == quote.payouts
    for name, amount in quote.payouts.items():
        assert sqlite_store.ledger.balance(int(name)) == before[int(name)] + amount
    for p in players:
        if str(p) not in quote.payouts:
            assert sqlite_store.ledger.balance(p) == before[p]
    assert sqlite_store.tournaments.status("intr") == "interrupted"
    assert sqlite_store.tournaments.prize_pool("intr") == 0
    assert sqlite_store.ledger.total("EUR") == 0
    await lob.close()


async def test_r_integ_5_r_wallet_8_disqualified_player_forfeits(sqlite_store: Store) -> None:
    """R-INTEG-5 / R-WALLET-8 / R-OPER-1: a disqualified player leaves the tournament with no place, their chips
    leave play and their buy-in and fee are not refunded; the others play on to the winner."""
    players = make_bots(sqlite_store, 6, 10_000, "EUR", prefix="dq")
    staff = sqlite_store.accounts.register("dq_operator", "operator password 1", role="operator").id
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock = lobby_for(sqlite_store, bots)
    d = await lob.create(default_spec("sng", 6, 6, "holdem", "NL"), "dq1")
    for p in players:
        await d.register(p)
    cheat = next(iter(d.entrants_by_id))
    await lob.disqualify("dq1", cheat, staff)
    await clock.advance(1)
    assert cheat not in d.entrants_by_id
    await play(d, clock)
    assert cheat not in d.results and len(d.results) == 5
    assert sqlite_store.ledger.balance(cheat) == 10_000 - 1_100
    fees = sqlite_store.ledger.account_balance(AccountKey.fees("EUR"))
    assert fees == 6 * 100
    snap = {e.player_id: e.status for e in sqlite_store.tournament_play.snapshot("dq1").entries}
    assert snap[cheat] == "disqualified"
    assert sum(r.prize for r in d.results.values()) == 6_000  # the forfeited buy-in stays in the pool
    await lob.close()


async def test_r_server_1_recover_resumes_running_and_cancels_registering(sqlite_store: Store) -> None:
    """R-SERVER-1 / R-TOURN-REG-4 reading: after a restart the lobby resumes a running Sit & Go from the store and
    cancels one that was still registering (every buy-in and fee back); the resumed one plays to the winner."""
    players = make_bots(sqlite_store, 5, 10_000, "EUR", prefix="recov")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock = lobby_for(sqlite_store, bots)
    running = await lob.create(default_spec("sng", 3, 3, "holdem", "NL"), "rec-run")
    waiting = await lob.create(default_spec("sng", 3, 3, "holdem", "NL"), "rec-wait")
    for p in players[:3]:
        await running.register(p)
    for p in players[3:]:
        await waiting.register(p)
    assert running.status in (Status.RUNNING, Status.FINAL_TABLE, Status.FINISHED)
    await lob.close()  # the process stops
    lob2, clock2 = lobby_for(sqlite_store, bots)
    out = await lob2.recover()
    assert out["cancelled"] == ["rec-wait"]
    assert all(sqlite_store.ledger.balance(p) == 10_000 for p in players[3:])
    if running.status is not Status.FINISHED:
        assert out["resumed"] == ["rec-run"]
        await play(lob2.get("rec-run"), clock2)
    assert sqlite_store.tournaments.status("rec-run") == "finished"
    await lob2.close()


async def test_r_server_1_a_restarted_room_opens_its_configured_tournaments_again(sqlite_store: Store) -> None:
    """R-SERVER-1 / R-TOURN-SNG-1: a room restarted on the same database opens its configured Sit & Go series
    again. Each process numbers its tournaments from 1, the store keeps those of the earlier run: the new ones take
    ids the store has not used (the restart used to fail with "tournament 'sng1' already exists")."""
    first, _ = lobby_for(sqlite_store, {})
    a = await first.create(default_spec("sng", 2, 2, "holdem", "NL"), series=True)
    await first.close()
    again, _ = lobby_for(sqlite_store, {})
    b = await again.create(default_spec("sng", 2, 2, "holdem", "NL"), series=True)
    assert a.id != b.id and sqlite_store.tournaments.exists(a.id) and sqlite_store.tournaments.exists(b.id)
    assert not sqlite_store.tournaments.exists("never-created")
    await again.close()


async def test_r_tourn_int_5_6_interrupt_refunds_every_rebuy_and_addon_fee(sqlite_store: Store, tmp_path: Path
                                                                            ) -> None:
    """R-TOURN-INT-4/6 (issue #36 item 5): an MTT with re-buys and add-ons (each with its fee) is interrupted:
    every remaining player gets back every buy-in, re-buy and add-on AND every fee they paid (the entry fee and
    one fee per re-buy and add-on), plus their share; what the ledger pays each one is exactly the quote of
    ``riverboat tournament compensation`` run on the tournament's state, and the house's fee account gives back
    every fee of the remaining players."""
    players = make_bots(sqlite_store, 12, 40_000, "EUR", prefix="intrb")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    lob, clock = lobby_for(sqlite_store, bots)
    spec = default_spec("mtt", 12, 6, "holdem", "NL", rebuys=True)
    spec = TournamentSpec.from_dict({**spec.to_dict(), "rebuy": {**spec.to_dict()["rebuy"], "fee": 100,
                                                                  "addon_fee": 50}})
    d = await lob.create(spec, "intrb")
    for p in players:
        await d.register(p)
    for _ in range(2000):  # the bots re-buy when busted and take the add-on when it is offered (level 4)
        if d.status in (Status.RUNNING, Status.FINAL_TABLE) and any(e.addons for e in d.entrants_by_id.values()):
            break
        await clock.advance(5)
    inp = compensation_input(d)
    assert any(r.rebuys for r in inp.remaining) and any(r.add_ons for r in inp.remaining), inp
    paid_fees = {int(r.player): 100 + 100 * r.rebuys + 50 * r.add_ons for r in inp.remaining}
    path = tmp_path / "quote.json"
    path.write_text(json.dumps(inp.to_dict()))
    cli = CliRunner().invoke(app, ["tournament", "compensation", str(path)])
    assert cli.exit_code == 0, cli.output
    quote = json.loads(cli.stdout)
    assert quote == compensate(inp).to_dict()
    parts = compensate(inp).parts
    for name, fee in paid_fees.items():
        assert parts[str(name)]["fee"] == fee  # every fee, not one per player
    before = {p: sqlite_store.ledger.balance(p) for p in players}
    fees_before = sqlite_store.ledger.account_balance(AccountKey.fees("EUR"))
    out = await lob.interrupt("intrb")
    assert d.status is Status.INTERRUPTED and out["payouts"] == quote["payouts"]
    for name, amount in quote["payouts"].items():
        assert sqlite_store.ledger.balance(int(name)) == before[int(name)] + amount
    assert sqlite_store.ledger.account_balance(AccountKey.fees("EUR")) == fees_before - sum(paid_fees.values())
    assert sqlite_store.ledger.total("EUR") == 0
    await lob.close()
