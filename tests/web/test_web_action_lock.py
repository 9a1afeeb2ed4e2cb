"""One action per decision (R-ACT-1: a player acts once when it is their turn): a double-click, a click followed by
its keyboard shortcut, or Enter twice in the amount box sends ONE command. The action bar stays locked from the
first click until the next decision arrives; a command the server refuses unlocks it so the player can still act.

Runs on the fixture harness (tests/web/harness): the real TableStore/TableView fed with protocol frames, the
commands the view sends collected in ``window.__sent``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "harness" / "fixtures"


def open_fixture(new_page: Any, static_url: str, name: str = "holdem_action") -> Any:
    page = new_page()
    page.goto(f"{static_url}/harness/table.html?fixture={name}")
    page.wait_for_selector("body[data-ready='1']")
    return page


def acts(page: Any) -> list[dict[str, Any]]:
    return [c for c in page.evaluate("window.__sent") if c["type"] == "act"]


def feed(page: Any, frame: dict[str, Any]) -> None:
    page.evaluate("(f) => window.__harness.feed(f)", frame)


def next_decision_frames() -> list[dict[str, Any]]:
    """After the hero (seat 2) calls 60 on the flop, Carol (seat 3) raises to 240 and it is the hero's turn
    again: call 180 or raise to 420..1440."""
    state = json.loads((FIXTURES / "holdem_action.json").read_text())["frames"][0]
    again = copy.deepcopy(state)
    hand = again["view"]["hand"]
    hand["pot"] = 155 + 60 + 240
    hand["players"][2].update(stack=1440, bet=60)
    hand["players"][3].update(stack=1970, bet=240)
    hand["legal"] = {"seat": 2, "kinds": ["call", "fold", "raise"], "call": 180, "min_to": 420, "max_to": 1500,
                     "bring_in": 0, "max_discards": 0}
    return [
        {"v": 1, "type": "event", "table": "t1", "event": {"kind": "acted", "seat": 2, "action": "call", "to": 60}},
        {"v": 1, "type": "event", "table": "t1",
         "event": {"kind": "acted", "seat": 3, "action": "raise", "to": 240, "all_in": False, "full": True}},
        again,
    ]


def enabled_actions(page: Any) -> list[str]:
    return page.eval_on_selector_all(".action-bar button[data-action]:enabled",
                                     "bs => bs.map(b => b.dataset.action)")


def test_r_act_double_click_sends_one_action_and_locks_the_bar_until_the_next_decision(new_page: Any,
                                                                                      static_url: str) -> None:
    page = open_fixture(new_page, static_url)
    page.dblclick("button[data-action='call']")
    assert acts(page) == [{"type": "act", "table": "t1", "kind": "call"}]
    # every action button (and the amount controls) is disabled, so the raise and the keys do nothing either
    assert enabled_actions(page) == []
    assert page.locator("[data-testid='bet-amount']").is_disabled()
    # the lock is one attribute: the decision's <fieldset> is disabled (issue #14: no DOM change per control)
    assert page.locator("[data-testid='decision']").get_attribute("disabled") is not None
    page.locator("body").click(position={"x": 5, "y": 60})
    for key in ("c", "r", "f"):
        page.keyboard.press(key)
    page.locator("button[data-action='raise']").dispatch_event("click")  # even a click event on a disabled one
    assert len(acts(page)) == 1
    # the next decision brings a live bar again, with its own amounts
    for frame in next_decision_frames():
        feed(page, frame)
    assert sorted(enabled_actions(page)) == ["call", "fold", "raise"]
    assert "€1.80" in page.locator("button[data-action='call']").inner_text()
    page.dblclick("button[data-action='raise']")
    assert acts(page)[1:] == [{"type": "act", "table": "t1", "kind": "raise", "amount": 420}]


def test_r_act_enter_twice_in_the_amount_box_sends_one_raise(new_page: Any, static_url: str) -> None:
    page = open_fixture(new_page, static_url)
    box = page.locator("[data-testid='bet-amount']")
    box.fill("2.50")
    page.evaluate("""() => {
        const box = document.querySelector("[data-testid='bet-amount']");
        for (let i = 0; i < 2; i++) box.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
    }""")
    assert acts(page) == [{"type": "act", "table": "t1", "kind": "raise", "amount": 250}]


def test_a_refused_action_unlocks_the_bar_so_the_player_can_still_act(new_page: Any, static_url: str) -> None:
    page = open_fixture(new_page, static_url)
    page.evaluate("window.__reply = null")  # the command fails (refused, or the connection dropped)
    page.click("button[data-action='call']")
    page.wait_for_function("!document.querySelector(\"[data-testid='decision']\").disabled")
    assert sorted(enabled_actions(page)) == ["call", "fold", "raise"]
    page.evaluate("window.__reply = {type: 'ack'}")
    page.dblclick("button[data-action='fold']")
    assert [a["kind"] for a in acts(page)] == ["call", "fold"]
