"""Twister (RULES.md section 21, issue #12) through both deployments (``deployments.deployment_fixture``: one
``riverboat serve`` process, and a gateway with two table hosts over NATS + PostgreSQL; issue #29 "Twister in the
cluster"): the lobby's Twister section (``GET /api/twister``) answers the same, "Play" (``twister_play``) registers
the player through the public address, the third player starts the Sit & Go, the spin's multiplier and prize are
shown to every player before the first hand, the game is played to the end and the prize is paid exactly; a blocked
player's "Play" is refused in plain words (``play_blocked``, issue #30) and a registration in a Twister not yet
started is refunded when they exclude themselves. In a cluster the offer and each Sit & Go it starts run on one
table host (docs/cluster.md "Twister")."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import httpx
import pytest
from tests.store_fixtures import staff_token

from riverboat.bots import ProtocolClient
from riverboat.bots.client import CommandRefused
from riverboat.bots.twister import TwisterBot
from riverboat.twister import TwisterSettings
from riverboat.twister.lobby import offer

from .deployments import Deployment, GatewayAndHosts, deployment_fixture

DEPOSIT = 100_000
CASH = [{"name": f"Twist Holdem {i}", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR"} for i in range(2)]
TWISTER = {"spin_seconds": 0.2, "jackpot_game_seconds": 0.4, "table_settings": {"between_hands_seconds": 0.02}}

deployment = deployment_fixture(CASH, ["--login-rate", "100"], twister=TWISTER)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _until(check: Any, what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting for: {what}"
        await asyncio.sleep(0.1)
    return found


async def _three_start_a_twister(clients: list[ProtocolClient], buy_in: int) -> dict[str, Any]:
    """Three connected players press Play on a Twister of ``buy_in``; returns the spin's data once its first hand is
    dealt."""
    for c in clients:
        await c.connect()
    started = asyncio.ensure_future(clients[0].next_frame(
        lambda f: f.get("type") == "tournament" and f.get("event") == "twister_spin", timeout=30))
    for c in clients:
        await c.command({"type": "twister_play", "kind": "twister", "buy_in": buy_in,
                         "id": f"tw-{secrets.token_hex(4)}"})
    spin = dict((await started)["data"])
    await clients[0].next_frame(lambda f: f.get("type") == "tournament" and f.get("event") == "state"
                                and isinstance((f.get("data") or {}).get("hand"), dict), timeout=30)
    return spin


def _waiting(d: Deployment, kind: str, buy_in: int) -> int:
    lobby = d.http.get("/api/twister").json()
    (t,) = [t for t in lobby["types"] if t["kind"] == kind]
    (b,) = [b for b in t["buy_ins"] if b["buy_in"] == buy_in]
    return int(b["waiting"])


def test_r_twist_11_the_twister_lobby_answers_the_same_in_both_deployments(deployment: Deployment) -> None:
    """R-TWIST-11, R-WILD-5: ``GET /api/twister`` (what the browser's Twister page reads) is the room's offer --
    the types, buy-ins, prize tables and players waiting -- exactly as the room's settings make it, in both
    deployments (a gateway reads it from the offer's host); with a token it adds the caller's tickets and Twisters."""
    d = deployment
    expected = offer(TwisterSettings.from_dict({k: v for k, v in TWISTER.items() if k != "table_settings"}))
    expected["currency"] = "EUR"
    for t in expected["types"]:
        for b in t["buy_ins"]:
            b["waiting"] = 0
    r = d.http.get("/api/twister")
    assert r.status_code == 200, r.text
    lobby = r.json()
    assert {k: v for k, v in lobby.items() if k not in ("tickets", "playing")} == expected
    assert lobby["tickets"] == [] and lobby["playing"] == []
    _, token = d.player()
    mine = d.http.get("/api/twister", headers=_auth(token)).json()
    assert mine["tickets"] == [] and mine["playing"] == []


async def test_r_twist_2_3_5_a_twister_played_through_the_public_address(deployment: Deployment) -> None:
    """R-TWIST-1/2/3/5, R-TWIST-11, R-TOURN-GEN-5: three players press Play for a EUR 1 Twister through the public
    address (a cluster's gateway); the lobby shows the two waiting and each their Twister (``playing``); the third
    starts it; every player is shown the same spin (multiplier x buy-in = prize, the draw stored for audit) before
    the table's first hand; the game is played to the end; each balance is deposit - buy-in + prize of the place
    exactly; the Twister leaves the lobby and the player's list; ``ledger.verify()`` passes and EUR sums to zero.
    In a cluster the Sit & Go's hands are dealt by one host (its ``/health``)."""
    d = deployment
    players = [d.player(eur=DEPOSIT) for _ in range(3)]
    clients = [ProtocolClient(d.ws_url, token) for _, token in players]
    bots = [TwisterBot(c) for c in clients]
    try:
        for c in clients:
            await c.connect()
        for bot in bots[:2]:
            ack = await bot.play("twister", 100)
            assert ack["result"]["kind"] == "twister" and ack["result"]["buy_in"] == 100, ack
        await _until(lambda: _waiting(d, "twister", 100) == 2, "two players waiting in the lobby")
        playing = await _until(lambda: d.http.get("/api/twister", headers=_auth(players[0][1])).json()["playing"],
                               "the player's Twister in the lobby")
        assert len(playing) == 1 and playing[0].startswith("twister:twister-100-"), playing
        assert d.http.get("/api/twister", headers=_auth(players[1][1])).json()["playing"] == playing
        assert all(d.balance(pid) == DEPOSIT - 100 for pid, _ in players[:2])
        dealers: set[str] = set()
        watch = asyncio.ensure_future(_watch_dealers(d, playing[0], dealers))
        await bots[2].play("twister", 100)
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 120)
        watch.cancel()
    finally:
        for c in clients:
            await c.close()
    spins = [{k: v for k, v in dict(b.events("twister_spin")[0]["data"]).items() if k != "seat"} for b in bots]
    assert all(len(b.events("twister_spin")) == 1 for b in bots)
    spin = spins[0]
    assert all(s == spin for s in spins) and spin["tournament_id"] == playing[0]
    assert spin["prize"] == spin["multiplier"] * 100 and sum(spin["places"]) == spin["prize"], spin
    for bot in bots:  # the spin before the first decision of the first hand (R-TWIST-3)
        events = [f["event"] for f in bot.frames]
        assert "state" not in events[:events.index("twister_spin")]
    (draw,) = [x for x in d.store.twister.draws(tournament_id=spin["tournament_id"]) if x.seq == 0]
    assert draw.multiplier == spin["multiplier"]
    results = {pid: b.result for (pid, _), b in zip(players, bots, strict=True)}
    places = sorted((r["place"], r["place_to"]) for r in results.values() if r)
    assert places in ([(1, 1), (2, 2), (3, 3)], [(1, 1), (2, 3), (2, 3)])  # two out at once share (R-TOURN-GEN-6)
    assert sum(r["prize"] for r in results.values() if r) == spin["prize"]
    for pid, r in results.items():
        assert r is not None
        assert d.balance(pid) == DEPOSIT - 100 + r["prize"], (pid, r)
    history = d.http.get("/api/twister/history", headers=_auth(players[0][1])).json()["history"]
    assert history[0]["tournament"] == spin["tournament_id"] and history[0]["multiplier"] == spin["multiplier"]
    await _until(lambda: d.http.get("/api/twister", headers=_auth(players[0][1])).json()["playing"] == [],
                 "the finished Twister off the player's list")
    assert all(spin["tournament_id"] != t["id"] for tab in d.http.get("/api/tournaments").json().values()
               for t in tab), "a Twister is not a row of the tournament lobby (as in one process)"
    if d.kind == "cluster":  # its table was dealt on one host, the director's (R-TWIST-3 hooks run with it)
        assert len(dealers) == 1, dealers
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0


async def _watch_dealers(d: Deployment, tournament_id: str, seen: set[str]) -> None:
    """Every table host whose ``/health`` lists a hand dealt at the Twister's table (``tournament_tables``)."""
    if d.kind != "cluster":
        return
    async with httpx.AsyncClient(timeout=5) as http:
        while True:
            for url in d.public_urls():
                health = (await http.get(url + "/health")).json()
                if any(t.startswith(tournament_id + "/") for t in health.get("tournament_tables") or {}):
                    seen.add(str(health.get("node")))
            await asyncio.sleep(0.05)


async def test_issue30_a_blocked_players_twister_play_is_refused_in_both_deployments(deployment: Deployment
                                                                                      ) -> None:
    """Issue #30 (R-TWIST-11): a player waiting in a Twister not yet started excludes themselves: the registration
    is refunded (the REST answer's ``ended.refunded`` names the Twister; the stake is back), and their next "Play"
    is refused in plain words, ``play_blocked``, moving no money -- through a gateway exactly as in one process."""
    d = deployment
    me, token = d.player(eur=DEPOSIT)
    async with ProtocolClient(d.ws_url, token) as c:
        ack = await TwisterBot(c).play("twister", 200)
        assert ack["result"]["kind"] == "twister"
        tid = await _until(lambda: d.http.get("/api/twister", headers=_auth(token)).json()["playing"],
                           "the Twister in the player's list")
        assert d.balance(me) == DEPOSIT - 200
        r = d.http.post("/api/protections/self-exclusion", headers=_auth(token), json={"months": 6, "confirm": True})
        assert r.status_code == 200 and r.json()["block_kind"] == "self_exclusion", r.text
        assert r.json()["ended"] == {"left": [], "refunded": tid, "kept": []}, r.text
        assert d.balance(me) == DEPOSIT
        for kind, buy_in in (("twister", 200), ("aog", 100), ("wild", 50)):
            with pytest.raises(CommandRefused) as refused:
                await c.command({"type": "twister_play", "kind": kind, "buy_in": buy_in,
                                 "id": f"tp-{secrets.token_hex(4)}"})
            assert refused.value.code == "play_blocked", refused.value.frame
            assert "excluded yourself" in refused.value.frame["message"], refused.value.frame
    assert d.balance(me) == DEPOSIT
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0


async def test_r_tourn_int_9_10_the_operator_interrupts_a_twister_in_both_deployments(deployment: Deployment
                                                                                       ) -> None:
    """R-TOURN-INT-9/10, R-OPER-1, R-TWIST-11: a running Twister whose players do not act; one of them opens the
    Twister page again (``GET /api/twister``): it names the Twister and the table is sent to them again; staff
    interrupt it (``POST /api/operator/twister/{id}/interrupt``; a player is refused with 403): every player gets
    the buy-in back and the pool by chips, told by an ``interrupted`` frame; balances exact, the pool empty, the
    ledger verifies. Through a gateway the Twister's host does it, with the same answer."""
    d = deployment
    players = [d.player(eur=DEPOSIT) for _ in range(3)]
    op_name = f"op{secrets.token_hex(4)}"
    d.store.accounts.register(op_name, "password-" + op_name, role="operator")
    op = _auth(staff_token(d.store, op_name, "password-" + op_name))
    clients = [ProtocolClient(d.ws_url, token, keep_frames=True) for _, token in players]
    try:
        spin = await _three_start_a_twister(clients, 500)
        tid = spin["tournament_id"]
        deadline = time.monotonic() + 10  # a gateway knows the player's Twisters from its record (within a second)
        while True:
            resent = asyncio.ensure_future(clients[0].next_frame(
                lambda f: f.get("type") == "tournament" and f.get("event") == "state", timeout=10))
            await asyncio.sleep(0)
            page = d.http.get("/api/twister", headers=_auth(players[0][1])).json()
            if page["playing"] or time.monotonic() > deadline:
                break
            resent.cancel()
            await asyncio.sleep(0.1)
        assert page["playing"] == [tid], page["playing"]
        assert (await resent)["tournament"] == tid  # the table again, as on reconnecting
        url = f"/api/operator/twister/{tid}/interrupt"
        assert d.http.post(url, headers=_auth(players[0][1])).status_code == 403
        res = d.http.post(url, headers=op)
        assert res.status_code == 200, res.text
        body = res.json()
        assert body["rule"] == ("R-TOURN-INT-10" if spin["prize"] >= 100_000 else "R-TOURN-INT-9")
        payouts = {int(k): v for k, v in body["payouts"].items()}
        assert set(payouts) == {pid for pid, _ in players}
        assert sum(payouts.values()) == max(spin["prize"], 3 * 500)  # the pool, or the refunds the house tops up
        assert all(v >= 500 for v in payouts.values())
        for c in clients:
            if not any(f.get("event") == "interrupted" for f in c.frames):
                await c.next_frame(lambda f: f.get("type") == "tournament" and f.get("event") == "interrupted", 10)
    finally:
        for c in clients:
            await c.close()
    for pid, _ in players:
        assert d.balance(pid) == DEPOSIT - 500 + payouts[pid]
    snap = d.store.tournament_play.snapshot(tid)
    assert snap.status == "interrupted" and snap.prize_pool == 0
    again = d.http.post(url, headers=op)  # over: nothing to interrupt (gone, or not running while it is closed)
    assert again.json()["error"]["code"] in ("no_tournament", "not_running"), again.text
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0


async def test_r_wild_1_2_a_wild_twister_in_both_deployments(deployment: Deployment) -> None:
    """R-WILD-1/2 (R-TWIST-3): a Wild Twister EUR 0.50 through the public address: nobody is ever offered a decision
    (every hand an automatic all-in: in a cluster the variant's hook runs where the table is dealt, the director's
    host), every player is shown each hand, the winner's prize is a Twister ticket of the drawn value (in their
    ``GET /api/twister`` tickets), no cash; the ledger verifies."""
    d = deployment
    players = [d.player(eur=DEPOSIT) for _ in range(3)]
    clients = [ProtocolClient(d.ws_url, token) for _, token in players]
    bots = [TwisterBot(c) for c in clients]
    try:
        for c in clients:
            await c.connect()
        for bot in bots:
            await bot.play("wild", 50)
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 120)
    finally:
        for c in clients:
            await c.close()
    assert all(b.decisions == 0 for b in bots)
    assert all(any((f.get("data") or {}).get("automatic") for f in b.events("state")) for b in bots)
    spin = dict(bots[0].events("twister_spin")[0]["data"])
    assert spin["ticket"] is True
    winner = next(tok for (_, tok), b in zip(players, bots, strict=True) if b.result and b.result["place"] == 1)
    (ticket,) = d.http.get("/api/twister", headers=_auth(winner)).json()["tickets"]
    assert ticket["face_value"] == spin["prize"]
    for pid, _ in players:
        assert d.balance(pid) == DEPOSIT - 50  # the prize is a ticket, not cash
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0


async def test_r_server_1_a_twister_whose_host_dies_is_resumed_with_its_spin(deployment: Deployment) -> None:
    """R-SERVER-1, R-TWIST-3 (cluster: issue #29 "owned and resumed like the other tournaments"): the table host
    that runs a Twister (and the offer) is killed with SIGKILL in the middle of its first hand. The other host takes
    the Twister's record and resumes it from the store: the hand in progress void, the same spin and prize (no
    second draw), the players (still connected through the gateway) get their table and play it to the end; each
    balance is deposit - buy-in + prize of the place, no hand recorded twice, the ledger verifies; the offer moved
    with it ("Play" is answered by the survivor). One process: a restart, ``tests/twister/test_twister_resume.py``."""
    d = deployment
    if not isinstance(d, GatewayAndHosts):
        pytest.skip("one process: the restart case is tests/twister/test_twister_resume.py")
    players = [d.player(eur=DEPOSIT) for _ in range(3)]
    clients = [ProtocolClient(d.ws_url, token, keep_frames=True) for _, token in players]
    try:
        spin = await _three_start_a_twister(clients, 1000)
        tid = spin["tournament_id"]
        host = await _until(lambda: d.owner(tid), "the Twister's host")
        survivor = next(n for n in (d.cluster.h1, d.cluster.h2) if n != host)
        d.cluster.kill(host)
        bots = [TwisterBot(c) for c in clients]  # from now on every decision is played
        await _until(lambda: d.owner(tid) == survivor, "the other host takes the Twister", 45)
        await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 120)
    finally:
        for c in clients:
            await c.close()
    assert [x.multiplier for x in d.store.twister.draws(tournament_id=tid) if x.seq == 0] == [spin["multiplier"]]
    results = {pid: b.result for (pid, _), b in zip(players, bots, strict=True)}
    assert sum(r["prize"] for r in results.values() if r) == spin["prize"], results
    for pid, r in results.items():
        assert r is not None
        assert d.balance(pid) == DEPOSIT - 1000 + r["prize"], (pid, r)
    hands = d.store.hands.for_table(f"{tid}/t1", limit=1000, include_void=True)
    assert hands and len({h.hand_id for h in hands}) == len(hands)  # each hand recorded once
    _, token = d.player(eur=DEPOSIT)
    async with ProtocolClient(d.ws_url, token) as c:  # the offer is on the survivor now: it answers (and no state
        with pytest.raises(CommandRefused) as refused:  # is left for the other tests: an unpublished buy-in)
            await c.command({"type": "twister_play", "kind": "twister", "buy_in": 123, "id": "after-failover"})
        assert refused.value.code == "not_offered", refused.value.frame
    assert d.http.get("/api/twister").status_code == 200
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0
