"""Fixtures for the browser-client tests: Debian's Chromium driven by Playwright, a tiny static server for the
fixture harness, and (in test_live_*.py) a real ``riverboat serve`` subprocess on a free port.

The tests skip with a clear reason when /usr/bin/chromium is absent (``.ci/run`` installs it).
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
WEB_DIR = REPO / "src" / "riverboat" / "web"
HARNESS_DIR = Path(__file__).resolve().parent / "harness"
SCREENSHOTS = REPO / "artifacts" / "screenshots"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run installs it)",
        allow_module_level=True,
    )


class _StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the client at / and the test harness at /harness/ (read-only, no directory listings)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript", ".mjs": "text/javascript"}

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/harness/"):
            base, rest = HARNESS_DIR, clean[len("/harness/") :]
        else:
            base, rest = WEB_DIR, clean.lstrip("/")
        target = (base / rest).resolve()
        if base.resolve() not in target.parents and target != base.resolve():
            return str(base / "__forbidden__")
        if target.is_dir():
            target = target / "index.html"
        return str(target)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - signature of the base class
        return


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """Base URL of a static server for src/riverboat/web (+ /harness/ fixtures), on a free port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_StaticHandler))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class PageProbe:
    """Console errors and uncaught page errors seen by one page."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def attach(self, page: Any) -> None:
        page.on("console", lambda msg: self.errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Factory: new_page(viewport=DESKTOP) -> a page in a fresh context; console errors are collected in
    ``page.probe.errors`` and asserted empty when the test ends."""
    contexts: list[Any] = []
    probes: list[PageProbe] = []

    def make(viewport: dict[str, int] | None = None) -> Any:
        context = browser.new_context(viewport=viewport or DESKTOP)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        probe = PageProbe()
        probe.attach(page)
        probes.append(probe)
        page.probe = probe
        return page

    yield make
    errors = [e for probe in probes for e in probe.errors]
    for context in contexts:
        context.close()
    assert not errors, f"the page logged errors: {errors}"


def _screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


@pytest.fixture
def screenshot() -> Any:
    """screenshot(page, name): save a PNG under artifacts/screenshots/ (gitignored test artifacts)."""
    return _screenshot


@pytest.fixture(scope="session")
def viewports() -> dict[str, dict[str, int]]:
    """The two widths the client must work at: phone (390x844) and desktop (1366x768)."""
    return {"phone": PHONE, "desktop": DESKTOP}
