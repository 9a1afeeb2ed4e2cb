"""End to end through a real ``riverboat serve`` process (issue #12): bots on real WebSocket connections press
"Play" (``twister_play``) and play their Twister tournaments with ``tournament_act`` to the end.

Proven here, with the server's own database read afterwards: a Twister (R-TWIST-1..5: three are seated when the
third is in, the spin is shown to every player before the first hand, the winner is paid the drawn prize), an
Age of the Gods Twister with every jackpot trigger forced by the server's settings (R-AOG-3/5/6, R-WALLET-9: every
player told of every win, the jackpot credited apart from the prize), a Wild Twister (R-WILD-1/2: nobody is ever
asked to act, every hand is an automatic all-in, the prize is a Twister ticket), and that ticket used as the
buy-in of the next Twister (R-WILD-1, R-TOURN-GEN-2). Money: every balance is deposit - stakes + prizes +
jackpots, the ledger's verify() passes and each currency sums to zero; every frame validates against the
protocol models (conftest)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tests.store_fixtures import staff_token

from riverboat.bots import ProtocolClient
from riverboat.bots.client import CommandRefused
from riverboat.bots.twister import TwisterBot

DEPOSIT = 100_000
SETTINGS = {"spin_seconds": 0.2, "jackpot_game_seconds": 0.4, "jackpot_trigger_ppm_per_100": 1_000_000,
            "table_settings": {"between_hands_seconds": 0.02}}


@pytest.fixture(scope="module")
def server(start_module_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = Path(tmp_path_factory.mktemp("twister")) / "twister.json"
    path.write_text(json.dumps(SETTINGS))
    return start_module_server([], ["--twister", str(path)])


async def _game(server: Any, kind: str, buy_in: int, players: list[tuple[int, str]],
                tickets: dict[int, int] | None = None) -> list[TwisterBot]:
    clients = [ProtocolClient(server.ws_url, token) for _, token in players]
    bots = [TwisterBot(c) for c in clients]
    try:
        for c in clients:
            await c.connect()
        for (pid, _), bot in zip(players, bots, strict=True):
            ack = await bot.play(kind, buy_in, (tickets or {}).get(pid))
            assert ack["result"]["kind"] == kind
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 120)
    finally:
        for c in clients:
            await c.close()
    return bots


def _spin(bot: TwisterBot) -> dict[str, Any]:
    (spin,) = bot.events("twister_spin")
    return dict(spin["data"])


def _check_ledger(server: Any) -> None:
    server.store.ledger.verify()
    for currency in ("EUR", "PLAY"):
        assert server.store.ledger.total(currency) == 0


async def test_r_twist_3_5_twister_through_the_server(server: Any) -> None:
    """R-TWIST-1/2/3/5, R-TOURN-GEN-5: three players press Play for a EUR 1 Twister; the third starts it; each is
    shown the spin (before any hand event of the table) and plays to the end; the winner's balance holds the drawn
    prize, the others lost their stake; the spin is stored for audit and in the players' Twister history."""
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    bots = await _game(server, "twister", 100, players)
    spins = [{k: v for k, v in _spin(b).items() if k != "seat"} for b in bots]
    assert all(s == spins[0] for s in spins) and spins[0]["prize"] == spins[0]["multiplier"] * 100
    for bot in bots:  # the spin before the first decision of the first hand (R-TWIST-3)
        events = [f["event"] for f in bot.frames]
        assert "state" not in events[:events.index("twister_spin")]
    results = {pid: b.result for (pid, _), b in zip(players, bots, strict=True)}
    places = sorted((r["place"], r["place_to"]) for r in results.values() if r)
    assert places in ([(1, 1), (2, 2), (3, 3)], [(1, 1), (2, 3), (2, 3)])  # two out at once share (R-TOURN-GEN-6)
    for pid, r in results.items():
        assert r is not None
        assert server.balance(pid) == DEPOSIT - 100 + r["prize"]
    tid = spins[0]["tournament_id"]
    (draw,) = [d for d in server.store.twister.draws(tournament_id=tid) if d.seq == 0]
    assert draw.multiplier == spins[0]["multiplier"]
    history = server.http.get("/api/twister/history",
                              headers={"Authorization": f"Bearer {players[0][1]}"}).json()["history"]
    assert history[0]["tournament"] == tid and history[0]["multiplier"] == spins[0]["multiplier"]
    _check_ledger(server)


async def test_r_aog_3_6_forced_jackpots_through_the_server(server: Any) -> None:
    """R-AOG-1/3/5/6, R-WALLET-9: an AoG EUR 10 Twister with every trigger forced (the server's setting): each
    player is told of all three jackpot games' wins, and each balance is deposit - stake + prize + jackpot won, the
    jackpot paid apart from the prize (ledger kind jackpot_out)."""
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    bots = await _game(server, "aog", 1000, players)
    spin = _spin(bots[0])
    assert len(spin["jackpots"]) == 3
    won: dict[int, int] = {pid: 0 for pid, _ in players}
    for bot in bots:
        told = bot.events("jackpot")
        assert len(told) == 3  # R-AOG-3: every player is told of every win
    for f in bots[0].events("jackpot"):
        won[f["data"]["player"]] += f["data"]["amount"]
    assert sum(won.values()) > 0
    for (pid, _), bot in zip(players, bots, strict=True):
        assert bot.result is not None
        assert server.balance(pid) == DEPOSIT - 1000 + bot.result["prize"] + won[pid]
    _check_ledger(server)


async def test_r_wild_1_2_wild_twister_ticket_buys_the_next_twister(server: Any) -> None:
    """R-WILD-1/2/3, R-TOURN-GEN-2: a Wild Twister EUR 0.50 through the server: nobody is ever offered a decision
    (every hand is an automatic all-in), the winner's prize is a Twister ticket (shown by GET /api/twister) and
    not cash; the winner presses Play for the Twister of the ticket's value with it and the buy-in comes from the
    ticket (the balance does not pay it); a ticket of another value is refused and changes nothing."""
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    bots = await _game(server, "wild", 50, players)
    assert all(b.decisions == 0 for b in bots)
    spin = _spin(bots[0])
    assert spin["ticket"] is True
    winner = next(pid for (pid, _), b in zip(players, bots, strict=True) if b.result and b.result["place"] == 1)
    token = dict(players)[winner]
    offer = server.http.get("/api/twister", headers={"Authorization": f"Bearer {token}"}).json()
    (ticket,) = offer["tickets"]
    assert ticket["face_value"] == spin["prize"]
    for pid, _ in players:
        assert server.balance(pid) == DEPOSIT - 50  # the prize is a ticket, not cash
    # a ticket of another value is refused, nothing changes
    async with ProtocolClient(server.ws_url, token) as c:
        other = 100 if ticket["face_value"] != 100 else 200
        with pytest.raises(CommandRefused):
            await TwisterBot(c).play("twister", other, ticket["id"])
    assert server.balance(winner) == DEPOSIT - 50
    others = [server.player(eur=DEPOSIT) for _ in range(2)]
    nxt = await _game(server, "twister", ticket["face_value"], [(winner, token), *others],
                      tickets={winner: ticket["id"]})
    assert nxt[0].result is not None
    assert server.balance(winner) == DEPOSIT - 50 + nxt[0].result["prize"]  # the buy-in came from the ticket
    after = server.http.get("/api/twister", headers={"Authorization": f"Bearer {token}"}).json()
    assert after["tickets"] == []
    auth = {"Authorization": f"Bearer {token}"}
    history = server.http.get("/api/twister/history", headers=auth).json()
    wild = next(h for h in history["history"] if h["kind"] == "wild")
    assert wild["tickets_won"] == [{"ticket": ticket["id"], "value": spin["prize"], "valid_for": "twister:*"}]
    assert wild["prize"] == 0 and wild["place"] == 1 and wild["field"] == 3  # a ticket of its value, not 0
    assert history["history"][0]["ticket_used"] == ticket["face_value"] and history["history"][0]["paid_buy_in"] == 0
    # the account's tournament history holds the same rows (R-TWIST-11: one history for every kind)
    account = server.http.get("/api/tournaments/history", headers=auth).json()["history"]
    assert [r for r in account if r["kind"] in ("twister", "aog", "wild")] == history["history"]
    assert account[0]["tournament"] == history["history"][0]["tournament"]
    _check_ledger(server)


def test_r_twist_11_the_demo_offers_a_twister_in_play_money() -> None:
    """R-TWIST-11: ``riverboat serve``'s demo has a Twister section in play money (a newcomer's sign-up chips)
    whose Sit & Go's two bots fill at once; ``--twister FILE`` replaces it and ``--tables`` without it offers it
    in EUR with no bots."""
    from riverboat.server.launch import LaunchOptions, twister_config

    assert twister_config(LaunchOptions()) == {"currency": "PLAY", "fill_bots": 2}
    assert twister_config(LaunchOptions(tables_file=Path("t.json"))) == {}
    from riverboat.room.twister.offers import TwisterOffers

    offers = TwisterOffers.from_config(object(), twister_config(LaunchOptions()))  # type: ignore[arg-type]
    lobby = offers.lobby()
    assert lobby["currency"] == "PLAY" and offers.fill_bots == 2
    assert [t["kind"] for t in lobby["types"]] == ["twister", "aog", "wild"]


async def test_r_twist_11_a_reconnecting_player_gets_the_table_back(server: Any) -> None:
    """R-TOURN-DISC-1 / R-TWIST-11: a Twister player who opens the Twister page again during a game (GET
    /api/twister) is told the running Twister and sent its table again; one whose connection drops while it is
    their turn connects again and is sent their table (the ``state`` event with the hand and their legal actions)
    at once, then plays on to the end."""
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    clients = [ProtocolClient(server.ws_url, token) for _, token in players[:2]]
    bots = [TwisterBot(c) for c in clients]
    lost = ProtocolClient(server.ws_url, players[2][1])
    again = ProtocolClient(server.ws_url, players[2][1])
    try:
        for c in (*clients, lost):
            await c.connect()
        for bot in bots:
            await bot.play("twister", 200)
        turn = asyncio.ensure_future(lost.next_frame(
            lambda f: f.get("type") == "tournament" and f.get("event") == "state"
            and isinstance((f.get("data") or {}).get("hand"), dict) and "legal" in f["data"]["hand"], timeout=60))
        await lost.command({"type": "twister_play", "kind": "twister", "buy_in": 200, "id": "lost-play"})
        first = await turn
        # back on the Twister page without reconnecting: GET /api/twister names the running Twister and the table
        # (the same hand, still waiting for this player) is sent again on the open socket
        resent = asyncio.ensure_future(lost.next_frame(
            lambda f: f.get("type") == "tournament" and f.get("event") == "state", timeout=10))
        await asyncio.sleep(0)
        auth = {"Authorization": f"Bearer {players[2][1]}"}
        assert server.http.get("/api/twister", headers=auth).json()["playing"] == [first["tournament"]]
        again_sent = (await resent)["data"]
        assert again_sent["hand"]["legal"] == first["data"]["hand"]["legal"]
        await lost.close()
        await asyncio.sleep(0.2)
        back = TwisterBot(again)
        state = asyncio.ensure_future(again.next_frame(
            lambda f: f.get("type") == "tournament" and f.get("event") == "state", timeout=5))
        await again.connect()
        frame = await state
        assert isinstance(frame["data"]["hand"], dict) and frame["data"]["seat"] is not None
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in (*bots, back))), 120)
    finally:
        for c in (*clients, again):
            await c.close()
    assert server.http.get("/api/twister", headers=auth).json()["playing"] == []  # over: nothing to go back to
    _check_ledger(server)


async def test_r_tourn_int_9_10_operator_interrupts_a_twister(server: Any) -> None:
    """R-TOURN-INT-9/10, R-TOURN-INT-11, R-OPER-1: staff interrupt a running Twister whose players do not act
    (POST /api/operator/twister/{id}/interrupt; a player is refused with 403): every remaining player gets the
    buy-in back and the pool left by chips (plus 10% each from EUR 1000), told by an ``interrupted`` frame;
    balances = deposit - stake + compensation, nothing stays in the pool, the ledger balances."""
    players = [server.player(eur=DEPOSIT) for _ in range(3)]
    op_id = server.store.accounts.register("tw_operator", "password-tw_operator", role="operator").id
    op = staff_token(server.store, "tw_operator", "password-tw_operator")
    clients = [ProtocolClient(server.ws_url, token, keep_frames=True) for _, token in players]
    try:
        for c in clients:
            await c.connect()
        started = asyncio.ensure_future(clients[0].next_frame(
            lambda f: f.get("type") == "tournament" and f.get("event") == "twister_spin", timeout=30))
        for i, c in enumerate(clients):
            await c.command({"type": "twister_play", "kind": "twister", "buy_in": 500, "id": f"int-{i}"})
        spin = (await started)["data"]
        tid = spin["tournament_id"]
        url = f"/api/operator/twister/{tid}/interrupt"
        assert server.http.post(url, headers={"Authorization": f"Bearer {players[0][1]}"}).status_code == 403
        res = server.http.post(url, headers={"Authorization": f"Bearer {op}"})
        assert res.status_code == 200, res.text
        body = res.json()
        assert body["rule"] == ("R-TOURN-INT-10" if spin["prize"] >= 100_000 else "R-TOURN-INT-9")
        payouts = {int(k): v for k, v in body["payouts"].items()}
        assert set(payouts) == {pid for pid, _ in players}
        assert sum(payouts.values()) == max(spin["prize"], 3 * 500)  # the pool, or the refunds the house tops up
        assert all(v >= 500 for v in payouts.values())  # at least the buy-in back
        for c in clients:
            await c.next_frame(lambda f: f.get("type") == "tournament" and f.get("event") == "interrupted", 10) \
                if not any(f.get("event") == "interrupted" for f in c.frames) else None
    finally:
        for c in clients:
            await c.close()
    for pid, _ in players:
        assert server.balance(pid) == DEPOSIT - 500 + payouts[pid]
    assert server.store.tournament_play.snapshot(tid).status == "interrupted"
    assert server.store.tournament_play.snapshot(tid).prize_pool == 0
    assert op_id
    _check_ledger(server)
