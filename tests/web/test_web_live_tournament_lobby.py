"""Against a real server (issue #11 item 8, in part): the lobby's Sit & Go tab lists a Sit & Go an operator created
over the REST API (a play-money freeroll: play money pays no fee, R-FEE-2); a player registers with the page's
Register button (the `tournament_register` frame), the row counts them, and they unregister before the start
(R-TOURN-REG-3); the row and the detail show the starting stack (issue #31 item 5). Playing a tournament table in
the page is NOT covered here."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from argon2 import PasswordHasher
from tests.store_fixtures import staff_token

from riverboat.store import Store

PASSWORD = "correct horse battery"
SNG = {"name": "Web SNG", "kind": "sng", "seats": 3, "min_entrants": 3, "added_prize": 3000, "currency": "PLAY",
       "starting_stack": 1500, "payout": "sng", "levels": [{"small_blind": 10, "big_blind": 20}]}


def test_r_tourn_reg_3_register_and_unregister_from_the_sit_and_go_tab(new_page: Any, live_server: Any) -> None:
    store = Store(f"sqlite:///{live_server.log_path.parent / 'riverboat.sqlite3'}",
                  password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    op_name = f"webop{uuid.uuid4().hex[:6]}"
    try:
        store.accounts.register(op_name, PASSWORD, role="operator")
        token = staff_token(store, op_name, PASSWORD)
    finally:
        store.dispose()
    tid = f"websng{uuid.uuid4().hex[:6]}"
    res = httpx.post(f"{live_server.url}/api/operator/tournaments", json={"spec": SNG | {"name": tid}, "id": tid},
                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert res.status_code == 201, res.text
    page = new_page()
    name = f"tplayer{uuid.uuid4().hex[:6]}"
    page.goto(f"{live_server.url}/#/register")
    page.fill("[data-testid='register-username']", name)
    page.fill("[data-testid='register-password']", PASSWORD)
    page.fill("[data-testid='register-password2']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")
    page.click("[data-tab='sng']")
    row = page.locator(f"tr[data-tournament='{tid}']")
    row.wait_for()
    assert "Freeroll" in row.inner_text() and "0/3" in row.inner_text()
    page.click(f"[data-testid='register-{tid}']")
    page.locator("[data-testid='tournament-news']:has-text('Registered')").wait_for()
    page.locator(f"tr[data-tournament='{tid}'] :text('1/3')").wait_for()
    page.locator(f"[data-testid='register-{tid}']:text('Unregister')").click()
    page.locator("[data-testid='tournament-news']:has-text('Unregistered')").wait_for()
    page.locator(f"tr[data-tournament='{tid}'] :text('0/3')").wait_for()
    # issue #31 item 5: the starting stack, in the row and in the detail, with the thousands separator
    assert row.locator("[data-testid='starting-stack']").inner_text() == "Starting stack 1,500"
    page.click(f"[data-testid='detail-{tid}']")
    page.locator("[data-fact='Starting stack']").wait_for()
    assert page.locator("[data-fact='Starting stack']").inner_text() == "1,500"
