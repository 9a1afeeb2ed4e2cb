"""Issue #30 contracts of the operator's money commands, run as real processes on SQLite and PostgreSQL:
``riverboat operator deposit USERNAME AMOUNT --currency EUR --reference REF --json`` (the same REF twice credits
once), ``withdrawals [--status] --json`` and ``withdrawal approve|reject ID [--reference REF] --json``; every
refusal is exit code 2 with one line on stderr and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from riverboat.store import Store
from riverboat.store.cashier import payment_reference

from .conftest import make_player


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from riverboat.cli import main; main()", "operator", *args,
                           "--database-url", url], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def one_line_refusal(res: subprocess.CompletedProcess[str], words: str) -> None:
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], res.stderr
    assert res.stdout == ""


def state(store: Store) -> Any:
    return store.ledger.balances(), store.ledger.transaction_count(), store.withdrawals.list()


def test_issue30_cli_deposit_contract(store: Store, db_url: str) -> None:
    """Issue #30 contract: deposit prints {"movement_id", "balance", "replayed": false}; the same REF again prints
    the first result with "replayed": true and credits nothing; by payment reference too; refusals exit 2."""
    p = make_player(store, "alice")
    first = cli(db_url, "deposit", "alice", "5000", "--currency", "EUR", "--reference", "BANK-1", "--json")
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert first.stdout.count("\n") == 1 and out == {"movement_id": out["movement_id"], "balance": 5000,
                                                     "replayed": False}
    again = cli(db_url, "deposit", "alice", "5000", "--currency", "EUR", "--reference", "BANK-1", "--json")
    assert json.loads(again.stdout) == out | {"replayed": True}
    by_ref = cli(db_url, "deposit", payment_reference(p), "250", "--reference", "BANK-2", "--json")
    assert json.loads(by_ref.stdout)["balance"] == 5250
    assert store.ledger.balance(p, "EUR") == 5250
    before = state(store)
    one_line_refusal(cli(db_url, "deposit", "nobody", "100", "--reference", "BANK-3", "--json"), "no player")
    for bad in ("-5", "1.5", "0", "abc", "99999999999999"):
        one_line_refusal(cli(db_url, "deposit", "alice", bad, "--reference", "BANK-4", "--json"), "AMOUNT")
    one_line_refusal(cli(db_url, "deposit", "alice", "4999", "--reference", "BANK-1", "--json"),
                     "already credited")
    assert state(store) == before
    store.ledger.verify()
    assert store.ledger.total("EUR") == 0


def test_issue30_cli_withdrawals_list_approve_reject(store: Store, db_url: str) -> None:
    """Issue #30 contract: withdrawals --status pending --json is one line per withdrawal; approve with a payout
    reference pays once (approving again prints the same and moves nothing); reject returns the money."""
    op = make_player(store, "opx", role="operator")
    p = make_player(store, "bob")
    store.withdrawals.set_verified(op, p, True, "checked")
    store.ledger.deposit(p, "EUR", 10_000, "d")
    a = store.withdrawals.request(p, "EUR", 3_000, "a")
    b = store.withdrawals.request(p, "EUR", 1_000, "b")
    listed = cli(db_url, "withdrawals", "--status", "pending", "--json")
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(r["id"], r["amount"], r["status"], r["player_id"]) for r in rows] == [
        (a.id, 3_000, "pending", p), (b.id, 1_000, "pending", p)]
    paid = cli(db_url, "withdrawal", "approve", str(a.id), "--reference", "PAYOUT-1", "--json")
    assert json.loads(paid.stdout)["status"] == "paid" and json.loads(paid.stdout)["payout_reference"] == "PAYOUT-1"
    count = store.ledger.transaction_count()
    twice = cli(db_url, "withdrawal", "approve", str(a.id), "--reference", "PAYOUT-1", "--json")
    assert json.loads(twice.stdout) == json.loads(paid.stdout)
    assert store.ledger.transaction_count() == count
    rej = cli(db_url, "withdrawal", "reject", str(b.id), "--reason", "wrong IBAN", "--operator", "opx", "--json")
    assert json.loads(rej.stdout)["status"] == "rejected"
    assert store.ledger.balance(p, "EUR") == 7_000
    assert store.integrity.audit_log()[0].action == "withdrawal_rejected"
    before = state(store)
    one_line_refusal(cli(db_url, "withdrawal", "approve", str(b.id), "--reference", "X", "--json"), "rejected")
    one_line_refusal(cli(db_url, "withdrawal", "approve", "999999", "--reference", "X", "--json"), "no withdrawal")
    one_line_refusal(cli(db_url, "withdrawal", "approve", str(b.id), "--json"), "--reference")
    one_line_refusal(cli(db_url, "withdrawals", "--status", "weird", "--json"), "status")
    assert state(store) == before
    store.ledger.verify()
    assert store.ledger.total("EUR") == 0
