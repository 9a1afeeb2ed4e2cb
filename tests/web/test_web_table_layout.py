"""Table layout at small felts, measured with bounding boxes on fixture-rendered pages (tests/web/harness).

Tiled tables (#/tables) at 1366x768: four No-Limit tiles leave each felt about 330x185 px; the player's hole cards
must not lie over the board or the pot (walk notes, "Left open": 9a_d_tiles_2.png).
"""

from __future__ import annotations

from typing import Any

import pytest

DESKTOP = {"width": 1366, "height": 768}
FULL_BOARD = "Kh,7d,2c,5s,9h"

Box = dict[str, float]


def boxes(page: Any, selector: str) -> list[Box]:
    return page.eval_on_selector_all(selector, "els => els.map(e => { const r = e.getBoundingClientRect(); "
                                     "return {x: r.x, y: r.y, w: r.width, h: r.height}; })")


def overlap(a: Box, b: Box) -> bool:
    """True when the two boxes share area (touching edges, within half a pixel, is not overlapping)."""
    eps = 0.5
    return a["x"] + a["w"] - eps > b["x"] and b["x"] + b["w"] - eps > a["x"] and a["y"] + a["h"] - eps > b["y"] and b["y"] + b["h"] - eps > a["y"]


def open_tiles(new_page: Any, static_url: str, fixture: str, count: int = 4, board: str = FULL_BOARD) -> Any:
    page = new_page(DESKTOP)
    page.goto(f"{static_url}/harness/tiles.html?fixture={fixture}&count={count}&board={board}")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("document.documentElement.classList.add('no-anim')")  # cards measured where they rest
    return page


@pytest.mark.parametrize(("fixture", "hole"), [("holdem_action", 2), ("omaha_pl", 4)])
def test_four_nl_pl_tiles_keep_hero_cards_off_the_board_and_the_pot(
    new_page: Any, static_url: str, screenshot: Any, fixture: str, hole: int
) -> None:
    """Four No-Limit (Hold'em) or Pot-Limit (Omaha) tiles with a full board and a pot: the player's hole cards
    share no pixel with a board card or a pot pill, and stay inside their tile."""
    page = open_tiles(new_page, static_url, fixture)
    screenshot(page, f"tiles_four_{fixture}")
    tiles = page.locator(".tile")
    assert tiles.count() == 4
    for i in range(4):
        tile = f".tile:nth-child({i + 1})"
        hero = boxes(page, f"{tile} .seat--hero .seat-cards .card")
        board = boxes(page, f"{tile} [data-testid='board'] .card")
        pots = boxes(page, f"{tile} [data-testid='pots'] > *")
        assert len(hero) == hole and len(board) == 5 and len(pots) >= 1, (len(hero), len(board), len(pots))
        for card in hero:
            for other in board + pots:
                assert not overlap(card, other), f"tile {i + 1}: hero card {card} overlaps {other}"
        # the felt's own contents stay inside the tile (nothing cut by the tile's edge)
        tile_box = boxes(page, tile)[0]
        for card in hero + board:
            assert tile_box["x"] <= card["x"] and card["x"] + card["w"] <= tile_box["x"] + tile_box["w"]
            assert tile_box["y"] <= card["y"] and card["y"] + card["h"] <= tile_box["y"] + tile_box["h"]
        # and so do the action bar's controls (the amount box was cut by the tile's right edge)
        for control in boxes(page, f"{tile} .action-bar button, {tile} .action-bar input"):
            assert tile_box["x"] <= control["x"] and control["x"] + control["w"] <= tile_box["x"] + tile_box["w"], f"tile {i + 1}: {control} cut"


# ------------------------------------------------------------------------------ offline: the action bar disabled


def open_fixture(new_page: Any, static_url: str, name: str) -> Any:
    page = new_page(DESKTOP)
    page.goto(f"{static_url}/harness/table.html?fixture={name}")
    page.wait_for_selector("body[data-ready='1']")
    return page


def enabled_actions(page: Any) -> list[str]:
    return page.eval_on_selector_all(".action-bar button[data-action]", "bs => bs.filter(b => b.matches(':enabled')).map(b => b.dataset.action)")


def test_action_bar_disabled_while_offline_and_live_again_on_reconnect(new_page: Any, static_url: str) -> None:
    """The server stopped / the socket dropped: Fold/Call/Raise are disabled (a click or a shortcut sends nothing)
    and the bar says the player is offline; back online with the decision still theirs, the buttons work again."""
    page = open_fixture(new_page, static_url, "holdem_action")
    assert sorted(enabled_actions(page)) == ["call", "fold", "raise"]
    page.evaluate("window.__harness.setStatus('reconnecting')")
    assert enabled_actions(page) == []
    assert page.locator("[data-testid='decision']").get_attribute("disabled") is not None
    assert page.locator("[data-testid='action-offline']").inner_text() == "You are offline. Reconnecting…"
    page.locator("button[data-action='fold']").click(force=True)
    page.keyboard.press("c")
    assert page.evaluate("window.__sent") == []
    page.evaluate("window.__harness.setStatus('online')")
    assert sorted(enabled_actions(page)) == ["call", "fold", "raise"]
    assert page.locator("[data-testid='action-offline']").count() == 0
    page.click("button[data-action='call']")
    assert page.evaluate("window.__sent") == [{"type": "act", "table": "t1", "kind": "call"}]


def test_server_shutdown_notice_is_capitalised(new_page: Any, static_url: str) -> None:
    """The server's notice "the server is shutting down" is shown to the player as a sentence."""
    page = open_fixture(new_page, static_url, "holdem_action")
    text = page.evaluate("""async () => (await import('/js/errors.js')).noticeText(
        {type: 'notice', code: 'shutdown', message: 'the server is shutting down'})""")
    assert text == "The server is shutting down"


# ------------------------------------------------------------------------------ phone (390x844)

PHONE = {"width": 390, "height": 844}


def open_phone(new_page: Any, static_url: str, name: str) -> Any:
    """The fixture on a phone, drawn into a `.route-host` (display: contents) as the app draws its pages."""
    page = new_page(PHONE)
    page.goto(f"{static_url}/harness/table.html?fixture={name}&host=route")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("document.documentElement.classList.add('no-anim')")
    return page


def test_phone_showdown_side_seats_keep_cards_and_labels_off_the_board(new_page: Any, static_url: str, screenshot: Any) -> None:
    """At a showdown on a phone the other seats' shown cards and hand labels lie beside the board, not over it
    (33_m_twister_end.png, 23_m_sng_end.png), and stay on the screen."""
    page = open_phone(new_page, static_url, "holdem_showdown")
    screenshot(page, "phone_showdown")
    board = boxes(page, "[data-testid='board'] .card")
    assert len(board) == 5
    others = boxes(page, ".seat:not(.seat--hero) .seat-cards .card") + boxes(page, ".seat:not(.seat--hero) .hand-label")
    assert len(boxes(page, ".seat:not(.seat--hero) .hand-label")) >= 2
    for box in others:
        for card in board:
            assert not overlap(box, card), f"{box} overlaps the board card {card}"
        assert box["x"] >= 0 and box["x"] + box["w"] <= PHONE["width"], f"{box} runs off the screen"


def test_phone_five_card_seats_stay_on_the_felt(new_page: Any, static_url: str) -> None:
    """5 Card Draw on a phone: the side seats' five cards stay on the table, inside the felt's oval box, not over
    its rail and past the screen's edge (41_m_Valga_1.png)."""
    page = open_phone(new_page, static_url, "draw_discard")
    felt = boxes(page, "[data-testid='felt']")[0]
    rail = float(page.eval_on_selector("[data-testid='felt']", "f => parseFloat(getComputedStyle(f).borderLeftWidth)"))
    felt = {**felt, "x": felt["x"] + rail, "w": felt["w"] - 2 * rail}  # the cloth inside the rail
    cards = boxes(page, ".seat .seat-cards .card")
    assert len(cards) >= 15
    for card in cards:
        assert felt["x"] <= card["x"] and card["x"] + card["w"] <= felt["x"] + felt["w"], f"{card} runs off the felt {felt}"


# ------------------------------------------------------------------------------ tiles: bets and the dealer button

# every seat of the tile's table taken and betting (a copy of an opponent), the dealer button on seat `s`
FILL_AND_BET = """([s]) => { const t = window.__tiles[0]; const m = t.store.model;
  const other = m.seats.find((x) => !x.empty && !x.isHero);
  m.seats.forEach((x, i) => { if (x.empty) m.seats[i] = { ...other, seat: i, alias: `Pl${i}`, folded: false,
    sittingOut: false, cards: other.cards.map((c) => ({ ...c })) }; });
  m.button = s; for (const x of m.seats) if (!x.empty) x.bet = 60; t.view.render(m); return m.seats.length; }"""


def labelled_boxes(page: Any, selector: str, label: str) -> list[Box]:
    return page.eval_on_selector_all(selector, f"""els => els.map(e => {{ const r = e.getBoundingClientRect();
        return {{id: {label}, x: r.x, y: r.y, w: r.width, h: r.height}}; }})""")


@pytest.mark.parametrize("fixture", ["holdem_action", "omaha_pl"])
def test_four_tiles_bets_and_dealer_button_stay_off_the_board(
    new_page: Any, static_url: str, screenshot: Any, fixture: str
) -> None:
    """Four tiled tables at 1366x768 (6-seat Hold'em, 8-seat Omaha), every seat taken and betting, the dealer button
    on each seat in turn: no bet chip and no dealer button shares a pixel with a board card or a pot (they lay on
    the board's outer cards), nor with a seat's cards or name box, nor with each other."""
    page = open_tiles(new_page, static_url, fixture)
    tile = ".tile:nth-child(1)"
    count = page.evaluate(FILL_AND_BET, [0])
    assert count == (6 if fixture == "holdem_action" else 8)
    for button in range(count):
        page.evaluate(FILL_AND_BET, [button])
        marks = labelled_boxes(page, f"{tile} .bet-chip, {tile} .dealer-button", "e.dataset.testid")
        assert len(marks) == count + 1, marks
        board = labelled_boxes(page, f"{tile} [data-testid='board'] .card", "'board ' + e.dataset.card")
        pots = labelled_boxes(page, f"{tile} [data-testid='pots'] > *", "e.textContent")
        seats = labelled_boxes(page, f"{tile} .seat .seat-info, {tile} .seat .seat-cards .card",
                               "'seat ' + e.closest('.seat').dataset.seat")
        assert len(board) == 5 and pots
        for mark in marks:
            for other in board + pots + seats + [m for m in marks if m is not mark]:
                assert not overlap(mark, other), f"button on seat {button}: {mark} overlaps {other}"
    screenshot(page, f"tiles_marks_{fixture}")


@pytest.mark.parametrize("fixture", ["holdem_action", "omaha_pl"])
def test_four_tiles_nl_pl_action_bar_on_one_row(new_page: Any, static_url: str, fixture: str) -> None:
    """A No-Limit / Pot-Limit decision in a tile is one row high (it took two: the buttons over the pot shortcuts
    and the slider), every control inside the tile."""
    page = open_tiles(new_page, static_url, fixture)
    for i in range(4):
        tile = f".tile:nth-child({i + 1})"
        controls = boxes(page, f"{tile} .action-bar button, {tile} .action-bar input")
        assert len(controls) >= 10
        tops = [c["y"] for c in controls]
        bottoms = [c["y"] + c["h"] for c in controls]
        assert max(tops) < min(bottoms), f"tile {i + 1}: the action bar takes more than one row: {controls}"
        bar = boxes(page, f"{tile} .action-area")[0]
        assert bar["h"] < 50, bar


# ------------------------------------------------------------------------------ phone: the dealer button and the last hand

NEXT_HAND = """(button) => {
  const feed = (event) => window.__harness.feed({ v: 1, type: "event", table: "t1", event });
  feed({ kind: "hand_started", hand_id: 43, button, seats: [0, 1, 2, 3] });
  const order = [0, 1, 2, 3];
  const sb = order[(order.indexOf(button) + 1) % 4];
  const bb = order[(order.indexOf(button) + 2) % 4];
  feed({ kind: "posted", seat: sb, what: "blind", amount: 5 });
  feed({ kind: "posted", seat: bb, what: "blind", amount: 10 });
}"""

# every seat taken and betting, the button on seat `b`, the result of an earlier hand still shown ("Last hand")
PHONE_FILL = """([b]) => {
  const h = window.__harness; const m = h.store.model;
  const other = m.seats.find((x) => !x.empty && !x.isHero);
  m.seats.forEach((x, i) => { if (x.empty) m.seats[i] = { ...other, seat: i, alias: `Pl${i}`, folded: false,
    sittingOut: false, cards: other.cards.map((c) => ({ ...c })) }; });
  for (const x of m.seats) if (!x.empty) x.bet = 10;
  m.button = b; m.board = [];
  m.result = { handId: "earlier", at: Date.now(), best: new Set(), boards: {},
    lines: ["Ainars wins €12.00 with Full House, Queens over Sixes", "Hero wins €4.00 with Two Pair, Kings and Sixes"] };
  h.view.render(m); return m.seats.length; }"""


def assert_marks_clear(page: Any, what: str) -> None:
    """No bet chip or dealer button overlaps the result box, the board, a pot, a seat's cards or name box, or
    another chip, and each is on the screen."""
    result = labelled_boxes(page, "[data-testid='hand-result']", "'result'")
    assert result, what
    marks = labelled_boxes(page, ".bet-chip, .dealer-button", "e.dataset.testid")
    assert any(m["id"] == "dealer-button" for m in marks), what
    others = result + labelled_boxes(page, "[data-testid^='board'] .card", "'board'") \
        + labelled_boxes(page, "[data-testid='pots'] > *", "e.textContent") \
        + labelled_boxes(page, ".seat .seat-info, .seat .seat-cards .card", "'seat ' + e.closest('.seat').dataset.seat")
    for mark in marks:
        assert mark["x"] >= 0 and mark["x"] + mark["w"] <= PHONE["width"], f"{what}: {mark} off the screen"
        for other in others + [m for m in marks if m is not mark]:
            assert not overlap(mark, other), f"{what}: {mark} overlaps {other}"


def test_phone_dealer_button_stays_off_the_last_hand_box(new_page: Any, static_url: str, screenshot: Any) -> None:
    """On a phone the next hand is dealt while the last one's result still shows ("Last hand"): the dealer button,
    on any seat, and the blinds' chips lie beside that box, not over it (the button lay on it)."""
    for button in range(4):
        page = open_phone(new_page, static_url, "holdem_showdown")
        page.evaluate(NEXT_HAND, button)
        page.wait_for_function("document.querySelector(\"[data-testid='hand-id']\").dataset.handId === '43'")
        assert page.locator("[data-testid='hand-result']").inner_text().startswith("Last hand")
        assert_marks_clear(page, f"button on seat {button}")
        if button == 2:
            screenshot(page, "phone_last_hand_dealer")
        page.close()


@pytest.mark.parametrize("fixture", ["holdem_action", "omaha_pl"])
def test_phone_full_table_bets_and_button_stay_off_the_middle(new_page: Any, static_url: str, fixture: str) -> None:
    """A phone, every seat of a 6-seat Hold'em or an 8-seat Omaha table taken and betting while the last hand's
    result shows, the dealer button on each seat in turn: no chip or button lies on the result, the pots, a seat
    or each other."""
    page = open_phone(new_page, static_url, fixture)
    count = page.evaluate(PHONE_FILL, [0])
    for button in range(count):
        page.evaluate(PHONE_FILL, [button])
        assert_marks_clear(page, f"{fixture}, button on seat {button}")
