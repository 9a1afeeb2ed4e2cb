"""Issue #31, second pass ("The table and the lobby", the statistics over every hand): ``Hands.statistics`` counts a
player's VPIP, PFR, 3-bet, WTSD, won at showdown, the current session and the profit per game in SQL, from the
play flags written with each hand (``hand_players.play``), over EVERY hand -- and its figures are the ones
``GET /api/stats`` computed in Python before over the last 2,000 (tests/stats_reference.py), on SQLite and
PostgreSQL (the ``store`` fixture runs both). The migration fills the flags of hands stored before it."""

from __future__ import annotations

import random
from dataclasses import asdict
from datetime import datetime, timedelta

from sqlalchemy import text
from tests.history.random_play import random_room_hand
from tests.stats_reference import play_stats, statistics
from tests.store_fixtures import FAST_HASHER

from riverboat.history.play_flags import play_flags
from riverboat.store import Store, migrate
from riverboat.store.hand_stats import PlayerStatistics
from riverboat.store.hands import HandRecord

from .conftest import FakeClock, make_player

CASH = {"play1": "PLAY", "eur1": "EUR"}
BUY_IN = 1_000_000


def _seat_everyone(store: Store, players: list[int]) -> dict[str, dict[int, int]]:
    stacks: dict[str, dict[int, int]] = {}
    for table, currency in CASH.items():
        for p in players:
            store.ledger.deposit(p, currency, BUY_IN, f"dep-{table}-{p}")
            store.ledger.buy_in(p, table, BUY_IN, f"bi-{table}-{p}", currency=currency)
        stacks[table] = dict.fromkeys(players, BUY_IN)
    return stacks


def _play(store: Store, clock: FakeClock, players: list[int], hands: int, seed: int = 0,
          games: list[str] | None = None) -> None:
    """``hands`` random hands: a third recorded as tournament hands, a third settled at a play-money table and a
    third at a euro table; between two hands 20 s to 45 min (some pauses end a session)."""
    rng = random.Random(seed)
    stacks = _seat_everyone(store, players)
    for i in range(hands):
        clock.advance(seconds=rng.choice([20, 30, 45, 60, 90, 300, 2700]))
        phh, changes = random_room_hand(seed * 100_000 + i, players, games)
        hid = f"h{i}"
        if i % 3 == 0:
            store.hands.record("sng1/t1", hid, dict.fromkeys(changes, 1000), phh, [], changes)
            continue
        table = ("play1", "eur1")[i % 3 - 1]
        store.ledger.start_hand(table, hid, {p: stacks[table][p] for p in changes}, currency=CASH[table])
        clock.advance(seconds=rng.randint(5, 40))
        store.ledger.settle_hand(table, hid, changes, 0, phh)
        for p, c in changes.items():
            stacks[table][p] += c


def _everything(store: Store, pid: int) -> list[HandRecord]:
    return store.hands.for_player(pid, limit=1_000_000)


def _same_as_python(got: PlayerStatistics, records: list[HandRecord], pid: int, now: datetime) -> None:
    """The store's figures are the first pass's Python ones on the same hands."""
    ref = statistics(records, pid, now)
    ref_play = play_stats(records, pid)
    assert asdict(got.play) == {"hands": ref_play["hands"], "other_hands": ref_play["other_hands"],
                                **ref_play["counts"]}
    s, rs = got.session, ref["session"]
    assert (s.hands, s.net) == (rs["hands"], rs["net"])
    if rs["hands"]:
        assert s.since is not None and s.until is not None and s.since.isoformat() == rs["since"]
        hours = max((s.until - s.since).total_seconds(), 60.0) / 3600
        assert round(s.hands / hours) == rs["hands_per_hour"]
        in_session = [r for r in records if r.started_at >= s.since]
        assert len(in_session) == s.hands
        ref_session = play_stats(in_session, pid)
        assert asdict(s.play) == {"hands": ref_session["hands"], "other_hands": ref_session["other_hands"],
                                  **ref_session["counts"]}
    games = sorted((g.game or "unknown", g.currency, g.hands, g.net, [[t.isoformat(), v] for t, v in g.series])
                   for g in got.games)
    assert games == sorted((g["game"], g["currency"], g["hands"], g["net"], g["series"]) for g in ref["games"])
    assert [g.hands for g in got.games] == sorted((g.hands for g in got.games), reverse=True)


def test_issue_31_statistics_in_sql_equal_the_python_computation(store: Store, clock: FakeClock) -> None:
    players = [make_player(store, f"stats_{i}") for i in range(6)]
    _play(store, clock, players, 240)
    seen = 0
    for pid in players:
        records = _everything(store, pid)
        for later in (5, 31):  # minutes after the last hand: in its session, and after the session's pause
            _same_as_python(store.hands.statistics(pid, clock.now + timedelta(minutes=later)), records, pid,
                            clock.now + timedelta(minutes=later))
        got = store.hands.statistics(pid, clock.now)
        seen += got.play.hands
        assert got.play == store.hands.play_stats(pid)
    assert seen > 300  # every player played a good share of the flop-game hands
    nobody = make_player(store, "stats_nobody")
    empty = store.hands.statistics(nobody, clock.now)
    assert (empty.session.hands, empty.play.hands, empty.games) == (0, 0, [])


def test_issue_31_statistics_count_every_hand_beyond_2000(store: Store, clock: FakeClock) -> None:
    """2,100 hands (more than the 2,000 the route read before) and a game with more hands than graph points: all
    counted; the graph keeps 400 points, the last one the total."""
    ann, bob = make_player(store, "many_ann"), make_player(store, "many_bob")
    hands = [random_room_hand(i, [ann, bob], ["holdem", "omaha", "stud"]) for i in range(40)]
    for i in range(1650):
        clock.advance(seconds=30)
        phh, changes = hands[i % len(hands)]
        store.hands.record("sng2/t1", f"t{i}", dict.fromkeys(changes, 1000), phh, [], changes)
    stacks = _seat_everyone(store, [ann, bob])["play1"]
    holdem = [random_room_hand(i, [ann, bob], ["holdem"]) for i in range(40)]
    for i in range(450):
        clock.advance(seconds=30)
        phh, changes = holdem[i % len(holdem)]
        store.ledger.start_hand("play1", f"c{i}", dict(stacks), currency="PLAY")
        store.ledger.settle_hand("play1", f"c{i}", changes, 0, phh)
        for p, c in changes.items():
            stacks[p] += c
    records = _everything(store, ann)
    assert len(records) == 2100
    now = clock.now + timedelta(minutes=1)
    got = store.hands.statistics(ann, now)
    _same_as_python(got, records, ann, now)
    assert got.play.hands + got.play.other_hands == 2100 and got.session.hands == 2100
    assert play_stats(records[:2000], ann)["hands"] < got.play.hands  # what the route counted before
    (g,) = got.games
    assert (g.game, g.currency, g.hands, len(g.series)) == ("holdem", "PLAY", 450, 400)
    assert g.series[-1] == (records[0].ended_at, g.net)  # the newest hand
    assert g.net == sum(r.changes[ann] for r in records if r.currency == "PLAY")


def test_issue_31_migration_fills_the_play_flags_of_stored_hands(empty_db_url: str) -> None:
    """Hands stored before the flags' column existed get each player's flags from their PHH and result."""
    st = Store(empty_db_url, password_hasher=FAST_HASHER)
    migrate.upgrade(st.engine, "0016")
    ids = [st.accounts.register(f"old_{i}", "correct horse battery").id for i in range(6)]
    with st.engine.begin() as conn:
        expected: dict[tuple[int, int], int | None] = {}
        for pk in range(1, 31):
            phh, changes = random_room_hand(pk, ids)
            conn.execute(text("INSERT INTO hands (id, table_id, hand_id, status, started_at, rake, phh)"
                              " VALUES (:pk, 't', :h, 'recorded', '2026-01-01 00:00:00+00', 0, :phh)"),
                         {"pk": pk, "h": f"h{pk}", "phh": phh if pk != 30 else None})
            flags = play_flags(phh, changes) if pk != 30 else {}
            for pid, change in changes.items():
                conn.execute(text("INSERT INTO hand_players (hand_pk, player_id, start_stack, change)"
                                  " VALUES (:pk, :p, 1000, :c)"), {"pk": pk, "p": pid, "c": change})
                expected[(pk, pid)] = int(flags[pid]) if pid in flags else None
    st.upgrade()
    with st.engine.connect() as conn:
        rows = conn.execute(text("SELECT hand_pk, player_id, play FROM hand_players")).all()
    assert {(pk, pid): play for pk, pid, play in rows} == expected
    assert any(v for v in expected.values()) and None in expected.values()
    st.dispose()


def test_issue_30_reality_check_sums_every_money_hand_since_the_session_start(store: Store, clock: FakeClock) -> None:
    """Issue #30 (the reality check: time played and net result this session): the money hands started at or
    after ``since`` are counted and their net summed per currency by the store, every one of them (the route read
    the last 2,000 before); tournament hands (chips, not money) and hands before ``since`` are not."""
    players = [make_player(store, f"rc_{i}") for i in range(4)]
    _play(store, clock, players, 90, seed=7)
    for pid in players:
        records = _everything(store, pid)
        for since in (records[-1].started_at, records[len(records) // 2].started_at, records[0].started_at,
                      clock.now + timedelta(seconds=1)):
            money = [r for r in records if r.currency is not None and r.started_at >= since and pid in r.changes]
            net: dict[str, int] = {}
            for r in money:
                net[str(r.currency)] = net.get(str(r.currency), 0) + r.changes[pid]
            assert store.hands.money_since(pid, since) == (len(money), net)
    assert store.hands.money_since(players[0], records[-1].started_at)[0] > 0
