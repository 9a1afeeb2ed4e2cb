"""Issue 31 "A phone": the lobby, one table and the cashier at 390x844, measured with bounding boxes: no sideways
scrolling, every visible touch target (button, tab, field, slider, link button) at least 40 px each way, the
table's Fold / Call / Raise on the screen at its bottom without scrolling, the cards big enough to read. The lobby
and the table are fixture-rendered (tests/web/harness); the cashier is a real server's page."""

from __future__ import annotations

import uuid
from typing import Any

PHONE = {"width": 390, "height": 844}
MIN_TARGET = 40

SMALL_TARGETS = """() => [...document.querySelectorAll(
    "button, input:not([type=checkbox]):not([type=radio]), select, summary, .btn, [role=button], .topnav a, .user-box a")]
  .filter((e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && (r.width < MIN || r.height < MIN); })
  .map((e) => { const r = e.getBoundingClientRect();
    return `${e.tagName.toLowerCase()}[${e.dataset.testid || e.className}] "${(e.textContent || e.value || "").trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`; })""".replace("MIN", str(MIN_TARGET))


def assert_phone_fit(page: Any, what: str) -> None:
    """No sideways scrolling and no touch target under 40 px."""
    width = page.evaluate("document.scrollingElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
        .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}.${e.className}[${e.dataset.testid || (e.parentElement && e.parentElement.className)}] ${Math.round(e.getBoundingClientRect().right)}`)""")
    assert width <= PHONE["width"], f"{what}: the page is {width} px wide: it scrolls sideways: {wide}"
    assert page.evaluate(SMALL_TARGETS) == [], f"{what}: touch targets under {MIN_TARGET} px"


def box(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }")


def test_issue_31_phone_lobby_fits_and_has_touch_targets(new_page: Any, static_url: str, screenshot: Any) -> None:
    """Issue 31: the lobby (cash tab with its filters and Open / Watch buttons) on a 390x844 phone."""
    page = new_page(PHONE)
    page.goto(f"{static_url}/harness/lobby.html?fixture=lobby")
    page.wait_for_selector("body[data-ready='1']")
    screenshot(page, "issue31_phone_lobby")
    assert page.locator("[data-testid^='open-']").count() >= 2
    assert_phone_fit(page, "lobby")


def test_issue_31_phone_table_is_playable(new_page: Any, static_url: str, screenshot: Any) -> None:
    """Issue 31: a No-Limit decision at a table on a 390x844 phone: Fold / Call / Raise, the pot buttons, the
    slider's steps and the amount are 40 px touch targets, lie on the screen in its lower half (in thumb's reach)
    without scrolling, the player's cards are at least 40 px wide and the board's at least 28 px."""
    page = new_page(PHONE)
    page.goto(f"{static_url}/harness/table.html?fixture=holdem_action&host=route")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("document.documentElement.classList.add('no-anim')")
    screenshot(page, "issue31_phone_table")
    assert_phone_fit(page, "table")
    controls = page.eval_on_selector_all(".action-bar button, .action-bar input",
                                         "es => es.map(e => { const r = e.getBoundingClientRect(); return {y: r.y, b: r.bottom, h: r.height}; })")
    assert len(controls) >= 10
    for control in controls:
        assert PHONE["height"] / 2 <= control["y"] and control["b"] <= PHONE["height"], f"{control} not in the lower half of the screen"
    for action in ("fold", "call", "raise"):
        button = box(page, f"button[data-action='{action}']")
        assert button["h"] >= MIN_TARGET and button["w"] >= 80, (action, button)
    hero = page.eval_on_selector_all(".seat--hero .seat-cards .card", "es => es.map(e => e.getBoundingClientRect().width)")
    board = page.eval_on_selector_all("[data-testid='board'] .card", "es => es.map(e => e.getBoundingClientRect().width)")
    assert len(hero) == 2 and min(hero) >= 40, hero
    assert len(board) == 3 and min(board) >= 28, board


def test_issue_31_phone_cashier_fits_and_has_touch_targets(new_page: Any, live_server: Any, screenshot: Any) -> None:
    """Issue 31: the cashier of a real server, reached after registering, on a 390x844 phone."""
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/#/register")
    page.fill("[data-testid='register-username']", f"phone{uuid.uuid4().hex[:8]}")
    page.fill("[data-testid='register-password']", "correct horse battery")
    page.fill("[data-testid='register-password2']", "correct horse battery")
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")
    page.goto(f"{live_server.url}/#/cashier")
    page.locator("[data-testid='movements'] tbody tr").first.wait_for()
    screenshot(page, "issue31_phone_cashier")
    assert_phone_fit(page, "cashier")
