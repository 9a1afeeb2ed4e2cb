"""Hands of several tables recorded in one group commit (issue #11 "Speed"; Director.record_hand, the gateway's
call_all): the same places, prizes and payments in the same order as one transaction per hand, and a crash in the
middle of a group loses nothing a player was told (R-TOURN-GEN-5, R-WALLET-6, R-SERVER-1). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.frames import RoomFrame
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.resume import resume
from riverboat.room.tournament.simulate import Checker, SimHost, audit, default_spec, make_bots, play, run
from riverboat.store import Store
from riverboat.store.models import Entry, LedgerTxn
from riverboat.store.tournament_play import HandCheckpoint

from .conftest import FAST_HASHER
from .test_tourn_director_e2e import sound

ENTRANTS = 72


def payments(store: Store, players: list[int]) -> list[tuple[str, int, int]]:
    """Every tournament payment to ``players`` in ledger order: (kind, player's registration index, amount)."""
    index = {p: i for i, p in enumerate(players)}

    def body(s: Any) -> list[tuple[str, int, int]]:
        rows = s.execute(select(LedgerTxn.id, LedgerTxn.kind, Entry.amount, Entry.account_id)
                         .join(Entry, Entry.txn_id == LedgerTxn.id)
                         .where(LedgerTxn.kind.in_(("t_prize", "t_bounty")), Entry.amount > 0)
                         .order_by(LedgerTxn.id)).all()
        from riverboat.store.models import Account

        owner = dict(s.execute(select(Account.id, Account.player_id)).all())
        return [(kind, index[owner[acc]], amount) for _id, kind, amount, acc in rows if owner[acc] in index]

    return list(store._db.read(body))


async def test_r_tourn_gen_5_group_commit_same_places_prizes_and_order(tstore: Store) -> None:
    """R-TOURN-GEN-5/6, R-WALLET-6: a 72-entrant MTT played twice from the same seed, once with the hands of the
    tables that finish together recorded in group commits, once with one transaction per hand: the same places
    (players by registration order), the same place ranges and prizes, the same payments in the same ledger
    order; the grouped run really grouped (more than one hand per commit), the other did not."""
    reports = []
    orders = []
    made = 0
    for batch in (True, False):
        players = make_bots(tstore, ENTRANTS, 10_000, "EUR", prefix=f"gc{int(batch)}")
        got: list[Director] = []
        spec = default_spec("mtt", ENTRANTS, 9, "holdem", "NL", knockout={"bounty": 250})
        rep = await run(spec, ENTRANTS, store=tstore, seed=21, players=players, capture=got, batch_hands=batch,
                        tournament_id=f"gc-{batch}")
        d = got[0]
        made += d.payments_made
        rep.payments_are_ledger_entries = True  # both runs share the ledger: counted together below
        sound(rep, ENTRANTS)
        index = {p: i for i, p in enumerate(players)}
        reports.append(rep)
        orders.append(([index[p] for p in rep.places],
                       [(d.results[p].place, d.results[p].place_to, d.results[p].prize) for p in rep.places],
                       payments(tstore, players)))
    assert reports[0].hands_per_commit > 1.5 and reports[1].hands_per_commit == 1.0
    assert orders[0] == orders[1]
    assert reports[0].hands == reports[1].hands
    assert len(orders[0][2]) + len(orders[1][2]) == made  # every payment one ledger entry


@dataclass
class Listener(SimHost):
    """A room that keeps every 'finished' frame the players were sent (what they were told)."""

    told: list[tuple[int, int, int, int]] = field(default_factory=list)  # player, place, place_to, prize

    def send(self, player_id: int, message: RoomFrame) -> None:
        m: Any = message
        if m.get("type") == "tournament" and m.get("event") == "finished":
            data = m["data"]
            self.told.append((player_id, data["place"], data["place_to"], data["prize"]))


class DiesMidGroup(StoreGateway):
    """The store gateway of a process that dies in the middle of a group commit: the first group of at least
    ``size`` hands after ``after`` hands commits its first half, then nothing more ever comes back."""

    def __init__(self, store: Store, after: int, size: int = 4) -> None:
        super().__init__(store, inline=True)
        self.after, self.size = after, size
        self.recorded = 0
        self.committed: list[HandCheckpoint] = []
        self.lost: list[HandCheckpoint] = []
        self.died = asyncio.Event()

    async def call_all(self, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]
                       ) -> list[tuple[bool, Any]]:
        if self.recorded >= self.after and len(calls) >= self.size and not self.died.is_set():
            half = len(calls) // 2
            await super().call_all(calls[:half])
            self.committed = [args[1] for _fn, args in calls[:half]]
            self.lost = [args[1] for _fn, args in calls[half:]]
            self.died.set()
            await asyncio.Future()  # the process is gone: this never returns
        self.recorded += len(calls)
        return await super().call_all(calls)


async def test_r_server_1_crash_in_a_group_commit_loses_nothing_told(tstore: Store) -> None:
    """R-SERVER-1 / R-TOURN-GEN-5 / R-WALLET-6: the process dies while a group of hands is being recorded (half of
    them committed, the rest never). Every place and prize a player was told before is in the store with its
    payment; the committed hands' stacks are in the store, the others' players hold their stacks from before
    those hands (void); nobody was told the outcome of a hand of that group. Rebuilt from the store alone, the
    tournament plays on to the winner: places 1..72 once each, chips conserved, pool paid in full."""
    store = tstore
    url = str(store.url)
    players = make_bots(store, ENTRANTS, 10_000, "EUR", prefix="gcc")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    spec = default_spec("mtt", ENTRANTS, 9, "holdem", "NL")
    clock = FakeClock()
    gw = DiesMidGroup(store, after=20)
    host = Listener(clock, seeded_rng(7), gw, connected=set(players))
    d = Director(host, "gcc1", spec, bots=bots, seed=7, on_hand=Checker())
    clock.add_settle_hook(d.quiesce)
    await d.open()
    for p in players:
        await d.register(p)
    playing = asyncio.ensure_future(play(d, clock))
    await asyncio.wait([playing, asyncio.ensure_future(gw.died.wait())], return_when=asyncio.FIRST_COMPLETED)
    assert gw.died.is_set() and not playing.done()
    told = list(host.told)
    assert told  # some places were announced before the crash
    group = {p for cp in gw.committed + gw.lost for p in cp.stacks}
    assert not {p for p, *_ in told} & {f.player_id for cp in gw.committed + gw.lost for f in cp.finishes}
    # ---- the crash: nothing more runs; the store is reopened
    playing.cancel()
    clock.remove_settle_hook(d.quiesce)
    await d.close()
    store.dispose()
    store2 = Store(url, password_hasher=FAST_HASHER)
    snap = {e.player_id: e for e in store2.tournament_play.snapshot("gcc1").entries}
    for pid, place, place_to, prize in told:  # everything told is stored, its prize paid
        e = snap[pid]
        assert (e.status, e.place, e.place_to, e.prize) == ("eliminated", place, place_to, prize)
    assert sum(store2.ledger.balance(p) for p in players) + store2.tournaments.prize_pool("gcc1") == \
        ENTRANTS * (10_000 - 100)  # every prize paid came out of the pool (fees are the house's)
    for cp in gw.committed:
        for pid, chips in cp.stacks.items():
            assert snap[pid].chips == chips
    for cp in gw.lost:
        for pid, chips in cp.start_stacks.items():
            assert snap[pid].chips == chips and snap[pid].status == "registered"
    assert group  # the group held hands of several tables
    assert len({cp.table_id for cp in gw.committed + gw.lost}) >= 4
    # ---- the restart
    clock2 = FakeClock(wall_start=clock.wall() + 600)
    host2 = SimHost(clock2, seeded_rng(8), StoreGateway(store2, inline=True))
    checker = Checker()
    t0 = time.perf_counter()
    d2 = await resume(host2, "gcc1", bots=bots, seed=8, on_hand=checker, notify_players=False)
    clock2.add_settle_hook(d2.quiesce)
    assert d2.chips_issued == ENTRANTS * spec.starting_stack
    await play(d2, clock2)
    d2.payments_made += d.payments_made + sum(len(cp.payments) for cp in gw.committed)  # in the ledger too
    rep = audit(store2, d2, t0, checker)
    sound(rep, ENTRANTS)
    clock2.remove_settle_hook(d2.quiesce)
    await d2.close()
    store2.dispose()
