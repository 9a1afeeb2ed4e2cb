"""Wallet and cash-table ledger operations (R-WALLET, R-BUYIN, R-CASH) on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from riverboat.store import (
    AccountKey,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    Store,
)
from riverboat.store.postings import ALLOWED_FLOWS, CASH, TICKET

from .conftest import make_player


def test_deposit_and_withdraw_move_money_and_keep_the_sum_zero(store: Store) -> None:
    """R-WALLET: deposit and withdrawal are balanced transfers with the outside world; the sum stays 0."""
    p = make_player(store, "alice")
    store.ledger.deposit(p, "EUR", 10_000, "dep-1")
    store.ledger.withdraw(p, "EUR", 2_500, "wd-1")
    assert store.ledger.balance(p, "EUR") == 7_500
    assert store.ledger.account_balance(AccountKey.external("EUR")) == -7_500
    assert store.ledger.total("EUR") == 0


def test_overdraw_is_refused_with_a_clear_error_and_changes_nothing(store: Store) -> None:
    """A transfer that would make a balance negative is refused (no negative balances)."""
    p = make_player(store, "bob")
    store.ledger.deposit(p, "EUR", 1_000, "dep")
    before = store.ledger.balances()
    count = store.ledger.transaction_count()
    with pytest.raises(InsufficientFunds, match="holds 1000, which does not cover 1001"):
        store.ledger.withdraw(p, "EUR", 1_001, "wd")
    assert store.ledger.balances() == before
    assert store.ledger.transaction_count() == count


def test_bad_amounts_are_refused(store: Store) -> None:
    """R-WALLET (issue #4): chips are positive integers of minor units; floats, bools, strings and non-positive amounts are refused."""
    p = make_player(store, "carol")
    for i, amount in enumerate([0, -5, 1.5, True, "100"]):
        with pytest.raises(InvalidRequest):
            store.ledger.deposit(p, "EUR", amount, f"k{i}")  # type: ignore[arg-type]
    assert store.ledger.balance(p, "EUR") == 0
    assert store.ledger.transaction_count() == 0


def test_unknown_player_and_bad_currency_are_refused(store: Store) -> None:
    with pytest.raises(NotFound):
        store.ledger.deposit(10**9, "EUR", 100, "k1")
    p = make_player(store, "dave")
    with pytest.raises(InvalidRequest, match="currency"):
        store.ledger.deposit(p, "eur", 100, "k2")
    assert store.ledger.transaction_count() == 0


def test_replaying_an_idempotency_key_changes_nothing(store: Store) -> None:
    """R-WALLET (issue #4 idempotency): the same key and request returns the original transaction and moves nothing again."""
    p = make_player(store, "erin")
    first = store.ledger.deposit(p, "EUR", 500, "dep-x")
    again = store.ledger.deposit(p, "EUR", 500, "dep-x")
    assert first == again
    assert store.ledger.balance(p, "EUR") == 500
    assert store.ledger.transaction_count() == 1


def test_reusing_an_idempotency_key_for_another_request_is_a_conflict(store: Store) -> None:
    p = make_player(store, "frank")
    store.ledger.deposit(p, "EUR", 500, "dep-y")
    with pytest.raises(IdempotencyConflict, match="dep-y"):
        store.ledger.deposit(p, "EUR", 600, "dep-y")
    with pytest.raises(IdempotencyConflict):
        store.ledger.withdraw(p, "EUR", 500, "dep-y")
    assert store.ledger.balance(p, "EUR") == 500


def test_r_buyin_1_buy_in_moves_money_from_balance_to_table_escrow(store: Store) -> None:
    """R-BUYIN-1 / R-WALLET-1: buying in debits the account and credits the table stack."""
    p = make_player(store, "gina")
    store.ledger.deposit(p, "EUR", 10_000, "dep")
    store.ledger.buy_in(p, "t1", 4_000, "bi", min_buy_in=1_000, max_buy_in=5_000)
    assert store.ledger.balance(p, "EUR") == 6_000
    assert store.ledger.table_stack(p, "t1") == 4_000
    assert store.ledger.table_stacks("t1") == {p: 4_000}


def test_r_buyin_2_minimum_and_maximum_are_enforced(store: Store) -> None:
    """R-BUYIN-2: below the table minimum or above the PL/NL maximum is refused, saying which limit."""
    p = make_player(store, "hank")
    store.ledger.deposit(p, "EUR", 10_000, "dep")
    with pytest.raises(InvalidRequest, match="below the table minimum of 1000"):
        store.ledger.buy_in(p, "t1", 999, "a", min_buy_in=1_000, max_buy_in=5_000)
    with pytest.raises(InvalidRequest, match="above the table maximum of 5000"):
        store.ledger.buy_in(p, "t1", 5_001, "b", min_buy_in=1_000, max_buy_in=5_000)
    assert store.ledger.balance(p, "EUR") == 10_000
    assert store.ledger.table_stack(p, "t1") == 0


def test_r_buyin_3_fixed_limit_table_without_maximum_takes_all_the_money(store: Store) -> None:
    """R-BUYIN-3: FL tables have no maximum ("all the player's money"): max_buy_in=None."""
    p = make_player(store, "ivan")
    store.ledger.deposit(p, "EUR", 12_345, "dep")
    store.ledger.buy_in(p, "fl", 12_345, "bi", min_buy_in=1_000, max_buy_in=None)
    assert store.ledger.balance(p, "EUR") == 0
    assert store.ledger.table_stack(p, "fl") == 12_345


def test_buy_in_beyond_balance_is_refused(store: Store) -> None:
    """R-BUYIN-1: the buy-in comes from the account, so it cannot exceed the balance."""
    p = make_player(store, "jane")
    store.ledger.deposit(p, "EUR", 500, "dep")
    with pytest.raises(InsufficientFunds):
        store.ledger.buy_in(p, "t1", 600, "bi")
    assert store.ledger.table_stack(p, "t1") == 0


def test_second_buy_in_at_the_same_table_is_refused_use_top_up(store: Store) -> None:
    """R-BUYIN-1 / R-WALLET-1: one stack per player and table; more chips go through top_up."""
    p = make_player(store, "kate")
    store.ledger.deposit(p, "EUR", 10_000, "dep")
    store.ledger.buy_in(p, "t1", 2_000, "bi1")
    with pytest.raises(InvalidRequest, match="use top_up"):
        store.ledger.buy_in(p, "t1", 2_000, "bi2")


def test_r_buyin_2_top_up_cannot_exceed_the_maximum(store: Store) -> None:
    """Top-up between hands; the resulting stack may not exceed the table maximum (R-BUYIN-2)."""
    p = make_player(store, "liam")
    store.ledger.deposit(p, "EUR", 10_000, "dep")
    store.ledger.buy_in(p, "t1", 3_000, "bi", max_buy_in=5_000)
    store.ledger.top_up(p, "t1", 2_000, "tu1", max_buy_in=5_000)
    with pytest.raises(InvalidRequest, match="exceed the table maximum of 5000"):
        store.ledger.top_up(p, "t1", 1, "tu2", max_buy_in=5_000)
    assert store.ledger.table_stack(p, "t1") == 5_000
    assert store.ledger.balance(p, "EUR") == 5_000


def test_r_cash_3_cash_out_returns_the_whole_stack(store: Store) -> None:
    """R-CASH-3 / R-WALLET-2: leaving credits the remaining stack to the account; replay moves nothing."""
    p = make_player(store, "mona")
    store.ledger.deposit(p, "EUR", 10_000, "dep")
    store.ledger.buy_in(p, "t1", 3_000, "bi")
    assert store.ledger.cash_out(p, "t1", "co") == 3_000
    assert store.ledger.cash_out(p, "t1", "co") == 3_000  # idempotent replay
    assert store.ledger.balance(p, "EUR") == 10_000
    assert store.ledger.table_stack(p, "t1") == 0
    assert store.ledger.cash_out(p, "t1", "co2") == 0


def test_play_money_is_a_separate_balance(store: Store) -> None:
    """R-GEN-3: play money ("PLAY") is its own balance; it never mixes with real money."""
    p = make_player(store, "nina")
    store.ledger.deposit(p, "PLAY", 100_000, "fun")
    store.ledger.buy_in(p, "fun1", 50_000, "bi", currency="PLAY")
    assert store.ledger.balance(p, "PLAY") == 50_000
    assert store.ledger.balance(p, "EUR") == 0
    assert store.ledger.table_stack(p, "fun1", "PLAY") == 50_000
    assert store.ledger.total("PLAY") == 0


def test_r_tourn_gen_2_tickets_can_never_flow_to_cash(store: Store) -> None:
    """R-TOURN-GEN-2: a ticket has a money value but is not convertible to cash - no flow from a ticket
    account leads to a cash, play, escrow or external account."""
    cashable = {k for (_, k) in ALLOWED_FLOWS} - {"prize", "fees"}
    assert not {(TICKET, k) for k in cashable} & ALLOWED_FLOWS
    assert (TICKET, CASH) not in ALLOWED_FLOWS
    p = make_player(store, "omar")
    tid = store.tournaments.issue_ticket(p, "EUR", 1_100, "tk")
    assert store.ledger.account_balance(AccountKey.ticket(p, "EUR")) == 1_100
    with pytest.raises(InsufficientFunds):  # the ticket value is not part of the withdrawable balance
        store.ledger.withdraw(p, "EUR", 1, "wd")
    assert [t.id for t in store.tournaments.tickets(p)] == [tid]
