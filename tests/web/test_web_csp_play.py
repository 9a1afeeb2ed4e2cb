"""Issue #35 in Debian's Chromium against a real ``riverboat serve``: the client plays a hand under the room's
Content-Security-Policy with no ``securitypolicyviolation`` and no console error; the session is an HttpOnly
cookie that the page's scripts cannot read (nothing in ``localStorage`` or ``document.cookie``), and the WebSocket
is authenticated by it. A control shows the listener does catch a violation (an inline style attribute)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_web_live_play import FrameRecorder, play_until_showdown, register, sit_down


@pytest.mark.slow
def test_a_hand_under_the_csp_without_violation_issue_35(new_page: Any, live_server: Any, calling_bots: Any,
                                                         screenshot: Any) -> None:
    page = new_page()
    recorder = FrameRecorder(page)
    response = page.goto(f"{live_server.url}/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
    register(page, live_server.url)
    table_id, seat, buy_in = sit_down(page, live_server, "WebCsp")
    calling_bots.seat(table_id, [s for s in (1, 2, 3) if s != seat][:2], buy_in)
    play_until_showdown(page, seat)
    screenshot(page, "csp_table_showdown")
    assert not calling_bots.errors
    assert page.probe.csp_violations == [] and page.probe.errors == []
    # the session: an HttpOnly, SameSite=Strict cookie, out of the scripts' reach
    cookie = next(c for c in page.context.cookies() if c["name"] == "rb_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["value"] not in page.evaluate("document.cookie")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('token'))") == []
    # the WebSocket was authenticated by that cookie on the upgrade: welcome with no auth frame sent
    assert any(f.get("type") == "welcome" for f in recorder.frames)
    # control: the listener reports a violation (a style attribute set by a script is refused by style-src)
    page.evaluate("document.body.setAttribute('style', 'outline: 1px solid red')")
    page.wait_for_function("true")
    page.wait_for_timeout(300)
    assert any("style-src" in v for v in page.probe.csp_violations), page.probe.csp_violations
    page.probe.errors.clear()  # the control's own violation is expected
