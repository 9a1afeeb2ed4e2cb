"""``riverboat integrity scan`` (issue #13, R-INTEG-3, R-INTEG-8) on PHH files and on the room's database: one JSON
object per flag, most suspicious first, the planted dumper found; bad input gives a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from riverboat.bots.collusion import Plant, Population, simulate
from riverboat.history import PhhHand, dumps, dumps_many
from riverboat.store import Store

PLANT = Plant("bot00", "bot01", "dump", 1.0)
KEYS = {"players", "pattern", "score", "hands", "why", "evidence"}


@pytest.fixture(scope="module")
def records() -> list[PhhHand]:
    return list(simulate(Population(players=8, plants=(PLANT,), sessions=12, hands_per_session=30, seed=11)))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from riverboat.cli import main; main()", "integrity", "scan", *args],
                          capture_output=True, text=True, timeout=300)


def _flags(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_scan_phh_files_json_r_integ_3(records: list[PhhHand], tmp_path: Path) -> None:
    half = len(records) // 2
    a, b = tmp_path / "a.phhs", tmp_path / "b.phhs"
    a.write_text(dumps_many(r.fields for r in records[:half]))
    b.write_text(dumps_many(r.fields for r in records[half:]))
    res = _run(str(a), str(b), "--min-hands", "20", "--json")
    assert res.returncode == 0, res.stderr
    flags = _flags(res.stdout)
    assert flags and all(set(f) == KEYS for f in flags)
    scores = [float(f["score"]) for f in flags]  # type: ignore[arg-type]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    top = flags[0]
    assert top["players"] == ["bot00", "bot01"] and top["pattern"] == "chip_dumping"
    assert isinstance(top["evidence"], list) and top["evidence"]


def test_scan_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nthis is not toml\n")
    res = _run(str(bad), "--json")
    assert res.returncode == 2 and "not valid TOML" in res.stderr and res.stdout == ""
    assert _run("--json").returncode != 0  # neither files nor a database


def test_scan_database_r_integ_8(records: list[PhhHand], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    with Store(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)) as store:
        store.upgrade()
        ids = {f"bot{i:02d}": store.accounts.register(f"player{i:02d}", "password123").id for i in range(8)}
        for r in records:
            fields = dict(r.fields)
            names = fields["players"]
            fields["players"] = [str(ids[n]) for n in names]
            stacks = {ids[n]: int(s) for n, s in zip(names, fields["starting_stacks"], strict=True)}
            changes = {ids[n]: int(e) - int(s) for n, s, e in
                       zip(names, fields["starting_stacks"], fields["finishing_stacks"], strict=True)}
            store.hands.record(str(fields["table"]), str(fields["hand"]), stacks, dumps(fields), changes=changes)
        assert store.hands.count() == len(records)
        store.integrity.note_login(ids["bot02"], "151.101.1.69")  # two accounts, one public address (R-INTEG-7)
        store.integrity.note_login(ids["bot05"], "151.101.1.69")
    res = _run("--database-url", url, "--min-hands", "20", "--json", "--no-progress")
    assert res.returncode == 0, res.stderr
    multi = [f for f in _flags(res.stdout) if f["pattern"] == "multi_accounting"]
    assert [f["players"] for f in multi] == [["player02", "player05"]]  # usernames, not ids (issue #34)
    top = _flags(res.stdout)[0]
    assert top["players"] == ["player00", "player01"] and top["pattern"] == "chip_dumping"
    assert top["aliases"] == [None, None] and "player00" in str(top["why"]) and str(ids["bot00"]) not in top["players"]
    table, _, hand = str(top["evidence"][0]).rpartition("/")  # type: ignore[index]
    assert table.startswith("sim") and hand.isdigit()


def test_scheduled_scan_runs_in_a_worker_process_and_saves_flags_r_integ_8(records: list[PhhHand],
                                                                            tmp_path: Path) -> None:
    """The server's scan (issue #13 item 4) runs off the event loop, in another process, and raises the flags
    while play goes on; a second scan refreshes the same open flag instead of adding one."""
    import asyncio
    import os

    from riverboat.server.integrity_scan import ScheduledScan

    url = f"sqlite:///{tmp_path / 'sched.sqlite3'}"
    store = Store(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    store.upgrade()
    ids = {f"bot{i:02d}": store.accounts.register(f"sched{i:02d}", "password123").id for i in range(8)}
    for r in records:
        fields = dict(r.fields)
        names = fields["players"]
        fields["players"] = [str(ids[n]) for n in names]
        stacks = {ids[n]: int(s) for n, s in zip(names, fields["starting_stacks"], strict=True)}
        store.hands.record(str(fields["table"]), str(fields["hand"]), stacks, dumps(fields))

    async def twice() -> tuple[int, int]:
        sched = ScheduledScan(store, every=0, min_hands=20)
        try:
            return await sched.once(), await sched.once()
        finally:
            await sched.stop()

    first, second = asyncio.run(twice())
    assert first >= 1 and second == first
    flags = store.integrity.flags()
    assert len(flags) == first
    assert flags[0].players == [str(ids["bot00"]), str(ids["bot01"])] and flags[0].pattern == "chip_dumping"
    assert "sched00" in flags[0].detail["why"] and "sched01" in flags[0].detail["why"]  # names for the console
    assert ScheduledScan.worker_pid is not None and ScheduledScan.worker_pid != os.getpid()
    store.dispose()
