"""Issue 31 item 8 (layout), measured with bounding boxes on fixture-rendered pages (tests/web/harness) at
1366x768: the dealer button on any seat lies on no card (a hole card or a board card) at a cash table and at a
tournament page's table (whose felt is narrower); the player's hand name is not under the action bar; four tiles
fit inside the window."""

from __future__ import annotations

from typing import Any

import pytest

DESKTOP = {"width": 1366, "height": 768}
BOARD = "Kh,7d,2c,5s,9h"

Box = dict[str, float]

# every seat taken and betting (copies of an opponent), the player's hand named, the dealer button on seat `b`
FILL = """([b]) => { const h = window.__harness; const m = h.store.model;
  const other = m.seats.find((x) => !x.empty && !x.isHero);
  m.seats.forEach((x, i) => { if (x.empty) m.seats[i] = { ...other, seat: i, alias: `Pl${i}`, folded: false,
    sittingOut: false, cards: other.cards.map((c) => ({ ...c })) }; });
  for (const x of m.seats) if (!x.empty) x.bet = 60;
  m.seats.find((x) => x.isHero).label = "Two Pair, Kings and Sevens";
  m.button = b; h.view.render(m); return m.seats.length; }"""

BOXES = """els => els.map(e => { const r = e.getBoundingClientRect();
  return {id: (e.closest('.seat') ? 'seat ' + e.closest('.seat').dataset.seat : 'board'), x: r.x, y: r.y, w: r.width, h: r.height}; })"""


def boxes(page: Any, selector: str) -> list[Box]:
    return page.eval_on_selector_all(selector, BOXES)


def overlap(a: Box, b: Box) -> bool:
    """True when the two boxes share area (touching edges, within half a pixel, is not overlapping)."""
    eps = 0.5
    return a["x"] + a["w"] - eps > b["x"] and b["x"] + b["w"] - eps > a["x"] and a["y"] + a["h"] - eps > b["y"] and b["y"] + b["h"] - eps > a["y"]


def open_table(new_page: Any, static_url: str, fixture: str, host: str) -> Any:
    page = new_page(DESKTOP)
    page.goto(f"{static_url}/harness/table.html?fixture={fixture}&host={host}&board={BOARD}")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("document.documentElement.classList.add('no-anim')")  # cards measured where they rest
    return page


@pytest.mark.parametrize("host", ["route", "tourney"])
@pytest.mark.parametrize("fixture", ["holdem_action", "omaha_pl"])
def test_issue_31_dealer_button_covers_no_card_and_the_hand_name_clears_the_action_bar(
    new_page: Any, static_url: str, screenshot: Any, fixture: str, host: str
) -> None:
    """Issue 31 item 8: a full table (6-seat Hold'em, 8-seat Omaha) with a full board at 1366x768, as a cash table
    and as a tournament page's table: with the button on each seat in turn it shares no pixel with a hole card or a
    board card (it lay on both), and the player's hand name is fully above the action bar (it was under it)."""
    page = open_table(new_page, static_url, fixture, host)
    count = page.evaluate(FILL, [0])
    assert count == (6 if fixture == "holdem_action" else 8)
    for button in range(count):
        page.evaluate(FILL, [button])
        dealer = boxes(page, ".dealer-button")
        assert len(dealer) == 1
        cards = boxes(page, ".seat .seat-cards .card, [data-testid='board'] .card")
        assert len([c for c in cards if c["id"] == "board"]) == 5 and len(cards) > 5 + count
        for card in cards:
            assert not overlap(dealer[0], card), f"button on seat {button}: {dealer[0]} lies on a card of {card['id']}: {card}"
        if button == count - 1:
            screenshot(page, f"issue31_dealer_{fixture}_{host}")
    label = boxes(page, ".seat--hero .hand-label")
    bar = boxes(page, ".action-area")
    assert len(label) == 1 and len(bar) == 1 and page.locator(".seat--hero .hand-label").inner_text() == "Two Pair, Kings and Sevens"
    assert label[0]["y"] + label[0]["h"] <= bar[0]["y"], f"the hand name {label[0]} is under the action bar {bar[0]}"
    assert label[0]["y"] + label[0]["h"] <= DESKTOP["height"]


def test_issue_31_four_tiles_fit_inside_1366x768(new_page: Any, static_url: str, screenshot: Any) -> None:
    """Issue 31 item 8: four tiled tables at 1366x768: every tile, its cards and its action bar's controls lie
    inside the window (the lower two were cut off), and the page does not scroll."""
    page = new_page(DESKTOP)
    page.goto(f"{static_url}/harness/tiles.html?fixture=holdem_action&count=4&board={BOARD}")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("document.documentElement.classList.add('no-anim')")
    screenshot(page, "issue31_four_tiles")
    tiles = boxes(page, ".tile")
    assert len(tiles) == 4
    inside = boxes(page, ".tile, .tile .card, .tile .action-bar button, .tile .action-bar input")
    assert len(inside) > 4 + 4 * 7
    for box in inside:
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["w"] <= DESKTOP["width"] + 0.5 and box["y"] + box["h"] <= DESKTOP["height"] + 0.5, f"{box} runs out of the window"
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1")
