"""Issue #31 ("A phone": one table playable at 390x844, cards readable, the action bar in thumb's reach), at a real
server's table under the site's header (the fixture-rendered table of test_web_phone_issue31.py has no header
above it): when the player's turn comes, their own seat -- cards, name, stack -- is on the screen above the action
bar, not under it, and Fold / Call / Raise are on the screen too."""

from __future__ import annotations

from typing import Any

from tests.web.test_web_live_play import register, sit_down

PHONE = {"width": 390, "height": 844}


def _box(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); "
                                           "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }")


def test_issue_31_phone_turn_shows_the_hero_above_the_action_bar(new_page: Any, live_server: Any,
                                                                 calling_bots: Any, screenshot: Any) -> None:
    page = new_page(PHONE)
    register(page, live_server.url)
    table_id, seat, buy_in = sit_down(page, live_server, "WebPhone", post_now=True, amount=4000)
    calling_bots.seat(table_id, [s for s in (1, 2, 3) if s != seat][:2], buy_in)
    page.locator(".action-bar button[data-action]:enabled").first.wait_for(timeout=30_000)
    page.wait_for_timeout(150)
    screenshot(page, "issue31_phone_live_turn")
    bar = _box(page, "[data-testid='action-area']")
    hero = _box(page, f"[data-testid='seat-{seat}']")
    cards = page.eval_on_selector_all(f"[data-testid='cards-{seat}'] .card",
                                      "cs => cs.map(c => { const r = c.getBoundingClientRect(); "
                                      "return {top: r.top, bottom: r.bottom, w: r.width}; })")
    assert len(cards) == 2 and min(c["w"] for c in cards) >= 40, cards
    for part in [hero, *cards]:  # the seat and each card wholly on the screen, above the bar
        assert part["top"] >= 0 and part["bottom"] <= bar["top"] + 0.5, (part, bar)
    for action in ("fold", "call", "check", "raise", "bet"):
        if page.locator(f".action-bar button[data-action='{action}']").count():
            b = _box(page, f".action-bar button[data-action='{action}']")
            assert b["top"] >= PHONE["height"] / 2 and b["bottom"] <= PHONE["height"] + 0.5, (action, b)
