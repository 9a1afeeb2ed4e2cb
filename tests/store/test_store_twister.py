"""Twister money and audit in the store (R-TWIST, R-AOG, R-WILD, R-WALLET-9, R-TOURN-GEN-2), on SQLite and
PostgreSQL: the spin balances the pool to the drawn prize, AoG stakes feed the four jackpot tiers and jackpot wins
are credited apart, Wild Twister prizes are non-cashable tickets from a persisted deck, and every draw is stored
with its random value."""

from __future__ import annotations

import random

import pytest

from riverboat.store import AccountKey, IdempotencyConflict, InvalidRequest, LedgerCorrupt, Store
from riverboat.store.models import TwisterDeck, TwisterDraw
from riverboat.store.twister import jackpot_key
from riverboat.twister import TIERS, TwisterSettings, table_for
from riverboat.twister.jackpot import tier_totals

from .conftest import make_player


class Bits:
    """A random source that returns chosen values (then falls back to a seeded generator)."""

    def __init__(self, *values: int, seed: int = 0) -> None:
        self.values = list(values)
        self.rest = random.Random(seed)

    def getrandbits(self, k: int) -> int:
        return self.values.pop(0) if self.values else self.rest.getrandbits(k)


def _players(store: Store, prefix: str, n: int = 3, money: int = 100_000) -> list[int]:
    out = []
    for i in range(n):
        p = make_player(store, f"{prefix}{i}")
        store.ledger.deposit(p, "EUR", money, f"dep-{prefix}{i}")
        out.append(p)
    return out


def _game(store: Store, tid: str, kind: str, buy_in: int, players: list[int], **kw: object) -> None:
    store.twister.create(tid, kind, buy_in, **kw)  # type: ignore[arg-type]
    for p in players:
        store.tournaments.register(p, tid, f"reg-{tid}-{p}")
    store.tournaments.start(tid)


def test_r_twist_3_spin_sets_the_pool_to_multiplier_times_buy_in_and_the_house_keeps_the_rest(store: Store) -> None:
    """R-TWIST-3/4, R-TWIST-8: three EUR 1 stakes, a 2x spin: the pool holds EUR 2, the house's Twister account
    EUR 1; the spin is stored with its random value and a second spin changes nothing."""
    ps = _players(store, "tw")
    _game(store, "twister:a", "twister", 100, ps)
    low = table_for("twister", 100)
    u = low.total_weight - 1  # the last value: the 2x row
    res = store.twister.spin("twister:a", rng=Bits(u))
    assert (res.multiplier, res.prize, res.places, res.random_value) == (2, 200, (200,), u)
    assert store.tournaments.prize_pool("twister:a") == 200
    assert store.ledger.account_balance(AccountKey.twister_house("EUR")) == 100
    again = store.twister.spin("twister:a", rng=Bits(0))  # would be the 1000x: but the spin is final
    assert again == res and len(store.twister.draws(tournament_id="twister:a")) == 1
    store.twister.pay_place("twister:a", 1, ps[1])
    assert store.ledger.balance(ps[1]) == 100_000 - 100 + 200
    assert store.tournaments.prize_pool("twister:a") == 0
    assert store.ledger.total("EUR") == 0


def test_r_twist_5_top_prize_is_room_money_split_80_10_10(store: Store) -> None:
    """R-TWIST-5 / R-TWIST-10 / R-TOURN-GEN-1: the 1000x prize at EUR 1 (EUR 1000) is paid 80/10/10; the
    997 buy-ins above the stakes come from the room (external); each place is paid once."""
    ps = _players(store, "big")
    _game(store, "twister:b", "twister", 100, ps)
    res = store.twister.spin("twister:b", rng=Bits(0))
    assert (res.multiplier, res.prize, res.places) == (1000, 100_000, (80_000, 10_000, 10_000))
    assert store.ledger.account_balance(AccountKey.external("EUR")) == -300_000 - 99_700
    for place, p in ((3, ps[0]), (2, ps[2]), (1, ps[1])):
        store.twister.pay_place("twister:b", place, p)
    assert [store.ledger.balance(p) for p in ps] == [109_900, 179_900, 109_900]
    store.twister.pay_place("twister:b", 1, ps[1])  # repeat: the same result, nothing moves
    with pytest.raises(IdempotencyConflict):
        store.twister.pay_place("twister:b", 1, ps[0])
    assert store.tournaments.prize_pool("twister:b") == 0 and store.ledger.total("EUR") == 0


def test_spin_refused_before_start_without_three_players_and_for_unpublished_buy_ins(store: Store) -> None:
    """R-TWIST-3: the spin comes once three are seated and the tournament has started; R-TWIST-7: only published
    buy-ins; R-WILD-5: only the types the room offers; ids name their family."""
    ps = _players(store, "early")
    store.twister.create("twister:c", "twister", 100)
    for p in ps[:2]:
        store.tournaments.register(p, "twister:c", f"r{p}")
    with pytest.raises(InvalidRequest, match="after the start"):
        store.twister.spin("twister:c")
    store.tournaments.start("twister:c")
    with pytest.raises(InvalidRequest, match="3 players"):
        store.twister.spin("twister:c")
    with pytest.raises(InvalidRequest, match="published buy-ins"):
        store.twister.create("twister:d", "twister", 300)
    with pytest.raises(InvalidRequest, match="does not offer"):
        store.twister.create("twister:e", "aog", 100, settings=TwisterSettings(enabled_kinds=("twister", "wild")))
    with pytest.raises(InvalidRequest, match="starts with 'wild:'"):
        store.twister.create("twister:f", "wild", 50)
    assert store.twister.draws() == []


def test_r_wild_1_prize_is_a_non_cashable_ticket_that_buys_into_the_next_twister(store: Store) -> None:
    """R-WILD-1 / R-TOURN-GEN-2 / R-WALLET-6: a Wild Twister win is a Twister ticket of multiplier x EUR 0.50; it
    pays the buy-in of a Twister (or AoG) of that value, not of any other tournament, and never becomes cash."""
    ps = _players(store, "wild")
    _game(store, "wild:1", "wild", 50, ps)
    res = store.twister.spin("wild:1", rng=random.Random(4))
    assert res.kind == "wild" and res.places == (res.multiplier * 50,)
    ticket = store.twister.pay_place("wild:1", 1, ps[0])
    [info] = store.tournaments.tickets(ps[0])
    assert (info.id, info.face_value, info.tournament_id) == (ticket, res.multiplier * 50, "twister:*")
    assert store.ledger.account_balance(AccountKey.ticket(ps[0], "EUR")) == res.multiplier * 50
    store.tournaments.create("mtt", "EUR", res.multiplier * 50 - 10, 10)
    with pytest.raises(InvalidRequest, match="only valid"):
        store.tournaments.register(ps[0], "mtt", "r-mtt", ticket_id=ticket)
    kind = "twister" if res.multiplier * 50 in table_for("twister", 100).buy_ins + (5000,) else "aog"
    store.twister.create("twister:next", kind, res.multiplier * 50)
    store.tournaments.register(ps[0], "twister:next", "r-next", ticket_id=ticket)
    assert store.tournaments.tickets(ps[0]) == [] and store.ledger.balance(ps[0]) == 100_000 - 50
    assert store.tournaments.prize_pool("twister:next") == res.multiplier * 50


def test_r_wild_4_deck_position_survives_a_restart_and_the_cycle_ends_exactly(store: Store) -> None:
    """R-WILD-4: the deck's position is in the store: a new Store on the same database continues the cycle; a
    cycle with three cards left pays exactly those three and the next game opens cycle 2 at full count."""
    url = store.url
    ps = _players(store, "deck", money=10_000)
    for i in range(3):
        _game(store, f"wild:g{i}", "wild", 50, ps)
        store.twister.spin(f"wild:g{i}", rng=random.Random(i))
    state = store.twister.deck(50)
    assert (state.cycle, state.position, sum(state.remaining)) == (1, 3, 249_997)
    with store.session() as s:  # fast-forward: leave one 100x, one 40x and one 2x card in cycle 1
        row = s.query(TwisterDeck).one()
        row.position, row.remaining = 249_997, [1, 1, 0, 0, 0, 1]
    reopened = Store(url)
    try:
        got = []
        for i in range(3, 7):
            _game(reopened, f"wild:g{i}", "wild", 50, ps)
            got.append(reopened.twister.spin(f"wild:g{i}", rng=random.Random(i)).multiplier)
        assert sorted(got[:3]) == [2, 40, 100]
        state = reopened.twister.deck(50)
        assert state.cycle == 2 and state.position == 1 and sum(state.remaining) == 249_999
        cycles = [(d.deck_cycle, d.deck_position) for d in reopened.twister.draws(kind="wild")]
        assert cycles == [(1, 0), (1, 1), (1, 2), (1, 249_997), (1, 249_998), (1, 249_999), (2, 0)]
    finally:
        reopened.dispose()


def test_r_aog_5_jackpot_conservation_with_forced_triggers(store: Store) -> None:
    """R-AOG-3..6 / R-WALLET-9: 0.99% of every stake reaches the tiers exactly as the integer formula says; forced
    jackpot wins pay the whole tier to the winner's balance, recorded apart from the tournament prize; the tiers
    plus the wins equal the contributions; the ledger sums to zero."""
    ps = _players(store, "aog", money=1_000_000)
    quiet = TwisterSettings()
    always = TwisterSettings(jackpot_trigger_ppm_per_100=1_000_000)
    stakes = 0
    for i, b in enumerate([1000, 500, 1000, 100, 1000, 500, 1000, 1000]):
        _game(store, f"twister:aog{i}", "aog", b, ps)
        res = store.twister.spin(f"twister:aog{i}", settings=always if i in (4, 7) else quiet, rng=random.Random(i))
        stakes += 3 * b
        if i in (4, 7):
            assert len(res.jackpot_wins) == 3 and {w.player_id for w in res.jackpot_wins} == set(ps)
        for place, p in enumerate(ps[:len(res.places)], start=1):
            store.twister.pay_place(f"twister:aog{i}", place, p)
    total, received = store.twister.jackpot_progress()
    assert total == stakes and received == tier_totals(stakes, quiet)
    wins = [d for d in store.twister.draws(kind="jackpot") if d.tier is not None]
    assert len(wins) == 6
    paid = sum(d.amount or 0 for d in wins)
    assert sum(store.twister.jackpots().values()) + paid == sum(received)
    assert store.ledger.total("EUR") == 0
    for p in ps:  # credited apart: a jackpot_out movement of its own for every non-zero win
        kinds = [m.kind for m in store.movements.for_player(p, kinds=None, limit=500).items]
        assert kinds.count("jackpot_out") == sum(1 for d in wins if d.player_id == p and d.amount)
    for tier in TIERS:
        assert store.ledger.account_balance(jackpot_key(tier, "EUR")) == store.twister.jackpots()[tier]


def test_audit_reproduces_every_stored_draw_and_catches_a_tampered_one(store: Store) -> None:
    """Issue item 5: the operator re-derives each stored multiplier from its random value and the table; the
    per-table counts come from the database; a multiplier changed behind the store's back is caught."""
    ps = _players(store, "aud")
    for i in range(4):
        _game(store, f"twister:au{i}", "twister", 100, ps)
        store.twister.spin(f"twister:au{i}", rng=random.Random(i))
    report = store.twister.audit()
    assert report["twister-1-20"]["draws"] == 4 and sum(report["twister-1-20"]["counts"].values()) == 4
    with store.session() as s:
        d = s.query(TwisterDraw).filter_by(tournament_id="twister:au0", seq=0).one()
        d.multiplier = 1000 if d.multiplier != 1000 else 2
    with pytest.raises(LedgerCorrupt, match="twister:au0"):
        store.twister.audit()


def test_concurrent_spins_draw_once_and_keep_the_jackpot_exact(store: Store) -> None:
    """Impossible to lose money under concurrency: 8 threads spin the same AoG tournament at once -> one draw, one
    result; 6 different AoG tournaments spun at once -> the shared jackpot progress counts every stake exactly
    once (row lock on PostgreSQL, BEGIN IMMEDIATE on SQLite)."""
    from .test_store_concurrency import _hammer

    ps = _players(store, "conc", money=1_000_000)
    for i in range(7):
        _game(store, f"twister:conc{i}", "aog", 500, ps)
    results, errors = _hammer(8, lambda _i: store.twister.spin("twister:conc0"))
    assert errors == [] and len({(r.multiplier, r.random_value) for r in results}) == 1  # type: ignore[attr-defined]
    assert len(store.twister.draws(tournament_id="twister:conc0")) == 4  # the spin + 3 jackpot triggers
    results, errors = _hammer(6, lambda i: store.twister.spin(f"twister:conc{i + 1}"))
    assert errors == [] and len(results) == 6
    total, received = store.twister.jackpot_progress()
    assert total == 7 * 3 * 500 and received == tier_totals(total, TwisterSettings())
    assert store.ledger.total("EUR") == 0
