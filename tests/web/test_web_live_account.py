"""Account screens against a real ``riverboat serve``: register, log out and in, alias change once with the rules
shown (R-ALIAS), the cashier balance and movements, the lobby with its tabs and filters, and no console errors."""

from __future__ import annotations

import re
import uuid
from typing import Any

from .conftest import LIVE_TABLES

PASSWORD = "correct horse battery"


def register(page: Any, base: str) -> str:
    username = f"acct{uuid.uuid4().hex[:10]}"
    page.goto(f"{base}/#/register")
    page.fill("[data-testid='register-username']", username)
    page.fill("[data-testid='register-password']", PASSWORD)
    page.fill("[data-testid='register-password2']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby'] [data-testid='cash-tables']")
    return username


def test_register_logout_login_and_cashier_shows_signup_chips(new_page: Any, live_server: Any) -> None:
    """A new account sees its play-money balance in the top bar and in the cashier (with the deposit movement);
    logging out and in again with the same credentials restores the session; a wrong password is refused with a
    clear message and logs nobody in."""
    page = new_page()
    username = register(page, live_server.url)
    assert page.locator("[data-testid='user-balance']").inner_text().endswith("1,000,000")
    page.goto(f"{live_server.url}/#/cashier")
    assert page.locator("[data-testid='balance-PLAY']").inner_text() == "1,000,000"
    page.locator("[data-testid='movements'] tbody tr").first.wait_for()  # the statement loads after the balances
    assert page.locator("[data-testid='movements'] tbody tr").count() >= 1
    alias = page.locator("[data-testid='user-name']").inner_text()
    assert alias

    page.click("[data-testid='login-link']")  # "Log out"
    page.wait_for_selector("[data-testid='login-link']:text('Log in')")
    page.goto(f"{live_server.url}/#/login")
    page.fill("[data-testid='login-username']", username)
    page.probe.allow(401)  # the refused login is an expected HTTP 401, shown to the user as a form error
    page.fill("[data-testid='login-password']", "wrong password!")
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='form-error']:not(:empty)")
    assert page.locator("[data-testid='user-name']").inner_text() == ""
    page.fill("[data-testid='login-password']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")
    assert page.locator("[data-testid='user-name']").inner_text() == alias


def test_r_alias_2_alias_changes_once_with_rules_shown(new_page: Any, live_server: Any) -> None:
    """R-ALIAS-5: a bad alias is refused in the form and changes nothing; R-ALIAS-2: one change is accepted, after
    which the form is locked."""
    page = new_page()
    register(page, live_server.url)
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{live_server.url}/#/account")
    rules = page.locator("[data-testid='alias-rules']").inner_text()
    assert "once" in rules and "4 to 16" in rules
    before = page.locator("[data-testid='current-alias']").inner_text()
    page.fill("[data-testid='alias-input']", "no!")
    page.click("[data-testid='alias-submit']")
    assert "4 to 16" in page.locator("[data-testid='alias-error']").inner_text()
    assert page.locator("[data-testid='current-alias']").inner_text() == before
    new_alias = f"Web{uuid.uuid4().hex[:8]}"
    page.fill("[data-testid='alias-input']", new_alias)
    page.click("[data-testid='alias-submit']")
    page.wait_for_selector(f"[data-testid='current-alias']:text('{new_alias}')")
    assert page.locator("[data-testid='user-name']").inner_text() == new_alias
    assert page.locator("[data-testid='alias-submit']").is_disabled()
    assert page.locator("[data-testid='alias-locked']").count() == 1


def test_lobby_tabs_filters_and_seats(new_page: Any, live_server: Any, screenshot: Any, viewports: dict[str, Any]) -> None:
    """The lobby lists the cash tables with game, limit, stakes and seats taken; the game filter narrows the list;
    the other tabs (Speed Poker, Sit & Go, tournaments, Twister) exist. Works without logging in."""
    page = new_page()
    page.goto(f"{live_server.url}/#/lobby")
    page.wait_for_selector("[data-testid='cash-tables']")
    rows = page.locator("[data-testid='cash-tables'] tbody tr")
    # conftest LIVE_TABLES: the cash tables (the Speed Poker pool is on its own tab)
    assert rows.count() == len([t for t in LIVE_TABLES if not t.get("speed")])
    assert all(re.fullmatch(r"\d+/\d+", s) for s in page.locator("[data-testid='seats']").all_inner_texts())
    page.select_option("select[data-filter='game']", "stud")
    assert page.locator("[data-testid='cash-tables'] tbody tr").all_inner_texts()[0].startswith("WebStud")
    assert page.locator("[data-testid='cash-tables'] tbody tr").count() == len(
        [t for t in LIVE_TABLES if t.get("game") == "stud" and not t.get("speed")])
    tabs = page.locator("[role='tab']").all_inner_texts()
    assert tabs == ["Cash games", "Speed Poker", "Sit & Go", "Tournaments", "Twister"]
    page.click("[data-tab='sng']")
    assert page.locator(".empty-note").count() == 1
    phone = new_page(viewports["phone"])
    phone.goto(f"{live_server.url}/#/lobby")
    phone.wait_for_selector("[data-testid='cash-tables']")
    screenshot(phone, "lobby_phone")
    open_button = phone.locator("[data-testid='cash-tables'] tbody tr button[data-testid^='open-']").first.bounding_box()
    assert open_button is not None and open_button["x"] + open_button["width"] <= viewports["phone"]["width"]


def test_no_console_errors_on_any_page(new_page: Any, live_server: Any) -> None:
    """Issue #6: the page logs no console errors and throws no uncaught exceptions on any screen — lobby (every
    tab), register, log in, account, cashier, hand history and a table — at desktop and phone width."""
    for viewport in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        page = new_page(viewport)
        page.goto(f"{live_server.url}/#/login")
        page.wait_for_selector("[data-testid='login-username']")
        register(page, live_server.url)
        for tab in ("speed", "sng", "tournaments", "twister", "cash"):
            page.click(f"[data-tab='{tab}']")
        for route, ready in (("account", "alias-form"), ("cashier", "balances"), ("history", "history")):
            page.goto(f"{live_server.url}/#/{route}")
            page.wait_for_selector(f"[data-testid='{ready}']")
        page.goto(f"{live_server.url}/#/lobby")
        page.locator("[data-testid='cash-tables'] tbody tr button[data-testid^='open-']").first.click()
        page.wait_for_selector("[data-testid='felt'] .seat")
        page.wait_for_timeout(500)
        assert page.probe.errors == []
