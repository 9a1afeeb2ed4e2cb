"""A server restart in the middle of a Twister (R-SERVER-1, issue #12 item left open): the room's Twister "Play"
(:class:`TwisterOffers`) stops with a hand in progress (never written: void), a new one on the same store resumes
every running Twister from the stacks after its last completed hand with the spin it had (the same multiplier, the
same prizes: cash, or for Wild Twister a Twister ticket), and plays it to the winner; a Twister still waiting for
its third player is cancelled with the stakes refunded (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import BotPolicy
from riverboat.room.tournament.lifecycle import PLAYING, Status
from riverboat.room.tournament.simulate import SimHost, make_bots
from riverboat.room.twister.offers import TwisterOffers
from riverboat.store import Store
from riverboat.store.models import Hand, HandPlayer
from riverboat.store.twister import TICKET_SCOPE
from riverboat.twister import TwisterSettings


def resumed_hand_starts(store: Store, tid: str, n_before: int) -> dict[int, int]:
    """Each player's stack at the start of the first hand recorded after the ``n_before`` hands of ``tid``."""
    def body(s: Any) -> dict[int, int]:
        hands = list(s.scalars(select(Hand).where(Hand.table_id.startswith(f"{tid}/")).order_by(Hand.id)))
        assert len(hands) > n_before
        rows = s.scalars(select(HandPlayer).where(HandPlayer.hand_pk == hands[n_before].id))
        return {r.player_id: r.start_stack for r in rows}

    return store._db.read(body)


def timed_out_after(store: Store, tid: str, n_before: int) -> list[str]:
    """Hands of ``tid`` after the first ``n_before`` in which somebody's action timed out."""
    def body(s: Any) -> list[str]:
        hands = list(s.scalars(select(Hand).where(Hand.table_id.startswith(f"{tid}/")).order_by(Hand.id)))
        return [h.hand_id for h in hands[n_before:] if any(e.get("kind") == "timed_out" for e in h.events or [])]

    return store._db.read(body)


def offers_for(store: Store, clock: FakeClock, seed: int, bots: dict[int, BotPolicy],
               connected: set[int]) -> TwisterOffers:
    host = SimHost(clock, seeded_rng(seed), StoreGateway(store, inline=True), connected=connected)
    offers = TwisterOffers(host, TwisterSettings(), rng=random.Random(seed))
    offers.bots.update(bots)
    return offers


async def test_r_server_1_twister_resumes_with_its_spin_after_a_restart(tstore: Store) -> None:
    """R-SERVER-1 / R-TWIST-3/5 / R-TOURN-GEN-5: a EUR 1 Twister with one connected player (who decides on the
    table's timers) and two bots. The server stops while the human's hand is in progress after at least one
    completed hand: the store holds the stacks of before that hand (the hand is void). A new TwisterOffers (a new
    process: no in-process bots) resumes it: same stacks, same spin (multiplier, prize of every place), nobody spun
    again; every player, not connected to the new process, is folded at once (no action waits on the timers) until
    they come back; played to the winner, who is paid the drawn prize once; chips conserved, the
    ledger balanced."""
    players = make_bots(tstore, 3, 1_000, "EUR", prefix="twr")
    human = players[0]
    bots: dict[int, BotPolicy] = {p: ShoveBot(random.Random(p), shove=0.05, call=0.2) for p in players[1:]}
    clock = FakeClock()
    offers = offers_for(tstore, clock, 1, bots, {human})
    for p in players:
        await offers.play(p, "twister", 100)
    (tid,) = offers.directors
    d = offers.director(tid)
    spin = tstore.twister.result(tid)
    assert spin is not None and d.status in PLAYING
    for _ in range(2_000):
        e = d.entrants_by_id.get(human)
        table = d.tables.get(e.table_id or "") if e is not None else None
        if d.stats.hands >= 1 and table is not None and table.driver is not None and d.alive >= 2:
            break
        await clock.advance(1)
    else:
        raise AssertionError("no hand of the human in progress after a completed hand")
    driver = table.driver
    assert driver is not None and not driver.hand.is_over
    before = {pid: e.chips for pid, e in d.entrants_by_id.items()}  # after the last completed hand
    await offers.close()  # ---- the server stops: the hand in progress is void
    snap = {e.player_id: e.chips for e in tstore.tournament_play.snapshot(tid).entries if e.status == "registered"}
    assert snap == before and sum(snap.values()) == 1_500
    draws = len(tstore.twister.draws(tournament_id=tid))
    hands_before = d.stats.hands
    # ---- the restart
    clock2 = FakeClock(wall_start=clock.wall() + 60)
    # a new process: no in-process bots any more, and a room that calls "connected" everyone it never saw leave
    offers2 = offers_for(tstore, clock2, 2, {}, set(players))
    assert await offers2.recover() == {"resumed": [tid], "cancelled": []}
    d2 = offers2.director(tid)
    assert d2.chips_issued == sum(before.values()) == 1_500
    first = resumed_hand_starts(tstore, tid, hands_before)  # the resumed director dealt at once
    assert first == before  # the first hand after the restart starts from the stacks of before the void hand
    assert [a.cash for a in d2.place_awards()] == list(spin.places) and d2.prize_pool == spin.prize
    assert all(e.sitting_out for e in d2.entrants_by_id.values())  # nobody connected after the restart
    await clock2.advance(30)
    assert d2.stats.hands >= 3  # folded at once: hands go on every between-hands pause, nobody is waited for
    assert not timed_out_after(tstore, tid, hands_before)
    d2.bots.update({p: ShoveBot(random.Random(p), shove=0.3) for p in players})  # the players come back
    for p in players:
        await d2.actor.submit(lambda p=p: d2.connected(p))  # type: ignore[misc]
    for _ in range(5_000):
        if d2.done.is_set():
            break
        await clock2.advance(5)
    assert d2.status is Status.FINISHED and d2.stats.chips_conserved
    assert len(tstore.twister.draws(tournament_id=tid)) == draws  # not spun again
    winner = d2.places()[0]
    assert d2.results[winner].prize == spin.prize
    paid = {p: tstore.ledger.balance(p) - (1_000 - 100) for p in players}
    assert paid[winner] == spin.prize and sum(paid.values()) == spin.prize
    assert tstore.tournaments.status(tid) == "finished" and tstore.ledger.total("EUR") == 0
    await offers2.close()


async def test_r_wild_1_wild_twister_resumes_and_pays_its_ticket(tstore: Store) -> None:
    """R-SERVER-1 / R-WILD-1/2: a Wild Twister stopped after its spin and before its first hand resumes with the
    stored spin and pays the drawn prize as a Twister ticket (scope ``twister:*``), not cash; a Wild Twister still
    waiting for its third player is cancelled by the restart and both stakes are refunded."""
    players = make_bots(tstore, 5, 1_000, "EUR", prefix="wir")
    bots: dict[int, BotPolicy] = {p: ShoveBot(random.Random(p)) for p in players}
    clock = FakeClock()
    offers = offers_for(tstore, clock, 3, bots, set())
    for p in players[:3]:
        await offers.play(p, "wild", 50)
    for p in players[3:]:
        await offers.play(p, "wild", 50)  # the next Wild Twister, two of three seats taken
    running = next(t for t, d in offers.directors.items() if d.status in PLAYING)
    waiting = next(t for t, d in offers.directors.items() if d.status is Status.REGISTERING)
    spin = tstore.twister.result(running)
    assert spin is not None and offers.director(running).stats.hands == 0  # the spin is shown, no hand yet
    await offers.close()  # ---- the server stops
    clock2 = FakeClock(wall_start=clock.wall() + 60)
    offers2 = offers_for(tstore, clock2, 4, bots, set())
    assert await offers2.recover() == {"resumed": [running], "cancelled": [waiting]}
    assert all(tstore.ledger.balance(p) == 1_000 for p in players[3:])  # stakes back
    d2 = offers2.director(running)
    for _ in range(1_000):
        if d2.done.is_set():
            break
        await clock2.advance(5)
    assert d2.status is Status.FINISHED
    winner = d2.places()[0]
    tickets = tstore.tournaments.tickets(winner)
    assert [(t.face_value, t.tournament_id) for t in tickets] == [(spin.prize, TICKET_SCOPE)]
    assert all(tstore.ledger.balance(p) == 1_000 - 50 for p in players[:3])  # no cash prize in Wild Twister
    await offers2.close()


async def test_r_twist_11_the_demo_fill_bots_are_named_like_people(tstore: Store) -> None:
    """R-TWIST-11 (the demo's Twister "Play") and issue #14 (bots named like people): the in-process bots that fill a
    Twister a player joins have aliases like a person's (R-ALIAS-5), never PlayerNNNNNNNN or their account name."""
    (human,) = make_bots(tstore, 1, 1_000, "EUR", prefix="twa")
    host = SimHost(FakeClock(), seeded_rng(3), StoreGateway(tstore, inline=True), connected={human})
    offers = TwisterOffers(host, TwisterSettings(), rng=random.Random(3), fill_bots=2)
    await offers.play(human, "twister", 100)
    (tid,) = offers.directors
    assert len(set(offers.director(tid).registered) | set(offers.director(tid).entrants_by_id)) == 3
    aliases = [tstore.accounts.get(pid).alias for pid in offers.bots]
    assert len(aliases) == 4 and len({str(a).lower() for a in aliases}) == 4
    for alias in aliases:
        assert alias is not None and 4 <= len(alias) <= 16 and alias.isalnum()
        assert not alias.startswith(("Player", "twisterbot"))
    await offers.close()
