"""Lobby tabs with nothing in them (issue #5 polish): today's server lists cash tables and Speed Poker pools only
(``GET /api/lobby`` -> ``{"tables", "pools"}``), so the Sit & Go, tournament and Twister tabs must say plainly that
nothing is scheduled -- no empty filter boxes, no empty table, no made-up rows -- and point to what is there.
Uses the lobby harness (the real lobby view, /api/lobby stubbed from a fixture)."""

from __future__ import annotations

from typing import Any

import pytest

PHONE = {"width": 390, "height": 844}


def open_lobby(new_page: Any, static_url: str, fixture: str, viewport: dict[str, int] | None = None,
               player: int | None = None) -> Any:
    page = new_page(viewport) if viewport else new_page()
    page.goto(f"{static_url}/harness/lobby.html?fixture={fixture}" + (f"&player={player}" if player else ""))
    page.wait_for_selector("body[data-ready='1']")
    return page


@pytest.mark.parametrize(("tab", "what"), [("sng", "Sit & Go tournaments"), ("tournaments", "tournaments"),
                                          ("twister", "Twister tournaments")])
def test_empty_tournament_tab_says_nothing_is_scheduled(new_page: Any, static_url: str, tab: str, what: str) -> None:
    page = open_lobby(new_page, static_url, "lobby_cash_only")
    page.click(f"[data-tab='{tab}']")
    empty = page.locator("[data-testid='empty-tab']")
    assert empty.is_visible()
    assert empty.locator("h2").inner_text() == f"No {what} are scheduled on this server yet"
    assert "buy-in and entry fee" in empty.inner_text()
    # no broken-looking pieces: no filter boxes with nothing to choose, no empty list, no invented rows
    assert page.locator(".filters").count() == 0
    assert page.locator("[data-testid='tournaments']").count() == 0
    assert page.locator("[aria-selected='true']").get_attribute("data-tab") == tab
    # it points to what the server does run
    page.click("[data-testid='go-speed']")
    assert "Speed Riga" in page.locator("[data-testid='speed-pools']").inner_text()
    page.click(f"[data-tab='{tab}']")
    page.click("[data-testid='go-cash']")
    assert page.locator("[data-testid='cash-tables'] tbody tr").count() == 3


def test_empty_tab_is_readable_at_phone_width(new_page: Any, static_url: str, screenshot: Any) -> None:
    page = open_lobby(new_page, static_url, "lobby_cash_only", PHONE)
    page.click("[data-tab='twister']")
    box = page.locator("[data-testid='empty-tab']").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5
    screenshot(page, "lobby_empty_twister_phone")


def test_tabs_with_tournaments_still_list_them_and_a_filter_with_no_match_can_be_cleared(new_page: Any,
                                                                                     static_url: str) -> None:
    """When the server lists tournaments the tab shows them (R-FEE-1 breakdown elsewhere); a filter that leaves
    nothing says so and offers to clear it, instead of an empty panel."""
    page = open_lobby(new_page, static_url, "lobby")
    page.click("[data-tab='sng']")
    assert page.locator("[data-testid='empty-tab']").count() == 0
    assert "Turbo 6-max" in page.locator("[data-testid='tournaments']").inner_text()
    page.click("[data-tab='cash']")
    page.select_option("select[data-filter='game']", "stud")
    page.click("[data-tab='speed']")  # the game filter (stud) matches no Speed Poker pool
    assert page.locator("[data-testid='no-match']").inner_text().startswith("Nothing here matches these filters.")
    page.click("[data-testid='clear-filters']")
    assert "Speed Riga" in page.locator("[data-testid='speed-pools']").inner_text()


@pytest.mark.parametrize("tab", ["sng", "tournaments"])
def test_tournament_tabs_fit_a_phone_without_scrolling_sideways(new_page: Any, static_url: str, screenshot: Any,
                                                                tab: str) -> None:
    """Found by the outside walk (2026-12-03): at 390 px the Sit & Go and Tournaments lists were 520-560 px wide
    (seven columns plus the Register button), so the page scrolled sideways and Register was off the screen; the
    cash list already hides its secondary columns on a phone."""
    page = open_lobby(new_page, static_url, "lobby_tournaments", PHONE, player=7)
    page.click(f"[data-tab='{tab}']")
    rows = page.locator("[data-testid='tournaments'] tbody tr")
    rows.first.wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px"
    box = page.locator("[data-testid='tournaments']").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    for i in range(rows.count()):  # every row's name, game, buy-in and players are still there, and Register
        cells = rows.nth(i).locator("td:visible")
        assert cells.count() >= 4
    button = page.locator("button[data-testid^='register-']").first
    box = button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    screenshot(page, f"lobby_{tab}_phone")
