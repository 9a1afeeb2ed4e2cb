"""A restart in the middle of a tournament (R-SERVER-1, issue #11 item 6 "Crash"): the director stops with a hand in
progress (nothing of it was written), a new director is rebuilt from the store alone, every stack is the one after
that table's last completed hand, the seating, buttons and places already decided come back, and the tournament
is played to the winner with nothing lost (in-process restart; the store is a real SQLite file, reopened)."""

from __future__ import annotations

import random
import time

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.resume import resume
from riverboat.room.tournament.simulate import Checker, SimHost, audit, default_spec, make_bots, play
from riverboat.store import Store

from .conftest import FAST_HASHER
from .test_tourn_director_e2e import sound


async def test_r_server_1_restart_resumes_from_the_last_completed_hands(sqlite_store: Store) -> None:
    """R-SERVER-1 / R-TOURN-GEN-5: 54 bots and one connected human (who decides on the table's timers, so their
    table is in a hand at the crash). After the crash: every stack in the store equals the stack the old director
    had after the last completed hand of its table (the human's hand in progress is void: its players hold their
    pre-hand stacks); the rebuilt director seats the same players at the same tables and seats, keeps the places
    already paid, and plays on to the winner: places 1..55 once each, chips conserved, pool paid in full."""
    store = sqlite_store
    url = str(store.url)
    players = make_bots(store, 55, 10_000, "EUR", prefix="crash")
    human = players[0]
    bots = {p: ShoveBot(random.Random(p)) for p in players[1:]}
    spec = default_spec("mtt", 55, 9, "holdem", "NL")
    clock = FakeClock()
    host = SimHost(clock, seeded_rng(5), StoreGateway(store, inline=True), connected={human})
    checker = Checker()
    d = Director(host, "crash1", spec, bots=bots, seed=5, on_hand=checker, notify_players=False)
    clock.add_settle_hook(d.quiesce)
    await d.open()
    for p in players:
        await d.register(p)
    while d.stats.hands < 40 or d.entrants_by_id[human].table_id is None or \
            d.tables[d.entrants_by_id[human].table_id or ""].driver is None:
        await clock.advance(5)
        assert not d.done.is_set()
    human_table = d.tables[d.entrants_by_id[human].table_id or ""]
    in_progress = human_table.driver
    assert in_progress is not None and not in_progress.hand.is_over
    before = {pid: (e.chips, e.table_id, e.seat) for pid, e in d.entrants_by_id.items()}
    start_stacks = {in_progress.players[s]: st for s, st in zip(in_progress.hand.seats,
                                                                 in_progress.hand.start_stacks, strict=True)}
    results_before = {p: (r.place, r.prize) for p, r in d.results.items()}
    hands_before = d.stats.hands
    # ---- the crash: the process dies (the actor stops, nothing more is written); the store is reopened
    clock.remove_settle_hook(d.quiesce)
    await d.close()
    store.dispose()
    store2 = Store(url, password_hasher=FAST_HASHER)
    snap = {e.player_id: e for e in store2.tournament_play.snapshot("crash1").entries}
    for pid, (chips, table_id, seat) in before.items():
        assert (snap[pid].chips, snap[pid].table_id, snap[pid].seat) == (chips, table_id, seat)
    for pid, chips in start_stacks.items():  # the hand in progress is void: pre-hand stacks
        assert snap[pid].chips == chips
    # ---- the restart
    clock2 = FakeClock(wall_start=clock.wall() + 600)
    host2 = SimHost(clock2, seeded_rng(6), StoreGateway(store2, inline=True))
    checker2 = Checker()
    t0 = time.perf_counter()
    d2 = await resume(host2, "crash1", bots=bots, seed=6, on_hand=checker2, notify_players=False)
    clock2.add_settle_hook(d2.quiesce)
    assert d2.chips_issued == d.chips_issued  # every chip is back on the tables
    for p, done in results_before.items():  # places decided before the crash stand (hands go on at once)
        assert (d2.results[p].place, d2.results[p].prize) == done
    human_e = d2.entrants_by_id.get(human)
    assert human_e is None or human_e.sitting_out  # not connected after the restart: blinded away
    await play(d2, clock2)
    d2.payments_made += d.payments_made  # the payments made before the crash are in the ledger too
    rep = audit(store2, d2, t0, checker2)
    sound(rep, 55)
    assert d2.stats.hands > 0 and hands_before >= 40
    clock2.remove_settle_hook(d2.quiesce)
    await d2.close()
    store2.dispose()
