"""Issue #32 in the store, on both databases: a reason the room writes into the audit log is kept as a code with
its parameters beside its English text, so the operator console can show it in the staff member's language; a
reason typed by staff is kept exactly as typed, with no code. Migration 0016 adds the two columns in place: rows
written before keep their text (and no code), and the log stays append-only (R-OPER-4) through the upgrade and
back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from riverboat.store import Store
from riverboat.store.audit_reasons import REASONS, Reason, reason
from riverboat.store.errors import AuthError

from .conftest import FAST_HASHER, make_player

PW = "correct horse battery"


def _rows(store: Store, pid: int) -> list[tuple[str, str, str | None, dict[str, str] | None]]:
    return [(e.action, e.reason, e.reason_code, e.reason_args) for e in store.integrity.audit_log(100, pid)]


def test_the_rooms_own_reasons_are_codes_and_staff_reasons_stay_as_typed_issue_32(store: Store) -> None:
    """Issue #32: a staff log in, a wrong password, a bank transfer credited and a paid withdrawal carry their
    code and parameters (and the same English text as before); a warning's reason is the staff member's text."""
    op = make_player(store, "op_lena", role="operator")
    codes = store.security.set_up_second_factor(op).recovery_codes
    with pytest.raises(AuthError):
        store.accounts.login("op_lena", "not the password")
    store.accounts.login("op_lena", PW, codes[0], address="10.0.0.7")
    rows = _rows(store, op)
    assert ("staff_login", "logged in from 10.0.0.7", "login_from", {"address": "10.0.0.7"}) in rows
    assert ("staff_login_failed", "wrong password", "wrong_password", None) in rows
    assert ("2fa_enrolled", "second factor set up on the server", "enrolled_on_server", None) in rows
    assert ("recovery_code_used", "logged in with a recovery code", "recovery_code_login", None) in rows

    player = make_player(store, "pl_ivo")
    store.withdrawals.set_verified(op, player, True, "passport seen by Lena")
    store.cashier.credit_bank(player, "EUR", 5_000, "LV-77-001", staff_id=op)
    w = store.withdrawals.request(player, "EUR", 1_000, "w-ivo-1")
    store.withdrawals.approve(op, w.id, "PAY-42")
    store.integrity.set_status(op, player, "warned", "  rude in the chat  ")
    rows = _rows(store, player)
    assert ("deposit", "bank transfer LV-77-001", "bank_transfer", {"reference": "LV-77-001"}) in rows
    assert ("withdrawal_paid", "paid out: PAY-42", "paid_out", {"reference": "PAY-42"}) in rows
    assert ("verify", "passport seen by Lena", None, None) in rows
    assert ("warn", "rude in the chat", None, None) in rows


def test_a_reason_code_must_be_known_and_take_its_parameters_issue_32() -> None:
    """A code the console has no sentence for, or a missing or extra parameter, is refused where it is written."""
    assert reason("login_from", address="::1").text == "logged in from ::1"
    with pytest.raises(ValueError, match="unknown audit reason"):
        Reason("logged_in")
    with pytest.raises(ValueError, match="takes"):
        reason("login_from")
    with pytest.raises(ValueError, match="takes"):
        reason("wrong_password", address="x")
    assert all(REASONS.values())


@pytest.mark.parametrize("empty_db_url", ["sqlite", "postgresql"], indirect=True)
def test_migration_0016_keeps_old_rows_and_the_append_only_log_issue_32(empty_db_url: str) -> None:
    """Issue #32: 0016 on a log with an entry from before: the entry reads back with its text and no code, a new
    entry gets its code, UPDATE and DELETE are still refused, and 0016 goes down and up again."""
    from alembic import command

    from riverboat.store import migrate

    st = Store(empty_db_url, password_hasher=FAST_HASHER)
    try:
        migrate.upgrade(st.engine, "0015")
        with st.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO players (id, username, username_key, password_hash, role, alias_changes,"
                " alias_must_change, created_at) VALUES (1, 'old_op', 'old_op', 'x', 'operator', 0, false,"
                " '2026-01-01 00:00:00+00')"))
            conn.execute(text("INSERT INTO audit_log (at, operator_id, operator, action, player_id, reason)"
                              " VALUES ('2026-01-01 00:00:00+00', 1, 'old_op', 'staff_login', 1,"
                              " 'logged in from 10.1.1.1')"))
        st.upgrade()
        assert st.revision() == migrate.head_revision()
        st.integrity.record(1, "view_hand", reason("hole_card_review"), target="t/1")
        rows = [(e.reason, e.reason_code, e.reason_args) for e in st.integrity.audit_log(10)]
        assert rows == [("hole-card review", "hole_card_review", None), ("logged in from 10.1.1.1", None, None)]
        for sql in ("UPDATE audit_log SET reason = 'edited'", "DELETE FROM audit_log"):
            with pytest.raises(DatabaseError, match="append-only"), st.engine.begin() as conn:
                conn.execute(text(sql))
        command.downgrade(migrate.alembic_config(st.engine), "0015")
        assert st.revision() == "0015"
        st.upgrade()
        assert [e.reason for e in st.integrity.audit_log(10)] == ["hole-card review", "logged in from 10.1.1.1"]
        with pytest.raises(DatabaseError, match="append-only"), st.engine.begin() as conn:
            conn.execute(text("DELETE FROM audit_log"))
    finally:
        st.dispose()


def _english_literal(node: ast.expr) -> bool:
    """A reason written as English text in the code: a string literal, an f-string, or ``x or "..."``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.BoolOp | ast.IfExp) and any(
        _english_literal(v) for v in (node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]))


def test_no_audit_entry_of_the_room_is_written_as_english_text_issue_32() -> None:
    """Issue #32: every place in the store and the server that writes an audit entry with a reason of its own gives
    a code (``reason(...)``), not English text: ``audit(s, now, who, action, reason, ...)`` in the store, and
    ``integrity.record(operator, action, reason, ...)`` (directly or through ``hub.call_store``) anywhere."""
    src = Path(__file__).resolve().parents[2] / "src" / "riverboat"
    found, calls = [], 0
    for path in [*(src / "store").glob("*.py"), *(src / "server").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            args = node.args
            if name == "audit" and len(args) > 4:
                why = args[4]
            elif name.endswith("integrity.record") and len(args) > 2:
                why = args[2]
            elif name.endswith("call_store") and args and ast.unparse(args[0]).endswith("integrity.record"):
                why = args[3]
            else:
                continue
            calls += 1
            if _english_literal(why):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(why)}")
    assert calls >= 20  # the scan sees the store's and the server's audit calls
    assert found == []
