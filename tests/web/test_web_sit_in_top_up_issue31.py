"""Issue 31 item 4: "Sit in" with no chips on the table offers the top-up (it gave "That amount is not possible
here."), on the app's table page (table_page.js) drawn by tests/web/harness/table_page.html."""

from __future__ import annotations

from typing import Any

BUST = """() => { const s = window.__store; const hero = s.model.seats.find((x) => x.isHero);
  hero.stack = 0; hero.sittingOut = true; s.notify(); }"""


def test_issue_31_item_4_sit_in_with_no_chips_offers_the_top_up(new_page: Any, static_url: str) -> None:
    """The player has 0 chips and sits out: Sit in opens the top-up dialog with the reason; topping up 5.00 sends
    top_up (500) and then sit_in, in that order; cancelling the dialog sends nothing."""
    page = new_page({"width": 1366, "height": 768})
    page.goto(f"{static_url}/harness/table_page.html?fixture=holdem_action")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate(BUST)
    page.click("[data-testid='sit-in']")
    dialog = page.locator("[data-testid='amount-dialog']")
    dialog.wait_for()
    assert "You have no chips on this table: top up to sit in." in dialog.inner_text()
    page.click("[data-testid='amount-cancel']")
    assert page.evaluate("window.__sent") == []
    page.click("[data-testid='sit-in']")
    page.fill("[data-testid='amount-input']", "5.00")
    page.click("[data-testid='amount-ok']")
    page.wait_for_function("window.__sent.length === 2")
    sent = page.evaluate("window.__sent")
    assert [m["type"] for m in sent] == ["top_up", "sit_in"], sent
    assert sent[0]["amount"] == 500 and sent[0]["table"] == "t1"
