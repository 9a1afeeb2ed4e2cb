"""Issue #31 ("What to add": hand history search and filters, paging beyond the last 50): the search is a store
query -- game, stakes, date, result, cash/tournament and one tournament filtered in SQL over every hand the player
was dealt, not a recent window -- on SQLite and PostgreSQL (the ``store`` fixture runs both)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import text
from tests.store_fixtures import FAST_HASHER

from riverboat.store import InvalidRequest, Store
from riverboat.store.hands import HandFilter

from .conftest import FakeClock, make_player

NT = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [{sb}, {bb}]\nmin_bet = {bb}\n' \
     'starting_stacks = [1500, 1500]\nactions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]\n'
STUD = 'variant = "F7S"\nantes = [10, 10]\nbring_in = 25\nsmall_bet = 100\nbig_bet = 200\n' \
       'starting_stacks = [1500, 1500]\nactions = ["d dh p1 AcAd2c", "d dh p2 KcKd3c", "p2 pb", "p1 f"]\n'
SOKO = 'variant = "RB/soko/FL"\nantes = [0, 0]\nblinds_or_straddles = [25, 50]\nsmall_bet = 50\nbig_bet = 100\n' \
       'starting_stacks = [1500, 1500]\nactions = []\n'


def _fill(store: Store, clock: FakeClock) -> tuple[int, int]:
    """260 hands over 13 days: ann wins the even ones at 10/20 and loses
    the odd ones at 50/100; then 3 even tournament hands (two tournaments), a stud and a Soko hand."""
    ann, bob = make_player(store, "ann_search"), make_player(store, "bob_search")
    players = {ann: 1500, bob: 1500}
    for i in range(260):
        if i % 20 == 0:
            clock.advance(days=1)
        sb, bb = (10, 20) if i % 2 == 0 else (50, 100)
        won = 20 if i % 2 == 0 else -50
        store.hands.record("t1-riga", f"h{i}", players, NT.format(sb=sb, bb=bb), [], {ann: won, bob: -won})
    clock.advance(days=1)
    for i, tid in enumerate(("sng7/t1", "sng7/t1", "sng70/t2")):
        store.hands.record(tid, f"s{i}", players, NT.format(sb=10, bb=20), [], {ann: 0, bob: 0})
    store.hands.record("t2-kaunas", "stud1", players, STUD, [], {ann: 25, bob: -25})
    store.hands.record("t3-soko", "soko1", players, SOKO, [], {ann: -5, bob: 5})
    return ann, bob


def test_issue_31_search_filters_every_hand_in_sql(store: Store, clock: FakeClock) -> None:
    ann, _bob = _fill(store, clock)
    search = store.hands.search
    total, page = search(ann, HandFilter(), offset=0, limit=50)
    assert total == 265 and len(page) == 50
    assert [r.hand_id for r in page[:3]] == ["soko1", "stud1", "s2"]  # newest first
    total, last = search(ann, HandFilter(), offset=260, limit=50)
    assert total == 265 and [r.hand_id for r in last] == ["h4", "h3", "h2", "h1", "h0"]  # far beyond 50
    assert search(ann, HandFilter(), offset=265, limit=50) == (265, [])
    assert search(ann, HandFilter(result="won"))[0] == 131  # 130 cash wins and the stud hand
    assert search(ann, HandFilter(result="lost", stakes=100))[0] == 130
    assert search(ann, HandFilter(result="lost"))[0] == 131  # and the Soko hand
    assert search(ann, HandFilter(result="even"))[0] == 3
    assert search(ann, HandFilter(kind="tournament"))[0] == 3
    assert search(ann, HandFilter(tournament="sng7"))[0] == 2  # not sng70's
    assert search(ann, HandFilter(kind="cash", game="stud", stakes=100))[0] == 1  # stud's stakes: the small bet
    assert search(ann, HandFilter(game="soko", stakes=50))[0] == 1  # an RB/ code: the room's game id
    assert search(ann, HandFilter(game="holdem", stakes=20, kind="cash"))[0] == 130
    day3 = datetime(2026, 1, 4, tzinfo=UTC)  # the clock starts on Jan 1, 12:00; day n's 20 hands are on Jan 1+n
    total, page = search(ann, HandFilter(since=day3, until=day3 + timedelta(days=1) - timedelta(microseconds=1)))
    assert total == 20 and {r.hand_id for r in page} == {f"h{i}" for i in range(40, 60)}
    riga = timezone(timedelta(hours=2))  # a bound in another zone means the same instant
    assert search(ann, HandFilter(since=datetime(2026, 1, 4, 2, tzinfo=riga),
                                  until=datetime(2026, 1, 5, 1, 59, 59, tzinfo=riga)))[0] == 20
    assert search(ann, HandFilter(game="razz"))[0] == 0
    assert search(make_player(store, "nobody_search"), HandFilter())[0] == 0


def test_issue_31_search_covers_settled_cash_hands_and_refuses_bad_filters(store: Store, clock: FakeClock) -> None:
    """A cash hand settled through the ledger gets its keys too; a void hand is never found; bad input refused."""
    a, b = make_player(store, "cash_a"), make_player(store, "cash_b")
    for p in (a, b):
        store.ledger.deposit(p, "EUR", 50_000, f"dep-{p}")
        store.ledger.buy_in(p, "eur1", 10_000, f"bi-{p}")
    store.ledger.start_hand("eur1", "e1", {a: 10_000, b: 10_000})
    store.ledger.settle_hand("eur1", "e1", {a: 95, b: -100}, 5, NT.format(sb=25, bb=50))
    store.ledger.start_hand("eur1", "e2", {a: 10_095, b: 9_900})
    store.ledger.void_unsettled_hands()
    total, page = store.hands.search(a, HandFilter(game="holdem", stakes=50, result="won", kind="cash"))
    assert total == 1 and page[0].hand_id == "e1" and page[0].changes == {a: 95, b: -100}
    assert store.hands.search(b, HandFilter(result="lost"))[0] == 1
    for bad in (dict(result="maybe"), dict(kind="freeroll"), dict(stakes=-1),
                dict(since=datetime(2026, 1, 1))):  # a bound without its time zone
        with pytest.raises(InvalidRequest):
            HandFilter(**bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidRequest):
        store.hands.search(a, HandFilter(), offset=-1)


def test_issue_31_migration_fills_the_keys_of_stored_hands(empty_db_url: str) -> None:
    """Hands stored before the search's columns existed get their game and stakes from their PHH on upgrade."""
    from riverboat.store import migrate

    st = Store(empty_db_url, password_hasher=FAST_HASHER)
    migrate.upgrade(st.engine, "0014")
    with st.engine.begin() as conn:
        for pk, phh in ((1, STUD), (2, NT.format(sb=50, bb=100)), (3, SOKO), (4, 'variant = "XX"\n')):
            conn.execute(text("INSERT INTO hands (id, table_id, hand_id, status, started_at, rake, phh)"
                              " VALUES (:pk, 't', :h, 'recorded', '2026-01-01 00:00:00+00', 0, :phh)"),
                         {"pk": pk, "h": f"h{pk}", "phh": phh})
    st.upgrade()
    with st.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, game, stakes FROM hands ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [(1, "stud", 100), (2, "holdem", 100), (3, "soko", 50), (4, None, None)]
    st.dispose()
