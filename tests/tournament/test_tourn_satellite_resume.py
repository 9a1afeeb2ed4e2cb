"""A satellite restarted after it issued a ticket (R-SERVER-1, R-TOURN-SAT-1, R-TOURN-GEN-2): the rebuilt director
counts the tickets already issued as prizes paid, so its prize pool, its places' prizes and the number of seats
left are those of the run before the crash, and the tickets issued over the whole run add up to exactly the seats
the pool buys (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
import time

from sqlalchemy import select

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.resume import resume
from riverboat.room.tournament.simulate import Checker, SimHost, audit, default_spec, make_bots, play
from riverboat.store import Store
from riverboat.store.models import Ticket

from .conftest import FAST_HASHER
from .test_tourn_director_e2e import sound

SEAT = 5_500  # the target's buy-in + fee


def tickets(store: Store) -> list[Ticket]:
    return store._db.read(lambda s: list(s.scalars(select(Ticket).where(Ticket.tournament_id == "main-event"))))


async def test_r_tourn_sat_1_resume_counts_the_tickets_already_issued(tstore: Store) -> None:
    """R-TOURN-SAT-1 / R-TOURN-GEN-2 / R-SERVER-1: 20 x (1000+100) satellite, pool 20,000 = 3 seats of 5,500 and
    3,500 cash to 4th. The process stops once the first ticket is issued (3rd place out, two players left); the
    director rebuilt from the store has the same prize pool (20,000, not 20,000 less the ticket), the same result
    (prize 5,500) for the ticket holder and still two seats to award; played to the winner: exactly three tickets
    of 5,500 (the seats), 3,500 in cash, places 1..20 once each, chips conserved, the ledger balanced."""
    store = tstore
    url = str(store.url)
    players = make_bots(store, 20, 10_000, "EUR", prefix="satr")
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    spec = default_spec("mtt", 20, 10, "holdem", "NL", satellite={"target": "main-event", "seat_value": SEAT})
    clock = FakeClock()
    host = SimHost(clock, seeded_rng(4), StoreGateway(store, inline=True))
    d = Director(host, "satr1", spec, bots=bots, seed=4, on_hand=Checker(), notify_players=False)
    clock.add_settle_hook(d.quiesce)
    await d.open()
    for p in players:
        await d.register(p)
    while not tickets(store):
        await clock.advance(1)
        assert not d.done.is_set()
    assert d.alive == 2 and len(tickets(store)) == 1
    holder = tickets(store)[0].player_id
    pool_before, results_before = d.prize_pool, {p: (r.place, r.prize) for p, r in d.results.items()}
    assert pool_before == 20_000 and results_before[holder] == (3, SEAT)
    clock.remove_settle_hook(d.quiesce)
    await d.close()  # ---- the process stops
    store.dispose()
    store2 = Store(url, password_hasher=FAST_HASHER)
    clock2 = FakeClock(wall_start=clock.wall() + 600)
    host2 = SimHost(clock2, seeded_rng(4), StoreGateway(store2, inline=True))
    checker = Checker()
    t0 = time.perf_counter()
    d2 = await resume(host2, "satr1", bots=bots, seed=4, on_hand=checker, notify_players=False)
    clock2.add_settle_hook(d2.quiesce)
    assert d2.prize_pool == pool_before
    assert {p: (r.place, r.prize) for p, r in d2.results.items()} == results_before
    awards = d2.place_awards()
    assert [a.cash for a in awards] == [SEAT, SEAT, SEAT, 3_500] and [a.ticket for a in awards[:3]] == [True] * 3
    await play(d2, clock2)
    d2.payments_made += d.payments_made  # the payments before the stop are in the ledger too
    rep = audit(store2, d2, t0, checker)
    sound(rep, 20)
    issued = tickets(store2)
    assert len(issued) == 3 and sum(t.face_value for t in issued) == 3 * SEAT == 20_000 // SEAT * SEAT
    assert sorted(t.player_id for t in issued) == sorted(rep.places[:3])
    assert [d2.results[p].prize for p in rep.places[:4]] == [SEAT, SEAT, SEAT, 3_500]
    clock2.remove_settle_hook(d2.quiesce)
    await d2.close()
    store2.dispose()
