"""Issue #35 in the store, on both databases, with the injected clock: the staff second factor (RFC 6238 TOTP and
one-time recovery codes, every failure audited), lock-out per account after N wrong passwords and its release (by
time or by staff), a password change that ends every other session, the session list, and one-time reset codes
(single use, expiring). Every refusal says why in plain words and changes nothing."""

from __future__ import annotations

from typing import Any

import pyotp
import pytest

from riverboat.errors import wire_error
from riverboat.store import Store
from riverboat.store.errors import (
    AccountLocked,
    AlreadyEnrolled,
    AuthError,
    BadResetCode,
    BadSecondFactor,
    EnrolmentRequired,
    NotStaff,
    PermissionDenied,
    SecondFactorRequired,
    WrongPassword,
)

from .conftest import FakeClock, make_player

PW = "correct horse battery"


def _audit(store: Store, pid: int) -> list[str]:
    return [e.action for e in store.integrity.audit_log(100, pid)]


def _totp(store: Store, username: str) -> pyotp.TOTP:
    return pyotp.TOTP(store.security.begin_enrolment(username, PW).secret)


def test_staff_login_needs_the_second_factor_and_every_failure_is_audited_issue_35(store: Store,
                                                                                    clock: FakeClock) -> None:
    """Issue #35: a staff account cannot log in with its password alone; without an enrolled factor it is sent to
    enrol; a wrong code is refused and audited; the right one opens a session (audited)."""
    sec = make_player(store, "sec_anna", role="security")
    with pytest.raises(EnrolmentRequired) as no_factor:
        store.accounts.login("sec_anna", PW)
    assert wire_error(no_factor.value).status == 403  # type: ignore[union-attr]
    assert "enrol" in no_factor.value.message
    totp = _totp(store, "sec_anna")
    with pytest.raises(BadSecondFactor):  # the enrolment is confirmed with a right code only
        store.security.confirm_enrolment("sec_anna", PW, "000000" if totp.at(clock()) != "000000" else "111111")
    codes = store.security.confirm_enrolment("sec_anna", PW, totp.at(clock())).recovery_codes
    assert len(codes) == 10 and len(set(codes)) == 10
    clock.advance(seconds=30)
    with pytest.raises(SecondFactorRequired) as missing:
        store.accounts.login("sec_anna", PW)
    assert "6-digit code" in missing.value.message
    wrong = "123456" if totp.at(clock()) != "123456" else "654321"
    with pytest.raises(BadSecondFactor) as bad:
        store.accounts.login("sec_anna", PW, wrong)
    assert bad.value.message == "the code is wrong, expired or already used; nothing was changed"
    assert wire_error(bad.value).status == 401  # type: ignore[union-attr]
    before = len(store.security.sessions(store.accounts.login("sec_anna", PW, totp.at(clock()))))
    assert before == 1
    with pytest.raises(BadSecondFactor):  # the same code twice: a replay, refused
        store.accounts.login("sec_anna", PW, totp.at(clock()))
    actions = _audit(store, sec)
    assert actions.count("staff_login_failed") == 4  # no factor, wrong enrolment code, wrong code, replay
    assert actions.count("staff_login") == 1 and "2fa_enrolled" in actions


def test_a_recovery_code_works_once_issue_35(store: Store) -> None:
    """Issue #35: each recovery code logs in once; the second use is refused and audited."""
    pid = make_player(store, "op_rui", role="operator")
    codes = store.security.set_up_second_factor(pid).recovery_codes
    token = store.accounts.login("op_rui", PW, codes[3].upper())  # read out loud: case and dashes do not matter
    assert store.accounts.authenticate(token).id == pid
    with pytest.raises(BadSecondFactor):
        store.accounts.login("op_rui", PW, codes[3])
    assert _audit(store, pid).count("recovery_code_used") == 1
    assert _audit(store, pid)[0] == "staff_login_failed"
    store.accounts.login("op_rui", PW, codes[4])  # another one still works


def test_a_player_cannot_enrol_and_staff_cannot_enrol_twice_issue_35(store: Store) -> None:
    make_player(store, "plain_pat")
    with pytest.raises(NotStaff) as refused:
        store.security.begin_enrolment("plain_pat", PW)
    assert "not operator or security staff" in refused.value.message
    with pytest.raises(AuthError):
        store.security.begin_enrolment("plain_pat", "not the password")
    pid = make_player(store, "op_done", role="operator")
    store.security.set_up_second_factor(pid)
    with pytest.raises(AlreadyEnrolled):
        store.security.begin_enrolment("op_done", PW)


def test_staff_sessions_end_sooner_than_players_issue_35(store: Store, clock: FakeClock) -> None:
    """Issue #35: a staff session lasts SecurityPolicy.staff_session_ttl (2 h), a player's the store's 12 h."""
    pid = make_player(store, "op_short", role="operator")
    staff = store.accounts.login("op_short", PW, store.security.set_up_second_factor(pid).recovery_codes[0])
    make_player(store, "long_lee")
    player = store.accounts.login("long_lee", PW)
    clock.advance(hours=2, seconds=1)
    with pytest.raises(AuthError, match="expired"):
        store.accounts.authenticate(staff)
    assert store.accounts.authenticate(player).username == "long_lee"


def test_second_factor_reset_by_an_admin_only_and_audited_issue_35(store: Store) -> None:
    op = make_player(store, "op_lost", role="operator")
    codes = store.security.set_up_second_factor(op).recovery_codes
    token = store.accounts.login("op_lost", PW, codes[0])
    admin = make_player(store, "adm_ada", role="admin")
    other = make_player(store, "op_other", role="operator")
    with pytest.raises(PermissionDenied):
        store.security.reset_second_factor(other, op, "not mine to reset")
    store.accounts.authenticate(token)  # nothing changed
    store.security.reset_second_factor(admin, op, "lost phone, identity checked by video call")
    with pytest.raises(AuthError):
        store.accounts.authenticate(token)  # their sessions ended
    with pytest.raises(EnrolmentRequired):
        store.accounts.login("op_lost", PW, codes[1])  # the old recovery codes are void
    assert "2fa_reset" in _audit(store, op)


def test_lock_out_after_n_wrong_passwords_and_its_release_issue_35(store: Store, clock: FakeClock) -> None:
    """Issue #35: N (10) wrong passwords in a row lock the account, per account (whatever the address): the right
    password is refused too; the lock ends by itself after lockout_for (15 min), or when staff release it
    (audited). A success in between starts the count again."""
    pid = make_player(store, "lock_lou")
    for _ in range(9):
        with pytest.raises(AuthError):
            store.accounts.login("lock_lou", "wrong password!")
    store.accounts.login("lock_lou", PW)  # the count starts again
    for _ in range(10):
        with pytest.raises(AuthError):
            store.accounts.login("lock_lou", "wrong password!")
    with pytest.raises(AccountLocked) as locked:
        store.accounts.login("lock_lou", PW)
    assert "locked until 12:15 UTC" in locked.value.message
    assert wire_error(locked.value).status == 423  # type: ignore[union-attr]
    assert store.security.status(pid)[0] is not None
    clock.advance(minutes=15, seconds=1)
    store.accounts.login("lock_lou", PW)  # released by time
    for _ in range(10):
        with pytest.raises(AuthError):
            store.accounts.login("lock_lou", "wrong password!")
    with pytest.raises(AccountLocked):
        store.accounts.login("lock_lou", PW)
    op = make_player(store, "op_help", role="operator")
    with pytest.raises(PermissionDenied):
        store.security.unlock(make_player(store, "not_staff"), pid, "I am not staff")
    store.security.unlock(op, pid, "owner called support")
    assert store.security.status(pid)[0] is None
    store.accounts.login("lock_lou", PW)
    assert "unlock" in _audit(store, pid)


def test_password_change_ends_the_other_sessions_only_issue_35(store: Store) -> None:
    """Issue #35: the old password is required (a wrong one changes nothing); the other sessions end, this one
    stays; the new password works and the old one no longer does."""
    make_player(store, "chg_cai")
    here, phone, laptop = (store.accounts.login("chg_cai", PW, address=f"10.0.0.{i}", device=f"dev{i}")
                           for i in range(3))
    listed = store.security.sessions(here)
    assert len(listed) == 3 and sum(s.current for s in listed) == 1
    assert {s.device for s in listed} == {"dev0", "dev1", "dev2"}
    with pytest.raises(WrongPassword) as wrong:
        store.security.change_password(here, "not the password", "a brand new password")
    assert "the password was not changed" in wrong.value.message
    assert len(store.security.sessions(here)) == 3
    ended = store.security.change_password(here, PW, "a brand new password")
    assert len(ended) == 2
    for token in (phone, laptop):
        with pytest.raises(AuthError):
            store.accounts.authenticate(token)
    assert store.accounts.authenticate(here).username == "chg_cai"
    with pytest.raises(AuthError):
        store.accounts.login("chg_cai", PW)
    store.accounts.login("chg_cai", "a brand new password")


def test_log_out_one_session_or_every_other_issue_35(store: Store) -> None:
    make_player(store, "ses_sam")
    make_player(store, "ses_tom")
    a, b, c = (store.accounts.login("ses_sam", PW) for _ in range(3))
    theirs = store.accounts.login("ses_tom", PW)
    b_id = next(s.id for s in store.security.sessions(b) if s.current)
    tom_id = store.security.sessions(theirs)[0].id
    with pytest.raises(Exception, match="no live session"):
        store.security.revoke_session(a, tom_id)  # another player's session: not found, not ended
    store.accounts.authenticate(theirs)
    assert len(store.security.revoke_session(a, b_id)) == 1
    with pytest.raises(AuthError):
        store.accounts.authenticate(b)
    assert len(store.security.revoke_others(a)) == 1
    with pytest.raises(AuthError):
        store.accounts.authenticate(c)
    assert [s.current for s in store.security.sessions(a)] == [True]


def test_reset_code_is_single_use_and_expires_issue_35(store: Store, clock: FakeClock) -> None:
    """Issue #35: staff issue a one-time reset code (audited); it sets a new password once, ends every session and
    lifts a lock-out; used again, for another account, or after its hour, it is refused and nothing changes."""
    pid = make_player(store, "lost_liz")
    old_session = store.accounts.login("lost_liz", PW)
    op = make_player(store, "op_desk", role="operator")
    issued = store.security.issue_reset_code(op, pid, "caller verified by date of birth and last deposit")
    assert "reset_code_issued" in _audit(store, pid)
    make_player(store, "other_oz")
    with pytest.raises(BadResetCode) as other:
        store.security.reset_password("other_oz", issued.code, "another new password")
    assert other.value.message == "this reset code is wrong, already used or expired; ask the staff for a new one"
    store.accounts.login("other_oz", PW)  # nothing changed for either account
    store.accounts.authenticate(old_session)
    for _ in range(10):
        with pytest.raises(AuthError):
            store.accounts.login("lost_liz", "wrong password!")
    assert store.security.reset_password("lost_liz", issued.code, "my new password 1") == pid
    with pytest.raises(AuthError):
        store.accounts.authenticate(old_session)
    store.accounts.login("lost_liz", "my new password 1")  # the lock-out is lifted too
    with pytest.raises(BadResetCode):
        store.security.reset_password("lost_liz", issued.code, "my new password 2")  # single use
    store.accounts.login("lost_liz", "my new password 1")
    late = store.security.issue_reset_code(op, pid, "second call")
    clock.advance(hours=1, seconds=1)
    with pytest.raises(BadResetCode):
        store.security.reset_password("lost_liz", late.code, "my new password 3")  # expired
    store.accounts.login("lost_liz", "my new password 1")
    assert "password_reset" in _audit(store, pid)


def test_reset_codes_are_not_for_staff_and_only_staff_issue_them_issue_35(store: Store) -> None:
    player = make_player(store, "pl_pia")
    op = make_player(store, "op_oli", role="operator")
    with pytest.raises(PermissionDenied):
        store.security.issue_reset_code(player, op, "players cannot")
    with pytest.raises(Exception, match="reset on the server"):
        store.security.issue_reset_code(op, make_player(store, "op_two", role="operator"), "staff are not")
    assert store.security.mail_reset_code("op_oli") is None and store.security.mail_reset_code("nobody") is None
    assert store.security.mail_reset_code("pl_pia") is not None


def test_session_last_seen_is_noted_at_most_once_a_minute_issue_35(store: Store, clock: FakeClock) -> None:
    make_player(store, "seen_sue")
    token = store.accounts.login("seen_sue", PW)
    first: Any = store.security.sessions(token)[0].last_seen
    clock.advance(seconds=30)
    store.accounts.authenticate(token)
    assert store.security.sessions(token)[0].last_seen == first
    clock.advance(seconds=31)
    store.accounts.authenticate(token)
    assert store.security.sessions(token)[0].last_seen == clock()
