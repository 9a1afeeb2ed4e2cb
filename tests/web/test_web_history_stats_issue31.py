"""Issue #31 ("How it must be proven": browser tests at 1366x768 and at a 390x844 phone for the history with
filters and for the statistics; "a profit graph with axes over time and by game").

A real ``riverboat serve`` (the live_server fixture) whose database gets, through the store, a player's hands at
chosen times: 40 hold'em hands in one hour twelve days ago, 10 three days ago and 10 in the last minutes (money
moved through the ledger, as at a table), 12 Omaha hands and 3 tournament hands. Then, in Chromium:

- the history: the filters (game, result, cash/tournament) find exactly the hands the store holds for them, the
  pager goes beyond the first 50; on the phone no sideways scrolling and every control a 40 px touch target;
- the statistics: the hold'em profit graph's x axis is time -- its ticks are dates on local midnights (or round
  times) at positions proportional to their time, and each hand's point sits at the time the hand ended (not at
  its index: the first 40 hands, one hour of play, take ~0.5% of the width, not two thirds); same on the phone.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from tests.web.test_web_phone_issue31 import assert_phone_fit

from riverboat.store import Store

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
PASSWORD = "correct horse battery"
NT = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n'
      'starting_stacks = [{a}, {b}]\nseats = [1, 2]\nplayers = ["{pa}", "{pb}"]\n'
      'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cbr 300", "p1 cc", "d db 2h3h4h", "p2 cbr 200", "p1 f"]\n')
PO = NT.replace('"NT"', '"PO"').replace("AcAd", "AcAdKsKh").replace("KcKd", "QcQdJsJh").replace("[50, 100]", "[25, 50]")


@dataclass
class Seeded:
    username: str
    holdem_ends: list[datetime] = field(default_factory=list)
    omaha_won: int = 0
    omaha: int = 0
    tournament: str = ""


SIDEWAYS = """() => [...document.querySelectorAll("body *")].filter((e) => {
    const s = getComputedStyle(e); return ["auto", "scroll"].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1; })
  .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${(e.querySelector("h2") || e).textContent.slice(0, 30)}" ${e.scrollWidth}>${e.clientWidth}: ${
    [...e.querySelectorAll("*")].filter((c) => c.getBoundingClientRect().right > e.getBoundingClientRect().right + 1).slice(0, 4)
      .map((c) => `${c.tagName.toLowerCase()}.${c.className}[${c.dataset.testid || ""}]`).join(" ")}`)"""


def _register(base: str, name: str) -> int:
    res = httpx.post(f"{base}/api/register", json={"username": name, "password": PASSWORD}, timeout=10)
    assert res.status_code == 201, res.text
    return int(res.json()["player_id"])


def _seed(live_server: Any) -> Seeded:
    """The player's hands, written into the live server's own database through the store at chosen times."""
    hero_name = f"graph{uuid.uuid4().hex[:8]}"
    hero, villain = _register(live_server.url, hero_name), _register(live_server.url, f"vill{uuid.uuid4().hex[:8]}")
    real_now = datetime.now(UTC)
    clock = [real_now - timedelta(days=12)]
    st = Store(f"sqlite:///{live_server.log_path.parent / 'riverboat.sqlite3'}", clock=lambda: clock[0])
    out = Seeded(hero_name)
    suffix = uuid.uuid4().hex[:6]
    try:
        def play(table: str, hands: int, text: str, start: datetime, pace: timedelta, game: str) -> None:
            stacks = {hero: 100_000, villain: 100_000}
            for p in stacks:
                st.ledger.buy_in(p, table, 100_000, f"seed-{table}-{p}", currency="PLAY")
            clock[0] = start
            for i in range(hands):
                hid = f"{i + 1}-{uuid.uuid4().hex[:8]}"
                st.ledger.start_hand(table, hid, dict(stacks), currency="PLAY")
                clock[0] += pace
                won = 400 if (i * 7) % 3 else -300  # two in three won
                changes = {hero: won, villain: -won}
                st.ledger.settle_hand(table, hid, changes, 0, text.format(a=stacks[hero], b=stacks[villain],
                                                                         pa=hero, pb=villain))
                for p, c in changes.items():
                    stacks[p] += c
                if game == "holdem":
                    out.holdem_ends.append(clock[0])
                else:
                    out.omaha += 1
                    out.omaha_won += won > 0
                clock[0] += pace

        play(f"t9-webgraph-{suffix}", 40, NT, real_now - timedelta(days=12), timedelta(seconds=40), "holdem")
        play(f"t9-webgraphb-{suffix}", 10, NT, real_now - timedelta(days=3, hours=5), timedelta(seconds=50), "holdem")
        play(f"t9-webomaha-{suffix}", 12, PO, real_now - timedelta(days=2), timedelta(seconds=45), "omaha")
        play(f"t9-webgraphc-{suffix}", 10, NT, real_now - timedelta(minutes=8), timedelta(seconds=20), "holdem")
        out.tournament = f"sngweb{suffix}"
        for i in range(3):
            st.hands.record(f"sngweb{suffix}/t1", f"{i + 1}-{suffix}", {hero: 1500, villain: 1500},
                            NT.format(a=1500, b=1500, pa=hero, pb=villain), [], {hero: 0, villain: 0})
    finally:
        st.dispose()
    return out


@pytest.fixture(scope="module")
def seeded(live_server: Any) -> Iterator[Seeded]:
    yield _seed(live_server)


def _login(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/#/login")
    page.fill("[data-testid='login-username']", username)
    page.fill("[data-testid='login-password']", PASSWORD)
    page.click("form button[type='submit']")
    page.wait_for_selector("[data-testid='lobby']")


def _rows(page: Any) -> list[dict[str, str]]:
    return page.eval_on_selector_all("[data-testid='hands'] tbody tr", """rows => rows.map(r => ({
        game: r.querySelector("[data-testid='hand-game']").textContent,
        table: r.querySelector("[data-testid='hand-table']").textContent,
        result: r.querySelector("[data-testid='hand-result']").textContent}))""")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_issue_31_history_filters_and_pages(new_page: Any, live_server: Any, seeded: Seeded, screenshot: Any,
                                            viewport: dict[str, int]) -> None:
    page = new_page(viewport)
    _login(page, live_server.url, seeded.username)
    # the player's tournament history (the tournament filter's choices) names the seeded tournament; its hands are
    # the real server's
    row = {"tournament": seeded.tournament, "name": "Seeded Sit & Go", "kind": "sng", "status": "finished",
           "date": "2026-12-01T12:00:00+00:00", "buy_in": 0, "fee": 0, "currency": "PLAY"}
    page.route("**/api/tournaments/history", lambda route: route.fulfill(json={"history": [row]}))
    page.goto(f"{live_server.url}/#/history")
    count = page.locator("[data-testid='history-count']")
    count.wait_for()
    total = 60 + seeded.omaha + 3
    assert count.inner_text() == f"Showing 1–50 of {total}" or count.inner_text().endswith(f"{total}"), count.inner_text()
    assert len(_rows(page)) == 50
    page.click("[data-testid='page-older']")  # beyond the last 50
    page.wait_for_function(f"document.querySelectorAll(\"[data-testid='hands'] tbody tr\").length === {total - 50}")
    page.select_option("[data-testid='filter-game']", "omaha")
    page.select_option("[data-testid='filter-result']", "won")
    page.click("[data-testid='filter-apply']")
    page.wait_for_function(f"document.querySelectorAll(\"[data-testid='hands'] tbody tr\").length === {seeded.omaha_won}")
    rows = _rows(page)
    assert {r["game"] for r in rows} == {"Pot-Limit Omaha"} or all("Omaha" in r["game"] for r in rows), rows
    assert all(not r["result"].startswith(("-", "−")) and r["result"] not in ("", "0") for r in rows), rows
    assert page.locator("[data-testid='page-older']").count() == 0
    shot = "desktop" if viewport is DESKTOP else "phone"
    screenshot(page, f"issue31_{shot}_history_filters")
    if viewport is PHONE:
        assert_phone_fit(page, "history with filters")
        assert page.evaluate(SIDEWAYS) == []  # nor does any box in it (the hands' list fits the phone)
        for sel in ("filter-game", "filter-stakes", "filter-since", "filter-result", "filter-kind", "filter-apply"):
            b = page.locator(f"[data-testid='{sel}']").bounding_box()
            assert b and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (sel, b)
    page.select_option("[data-testid='filter-game']", "")
    page.select_option("[data-testid='filter-result']", "")
    page.select_option("[data-testid='filter-kind']", "tournament")
    page.click("[data-testid='filter-apply']")
    page.wait_for_function("document.querySelectorAll(\"[data-testid='hands'] tbody tr\").length === 3")
    page.select_option("[data-testid='filter-kind']", "")  # one tournament's hands, chosen by its name
    page.select_option("[data-testid='filter-tournament']", label="Seeded Sit & Go · " + page.eval_on_selector(
        f"[data-testid='filter-tournament'] option[value='{seeded.tournament}']", "o => o.textContent.split(' · ')[1]"))
    page.click("[data-testid='filter-apply']")
    page.wait_for_function("document.querySelector(\"[data-testid='history-count']\").textContent.endsWith(' 3')")
    assert page.locator("[data-testid='filter-tournament']").input_value() == seeded.tournament
    assert len(_rows(page)) == 3


def _graph(page: Any) -> dict[str, Any]:
    return page.eval_on_selector(".profit-game[data-game='holdem'] svg.profit-graph", """svg => {
        const axis = svg.querySelector("[data-testid='time-axis']");
        return {
          t0: Number(svg.dataset.t0), t1: Number(svg.dataset.t1),
          left: Number(axis.getAttribute("x1")), right: Number(axis.getAttribute("x2")),
          ticks: [...svg.querySelectorAll(".profit-time-tick")].map(e => ({time: Number(e.dataset.time),
            x: Number(e.getAttribute("x")), text: e.textContent})),
          xs: svg.querySelector("polyline").getAttribute("points").split(" ").map(p => Number(p.split(",")[0])),
          times: svg.querySelector("polyline").dataset.times.split(",").map(Number),
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
        }; }""")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_issue_31_profit_graph_has_a_time_axis(new_page: Any, live_server: Any, seeded: Seeded, screenshot: Any,
                                               viewport: dict[str, int]) -> None:
    page = new_page(viewport)
    _login(page, live_server.url, seeded.username)
    page.goto(f"{live_server.url}/#/account")
    page.wait_for_selector(".profit-game[data-game='holdem'] svg.profit-graph")
    g = _graph(page)
    ends = [round(e.timestamp() * 1000) for e in seeded.holdem_ends]
    # the axis runs from the first hold'em hand to the last, as the store holds them (to the millisecond)
    assert abs(g["t0"] - ends[0]) <= 1 and abs(g["t1"] - ends[-1]) <= 1, (g["t0"], ends[0], g["t1"], ends[-1])
    width = g["right"] - g["left"]

    def x_of(ms: float) -> float:
        return g["left"] + width * (ms - g["t0"]) / (g["t1"] - g["t0"])

    # ticks: dates on local midnights (the span is twelve days), at positions proportional to time, 2 to 4 of them
    assert 2 <= len(g["ticks"]) <= 4, g["ticks"]
    tz = datetime.now().astimezone().tzinfo if g["tz"] in ("UTC", "Etc/UTC") else None
    for tick in g["ticks"]:
        assert g["t0"] <= tick["time"] <= g["t1"]
        assert abs(tick["x"] - x_of(tick["time"])) <= 0.1, tick
        day = datetime.fromtimestamp(tick["time"] / 1000, UTC)
        if tz is not None:  # the browser runs in UTC here: its local midnight is 00:00 UTC
            assert (day.hour, day.minute, day.second) == (0, 0, 0), tick
            assert tick["text"] == f"{day:%b} {day.day}", tick
    # the line: the start at zero, then every hold'em hand at the time it ended
    assert len(g["xs"]) == len(ends) + 1
    for x, ms, end in zip(g["xs"][1:], g["times"][1:], ends, strict=True):
        assert abs(ms - end) <= 1 and abs(x - x_of(ms)) <= 0.1, (x, ms, end)
    assert g["xs"][40] - g["left"] < 0.01 * width  # 40 hands in an hour out of twelve days (by index: 2/3)
    page.locator("[data-testid='play-stats']").scroll_into_view_if_needed()
    page.evaluate("scrollBy(0, document.querySelector(\"[data-testid='play-stats']\").getBoundingClientRect().top - 60)")
    screenshot(page, f"issue31_{'desktop' if viewport is DESKTOP else 'phone'}_statistics")
    if viewport is PHONE:
        assert_phone_fit(page, "statistics")
        assert page.evaluate(SIDEWAYS) == []
