"""Issue #35 against a real ``riverboat serve`` process: the staff second factor over REST, a player kept out of the
staff routes, password change and "log out elsewhere" closing the other sessions' sockets, staff-issued reset
codes, the lock-out and its release by staff, the browser's HttpOnly SameSite=Strict session cookie (REST and the
WebSocket, refused from another origin) and the console on its own listener (``--console-port``). Each refusal
is checked for its code, its plain words and that nothing changed. (Expiry by time: tests/store, injected clock.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pyotp
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .conftest import free_port
from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Sec Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "PLAY"}
PW = "correct horse battery"


# every test here logs in from 127.0.0.1 against this one server: the per-address login limiter (burst 20)
# would run out part-way through the module, so it is lifted; the lock-out under test is per account
deployment = deployment_fixture([TABLE], ["--lockout-after", "3", "--login-rate", "1000"])  # issue #29: one process; a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10.0) as client:
        yield client


def _error(res: httpx.Response) -> tuple[int, str, str]:
    err = res.json()["error"]
    return res.status_code, err["code"], err["message"]


def _player(http: httpx.Client, name: str) -> str:
    assert http.post("/api/register", json={"username": name, "password": PW}).status_code == 201
    return str(http.post("/api/login", json={"username": name, "password": PW}).json()["token"])


def _staff(server: Any, name: str, role: str = "operator") -> tuple[int, pyotp.TOTP, tuple[str, ...]]:
    pid = server.store.accounts.register(name, PW, role=role).id
    enrolment = server.store.security.set_up_second_factor(pid)
    return pid, pyotp.TOTP(enrolment.secret), enrolment.recovery_codes


def _socket(server: Any, token: str) -> ClientConnection:
    ws = connect(f"{server.ws_url}?token={token}")
    assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    return ws


def _closed_with_notice(ws: ClientConnection) -> bool:
    frames = []
    with pytest.raises(ConnectionClosed):
        while True:
            frames.append(json.loads(ws.recv(timeout=10)))
    return any(f.get("type") == "notice" and f.get("code") == "logged_out" for f in frames)


def _still_open(ws: ClientConnection) -> bool:
    ws.send(json.dumps({"v": 1, "type": "ping", "id": 7}))
    return bool(json.loads(ws.recv(timeout=10))["type"] == "pong")


def test_staff_login_needs_the_second_factor_over_rest_issue_35(server: Any, http: httpx.Client) -> None:
    """Issue #35: login without the code refused; a wrong code refused and audited; a recovery code works once."""
    pid, totp, codes = _staff(server, "sec_rest", "security")
    status, code, message = _error(http.post("/api/login", json={"username": "sec_rest", "password": PW}))
    assert (status, code) == (401, "second_factor_required") and "6-digit code" in message
    wrong = "000000" if totp.now() != "000000" else "999999"
    status, code, message = _error(http.post("/api/login", json={"username": "sec_rest", "password": PW,
                                                                 "code": wrong}))
    assert (status, code) == (401, "bad_second_factor") and "nothing was changed" in message
    recovery = http.post("/api/login", json={"username": "sec_rest", "password": PW, "code": codes[0]})
    assert recovery.status_code == 200, recovery.text
    token = recovery.json()["token"]
    again = http.post("/api/login", json={"username": "sec_rest", "password": PW, "code": codes[0]})
    assert _error(again)[:2] == (401, "bad_second_factor")
    audit = http.get("/api/operator/audit", params={"player_id": pid},
                     headers={"Authorization": f"Bearer {token}"}).json()["audit"]
    actions = [e["action"] for e in audit]
    assert actions.count("staff_login_failed") == 2 and actions.count("recovery_code_used") == 1
    assert "staff_login" in actions


def test_a_player_cannot_enrol_or_use_the_staff_routes_issue_35(server: Any, http: httpx.Client) -> None:
    token = _player(http, "plain_enrol")
    res = http.post("/api/staff/enrol", json={"username": "plain_enrol", "password": PW})
    assert _error(res) == (403, "not_staff", "this account is not operator or security staff: only staff accounts "
                                             "have this")
    pid = server.store.accounts.by_username("plain_enrol").id
    auth = {"Authorization": f"Bearer {token}"}
    for path in ("reset_code", "unlock", "reset_2fa"):
        res = http.post(f"/api/operator/security/{pid}/{path}", json={"reason": "myself"}, headers=auth)
        assert _error(res)[:2] == (403, "forbidden")
    assert http.get(f"/api/operator/security/{pid}", headers=auth).status_code == 403
    console = http.post("/api/login", json={"username": "plain_enrol", "password": PW, "session": "console"})
    assert _error(console)[:2] == (403, "not_staff") and "set-cookie" not in console.headers
    assert server.store.security.status(pid) == (None, False)  # nothing changed


def test_password_change_closes_the_other_sessions_sockets_issue_35(server: Any, http: httpx.Client) -> None:
    """Issue #35: the old password required (a wrong one: 403 wrong_password, nothing changes); every other
    session ends and its socket is told and closed; this one goes on."""
    here = _player(http, "chg_rest")
    there = str(http.post("/api/login", json={"username": "chg_rest", "password": PW}).json()["token"])
    mine, theirs = _socket(server, here), _socket(server, there)
    auth = {"Authorization": f"Bearer {here}"}
    wrong = http.put("/api/password", json={"old_password": "nope nope", "new_password": "new password 1"},
                     headers=auth)
    assert _error(wrong) == (403, "wrong_password", "the current password is wrong; the password was not changed")
    assert _still_open(theirs)
    listed = http.get("/api/sessions", headers=auth).json()["sessions"]
    assert len(listed) == 2 and [s["current"] for s in listed].count(True) == 1
    assert all(s["address"] == "127.0.0.1" and s["device"].startswith("python-httpx") for s in listed)
    res = http.put("/api/password", json={"old_password": PW, "new_password": "new password 1"}, headers=auth)
    assert res.status_code == 200 and res.json() == {"ended": 1}
    assert _closed_with_notice(theirs)
    assert _still_open(mine)
    assert http.get("/api/me", headers={"Authorization": f"Bearer {there}"}).status_code == 401
    assert http.get("/api/me", headers=auth).status_code == 200
    mine.close()


def test_log_out_elsewhere_closes_those_sockets_issue_35(server: Any, http: httpx.Client) -> None:
    here = _player(http, "else_rest")
    others = [str(http.post("/api/login", json={"username": "else_rest", "password": PW}).json()["token"])
              for _ in range(2)]
    sockets = [_socket(server, t) for t in others]
    auth = {"Authorization": f"Bearer {here}"}
    one = next(s["id"] for s in http.get("/api/sessions", headers={"Authorization": f"Bearer {others[0]}"})
               .json()["sessions"] if s["current"])
    assert http.delete(f"/api/sessions/{one}", headers=auth).status_code == 204
    assert _closed_with_notice(sockets[0]) and _still_open(sockets[1])
    assert http.post("/api/sessions/logout_others", headers=auth).json() == {"ended": 1}
    assert _closed_with_notice(sockets[1])
    assert http.delete(f"/api/sessions/{one}", headers=auth).status_code == 404  # already ended


def test_staff_reset_code_single_use_over_rest_issue_35(server: Any, http: httpx.Client) -> None:
    """Issue #35: staff issue a code (audited, shown once); the player sets a new password with it (their sockets
    close); used again it is refused in plain words and nothing changes."""
    old = _player(http, "reset_rest")
    ws = _socket(server, old)
    pid = server.store.accounts.by_username("reset_rest").id
    _, totp, _ = _staff(server, "op_reset")
    staff = http.post("/api/login", json={"username": "op_reset", "password": PW, "code": totp.now()}).json()["token"]
    issued = http.post(f"/api/operator/security/{pid}/reset_code", json={"reason": "phone call, verified"},
                       headers={"Authorization": f"Bearer {staff}"}).json()
    assert issued["mailed"] is False and len(issued["code"]) == 17
    assert http.post("/api/password/forgot", json={"username": "reset_rest"}).json()["error"]["code"] == "no_mail"
    body = {"username": "reset_rest", "code": issued["code"], "new_password": "fresh password 1"}
    assert http.post("/api/password/reset", json=body).status_code == 204
    assert _closed_with_notice(ws)
    again = http.post("/api/password/reset", json=body | {"new_password": "fresh password 2"})
    assert _error(again) == (400, "bad_reset_code", "this reset code is wrong, already used or expired; ask the "
                                                    "staff for a new one")
    assert http.post("/api/login", json={"username": "reset_rest", "password": "fresh password 1"}).status_code == 200
    audit = [e.action for e in server.store.integrity.audit_log(50, pid)]
    assert "reset_code_issued" in audit and "password_reset" in audit


def test_lock_out_after_n_failures_and_release_by_staff_issue_35(server: Any, http: httpx.Client) -> None:
    """Issue #35 (--lockout-after 3): three wrong passwords lock the account whatever the address; the right one
    is then refused (423 account_locked, plain words) until staff release it (audited)."""
    _player(http, "lock_rest")
    for _ in range(3):
        assert _error(http.post("/api/login", json={"username": "lock_rest", "password": "wrong one!"}))[1] == \
            "bad_credentials"
    status, code, message = _error(http.post("/api/login", json={"username": "lock_rest", "password": PW}))
    assert (status, code) == (423, "account_locked") and "locked until" in message and "staff" in message
    pid = server.store.accounts.by_username("lock_rest").id
    _, totp, _ = _staff(server, "op_unlock")
    staff = {"Authorization": "Bearer " + http.post(
        "/api/login", json={"username": "op_unlock", "password": PW, "code": totp.now()}).json()["token"]}
    assert http.get(f"/api/operator/security/{pid}", headers=staff).json()["locked_until"] is not None
    assert http.post(f"/api/operator/security/{pid}/unlock", json={"reason": "owner on the phone"},
                     headers=staff).status_code == 200
    assert http.post("/api/login", json={"username": "lock_rest", "password": PW}).status_code == 200
    assert "unlock" in [e.action for e in server.store.integrity.audit_log(20, pid)]


def test_browser_session_cookie_rest_and_websocket_issue_35(server: Any, http: httpx.Client) -> None:
    """Issue #35 (docs/security.md "Tokens"): the browser's session is an HttpOnly SameSite=Strict cookie, no token
    in the answer; a changing request with it from another origin is refused; the WebSocket upgrade from the
    room's own page is authenticated by it, one from another origin is not."""
    _player(http, "cookie_rest")
    res = http.post("/api/login", json={"username": "cookie_rest", "password": PW, "session": "cookie"})
    assert res.status_code == 200 and "token" not in res.json()
    cookie = next(h for h in res.headers.get_list("set-cookie") if h.startswith("rb_session="))
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    token = cookie.split(";")[0].split("=", 1)[1]
    jar = {"Cookie": f"rb_session={token}"}
    assert http.get("/api/me", headers=jar).json()["username"] == "cookie_rest"
    foreign = http.put("/api/alias", json={"alias": "Hijacked1"}, headers=jar | {"Origin": "http://evil.example"})
    assert _error(foreign)[:2] == (403, "cross_site")
    before = http.get("/api/me", headers=jar).json()["alias"]
    assert before != "Hijacked1"
    with connect(server.ws_url, additional_headers=jar | {"Origin": server.base_url}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    with connect(server.ws_url, additional_headers=jar | {"Origin": "http://evil.example"}) as ws:
        ws.send(json.dumps({"v": 1, "type": "leave", "id": 1, "table": "x"}))
        assert json.loads(ws.recv(timeout=10))["code"] == "unauthenticated"
    out = http.post("/api/logout", headers=jar | {"Origin": server.base_url})
    assert out.status_code == 204 and 'rb_session=""' in out.headers.get("set-cookie", "")
    assert http.get("/api/me", headers=jar).status_code == 401


def test_console_on_its_own_listener_issue_35(start_server: Any) -> None:
    """Issue #35 (--console-port): the console, its scripts and the staff API are not on the players' address;
    staff log in on the console's listener only (loopback by default)."""
    console_port = free_port()
    server = start_server([TABLE], ["--console-port", str(console_port)])
    console = f"http://127.0.0.1:{console_port}"
    _, totp, _ = _staff(server, "op_port")
    with httpx.Client(timeout=10.0) as http:
        assert http.get(f"{server.base_url}/operator.html").status_code == 404
        for script in ("operator_app.js", "operator_money.js", "operator_text.js"):
            assert http.get(f"{server.base_url}/js/{script}").status_code == 404
        assert http.get(f"{server.base_url}/api/operator/flags").status_code == 404
        assert http.get(f"{server.base_url}/").status_code == 200
        assert http.get(f"{console}/operator.html").status_code == 200
        body = {"username": "op_port", "password": PW, "code": totp.now()}
        refused = http.post(f"{server.base_url}/api/login", json=body)
        assert _error(refused) == (403, "console_only", "staff accounts log in on the operator console's own "
                                                        "address")
        token = http.post(f"{console}/api/login", json=body).json()["token"]
        assert http.get(f"{console}/api/operator/flags", headers={"Authorization": f"Bearer {token}"}).json() == {
            "flags": []}
        assert http.post(f"{server.base_url}/api/register", json={"username": "port_player", "password": PW}
                         ).status_code == 201
        assert http.post(f"{server.base_url}/api/login", json={"username": "port_player", "password": PW}
                         ).status_code == 200
