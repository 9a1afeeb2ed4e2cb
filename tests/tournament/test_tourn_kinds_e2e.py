"""Every kind of tournament of issue #11 item 5, played to the winner by bots through the real director and store,
each on SQLite AND PostgreSQL (the ``tstore`` fixture; small fields to keep CI time low): freeroll with re-buys and
an add-on, satellite tickets, knockout, progressive knockout, named bounties, private, re-buy/add-on periods
(guaranteed and non-guaranteed MTTs: test_tourn_director_e2e.py, on both too)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from riverboat.room.errors import RoomError
from riverboat.room.hand_driver import HandDriver
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.simulate import default_spec, make_bots, play, run
from riverboat.room.tournament.tables import TourneyTable
from riverboat.store import AccountKey, Store
from riverboat.store.models import LedgerTxn, Ticket

from .test_tourn_director_e2e import director_for, sound


def n_txn(store: Store, kind: str) -> int:
    return int(store._db.read(lambda s: s.scalar(select(func.count()).select_from(LedgerTxn)
                                                 .where(LedgerTxn.kind == kind))))


def fees(store: Store) -> int:
    return store.ledger.account_balance(AccountKey.fees("EUR"))


async def test_r_tourn_free_1_2_freeroll_with_rebuys_and_addon_in_their_periods(tstore: Store) -> None:
    """R-TOURN-FREE-1/2, R-TOURN-REBUY-1..3, R-FEE-2: a freeroll (no buy-in, no fee) whose pool is 5,000 of room
    money plus its re-buys (500 for 1,500 chips while the level is below 2) and add-ons (500 for 1,500 chips, in
    level 3 only); every re-buy happened in the period, every add-on in its level; the pool paid out in full; the
    house took no fee; chips conserved with the re-buy and add-on chips counted."""
    spec = default_spec("mtt", 27, 9, "holdem", "NL", buy_in=0, fee=0, added_prize=5_000,
                        rebuy={"period_levels": 2, "price": 500, "chips": 1500, "addon_price": 500,
                               "addon_chips": 1500})
    seen: list[tuple[str, int]] = []
    counts: dict[int, tuple[int, int]] = {}

    def on_hand(d: Director, table: TourneyTable, driver: HandDriver) -> None:
        level = d.level_index()
        for e in d.entrants_by_id.values():
            before = counts.get(e.player_id, (0, 0))
            if e.rebuys > before[0]:
                seen.append(("rebuy", level))
            if e.addons > before[1]:
                seen.append(("addon", level))
            counts[e.player_id] = (e.rebuys, e.addons)
        assert d.total_chips() == d.chips_issued

    got: list[Director] = []
    rep = await run(spec, 27, store=tstore, seed=6, capture=got, on_hand=on_hand)
    sound(rep, 27)
    rebuys, addons = n_txn(tstore, "t_rebuy"), n_txn(tstore, "t_addon")
    assert rebuys > 0 and addons > 0
    assert all(level < 2 for what, level in seen if what == "rebuy")
    assert all(level == 2 for what, level in seen if what == "addon")
    assert rep.prize_pool == 5_000 + 500 * (rebuys + addons)
    assert fees(tstore) == 0
    assert got[0].chips_issued == 1500 * (27 + rebuys + addons)


async def test_r_tourn_sat_1_gen_2_satellite_pays_tickets_and_the_remainder(tstore: Store) -> None:
    """R-TOURN-SAT-1 / R-TOURN-GEN-2: 20 x (1000+100) satellite to a 5000+500 target: pool 20,000 = 3 seats of
    5,500 (tickets, non-cashable, issued at elimination) and 3,500 cash to 4th; a ticket then enters the target
    (its buy-in and fee paid by the ticket, not the balance)."""
    spec = default_spec("mtt", 20, 10, "holdem", "NL", satellite={"target": "main-event", "seat_value": 5_500},
                        payout="mtt")
    got: list[Director] = []
    rep = await run(spec, 20, store=tstore, seed=3, capture=got)
    sound(rep, 20)
    d = got[0]
    winners = rep.places[:3]
    assert [d.results[p].prize for p in rep.places[:5]] == [5_500, 5_500, 5_500, 3_500, 0]
    tickets = tstore._db.read(lambda s: list(s.scalars(select(Ticket).where(Ticket.tournament_id ==
                                                                                   "main-event"))))
    assert sorted(t.player_id for t in tickets) == sorted(winners)
    assert all(t.face_value == 5_500 and t.status == "issued" for t in tickets)
    assert n_txn(tstore, "t_prize") == 1  # only 4th place is paid in cash
    tstore.tournaments.create("main-event", "EUR", 5_000, 500)
    before = tstore.ledger.balance(winners[0])
    tstore.tournaments.register(winners[0], "main-event", "enter-main", ticket_id=next(
        t.id for t in tickets if t.player_id == winners[0]))
    assert tstore.ledger.balance(winners[0]) == before
    assert tstore.tournaments.prize_pool("main-event") == 5_000


async def test_r_tourn_ko_1_knockout_pays_each_bounty_to_the_eliminator(tstore: Store) -> None:
    """R-TOURN-KO-1: 18 x (1000+100) with a 250 bounty: 750 per entry to the place prizes, 250 to the bounty pool;
    every elimination pays the eliminator(s) the whole 250, the winner gets their own; nothing left."""
    spec = default_spec("mtt", 18, 9, "holdem", "NL", knockout={"bounty": 250})
    got: list[Director] = []
    rep = await run(spec, 18, store=tstore, seed=4, capture=got)
    sound(rep, 18)
    assert rep.prize_pool == 18 * 750 and rep.bounties_paid == 18 * 250
    assert tstore.tournaments.bounty_pool(got[0].id) == 0
    assert n_txn(tstore, "t_bounty") >= 18


async def test_r_tourn_pko_3_progressive_knockout_half_cash_half_on_the_head(tstore: Store) -> None:
    """R-TOURN-PKO-1..3 (reading, 50% default): each elimination pays half of the eliminated player's bounty in
    cash and adds the other half to the eliminator's own bounty, so bounties grow; the winner receives their own
    bounty; the bounty pool is paid out to the last cent."""
    spec = default_spec("mtt", 18, 9, "holdem", "NL", knockout={"bounty": 250, "progressive": True})
    assert spec.knockout is not None and spec.knockout.share_ppb == 500_000_000
    biggest = 0

    def on_hand(d: Director, table: TourneyTable, driver: HandDriver) -> None:
        nonlocal biggest
        biggest = max([biggest, *(e.bounty for e in d.entrants_by_id.values())])

    got: list[Director] = []
    rep = await run(spec, 18, store=tstore, seed=4, capture=got, on_hand=on_hand)
    sound(rep, 18)
    assert biggest > 250  # bounties grew
    assert rep.bounties_paid == 18 * 250 and tstore.tournaments.bounty_pool(got[0].id) == 0
    winner = rep.places[0]
    snap = {e.player_id: e for e in tstore.tournament_play.snapshot(got[0].id).entries}
    assert snap[winner].bounties_won >= 250


async def test_r_tourn_bounty_1_named_bounties_set_aside_from_the_pool(tstore: Store) -> None:
    """R-TOURN-BOUNTY-1: 500 on each of two named players is set aside from the 9,000 pool; whoever eliminates a
    named player collects it (the winner collects any left); the place prizes share the other 8,000."""
    got: list[Director] = []
    spec = default_spec("sng", 9, 9, "holdem", "NL")
    rep = await run(spec, 9, store=tstore, seed=12, capture=got, named=2)
    sound(rep, 9)
    d = got[0]
    named = [p for p, _ in d.spec.named_bounties]
    places = {p: d.results[p].place for p in named}
    assert d.place_awards()[0].cash == 4_000 and sum(a.cash for a in d.place_awards()) == 8_000
    assert rep.paid_total == 9_000 and not d.named_left
    assert len(places) == 2


async def test_r_tourn_priv_1_private_needs_promo_code_and_password(tstore: Store) -> None:
    """R-TOURN-PRIV-1: a private Sit & Go refuses an entry without the promo code and the password (nothing is
    charged) and accepts one with both."""
    players = make_bots(tstore, 3, 10_000, "EUR", prefix="priv")
    spec = default_spec("sng", 3, 3, "holdem", "NL", private={"promo_code": "FRIENDS", "password": "s3cret"})
    bots = {p: ShoveBot(random.Random(p)) for p in players}
    d, clock, _ = director_for(tstore, spec, "priv1", bots=bots)
    await d.open()
    for bad in ({}, {"promo_code": "FRIENDS"}, {"promo_code": "FRIENDS", "password": "nope"},
                {"password": "s3cret"}):
        with pytest.raises(RoomError) as err:
            await d.register(players[0], **bad)
        assert err.value.code == "bad_password"
    assert tstore.ledger.balance(players[0]) == 10_000 and not d.registered
    for p in players:
        await d.register(p, promo_code="FRIENDS", password="s3cret")
    await play(d, clock)
    assert sorted(d.places()) == sorted(players)
    await d.close()


async def test_r_tourn_rebuy_3_rebuy_refused_outside_its_period(tstore: Store) -> None:
    """R-TOURN-REBUY-3: a re-buy is refused for a stack above the limit, and after the period; an add-on is
    refused before its level (nothing charged)."""
    players = make_bots(tstore, 2, 10_000, "EUR", prefix="rbuy")
    spec = default_spec("sng", 2, 2, "holdem", "NL",
                        rebuy={"period_levels": 1, "price": 1000, "chips": 1500, "max_stack": 1000,
                               "addon_price": 1000, "addon_chips": 1500})
    d, clock, _ = director_for(tstore, spec, "rbuy1", notify_players=False)
    await d.open()
    for p in players:
        await d.register(p)
    before = tstore.ledger.balance(players[0])
    for what in (d.rebuy, d.addon):
        with pytest.raises(RoomError) as err:
            await what(players[0])  # 1,500 chips > the 1,000 limit; the add-on comes in level 2
        assert err.value.code == "rebuy_closed"
    assert tstore.ledger.balance(players[0]) == before
    await d.close()
