"""Issue #31 item 1, the client's side: the page applies each (table, seq) once, however many copies of an event
reach it. Every ``event`` frame the server sends is delivered to the page twice (Playwright routes the page's
WebSocket and forwards each event frame two times); while the player plays a few hands with a bot, the table's
dealer lines in the chat are one per distinct event, not two (the issue saw "every dealer line twice"), and the
hand log holds no line twice in a row for one event."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from .test_web_live_play import register, sit_down
from .test_web_live_player_tools import _play_hands

DEALER_KINDS = {"hand_started", "showed", "exposed", "pot_awarded", "returned", "split_agreed", "run_it_twice",
                "seated", "left", "sat_out", "acted", "board", "drew", "mucked", "timed_out", "auto_draw", "timebank"}


@pytest.mark.slow
def test_issue_31_each_table_seq_is_applied_once_when_events_arrive_twice(
        new_page: Any, live_server: Any, calling_bots: Any, screenshot: Any) -> None:
    page = new_page()
    copies: Counter[tuple[str, int]] = Counter()
    kinds: dict[tuple[str, int], str] = {}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: Any) -> None:
            ws.send(message)
            try:
                frame = json.loads(message)
            except (TypeError, ValueError):
                return
            if isinstance(frame, dict) and frame.get("type") == "event" and isinstance(frame.get("seq"), int):
                key = (str(frame.get("table")), frame["seq"])
                copies[key] += 2
                kinds[key] = str((frame.get("event") or {}).get("kind"))
                ws.send(message)  # the same event again

        server.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws$"), route)
    register(page, live_server.url)
    table_id, seat, buy_in = sit_down(page, live_server, "WebOnce", post_now=True, amount=4000)
    calling_bots.seat(table_id, [1 if seat != 1 else 2], buy_in)
    _play_hands(page, seat, 2, fold_one=False)
    log = page.locator("[data-testid='hand-log'] > *").all_inner_texts()
    page.click("[data-panel='chat']")
    page.wait_for_selector(".chat-dealer-line")
    lines = page.locator(".chat-dealer-line").all_inner_texts()
    mine = {k: n for k, n in copies.items() if k[0] == table_id}
    assert mine and all(n >= 2 for n in mine.values())  # every event of the table arrived twice or more
    dealer_events = sum(1 for k in mine if kinds[k] in DEALER_KINDS)
    assert 0 < len(lines) <= dealer_events, (len(lines), dealer_events)  # one line per event, not two
    assert log and all(a != b for a, b in zip(log, log[1:], strict=False)), log
    screenshot(page, "events_once_chat")
