"""Issue #30 "Money in and out" through both deployments (``deployments.deployment_fixture``: one process, and a
gateway with two table hosts over NATS + PostgreSQL): a time-out or self-exclusion ends the player's play wherever
it goes on -- the cash table's hand finishes and the stack returns, the Speed Poker pool is left, the registration
in a tournament not yet started is refunded (the room command ``end_play``, which a gateway forwards to the host of
each place) -- and the whole money path (the fake provider's signed webhook, a withdrawal, the staff's approval,
the statement) answers the same through a gateway as in one process."""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from typing import Any

import httpx
import pytest
from tests.store_fixtures import staff_token

from riverboat.bots import ProtocolClient
from riverboat.bots.client import CommandRefused

from .deployments import Deployment, deployment_fixture
from .test_server_money_e2e import auto_play

SECRET = "test-secret-of-the-fake-provider"
CASH = [{"name": f"Excl Holdem {i}", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}
        for i in range(4)]  # split between a cluster's two hosts; the pool stays on the first
POOL = {"speed": True, "name": "Excl Speed", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
        "table_size": 2, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR"}
SNG = {"kind": "sng", "seats": 3, "min_entrants": 3, "buy_in": 1000, "fee": 100, "currency": "EUR",
       "starting_stack": 1500, "payout": "sng", "level_seconds": 3600, "levels": [{"small_blind": 50, "big_blind": 100}]}

deployment = deployment_fixture([*CASH, POOL], ["--login-rate", "100"], money={"payments": {"fake": {"secret": SECRET}}})


async def _until(check: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for: {what}"
        await asyncio.sleep(0.1)


def _operator(d: Deployment) -> dict[str, str]:
    name = f"op{uuid.uuid4().hex[:8]}"
    d.store.accounts.register(name, "password-" + name, role="operator")
    return {"Authorization": f"Bearer {staff_token(d.store, name, 'password-' + name)}"}


async def _tournament(d: Deployment, http: httpx.AsyncClient, op: dict[str, str], **spec: Any) -> str:
    tid = f"ex-{d.kind}-{uuid.uuid4().hex[:6]}"
    made = await http.post("/api/operator/tournaments", headers=op,
                           json={"spec": {**SNG, "name": f"Excl SNG {tid[-6:]}", **spec}, "id": tid})
    assert made.status_code == 201, made.text
    return tid


async def _cash_table(d: Deployment) -> str:
    """A cash table; in the cluster one dealt by another host than the Speed Poker pool's (a pool stays on the host
    that opened it; the cash tables split between the two), so the player's places are on both hosts."""
    pool_host = d.owner(d.table_id(POOL["name"]))
    owners: dict[str, str | None] = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        owners = {t: d.owner(t) for t in (d.table_id(c["name"]) for c in CASH)}
        elsewhere = [t for t, h in owners.items() if h is not None and h != pool_host]
        if elsewhere or d.kind == "one":
            return (elsewhere or list(owners))[0]
        await asyncio.sleep(0.25)
    raise AssertionError(f"no cash table left the pool's host {pool_host}: {owners}")


async def test_issue30_self_exclusion_ends_play_on_every_host_in_both_deployments(deployment: Deployment) -> None:
    """Issue #30 (R-CASH-3): a player seated at a cash table in the middle of a hand, in a Speed Poker pool and
    registered in a Sit & Go not yet started excludes themselves through the REST route. In both deployments (in the
    cluster the table and the pool are on different hosts): the hand finishes and the stack returns to the balance
    (the balance is exactly the deposit plus the hand's result), the pool is left (its buy-in back), the
    registration is refunded (buy-in and fee); sit, join_speed, tournament_register and waitlist are refused in plain words (play_blocked);
    the player still logs in, sees the balance and withdraws; the ledger verifies."""
    d = deployment
    carol, token_c = d.player(eur=10_000)
    dave, token_d = d.player(eur=10_000)
    table, pool = await _cash_table(d), d.table_id(POOL["name"])
    async with httpx.AsyncClient(base_url=d.base_url, timeout=30.0) as http:
        op = _operator(d)
        sng = await _tournament(d, http, op)
        async with ProtocolClient(d.ws_url, token_c) as cc, ProtocolClient(d.ws_url, token_d) as cd:
            await cc.command({"type": "tournament_register", "tournament": sng, "id": f"r-{secrets.token_hex(4)}"})
            await cc.command({"type": "join_speed", "pool": pool, "buy_in": 500, "id": f"j-{secrets.token_hex(4)}"})
            started = asyncio.ensure_future(cd.next_frame(
                lambda f: f.get("type") == "event" and f["event"].get("kind") == "hand_started", 20))
            await cc.sit(table, 2, 1_000)
            await cd.sit(table, 3, 1_000)
            hand_id = (await started)["event"]["hand_id"]
            assert d.store.ledger.balance(carol) == 10_000 - 1_100 - 500 - 1_000
            if d.kind == "cluster":  # the player's places are on both table hosts
                hosts = {d.owner(table), d.owner(pool)}
                assert len(hosts) == 2 and None not in hosts, hosts

            r = await http.post("/api/protections/self-exclusion", headers={"Authorization": f"Bearer {token_c}"},
                                json={"months": 6, "confirm": True})
            assert r.status_code == 200 and r.json()["block_kind"] == "self_exclusion", r.text
            assert r.json()["ended"] == {"left": sorted([table, pool]), "refunded": [sng], "kept": []}, r.text
            stack_then = d.store.ledger.table_stack(carol, table)
            now = d.store.hands.get(table, hand_id)
            if now is None or now.status != "settled":  # still in the hand: it finishes first, on the stack
                assert stack_then == 1_000
            assert d.store.ledger.table_stack(carol, pool) == 0  # the pool: left at once, buy-in back
            assert carol not in d.store.tournaments.registered(sng)  # refunded: buy-in and fee back
            auto_play(cd, table)
            auto_play(cc, table)
            await _until(lambda: d.store.ledger.table_stack(carol, table) == 0, "the stack back in the balance")
            record = d.store.hands.get(table, hand_id)
            assert record is not None and record.status == "settled" and carol in record.changes
            assert d.store.ledger.balance(carol) == 10_000 + record.changes[carol]
            refusals = ({"type": "sit", "table": table, "seat": 4, "buy_in": 500},
                        {"type": "join_speed", "pool": pool, "buy_in": 500},
                        {"type": "tournament_register", "tournament": sng},
                        {"type": "waitlist", "table": table})  # the waiting list too (on the table's host)
            for frame in refusals:
                with pytest.raises(CommandRefused) as refused:
                    await cc.command({**frame, "id": f"x-{secrets.token_hex(4)}"})
                assert refused.value.code == "play_blocked", refused.value.frame
                assert "excluded yourself" in refused.value.frame["message"], refused.value.frame
        name = d.store.accounts.get(carol).username
        login = await http.post("/api/login", json={"username": name, "password": "password-" + name})
        assert login.status_code == 200, login.text
        auth = {"Authorization": f"Bearer {login.json()['token']}"}
        info = (await http.get("/api/cashier/info", headers=auth)).json()
        assert info["may_play"] is False and info["block"]["kind"] == "self_exclusion"
        assert info["balances"]["EUR"] == d.store.ledger.balance(carol)
        deposit = await http.post("/api/cashier/deposits", headers=auth,
                                  json={"provider": "fake", "amount": 500, "currency": "EUR"})
        assert deposit.status_code == 403 and deposit.json()["error"]["code"] == "play_blocked", deposit.text
        undo = await http.post("/api/protections/timeout", headers=auth, json={"hours": 24})
        assert undo.status_code == 422 and "cannot be shortened" in undo.json()["error"]["message"], undo.text
        verified = await http.post(f"/api/operator/players/{carol}/verify", headers=op,
                                   json={"verified": True, "reason": "id"})
        assert verified.status_code == 200, verified.text
        w = await http.post("/api/cashier/withdrawals", headers=auth,
                            json={"amount": 500, "currency": "EUR", "request_id": "out"})
        assert w.status_code == 201 and w.json()["status"] == "pending", w.text
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0


async def test_issue30_exclusion_refunds_an_unstarted_registration_past_its_deadline(deployment: Deployment) -> None:
    """Issue #30: "registrations in tournaments not yet started refunded": a time-out refunds the registration of a
    Sit & Go not yet started even past its unregistration deadline (when the player could no longer unregister,
    R-TOURN-REG-3), buy-in and fee exactly; a Sit & Go that has started keeps its entry (no refund once it runs,
    R-TOURN-REG-3). ``end_play`` without a block in force is refused (``not_blocked``) and changes
    nothing. Both deployments: in a cluster the tournaments' hosts do it."""
    d = deployment
    me, token = d.player(eur=10_000)
    a, token_a = d.player(eur=10_000)
    b, token_b = d.player(eur=10_000)
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=d.base_url, timeout=30.0) as http:
        op = _operator(d)
        closed = await _tournament(d, http, op, unregister_deadline=time.time() - 1)
        running = await _tournament(d, http, op)
        async with ProtocolClient(d.ws_url, token) as c, ProtocolClient(d.ws_url, token_a) as ca, \
                ProtocolClient(d.ws_url, token_b) as cb:
            await c.command({"type": "tournament_register", "tournament": closed, "id": "reg-closed"})
            with pytest.raises(CommandRefused) as refused:  # past the deadline: no unregistration, no refund
                await c.command({"type": "tournament_unregister", "tournament": closed})
            assert refused.value.code == "unregister_closed", refused.value.frame
            with pytest.raises(CommandRefused) as refused:  # not blocked: the exclusion's own way out is closed
                await c.command({"type": "end_play", "target": closed})
            assert refused.value.code == "not_blocked", refused.value.frame
            assert me in d.store.tournaments.registered(closed)
            for client in (c, ca, cb):  # three seats: it starts
                await client.command({"type": "tournament_register", "tournament": running,
                                      "id": f"reg-{secrets.token_hex(4)}"})
            await _until(lambda: d.store.tournaments.status(running) == "running", "the full Sit & Go started")
            assert d.store.ledger.balance(me) == 10_000 - 2 * 1_100
            r = await http.post("/api/protections/timeout", headers=auth, json={"hours": 24})
            assert r.status_code == 200 and r.json()["block_kind"] == "timeout", r.text
            assert r.json()["ended"] == {"left": [], "refunded": [closed], "kept": []}, r.text
        assert me not in d.store.tournaments.registered(closed)
        assert d.store.ledger.balance(me) == 10_000 - 1_100  # the running one's entry stays (R-TOURN-REG-3)
        assert d.store.tournaments.status(running) == "running"
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0


def _webhook(body: dict[str, Any], secret: str = SECRET) -> tuple[bytes, dict[str, str]]:
    import json

    from riverboat.payments import sign

    raw = json.dumps(body).encode()
    return raw, {"Riverboat-Signature": sign(secret.encode(), int(time.time()), raw),
                 "Content-Type": "application/json"}


async def test_issue30_the_money_path_answers_the_same_through_a_gateway(deployment: Deployment) -> None:
    """Issue #30 through a gateway exactly as in one process: register -> deposit through the fake provider's page
    and its signed webhook (again: nothing more; forged: refused) -> withdrawal refused until verified -> staff
    verify -> withdraw (another player cannot cancel it; more than the balance is refused) -> staff approve (twice:
    the same answer) -> balance and statement (JSON and CSV) exact. Every status and error code is asserted, the
    same in both deployments."""
    d = deployment
    async with httpx.AsyncClient(base_url=d.base_url, timeout=30.0) as http:
        name = f"m{uuid.uuid4().hex[:10]}"
        assert (await http.post("/api/register", json={"username": name, "password": "password-" + name})
                ).status_code == 201
        login = (await http.post("/api/login", json={"username": name, "password": "password-" + name})).json()
        me, auth = int(login["player_id"]), {"Authorization": f"Bearer {login['token']}"}
        _, other = d.player()
        info = (await http.get("/api/cashier/info", headers=auth)).json()
        assert info["providers"] == ["fake"] and info["may_play"] is True and info["verified"] is False
        opened = await http.post("/api/cashier/deposits", headers=auth,
                                 json={"provider": "fake", "amount": 5_000, "currency": "EUR"})
        assert opened.status_code == 201, opened.text
        url, txn = opened.json()["checkout_url"], opened.json()["transaction_id"]
        page = await http.get(url)
        assert page.status_code == 200 and "50.00 EUR" in page.text
        paid = await http.post(f"{url}/pay")
        assert paid.status_code == 303 and paid.headers["location"] == "/?deposit=done#/cashier", paid.text
        assert d.store.ledger.balance(me) == 5_000
        good = {"id": txn, "status": "paid", "amount": 5_000, "currency": "EUR"}
        again = await http.post("/api/payments/fake/webhook", content=_webhook(good)[0], headers=_webhook(good)[1])
        assert again.status_code == 200 and again.json() == {"credited": True, "replayed": True}, again.text
        raw, headers = _webhook(good, secret="an-attacker-guess")
        forged = await http.post("/api/payments/fake/webhook", content=raw, headers=headers)
        assert forged.status_code == 400 and forged.json()["error"]["code"] == "webhook_refused", forged.text
        assert d.store.ledger.balance(me) == 5_000

        ask = {"amount": 2_000, "currency": "EUR", "request_id": "w1"}
        refused = await http.post("/api/cashier/withdrawals", headers=auth, json=ask)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_verified", refused.text
        op = _operator(d)
        ok = await http.post(f"/api/operator/players/{me}/verify", headers=op, json={"verified": True, "reason": "id"})
        assert ok.status_code == 200 and ok.json()["verified"] is True, ok.text
        too_much = await http.post("/api/cashier/withdrawals", headers=auth,
                                   json={"amount": 50_000, "currency": "EUR", "request_id": "w0"})
        assert too_much.status_code == 409 and too_much.json()["error"]["code"] == "insufficient_funds", too_much.text
        w = await http.post("/api/cashier/withdrawals", headers=auth, json=ask)
        assert w.status_code == 201 and w.json()["status"] == "pending", w.text
        wid = w.json()["id"]
        stranger = await http.post(f"/api/cashier/withdrawals/{wid}/cancel",
                                   headers={"Authorization": f"Bearer {other}"})
        assert stranger.status_code == 404, stranger.text
        approved = await http.post(f"/api/operator/money/withdrawals/{wid}/approve", headers=op,
                                   json={"reference": "SEPA-1"})
        assert approved.status_code == 200 and approved.json()["status"] == "paid", approved.text
        twice = await http.post(f"/api/operator/money/withdrawals/{wid}/approve", headers=op,
                                json={"reference": "SEPA-1"})
        assert twice.status_code == 200 and twice.json() == approved.json()
        assert (await http.get("/api/me", headers=auth)).json()["balances"]["EUR"] == 3_000
        statement = (await http.get("/api/cashier/statement?currency=EUR", headers=auth)).json()["movements"]
        assert [(m["kind"], m["amount"]) for m in statement] == [("withdraw_request", -2_000), ("deposit", 5_000)]
        text = await http.get("/api/cashier/statement?format=csv&currency=EUR", headers=auth)
        assert text.status_code == 200 and text.headers["content-type"].startswith("text/csv")
        assert text.text.count("\n") == 3  # the header and the two movements
    d.store.ledger.verify()
    assert d.store.ledger.total("EUR") == 0
