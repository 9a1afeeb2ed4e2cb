"""The lobby's Twister section in the browser (R-TWIST-11, R-TWIST-1, R-WILD-5), fed by the Python offer."""

from __future__ import annotations

from typing import Any

from riverboat.twister import TwisterSettings
from riverboat.twister.lobby import offer

from .conftest import SCREENSHOTS


def test_r_twist_11_choose_a_type_then_a_buy_in_see_its_prizes_and_play(new_page: Any, static_url: str) -> None:
    """R-TWIST-11: the player chooses a Twister type, then a buy-in; R-TWIST-1: that buy-in's prizes and chances
    are shown (R-TWIST-5 split in brackets); "Play" asks to register for exactly that type and buy-in."""
    page = new_page()
    page.goto(f"{static_url}/harness/twister_lobby.html")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("(o) => window.__lobby(o)", offer())
    page.get_by_test_id("twister-type-twister").click()
    page.get_by_test_id("twister-buyin-2000").click()
    rows = page.locator("[data-testid='twister-prizes'] tbody tr")
    assert rows.count() == 6
    assert rows.nth(1).inner_text().split("\t") == ["50x", "€1,000.00 (€800.00 / €100.00 / €100.00)", "0.05%"]
    page.get_by_test_id("twister-type-aog").click()
    assert page.locator("[data-testid^='twister-buyin-']").count() == 3
    page.get_by_test_id("twister-buyin-500").click()
    assert page.locator("[data-testid='twister-prizes'] tbody tr").first.inner_text().split("\t") == [
        "100x", "€500.00", "0.05%"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("twister-lobby").screenshot(path=str(SCREENSHOTS / "twister_lobby.png"))
    page.get_by_test_id("twister-play").click()
    assert page.evaluate("window.__played") == [["aog", 500]]
    page.evaluate("window.__section.setStatus('Waiting for players: 1 of 3')")
    assert page.get_by_test_id("twister-status").inner_text() == "Waiting for players: 1 of 3"


def test_r_wild_5_only_the_types_the_room_offers(new_page: Any, static_url: str) -> None:
    """R-WILD-5: a room offering Classic Twister and Wild Twister shows exactly those two."""
    page = new_page()
    page.goto(f"{static_url}/harness/twister_lobby.html")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("(o) => window.__lobby(o)", offer(TwisterSettings(enabled_kinds=("twister", "wild"))))
    names = page.eval_on_selector_all(".twister-type", "bs => bs.map(b => b.dataset.testid)")
    assert names == ["twister-type-twister", "twister-type-wild"]
    page.get_by_test_id("twister-type-wild").click()
    page.get_by_test_id("twister-buyin-50").click()
    assert page.locator("[data-testid='twister-prizes'] thead").inner_text().strip().split("\t") == ["Multiplier", "Ticket",
                                                                                            "Chance"]
