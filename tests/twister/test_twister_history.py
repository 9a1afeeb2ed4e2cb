"""The account's tournament history after real games (issue #11 item 8, issue #12 item 6, R-TWIST-11): the same
three players play a knockout Sit & Go, a satellite, a Twister, an Age of the Gods Twister with every jackpot
trigger forced, a Wild Twister, and a Twister bought with the Wild ticket, through the real director, tables and
store (SQLite and PostgreSQL). Every row of ``store.tournament_play.history`` is checked against what the games
did and against the money: each player's balance is the deposit less what the rows say they paid, plus what the
rows say they won in cash, bounties and jackpots; tickets won are listed with their face value (a Wild Twister
prize is a ticket, not a prize of 0); the Twister page's history is the same rows for the Twister family."""

from __future__ import annotations

from typing import Any

from riverboat.room.tournament.director import Director
from riverboat.room.tournament.simulate import default_spec, make_bots, run
from riverboat.store import Store
from riverboat.store.tournament_history import HistoryRow
from riverboat.twister import TwisterSettings

from .test_twister_room import finish, open_game

DEPOSIT = 50_000


def rows_by_id(store: Store, pid: int) -> dict[str, HistoryRow]:
    return {r.tournament_id: r for r in store.tournament_play.history(pid)}


def places(d: Director) -> dict[int, tuple[int, int, int]]:
    return {p: (r.place, r.place_to, r.prize) for p, r in d.results.items()}


async def test_r_twist_11_history_lists_every_kind_with_the_money_it_moved(tstore: Store) -> None:
    """R-TWIST-11, R-TOURN-KO-1, R-TOURN-SAT-1, R-TOURN-GEN-2/5, R-AOG-3, R-WALLET-9, R-WILD-1: one history row per
    tournament, newest first, with kind, buy-in + fee or the ticket used, place, field, cash prize, bounties,
    tickets won (satellite seat, Wild ticket of its value) and jackpots apart; the rows account for every unit of
    each player's balance."""
    players = make_bots(tstore, 3, DEPOSIT, "EUR", prefix="hist-")
    got: list[Director] = []
    ko = default_spec("sng", 3, 3, "holdem", "NL", knockout={"bounty": 250}, name="KO three")
    await run(ko, 3, store=tstore, seed=4, capture=got, players=players, tournament_id="sng-ko")
    sat = default_spec("sng", 3, 3, "holdem", "NL", satellite={"target": "main-event", "seat_value": 2_500},
                       name="Satellite three")
    await run(sat, 3, store=tstore, seed=5, capture=got, players=players, tournament_id="sat-3")
    twister = await open_game(tstore, "twister", 100, tid="twister:h1", seed=3, players=players)
    await finish(twister)
    settings = TwisterSettings(jackpot_trigger_ppm_per_100=1_000_000)
    aog = await open_game(tstore, "aog", 500, tid="twister:h2", seed=7, settings=settings, players=players)
    await finish(aog)
    wild = await open_game(tstore, "wild", 50, tid="wild:h3", seed=9, players=players)
    await finish(wild)
    wild_winner = wild.director.places()[0]
    (ticket,) = [t for t in tstore.tournaments.tickets(wild_winner) if t.tournament_id == "twister:*"]
    value = ticket.face_value
    nxt = await open_game(tstore, "twister", value, tid="twister:h4", seed=10, players=players,
                          ticket_ids={wild_winner: ticket.id})
    await finish(nxt)
    order = ["twister:h4", "wild:h3", "twister:h2", "twister:h1", "sat-3", "sng-ko"]
    jackpots: dict[int, int] = {p: 0 for p in players}
    for _, p, frame in aog.host.events("jackpot"):
        if p == frame["data"]["player"]:
            jackpots[p] += frame["data"]["amount"]
    assert sum(jackpots.values()) > 0
    for p in players:
        hist = tstore.tournament_play.history(p)
        assert [r.tournament_id for r in hist] == order  # newest first, every kind
        rows = {r.tournament_id: r for r in hist}
        assert [rows[t].kind for t in order] == ["twister", "wild", "aog", "twister", "sng", "sng"]
        assert all(r.field == 3 and r.status == "finished" and r.date is not None for r in hist)
        # places and prizes as the director paid them; a ticket counts at its face value
        for d, tid in ((got[0], "sng-ko"), (got[1], "sat-3"), (twister.director, "twister:h1"),
                       (aog.director, "twister:h2"), (wild.director, "wild:h3"), (nxt.director, "twister:h4")):
            place, place_to, prize = places(d)[p]
            r = rows[tid]
            assert (r.place, r.place_to) == (place, place_to), tid
            assert r.prize + sum(t.value for t in r.tickets_won) == prize, tid
        # the knockout: buy-in + fee paid, bounties won; the satellite: the seat is a ticket to the target
        assert (rows["sng-ko"].buy_in, rows["sng-ko"].fee, rows["sng-ko"].features) == (1000, 100, ("knockout",))
        sat_row = rows["sat-3"]
        assert [(t.value, t.valid_for) for t in sat_row.tickets_won] == (
            [(2_500, "main-event")] if sat_row.place == 1 else [])
        # Twister family: the drawn multiplier and prize; the Wild prize is a ticket of its value
        spin = twister.host.events("twister_spin")[0][2]["data"]
        assert (rows["twister:h1"].multiplier, rows["twister:h1"].prize_pool) == (spin["multiplier"], spin["prize"])
        w = rows["wild:h3"]
        if p == wild_winner:
            assert w.prize == 0 and [(t.value, t.valid_for) for t in w.tickets_won] == [(value, "twister:*")]
            assert rows["twister:h4"].ticket_used == value and rows["twister:h4"].paid_buy_in == 0
        else:
            assert w.tickets_won == () and rows["twister:h4"].ticket_used is None
            assert rows["twister:h4"].paid_buy_in == value
        assert sum(j.amount for j in rows["twister:h2"].jackpots) == jackpots[p]  # apart from the prize
        assert all(r.jackpots == () for t, r in rows.items() if t != "twister:h2")
        # the money: the rows account for the whole balance (tickets never became cash)
        paid = sum(r.paid_buy_in + r.paid_fee for r in hist)
        won = sum(r.prize + r.bounties_won + sum(j.amount for j in r.jackpots) for r in hist)
        assert tstore.ledger.balance(p, "EUR") == DEPOSIT - paid + won
        # the Twister page's history is the same rows, the Twister family only
        assert tstore.twister.history(p) == [r for r in hist if r.kind in ("twister", "aog", "wild")]
    final = {p: rows_by_id(tstore, p) for p in players}
    assert sum(final[p]["sng-ko"].bounties_won for p in players) == 3 * 250  # every bounty paid to someone
    assert sum(final[p]["sat-3"].prize for p in players) == 3 * 1000 - 2_500  # the pool's remainder, in cash


def test_r_twist_11_history_row_as_json() -> None:
    """R-TWIST-11: the wire form of a row (GET /api/tournaments/history, docs/protocol.md): integers in minor units,
    the date of play, tickets and jackpots as lists."""
    from datetime import UTC, datetime

    from riverboat.store.tournament_history import JackpotWon, TicketWon

    at = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)
    row = HistoryRow("wild:1", "Wild Twister 0.50", "wild", "finished", "won", 1, 1, 0, 0, 50, 0, "EUR", at, at,
                     field=3, paid_buy_in=50, tickets_won=(TicketWon(7, 500, "twister:*"),),
                     jackpots=(JackpotWon("power", 12),), multiplier=10, prize_pool=500)
    d: dict[str, Any] = row.to_dict()
    assert d["tickets_won"] == [{"ticket": 7, "value": 500, "valid_for": "twister:*"}]
    assert d["jackpots"] == [{"tier": "power", "amount": 12}]
    assert (d["date"], d["field"], d["ticket_used"], d["prize"]) == (at.isoformat(), 3, None, 0)


async def test_r_tourn_rebuy_3_history_counts_rebuys_and_addons_in_what_was_paid(tstore: Store) -> None:
    """R-TOURN-REBUY-1..3, R-FEE-1 (issue #11 item 8): a re-buy Sit & Go played by bots: each row counts the
    player's re-buys and add-ons as the director did, what they paid in cash is the entry plus every re-buy and
    add-on, and the balance is the deposit less that plus the prize."""
    players = make_bots(tstore, 3, DEPOSIT, "EUR", prefix="rebuy-")
    got: list[Director] = []
    spec = default_spec("sng", 3, 3, "holdem", "NL", rebuys=True, name="Re-buy three")
    counts: dict[int, tuple[int, int]] = {}

    def on_hand(d: Director, table: Any, driver: Any) -> None:  # the director's own counts, hand by hand
        for e in d.entrants_by_id.values():
            counts[e.player_id] = (e.rebuys, e.addons)

    await run(spec, 3, store=tstore, seed=6, capture=got, players=players, tournament_id="sng-rebuy",
              on_hand=on_hand)
    assert spec.rebuy is not None and got[0].done.is_set()
    bought = 0
    for p in players:
        (row,) = tstore.tournament_play.history(p)
        rebuys, addons = counts[p]
        assert (row.rebuys, row.addons, row.features) == (rebuys, addons, ("rebuy",))
        price = spec.rebuy.price + spec.rebuy.fee
        addon = spec.rebuy.addon_price + spec.rebuy.addon_fee
        assert row.paid_buy_in + row.paid_fee == 1100 + rebuys * price + addons * addon
        assert tstore.ledger.balance(p, "EUR") == DEPOSIT - row.paid_buy_in - row.paid_fee + row.prize
        bought += rebuys + addons
    assert bought > 0  # the bots did re-buy or add on: the counts are not all zero
