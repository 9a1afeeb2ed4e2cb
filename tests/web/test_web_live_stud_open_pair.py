"""The stud open-pair choice in Chromium against a real ``riverboat serve`` (issue #14 items 6 and part 2): on fourth
street, when anyone shows an open pair, the first bet may be the small or the big bet and nothing between
(R-STUD open pair). The legal-action frame carries the two amounts (``allowed_to``); the page offers exactly one
button per amount and no slider, and the big bet it sends is accepted. Seven calling bots at an eight-seat table
make an open pair on fourth street likely in every hand (about one hand in three); the test plays until the player
meets one (bounded). The secrecy recorder (R-GEN-5) checks every frame.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import CallingBots
from .test_web_live_play import FrameRecorder, assert_no_foreign_down_cards, register, sit_down
from .test_web_live_table_life import check_or_call


def open_pair_decision(frames: list[dict[str, Any]], table_id: str, start: int) -> dict[str, Any] | None:
    for frame in frames[start:]:
        if frame.get("type") == "table_state" and frame.get("table") == table_id:
            legal = ((frame.get("view") or {}).get("hand") or {}).get("legal") or {}
            if len(legal.get("allowed_to") or []) > 1:
                return legal
    return None


@pytest.mark.slow
def test_issue_14_stud_open_pair_offers_exactly_the_small_and_the_big_bet(new_page: Any, live_server: Any) -> None:
    page = new_page()
    recorder = FrameRecorder(page)
    register(page, live_server.url)
    table_id, seat, _ = sit_down(page, live_server, "WebOpenPair", amount=2000)
    bots = CallingBots(live_server.url, count=7)
    try:
        bots.seat(table_id, [s for s in range(8) if s != seat], 4000)
        deadline = time.monotonic() + 240
        legal = None
        while time.monotonic() < deadline:
            bar = page.locator(".action-bar button[data-action='bet']:enabled")
            if bar.count() > 1:
                legal = open_pair_decision(recorder.frames, table_id, 0)
                break
            check_or_call(page)
            bring_in = page.locator(".action-bar button[data-action='bring_in']:enabled")
            if bring_in.count():
                try:
                    bring_in.first.click(timeout=1000)
                except Exception:  # the decision moved on meanwhile
                    pass
            page.wait_for_timeout(150)
        assert legal is not None, "no open pair on fourth street within 240 s"
        amounts = sorted(int(b.get_attribute("data-amount") or 0)
                         for b in page.locator(".action-bar button[data-action='bet']").all())
        assert amounts == sorted(legal["allowed_to"]) == [100, 200]
        assert page.locator("[data-testid='bet-slider']").count() == 0  # nothing between the two amounts
        assert page.locator("[data-testid='bet-amount']").count() == 0
        before = len(recorder.frames)
        page.click(".action-bar button[data-action='bet'][data-amount='200']")
        page.wait_for_function("""() => [...document.querySelectorAll("[data-testid='hand-log'] li")]
            .some(li => / bets to 200$/.test(li.textContent))""", timeout=20_000)
        acted = [f["event"] for f in recorder.frames[before:] if f.get("type") == "event"
                 and f["event"].get("kind") == "acted" and f["event"].get("seat") == seat]
        assert acted and acted[0]["action"] == "bet" and acted[0]["to"] == 200
        assert not [f for f in recorder.frames[before:] if f.get("type") == "error"]
        assert_no_foreign_down_cards(recorder.frames, seat)
    finally:
        bots.stop()
