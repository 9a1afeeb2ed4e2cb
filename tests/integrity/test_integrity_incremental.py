"""Issue #34: incremental scans. The counts are additive and kept between scans, so a scan in ten increments
(each one starting from the stored counts of the last) raises exactly the flags of one full scan; the store keeps
the counts and a cursor, and the next scan reads only the hands recorded since."""

from __future__ import annotations

from pathlib import Path

import pytest
from argon2 import PasswordHasher

from riverboat.bots.collusion import Plant, Population, simulate
from riverboat.history import PhhHand, dumps
from riverboat.integrity import ScanConfig, ScanState, evaluate_state, hand_facts, scan_full
from riverboat.store import Store

PLANTS = (Plant("bot00", "bot01", "dump", 0.5), Plant("bot02", "bot03", "soft", 1.0))
CFG = ScanConfig(min_hands=20)


@pytest.fixture(scope="module")
def records() -> list[PhhHand]:
    return list(simulate(Population(players=10, plants=PLANTS, sessions=10, hands_per_session=30, seed=5)))


def _key(flags):  # type: ignore[no-untyped-def]
    return [f.to_dict() for f in flags]


def test_ten_increments_through_stored_counts_equal_one_full_scan_issue_34(records: list[PhhHand]) -> None:
    full = scan_full((hand_facts(r) for r in records), CFG)
    assert any(f.pattern == "chip_dumping" and f.players == ("bot00", "bot01") for f in full.flags)
    blob = ScanState(CFG.gather).to_bytes()
    step = -(-len(records) // 10)
    for k in range(10):
        state = ScanState.from_bytes(blob, CFG.gather)
        assert state is not None
        for r in records[k * step:(k + 1) * step]:
            state.add(hand_facts(r))
        blob = state.to_bytes()  # what the store keeps between scans
    final = ScanState.from_bytes(blob, CFG.gather)
    assert final is not None and final.hands == len(records)
    inc = evaluate_state(final, CFG)
    assert _key(inc.flags) == _key(full.flags)
    assert inc.tested_pairs == full.tested_pairs


def test_memory_bounded_by_open_sessions_and_increments_still_equal_full_issue_34(records: list[PhhHand]) -> None:
    """Issue #34 (bounded memory): the seat lists of table sessions idle for ``session_idle`` hands are dropped
    (their counts stay), at fixed hand counts: the flags are those of keeping every session, and a scan in
    increments of a size unrelated to ``session_idle`` (stored counts written in small parts) still equals the
    full scan."""
    from riverboat.integrity import GatherConfig

    small = ScanConfig(min_hands=20, gather=GatherConfig(session_idle=45))
    full = ScanState(small.gather)
    full.add_many(hand_facts(r) for r in records)
    assert len(full.table_players) <= 3 < len({r.fields["table"] for r in records})  # 30 hands a session
    assert _key(evaluate_state(full, small).flags) == _key(scan_full((hand_facts(r) for r in records), CFG).flags)
    state: ScanState | None = ScanState(small.gather)
    for k in range(0, len(records), 37):
        assert state is not None
        state.add_many(hand_facts(r) for r in records[k:k + 37])
        state = ScanState.from_bytes(state.to_bytes(chunk=7), small.gather)
    assert state is not None and state.table_players == full.table_players
    assert _key(evaluate_state(state, small).flags) == _key(evaluate_state(full, small).flags)


def test_evaluation_keeps_a_p_value_per_test_not_every_candidate_issue_34(records: list[PhhHand]) -> None:
    """Issue #34 (bounded memory): the tests over all pairs keep a p-value per test and compute only the flagged
    candidates in full; the million-hand scan held every pair's sentence, evidence and detail at once (2.4 KB a
    pair, 0.8 GB over its peak). The population: the simulated hands dealt again to 600 players, six new ones
    every 40 hands, so almost every pair is new and tested."""
    import random
    import tracemalloc

    rng = random.Random(3)
    state = ScanState(CFG.gather)
    seated: list[str] = []
    for i in range(2400):
        fields = dict(records[i % len(records)].fields)
        if i % 40 == 0:
            seated = [f"p{j}" for j in rng.sample(range(600), 6)]
        fields["players"] = seated[:len(fields["starting_stacks"])]
        fields["table"], fields["hand"] = f"T{i // 40}", str(i % 40)
        state.add(hand_facts(PhhHand(fields, "x", i)))
    tracemalloc.start()
    try:
        result = evaluate_state(state, CFG)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(result.tested_pairs) >= 800
    assert peak / len(result.tested_pairs) < 1000, peak  # bytes per pair tested (2,400 before)


def test_counts_of_another_configuration_are_not_reused_issue_34() -> None:
    blob = ScanState().to_bytes()
    from riverboat.integrity import GatherConfig

    assert ScanState.from_bytes(blob, GatherConfig(min_flow=9.0)) is None  # counted differently: start over


def _store_with(url: str, records: list[PhhHand]) -> tuple[Store, dict[str, int]]:
    store = Store(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    store.upgrade()
    ids = {f"bot{i:02d}": store.accounts.register(f"user{i:02d}", "password123").id for i in range(10)}
    return store, ids


def _record(store: Store, ids: dict[str, int], r: PhhHand) -> None:
    fields = dict(r.fields)
    names = fields["players"]
    fields["players"] = [str(ids[n]) for n in names]
    stacks = {ids[n]: int(s) for n, s in zip(names, fields["starting_stacks"], strict=True)}
    store.hands.record(str(fields["table"]), str(fields["hand"]), stacks, dumps(fields))


def test_store_scan_reads_only_new_hands_and_equals_full_issue_34(records: list[PhhHand], tmp_path: Path) -> None:
    """Ten scheduled scans, each after a tenth of the hands was recorded: each reads only the new hands, and the
    last one's flags are those of one full scan of the database."""
    store, ids = _store_with(f"sqlite:///{tmp_path / 'inc.sqlite3'}", records)
    try:
        step = -(-len(records) // 10)
        reads = []
        for k in range(10):
            for r in records[k * step:(k + 1) * step]:
                _record(store, ids, r)
            run = store.integrity.scan(CFG, incremental=True)
            reads.append(run.read)
        assert sum(reads) == len(records) and max(reads) <= step
        assert store.integrity.scan(CFG, incremental=True).read == 0  # nothing new
        full = store.integrity.scan(CFG, incremental=False)
        assert full.read == len(records)
        assert _key(run.result.flags) == _key(full.result.flags)
        dump = next(f for f in full.result.flags if f.pattern == "chip_dumping")
        assert dump.players == (str(ids["bot00"]), str(ids["bot01"]))
        assert full.names[str(ids["bot00"])] == "user00"  # usernames, not ids (issue #34)
    finally:
        store.dispose()


def test_a_hand_still_being_played_holds_the_cursor_issue_34(records: list[PhhHand], tmp_path: Path) -> None:
    """The cursor never passes a hand that has started but not finished: it is read once it is settled."""
    from sqlalchemy import update

    from riverboat.store.models import Hand

    store, ids = _store_with(f"sqlite:///{tmp_path / 'open.sqlite3'}", records)
    try:
        for r in records[:20]:
            _record(store, ids, r)
        store._db.run(lambda s: s.execute(update(Hand).where(Hand.id == 10).values(status="started")))
        first = store.integrity.scan(CFG, incremental=True)
        assert first.read == 9 and first.cursor == 9
        store._db.run(lambda s: s.execute(update(Hand).where(Hand.id == 10).values(status="recorded")))
        second = store.integrity.scan(CFG, incremental=True)
        assert second.read == 11 and second.result.hands == 20
    finally:
        store.dispose()
