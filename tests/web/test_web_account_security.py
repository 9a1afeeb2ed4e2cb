"""Issue #35 in Debian's Chromium against a real ``riverboat serve``, under the room's CSP (every page's probe fails
the test on a ``securitypolicyviolation`` or a console error):

- a staff account without a second factor is sent to enrol in the console: the QR code (an SVG ``data:`` image)
  is shown, the code of the app confirms it, the recovery codes are shown once, and a recovery code logs in;
- a player sees where they are logged in and logs out everywhere else; changes the password (a wrong current
  one is refused in plain words); sets a new password with a staff-issued reset code on #/reset.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pyotp
import pytest
from argon2 import PasswordHasher

from riverboat.store import Store

PASSWORD = "correct horse battery"


@pytest.fixture
def store(live_server: Any) -> Iterator[Store]:
    st = Store(f"sqlite:///{live_server.log_path.parent / 'riverboat.sqlite3'}",
               password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    try:
        yield st
    finally:
        st.dispose()


def test_staff_enrol_the_second_factor_in_the_console_issue_35(new_page: Any, live_server: Any, store: Store,
                                                                screenshot: Any) -> None:
    name = f"enrol{uuid.uuid4().hex[:6]}"
    store.accounts.register(name, PASSWORD, role="security")
    page = new_page()
    page.probe.allow(403)  # the first login answers enrolment_required (the browser logs the 403 itself)
    page.goto(f"{live_server.url}/operator.html")
    page.fill("[data-testid='op-login-username']", name)
    page.fill("[data-testid='op-login-password']", PASSWORD)
    page.click("[data-testid='op-login-submit']")
    page.wait_for_selector("[data-testid='enrol-qr']")
    assert page.evaluate("document.querySelector(\"[data-testid='enrol-qr']\").naturalWidth") > 50  # it rendered
    secret = page.locator("[data-testid='enrol-secret']").inner_text()
    screenshot(page, "operator-enrol-qr")
    page.fill("[data-testid='enrol-code']", pyotp.TOTP(secret).now())
    page.click("[data-testid='enrol-submit']")
    page.wait_for_selector("[data-testid='recovery-codes'] li")
    codes = page.locator("[data-testid='recovery-codes'] li").all_inner_texts()
    assert len(codes) == 10 and len(set(codes)) == 10
    page.click("[data-testid='enrol-continue']")
    page.fill("[data-testid='op-login-username']", name)
    page.fill("[data-testid='op-login-password']", PASSWORD)
    page.fill("[data-testid='op-login-code']", codes[0])
    page.click("[data-testid='op-login-submit']")
    page.wait_for_selector("[data-testid='flag-status']")
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["rb_staff"]["httpOnly"] and "rb_session" not in cookies  # the console's own session
    info = store.accounts.by_username(name)
    assert info is not None
    actions = [e.action for e in store.integrity.audit_log(20, info.id)]
    assert {"2fa_enrolled", "recovery_code_used", "staff_login", "staff_login_failed"} <= set(actions)
    assert page.probe.csp_violations == []


def test_player_sessions_password_and_reset_code_in_the_page_issue_35(new_page: Any, live_server: Any,
                                                                        store: Store, screenshot: Any) -> None:
    base = live_server.url
    name = f"acct{uuid.uuid4().hex[:8]}"
    page = new_page()
    page.goto(f"{base}/#/register")
    page.fill("[data-testid='register-username']", name)
    page.fill("[data-testid='register-password']", PASSWORD)
    page.fill("[data-testid='register-password2']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")
    elsewhere = httpx.post(f"{base}/api/login", json={"username": name, "password": PASSWORD}).json()["token"]
    page.goto(f"{base}/#/account")
    page.wait_for_selector("[data-testid='session-row']")
    assert page.locator("[data-testid='session-row']").count() == 2
    screenshot(page, "account-sessions")
    page.click("[data-testid='logout-others']")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='session-row']\").length === 1")
    assert httpx.get(f"{base}/api/me", headers={"Authorization": f"Bearer {elsewhere}"}).status_code == 401
    page.probe.allow(403)
    page.fill("[data-testid='password-old']", "not my password")
    page.fill("[data-testid='password-new']", "a new password 1")
    page.click("[data-testid='password-submit']")
    page.wait_for_selector("[data-testid='password-error']:not(:empty)")
    assert "current password is wrong" in page.locator("[data-testid='password-error']").inner_text()
    page.fill("[data-testid='password-old']", PASSWORD)
    page.fill("[data-testid='password-new']", "a new password 1")
    page.click("[data-testid='password-submit']")
    page.wait_for_selector("[data-testid='security-ok']:has-text('Password changed')")
    relogin = httpx.post(f"{base}/api/login", json={"username": name, "password": "a new password 1"})
    assert relogin.status_code == 200, (relogin.text, page.locator("[data-testid='security-ok']").inner_text())
    # a lost password: staff issue a one-time code, the player sets a new password on #/reset
    staff = store.accounts.register(f"desk{uuid.uuid4().hex[:6]}", PASSWORD, role="operator")
    player = store.accounts.by_username(name)
    assert player is not None
    code = store.security.issue_reset_code(staff.id, player.id, "caller verified").code
    page.probe.allow(401)  # the reset logs the first page out too: its next call is refused (expected)
    reset = new_page()
    reset.goto(f"{base}/#/login")
    reset.click("[data-testid='reset-link']")
    reset.fill("[data-testid='reset-username']", name)
    reset.fill("[data-testid='reset-code']", code)
    reset.fill("[data-testid='reset-password']", "a new password 2")
    reset.click("[data-testid='reset-submit']")
    reset.wait_for_selector("[data-testid='login-username']")
    assert httpx.post(f"{base}/api/login", json={"username": name, "password": "a new password 2"}).status_code == 200
    assert page.probe.csp_violations == [] and reset.probe.csp_violations == []
