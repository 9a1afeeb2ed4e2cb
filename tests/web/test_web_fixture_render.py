"""The table view rendered from sample protocol frames (tests/web/harness), without a server.

Each fixture in tests/web/harness/fixtures is a list of ``table_state`` / ``event`` frames in the shape of
docs/protocol.md; the harness page feeds them to the same TableStore and TableView the client uses and records the
commands the view would send in ``window.__sent``.
"""

from __future__ import annotations

from typing import Any

import pytest

DESKTOP = {"width": 1366, "height": 768}

FIXTURES_WITH_ACTIONS = ["holdem_action", "stud_action", "draw_discard", "draw32_split", "holdem_rit", "omaha_pl"]


def open_fixture(new_page: Any, static_url: str, name: str, viewport: dict[str, int] | None = None, four: bool = False) -> Any:
    page = new_page(viewport or DESKTOP)
    page.goto(f"{static_url}/harness/table.html?fixture={name}{'&four=1' if four else ''}")
    page.wait_for_selector("body[data-ready='1']")
    return page


def sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__sent")


def refusing(page: Any) -> None:
    """The harness answers every command with a refusal, so the action bar unlocks after each send and a test
    may send several actions within one decision."""
    page.evaluate("window.__reply = null")


def action_names(page: Any) -> list[str]:
    return page.eval_on_selector_all(".action-bar button[data-action]", "bs => bs.map(b => b.dataset.action)")


def test_r_gen_5_own_stud_down_cards_greyed_and_others_hidden(new_page: Any, static_url: str) -> None:
    """R-GEN-5: the holder sees their own face-down stud cards greyed; other players' down cards show backs."""
    page = open_fixture(new_page, static_url, "stud_action")
    hero = page.locator("[data-testid='cards-0'] .card")
    assert hero.count() == 4
    classes = [hero.nth(i).get_attribute("class") or "" for i in range(4)]
    assert [c.split() for c in classes][0:2] == [c.split() for c in classes][0:2]
    assert all("card--greyed" in c and "card--down" in c for c in classes[:2])
    assert all("card--greyed" not in c and "card--up" in c for c in classes[2:])
    assert [hero.nth(i).get_attribute("data-card") for i in range(4)] == ["9s", "9d", "Kc", "4h"]
    # Egle: two backs (no face in the DOM) and two open queens.
    egle = page.locator("[data-testid='cards-1'] .card")
    assert [egle.nth(i).get_attribute("data-card") for i in range(4)] == ["", "", "Qs", "Qh"]
    assert page.locator("[data-testid='cards-1'] .card--back").count() == 2
    # Stud has a fixed dealer box: no moving dealer button (R-TABLE-4).
    assert page.locator("[data-testid='dealer-button']").count() == 0


def test_r_act_buttons_are_exactly_the_legal_options(new_page: Any, static_url: str) -> None:
    """R-ACT-1..5: facing a bet the player may fold, call or raise, and may not check."""
    page = open_fixture(new_page, static_url, "holdem_action")
    assert sorted(action_names(page)) == ["call", "fold", "raise"]
    assert "€0.60" in page.locator("button[data-action='call']").inner_text()
    assert page.locator("button[data-action='raise']").inner_text().startswith("Raise to €1.20")
    slider = page.locator("[data-testid='bet-slider']")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("120", "1500")
    page.click("button[data-action='call']")
    assert sent(page) == [{"type": "act", "table": "t1", "kind": "call"}]


def test_r_nl_amount_box_bounded_by_engine_min_and_max(new_page: Any, static_url: str) -> None:
    """R-NL: the amount can be typed or slid between the engine's min and max; an out-of-range entry is refused
    (marked invalid, the raise keeps the last valid amount)."""
    page = open_fixture(new_page, static_url, "holdem_action")
    refusing(page)
    box = page.locator("[data-testid='bet-amount']")
    box.fill("2.50")
    assert page.locator("button[data-action='raise']").inner_text().startswith("Raise to €2.50")
    box.fill("99.00")  # above the 15.00 stack
    assert "invalid" in (box.get_attribute("class") or "")
    box.fill("0.50")  # below the 1.20 minimum raise
    assert "invalid" in (box.get_attribute("class") or "")
    page.click("button[data-action='raise']")
    page.click("[data-shortcut='max']")
    assert "(all-in)" in page.locator("button[data-action='raise']").inner_text()
    page.click("button[data-action='raise']")
    assert sent(page) == [
        {"type": "act", "table": "t1", "kind": "raise", "amount": 250},
        {"type": "act", "table": "t1", "kind": "raise", "amount": 1500},
    ]


def test_r_nl_pot_shortcut_raises_the_size_of_the_pot(new_page: Any, static_url: str) -> None:
    """R-PL-2 formula used for the pot shortcut: call 60 into a pot of 155 -> pot is 215 -> raise to 60 + 215."""
    page = open_fixture(new_page, static_url, "holdem_action")
    refusing(page)
    page.click("[data-shortcut='pot']")
    page.click("[data-shortcut='half']")
    page.click("button[data-action='raise']")
    page.click("[data-shortcut='pot']")
    page.click("button[data-action='raise']")
    assert [a["amount"] for a in sent(page)] == [60 + 215 // 2, 60 + 215]


def test_r_pl_pot_shortcut_equals_the_pot_limit_maximum(new_page: Any, static_url: str) -> None:
    """R-PL: in Pot Limit the Pot button gives exactly the engine's maximum raise-to, and the slider stops there."""
    page = open_fixture(new_page, static_url, "omaha_pl")
    assert page.locator("[data-testid='bet-slider']").get_attribute("max") == "210"
    assert page.locator("[data-shortcut='max']").count() == 1 and page.locator("[data-shortcut='max']").inner_text() == "Max"
    page.click("[data-shortcut='pot']")
    page.click("button[data-action='raise']")
    assert sent(page)[-1]["amount"] == 210
    assert page.locator("[data-testid='cards-4'] .card").count() == 4  # four Omaha hole cards


def test_r_fl_fixed_limit_offers_one_raise_amount_without_slider(new_page: Any, static_url: str) -> None:
    """R-FL / R-STUD-7: fixed limit has a single raise size (min == max): a plain button, no slider or shortcuts."""
    page = open_fixture(new_page, static_url, "stud_action")
    assert page.locator("[data-testid='bet-slider']").count() == 0
    assert page.locator(".pot-shortcuts").count() == 0
    page.click("button[data-action='raise']")
    assert sent(page) == [{"type": "act", "table": "t2", "kind": "raise", "amount": 40}]


def test_r_draw5_5_click_cards_to_grey_them_then_discard(new_page: Any, static_url: str) -> None:
    """R-DRAW5-5: clicked cards show grey, clicking again deselects, Discard sends the selection (as `draw`)."""
    page = open_fixture(new_page, static_url, "draw_discard")
    assert page.locator("button[data-action='draw']").is_disabled()
    page.click("[data-testid='cards-1'] .card[data-card='7h']")
    page.click("[data-testid='cards-1'] .card[data-card='4s']")
    page.click("[data-testid='cards-1'] .card[data-card='Jc']")
    assert page.locator("[data-testid='cards-1'] .card--greyed").count() == 3
    page.click("[data-testid='cards-1'] .card[data-card='Jc']")  # deselect
    greyed = page.eval_on_selector_all("[data-testid='cards-1'] .card--greyed", "cs => cs.map(c => c.dataset.card)")
    assert greyed == ["7h", "4s"]
    assert page.locator("button[data-action='draw']").inner_text().startswith("Discard 2")
    page.click("button[data-action='draw']")
    assert sent(page) == [{"type": "act", "table": "t3", "kind": "draw", "cards": ["7h", "4s"]}]


def test_r_time_4_draw_timer_shows_thirty_seconds_and_stand_pat(new_page: Any, static_url: str) -> None:
    """R-TIME-4 / R-DRAW5-4: the draw decision shows the 30 s draw timer; Stand pat draws nothing."""
    page = open_fixture(new_page, static_url, "draw_discard")
    text = page.locator("[data-testid='timer-1']").inner_text()
    assert "draw" in text and ("30s" in text or "29s" in text)
    page.keyboard.press("p")
    assert sent(page) == [{"type": "act", "table": "t3", "kind": "stand_pat"}]
    assert "Helmi draws 2" in page.locator("[data-testid='hand-log']").inner_text()


def test_r_split_1_split_pot_button_next_to_the_actions_in_32_card_draw(new_page: Any, static_url: str) -> None:
    """R-SPLIT-1 / R-DRAW32-9: the first player to act sees the split-pot button beside the normal actions."""
    page = open_fixture(new_page, static_url, "draw32_split")
    assert sorted(action_names(page)) == ["agree_split", "call", "fold", "raise"]
    page.click("button[data-action='agree_split']")
    assert sent(page) == [{"type": "act", "table": "t4", "kind": "agree_split"}]


def test_r_rit_run_it_twice_choice(new_page: Any, static_url: str) -> None:
    """R-RIT-2: when all-in with betting closed, the player chooses to run it twice or once."""
    page = open_fixture(new_page, static_url, "holdem_rit")
    assert sorted(action_names(page)) == ["run_once", "run_twice"]
    page.click("button[data-action='run_twice']")
    assert sent(page) == [{"type": "act", "table": "t1", "kind": "run_twice"}]


def test_r_show_showdown_labels_winners_and_side_pots(new_page: Any, static_url: str, screenshot: Any) -> None:
    """R-SHOW / R-ALLIN / R-POT: shown hands carry their labels, winners are highlighted with what they won,
    the side pot is listed, and the finished hand goes to the last-hands panel."""
    page = open_fixture(new_page, static_url, "holdem_showdown")
    assert page.locator("[data-testid='label-0']").inner_text() == "Full House, Queens over Sixes"
    assert page.locator("[data-testid='label-3']").inner_text() == "Two Pair, Nines and Sixes"
    winners = page.eval_on_selector_all(".seat--winner", "ss => ss.map(s => s.dataset.seat)")
    assert winners == ["0", "2"]
    assert page.locator("[data-testid='won-0']").inner_text() == "+€12.00"
    assert page.locator("[data-testid='won-2']").inner_text() == "+€4.00"
    assert page.locator("[data-testid='pot-1']").inner_text() == "Side pot 1: €4.00"
    log = page.locator("[data-testid='hand-log']").inner_text()
    assert "Ainars wins €12.00" in log and "Hero wins €4.00" in log
    # the result stays readable on the felt (Account -> Table settings: how long)
    assert "Ainars wins €12.00" in page.locator("[data-testid='hand-result']").inner_text()
    assert page.locator("[data-testid='cards-3'] .card").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["9h", "9d"]
    assert_showdown_highlighted(page)
    screenshot(page, "table_holdem_showdown_desktop")
    page.click("[data-panel='last']")
    assert "Hand #42" in page.locator("[data-testid='last-hands']").inner_text()


def assert_showdown_highlighted(page: Any) -> None:
    """The winning hands of the holdem_showdown fixture on the felt (pot_awarded.hands, R-CARD-2): each winner's hole
    cards and the board cards used, raised and outlined, every other card dimmed, each hand named in the result;
    nothing of the losing 9h 9d."""
    assert highlighted(page) == {"0": ["Qc", "Qs"], "2": ["Ah", "Kd"], "board": ["Kh", "6d", "6c", "Qd"]}
    assert page.locator(".felt--winning").count() == 1
    result = page.locator("[data-testid='hand-result']").inner_text()
    assert "Ainars wins €12.00 with Full House, Queens over Sixes" in result, result
    assert "Hero wins €4.00 with Two Pair, Kings and Sixes" in result, result


def test_winning_hand_highlight_rebuilt_from_the_view_after_a_reload(new_page: Any, static_url: str, screenshot: Any) -> None:
    """A page reloaded (or opened) while a hand's result shows gets one ``table_state`` of the finished hand and no
    events: the gold outline on the winning cards and the result banner are rebuilt from the view's
    ``hand.result.pots`` (their ``hands``, docs/protocol.md "The winning hand"), as the ``pot_awarded`` events
    built them before the reload."""
    page = open_fixture(new_page, static_url, "holdem_result_reload")
    assert_showdown_highlighted(page)
    screenshot(page, "table_result_after_reload")
    # and it goes with the banner, as after the events (Account -> Table settings: 5 s by default)
    page.wait_for_function("!document.querySelector(\"[data-testid='hand-result']\")", timeout=8000)
    assert page.locator(".card--highlight").count() == 0 and page.locator(".felt--winning").count() == 0


def test_r_rit_2_each_run_labelled_with_its_own_hand(new_page: Any, static_url: str, screenshot: Any) -> None:
    """R-RIT-2: the ``showed`` label names the hand on the first board only; in a run-it-twice hand the felt says
    so ("Run 1: ...") and adds the hand on the second board where that run's award names it (its winner's); the
    result and the log say which run each half was won on."""
    page = open_fixture(new_page, static_url, "holdem_rit_runs")
    lines = "(sel) => [...document.querySelectorAll(sel + ' .hand-label-run')].map(l => l.textContent)"
    assert page.evaluate(lines, "[data-testid='label-0']") == ["Run 1: Two Pair, Queens and Deuces",
                                                              "Run 2: Three of a Kind, Queens"]
    assert page.evaluate(lines, "[data-testid='label-2']") == ["Run 1: Two Pair, Kings and Deuces"]
    result = page.locator("[data-testid='hand-result']").inner_text()
    assert "Hero wins €10.00 on run 1 with Two Pair, Kings and Deuces" in result, result
    assert "Ainars wins €10.00 on run 2 with Three of a Kind, Queens" in result, result
    log = page.locator("[data-testid='hand-log']").inner_text()
    assert "Ainars shows Qc Jc (run 1: Two Pair, Queens and Deuces)" in log, log
    assert "Ainars wins €10.00 on run 2 with Three of a Kind, Queens" in log, log
    screenshot(page, "table_run_it_twice_labels")
    # the same after a reload, from the view's result (one pot per run)
    page = open_fixture(new_page, static_url, "holdem_rit_reload")
    assert page.evaluate(lines, "[data-testid='label-0']") == ["Run 1: Two Pair, Queens and Deuces",
                                                              "Run 2: Three of a Kind, Queens"]
    assert page.evaluate(lines, "[data-testid='label-2']") == ["Run 1: Two Pair, Kings and Deuces"]
    cards = "(sel) => [...document.querySelectorAll(sel + ' .card--highlight')].map(c => c.dataset.card)"
    assert page.evaluate(cards, "[data-testid='board']") == ["Kh", "2c", "2s"]
    assert page.evaluate(cards, "[data-testid='board-2']") == ["Kh", "Qs", "Qh"]


def highlighted(page: Any) -> dict[str, list[str]]:
    """The highlighted (winning) cards on the felt, by seat and on the board."""
    return page.evaluate("""() => {
      const out = {};
      for (const c of document.querySelectorAll(".card--highlight")) {
        const seat = c.closest("[data-testid^='cards-']");
        const key = seat ? seat.dataset.testid.slice(6) : "board";
        (out[key] = out[key] || []).push(c.dataset.card);
      }
      return out;
    }""")


def test_keyboard_shortcuts_fold_call_raise(new_page: Any, static_url: str) -> None:
    """Keyboard: C calls, R raises the chosen amount, F folds; keys typed into the amount box are not shortcuts."""
    page = open_fixture(new_page, static_url, "holdem_action")
    refusing(page)
    page.locator("[data-testid='bet-amount']").focus()
    page.keyboard.type("f")
    assert sent(page) == []
    page.locator("body").click(position={"x": 5, "y": 60})
    for key in ("c", "r", "f"):
        page.keyboard.press(key)
    assert [a["kind"] for a in sent(page)] == ["call", "raise", "fold"]
    assert sent(page)[1]["amount"] == 120


@pytest.mark.parametrize("label", ["phone", "desktop"])
def test_no_action_button_hidden_at_phone_or_desktop_width(
    new_page: Any, static_url: str, viewports: dict[str, dict[str, int]], screenshot: Any, label: str
) -> None:
    """Issue #6: at 390x844 and 1366x768 every action button is inside the viewport and not covered."""
    viewport = viewports[label]
    page = new_page(viewport)
    for name in FIXTURES_WITH_ACTIONS:
        page.goto(f"{static_url}/harness/table.html?fixture={name}")
        page.wait_for_selector("body[data-ready='1']")
        buttons = page.locator(".action-bar button, .pot-shortcuts button")
        assert buttons.count() >= 2, name
        for i in range(buttons.count()):
            button = buttons.nth(i)
            box = button.bounding_box()
            assert box is not None, (name, i)
            assert box["x"] >= 0 and box["y"] >= 0, (name, button.inner_text())
            assert box["x"] + box["width"] <= viewport["width"] + 0.5, (name, button.inner_text())
            assert box["y"] + box["height"] <= viewport["height"] + 0.5, (name, button.inner_text())
            on_top = page.evaluate(
                "([x, y]) => { const e = document.elementFromPoint(x, y); return e && e.closest('button') ? e.closest('button').outerHTML : null; }",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            assert on_top == button.evaluate("b => b.outerHTML"), (name, button.inner_text())
        screenshot(page, f"table_{name}_{label}")


def test_four_colour_deck_option(new_page: Any, static_url: str, screenshot: Any) -> None:
    """The four-colour deck shows diamonds blue and clubs green; the default deck shows them red and black."""
    fill = "(sel) => getComputedStyle(document.querySelector(sel + ' text')).fill"
    page = open_fixture(new_page, static_url, "draw_discard")
    assert page.evaluate(fill, ".card[data-card='Ad']") == "rgb(211, 58, 58)"
    assert page.evaluate(fill, ".card[data-card='Ac']") == "rgb(27, 27, 27)"
    page = open_fixture(new_page, static_url, "draw_discard", four=True)
    assert page.evaluate(fill, ".card[data-card='Ad']") == "rgb(43, 99, 217)"
    assert page.evaluate(fill, ".card[data-card='Ac']") == "rgb(31, 157, 76)"
    screenshot(page, "table_draw_four_colour")


def test_chip_amounts_are_integers_formatted_without_floats(new_page: Any, static_url: str) -> None:
    """Money is integer minor units: formatting and parsing round-trip exactly, bad input parses to null."""
    page = open_fixture(new_page, static_url, "holdem_action")
    result = page.evaluate(
        """async () => {
          const u = await import('/js/util.js');
          return [u.formatMoney(150, 'EUR'), u.formatMoney(123456789, 'EUR'), u.formatMoney(1234567, 'PLAY'),
                  u.formatMoney(-5, 'EUR'), u.parseMoney('1.5', 'EUR'), u.parseMoney('0.07', 'EUR'),
                  u.parseMoney('1.234', 'EUR'), u.parseMoney('abc', 'EUR'), u.parseMoney('1,000', 'PLAY')];
        }"""
    )
    assert result == ["€1.50", "€1,234,567.89", "1,234,567", "-€0.05", 150, 7, None, None, 1000]


def open_lobby(new_page: Any, static_url: str, viewport: dict[str, int] | None = None) -> Any:
    page = new_page(viewport or DESKTOP)
    page.goto(f"{static_url}/harness/lobby.html")
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_r_fee_1_lobby_info_icon_shows_buy_in_and_fee(new_page: Any, static_url: str) -> None:
    """R-FEE-1: the "i" icon of a tournament shows the buy-in (to the prize pool) and the entry fee (to the house);
    Sit & Go, tournaments and Twister each have their tab."""
    page = open_lobby(new_page, static_url)
    page.click("[data-tab='sng']")
    row = page.locator("[data-testid='tournaments'] tbody tr")
    assert row.count() == 1 and "Turbo 6-max" in row.inner_text() and "€11.00" in row.inner_text()
    breakdown = page.locator("[data-testid='fee-breakdown']")
    assert not breakdown.is_visible()
    page.click("button.info-i")
    assert breakdown.inner_text() == ("Buy-in to the prize pool: €10.00 · entry fee to the house: €1.00 · total €11.00")
    page.click("[data-tab='tournaments']")
    assert "Sunday Major" in page.locator("[data-testid='tournaments']").inner_text()
    page.click("[data-tab='twister']")
    assert "Twister x2-x1000" in page.locator("[data-testid='tournaments']").inner_text()


def test_lobby_filters_by_game_structure_and_stakes(new_page: Any, static_url: str) -> None:
    """Lobby filters narrow the cash tables by game, structure and stakes; seats show taken/max."""
    page = open_lobby(new_page, static_url)
    rows = page.locator("[data-testid='cash-tables'] tbody tr")
    assert rows.count() == 3
    assert page.locator("[data-testid='seats']").all_inner_texts() == ["4/6", "8/8", "0/6"]
    page.select_option("select[data-filter='structure']", "FL")
    assert rows.count() == 2
    page.select_option("select[data-filter='game']", "triple_draw_27")
    assert rows.count() == 1 and rows.first.inner_text().startswith("Tartu")
    page.select_option("select[data-filter='structure']", "")
    page.select_option("select[data-filter='game']", "")
    # one stakes form for every game (blinds; limit games also their bets; stud its ante, bring-in and bets)
    page.select_option("select[data-filter='stakes']", "blinds €0.05/€0.10")
    assert rows.count() == 1 and rows.first.inner_text().startswith("Riga")
    page.click("[data-testid='open-t1']")
    assert page.evaluate("window.__navigated") == ["#/table/t1"]
    page.click("[data-tab='speed']")
    assert "Speed Riga" in page.locator("[data-testid='speed-pools']").inner_text()


def test_r_gen_5_stud_table_kept_current_from_events(new_page: Any, static_url: str) -> None:
    """Between its own decisions a player gets only events. The model keeps the table right from them: the others'
    face-down cards (never sent, R-GEN-5) appear as backs before their up card, the own down cards are greyed,
    antes go to the pot and the bring-in / completion / call become bets that are collected into the pot when
    fourth street starts (chips conserved: pot = 3 antes + 25 + 100 + 100)."""
    page = open_fixture(new_page, static_url, "stud_events")
    cards = "(sel) => [...document.querySelectorAll(sel + ' .card')].map(c => [c.dataset.card, c.className.includes('card--up')])"
    assert page.evaluate(cards, "[data-testid='cards-3']") == [["", False], ["", False], ["Jd", True], ["Jh", True]]
    assert page.evaluate(cards, "[data-testid='cards-2']") == [["Ks", False], ["Kd", False], ["7h", True], ["2s", True]]
    assert page.locator("[data-testid='cards-2'] .card--greyed").count() == 2
    assert page.evaluate(cards, "[data-testid='cards-0']") == [["", False], ["", False], ["3c", True]]
    assert "seat--folded" in (page.locator("[data-testid='seat-0']").get_attribute("class") or "")
    assert page.locator("[data-testid='pot-total']").inner_text() == "Total pot: 255"
    assert page.locator(".bet-chip").count() == 0
    assert [page.locator(f"[data-testid='stack-{s}']").inner_text() for s in (0, 2, 3)] == ["965", "890", "890"]
    log = page.locator("[data-testid='hand-log']").inner_text()
    assert "Egle brings in 25" in log and "Hero completes to 100" in log and "Gints calls 100" in log


def test_r_rit_2_two_boards_each_run_wins_half(new_page: Any, static_url: str, screenshot: Any) -> None:
    """R-RIT-2: after both players choose to run it twice the remaining board is dealt twice; both boards are shown
    and each run's half of the pot goes to its winner."""
    page = open_fixture(new_page, static_url, "holdem_rit_runs")
    board = "(sel) => [...document.querySelectorAll(sel + ' .card')].map(c => c.dataset.card)"
    assert page.evaluate(board, "[data-testid='board']") == ["Kh", "7d", "2c", "Qd", "2s"]
    assert page.evaluate(board, "[data-testid='board-2']") == ["Kh", "7d", "2c", "Qs", "Qh"]
    assert page.locator("[data-testid='pot-0']").inner_text() == "Main pot · run 1: €10.00"
    assert page.locator("[data-testid='pot-1']").inner_text() == "Main pot · run 2: €10.00"
    assert page.locator("[data-testid='won-0']").inner_text() == "+€10.00"
    assert page.locator("[data-testid='won-2']").inner_text() == "+€10.00"
    assert page.locator(".action-bar button").count() == 0
    screenshot(page, "table_holdem_run_it_twice")


def test_r_horse_mixed_game_switches_layout_per_hand(new_page: Any, static_url: str) -> None:
    """R-HORSE / R-8GAME: when the next hand of a mixed table is another game, the header and the layout follow it
    (a Razz hand after a Hold'em hand shows stud up/down cards and no community board)."""
    page = open_fixture(new_page, static_url, "holdem_showdown")
    assert page.locator("[data-testid='board'] .card").count() == 5
    page.evaluate("""() => {
      const feed = (event) => window.__harness.feed({type: 'event', table: 't1', event});
      feed({kind: 'hand_started', hand_id: 43, button: null, seats: [0, 2, 3], game: 'razz', structure: 'FL'});
      feed({kind: 'dealt', seat: 0, cards: ['Kd'], up: true});
      feed({kind: 'dealt', seat: 2, cards: ['Ac', '2d'], up: false});
      feed({kind: 'dealt', seat: 2, cards: ['3s'], up: true});
      feed({kind: 'dealt', seat: 3, cards: ['9h'], up: true});
    }""")
    assert "Razz" in page.locator("[data-testid='table-game']").inner_text()
    assert page.locator("#app").get_attribute("data-family") == "stud"
    assert page.locator("[data-testid='board']").count() == 0
    assert page.locator("[data-testid='cards-2'] .card--greyed").count() == 2
    assert page.locator("[data-testid='cards-0'] .card").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["", "", "Kd"]
    assert page.locator("[data-testid^='label-']").count() == 0  # the previous showdown is cleared


def test_r_time_opponent_turn_and_timer_shown_from_turn_events(new_page: Any, static_url: str) -> None:
    """R-TIME-1/2: the room's `turn` event names the player to act and their timer; everyone sees the acting
    seat highlighted with the countdown (and the time bank phase), and the highlight ends when they act."""
    page = open_fixture(new_page, static_url, "stud_events")
    page.evaluate("() => window.__harness.feed({type: 'event', table: 't6', event: {kind: 'turn', seat: 3, phase: 'action', remaining: 12.5}})")
    assert "seat--acting" in (page.locator("[data-testid='seat-3']").get_attribute("class") or "")
    text = page.locator("[data-testid='timer-3']").inner_text()
    assert text.startswith("13s") or text.startswith("12s")
    assert page.locator("[data-testid='action-wait']").inner_text() == "Waiting for Gints"
    page.evaluate("() => window.__harness.feed({type: 'event', table: 't6', event: {kind: 'turn', seat: 3, phase: 'timebank', remaining: 30}})")
    assert "time bank" in page.locator("[data-testid='timer-3']").inner_text()
    page.evaluate("() => window.__harness.feed({type: 'event', table: 't6', event: {kind: 'acted', seat: 3, action: 'check'}})")
    assert page.locator(".seat--acting").count() == 0
    assert page.locator("[data-testid='timer-3']").count() == 0


def test_r_alias_2_alias_change_shown_at_the_table(new_page: Any, static_url: str) -> None:
    """R-ALIAS-2 (issue #14 item 5): an ``alias_changed`` event renames the seat at once and the log says who is
    now known by which name; the lines after it use the new name."""
    page = open_fixture(new_page, static_url, "holdem_action")
    assert page.locator("[data-testid='name-1']").inner_text() == "Birute"
    page.evaluate("""window.__harness.feed({type: 'event', table: 't1', seq: 9001,
        event: {kind: 'alias_changed', seat: 1, player: 101, alias: 'RigaRose'}})""")
    page.wait_for_function("document.querySelector(\"[data-testid='name-1']\").textContent === 'RigaRose'")
    page.evaluate("""window.__harness.feed({type: 'event', table: 't1', seq: 9002,
        event: {kind: 'acted', seat: 1, action: 'fold'}})""")
    page.wait_for_function("document.querySelector(\"[data-testid='hand-log']\").textContent.includes('RigaRose folds')")
    log = page.locator("[data-testid='hand-log']").inner_text()
    assert "Birute is now known as RigaRose" in log, log


def test_pre_actions_fold_to_any_bet_is_sent_when_the_turn_comes(new_page: Any, static_url: str) -> None:
    """Part 2 pre-actions (R-ACT-1..5: only a legal move is sent): while another player is to act the hero picks
    "Fold to any bet"; when a raise comes and the turn arrives, the client sends the fold by itself, once."""
    page = open_fixture(new_page, static_url, "holdem_action")
    page.evaluate("""() => {
        const f = window.__harness.feed;
        f({type: 'event', table: 't1', event: {kind: 'acted', seat: 2, action: 'call', amount: 60}});
        f({type: 'event', table: 't1', event: {kind: 'turn', seat: 3, phase: 'action', remaining: 20}});
    }""")
    page.wait_for_selector("[data-testid='pre-actions'] [data-pre='fold_any']")
    assert page.locator(".action-bar button[data-action]").count() == 0
    page.click("[data-pre='fold_any']")
    assert page.locator("[data-pre='fold_any']").get_attribute("aria-pressed") == "true"
    before = len(sent(page))
    page.evaluate("""() => {
        const f = window.__harness.feed;
        f({type: 'event', table: 't1', event: {kind: 'acted', seat: 3, action: 'raise', to: 200}});
        const raw = JSON.parse(JSON.stringify(window.__lastState));
        raw.view.hand.players[2].bet = 60; raw.view.hand.players[3].bet = 200;
        raw.view.hand.legal = {seat: 2, kinds: ['call', 'fold', 'raise'], call: 140, min_to: 340, max_to: 1500,
                               bring_in: 0, max_discards: 0};
        f(raw);
    }""")
    page.wait_for_function(f"window.__sent.length > {before}")
    page.wait_for_timeout(300)
    acts = [m for m in sent(page)[before:] if m["type"] == "act"]
    assert [a["kind"] for a in acts] == ["fold"], acts
