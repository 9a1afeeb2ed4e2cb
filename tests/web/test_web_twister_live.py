"""A Twister played through the page against a real ``riverboat serve`` (issue #12, R-TWIST-11): the player
registers, opens the Twister page, chooses the type, then the buy-in, presses Play; the server's two fill bots
join; the table shows the spin landing on the drawn multiplier before the first hand (R-TWIST-3), the blinds and
the prize; the player acts through the action buttons until the Twister ends, and sees the result and the game in
the account's Twister history. Screenshots: artifacts/screenshots/twister_live_*.png. No console errors."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import DESKTOP, SCREENSHOTS, _free_port, session_cookie

TWISTER = {"currency": "PLAY", "fill_bots": 2, "spin_seconds": 3.0,
           "table_settings": {"between_hands_seconds": 0.3}}


@contextlib.contextmanager
def serve_twister(tmp_path: Path, config: dict[str, Any]) -> Iterator[str]:
    """A real ``riverboat serve`` on a free port with no tables and this Twister config; yields its base URL."""
    port = _free_port()
    (tmp_path / "tables.json").write_text("[]")
    (tmp_path / "twister.json").write_text(json.dumps(config))
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from riverboat.cli import main; main()", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'rb.sqlite3'}", "--tables", str(tmp_path / "tables.json"),
         "--twister", str(tmp_path / "twister.json"), "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT, cwd=str(tmp_path), env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextlib.contextmanager
def serve_twister_cluster(tmp_path: Path, config: dict[str, Any]) -> Iterator[str]:
    """The same room as a cluster (docs/cluster.md "Twister"): a gateway and two table hosts over NATS +
    PostgreSQL, no tables, this Twister config on every node; yields the gateway's base URL once the offer's host
    has written the offer."""
    from tests.server.test_server_cluster import Cluster, _nats_up

    _nats_up()
    (tmp_path / "twister.json").write_text(json.dumps(config))
    extra = ["--twister", str(tmp_path / "twister.json")]
    c = Cluster(tmp_path)
    try:
        c.start(c.h1, "tables", *extra, tables=[])
        c.start(c.h2, "tables", *extra, tables=[])
        gateway = c.start(f"{c.prefix}-g1", "gateway", *extra)
        deadline = time.monotonic() + 60
        while gateway.http.get("/api/twister").status_code != 200:
            assert time.monotonic() < deadline, "the Twister offer never reached the gateway"
            time.sleep(0.1)
        yield gateway.base_url
    finally:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # its asyncio.run beside the browser's running loop
            pool.submit(c.close).result()


@pytest.fixture(scope="module", params=["one", "cluster"])
def twister_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``riverboat serve``, and (issue #29) a gateway with two table hosts: the page plays the same."""
    serve = serve_twister if request.param == "one" else serve_twister_cluster
    with serve(tmp_path_factory.mktemp(f"twister-live-{request.param}"), TWISTER) as url:
        yield url


def _register(page: Any, base: str) -> None:
    page.goto(f"{base}/#/register")
    page.fill("[data-testid='register-username']", f"tw{uuid.uuid4().hex[:10]}")
    page.fill("[data-testid='register-password']", "correct horse battery")
    page.fill("[data-testid='register-password2']", "correct horse battery")
    page.click("form button[type='submit']")
    page.wait_for_function("document.getElementById('conn').dataset.status === 'online'")


def test_r_twist_11_play_a_twister_through_the_page(new_page: Any, twister_server: str) -> None:
    """R-TWIST-11/1/3/5: choose Twister, then PLAY 1.00, Play; two bots fill the table; the spin lands on the
    drawn multiplier before the first hand, the prize shown is multiplier x buy-in; the player plays through the
    action buttons to the end and sees the result and the game in the Twister history. The table and its action
    buttons are in view at 1366x768 without the cash-seat controls; a reload mid-game gives the table back
    (R-TOURN-DISC-1); the figures do not show the multiplier before the reel lands on it."""
    page = new_page()
    _register(page, twister_server)
    page.goto(f"{twister_server}/#/twister")
    page.get_by_test_id("twister-type-twister").click()
    page.get_by_test_id("twister-buyin-100").click()
    page.get_by_test_id("twister-play").click()
    page.wait_for_selector("[data-testid='twister-spin']", timeout=30_000)
    during = page.get_by_test_id("twister-hud").inner_text()
    if page.get_attribute("[data-testid='twister-spin-box']", "data-landed") is None:  # still spinning:
        assert "Prize" not in during and not re.search(r"\d+x", during), during  # the figures do not tell it
    page.wait_for_selector("[data-testid='twister-spin-box'][data-landed]", timeout=15_000)
    landed = int(page.get_attribute("[data-testid='twister-spin-box']", "data-landed") or "0")
    assert landed in (2, 3, 5, 8, 50, 1000)
    prize = page.get_by_test_id("twister-prize").inner_text()
    assert str(landed * 100) in "".join(ch for ch in prize if ch.isdigit()), prize  # multiplier x buy-in
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "twister_live_spin.png"))
    assert "Blinds 10/20" in page.get_by_test_id("twister-hud").inner_text()
    shot_table = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if page.locator("[data-testid='twister-final']").count():
            break
        bar = page.locator(".action-bar button[data-action]:not([disabled])")
        if bar.count():
            if not shot_table:
                page.screenshot(path=str(SCREENSHOTS / "twister_live_table.png"))
                shot_table = True
                # in view without scrolling at 1366x768: the felt and the action buttons; no cash-seat controls
                felt, button = page.locator(".twister-table .felt").bounding_box(), bar.first.bounding_box()
                assert felt is not None and button is not None and felt["y"] >= 0
                assert button["y"] + button["height"] <= DESKTOP["height"], button
                assert page.locator("[data-testid='top-up'], [data-testid='sit-out']").count() == 0
                # a reload in the middle of the game gives the table back (GET /api/twister names it)
                page.reload()
                page.wait_for_selector(".twister-table .felt", timeout=30_000)
                continue
            actions = [bar.nth(i).get_attribute("data-action") for i in range(bar.count())]
            choice = next((a for a in ("call", "check", "fold") if a in actions), None)
            if choice is not None:
                try:
                    page.click(f".action-bar button[data-action='{choice}']:not([disabled])", timeout=2000)
                except Exception:  # the decision moved on between reading and clicking
                    pass
        page.wait_for_timeout(150)
    final = page.get_by_test_id("twister-final").inner_text()
    assert final.startswith("You finished ") and "of 3" in final
    assert " left" not in page.get_by_test_id("twister-hud").inner_text()  # no stale "3 left" once it is over
    assert page.locator(".twister-table .table-page").is_visible()  # the last hand stays in view
    page.get_by_test_id("twister-back").click()  # back to the Twister lobby: the choice and the history
    page.wait_for_selector("[data-testid='tournament-history-row']", timeout=10_000)
    row = page.locator("[data-testid='tournament-history-row']").first.inner_text()
    assert "Twister" in row and f"{landed}x" in row
    page.screenshot(path=str(SCREENSHOTS / "twister_live_result.png"), full_page=True)
    assert shot_table


def test_r_twist_11_the_lobby_twister_tab_plays_on_the_twister_page(new_page: Any, twister_server: str) -> None:
    """R-TWIST-11: the lobby's Twister tab offers the section itself (type, then buy-in, its prizes, Play) — it
    said "no Twister tournaments" while the room offered them; the choice survives the lobby's 5-second refresh;
    "Play" opens the Twister page, which plays that choice once: the spin is shown, and a reload of the page comes
    back to the same game without registering again."""
    page = new_page()
    _register(page, twister_server)
    page.goto(f"{twister_server}/#/lobby")
    page.locator(".tabs [data-tab='twister']").click()
    page.get_by_test_id("twister-type-aog").click()
    page.get_by_test_id("twister-buyin-500").click()
    assert page.locator("[data-testid='twister-prizes'] tbody tr").count() == 6
    page.wait_for_timeout(5_500)  # one lobby refresh
    assert page.get_by_test_id("twister-play").inner_text() == "Play 500"
    page.get_by_test_id("twister-play").click()
    page.wait_for_selector("[data-testid='twister-spin']", timeout=60_000)  # generous: a loaded 2-core machine
    assert page.url.endswith("#/twister")
    assert page.get_by_test_id("twister-spin").inner_text().startswith("Age of the Gods Twister")
    page.reload()
    page.wait_for_function("document.getElementById('conn').dataset.status === 'online'", timeout=40_000)
    page.wait_for_selector("[data-testid='twister-page'][data-mode='playing']", timeout=40_000)
    token = session_cookie(page)
    deadline = time.monotonic() + 10  # a gateway lists the player's Twisters from the host's record (within ~1 s)
    while True:
        offer = httpx.get(f"{twister_server}/api/twister", headers={"Authorization": f"Bearer {token}"}).json()
        if offer["playing"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(offer["playing"]) == 1  # one game: the reload did not play the choice again
