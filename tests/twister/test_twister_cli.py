"""``riverboat twister draws`` and ``riverboat twister audit`` (issue #12 item 5)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from riverboat.cli import app
from riverboat.store import Store
from riverboat.twister import sample_counts, table_for

runner = CliRunner()


def test_draws_json_is_exactly_the_documented_object_and_uses_the_production_path() -> None:
    """Item 5: one JSON object {type, buy_in, count, counts, return_to_player}; seeded, the counts are those of
    the room's own sampling function with the same seed."""
    res = runner.invoke(app, ["twister", "draws", "--type", "aog", "--buy-in", "500", "--count", "20000",
                              "--seed", "42", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out) == ["type", "buy_in", "count", "counts", "return_to_player"]
    expected = sample_counts(table_for("aog", 500), 20_000, random.Random(42))
    assert out["counts"] == {str(m): n for m, n in expected.items()}
    assert (out["type"], out["buy_in"], out["count"]) == ("aog", 500, 20_000)
    assert out["return_to_player"] == sum(m * n for m, n in expected.items()) / 60_000


def test_draws_wild_full_cycle_reproduces_the_table_exactly() -> None:
    """R-WILD-4: 250,000 draws are one cycle of the prize deck: the published counts, 94% return."""
    res = runner.invoke(app, ["twister", "draws", "--type", "wild", "--buy-in", "50", "--count", "250000",
                              "--json"])
    out = json.loads(res.stdout)
    assert out["counts"] == {"100": 50, "40": 450, "20": 1000, "10": 10000, "4": 42500, "2": 196000}
    assert out["return_to_player"] == 0.94


def test_draws_refuses_unpublished_buy_ins_and_bad_counts() -> None:
    """Bad input gets a clear error (exit 2) and prints no result."""
    res = runner.invoke(app, ["twister", "draws", "--type", "twister", "--buy-in", "300", "--count", "5"])
    assert res.exit_code == 2 and "published buy-ins" in res.output
    res = runner.invoke(app, ["twister", "draws", "--type", "twister", "--buy-in", "100", "--count", "0"])
    assert res.exit_code == 2 and "at least 1" in res.output


def test_audit_command_reads_the_stored_draws(tmp_path: Path) -> None:
    """Item 5: the operator reproduces the frequencies from the database."""
    from argon2 import PasswordHasher

    url = f"sqlite:///{tmp_path / 'rb.sqlite3'}"
    st = Store(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    st.upgrade()
    ps = []
    for i in range(3):
        ps.append(st.accounts.register(f"cli{i}", "correct horse battery").id)
        st.ledger.deposit(ps[-1], "EUR", 1000, f"d{i}")
    st.twister.create("twister:cli", "twister", 100)
    for p in ps:
        st.tournaments.register(p, "twister:cli", f"r{p}")
    st.tournaments.start("twister:cli")
    m = st.twister.spin("twister:cli", rng=random.Random(1)).multiplier
    st.dispose()
    res = runner.invoke(app, ["twister", "audit", "--database-url", url, "--json"])
    assert res.exit_code == 0, res.output
    counts = json.loads(res.stdout)["twister-1-20"]["counts"]
    assert counts[str(m)] == 1 and sum(counts.values()) == 1
