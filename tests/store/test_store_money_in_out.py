"""Issue #30, money in and out, on SQLite and PostgreSQL: each flow's postings (deposits by bank reference and by a
provider, withdrawals, operator adjustments), idempotency (a webhook's confirmation twice, a bank reference twice,
the same withdrawal approved twice), a withdrawal racing a buy-in for the same money, and every refusal changing
nothing. The ``store`` fixture ends every test with ``ledger.verify()``; each test checks the sum is zero too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from riverboat.store import (
    AccountKey,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    Store,
)
from riverboat.store.cashier import payment_reference, player_of_reference
from riverboat.store.errors import FourEyes, NotVerified, PermissionDenied, PlayBlocked

from .conftest import make_player
from .test_store_concurrency import _hammer


def snapshot(store: Store) -> tuple[Any, ...]:
    """Everything a refusal must leave alone: balances, transactions, deposits, withdrawals, adjustments, audit."""
    return (store.ledger.balances(), store.ledger.transaction_count(), store.cashier.deposits(),
            store.withdrawals.list(), store.adjustments.list(), store.integrity.audit_log())


def refused(store: Store, exc: type[BaseException], fn: Callable[[], object], match: str | None = None) -> None:
    before = snapshot(store)
    with pytest.raises(exc, match=match):
        fn()
    assert snapshot(store) == before


def zero(store: Store) -> None:
    assert store.ledger.total("EUR") == 0


def test_issue30_payment_reference_names_the_player_and_a_typo_names_nobody() -> None:
    """Issue #30 deposits (a): the personal payment reference carries check digits, so a mistyped one is refused."""
    for pid in (1, 42, 987654):
        assert player_of_reference(payment_reference(pid)) == pid
        assert player_of_reference(payment_reference(pid).lower().replace("-", "")) == pid
    assert payment_reference(42) == "RB-42-" + f"{98 - 4200 % 97:02d}"
    assert player_of_reference("RB-43-" + payment_reference(42)[-2:]) is None
    assert player_of_reference("hello") is None


def test_issue30_bank_deposit_posts_once_per_reference(store: Store) -> None:
    """Issue #30 deposits: staff credit a bank transfer (external -> balance); the same reference again credits
    nothing and answers the first result; with another amount it is refused; the staff action is audited."""
    op = make_player(store, "op1", role="operator")
    p = make_player(store, "alice")
    first = store.cashier.credit_bank(p, "EUR", 5_000, "BANK-1", staff_id=op)
    assert (first.balance, first.replayed) == (5_000, False)
    assert store.ledger.account_balance(AccountKey.external("EUR")) == -5_000
    store.cashier.credit_bank(p, "EUR", 1_000, "BANK-2")  # the command line: no staff id
    again = store.cashier.credit_bank(p, "EUR", 5_000, "BANK-1", staff_id=op)
    assert again.replayed and (again.movement_id, again.balance) == (first.movement_id, 5_000)
    assert store.ledger.balance(p, "EUR") == 6_000
    refused(store, IdempotencyConflict, lambda: store.cashier.credit_bank(p, "EUR", 5_001, "BANK-1"))
    audit = store.integrity.audit_log()
    assert [(a.action, a.player_id, a.operator_id) for a in audit] == [("deposit", p, op)]
    assert store.movements.for_player(p).items[0].kind == "deposit"
    zero(store)


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "100", 10**13])
def test_issue30_bad_deposit_amounts_change_nothing(store: Store, amount: Any) -> None:
    """Issue #30 hostile input: negative, zero, float, bool, text and huge amounts are refused; nothing moves."""
    p = make_player(store, "bob")
    refused(store, InvalidRequest, lambda: store.cashier.credit_bank(p, "EUR", amount, "R1"))


def test_issue30_bank_deposit_refusals_change_nothing(store: Store) -> None:
    """Issue #30: an unknown player, play money, a bad reference or a non-staff 'staff' id change nothing."""
    p = make_player(store, "carol")
    refused(store, NotFound, lambda: store.cashier.credit_bank(10**6, "EUR", 100, "R1"))
    refused(store, InvalidRequest, lambda: store.cashier.credit_bank(p, "PLAY", 100, "R1"))
    refused(store, InvalidRequest, lambda: store.cashier.credit_bank(p, "EUR", 100, "bad ref with spaces"))
    refused(store, PermissionDenied, lambda: store.cashier.credit_bank(p, "EUR", 100, "R1", staff_id=p))


def test_issue30_provider_payment_confirms_once_and_refuses_mismatches(store: Store) -> None:
    """Issue #30 deposits (b): a provider payment is pending (nothing moves) until confirmed; a second
    confirmation credits nothing; an unknown id, a wrong amount or currency is refused and changes nothing."""
    p = make_player(store, "dave")
    info = store.cashier.create_payment(p, "fake", "EUR", 2_500, "fk_1")
    assert info.status == "pending" and store.ledger.balance(p, "EUR") == 0
    refused(store, NotFound, lambda: store.cashier.confirm_payment("fake", "fk_unknown", 2_500, "EUR"))
    refused(store, InvalidRequest, lambda: store.cashier.confirm_payment("fake", "fk_1", 2_501, "EUR"))
    refused(store, InvalidRequest, lambda: store.cashier.confirm_payment("fake", "fk_1", 2_500, "USD"))
    done = store.cashier.confirm_payment("fake", "fk_1", 2_500, "EUR")
    assert not done.replayed and done.balance == 2_500
    count = store.ledger.transaction_count()
    again = store.cashier.confirm_payment("fake", "fk_1", 2_500, "EUR")
    assert again.replayed and again.movement_id == done.movement_id
    assert store.ledger.transaction_count() == count and store.ledger.balance(p, "EUR") == 2_500
    zero(store)


def test_issue30_concurrent_confirmations_credit_once(store: Store) -> None:
    """Issue #30 idempotency under concurrency: the provider's webhook delivered 10 times at once credits once."""
    p = make_player(store, "erin")
    store.cashier.create_payment(p, "fake", "EUR", 700, "fk_2")
    results, errors = _hammer(10, lambda i: store.cashier.confirm_payment("fake", "fk_2", 700, "EUR"))
    assert errors == []
    assert sum(1 for r in results if not r.replayed) == 1  # type: ignore[attr-defined]
    assert store.ledger.balance(p, "EUR") == 700
    zero(store)


def _verified(store: Store, name: str, money: int = 10_000) -> tuple[int, int]:
    op = make_player(store, f"op_{name}", role="operator")
    p = make_player(store, name)
    store.withdrawals.set_verified(op, p, True, "passport checked")
    if money:
        store.ledger.deposit(p, "EUR", money, f"dep-{name}")
    return op, p


def test_issue30_withdrawal_postings_request_approve_twice(store: Store) -> None:
    """Issue #30 withdrawals: the request moves the amount to the pending-withdrawal account at once (it cannot be
    played), approval pays it out to the outside world with the payout reference; approving again moves nothing."""
    op, p = _verified(store, "frank")
    w = store.withdrawals.request(p, "EUR", 4_000, "req-1")
    assert w.status == "pending"
    assert store.ledger.balance(p, "EUR") == 6_000
    assert store.ledger.account_balance(AccountKey.pending_withdrawal(p, "EUR")) == 4_000
    refused(store, InsufficientFunds, lambda: store.ledger.buy_in(p, "t1", 7_000, "bi-1"))
    assert store.withdrawals.request(p, "EUR", 4_000, "req-1") == w  # the same request id: the same withdrawal
    paid = store.withdrawals.approve(op, w.id, "PAYOUT-9")
    assert (paid.status, paid.payout_reference, paid.staff_id) == ("paid", "PAYOUT-9", op)
    count = store.ledger.transaction_count()
    assert store.withdrawals.approve(op, w.id, "PAYOUT-9") == paid
    assert store.ledger.transaction_count() == count
    assert store.ledger.account_balance(AccountKey.pending_withdrawal(p, "EUR")) == 0
    assert store.ledger.account_balance(AccountKey.external("EUR")) == -6_000
    refused(store, InvalidRequest, lambda: store.withdrawals.reject(op, w.id, "too late"))
    refused(store, InvalidRequest, lambda: store.withdrawals.cancel(p, w.id))
    assert [a.action for a in store.integrity.audit_log()] == ["withdrawal_paid", "verify"]
    kinds = [m.kind for m in store.movements.for_player(p).items]
    assert kinds == ["withdraw_request", "deposit"]  # the payout leaves the pending account, not the balance
    zero(store)


def test_issue30_concurrent_approvals_pay_once(store: Store) -> None:
    """Issue #30: the same withdrawal approved by several staff at once is paid out exactly once."""
    op, p = _verified(store, "gina")
    w = store.withdrawals.request(p, "EUR", 3_000, "r")
    results, errors = _hammer(8, lambda i: store.withdrawals.approve(op, w.id, "PAY-1"))
    assert errors == [] and len(results) == 8
    assert store.ledger.account_balance(AccountKey.external("EUR")) == -7_000
    zero(store)


def test_issue30_reject_and_cancel_return_the_money(store: Store) -> None:
    """Issue #30: a rejected or cancelled withdrawal is back in the balance; another player's withdrawal id is not
    found for them (nothing moves); the reject reason is audited."""
    op, p = _verified(store, "hank")
    _, q = _verified(store, "ivy")
    a = store.withdrawals.request(p, "EUR", 1_000, "a")
    b = store.withdrawals.request(p, "EUR", 2_000, "b")
    refused(store, NotFound, lambda: store.withdrawals.cancel(q, a.id))
    assert store.withdrawals.cancel(p, a.id).status == "cancelled"
    rej = store.withdrawals.reject(op, b.id, "name on the bank account differs")
    assert (rej.status, rej.reason) == ("rejected", "name on the bank account differs")
    assert store.ledger.balance(p, "EUR") == 10_000
    assert store.ledger.account_balance(AccountKey.pending_withdrawal(p, "EUR")) == 0
    refused(store, InvalidRequest, lambda: store.withdrawals.approve(op, b.id, "PAY"))
    assert store.integrity.audit_log()[0].action == "withdrawal_rejected"
    zero(store)


def test_issue30_withdrawal_refusals_change_nothing(store: Store) -> None:
    """Issue #30: only a verified account withdraws; never more than the cash balance, never play money, never a
    bad amount; a player cannot approve; an unknown id is not found."""
    op = make_player(store, "op_j", role="operator")
    p = make_player(store, "jack")
    store.ledger.deposit(p, "EUR", 1_000, "d")
    refused(store, NotVerified, lambda: store.withdrawals.request(p, "EUR", 500, "x"))
    store.withdrawals.set_verified(op, p, True, "documents")
    refused(store, InsufficientFunds, lambda: store.withdrawals.request(p, "EUR", 1_001, "x"))
    refused(store, InvalidRequest, lambda: store.withdrawals.request(p, "PLAY", 10, "x"))
    for bad in (0, -1, 2.5, True):
        refused(store, InvalidRequest, lambda bad=bad: store.withdrawals.request(p, "EUR", bad, "x"))
    w = store.withdrawals.request(p, "EUR", 400, "ok")
    refused(store, PermissionDenied, lambda: store.withdrawals.approve(p, w.id, "PAY"))
    refused(store, NotFound, lambda: store.withdrawals.approve(op, 10**8, "PAY"))
    refused(store, PermissionDenied, lambda: store.withdrawals.set_verified(p, p, True, "me"))
    zero(store)


def test_issue30_withdrawal_racing_a_buy_in_one_wins(store: Store) -> None:
    """Issue #30: a withdrawal and a buy-in for the same money at once: exactly one wins, the other is refused as
    insufficient funds, and no balance goes below zero (repeated to give the race a chance)."""
    op, p = _verified(store, "kate", money=0)
    for round_ in range(5):
        store.ledger.deposit(p, "EUR", 1_000, f"race-dep-{round_}")

        def go(i: int, r: int = round_) -> object:
            if i == 0:
                return store.withdrawals.request(p, "EUR", 1_000, f"race-{r}")
            return store.ledger.buy_in(p, f"race-table-{r}", 1_000, f"race-bi-{r}")

        results, errors = _hammer(2, go)
        assert len(results) == 1 and len(errors) == 1 and isinstance(errors[0], InsufficientFunds), errors
        assert store.ledger.balance(p, "EUR") == 0
        store.ledger.verify()
    zero(store)


def test_issue30_adjustments_small_at_once_large_needs_four_eyes(store: Store) -> None:
    """Issue #30 operator adjustments: up to the four-eyes amount applied at once; above it pending (nothing moves)
    until a second staff member approves; the requester cannot approve their own; all audited."""
    a = make_player(store, "staff_a", role="operator")
    b = make_player(store, "staff_b", role="admin")
    p = make_player(store, "lena")
    limit = store.money_rules.settings.four_eyes_above
    small = store.adjustments.request(a, p, "EUR", limit, "goodwill", "server outage")
    assert small.status == "applied" and store.ledger.balance(p, "EUR") == limit
    big = store.adjustments.request(a, p, "EUR", limit + 1, "correction", "missed prize")
    assert big.status == "pending" and store.ledger.balance(p, "EUR") == limit
    refused(store, FourEyes, lambda: store.adjustments.approve(a, big.id))
    done = store.adjustments.approve(b, big.id)
    assert (done.status, done.decided_by) == ("applied", b)
    assert store.ledger.balance(p, "EUR") == 2 * limit + 1
    refused(store, InvalidRequest, lambda: store.adjustments.approve(b, big.id))
    debit = store.adjustments.request(a, p, "EUR", -500, "chargeback", "card chargeback")
    assert debit.status == "applied" and store.ledger.balance(p, "EUR") == 2 * limit + 1 - 500
    actions = [e.action for e in store.integrity.audit_log()]
    assert actions == ["adjust_request", "adjust_approve", "adjust_request", "adjust_request"]
    assert [m.kind for m in store.movements.for_player(p).items] == ["adjust"] * 3
    zero(store)


def test_issue30_adjustment_refusals_change_nothing(store: Store) -> None:
    """Issue #30: a player may not adjust; no reason, a bad category, zero or float amounts, an overdraft are
    refused; a rejected pending adjustment moves nothing."""
    a = make_player(store, "staff_c", role="operator")
    b = make_player(store, "staff_d", role="operator")
    p = make_player(store, "mona")
    refused(store, PermissionDenied, lambda: store.adjustments.request(p, p, "EUR", 100, "goodwill", "gift"))
    refused(store, InvalidRequest, lambda: store.adjustments.request(a, p, "EUR", 100, "goodwill", " "))
    refused(store, InvalidRequest, lambda: store.adjustments.request(a, p, "EUR", 100, "bonus", "why"))
    for bad in (0, 1.5, True):
        refused(store, InvalidRequest, lambda bad=bad: store.adjustments.request(a, p, "EUR", bad, "goodwill", "x"))
    refused(store, InsufficientFunds, lambda: store.adjustments.request(a, p, "EUR", -1, "chargeback", "x"))
    big = store.adjustments.request(a, p, "EUR", 10**9, "goodwill", "jackpot")
    assert store.adjustments.reject(b, big.id, "no").status == "rejected"
    assert store.ledger.balance(p, "EUR") == 0
    zero(store)


def test_issue30_deposit_limit_lower_at_once_higher_after_cooling_off(store: Store, clock: Any) -> None:
    """Issue #30 protections: a deposit over the limit is refused in plain words (nothing moves); a lower limit
    applies at once; a higher one only after the 24 h cooling-off (injected clock)."""
    p = make_player(store, "nina")
    store.protections.set_limit(p, "EUR", "day", 10_000)
    store.cashier.credit_bank(p, "EUR", 8_000, "L1")
    refused(store, Exception, lambda: store.cashier.credit_bank(p, "EUR", 3_000, "L2"),
            match="over your daily deposit limit of 100.00 EUR: you have deposited 80.00 EUR in the last day, so "
                  "you can deposit at most 20.00 EUR now")
    refused(store, Exception, lambda: store.cashier.create_payment(p, "fake", "EUR", 3_000, "fk"))
    store.protections.set_limit(p, "EUR", "day", 8_500)  # lower: at once
    refused(store, Exception, lambda: store.cashier.credit_bank(p, "EUR", 501, "L3"))
    info = store.protections.set_limit(p, "EUR", "day", 50_000)  # higher: after the cooling-off
    assert (info.amount, info.pending_amount) == (8_500, 50_000)
    clock.advance(hours=23)  # the 8000 fell out of the day window by now? no: only 23 h
    refused(store, Exception, lambda: store.cashier.credit_bank(p, "EUR", 1_000, "L4"))
    clock.advance(hours=1, seconds=1)
    assert store.cashier.credit_bank(p, "EUR", 40_000, "L5").balance == 48_000
    limits = store.protections.get(p).limits
    assert [(x.period, x.amount, x.pending_amount, x.used) for x in limits] == [("day", 50_000, None, 40_000)]
    assert [h.what for h in store.protections.history(p)] == ["deposit_limit"] * 3
    zero(store)


def test_issue30_self_exclusion_blocks_play_and_deposits_not_withdrawals(store: Store, clock: Any) -> None:
    """Issue #30: self-exclusion takes effect at once: buy-in, top-up, tournament registration and deposits are
    refused (nothing moves) while a withdrawal still works; the player cannot shorten or lift it."""
    op, p = _verified(store, "olga")
    store.ledger.buy_in(p, "cash1", 1_000, "bi")
    store.tournaments.create("sng-x", "EUR", 1_000, 100)
    store.protections.self_exclude(p, 6)
    info = store.protections.get(p)
    assert info.block_kind == "self_exclusion" and not info.may_play
    refused(store, PlayBlocked, lambda: store.ledger.buy_in(p, "cash2", 1_000, "bi2"), match="excluded yourself")
    refused(store, PlayBlocked, lambda: store.ledger.top_up(p, "cash1", 500, "tu"))
    refused(store, PlayBlocked, lambda: store.tournaments.register(p, "sng-x", "reg"))
    refused(store, PlayBlocked, lambda: store.cashier.credit_bank(p, "EUR", 100, "dep-x"))
    refused(store, InvalidRequest, lambda: store.protections.take_timeout(p, 48), match="cannot be shortened")
    assert store.ledger.cash_out(p, "cash1", "co") == 1_000  # the stack comes back to the balance
    assert store.withdrawals.request(p, "EUR", 2_000, "w").status == "pending"
    store.protections.self_exclude(p, None)  # longer (permanent) is allowed
    clock.advance(days=4000)
    refused(store, PlayBlocked, lambda: store.ledger.buy_in(p, "cash2", 1_000, "bi3"), match="permanently")
    zero(store)


def test_issue30_places_in_play_and_the_exclusion_refund_past_the_deadline(store: Store, clock: Any) -> None:
    """Issue #30: ``places_in_play`` lists what a time-out or self-exclusion must end (cash-table and pool stacks,
    registrations in tournaments not yet started; not a running one, not another player's); the refund of an
    unstarted registration past its unregistration deadline (``unregister(protection=True)``) is refused while no
    block is in force (``NotBlocked``) and, once one is, pays back buy-in and fee exactly; a blocked player's re-buy
    in a running tournament is refused (``PlayBlocked``). Every refusal moves nothing."""
    from datetime import timedelta

    from riverboat.store.errors import NotBlocked

    _, p = _verified(store, "rita")
    _, q = _verified(store, "quin")
    store.ledger.buy_in(p, "cash1", 1_000, "bi")
    store.ledger.buy_in(p, "pool1", 500, "bp")
    store.ledger.buy_in(q, "cash2", 1_000, "bq")
    store.tournaments.create("sng-late", "EUR", 1_000, 100, unregister_deadline=clock.now + timedelta(minutes=5))
    store.tournaments.create("mtt-run", "EUR", 200, 20)
    for tid in ("sng-late", "mtt-run"):
        store.tournaments.register(p, tid, f"reg-{tid}")
    store.tournaments.start("mtt-run")
    assert store.protections.places_in_play(p) == ["cash1", "pool1", "sng-late"]
    assert store.protections.places_in_play(q) == ["cash2"]
    clock.advance(minutes=6)  # past the deadline: the player may no longer unregister
    refused(store, InvalidRequest, lambda: store.tournaments.unregister(p, "sng-late", "u1"), match="deadline")
    refused(store, NotBlocked, lambda: store.tournaments.unregister(p, "sng-late", "u2", protection=True))
    store.protections.take_timeout(p, 24)
    before = store.ledger.balance(p)
    store.tournaments.unregister(p, "sng-late", "u3", protection=True)
    assert store.ledger.balance(p) == before + 1_100
    refused(store, PlayBlocked, lambda: store.tournaments.pay_in(p, "mtt-run", 200, 20, "rebuy"))
    refused(store, InvalidRequest, lambda: store.tournaments.unregister(p, "mtt-run", "u4", protection=True),
            match="has started")
    assert store.protections.places_in_play(p) == ["cash1", "pool1"]
    store.ledger.cash_out(p, "cash1", "co1")
    store.ledger.cash_out(p, "pool1", "co2")
    assert store.protections.places_in_play(p) == []
    zero(store)


def test_issue30_timeout_ends_by_itself_and_ranges_are_checked(store: Store, clock: Any) -> None:
    """Issue #30: a time-out of 24 h to 6 weeks, self-exclusion 6 months to 5 years or permanent; a time-out ends
    on its own and play is allowed again."""
    p = make_player(store, "pia")
    store.ledger.deposit(p, "EUR", 5_000, "d")
    for bad in (23, 6 * 7 * 24 + 1, 1.5, True):
        refused(store, InvalidRequest, lambda bad=bad: store.protections.take_timeout(p, bad))
    for bad in (5, 61, 0):
        refused(store, InvalidRequest, lambda bad=bad: store.protections.self_exclude(p, bad))
    store.protections.take_timeout(p, 24)
    refused(store, PlayBlocked, lambda: store.ledger.buy_in(p, "t", 1_000, "b1"), match="taken a time-out until")
    clock.advance(hours=24)
    store.ledger.buy_in(p, "t", 1_000, "b2")
    assert store.protections.get(p).block_kind is None
    assert [h.what for h in store.protections.history(p)] == ["timeout"]
    zero(store)


def test_issue30_statement_filters_by_date_and_kind(store: Store, clock: Any) -> None:
    """Issue #30 statement: every movement of the balance, filtered by date range and kind group, paged."""
    from datetime import timedelta

    from riverboat.store.movements import KIND_GROUPS

    op, p = _verified(store, "quinn", money=0)
    start = clock.now
    store.cashier.credit_bank(p, "EUR", 5_000, "S1")
    clock.advance(days=1)
    store.ledger.buy_in(p, "t1", 1_000, "b")
    store.ledger.cash_out(p, "t1", "c")
    clock.advance(days=1)
    store.withdrawals.request(p, "EUR", 2_000, "w")
    everything = store.movements.for_player(p, kinds=None).items
    assert [m.kind for m in everything] == ["withdraw_request", "cash_out", "buy_in", "deposit"]
    day2 = store.movements.for_player(p, kinds=None, since=start + timedelta(days=1),
                                      until=start + timedelta(days=2)).items
    assert [m.kind for m in day2] == ["cash_out", "buy_in"]
    tables = store.movements.for_player(p, kinds=KIND_GROUPS["table"]).items
    assert [(m.kind, m.amount, m.table_id) for m in tables] == [("cash_out", 1_000, "t1"), ("buy_in", -1_000, "t1")]
    page = store.movements.for_player(p, kinds=None, limit=2)
    older = store.movements.for_player(p, kinds=None, limit=2, before=page.next_before)
    assert [m.kind for m in page.items + older.items] == [m.kind for m in everything]
    zero(store)


def test_issue30_verification_and_settings_history_for_staff(store: Store) -> None:
    """Issue #30: staff set the verification with a reason (audit log and history); the player's reality check
    is kept with its history; bad intervals are refused."""
    op = make_player(store, "op_r", role="security")  # security staff see, but money actions are operators'
    admin = make_player(store, "adm", role="admin")
    p = make_player(store, "rita")
    refused(store, PermissionDenied, lambda: store.withdrawals.set_verified(op, p, True, "id"))
    store.withdrawals.set_verified(admin, p, True, "passport and utility bill")
    store.protections.set_reality_check(p, 30)
    for bad in (4, 241, 2.0):
        refused(store, InvalidRequest, lambda bad=bad: store.protections.set_reality_check(p, bad))
    info = store.protections.get(p)
    assert (info.verified, info.reality_check_minutes) == (True, 30)
    hist = store.protections.history(p)
    assert [(h.what, h.actor_id) for h in hist] == [("reality_check", None), ("verified", admin)]
    assert hist[1].detail["reason"] == "passport and utility bill"
    assert store.integrity.audit_log()[0].reason == "passport and utility bill"
