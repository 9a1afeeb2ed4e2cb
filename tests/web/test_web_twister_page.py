"""The Twister page itself (web/js/twister_page.js) fed with the frames the room sends, in Chromium without a server
(harness/twister_page.html: stub connection, REST answers given here; the frames come from the Python models):
the figures do not give the multiplier away while the reel turns (R-TWIST-3), a game the server names as running is
picked up (R-TOURN-DISC-1), and an interrupted Wild Twister says the cash and the tickets paid (R-TOURN-INT-9 with
R-WILD-1, kinds' reading in docs/twister.md)."""

from __future__ import annotations

from typing import Any

from riverboat.twister.events import SpinEvent
from riverboat.twister.lobby import offer

TID = "wild:wild-50-1-aa"


def _open(new_page: Any, static_url: str, playing: list[str]) -> Any:
    page = new_page()
    page.goto(f"{static_url}/harness/twister_page.html")
    page.wait_for_selector("body[data-ready='1']")
    lobby = {**offer(), "currency": "EUR", "tickets": [], "playing": playing}
    page.evaluate("(a) => { window.__answers['/api/twister'] = a.offer; window.__answers['/api/twister/history'] = "
                  "{history: [], tickets: []}; }", {"offer": lobby})
    page.evaluate("window.__open()")
    page.wait_for_selector("[data-testid='twister-lobby']", state="attached")
    return page


def test_r_tourn_int_9_wild_interrupted_says_the_cash_and_the_tickets(new_page: Any, static_url: str) -> None:
    """R-TOURN-INT-9, R-WILD-1, R-TOURN-DISC-1: the page opened while the server names a running Wild Twister is in
    'playing' mode; its ``interrupted`` event (paid in cash plus Twister tickets) is told in full."""
    page = _open(new_page, static_url, [TID])
    assert page.get_attribute("[data-testid='twister-page']", "data-mode") == "playing"
    page.evaluate("(f) => window.__frame(f)", {"type": "tournament", "tournament": TID, "event": "interrupted",
                                              "data": {"paid": 50, "rule": "R-TOURN-INT-9",
                                                       "tickets": [1000, 500, 100]}})
    assert page.get_by_test_id("twister-interrupted").inner_text() == (
        "Interrupted: you were paid €0.50 and Twister tickets of €10.00 + €5.00 + €1.00 (R-TOURN-INT-9).")
    assert page.get_by_test_id("twister-back").is_visible()


def test_r_twist_3_the_figures_do_not_tell_the_multiplier_before_the_reel_lands(new_page: Any,
                                                                                static_url: str) -> None:
    """R-TWIST-3: while the reel turns the figures show the type and the blinds, not the prize or the multiplier;
    once it lands they show the multiplier (the prize is in the spin's result)."""
    page = _open(new_page, static_url, [])
    spin = SpinEvent("twister:twister-100-1-aa", "twister", "EUR", 100, "twister-1-20", 5, 500, (500,)).to_dict()
    del spin["type"]
    spin.update(seconds=2.5, table="twister:twister-100-1-aa/t1", seat=0, small_blind=10, big_blind=20, level=1)
    page.evaluate("(d) => window.__frame({type: 'tournament', tournament: d.tournament_id, event: 'twister_spin', "
                  "data: d})", spin)
    hud = page.get_by_test_id("twister-hud").inner_text()
    assert page.get_attribute("[data-testid='twister-spin-box']", "data-landed") is None
    assert "Blinds 10/20" in hud and "5x" not in hud and "500" not in hud, hud
    page.wait_for_selector("[data-testid='twister-spin-box'][data-landed='5']", timeout=10_000)
    assert page.get_by_test_id("twister-hud").inner_text().startswith("Twister 5x · Blinds 10/20")
