"""The account page's tournament history after Twisters played through the page (issue #11 item 8, issue #12 item
6, R-TWIST-11) against a real ``riverboat serve``: a player registers in Chromium, two protocol bots (real accounts
on WebSockets) press Play first, the player presses Play and plays through the action buttons. Then, in the
browser, the account page of each player shows the row: kind, place of 3, the cash prize for the winner; the
Twister page's history shows the same row. A Wild Twister's winner sees a ticket row (the ticket at its face value,
not a prize of 0), finds the ticket on the Twister page and plays the Twister of that value with it, the row of
that Twister showing the ticket used. Screenshots: artifacts/screenshots/twister_history_*.png."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from riverboat.bots import ProtocolClient
from riverboat.bots.twister import TwisterBot

from .conftest import SCREENSHOTS
from .test_web_twister_live import serve_twister

CONFIG = {"currency": "PLAY", "spin_seconds": 1.5, "table_settings": {"between_hands_seconds": 0.3}}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_twister(tmp_path_factory.mktemp("twister-history"), CONFIG) as url:
        yield url


class Account:
    def __init__(self, base: str) -> None:
        self.username = f"th{uuid.uuid4().hex[:10]}"
        r = httpx.post(f"{base}/api/register", json={"username": self.username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.player_id = r.json()["player_id"]
        login = httpx.post(f"{base}/api/login", json={"username": self.username, "password": PASSWORD})
        self.token = login.json()["token"]

    def history(self, base: str, path: str = "/api/tournaments/history") -> list[dict[str, Any]]:
        r = httpx.get(f"{base}{path}", headers={"Authorization": f"Bearer {self.token}"})
        return list(r.json()["history"])


class Bots:
    """Two TwisterBots (shove or call every decision) on an asyncio loop in a background thread."""

    def __init__(self, base: str, accounts: list[Account]) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        ws = base.replace("http://", "ws://") + "/ws"
        self.clients = [ProtocolClient(ws, a.token) for a in accounts]
        self.bots = [TwisterBot(c) for c in self.clients]
        for c in self.clients:
            self._run(c.connect())

    def _run(self, coro: Any, timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=timeout)

    def play(self, kind: str, buy_in: int) -> None:
        for bot in self.bots:
            self._run(bot.play(kind, buy_in))

    def wait(self, timeout: float = 240.0) -> None:
        async def all_done() -> None:
            await asyncio.gather(*(b.finished.wait() for b in self.bots))

        self._run(asyncio.wait_for(all_done(), timeout), timeout + 5)

    def stop(self) -> None:
        for c in self.clients:
            self._run(c.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def login(page: Any, base: str, account: Account) -> None:
    page.goto(f"{base}/#/login")
    page.fill("[data-testid='login-username']", account.username)
    page.fill("[data-testid='login-password']", PASSWORD)
    page.click("form button[type='submit']")
    # logged in and taken to the lobby: the anonymous socket is online before the login is done, and the login's
    # move to the lobby (app.js) came after a page the test opened next, which then showed the lobby instead
    page.wait_for_function("document.getElementById('login-link').textContent === 'Log out'"
                           " && location.hash === '#/lobby'"
                           " && document.getElementById('conn').dataset.status === 'online'", timeout=40_000)


def play_through_the_page(page: Any, kind: str, buy_in: int) -> str:
    """Choose ``kind`` and ``buy_in`` on the Twister page, press Play, act with the buttons to the end; returns the
    result line."""
    page.goto(page.url.split("#")[0] + "#/twister")
    page.get_by_test_id(f"twister-type-{kind}").click()
    page.get_by_test_id(f"twister-buyin-{buy_in}").click()
    page.get_by_test_id("twister-play").click()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not page.locator("[data-testid='twister-final']").count():
        bar = page.locator(".action-bar button[data-action]:not([disabled])")
        if bar.count():
            actions = [bar.nth(i).get_attribute("data-action") for i in range(bar.count())]
            choice = next((a for a in ("call", "check", "fold") if a in actions), None)
            if choice is not None:
                try:
                    page.click(f".action-bar button[data-action='{choice}']:not([disabled])", timeout=2000)
                except Exception:  # the decision moved on between reading and clicking
                    pass
        page.wait_for_timeout(150)
    return str(page.get_by_test_id("twister-final").inner_text(timeout=40_000))


def account_row(page: Any, base: str, tournament: str) -> Any:
    page.goto(f"{base}/#/account")
    row = page.locator(f"[data-testid='account-tournaments'] [data-tournament='{tournament}']")
    row.wait_for(timeout=40_000)  # generous: a loaded 2-core machine
    return row


def twister_row_text(page: Any, base: str, tournament: str) -> str:
    page.goto(f"{base}/#/twister")
    row = page.locator(f"[data-testid='twister-history'] [data-tournament='{tournament}']")
    row.wait_for(timeout=40_000)
    return str(row.inner_text())


def test_r_twist_11_account_history_shows_the_twister_played_through_the_page(
        new_page: Any, server: str) -> None:
    """R-TWIST-11, R-TOURN-GEN-5: after a Twister played through the page, every player's account page has its
    row (Twister, the multiplier, buy-in, place of 3) and the winner's shows the cash prize; the Twister page's
    history shows the same row; the page agrees with GET /api/tournaments/history."""
    player, *others = [Account(server) for _ in range(3)]
    bots = Bots(server, others)
    try:
        page = new_page()
        login(page, server, player)
        bots.play("twister", 100)
        final = play_through_the_page(page, "twister", 100)
        bots.wait()
    finally:
        bots.stop()
    assert final.startswith("You finished")
    rows = {a.player_id: a.history(server)[0] for a in (player, *others)}
    tid = rows[player.player_id]["tournament"]
    assert {r["tournament"] for r in rows.values()} == {tid}
    winner = next(a for a in (player, *others) if rows[a.player_id]["place"] == 1)
    prize = rows[winner.player_id]["prize"]
    assert prize == rows[winner.player_id]["prize_pool"] > 0  # winner takes all below the split threshold
    mine = account_row(page, server, tid)
    text = mine.inner_text()
    assert "Twister" in text and f"{rows[player.player_id]['multiplier']}x" in text and "of 3" in text
    assert mine.get_by_test_id("th-buy-in").inner_text() == "100"
    assert twister_row_text(page, server, tid) == text  # the Twister page's history agrees
    if winner is not player:
        page = new_page()
        login(page, server, winner)
    win = account_row(page, server, tid)
    assert win.get_by_test_id("th-place").inner_text() == "1 of 3"
    assert win.get_by_test_id("th-prize").inner_text() == f"{prize:,}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("account-tournaments").screenshot(path=str(SCREENSHOTS / "twister_history_account.png"))


def test_r_wild_1_account_history_shows_the_wild_ticket_and_its_use(new_page: Any, server: str) -> None:
    """R-WILD-1/2, R-TOURN-GEN-2, R-TWIST-11: after a Wild Twister (automatic all-ins) played from the page, the
    winner's account page shows a ticket row — "Ticket <value> (Twister)", no cash prize — and the others' rows
    show nothing won; the winner sees the ticket on the Twister page, plays the Twister of that value with it
    (the balance does not pay), and that Twister's row shows the ticket used."""
    player, *others = [Account(server) for _ in range(3)]
    everyone = (player, *others)
    bots = Bots(server, others)
    try:
        page = new_page()
        login(page, server, player)
        bots.play("wild", 50)
        play_through_the_page(page, "wild", 50)
        bots.wait()
        rows = {a.player_id: a.history(server)[0] for a in everyone}
        tid = rows[player.player_id]["tournament"]
        winner = next(a for a in everyone if rows[a.player_id]["place"] == 1)
        (won,) = rows[winner.player_id]["tickets_won"]
        value = won["value"]
        assert rows[winner.player_id]["prize"] == 0 and value == rows[winner.player_id]["prize_pool"] > 0
        if winner is not player:
            page = new_page()
            login(page, server, winner)
        row = account_row(page, server, tid)
        assert row.get_by_test_id("th-ticket").inner_text() == f"Ticket {value:,} (Twister)"
        assert row.locator("[data-testid='th-prize']").count() == 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.get_by_test_id("account-tournaments").screenshot(path=str(SCREENSHOTS / "twister_history_wild.png"))
        # the ticket buys the winner's next Twister of its value, through the page
        page.goto(f"{server}/#/twister")
        page.get_by_test_id("twister-ticket").wait_for(timeout=40_000)
        balance = httpx.get(f"{server}/api/me", headers={"Authorization": f"Bearer {winner.token}"}).json()
        rest = [a for a in everyone if a is not winner]
        bots.stop()
        bots = Bots(server, rest)
        bots.play("twister", value)
        play_through_the_page(page, "twister", value)
        bots.wait()
    finally:
        bots.stop()
    after = httpx.get(f"{server}/api/me", headers={"Authorization": f"Bearer {winner.token}"}).json()
    last = winner.history(server)[0]
    assert last["ticket_used"] == value and last["paid_buy_in"] == 0
    assert after["balances"]["PLAY"] == balance["balances"]["PLAY"] + last["prize"]  # the ticket paid the buy-in
    row = account_row(page, server, last["tournament"])
    assert row.get_by_test_id("th-ticket-used").inner_text() == f"Ticket {value:,}"
