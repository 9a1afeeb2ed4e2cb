"""What a player sees and hears around a decision and a showdown, in Chromium against a real ``riverboat serve``
(issue #14 part 2): the "your turn" sound and tab-title alert, the "time running out" sound, both silenced by the
Account settings; an all-in hand turned face up before the run-out, which is dealt one street a second (R-SHOW-4
reading, table setting ``allin_runout_seconds``); the result of the hand kept on the felt for the time the player
chose (Account -> Table settings) even though the next hand is dealt sooner, with the winner highlighted; and the
session statistics with the profit graph in the Account page. The secrecy recorder (R-GEN-5) checks every frame.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from .conftest import session_cookie
from .test_web_live_play import FrameRecorder, assert_no_foreign_down_cards, register, sit_down
from .test_web_live_table_life import check_or_call, hand_id

DECISION = ".action-bar button[data-action]:enabled"


def sounds(page: Any) -> list[str]:
    return list(page.evaluate("window.riverboat.sounds"))


def set_settings(page: Any, base: str, table_id: str, **values: Any) -> None:
    """Change Account -> Table settings through the page, then go back to the table."""
    page.goto(f"{base}/#/account")
    for name, value in values.items():
        box = page.locator(f"[data-setting='{name}']")
        if isinstance(value, bool):
            box.set_checked(value)
        else:
            box.select_option(str(value))
    page.goto(f"{base}/#/table/{table_id}")
    page.wait_for_selector(".seat--hero")


def wait_decision(page: Any, timeout: float = 60.0, board_empty: bool = False) -> None:
    """Wait for the player's next decision (check or call anything that is not the wanted one)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(DECISION).count():
            empty = page.locator("[data-testid='board'] .card[data-card]:not([data-card=''])").count() == 0
            if not board_empty or empty:
                return
            check_or_call(page)
        page.wait_for_timeout(100)
    raise AssertionError("no decision came")


WATCH_RUNOUT = """(botSeat) => {
  window.__runout = null;
  const up = () => document.querySelectorAll(`[data-testid='cards-${botSeat}'] .card[data-card]:not([data-card=''])`).length;
  new MutationObserver(() => {
    const board = document.querySelectorAll("[data-testid='board'] .card[data-card]:not([data-card=''])").length;
    if (board && window.__runout === null) window.__runout = {botCardsUp: up(), at: Date.now()};
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""


@pytest.mark.slow
def test_issue_14_alerts_sounds_off_allin_face_up_results_kept_and_session_stats(
        new_page: Any, live_server: Any, calling_bots: Any, screenshot: Any) -> None:
    """Sounds and alerts (and their off setting), all-in hands face up before the run-out (R-SHOW-4), results kept
    for the chosen time with the winner highlighted, session statistics and the profit graph (R-GEN-5 throughout)."""
    base = live_server.url
    page = new_page()
    recorder = FrameRecorder(page)
    register(page, base)
    table_id = live_server.table_id("WebAllin")
    page.goto(f"{base}/#/account")
    page.locator("[data-setting='resultsSeconds']").select_option("8")
    page.goto(f"{base}/#/lobby")
    table_id, seat, _ = sit_down(page, live_server, "WebAllin", post_now=True, amount=4000)
    bot_seat = 1 if seat != 1 else 2
    calling_bots.seat(table_id, [bot_seat], 20000)

    # your turn: a sound and the tab title; left alone, the timer runs low and the "hurry" sound plays
    wait_decision(page)
    assert "turn" in sounds(page)
    assert page.title().startswith("▶ Your turn")
    page.wait_for_function("window.riverboat.sounds.includes('hurry')", timeout=12_000)
    assert page.locator(".seat-timer--low").count() == 1
    check_or_call(page)

    # Account -> Table settings: sounds and alerts off; the next decision is silent, also when time runs low
    set_settings(page, base, table_id, sounds=False, alerts=False)
    heard = len(sounds(page))
    wait_decision(page)
    page.wait_for_selector(".seat-timer--low", timeout=12_000)
    page.wait_for_timeout(300)
    assert len(sounds(page)) == heard, sounds(page)[heard:]
    assert page.title() == "Riverboat Poker"
    check_or_call(page)

    # all-in before the flop: both hands face up before the first board card, one street a second
    wait_decision(page, board_empty=True)
    page.evaluate(WATCH_RUNOUT, bot_seat)
    before = len(recorder.frames)
    all_in_hand = hand_id(page)
    page.click("[data-shortcut='max']")
    page.locator(".action-bar button[data-action='raise'], .action-bar button[data-action='bet']").first.click()
    page.wait_for_function("window.__runout !== null", timeout=20_000)
    assert page.evaluate("window.__runout.botCardsUp") == 2, "the board came before the all-in hands were up"
    all_in_id = page.locator(".hand-id").get_attribute("data-hand-id")
    result_sel = f"[data-testid='hand-result'][data-hand='{all_in_id}']"
    page.wait_for_selector(result_sel, timeout=20_000)
    shown_at = time.monotonic()
    screenshot(page, "allin_result")
    frames = [f for f in recorder.frames[before:] if f.get("table") == table_id and f.get("type") == "event"]
    kinds = [f["event"]["kind"] for f in frames]
    assert "exposed" in kinds and kinds.index("exposed") < kinds.index("board"), kinds
    exposed = frames[kinds.index("exposed")]["event"]
    assert sorted(exposed["hands"]) == sorted([str(seat), str(bot_seat)])
    winners = page.locator(".seat--winner")
    assert winners.count() >= 1 and page.locator(".seat--winner [data-testid^='won-']").count() >= 1
    assert page.locator(".seat--winner [data-testid^='label-']").count() >= 1  # the winning hand named
    result = page.locator(result_sel).inner_text()
    assert " wins " in result, result
    # the room deals the next hand 2 s later (when both still have chips); the result stays for the 8 s chosen,
    # saying "Last hand" once the next hand is under way, then goes
    while time.monotonic() - shown_at < 6.5:
        assert page.locator(result_sel).count() == 1, "the result went before the chosen 8 s"
        page.wait_for_timeout(250)
    if hand_id(page) != all_in_hand:
        assert "Last hand" in page.locator(result_sel).inner_text()
    page.wait_for_selector(result_sel, state="detached", timeout=5_000)

    # session statistics and the profit graph: the hands played, won/lost and one point per hand
    token = session_cookie(page)
    hands = httpx.get(f"{base}/api/hands?limit=100", headers={"Authorization": f"Bearer {token}"}, timeout=20).json()
    page.goto(f"{base}/#/account")
    page.wait_for_selector("[data-testid='session-hands']")
    played = int(page.locator("[data-testid='session-hands']").inner_text())
    assert played >= 2 and abs(played - len(hands["hands"])) <= 1, (played, len(hands["hands"]))
    graph = page.locator("[data-testid='profit-graphs'] .profit-game[data-game='holdem'] polyline")
    assert int(graph.get_attribute("data-points") or 0) == played + 1
    net = page.locator("[data-testid='session-net']").inner_text()
    label = page.locator("[data-testid='profit-graphs'] .profit-game[data-game='holdem'] svg").get_attribute("aria-label")
    assert net.split(" · ")[0] in (label or ""), (net, label)
    # issue #31: the graph has axes -- amounts on the left (zero among them), the first and last hand's time below
    svg = page.locator("[data-testid='profit-graphs'] .profit-game[data-game='holdem'] svg")
    assert svg.locator(".profit-tick[data-tick='0']").count() == 1
    assert svg.locator("[data-testid='graph-from']").text_content() and svg.locator("[data-testid='graph-to']").text_content()
    assert re.search(r"\d", page.locator("[data-testid='session-hph']").inner_text())
    # issue #31: the tracker statistics of the hands played (VPIP... as percentages, or a dash with no chance)
    stats = {k: page.locator(f"[data-testid='play-stats'] [data-stat='{k}']").inner_text()
             for k in ("vpip", "pfr", "three_bet", "wtsd", "wsd")}
    assert all(re.fullmatch(r"\d+(\.\d)?%|—", v) for v in stats.values()), stats
    assert stats["vpip"] != "—", stats
    page.locator("[data-testid='stats']").scroll_into_view_if_needed()
    screenshot(page, "account_stats")
    assert_no_foreign_down_cards(recorder.frames, seat)
