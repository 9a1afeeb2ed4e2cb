"""Against a real server: a taken username is refused in the register form with the server's clear 409 message
(server finding 4), and the cashier pages back through older money movements (store.movements, server finding 3).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from argon2 import PasswordHasher

from riverboat.store import Store

PASSWORD = "correct horse battery"
START_CHIPS = 1_000_000  # riverboat serve --signup-play-chips default


def _register(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/#/register")
    page.fill("[data-testid='register-username']", username)
    page.fill("[data-testid='register-password']", PASSWORD)
    page.fill("[data-testid='register-password2']", PASSWORD)
    page.click("form button[type='submit']")


def test_taken_username_is_refused_with_a_clear_message(new_page: Any, live_server: Any) -> None:
    name = f"taken{uuid.uuid4().hex[:8]}"
    page = new_page()
    _register(page, live_server.url, name)
    page.wait_for_selector("[data-testid='lobby']")
    page.click("[data-testid='login-link']")  # log out
    page.wait_for_selector("[data-testid='login-link']:text('Log in')")
    page.probe.allow(409)  # the refused registration is an expected HTTP 409, shown as a form error
    _register(page, live_server.url, name.upper())  # usernames are unique ignoring case
    error = page.locator("[data-testid='form-error']:not(:empty)")
    error.wait_for()
    assert "taken" in error.inner_text() and "choose another username" in error.inner_text()
    assert page.locator("[data-testid='user-name']").inner_text() == ""  # nobody logged in


def test_log_out_is_not_undone_by_a_profile_read_answered_after_it(new_page: Any, live_server: Any) -> None:
    """A profile read (GET /api/me) that the server answered while the player was still logged in, but whose answer
    reaches the page only after Log out, must not log the page back in. CI at b6e9c34 caught this: the socket's
    reconnect after login started such a read, Log out landed first, and the header kept the player's name."""
    name = f"late{uuid.uuid4().hex[:8]}"
    page = new_page()
    _register(page, live_server.url, name)
    page.wait_for_selector("[data-testid='login-link'][href='#/logout']")
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append((route, route.fetch()))  # the server answers now, with the player still logged in

    page.route("**/api/me", hold)
    page.evaluate("() => { import('./js/session.js').then((m) => { m.session.refresh(); }); }")
    deadline = 200
    while not held and deadline:
        page.wait_for_timeout(50)
        deadline -= 1
    assert held, "the page did not read its profile"
    route, response = held[0]
    assert response.status == 200
    page.click("[data-testid='login-link']")  # log out
    page.wait_for_selector("[data-testid='login-link'][href='#/login']")
    route.fulfill(response=response)  # the late answer arrives
    page.unroute("**/api/me")
    page.wait_for_timeout(500)
    assert page.locator("[data-testid='login-link']").get_attribute("href") == "#/login"
    assert page.locator("[data-testid='user-name']").inner_text() == ""


def test_r_wallet_cashier_shows_older_movements_page_by_page(new_page: Any, live_server: Any) -> None:
    name = f"pages{uuid.uuid4().hex[:8]}"
    page = new_page()
    _register(page, live_server.url, name)
    page.wait_for_selector("[data-testid='lobby']")
    # 30 more movements straight into the server's database (the cashier shows 25 per page)
    store = Store(f"sqlite:///{live_server.log_path.parent / 'riverboat.sqlite3'}",
                  password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    try:
        info = store.accounts.by_username(name)
        assert info is not None
        for k in range(1, 31):
            store.ledger.deposit(info.id, "PLAY", k, f"test-page-{info.id}-{k}")
    finally:
        store.dispose()
    page.goto(f"{live_server.url}/#/cashier")
    rows = page.locator("[data-testid='movements'] tbody tr")
    rows.first.wait_for()
    assert rows.count() == 25

    def amounts() -> list[int]:
        return [int(re.sub(r"[^0-9-]", "", t)) for t in
                page.locator("[data-testid='movements'] tbody tr td:nth-child(4)").all_inner_texts()]

    assert amounts() == list(range(30, 5, -1))  # newest first
    page.click("[data-testid='older-movements']")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='movements'] tbody tr\").length === 31")
    assert amounts() == [*range(30, 0, -1), START_CHIPS]  # then the oldest: the sign-up chips
    assert page.locator("[data-testid='older-movements']").count() == 0  # nothing older
    assert page.locator("[data-testid='balance-PLAY']").inner_text() == f"{START_CHIPS + sum(range(31)):,}"
    times = page.locator("[data-testid='movements'] tbody tr td:nth-child(1)").all_inner_texts()
    # dates in the page's locale through Intl (issue #32): English is written the European way (en-GB), DD/MM/YYYY, HH:MM
    assert all(re.fullmatch(r"\d\d/\d\d/\d{4}, \d\d:\d\d", t) for t in times), times[:3]


def test_register_form_explains_a_bad_username_or_password_before_asking_the_server(new_page: Any,
                                                                                      live_server: Any) -> None:
    page = new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/api/register" in r.url else None)
    for username, password, words in (("two words", PASSWORD, "no spaces"), ("ab", PASSWORD, "3 to 32"),
                                      (f"ok{uuid.uuid4().hex[:6]}", "short", "at least 8")):
        page.goto(f"{live_server.url}/#/register")
        page.fill("[data-testid='register-username']", username)
        page.fill("[data-testid='register-password']", password)
        page.fill("[data-testid='register-password2']", password)
        page.click("form button[type='submit']")
        error = page.locator("[data-testid='form-error']:not(:empty)")
        error.wait_for()
        assert words in error.inner_text()
    assert requests == []  # refused in the form: nothing was sent
