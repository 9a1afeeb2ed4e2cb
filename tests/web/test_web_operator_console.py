"""The operator console in the browser (issue #13, R-OPER-4/-5, R-INTEG-5c, R-INTEG-8) against a real
``riverboat serve``: a security account made with ``riverboat operator create`` logs in, opens a flag, views the
evidence hands with every hole card, bans the flagged account; the banned player's open socket is closed and they
cannot log in again; the audit log shows the ban and the hand views. A player account cannot use the console."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import httpx
import pyotp
import pytest
from argon2 import PasswordHasher
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from riverboat.bots.collusion import Population, simulate
from riverboat.history import dumps
from riverboat.integrity import Flag
from riverboat.store import Store

from .conftest import LiveServer

PASSWORD = "operator-pass-123"
TABLES = [{"name": "OpHoldem", "game": "holdem", "structure": "NL", "small_blind": 50, "big_blind": 100,
           "max_seats": 6, "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY", "bots": 0}]


@pytest.fixture(scope="module")
def console_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("operator-web")
    server = LiveServer(tmp, TABLES)
    server.wait_ready(timeout=300)  # a loaded CI machine boots it slowly
    server.db_url = f"sqlite:///{tmp / 'riverboat.sqlite3'}"  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.stop()


def _seed(db_url: str) -> tuple[int, int, list[str], dict[str, str]]:
    """Six accounts, three stored hands with them (PHH records with every hole card), one flag on two of them."""
    records = list(simulate(Population(players=6, sessions=1, hands_per_session=3, seed=5)))
    with Store(db_url, password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)) as store:
        ids = {f"bot{i:02d}": store.accounts.register(f"webop{i}", f"password-webop{i}").id for i in range(6)}
        refs, holes = [], {}
        for r in records:
            fields = dict(r.fields)
            names = fields["players"]
            fields["players"] = [str(ids[n]) for n in names]
            fields["table"] = "OpEvidence"
            stacks = {ids[n]: int(s) for n, s in zip(names, fields["starting_stacks"], strict=True)}
            store.hands.record("OpEvidence", str(fields["hand"]), stacks, dumps(fields))
            refs.append(f"OpEvidence/{fields['hand']}")
            for a in fields["actions"]:
                if a.startswith("d dh ") and refs[-1] == "OpEvidence/1":
                    holes[fields["players"][int(a.split()[2][1:]) - 1]] = a.split()[3]
        cheater, partner = ids["bot00"], ids["bot01"]
        store.integrity.save_flags([Flag((str(cheater), str(partner)), "chip_dumping", 0.9993, 3, tuple(refs), 1e-9,
                                         {"bad_losses": 3.0})])
    return cheater, partner, refs, holes


def test_operator_bans_a_flagged_player_from_the_console(new_page: Any, console_server: Any,
                                                         screenshot: Any) -> None:
    base = console_server.url
    env = {**os.environ, "RIVERBOAT_OPERATOR_PASSWORD": PASSWORD}
    made = subprocess.run([sys.executable, "-c", "from riverboat.cli import main; main()", "operator", "create",
                           "sec_console", "--role", "security", "--database-url", console_server.db_url],
                          capture_output=True, text=True, env=env, timeout=120)
    assert made.returncode == 0 and "created security account" in made.stdout, made.stderr
    # issue #35: the CLI printed the second factor's provisioning URI (and recovery codes)
    uri = next(w for w in made.stdout.split() if w.startswith("otpauth://totp/"))
    totp = pyotp.parse_uri(uri)
    cheater, _, refs, holes = _seed(console_server.db_url)

    # the flagged player is online: an authenticated WebSocket
    token = httpx.post(f"{base}/api/login", json={"username": "webop0", "password": "password-webop0"}).json()["token"]
    with connect(base.replace("http://", "ws://") + "/ws") as ws:  # closed by the server at the ban
        ws.send(json.dumps({"v": 1, "id": 1, "type": "auth", "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"

        page = new_page()
        page.goto(f"{base}/operator.html")
        page.fill("[data-testid='op-login-username']", "sec_console")
        page.fill("[data-testid='op-login-password']", PASSWORD)
        page.fill("[data-testid='op-login-code']", totp.now())
        page.click("[data-testid='op-login-submit']")
        page.wait_for_selector("[data-testid='flag-row']")
        assert "chip dumping" in page.locator("[data-testid='flag-row']").first.inner_text()
        page.click("[data-testid='flag-row']")
        page.wait_for_selector("[data-testid='flag-detail']")
        assert page.locator("[data-testid='evidence-hand']").count() == 3
        page.click(f"[data-testid='evidence-hand'][data-ref='{refs[0]}']")
        page.wait_for_selector("[data-testid='hand-view']")
        shown = page.locator("[data-testid='hole-cards']").all_inner_texts()
        assert sorted(shown) == sorted(holes.values())  # every player's hole cards, for security staff
        # issue #31 item 10: the hand read as a hand -- streets with the players' names, not raw PHH notation
        streets = page.locator("[data-testid='hand-street']").all_inner_texts()
        assert streets and streets[0].startswith("Pre-flop"), streets
        text = "\n".join(streets)
        assert "Dealt to " in text and " d dh " not in text and "cbr" not in text, text
        screenshot(page, "operator-hand-view")
        page.click("[data-testid='back-to-flag']")
        page.click(f"[data-testid='flag-player'][data-player-id='{cheater}']")
        page.wait_for_selector("[data-testid='player-detail']")
        page.select_option("[data-testid='action-select']", "ban")
        page.fill("[data-testid='action-reason']", "chip dumping to webop1, hands reviewed")
        page.click("[data-testid='action-submit']")
        page.wait_for_selector("[data-testid='player-status']:text('banned')")
        assert "Done: Ban" in page.locator("[data-testid='action-result']").inner_text()
        screenshot(page, "operator-player-banned")

        # the banned player's socket is told and closed; they cannot log in again
        frames = []
        with pytest.raises(ConnectionClosed):
            while True:
                frames.append(json.loads(ws.recv(timeout=10)))
        assert any(f.get("type") == "notice" and f.get("code") == "account_blocked" for f in frames)
    again = httpx.post(f"{base}/api/login", json={"username": "webop0", "password": "password-webop0"})
    assert again.status_code == 403 and again.json()["error"]["code"] == "account_blocked"
    player = new_page()
    player.probe.allow(403)
    player.goto(f"{base}/#/login")
    player.fill("[data-testid='login-username']", "webop0")
    player.fill("[data-testid='login-password']", "password-webop0")
    player.click("form button[type='submit']")
    player.wait_for_selector("[data-testid='form-error']:not(:empty)")
    assert "banned" in player.locator("[data-testid='form-error']").inner_text()

    # the audit log shows the ban (and the hole-card view), newest first
    page.click("[data-testid='nav-audit']")
    page.wait_for_selector("[data-testid='audit'] [data-testid='audit-row']")
    actions = [row.get_attribute("data-action") for row in page.locator("[data-testid='audit-row']").all()]
    assert actions[0] == "ban" and "view_hand" in actions and "staff_login" in actions
    assert "chip dumping to webop1" in page.locator("[data-testid='audit-row']").first.inner_text()


def test_a_player_account_cannot_use_the_console(new_page: Any, console_server: Any) -> None:
    base = console_server.url
    httpx.post(f"{base}/api/register", json={"username": "plainplayer", "password": PASSWORD})
    page = new_page()
    page.probe.allow(403)
    page.goto(f"{base}/operator.html")
    page.fill("[data-testid='op-login-username']", "plainplayer")
    page.fill("[data-testid='op-login-password']", PASSWORD)
    page.click("[data-testid='op-login-submit']")
    page.wait_for_selector("[data-testid='form-error']:not(:empty)")
    assert "not operator or security" in page.locator("[data-testid='form-error']").inner_text()
    assert page.locator("[data-testid='flag-row']").count() == 0
    token = httpx.post(f"{base}/api/login", json={"username": "plainplayer", "password": PASSWORD}).json()["token"]
    assert httpx.get(f"{base}/api/operator/flags", headers={"Authorization": f"Bearer {token}"}).status_code == 403

