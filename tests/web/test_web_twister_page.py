"""The Twister page itself (web/js/twister_page.js) fed with the frames the room sends, in Chromium without a server
(harness/twister_page.html: stub connection, REST answers given here; the frames come from the Python models):
the figures do not give the multiplier away while the reel turns (R-TWIST-3), a game the server names as running is
picked up (R-TOURN-DISC-1), and an interrupted Wild Twister says the cash and the tickets paid (R-TOURN-INT-9 with
R-WILD-1, kinds' reading in docs/twister.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from riverboat.twister.events import SpinEvent
from riverboat.twister.lobby import offer

TID = "wild:wild-50-1-aa"
HARNESS = Path(__file__).resolve().parent / "harness"


def _open(new_page: Any, static_url: str, playing: list[str]) -> Any:
    page = new_page()
    page.goto(f"{static_url}/harness/twister_page.html")
    page.wait_for_selector("body[data-ready='1']")
    lobby = {**offer(), "currency": "EUR", "tickets": [], "playing": playing}
    page.evaluate("(a) => { window.__answers['/api/twister'] = a.offer; window.__answers['/api/twister/history'] = "
                  "{history: [], tickets: []}; }", {"offer": lobby})
    page.evaluate("window.__open()")
    page.wait_for_selector("[data-testid='twister-lobby']", state="attached")
    return page


def test_r_tourn_int_9_wild_interrupted_says_the_cash_and_the_tickets(new_page: Any, static_url: str) -> None:
    """R-TOURN-INT-9, R-WILD-1, R-TOURN-DISC-1: the page opened while the server names a running Wild Twister is in
    'playing' mode; its ``interrupted`` event (paid in cash plus Twister tickets) is told in full."""
    page = _open(new_page, static_url, [TID])
    assert page.get_attribute("[data-testid='twister-page']", "data-mode") == "playing"
    page.evaluate("(f) => window.__frame(f)", {"type": "tournament", "tournament": TID, "event": "interrupted",
                                              "data": {"paid": 50, "rule": "R-TOURN-INT-9",
                                                       "tickets": [1000, 500, 100]}})
    assert page.get_by_test_id("twister-interrupted").inner_text() == (
        "Interrupted: you were paid €0.50 and Twister tickets of €10.00 + €5.00 + €1.00 (R-TOURN-INT-9).")
    assert page.get_by_test_id("twister-back").is_visible()


def test_r_twist_3_the_figures_do_not_tell_the_multiplier_before_the_reel_lands(new_page: Any,
                                                                                static_url: str) -> None:
    """R-TWIST-3: while the reel turns the figures show the type and the blinds, not the prize or the multiplier;
    once it lands they show the multiplier (the prize is in the spin's result)."""
    page = _open(new_page, static_url, [])
    spin = SpinEvent("twister:twister-100-1-aa", "twister", "EUR", 100, "twister-1-20", 5, 500, (500,)).to_dict()
    del spin["type"]
    spin.update(seconds=2.5, table="twister:twister-100-1-aa/t1", seat=0, small_blind=10, big_blind=20, level=1)
    page.evaluate("(d) => window.__frame({type: 'tournament', tournament: d.tournament_id, event: 'twister_spin', "
                  "data: d})", spin)
    hud = page.get_by_test_id("twister-hud").inner_text()
    assert page.get_attribute("[data-testid='twister-spin-box']", "data-landed") is None
    assert "Blinds 10/20" in hud and "5x" not in hud and "500" not in hud, hud
    page.wait_for_selector("[data-testid='twister-spin-box'][data-landed='5']", timeout=10_000)
    assert page.get_by_test_id("twister-hud").inner_text().startswith("Twister 5x · Blinds 10/20")


def test_r_twist_11_history_rows_of_every_kind_read_on_a_phone(new_page: Any, static_url: str) -> None:
    """R-TWIST-11, R-WILD-1, R-WALLET-9, R-TOURN-KO-1 (issue #11 item 8): the history table the account page and
    the Twister page share, at 390x844, from rows as the store writes them (riverboat.store.tournament_history): a
    Wild Twister prize reads as a ticket of its value (not 0), a ticket entry as the ticket used, AoG jackpots
    apart from the prize, knockout bounties, a shared place of the field; the date, hidden as a column on a phone,
    is under the name."""
    from datetime import UTC, datetime

    from riverboat.store.tournament_history import HistoryRow, JackpotWon, TicketWon

    at = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)
    rows = [
        HistoryRow("wild:w", "Wild Twister EUR 0.50", "wild", "finished", "won", 1, 1, 0, 0, 50, 0, "EUR", at, at,
                   field=3, paid_buy_in=50, tickets_won=(TicketWon(7, 500, "twister:*"),), multiplier=10,
                   prize_pool=500),
        HistoryRow("twister:t", "Twister EUR 5", "twister", "finished", "eliminated", 2, 3, 0, 0, 500, 0, "EUR", at,
                   at, field=3, ticket_used=500, multiplier=2, prize_pool=1000),
        HistoryRow("twister:a", "Age of the Gods Twister EUR 1", "aog", "finished", "won", 1, 1, 200, 0, 100, 0,
                   "EUR", at, at, field=3, paid_buy_in=100, jackpots=(JackpotWon("extra_power", 1234),),
                   multiplier=2, prize_pool=200),
        HistoryRow("ko", "Sunday KO", "sng", "finished", "won", 1, 1, 1950, 750, 1000, 100, "EUR", at, at,
                   field=9, paid_buy_in=1000, paid_fee=100, features=("knockout",)),
        HistoryRow("rb", "Re-buy 10", "mtt", "finished", "eliminated", 5, 5, 0, 0, 1000, 100, "EUR", at, at,
                   field=27, paid_buy_in=4000, paid_fee=400, rebuys=2, addons=1, features=("rebuy",)),
    ]
    page = new_page({"width": 390, "height": 844})
    page.goto(f"{static_url}/harness/twister_page.html")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("(a) => { window.__answers['/api/twister'] = a.offer; window.__answers['/api/twister/history'] = "
                  "{history: a.rows, tickets: []}; }",
                  {"offer": {**offer(), "currency": "EUR", "tickets": [], "playing": []},
                   "rows": [r.to_dict() for r in rows]})
    page.evaluate("window.__open()")
    table = page.get_by_test_id("tournament-history")
    table.wait_for()
    got = {r.get_attribute("data-tournament"): r for r in table.locator("[data-testid='tournament-history-row']").all()}
    assert got["wild:w"].get_by_test_id("th-ticket").inner_text() == "Ticket €5.00 (Twister)"
    assert got["wild:w"].locator("[data-testid='th-prize']").count() == 0
    assert got["twister:t"].get_by_test_id("th-buy-in").inner_text() == "Ticket €5.00"
    assert got["twister:t"].get_by_test_id("th-place").inner_text() == "2–3 of 3"
    assert got["twister:a"].get_by_test_id("th-prize").inner_text() == "€2.00"
    assert got["twister:a"].get_by_test_id("th-jackpot").inner_text() == "Jackpot Extra Power €12.34"
    assert got["ko"].get_by_test_id("th-bounties").inner_text() == "Bounties €7.50"
    assert got["ko"].get_by_test_id("th-buy-in").inner_text() == "€10.00 + €1.00"
    assert "Knockout" in got["ko"].get_by_test_id("th-name").inner_text()
    assert got["rb"].get_by_test_id("th-buy-in").inner_text() == "€10.00 + €1.00\n2 re-buys, 1 add-on · paid €44.00"
    assert got["rb"].get_by_test_id("th-won").inner_text() == "–" and "5 of 27" in got["rb"].inner_text()
    assert "03/12/2026" in got["ko"].get_by_test_id("th-name").inner_text()  # the date on a phone (issue #32: the locale's date, en-GB in English)
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5  # no sideways scrolling


def test_another_tournaments_frames_are_not_taken_for_the_twister_just_played(new_page: Any, static_url: str) -> None:
    """Found by the outside walk (2026-12-03): a player still seated in a Sit & Go presses "Play" for a Twister; the
    Sit & Go's ``state`` frames that arrive before the answer to "Play" were adopted as the Twister's, so the page
    drew the Sit & Go's six-handed table under the Twister's title (its figures: "Prize 6,000 · 6 left") and fed
    it that table's events. Only a Twister's own frames (ids ``twister:...`` / ``wild:...``) belong on this page."""
    page = _open(new_page, static_url, [])
    fixture = (HARNESS / "fixtures" / "holdem_action.json").read_text()
    view = json.loads(fixture)["frames"][0]["view"]
    sng_state = {"type": "tournament", "tournament": "sng1", "event": "state",
                 "data": {"table": "sng1/t1", "seat": 2, "small_blind": 10, "big_blind": 20, "level": 1,
                          "prize_pool": 6000, "players_left": 6, "hand": view["hand"]}}
    page.evaluate("""async (frame) => {
        const played = window.__page.play("twister", 100);   // the answer to "Play" comes after the frame
        window.__frame(frame);
        await played;
        window.__frame({type: "event", table: "sng1/t1", event: {kind: "acted", seat: 0, action: "fold"}});
    }""", sng_state)
    assert page.evaluate("window.__page.tournament") == "twister:twister-100-1-aa"
    assert page.evaluate("window.__page.table") is None
    hud = page.get_by_test_id("twister-hud").inner_text()
    assert "6,000" not in hud and "6 left" not in hud, hud
    assert page.locator("[data-testid='twister-table'] .seat").count() == 0


def test_the_opponents_are_named_by_their_aliases(new_page: Any, static_url: str) -> None:
    """Found by the outside walk (2026-12-03): the Twister table called the two opponents "Seat 1" and "Seat 2" (in
    the seats and in the hand log) although the ``state`` frame names them in ``seats``, as every other table does."""
    page = _open(new_page, static_url, [])
    view = json.loads((HARNESS / "fixtures" / "holdem_action.json").read_text())["frames"][0]["view"]
    hand = {**view["hand"], "players": view["hand"]["players"][:3]}
    tid = "twister:twister-100-1-aa"
    state = {"type": "tournament", "tournament": tid, "event": "state",
             "data": {"table": f"{tid}/t1", "seat": 2, "small_blind": 10, "big_blind": 20, "level": 1,
                      "players_left": 3, "hand": hand,
                      "seats": [{"seat": 0, "player": 11, "alias": "Ainars", "stack": 1840},
                                {"seat": 1, "player": 12, "alias": "Birute", "stack": 990},
                                {"seat": 2, "player": 7, "alias": "Ann", "stack": 1500}]}}
    page.evaluate("(f) => window.__frame(f)", state)
    table = page.get_by_test_id("twister-table")
    table.locator(".seat").first.wait_for()
    text = table.inner_text()
    assert "Ainars" in text and "Birute" in text and "Ann" in text, text
    assert "Seat 1" not in text and "Seat 2" not in text, text


def test_one_hands_result_does_not_run_on_into_the_next(new_page: Any, static_url: str) -> None:
    """Found by the outside walk (2026-12-03): the felt's result of a Twister hand also listed the pots of the hands
    before it ("Ann wins 40" above "Ann wins 1,440 with One Pair, Aces"): the page gave every hand the id null
    although the ``state`` frame names the hand in ``hand_id``."""
    page = _open(new_page, static_url, [])
    view = json.loads((HARNESS / "fixtures" / "holdem_action.json").read_text())["frames"][0]["view"]
    tid = "twister:twister-100-1-aa"
    table = f"{tid}/t1"
    seats = [{"seat": 0, "player": 11, "alias": "Ainars", "stack": 500},
             {"seat": 1, "player": 12, "alias": "Birute", "stack": 500},
             {"seat": 2, "player": 7, "alias": "Ann", "stack": 500}]

    def state(hand_id: str) -> dict[str, Any]:
        hand = {**view["hand"], "players": view["hand"]["players"][:3], "legal": None, "to_act": None}
        return {"type": "tournament", "tournament": tid, "event": "state",
                "data": {"table": table, "seat": 2, "small_blind": 10, "big_blind": 20, "level": 1,
                         "players_left": 3, "hand": hand, "hand_id": hand_id, "seats": seats}}

    def award(amount: int) -> dict[str, Any]:
        return {"type": "event", "table": table, "event": {"kind": "pot_awarded", "winners": {"2": amount},
                                                           "amount": amount, "pot": 0}}

    page.evaluate("(f) => window.__frame(f)", state("1-aaa"))
    page.evaluate("(f) => window.__frame(f)", award(40))
    result = page.get_by_test_id("twister-table").get_by_test_id("hand-result")
    result.wait_for()
    assert "wins 40" in result.inner_text()
    page.evaluate("(f) => window.__frame(f)", state("2-bbb"))
    page.evaluate("(f) => window.__frame(f)", award(1440))
    page.wait_for_function("() => document.querySelector(\"[data-testid='twister-table'] [data-testid='hand-result']\")"
                           ".innerText.includes('1,440')")
    text = page.get_by_test_id("twister-table").get_by_test_id("hand-result").inner_text()
    assert "wins 40" not in text, text
