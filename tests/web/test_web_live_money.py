"""Issue #30 in Chromium against a real ``riverboat serve`` with the fake payment provider: the cashier page
(deposit through the provider's payment page, the deposit limits refused in plain words and a raised one waiting
for the cooling-off, a withdrawal asked for and cancelled, the statement filtered and exported as CSV, a time-out
that leaves only the balance and the withdrawal) and the console's money pages (the withdrawal queue approved with
a payout reference, a bank deposit credited by payment reference, an adjustment waiting for a second staff member,
the player's money page). Screenshots are written to artifacts/screenshots/ and looked at."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from riverboat.store import Store

from .conftest import SCREENSHOTS, LiveServer

PASSWORD = "correct horse battery"
TABLES = [{"name": "CashEuro", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
           "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR", "bots": 0}]


@pytest.fixture(scope="module")
def money_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("money-web")
    money = tmp / "money.json"
    money.write_text(json.dumps({"payments": {"fake": {"secret": "web-test-secret-0123456789"}},
                                 "four_eyes_above": 10_000}))
    server = LiveServer(tmp, TABLES, ["--money", str(money)])
    server.wait_ready(timeout=300)
    server.store = Store(f"sqlite:///{tmp / 'riverboat.sqlite3'}",  # type: ignore[attr-defined]
                         password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    try:
        yield server
    finally:
        server.store.dispose()  # type: ignore[attr-defined]
        server.stop()


def shot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def register(page: Any, base: str) -> str:
    name = f"cash{uuid.uuid4().hex[:8]}"
    page.goto(f"{base}/#/register")
    page.fill("[data-testid='register-username']", name)
    page.fill("[data-testid='register-password']", PASSWORD)
    page.fill("[data-testid='register-password2']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")
    return name


def test_issue30_cashier_page_deposit_limits_withdraw_statement(new_page: Any, money_server: LiveServer) -> None:
    """Issue #30: the player's whole cashier in the browser; the balances and statement match the ledger."""
    store = money_server.store  # type: ignore[attr-defined]
    base = money_server.url
    page = new_page()
    name = register(page, base)
    pid = store.accounts.by_username(name).id
    page.goto(f"{base}/#/cashier")
    ref = page.locator("[data-testid='payment-reference']")
    ref.wait_for()
    assert ref.inner_text().startswith(f"RB-{pid}-")
    assert "verified account" in page.locator("[data-testid='not-verified']").inner_text()

    # a deposit of 50.00 through the fake provider's payment page
    page.fill("[data-testid='deposit-amount']", "50.00")
    page.click("[data-testid='deposit-submit']")
    page.wait_for_selector("#fakepay-pay")
    assert "50.00 EUR" in page.inner_text("body")
    shot(page, "money-fakepay-checkout")
    page.click("#fakepay-pay")
    page.wait_for_selector("[data-testid='deposit-outcome']")
    assert page.locator("[data-testid='balance-EUR']").inner_text() == "€50.00"
    assert store.ledger.balance(pid, "EUR") == 5_000

    # deposit limits: a daily limit of 60.00 at once; a deposit over it refused in plain words; raising waits
    page.fill("[data-testid='limit-day']", "60.00")
    page.click("[data-testid='limit-save-day']")
    page.wait_for_function("document.querySelector(\"[data-testid='limit-now-day']\").textContent === '€60.00'")
    page.probe.allow(409)
    page.fill("[data-testid='deposit-amount']", "20.00")
    page.click("[data-testid='deposit-submit']")
    error = page.locator("[data-testid='deposit-error']:not(:empty)")
    error.wait_for()
    assert "daily deposit limit of 60.00 EUR" in error.inner_text()
    assert "you can deposit at most 10.00 EUR now" in error.inner_text()
    page.fill("[data-testid='limit-day']", "500.00")
    page.click("[data-testid='limit-save-day']")
    page.wait_for_function("document.querySelector(\"[data-testid='limit-pending-day']\").textContent.includes('€500.00')")
    assert page.locator("[data-testid='limit-now-day']").inner_text() == "€60.00"
    shot(page, "money-cashier-limits")

    # a withdrawal (verified by staff first): pending, cancelled, asked again
    staff = store.accounts.register(f"st{uuid.uuid4().hex[:6]}", PASSWORD, role="operator")
    store.withdrawals.set_verified(staff.id, pid, True, "passport checked")
    page.reload()
    page.fill("[data-testid='withdraw-amount']", "20.00")
    page.click("[data-testid='withdraw-submit']")
    page.wait_for_selector("[data-testid='withdrawal-row'][data-status='pending']")
    assert page.locator("[data-testid='balance-EUR']").inner_text() == "€30.00"
    page.click("[data-testid='withdrawal-cancel']")
    page.wait_for_selector("[data-testid='withdrawal-row'][data-status='cancelled']")
    page.fill("[data-testid='withdraw-amount']", "12.50")
    page.click("[data-testid='withdraw-submit']")
    page.wait_for_selector("[data-testid='withdrawal-row'][data-status='pending']")
    assert store.ledger.balance(pid, "EUR") == 3_750

    # the statement: every movement, filtered by kind, exported as CSV
    rows = page.locator("[data-testid='statement'] [data-testid='movement-kind']")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='statement'] tbody tr\").length === 5")
    assert rows.all_inner_texts() == ["Withdrawal (pending)", "Withdrawal returned", "Withdrawal (pending)",
                                      "Deposit", "Deposit"]  # the last one: the sign-up play money
    page.select_option("[data-testid='statement-kind']", "deposit")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='statement'] tbody tr\").length === 2")
    with page.expect_download() as download:
        page.click("[data-testid='statement-csv']")
    text = Path(download.value.path()).read_text()
    assert text.splitlines()[0] == "transaction,time,kind,currency,amount,table"
    assert [line.split(",")[2:5] for line in text.splitlines()[1:]] == [["deposit", "EUR", "5000"],
                                                                         ["deposit", "PLAY", "1000000"]]
    page.select_option("[data-testid='statement-kind']", "")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='statement'] tbody tr\").length === 5")
    shot(page, "money-cashier")

    # the reality check: every N minutes (the player's choice) the session's time and net result
    page.select_option("[data-testid='reality-minutes']", "30")
    with page.expect_response(lambda r: r.url.endswith("/api/protections/reality-check") and r.request.method == "PUT"):
        page.click("[data-testid='reality-save']")
    assert store.protections.get(pid).reality_check_minutes == 30
    page.evaluate("async () => { const m = await import('/js/cashier_view.js'); await m.showRealityCheck(); }")
    page.wait_for_selector("[data-testid='reality-check']")
    assert page.locator("[data-testid='reality-net']").inner_text() == "€0.00"
    played = page.locator("[data-testid='reality-check'] p").first.inner_text()  # the counts said as plurals
    assert re.fullmatch(r"You have played for \d+ minutes? this session \(0 hands\)\.", played), played
    shot(page, "money-reality-check")
    page.click("[data-testid='reality-continue']")

    # a time-out: the page keeps the balance and the withdrawal, not the deposit
    page.on("dialog", lambda d: d.accept())
    page.click("[data-testid='timeout-submit']")
    page.wait_for_selector("[data-testid='play-blocked']")
    assert "taking a break" in page.locator("[data-testid='play-blocked']").inner_text()
    assert page.locator("[data-testid='deposit-submit']").is_disabled()
    assert page.locator("[data-testid='withdraw-submit']").is_enabled()
    assert page.locator("[data-testid='balance-EUR']").inner_text() == "€37.50"
    shot(page, "money-cashier-timeout")
    store.ledger.verify()
    assert store.ledger.total("EUR") == 0


def test_issue30_console_money_pages(new_page: Any, money_server: LiveServer) -> None:
    """Issue #30 console: the withdrawal queue approved with a payout reference, a bank deposit credited by the
    player's payment reference (once), an adjustment above the four-eyes amount approved by a second staff member,
    the player's money page with the verification and the history of settings."""
    from riverboat.store.cashier import payment_reference

    store = money_server.store  # type: ignore[attr-defined]
    base = money_server.url
    a = store.accounts.register(f"opa{uuid.uuid4().hex[:6]}", PASSWORD, role="operator")
    b = store.accounts.register(f"opb{uuid.uuid4().hex[:6]}", PASSWORD, role="admin")
    p = store.accounts.register(f"pl{uuid.uuid4().hex[:6]}", PASSWORD).id
    # staff log in with their second factor (issue #35): a recovery code each
    codes = {s.id: store.security.set_up_second_factor(s.id).recovery_codes[0] for s in (a, b)}
    store.withdrawals.set_verified(a.id, p, True, "ID card")
    store.protections.set_limit(p, "EUR", "week", 100_000)
    store.cashier.credit_bank(p, "EUR", 8_000, f"SETUP-{p}")
    w = store.withdrawals.request(p, "EUR", 3_000, "console")
    page = new_page()
    page.goto(f"{base}/operator.html")
    page.fill("[data-testid='op-login-username']", a.username)
    page.fill("[data-testid='op-login-password']", PASSWORD)
    page.fill("[data-testid='op-login-code']", codes[a.id])
    page.click("[data-testid='op-login-submit']")
    page.wait_for_selector("[data-testid='flag-status']")  # logged in: the flags page
    page.click("[data-testid='nav-money']")
    row = page.locator(f"[data-testid='withdrawal-row']:has-text('#{w.id}')")
    row.wait_for()
    page.wait_for_load_state("networkidle")  # the queue is rendered once and for all before typing into it
    row.locator("[data-testid='payout-reference']").fill("SEPA-777")
    shot(page, "money-console-withdrawals")
    row.locator("[data-testid='approve']").click()
    # this withdrawal's row only: the cashier test left its player's withdrawal pending in the same queue
    page.wait_for_function("(() => { const r = [...document.querySelectorAll(\"[data-testid='withdrawal-row']\")]"
                           f".find(e => e.textContent.includes('#{w.id}')); return !r || r.dataset.status !== 'pending'"
                           " || document.querySelector(\"[data-testid='withdrawal-error']\").textContent; })()",
                           timeout=60_000)
    assert page.locator("[data-testid='withdrawal-error']").inner_text() == ""
    assert store.withdrawals.get(w.id).status == "paid" and store.withdrawals.get(w.id).payout_reference == "SEPA-777"

    page.click("[data-testid='money-nav-deposits']")
    page.fill("[data-testid='credit-player']", payment_reference(p))
    page.fill("[data-testid='credit-amount']", "25.00")
    page.fill("[data-testid='credit-reference']", f"BANK-{p}")
    page.click("[data-testid='credit-form-submit']")
    page.wait_for_selector("[data-testid='credit-done']")
    assert "balance €75.00" in page.locator("[data-testid='credit-done']").inner_text()
    page.fill("[data-testid='credit-player']", payment_reference(p))
    page.fill("[data-testid='credit-amount']", "25.00")
    page.fill("[data-testid='credit-reference']", f"BANK-{p}")
    page.click("[data-testid='credit-form-submit']")
    page.wait_for_selector("[data-testid='credit-done']:has-text('Already credited')")
    assert store.ledger.balance(p, "EUR") == 7_500
    shot(page, "money-console-deposits")

    page.click("[data-testid='money-nav-adjustments']")
    page.fill("[data-testid='adjust-player']", str(p))
    page.fill("[data-testid='adjust-amount']", "150.00")
    page.select_option("[data-testid='adjust-category']", "goodwill")
    page.fill("[data-testid='adjust-reason']", "table outage on Friday")
    page.click("[data-testid='adjust-form-submit']")
    page.wait_for_selector("[data-testid='adjustment-row'][data-status='pending']")
    page.probe.allow(403)
    page.click("[data-testid='adjust-approve']")  # the same staff member: refused (four eyes)
    page.wait_for_selector("[data-testid='adjustment-error']:has-text('second staff member')")
    assert store.ledger.balance(p, "EUR") == 7_500
    shot(page, "money-console-adjustments")
    page.click("[data-testid='op-logout']")
    page.fill("[data-testid='op-login-username']", b.username)
    page.fill("[data-testid='op-login-password']", PASSWORD)
    page.fill("[data-testid='op-login-code']", codes[b.id])
    page.click("[data-testid='op-login-submit']")
    page.wait_for_selector("[data-testid='flag-status']")
    page.goto(f"{base}/operator.html#/money/adjustments")
    page.click("[data-testid='adjust-approve']")
    page.wait_for_selector("[data-testid='adjustment-row'][data-status='applied']")
    assert store.ledger.balance(p, "EUR") == 22_500

    page.goto(f"{base}/operator.html#/money/player/{p}")
    page.wait_for_selector("[data-testid='player-money']")
    assert page.locator("[data-testid='player-verified']").inner_text() == "yes"
    history = page.locator("[data-testid='protection-history']").inner_text()
    assert "deposit limit" in history and "verification" in history and "ID card" in history
    shot(page, "money-console-player")
    audit = [e.action for e in store.integrity.audit_log(player_id=p)]
    assert audit[:3] == ["adjust_approve", "adjust_request", "deposit"] and "withdrawal_paid" in audit
    store.ledger.verify()
    assert store.ledger.total("EUR") == 0
