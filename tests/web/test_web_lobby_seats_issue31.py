"""Issue #31 ("What to add", lobby): filters by game, stakes **and seats** -- the cash tab's table-size filter
(heads-up: 2 seats, 6-max: 3 to 6, full ring: 7 and more) on a real server's lobby, at 1366x768 and on a
390x844 phone, checked against the server's own lobby list."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.web.test_web_phone_issue31 import assert_phone_fit

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
CLASSES = {"hu": lambda n: n == 2, "short": lambda n: 3 <= n <= 6, "full": lambda n: n >= 7}


def _listed(page: Any) -> dict[str, str]:
    """table id -> its seats cell ("1/6", without a waiting-list line) of every row the cash tab lists."""
    return page.eval_on_selector_all(
        "[data-testid='cash-tables'] tbody tr[data-table]",
        "rows => Object.fromEntries(rows.map(r => [r.dataset.table, r.querySelector(\"[data-testid='seats']\").firstChild.textContent]))")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_issue_31_lobby_filters_tables_by_seats(new_page: Any, live_server: Any, screenshot: Any,
                                                viewport: dict[str, int]) -> None:
    lobby = httpx.get(f"{live_server.url}/api/lobby", timeout=5).json()
    cash = {t["id"]: int(t["max_seats"]) for t in lobby["tables"] if not t.get("tournament")}
    want = {c: {tid for tid, n in cash.items() if fits(n)} for c, fits in CLASSES.items()}
    assert all(want.values()), f"the live tables hold every size class: {want}"
    page = new_page(viewport)
    page.goto(f"{live_server.url}/#/lobby")
    page.wait_for_selector("[data-testid='cash-tables']")
    seats = page.locator("select[data-filter='seats']")
    options = seats.locator("option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
    assert options == [["", "All table sizes"], ["hu", "Heads-up (2)"], ["short", "6-max (3–6)"],
                       ["full", "Full ring (7+)"]]
    for size, ids in want.items():
        seats.select_option(size)
        page.wait_for_function(f"document.querySelectorAll(\"[data-testid='cash-tables'] tbody tr[data-table]\")"
                               f".length === {len(ids)}")
        listed = _listed(page)
        assert set(listed) == ids, size
        for tid, cell in listed.items():  # the row's own "taken/seats" says the same size
            assert CLASSES[size](int(cell.split("/")[1])), (tid, cell)
        for tid in listed:
            assert CLASSES[size](cash[tid]), (size, tid, cash[tid])
        if size == "hu" and viewport is PHONE:
            screenshot(page, "issue31_phone_lobby_seats_hu")
            assert_phone_fit(page, "lobby with the seats filter")
    # the size filter combines with the others: heads-up hold'em only, then back to every table
    page.locator("select[data-filter='game']").select_option("holdem")
    seats.select_option("hu")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='cash-tables'] tbody tr[data-table]\").length > 0")
    hu_holdem = {tid for tid in want["hu"]
                 if next(t for t in lobby["tables"] if t["id"] == tid).get("game") == "holdem"
                 and not next(t for t in lobby["tables"] if t["id"] == tid).get("mixed")}
    assert set(_listed(page)) == hu_holdem
    seats.select_option("")
    page.locator("select[data-filter='game']").select_option("")
    page.wait_for_function(f"document.querySelectorAll(\"[data-testid='cash-tables'] tbody tr[data-table]\")"
                           f".length === {len(cash)}")
