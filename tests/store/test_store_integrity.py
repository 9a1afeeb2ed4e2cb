"""Integrity records (issue #13): flags, account standing (R-INTEG-5c, R-AAI-3: warned/suspended/banned) and the
append-only operator audit log (R-OPER-4/-5) -- on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from riverboat.integrity import Flag
from riverboat.store import AccountBlocked, AuthError, InvalidRequest, NotFound, PermissionDenied, Store
from riverboat.store.integrity import Integrity


def _flag(players: tuple[str, ...] = ("1", "2"), hands: int = 40, score: float = 0.99) -> Flag:
    return Flag(players, "chip_dumping", score, hands, ("t1/1", "t1/7"), 1e-6, {"bad_losses": 9.0})


def _people(store: Store) -> tuple[int, int, int]:
    op = store.accounts.register("opera", "password123", role="operator").id
    sec = store.accounts.register("secur", "password123", role="security").id
    bob = store.accounts.register("bobby", "password123").id
    return op, sec, bob


def test_banned_or_suspended_account_cannot_log_in_and_tokens_stop_r_integ_5(store: Store) -> None:
    op, _, bob = _people(store)
    token = store.accounts.login("bobby", "password123")
    store.integrity.set_status(op, bob, "suspended", "chip dumping under review")
    with pytest.raises(AccountBlocked, match="suspended"):
        store.accounts.login("bobby", "password123")
    with pytest.raises(AuthError):
        store.accounts.authenticate(token)
    with pytest.raises(AuthError, match="wrong username or password"):  # a wrong password still says only that
        store.accounts.login("bobby", "wrong-password")
    store.integrity.set_status(op, bob, "active", "cleared")
    assert store.accounts.authenticate(token).id == bob
    store.integrity.set_status(op, bob, "banned", "chip dumping confirmed")
    assert store.integrity.blocked(bob) == "banned"
    with pytest.raises(AccountBlocked, match="banned"):
        store.accounts.login("bobby", "password123")


def test_warn_counts_and_only_staff_act_r_aai_3_r_oper_5(store: Store) -> None:
    op, sec, bob = _people(store)
    store.integrity.set_status(op, bob, "warned", "artificial all-in abuse (R-AAI-3)")
    store.integrity.set_status(sec, bob, "warned", "again")
    assert store.integrity.standing(bob).warnings == 2
    with pytest.raises(PermissionDenied):
        store.integrity.set_status(bob, op, "banned", "revenge")
    with pytest.raises(InvalidRequest):
        store.integrity.set_status(op, bob, "banned", "   ")  # a reason is required
    with pytest.raises(InvalidRequest):
        store.integrity.set_status(op, bob, "exiled", "no such status")
    with pytest.raises(NotFound):
        store.integrity.set_status(op, 10**9, "banned", "nobody")
    assert store.integrity.standing(bob).status == "warned"
    assert [e.action for e in store.integrity.audit_log()] == ["warn", "warn"]


def test_flags_refresh_while_open_and_void_is_audited_r_integ_8(store: Store) -> None:
    op, _, _ = _people(store)
    first = store.integrity.save_flags([_flag()])[0]
    again = store.integrity.save_flags([_flag(hands=55, score=0.999)])[0]
    assert again.id == first.id and again.hands == 55
    entry = store.integrity.void_flag(op, first.id, "friends playing for fun, checked")
    assert entry.action == "void_flag" and entry.target == f"flag:{first.id}" and entry.operator == "opera"
    assert store.integrity.flags() == []
    assert store.integrity.save_flags([_flag(hands=55)]) == []  # voided: not raised again on the same evidence
    reopened = store.integrity.save_flags([_flag(hands=80)])
    assert len(reopened) == 1 and reopened[0].id != first.id  # new evidence: a new flag
    with pytest.raises(InvalidRequest):
        store.integrity.void_flag(op, first.id, "twice")


def test_audit_log_is_append_only_in_the_database_r_oper_4(store: Store) -> None:
    op, _, bob = _people(store)
    store.integrity.set_status(op, bob, "banned", "collusion ring")
    for sql in ("UPDATE audit_log SET reason = 'nothing happened'", "DELETE FROM audit_log"):
        with pytest.raises(Exception, match="append-only"), store.session() as s:
            s.execute(text(sql))
    [entry] = store.integrity.audit_log()
    assert (entry.action, entry.reason, entry.operator_id, entry.player_id) == ("ban", "collusion ring", op, bob)
    assert entry.at is not None
    # and the store offers no call that edits or removes an entry
    assert not [name for name in dir(Integrity) if any(w in name for w in ("update", "delete", "edit", "remove"))]


def test_login_addresses_give_the_multi_accounting_signal_r_integ_7(store: Store) -> None:
    _, _, bob = _people(store)
    eve = store.accounts.register("evelyn", "password123").id
    store.integrity.note_login(bob, "93.184.216.34")
    store.integrity.note_login(bob, "93.184.216.34")
    store.integrity.note_login(eve, "93.184.216.34")
    store.integrity.note_login(eve, "127.0.0.1")  # loopback / private: not a signal (a proxy would tie everyone)
    store.integrity.note_login(eve, "10.1.2.3")
    assert store.integrity.addresses() == {str(bob): {"ip:93.184.216.34"}, str(eve): {"ip:93.184.216.34"}}
