"""The money-movement history (R-WALLET-1/2, cashier): ``store.movements.for_player`` lists a player's deposits,
withdrawals, buy-ins, top-ups and cash-outs with integer amounts, currency, time and table, newest first, paged.
Runs on SQLite and PostgreSQL (conftest ``store``)."""

from __future__ import annotations

import pytest

from riverboat.store import MONEY_KINDS, InvalidRequest, Movement, Store

from .conftest import FakeClock, make_player


def _session(store: Store, clock: FakeClock, p: int) -> None:
    """deposit 1000 EUR, buy in 400 at T1, top up 100, a hand won +50 (no movement on the wallet), cash out
    550, withdraw 300, 2000 play money, buy in 500 PLAY at P1; one minute between each step."""
    other = make_player(store, "otherguy")
    store.ledger.deposit(other, "EUR", 1_000, "dep-other")
    steps = [
        lambda: store.ledger.deposit(p, "EUR", 1_000, "dep-1"),
        lambda: store.ledger.buy_in(p, "T1", 400, "bi-1"),
        lambda: store.ledger.buy_in(other, "T1", 400, "bi-o"),
        lambda: store.ledger.top_up(p, "T1", 100, "tu-1"),
        lambda: store.ledger.start_hand("T1", "h1", {p: 500, other: 400}),
        lambda: store.ledger.settle_hand("T1", "h1", {p: 50, other: -50}, 0, "", []),
        lambda: store.ledger.cash_out(p, "T1", "co-1"),
        lambda: store.ledger.withdraw(p, "EUR", 300, "wd-1"),
        lambda: store.ledger.deposit(p, "PLAY", 2_000, "dep-play"),
        lambda: store.ledger.buy_in(p, "P1", 500, "bi-play", currency="PLAY"),
    ]
    for step in steps:
        clock.advance(minutes=1)
        step()


def test_r_wallet_movements_newest_first_with_amounts_currency_time_and_table(store: Store,
                                                                             clock: FakeClock) -> None:
    p = make_player(store, "mover")
    _session(store, clock, p)
    page = store.movements.for_player(p)
    got = [(m.kind, m.currency, m.amount, m.table_id) for m in page.items]
    assert got == [
        ("buy_in", "PLAY", -500, "P1"),
        ("deposit", "PLAY", 2_000, None),
        ("withdraw", "EUR", -300, None),
        ("cash_out", "EUR", 550, "T1"),
        ("top_up", "EUR", -100, "T1"),
        ("buy_in", "EUR", -400, "T1"),
        ("deposit", "EUR", 1_000, None),
    ]
    assert page.next_before is None
    assert all(type(m.amount) is int for m in page.items)
    times = [m.at for m in page.items]
    assert times == sorted(times, reverse=True) and all(t.tzinfo is not None for t in times)
    assert times[0] == clock.now  # the last step's time, from the injected clock
    txns = [m.txn_id for m in page.items]
    assert txns == sorted(txns, reverse=True) and len(set(txns)) == len(txns)
    # the movements account for the balances exactly (the hand's +50 came back with the cash-out)
    for cur in ("EUR", "PLAY"):
        assert sum(m.amount for m in page.items if m.currency == cur) == store.ledger.balance(p, cur)
    assert page.items[0].to_dict() == {"txn": txns[0], "kind": "buy_in", "currency": "PLAY", "amount": -500,
                                       "table": "P1", "at": clock.now.isoformat()}
    # the other player's movements are not mixed in
    assert {(m.kind, m.amount) for m in store.movements.for_player(make_player(store, "nobody")).items} == set()


def test_movements_pages_by_transaction_id_without_gaps_or_repeats(store: Store, clock: FakeClock) -> None:
    p = make_player(store, "pager")
    _session(store, clock, p)
    everything = store.movements.for_player(p).items
    seen: list[Movement] = []
    before = None
    pages = 0
    while True:
        page = store.movements.for_player(p, limit=3, before=before)
        assert len(page.items) <= 3
        seen.extend(page.items)
        pages += 1
        if page.next_before is None:
            break
        before = page.next_before
    assert seen == everything and pages == 3
    # a movement made while paging back does not shift the older pages
    first = store.movements.for_player(p, limit=3)
    store.ledger.deposit(p, "EUR", 5, "late")
    again = store.movements.for_player(p, limit=3, before=first.next_before)
    assert again.items == everything[3:6]


def test_movement_filters_kinds_and_currency(store: Store, clock: FakeClock) -> None:
    p = make_player(store, "filter")
    _session(store, clock, p)
    eur = store.movements.for_player(p, currency="EUR").items
    assert {m.currency for m in eur} == {"EUR"} and len(eur) == 5
    tables = store.movements.for_player(p, kinds=("buy_in", "top_up", "cash_out")).items
    assert [m.kind for m in tables] == ["buy_in", "cash_out", "top_up", "buy_in"]
    # issue #30 adds the withdrawal request and its return (rejected or cancelled) and operator adjustments
    assert set(MONEY_KINDS) == {"deposit", "withdraw", "withdraw_request", "withdraw_return", "adjust", "buy_in",
                                "top_up", "cash_out"}


def test_r_fee_tournament_entries_are_listed_only_when_every_kind_is_asked_for(store: Store) -> None:
    p = make_player(store, "tourist")
    store.ledger.deposit(p, "EUR", 5_000, "dep")
    store.tournaments.create("sng1", "EUR", 1_000, 100)
    store.tournaments.register(p, "sng1", "reg")
    assert [m.kind for m in store.movements.for_player(p).items] == ["deposit"]
    every = store.movements.for_player(p, kinds=None).items
    assert [m.kind for m in every][1:] == ["deposit"]
    assert every[0].amount == -1_100 and every[0].currency == "EUR"  # buy-in + fee out of the wallet (R-FEE-1)


@pytest.mark.parametrize("kwargs", [{"limit": 0}, {"limit": 501}, {"limit": "5"}, {"limit": True},
                                    {"before": 0}, {"before": "x"}, {"kinds": []}, {"kinds": [1]},
                                    {"currency": 5}])
def test_bad_movement_queries_are_refused_clearly(store: Store, kwargs: dict[str, object]) -> None:
    p = make_player(store, "badargs")
    with pytest.raises(InvalidRequest):
        store.movements.for_player(p, **kwargs)  # type: ignore[arg-type]
