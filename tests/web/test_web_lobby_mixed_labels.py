"""Issue #31 item 9 (labels) in the real lobby view, fed from tests/web/harness/fixtures/lobby_mixed.json:

- the 8-Game row lists its rotation with each game's structure (Hold'em twice: Fixed and No Limit, R-8GAME), says
  "Mixed limits" rather than the structure of the game dealt now, marks the game dealt now and names the next one
  (the "next game" marker);
- HORSE lists its five games; the stakes of a mixed table name the ante as the stud rounds' (R-STUD-1);
- a Sit & Go series whose finished Sit & Go and its successor share a name shows each with its number;
- every Sit & Go row shows its starting stack with the thousands separator (item 5).
"""

from __future__ import annotations

from typing import Any

DESKTOP = {"width": 1366, "height": 768}


def _lobby(new_page: Any, static_url: str) -> Any:
    page = new_page(DESKTOP)
    page.goto(f"{static_url}/harness/lobby.html?fixture=lobby_mixed&player=7")
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_issue_31_mixed_rows_name_structures_the_game_now_and_the_next_game(new_page: Any, static_url: str) -> None:
    page = _lobby(new_page, static_url)
    eight = page.locator("tr[data-table='t16']")
    rotation = eight.locator("[data-testid='rotation']").inner_text()
    assert "Texas Hold'em FL" in rotation and "Texas Hold'em NL" in rotation and "Omaha PL" in rotation
    assert eight.locator(".rotation-now").inner_text() == "Texas Hold'em NL"
    assert eight.locator("[data-testid='next-game']").inner_text() == "Next game: Omaha PL"
    assert "Mixed limits" in eight.inner_text()
    horse = page.locator("tr[data-table='t15']")
    assert horse.locator("[data-testid='next-game']").inner_text() == "Next game: Razz FL"
    assert "stud" in horse.locator("[data-testid='lobby-stakes']").inner_text().lower()


def test_issue_31_a_sit_and_go_series_numbers_its_rows_and_shows_the_starting_stack(
    new_page: Any, static_url: str, screenshot: Any,
) -> None:
    page = _lobby(new_page, static_url)
    page.click("[data-tab='sng']")
    names = page.locator("[data-testid='tournaments'] tbody tr td:first-child a").all_inner_texts()
    assert names == ["Demo Sit & Go 6 #1", "Demo Sit & Go 6 #2"]
    stacks = page.locator("[data-testid='starting-stack']").all_inner_texts()
    assert stacks == ["Starting stack 1,500", "Starting stack 1,500"]
    screenshot(page, "lobby_sng_series")


def test_issue_31_the_mixed_rows_fit_a_phone(new_page: Any, static_url: str, screenshot: Any) -> None:
    """At 390x844 the lobby with the rotation lines and the next-game marker does not scroll sideways."""
    page = new_page({"width": 390, "height": 844})
    page.goto(f"{static_url}/harness/lobby.html?fixture=lobby_mixed&player=7")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("tr[data-table='t16'] [data-testid='next-game']").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    screenshot(page, "lobby_mixed_phone")
