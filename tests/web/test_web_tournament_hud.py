"""The tournament table's HUD in the browser (issue #11 item 8), driven with ``state`` data built by the room's
own models (``riverboat.room.frames``) and a hand-moved clock: the countdown to the next level and to the break
is counted down on the client from the server's seconds; a break is shown with the time until play resumes
(R-TOURN-BREAK-1); place / players left and the average stack; hand-for-hand on the bubble; the Re-buy and Add-on
buttons only while their windows are open (R-TOURN-REBUY-3); the balancing message (R-TOURN-BAL-3); the re-buy
decision with its countdown; the place and prize at once (R-TOURN-GEN-5)."""

from __future__ import annotations

from typing import Any

from riverboat.room import frames
from riverboat.server import protocol

from .conftest import SCREENSHOTS


def _state(**changes: Any) -> dict[str, Any]:
    hud: frames.TournamentHud = {"level": 2, "small_blind": 50, "big_blind": 100, "ante": 10, "on_break": False,
                                 "seconds_left": 125.0, "next_break_in": 725.0, "players_left": 37, "entrants": 90,
                                 "average_stack": 7297, "prize_pool": 90_000, "hand_for_hand": False}
    data = frames.tournament_state("mtt1/t3", 4, None, hud)
    data.update({"seats": [], "rank": 12, "rebuy": False, "addon": False, **changes})  # type: ignore[typeddict-item]
    protocol.validate_server_frame({"v": 1, **frames.tournament_frame("mtt1", "state", data)})  # a real frame
    return dict(data)


def _open(new_page: Any, static_url: str) -> Any:
    page = new_page()
    page.goto(f"{static_url}/harness/tournament_hud.html")
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_r_tourn_break_1_hud_counts_down_and_shows_the_break(new_page: Any, static_url: str) -> None:
    """R-TOURN-BREAK-1, R-GEN-6: level 2, 50/100 ante 10, 2:05 to level 3 and 12:05 to the break; 65 s later
    the client shows 1:00 and 11:00 without a new frame; on the break it shows when play resumes; place 12 / 37,
    37 of 90 left, average stack; hand-for-hand."""
    page = _open(new_page, static_url)
    page.evaluate("(d) => window.__hud.update(d)", _state())
    hud = page.get_by_test_id("tourney-hud")
    text = hud.inner_text()
    assert "50/100 ante 10" in text and "12 / 37" in text and "37 of 90" in text and "7,297" in text  # issue #32: numbers grouped by the locale (Intl)
    assert page.get_by_test_id("hud-clock").inner_text() == "Next level in 2:05 · break in 12:05"
    page.evaluate("() => window.__advance(65000)")
    assert page.get_by_test_id("hud-clock").inner_text() == "Next level in 1:00 · break in 11:00"
    assert not page.locator("[data-testid='hud-rebuy'], [data-testid='hud-addon']").count()
    page.evaluate("(d) => window.__hud.update(d)", _state(on_break=True, seconds_left=300.0, next_break_in=0.0,
                                                           hand_for_hand=True))
    assert page.get_by_test_id("hud-clock").inner_text() == "Break: play resumes in 5:00"
    assert "2 · break" in hud.inner_text()
    page.get_by_test_id("hud-h4h").wait_for()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "tourney_hud_break.png"))


def test_r_tourn_rebuy_3_hud_buttons_in_their_windows_and_the_decision(new_page: Any, static_url: str) -> None:
    """R-TOURN-REBUY-3, R-TOURN-BAL-3, R-TOURN-GEN-5: Re-buy and Add-on buttons while the state says their
    windows are open (a click reaches the page's handler); the moved line; a rebuy_offer shows the price split
    and counts down; Decline reaches the handler; the finished player sees their place and prize, and no button."""
    page = _open(new_page, static_url)
    page.evaluate("(d) => window.__hud.update(d)", _state(rebuy=True, addon=True))
    page.click("[data-testid='hud-rebuy']")
    page.click("[data-testid='hud-addon']")
    assert page.evaluate("window.__clicks") == ["rebuy", "addon"]
    page.evaluate("(d) => window.__hud.update(d)", _state(rebuy=False, addon=False))
    assert not page.locator("[data-testid='hud-rebuy'], [data-testid='hud-addon']").count()
    page.evaluate("() => window.__hud.say('Your table was broken up: you were moved to table t5, seat 3.')")
    assert "moved to table t5" in page.get_by_test_id("tourney-message").inner_text()
    offer: frames.TournamentRebuyOfferData = {"seconds": 20.0, "price": 1000, "fee": 100, "chips": 1500,
                                              "currency": "EUR", "rule": "R-TOURN-REBUY-3"}
    page.evaluate("(d) => window.__hud.rebuyOffer(d)", dict(offer))
    decision = page.get_by_test_id("rebuy-decision").inner_text()
    assert "Re-buy 1,500 chips for €11.00 (€10.00 to the prize pool + €1.00 fee)" in decision
    assert page.get_by_test_id("rebuy-countdown").inner_text() == "0:20"
    page.evaluate("() => window.__advance(7000)")
    assert page.get_by_test_id("rebuy-countdown").inner_text() == "0:13"
    page.screenshot(path=str(SCREENSHOTS / "tourney_hud_rebuy.png"))
    page.click("[data-testid='rebuy-decline']")
    assert page.evaluate("window.__clicks")[-1] == "decline"
    finished: frames.TournamentFinishedData = {"place": 7, "place_to": 7, "prize": 2500}
    page.evaluate("(d) => window.__hud.finished(d, 'EUR')", dict(finished))
    assert page.get_by_test_id("tourney-result").inner_text() == "You finished 7th. You won €25.00: it is in your balance."
    assert page.get_by_test_id("hud-clock").inner_text() == "Your tournament is over"
    assert not page.locator("[data-testid='rebuy-accept']").count()


def test_the_hud_of_a_finished_player_counts_the_players_still_in(new_page: Any, static_url: str) -> None:
    """Found by the outside walk (2026-12-03): the winner of a 6-player Sit & Go read "You won the tournament!" above
    "Players left 2 of 6" and the average stack of two players; the bust-out's state came before the last hand.
    Once finished, the players left are those placed above the player (1 for the winner), holding every chip."""
    page = _open(new_page, static_url)
    page.evaluate("(d) => window.__hud.update(d)", _state(players_left=2, entrants=6, average_stack=4500, rank=1))
    won: frames.TournamentFinishedData = {"place": 1, "place_to": 1, "prize": 3000}
    page.evaluate("(d) => window.__hud.finished(d, 'PLAY')", dict(won))
    hud = page.get_by_test_id("tourney-hud")
    assert hud.locator("[data-hud='players']").inner_text().split("\n")[-1] == "1 of 6"
    assert hud.locator("[data-hud='average']").inner_text().split("\n")[-1] == "9,000"  # issue #32: grouped by the locale
    assert hud.locator("[data-hud='place']").inner_text().split("\n")[-1] == "1st"
    # a player out in 5th of 90 with 6 left before their last hand: 4 are left
    page = _open(new_page, static_url)
    page.evaluate("(d) => window.__hud.update(d)", _state(players_left=6, entrants=90, average_stack=1000))
    out: frames.TournamentFinishedData = {"place": 5, "place_to": 5, "prize": 0}
    page.evaluate("(d) => window.__hud.finished(d, 'PLAY')", dict(out))
    assert page.get_by_test_id("tourney-hud").locator("[data-hud='players']").inner_text().split("\n")[-1] == "4 of 90"


def test_a_tournament_table_is_named_by_its_number_not_its_id(new_page: Any, static_url: str) -> None:
    """Found by the outside walk (2026-12-03): the tournament table's title read "Demo Sit & Go 6 · table t1" (the
    table's id) and a move said "moved to table t5"."""
    page = _open(new_page, static_url)
    names = page.evaluate("""async () => {
        const { tableStateOf, tableNumber } = await import("/js/tournament_table.js");
        return [tableStateOf("sng1", { table: "sng1/t1", seats: [] }, "Demo Sit & Go 6").view.table.name,
                tableNumber("mtt2.1/t14"), tableNumber("odd")];
    }""")
    assert names == ["Demo Sit & Go 6 · table 1", "14", "odd"]


def test_the_table_title_gets_the_tournaments_name_when_it_comes_after_the_first_state(new_page: Any,
                                                                                     static_url: str) -> None:
    """Found by the outside walk (2026-12-03): a player out in a Sit & Go's first hand read "sng2 · table t1" over
    the table to the end: the first state came before the tournament's name (GET /api/tournaments/<id>), and only a
    later state, which a player out of the tournament does not get, would have named it."""
    page = _open(new_page, static_url)
    hud = _state(players_left=6, entrants=6)
    title = page.evaluate("""async (hud) => {
        let answer;
        const info = new Promise((resolve) => { answer = resolve; });
        window.fetch = async () => { await info; return new Response(JSON.stringify({ name: "Demo Sit & Go 6",
            currency: "PLAY", results: [] }), { status: 200, headers: { "Content-Type": "application/json" } }); };
        const listeners = {};
        const ctx = { connection: { on: (type, fn) => { (listeners[type] ||= []).push(fn); return () => {}; },
                                    send: async () => ({}) },
                      session: { me: { player_id: 7 }, refresh: async () => ({}) }, toast: () => {}, navigate: () => {} };
        const { TournamentTablePage } = await import("/js/tournament_table.js");
        const root = document.createElement("div");
        document.body.append(root);
        new TournamentTablePage(root, ctx, "sng2");
        listeners.tournament.forEach((fn) => fn({ type: "tournament", tournament: "sng2", event: "state",
            data: { ...hud, table: "sng2/t1", seat: 2, hand: null, seats: [] } }));
        await new Promise((r) => setTimeout(r, 300));  // the view draws on the next frames
        const before = root.textContent;
        answer();
        await new Promise((r) => setTimeout(r, 300));
        return [before, root.textContent];
    }""", hud)
    assert "sng2 · table 1" in title[0], title[0]
    assert "Demo Sit & Go 6 · table 1" in title[1] and "sng2 ·" not in title[1], title[1]


def test_the_detail_page_numbers_its_tables(new_page: Any, static_url: str) -> None:
    """Found by the outside walk (2026-12-03): a running MTT's detail page listed "Table t2" (the table's id)."""
    page = _open(new_page, static_url)
    caption = page.evaluate("""async () => {
        window.fetch = async () => new Response(JSON.stringify({ id: "mtt3", name: "Demo Tournament", kind: "mtt",
            status: "final_table", game: "holdem", structure: "NL", currency: "PLAY", buy_in: 0, fee: 0,
            levels: [], payouts: [], results: [],
            tables: [{ id: "mtt3/t2", players: [{ seat: 1, player: 5, alias: "MrMaris31", chips: 27188 }] }] }),
            { status: 200, headers: { "Content-Type": "application/json" } });
        const ctx = { connection: { on: () => () => {}, send: async () => ({}) }, session: { loggedIn: false },
                      toast: () => {}, navigate: () => {} };
        const { renderTournamentDetail } = await import("/js/tournament_detail.js");
        const root = document.createElement("div");
        document.body.append(root);
        renderTournamentDetail(root, ctx, "mtt3");
        for (let i = 0; i < 50 && !root.querySelector("caption"); i++) await new Promise((r) => setTimeout(r, 50));
        return root.querySelector("[data-testid='tourney-tables'] caption")?.textContent;
    }""")
    assert caption == "Table 2"


def _detail_actions(page: Any, me: int) -> dict[str, Any]:
    """A running MTT's detail page (the shape of GET /api/tournaments/<id>) as player ``me`` sees it: 5 still
    seated, 7 busted (in the results, at no table; both stay in ``players``, the registered list)."""
    return page.evaluate("""async (me) => {
        window.fetch = async () => new Response(JSON.stringify({ id: "mtt4", name: "Demo Tournament", kind: "mtt",
            status: "running", game: "holdem", structure: "NL", currency: "PLAY", buy_in: 0, fee: 0,
            players: [5, 7, 9], players_left: 2, levels: [], payouts: [], late_registration: false,
            tables: [{ id: "mtt4/t1", players: [{ seat: 1, player: 5, alias: "MrMaris31", chips: 27188 },
                                                 { seat: 4, player: 9, alias: "Ilze", chips: 12812 }] }],
            results: [{ player: 7, alias: "Hero", place: 3, place_to: 3, prize: 0 }] }),
            { status: 200, headers: { "Content-Type": "application/json" } });
        const ctx = { connection: { on: () => () => {}, send: async () => ({}) },
                      session: { loggedIn: true, me: { player_id: me }, refresh: async () => ({}) },
                      toast: () => {}, navigate: () => {} };
        const { renderTournamentDetail } = await import("/js/tournament_detail.js");
        document.querySelectorAll(".tourney-detail").forEach((n) => n.remove());
        const root = document.createElement("div");
        document.body.append(root);
        renderTournamentDetail(root, ctx, "mtt4");
        for (let i = 0; i < 50 && !root.querySelector("caption"); i++) await new Promise((r) => setTimeout(r, 50));
        const actions = root.querySelector(".tourney-actions");
        return { open: actions.querySelectorAll("[data-testid='open-tourney-mtt4']").length,
                 buttons: [...actions.querySelectorAll("button")].map((b) => b.textContent), text: actions.textContent };
    }""", me)


def test_busted_mtt_player_is_not_offered_open_table_on_the_detail_page(new_page: Any, static_url: str) -> None:
    """After busting from an MTT the player has no table any more (R-TOURN-GEN-5: out with a place): the detail page
    says where they finished and offers no "Open table" (nor Unregister); a player still seated gets "Open table"."""
    page = _open(new_page, static_url)
    busted = _detail_actions(page, 7)
    assert busted["open"] == 0 and busted["buttons"] == [], busted
    assert busted["text"] == "You finished 3rd.", busted
    page.screenshot(path=str(SCREENSHOTS / "tourney_detail_busted.png"), full_page=False)
    seated = _detail_actions(page, 5)
    assert seated["open"] == 1 and seated["buttons"] == ["Open table"], seated
