"""The Twister spin in the browser (R-TWIST-3, R-AOG-3, R-WILD-1): the reel animates and lands on the drawn
multiplier; the prize, its split (R-TWIST-5) and any jackpot win are shown. The event comes from the Python model
(riverboat.twister.events.SpinEvent), so the page is tested against the frame the room will send."""

from __future__ import annotations

import time
from typing import Any

from riverboat.twister.events import JackpotNotice, SpinEvent

from .conftest import SCREENSHOTS


def _open(new_page: Any, static_url: str) -> Any:
    page = new_page()
    page.goto(f"{static_url}/harness/twister_spin.html")
    page.wait_for_selector("body[data-ready='1']")
    return page


def _window_shows(page: Any) -> str:
    """The multiplier inside the reel window (the cell whose centre is inside the window's box)."""
    return page.evaluate("""() => {
      const w = document.querySelector('.twister-window').getBoundingClientRect();
      const mid = w.top + w.height / 2;
      const hit = [...document.querySelectorAll('.twister-cell')].filter((c) => {
        const r = c.getBoundingClientRect(); return r.top <= mid && r.bottom > mid; });
      return hit.map((c) => c.dataset.m).join(',');
    }""")


def test_r_twist_3_spin_animates_and_lands_on_the_drawn_multiplier(new_page: Any, static_url: str) -> None:
    """R-TWIST-3 / R-TWIST-5: a EUR 1 Twister drawn at 1000x: the reel moves (mid-spin the window shows
    something else than at rest), lands on 1000x, and shows the EUR 1,000 pool split 80/10/10."""
    page = _open(new_page, static_url)
    spin = SpinEvent("twister:1", "twister", "EUR", 100, "twister-1-20", 1000, 100_000, (80_000, 10_000, 10_000))
    page.evaluate("(s) => { window.__done = window.__spin(s, 1500); }", spin.to_dict())
    time.sleep(0.4)
    moving = page.evaluate("getComputedStyle(document.querySelector('.twister-strip')).transform")
    assert moving not in ("none", "")
    page.wait_for_selector("[data-landed='1000']", timeout=10_000)
    assert _window_shows(page) == "1000"
    assert page.locator(".twister-cell--landed").inner_text() == "1000x"
    assert page.get_by_test_id("twister-prize").inner_text() == "Prize pool: €1,000.00"
    assert page.get_by_test_id("twister-places").inner_text() == "1st €800.00 · 2nd €100.00 · 3rd €100.00"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("twister-spin").screenshot(path=str(SCREENSHOTS / "twister_spin.png"))


def test_r_aog_3_every_player_sees_the_jackpot_win_and_wild_prizes_are_tickets(new_page: Any,
                                                                               static_url: str) -> None:
    """R-AOG-3: a jackpot win is shown with the tier and the winner; R-WILD-1: a Wild prize reads as a ticket;
    every multiplier of every table can be landed on."""
    page = _open(new_page, static_url)
    aog = SpinEvent("twister:2", "aog", "EUR", 500, "aog", 2, 1000, (1000,),
                    (JackpotNotice(1, "super_power", 5_657),))
    page.evaluate("(s) => window.__spin(s, 0)", aog.to_dict())
    assert _window_shows(page) == "2"
    assert page.get_by_test_id("twister-places").inner_text() == "Winner takes all"
    assert page.get_by_test_id("twister-jackpot").inner_text() == "Super Power jackpot: Bob wins €56.57"
    page.get_by_test_id("twister-spin").screenshot(path=str(SCREENSHOTS / "twister_spin_aog.png"))
    wild = SpinEvent("wild:1", "wild", "EUR", 50, "wild", 40, 2000, (2000,))
    page.evaluate("(s) => window.__spin(s, 0)", wild.to_dict())
    assert page.get_by_test_id("twister-prize").inner_text() == "Prize: a €20.00 Twister ticket"
    for m in wild.to_dict()["reel"]:
        page.evaluate("(s) => window.__spin(s, 0)", {**wild.to_dict(), "multiplier": m})
        assert _window_shows(page) == str(m)
