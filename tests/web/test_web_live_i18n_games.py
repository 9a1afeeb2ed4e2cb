"""The pseudo-locale walk (issue #32) over the games that run on their own pages: a Sit & Go's tournament table with
its HUD played to the player's result, and a Twister from the spin to the final place, in Debian's Chromium against
a real ``riverboat serve``. With ``?lang=qps`` every catalog text is wrapped in ⟦…⟧; any other visible word that is
not data (names, the tournament's name) fails the test (tests/web/test_web_live_i18n.py has the walk)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.conftest import SecrecyRecorder

from .test_web_live_i18n import untranslated
from .test_web_live_tournament_play import SNG, TourneyBots, _act_once, _create, _deposit
from .test_web_twister_live import TWISTER, serve_twister

PASSWORD = "correct horse battery"
NAMES = "() => [...document.querySelectorAll('[data-testid^=name-]')].map(n => n.textContent.trim())"


def _register(page: Any, base: str) -> str:
    name = f"q{uuid.uuid4().hex[:10]}"
    page.goto(f"{base}/?lang=qps#/register")
    page.fill("[data-testid='register-username']", name)
    page.fill("[data-testid='register-password']", PASSWORD)
    page.fill("[data-testid='register-password2']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")
    page.wait_for_function("document.getElementById('conn').dataset.status === 'online'")
    return name


def _values(page: Any, *fixed: str) -> list[str]:
    me = page.evaluate("() => window.riverboat.session.alias()") or ""
    return sorted({*page.evaluate(NAMES), me, *fixed, "Riverboat"} - {""}, key=len, reverse=True)


def test_issue_32_pseudo_locale_tournament_table_to_the_result(new_page: Any, live_server: Any,
                                                               screenshot: Any) -> None:
    """Issue #32: a Sit & Go under ?lang=qps -- its table with the HUD (level, blinds, countdown, place, average
    stack), the action bar, the log, and the player's place and prize at the end -- shows only catalog text."""
    tid = _create(live_server, SNG, "qsng")
    bots = TourneyBots(live_server, SecrecyRecorder(), 2)
    seen: dict[str, list[tuple[str, str]]] = {}
    try:
        bots.register(tid)
        page = new_page()
        name = _register(page, live_server.url)
        _deposit(live_server, name)
        page.evaluate("window.riverboat.session.refresh()")
        page.click("[data-tab='sng']")
        page.click(f"[data-testid='register-{tid}']")
        page.wait_for_selector("[data-testid='tourney-page']", timeout=20_000)
        page.wait_for_selector("[data-hud='level']", timeout=20_000)
        fixed = (name, f"Web {tid}", tid)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not page.locator("[data-testid='tourney-place']").count():
            if page.locator(".action-bar button[data-action]:not([disabled])").count() and "table" not in seen:
                page.wait_for_timeout(200)
                seen["table"] = untranslated(page, _values(page, *fixed))
                screenshot(page, "i18n_qps_tourney_table")
            _act_once(page)
            page.wait_for_timeout(150)
        page.wait_for_selector("[data-testid='tourney-result']")
        page.wait_for_timeout(300)
        seen["result"] = untranslated(page, _values(page, *fixed))
        screenshot(page, "i18n_qps_tourney_result")
    finally:
        bots.stop()
    assert set(seen) == {"table", "result"}
    leaks = {where: found for where, found in seen.items() if found}
    assert leaks == {}, "\n".join(f"{where}: {found}" for where, found in leaks.items())


@pytest.fixture(scope="module")
def twister_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_twister(tmp_path_factory.mktemp("i18n-twister"), TWISTER) as url:
        yield url


def test_issue_32_pseudo_locale_twister_from_the_spin_to_the_final_place(new_page: Any, twister_server: str,
                                                                         screenshot: Any) -> None:
    """Issue #32: a Twister under ?lang=qps -- the choice, the spin and its prize, the table with the Twister HUD
    and the action bar, the final place -- shows only catalog text."""
    page = new_page()
    name = _register(page, twister_server)
    page.goto(f"{twister_server}/?lang=qps#/twister")
    page.get_by_test_id("twister-type-twister").click()
    page.get_by_test_id("twister-buyin-100").click()
    seen = {"choice": untranslated(page, _values(page, name))}
    page.get_by_test_id("twister-play").click()
    page.wait_for_selector("[data-testid='twister-spin-box'][data-landed]", timeout=60_000)
    page.wait_for_timeout(300)
    seen["spin"] = untranslated(page, _values(page, name))
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not page.locator("[data-testid='twister-final']").count():
        if page.locator(".action-bar button[data-action]:not([disabled])").count() and "table" not in seen:
            page.wait_for_timeout(200)
            seen["table"] = untranslated(page, _values(page, name))
            screenshot(page, "i18n_qps_twister_table")
        _act_once(page)
        page.wait_for_timeout(150)
    page.wait_for_selector("[data-testid='twister-final']")
    page.wait_for_timeout(300)
    seen["final"] = untranslated(page, _values(page, name))
    screenshot(page, "i18n_qps_twister_final")
    assert set(seen) == {"choice", "spin", "table", "final"}
    leaks = {where: found for where, found in seen.items() if found}
    assert leaks == {}, "\n".join(f"{where}: {found}" for where, found in leaks.items())
