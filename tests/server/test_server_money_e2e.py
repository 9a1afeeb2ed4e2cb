"""Issue #30 through a real ``riverboat serve`` process: register -> deposit through the fake provider's payment page
and its signed webhook -> sit at the EUR table and play -> withdraw -> staff approve -> balances and statement exact;
deposit limits refused in plain words; self-exclusion during a hand (the hand finishes, the stack returns; sit,
Twister and deposits refused; login still shows the balance and withdrawing works); hostile input (forged and
replayed webhooks, negative/huge/float amounts, another player's withdrawal id, a player calling staff routes)
refused with nothing moved."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from riverboat.bots import ProtocolClient
from riverboat.bots.client import CommandRefused
from riverboat.payments import sign

SECRET = "test-secret-of-the-fake-provider"
TABLE = {"name": "Money Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}
TWISTER = {"spin_seconds": 0.2, "table_settings": {"between_hands_seconds": 0.02}}


@pytest.fixture(scope="module")
def server(start_module_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = Path(tmp_path_factory.mktemp("money"))
    (folder / "money.json").write_text(json.dumps({"payments": {"fake": {"secret": SECRET}},
                                                   "cooling_off_hours": 24, "four_eyes_above": 100_000}))
    (folder / "twister.json").write_text(json.dumps(TWISTER))
    return start_module_server([TABLE], ["--money", str(folder / "money.json"), "--twister",
                                         str(folder / "twister.json"), "--login-rate", "100"])


def register(server: Any) -> tuple[int, str, dict[str, str]]:
    """A new player through REST (register, login): (player id, token, auth header)."""
    name = f"m{uuid.uuid4().hex[:10]}"
    assert server.http.post("/api/register", json={"username": name, "password": "password-" + name}
                            ).status_code == 201
    login = server.http.post("/api/login", json={"username": name, "password": "password-" + name}).json()
    return int(login["player_id"]), login["token"], {"Authorization": f"Bearer {login['token']}"}


def staff(server: Any) -> tuple[int, dict[str, str]]:
    name = f"op{uuid.uuid4().hex[:8]}"
    info = server.store.accounts.register(name, "password-" + name, role="operator")
    code = server.store.security.set_up_second_factor(info.id).recovery_codes[0]  # staff log in with 2FA (#35)
    token = server.http.post("/api/login", json={"username": name, "password": "password-" + name,
                                                 "code": code}).json()["token"]
    return info.id, {"Authorization": f"Bearer {token}"}


def pay_with_fake_provider(server: Any, auth: dict[str, str], amount: int) -> str:
    """The cashier's deposit: open the payment, load the provider's page, press Pay (the provider sends its signed
    webhook to the room and sends the browser back to the cashier). Returns the provider's transaction id."""
    opened = server.http.post("/api/cashier/deposits", headers=auth,
                              json={"provider": "fake", "amount": amount, "currency": "EUR"})
    assert opened.status_code == 201, opened.text
    url = opened.json()["checkout_url"]
    page = server.http.get(url)
    assert page.status_code == 200 and "Pay" in page.text and f"{amount // 100}.{amount % 100:02d} EUR" in page.text
    back = server.http.post(f"{url}/pay")
    assert back.status_code == 303 and back.headers["location"] == "/?deposit=done#/cashier", back.text
    return str(opened.json()["transaction_id"])


def ledger_state(server: Any) -> Any:
    return server.store.ledger.balances(), server.store.ledger.transaction_count()


def conserved(server: Any) -> None:
    server.store.ledger.verify()
    assert server.store.ledger.total("EUR") == 0


def webhook(server: Any, body: dict[str, Any], *, secret: str = SECRET, at: float | None = None) -> Any:
    raw = json.dumps(body).encode()
    header = sign(secret.encode(), int(time.time() if at is None else at), raw)
    return server.http.post("/api/payments/fake/webhook", content=raw,
                            headers={"Riverboat-Signature": header, "Content-Type": "application/json"})


def auto_play(client: ProtocolClient, table: str) -> None:
    def on_frame(frame: dict[str, Any]) -> None:
        hand = (frame.get("view") or {}).get("hand") if frame.get("type") == "table_state" else None
        legal = (hand or {}).get("legal")
        if legal:
            kind = "check" if "check" in legal["kinds"] else ("call" if "call" in legal["kinds"] else "fold")
            asyncio.ensure_future(client.send({"type": "act", "table": table, "kind": kind}))
    client.on_frame.append(on_frame)


async def _settled_hands(server: Any, table: str, n: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len([h for h in server.store.hands.for_table(table, limit=100) if h.status == "settled"]) < n:
        assert time.monotonic() < deadline, "hands did not settle"
        await asyncio.sleep(0.1)


async def test_issue30_register_deposit_play_withdraw_approve_exact(server: Any) -> None:
    """Issue #30: the whole money path of a new player, through the real server; every balance and the statement
    (JSON and CSV) exact, the ledger verified and summing to zero."""
    alice, token_a, auth_a = register(server)
    bob, token_b, auth_b = register(server)
    info = server.http.get("/api/cashier/info", headers=auth_a).json()
    assert info["providers"] == ["fake"] and info["payment_reference"].startswith(f"RB-{alice}-")
    assert info["verified"] is False and info["may_play"] is True
    tid = pay_with_fake_provider(server, auth_a, 5_000)
    pay_with_fake_provider(server, auth_b, 5_000)
    assert server.http.get("/api/me", headers=auth_a).json()["balances"]["EUR"] == 5_000

    # the same (genuine) webhook delivered again credits nothing
    before = ledger_state(server)
    again = webhook(server, {"id": tid, "status": "paid", "amount": 5_000, "currency": "EUR"})
    assert again.status_code == 200 and again.json() == {"credited": True, "replayed": True}
    assert ledger_state(server) == before

    table = server.table_id("Money Holdem")
    session_start = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - 1))
    async with ProtocolClient(server.ws_url, token_a) as ca, ProtocolClient(server.ws_url, token_b) as cb:
        auto_play(ca, table)
        auto_play(cb, table)
        await ca.sit(table, 0, 1_000)
        await cb.sit(table, 1, 1_000)
        await _settled_hands(server, table, 3)
        await ca.leave(table)
        await cb.leave(table)
        deadline = time.monotonic() + 30
        while server.store.ledger.table_stack(alice, table) or server.store.ledger.table_stack(bob, table):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
    hands = [h for h in server.store.hands.for_table(table, limit=100) if h.status == "settled"]
    net_a = sum(h.changes.get(alice, 0) for h in hands)
    assert server.store.ledger.balance(alice) == 5_000 + net_a

    # the reality check's numbers: the session's hands and net result
    assert server.http.put("/api/protections/reality-check", headers=auth_a, json={"minutes": 30}).status_code == 200
    reality = server.http.get("/api/protections/reality-check", params={"since": session_start}, headers=auth_a).json()
    assert reality["minutes"] == 30 and reality["hands"] == len(hands) and reality["net"] == {"EUR": net_a}
    assert reality["played_seconds"] >= 1

    op, auth_op = staff(server)
    refused = server.http.post("/api/cashier/withdrawals", headers=auth_a,
                               json={"amount": 1_000, "currency": "EUR", "request_id": "w1"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_verified"
    verified = server.http.post(f"/api/operator/players/{alice}/verify", headers=auth_op,
                                json={"verified": True, "reason": "passport seen"})
    assert verified.status_code == 200 and verified.json()["verified"] is True
    cashable = 5_000 + net_a
    w = server.http.post("/api/cashier/withdrawals", headers=auth_a,
                         json={"amount": cashable, "currency": "EUR", "request_id": "w2"})
    assert w.status_code == 201 and w.json()["status"] == "pending", w.text
    assert server.http.get("/api/me", headers=auth_a).json()["balances"]["EUR"] == 0
    queue = server.http.get("/api/operator/money/withdrawals?status=pending", headers=auth_op).json()["withdrawals"]
    assert [x["id"] for x in queue] == [w.json()["id"]]
    paid = server.http.post(f"/api/operator/money/withdrawals/{w.json()['id']}/approve", headers=auth_op,
                            json={"reference": "SEPA-0001"})
    assert paid.status_code == 200 and paid.json()["status"] == "paid"
    twice = server.http.post(f"/api/operator/money/withdrawals/{w.json()['id']}/approve", headers=auth_op,
                             json={"reference": "SEPA-0001"})
    assert twice.json() == paid.json()

    everything = server.http.get("/api/cashier/statement", headers=auth_a).json()["movements"]
    assert [(m["kind"], m["currency"]) for m in everything][-1] == ("deposit", "PLAY")  # the sign-up play money
    statement = server.http.get("/api/cashier/statement?currency=EUR", headers=auth_a).json()["movements"]
    assert [(m["kind"], m["amount"]) for m in statement] == [
        ("withdraw_request", -cashable), ("cash_out", 1_000 + net_a), ("buy_in", -1_000), ("deposit", 5_000)]
    deposits_only = server.http.get("/api/cashier/statement?kind=deposit&currency=EUR",
                                    headers=auth_a).json()["movements"]
    assert [m["kind"] for m in deposits_only] == ["deposit"]
    text = server.http.get("/api/cashier/statement?format=csv&currency=EUR", headers=auth_a)
    assert text.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(text.text)))
    assert [(r["kind"], int(r["amount"])) for r in rows] == [(m["kind"], m["amount"]) for m in statement]
    assert server.store.ledger.balance(alice) == 0
    net_b = sum(h.changes.get(bob, 0) for h in hands)
    assert net_a + net_b + sum(h.rake for h in hands) == 0  # what one lost the other won, less the rake
    assert server.store.ledger.balance(bob) == 5_000 + net_b
    audit = [e.action for e in server.store.integrity.audit_log(player_id=alice)]
    assert audit == ["withdrawal_paid", "verify"]
    conserved(server)


async def test_issue30_hostile_input_changes_nothing(server: Any) -> None:
    """Issue #30 hostile input: forged (bad signature, other secret), replayed (old timestamp), unknown id, wrong
    amount or currency webhooks; negative, zero, float, huge and text amounts; another player's withdrawal; a
    player calling staff routes -- each refused, nothing moves."""
    alice, _, auth_a = register(server)
    bob, _, auth_b = register(server)
    opened = server.http.post("/api/cashier/deposits", headers=auth_a,
                              json={"provider": "fake", "amount": 700, "currency": "EUR"}).json()
    tid = opened["transaction_id"]
    before = ledger_state(server)
    good = {"id": tid, "status": "paid", "amount": 700, "currency": "EUR"}
    assert webhook(server, good, secret="an-attacker-guess-of-the-secret").status_code == 400
    assert webhook(server, good, at=time.time() - 3600).status_code == 400  # a captured webhook replayed later
    raw = json.dumps(good).encode()
    no_sig = server.http.post("/api/payments/fake/webhook", content=raw)
    assert no_sig.status_code == 400 and no_sig.json()["error"]["code"] == "webhook_refused"
    tampered = server.http.post("/api/payments/fake/webhook", content=json.dumps(good | {"amount": 70_000}).encode(),
                                headers={"Riverboat-Signature": sign(SECRET.encode(), int(time.time()), raw)})
    assert tampered.status_code == 400
    assert webhook(server, good | {"id": "fake_unknown"}).status_code == 404
    assert webhook(server, good | {"amount": 70_000}).status_code == 422
    assert webhook(server, good | {"currency": "USD"}).status_code == 422
    assert server.http.post("/api/payments/nosuch/webhook", content=raw).status_code == 404
    for amount in (-500, 0, 12.5, 10**15, "100", True):
        r = server.http.post("/api/cashier/deposits", headers=auth_a,
                             json={"provider": "fake", "amount": amount, "currency": "EUR"})
        assert r.status_code == 422, (amount, r.text)
        r = server.http.post("/api/cashier/withdrawals", headers=auth_a,
                             json={"amount": amount, "currency": "EUR", "request_id": "x"})
        assert r.status_code == 422, (amount, r.text)
    for path, body in (("/api/operator/money/deposits", {"player": "x", "amount": 1, "reference": "r"}),
                       ("/api/operator/money/withdrawals/1/approve", {"reference": "r"}),
                       ("/api/operator/money/adjustments", {"player_id": alice, "amount": 10, "category":
                                                            "goodwill", "reason": "me"}),
                       (f"/api/operator/players/{alice}/verify", {"verified": True, "reason": "me"})):
        r = server.http.post(path, headers=auth_a, json=body)
        assert r.status_code == 403, (path, r.text)
    assert server.http.get("/api/operator/money/withdrawals", headers=auth_a).status_code == 403
    assert server.http.post("/api/operator/money/deposits", json={}).status_code == 401
    assert ledger_state(server) == before
    log = server.log()  # every refusal is logged (logger riverboat.payments)
    for reason in ("fake webhook refused: bad signature", "fake webhook refused: no signature header",
                   "is more than 300 s from now", "fake webhook refused: no fake payment 'fake_unknown'",
                   "was created for 700 EUR, not 70000 'EUR'"):
        assert reason in log, reason
    # another player's withdrawal id: not found for bob, and alice's withdrawal stays pending
    op, auth_op = staff(server)
    server.http.post(f"/api/operator/players/{alice}/verify", headers=auth_op, json={"verified": True, "reason": "ok"})
    assert webhook(server, good).json() == {"credited": True, "replayed": False}
    w = server.http.post("/api/cashier/withdrawals", headers=auth_a,
                         json={"amount": 300, "currency": "EUR", "request_id": "h1"}).json()
    before = ledger_state(server)
    r = server.http.post(f"/api/cashier/withdrawals/{w['id']}/cancel", headers=auth_b)
    assert r.status_code == 404
    assert ledger_state(server) == before
    assert server.http.get("/api/cashier/withdrawals", headers=auth_b).json()["withdrawals"] == []
    conserved(server)


async def test_issue30_deposit_limit_refused_in_plain_words(server: Any) -> None:
    """Issue #30 limits through the server: a deposit over the daily limit is refused in plain words before the
    player is sent to pay; raising the limit only takes effect after the cooling-off (the store test moves the
    clock past it)."""
    _, _, auth = register(server)
    r = server.http.put("/api/protections/limits", headers=auth, json={"currency": "EUR", "period": "day",
                                                                       "amount": 1_000})
    assert r.status_code == 200 and r.json()["limits"][0]["amount"] == 1_000
    pay_with_fake_provider(server, auth, 800)
    over = server.http.post("/api/cashier/deposits", headers=auth,
                            json={"provider": "fake", "amount": 500, "currency": "EUR"})
    assert over.status_code == 409 and over.json()["error"] == {
        "code": "deposit_limit", "message": "this deposit of 5.00 EUR would go over your daily deposit limit of "
        "10.00 EUR: you have deposited 8.00 EUR in the last day, so you can deposit at most 2.00 EUR now"}
    raised = server.http.put("/api/protections/limits", headers=auth,
                             json={"currency": "EUR", "period": "day", "amount": 10_000}).json()["limits"][0]
    assert raised["amount"] == 1_000 and raised["pending_amount"] == 10_000 and raised["pending_from"]
    assert server.http.post("/api/cashier/deposits", headers=auth,
                            json={"provider": "fake", "amount": 500, "currency": "EUR"}).status_code == 409
    conserved(server)


async def test_issue30_self_exclusion_during_a_hand(server: Any) -> None:
    """Issue #30: self-exclusion in the middle of a hand: the hand finishes, the stack returns to the balance; sit,
    Twister and deposits are refused; the player still logs in, sees the balance and can withdraw."""
    carol, token_c, auth_c = register(server)
    dave, token_d, _ = register(server)
    server.store.ledger.deposit(carol, "EUR", 3_000, f"e2e-dep-{carol}")
    server.store.ledger.deposit(dave, "EUR", 3_000, f"e2e-dep-{dave}")
    table = server.table_id("Money Holdem")
    async with ProtocolClient(server.ws_url, token_c) as cc, ProtocolClient(server.ws_url, token_d) as cd:
        started = asyncio.ensure_future(cd.next_frame(
            lambda f: f.get("type") == "event" and f["event"].get("kind") == "hand_started", 20))
        await cc.sit(table, 2, 1_000)
        await cd.sit(table, 3, 1_000)
        hand_id = (await started)["event"]["hand_id"]
        r = server.http.post("/api/protections/self-exclusion", headers=auth_c, json={"months": 6, "confirm": True})
        assert r.status_code == 200 and r.json()["block_kind"] == "self_exclusion", r.text
        assert r.json()["ended"]["left"] == [table]
        stack_then = server.store.ledger.table_stack(carol, table)
        now = server.store.hands.get(table, hand_id)
        if now is None or now.status != "settled":  # still in the hand (carol not to act): it finishes first
            assert stack_then == 1_000
        auto_play(cd, table)
        auto_play(cc, table)
        deadline = time.monotonic() + 30
        while server.store.ledger.table_stack(carol, table):
            assert time.monotonic() < deadline, "the stack did not come back"
            await asyncio.sleep(0.1)
        record = server.store.hands.get(table, hand_id)
        assert record.status == "settled"
        assert server.store.ledger.balance(carol) == 3_000 + record.changes.get(carol, 0)
        for frame in ({"type": "sit", "table": table, "seat": 4, "buy_in": 500},
                      {"type": "twister_play", "kind": "twister", "buy_in": 200}):
            with pytest.raises(CommandRefused) as refused:
                await cc.command(frame)
            assert refused.value.code == "play_blocked", refused.value.frame
            assert "excluded yourself" in refused.value.frame["message"]
    deposit = server.http.post("/api/cashier/deposits", headers=auth_c,
                               json={"provider": "fake", "amount": 500, "currency": "EUR"})
    assert deposit.status_code == 403 and deposit.json()["error"]["code"] == "play_blocked"
    name = server.store.accounts.get(carol).username
    login = server.http.post("/api/login", json={"username": name, "password": "password-" + name})
    assert login.status_code == 200
    auth2 = {"Authorization": f"Bearer {login.json()['token']}"}
    info = server.http.get("/api/cashier/info", headers=auth2).json()
    assert info["may_play"] is False and info["block"]["kind"] == "self_exclusion"
    assert info["balances"]["EUR"] == server.store.ledger.balance(carol)
    undo = server.http.post("/api/protections/timeout", headers=auth2, json={"hours": 24})
    assert undo.status_code == 422 and "cannot be shortened" in undo.json()["error"]["message"]
    op, auth_op = staff(server)
    server.http.post(f"/api/operator/players/{carol}/verify", headers=auth_op, json={"verified": True, "reason": "id"})
    w = server.http.post("/api/cashier/withdrawals", headers=auth2,
                         json={"amount": 500, "currency": "EUR", "request_id": "out"})
    assert w.status_code == 201
    conserved(server)


def test_issue30_openapi_documents_the_money_routes(server: Any) -> None:
    """Issue #30: the player's deposits, withdrawals, limits, reality check, time-out, self-exclusion and statement
    (and the webhook and the console's money routes) are in the OpenAPI document, bodies from the validators."""
    paths = server.http.get("/openapi.json").json()["paths"]
    for path in ("/api/cashier/deposits", "/api/cashier/withdrawals", "/api/cashier/withdrawals/{wid}/cancel",
                 "/api/protections/limits", "/api/protections/reality-check", "/api/protections/timeout",
                 "/api/protections/self-exclusion", "/api/cashier/statement", "/api/payments/{provider}/webhook",
                 "/api/operator/money/deposits", "/api/operator/money/withdrawals/{wid}/{action}",
                 "/api/operator/money/adjustments", "/api/operator/players/{player_id}/verify"):
        assert path in paths, path
    doc = server.http.get("/openapi.json").json()
    ref = paths["/api/cashier/withdrawals"]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert doc["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"]["amount"]["exclusiveMinimum"] == 0
