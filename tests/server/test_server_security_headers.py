"""Issue #35: the security headers on every kind of response of a real server process: the client's page, the
operator console's page, a static script, an API answer, an API refusal and the WebSocket upgrade; HSTS only over
HTTPS (a proxy's ``X-Forwarded-Proto`` from an address in ``--forwarded-allow-ips``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import httpx
import pytest
import websockets.sync.client

from .deployments import Deployment, deployment_fixture

TABLE = {"name": "Headers Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "PLAY"}


deployment = deployment_fixture([TABLE])  # issue #29: one process; a gateway with two table hosts


@pytest.fixture(scope="module")
def server(deployment: Deployment) -> Deployment:
    return deployment


@pytest.fixture(scope="module")
def http(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=10.0) as client:
        yield client


def _csp_directives(value: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in value.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def check_headers(headers: Mapping[str, str], host: str, secure: bool = False) -> None:
    """Every header of the policy (docs/security.md), each checked for its exact meaning."""
    csp = _csp_directives(headers["content-security-policy"])
    assert csp["default-src"] == ["'none'"]
    assert csp["script-src"] == ["'self'"]  # own origin only: no 'unsafe-inline', no 'unsafe-eval', no CDN
    assert csp["style-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["connect-src"] == ["'self'", f"{'wss' if secure else 'ws'}://{host}"]
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert not any("unsafe" in w or w == "*" for words in csp.values() for w in words)
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    perms = dict(p.strip().split("=", 1) for p in headers["permissions-policy"].split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert perms[feature] == "()"
    if secure:
        assert headers["strict-transport-security"].startswith("max-age=31536000")
    else:
        assert "strict-transport-security" not in headers


def test_every_response_kind_carries_the_security_headers_issue_35(server: Any, http: httpx.Client) -> None:
    """Issue #35 "How it must be proven": `/`, `/operator.html`, a static script, an API route (an answer and a
    refusal) and the WebSocket upgrade, each with every header."""
    host = server.base_url.removeprefix("http://")
    for path, status in (("/", 200), ("/operator.html", 200), ("/js/app.js", 200), ("/css/app.css", 200),
                         ("/api/lobby", 200), ("/api/me", 401), ("/no/such/page", 404), ("/api/nothing", 404)):
        r = http.get(path)
        assert r.status_code == status, (path, r.status_code)
        check_headers(r.headers, host)
    assert http.get("/js/app.js").headers["content-type"].startswith("text/javascript")
    with websockets.sync.client.connect(server.base_url.replace("http://", "ws://") + "/ws") as ws:
        assert ws.response is not None and ws.response.status_code == 101
        check_headers({k.lower(): v for k, v in ws.response.headers.raw_items()}, host)


def test_hsts_only_over_https_behind_a_trusted_proxy_issue_35(server: Any, http: httpx.Client) -> None:
    """HSTS when the request came over HTTPS: the proxy (at 127.0.0.1, uvicorn's default --forwarded-allow-ips)
    says so with X-Forwarded-Proto; connect-src then names the wss: origin. Plain HTTP has no HSTS."""
    host = server.base_url.removeprefix("http://")
    r = http.get("/", headers={"X-Forwarded-Proto": "https"})
    check_headers(r.headers, host, secure=True)
    check_headers(http.get("/").headers, host, secure=False)


def test_a_forged_host_header_does_not_widen_connect_src_issue_35(http: httpx.Client) -> None:
    """A Host header that is not a plain host[:port] is left out of the policy (``'self'`` only)."""
    r = http.get("/api/lobby", headers={"Host": "evil.example; script-src *"})
    csp = _csp_directives(r.headers["content-security-policy"])
    assert csp["connect-src"] == ["'self'"] and csp["script-src"] == ["'self'"]
