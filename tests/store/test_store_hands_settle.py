"""Hand settlement in one transaction, voiding after a crash (R-SERVER) and the hand-history store."""

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

from .conftest import make_player

PHH = 'variant = "NT"\nactions = ["d dh p1 AsKs", "p1 cbr 200", "p2 f"]\n'


def _table(store: Store, n: int = 3, stack: int = 10_000, table: str = "t1", currency: str = "EUR") -> list[int]:
    players = []
    for i in range(n):
        p = make_player(store, f"seat{i}{table}{currency}")
        store.ledger.deposit(p, currency, 50_000, f"dep-{p}-{currency}")
        store.ledger.buy_in(p, table, stack, f"bi-{p}-{table}", currency=currency)
        players.append(p)
    return players


def test_r_wallet_3_settle_moves_pot_and_rake_in_one_transaction(store: Store) -> None:
    """R-WALLET-3: pots are settled after every hand with the rake deducted; one transaction, sum preserved."""
    a, b, c = _table(store)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000, c: 10_000})
    txns = store.ledger.transaction_count()
    store.ledger.settle_hand("t1", "h1", {a: 1_450, b: -1_000, c: -500}, 50, PHH, [{"type": "showdown"}])
    assert store.ledger.transaction_count() == txns + 1
    assert store.ledger.table_stacks("t1") == {a: 11_450, b: 9_000, c: 9_500}
    assert store.ledger.account_balance(AccountKey.rake("EUR")) == 50
    assert store.ledger.total("EUR") == 0
    rec = store.hands.get("t1", "h1")
    assert rec is not None and rec.status == "settled" and rec.rake == 50 and rec.phh == PHH
    assert rec.changes == {a: 1_450, b: -1_000, c: -500}
    assert rec.events == [{"type": "showdown"}]


def test_settle_refuses_unbalanced_changes_and_changes_nothing(store: Store) -> None:
    """R-WALLET-3 / R-RAKE: bad input is refused - stack changes must sum to minus the rake; otherwise nothing is written."""
    a, b, _ = _table(store)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})
    before = store.ledger.balances()
    with pytest.raises(InvalidRequest, match="must equal minus the rake"):
        store.ledger.settle_hand("t1", "h1", {a: 100, b: -50}, 0, PHH)
    with pytest.raises(InvalidRequest, match="not dealt into"):
        store.ledger.settle_hand("t1", "h1", {a: 100, 10**9: -100}, 0, PHH)
    with pytest.raises(InsufficientFunds):
        store.ledger.settle_hand("t1", "h1", {a: 10_001, b: -10_001}, 0, PHH)
    assert store.ledger.balances() == before
    rec = store.hands.get("t1", "h1")
    assert rec is not None and rec.status == "started"


def test_settling_twice_is_idempotent_and_a_different_result_is_refused(store: Store) -> None:
    """R-WALLET-3 / R-POT: a hand is settled exactly once; a replay changes nothing, a different result is refused."""
    a, b = _table(store, 2)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})
    t1 = store.ledger.settle_hand("t1", "h1", {a: 100, b: -100}, 0, PHH)
    assert store.ledger.settle_hand("t1", "h1", {a: 100, b: -100}, 0, PHH) == t1
    with pytest.raises(IdempotencyConflict, match="already used"):
        store.ledger.settle_hand("t1", "h1", {a: -100, b: 100}, 0, PHH)
    assert store.ledger.table_stacks("t1") == {a: 10_100, b: 9_900}


def test_r_gen_3_play_money_hands_are_never_raked(store: Store) -> None:
    """R-GEN-3: play-money games are never raked."""
    a, b = _table(store, 2, currency="PLAY", table="fun")
    store.ledger.start_hand("fun", "h1", {a: 10_000, b: 10_000}, currency="PLAY")
    with pytest.raises(InvalidRequest, match="R-GEN-3"):
        store.ledger.settle_hand("fun", "h1", {a: 90, b: -100}, 10, PHH)
    store.ledger.settle_hand("fun", "h1", {a: 100, b: -100}, 0, PHH)
    assert store.ledger.table_stacks("fun", "PLAY") == {a: 10_100, b: 9_900}


def test_start_hand_checks_stacks_and_one_open_hand_per_table(store: Store) -> None:
    a, b, c = _table(store)
    with pytest.raises(InvalidRequest, match="has 10000 on table"):
        store.ledger.start_hand("t1", "h1", {a: 9_000, b: 10_000})
    with pytest.raises(InvalidRequest, match="at least two"):
        store.ledger.start_hand("t1", "h1", {a: 10_000})
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})  # a retried call is harmless
    with pytest.raises(InvalidRequest, match="already exists"):
        store.ledger.start_hand("t1", "h1", {a: 10_000, c: 10_000})
    with pytest.raises(InvalidRequest, match="has not been settled"):
        store.ledger.start_hand("t1", "h2", {a: 10_000, c: 10_000})
    with pytest.raises(NotFound):
        store.ledger.settle_hand("t1", "nope", {}, 0, PHH)


def test_r_buyin_1_no_top_up_or_cash_out_during_a_hand(store: Store) -> None:
    """R-BUYIN-1 table stakes: chips cannot be added or removed while the player's hand is in progress."""
    a, b, c = _table(store)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})
    with pytest.raises(InvalidRequest, match="while you are in a hand"):
        store.ledger.top_up(a, "t1", 100, "tu")
    with pytest.raises(InvalidRequest, match="while you are in a hand"):
        store.ledger.cash_out(b, "t1", "co")
    assert store.ledger.cash_out(c, "t1", "co-c") == 10_000  # c was not dealt in
    store.ledger.settle_hand("t1", "h1", {a: 200, b: -200}, 0, PHH)
    assert store.ledger.cash_out(b, "t1", "co-b") == 9_800


def test_r_server_1_unsettled_hand_is_voided_and_stacks_are_pre_hand(store: Store) -> None:
    """R-SERVER-1/2: after a crash every started-but-unsettled hand is cancelled, all chips where they were
    before the hand; table escrow survives (cash_out_on_crash off)."""
    a, b, c = _table(store)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000, c: 10_000})
    store.ledger.settle_hand("t1", "h1", {a: 300, b: -300}, 0, PHH)
    store.ledger.start_hand("t1", "h2", {a: 10_300, b: 9_700, c: 10_000})
    assert store.ledger.void_unsettled_hands() == [("t1", "h2")]
    assert store.ledger.table_stacks("t1") == {a: 10_300, b: 9_700, c: 10_000}
    rec = store.hands.get("t1", "h2")
    assert rec is not None and rec.status == "void"
    assert store.ledger.void_unsettled_hands() == []
    with pytest.raises(InvalidRequest, match="void"):
        store.ledger.settle_hand("t1", "h2", {a: 1, b: -1}, 0, PHH)
    store.ledger.start_hand("t1", "h3", {a: 10_300, b: 9_700})  # the table can go on


def test_r_server_3_cash_out_on_crash_returns_stacks_to_balances(store: Store) -> None:
    """R-SERVER-3 room flag cash_out_on_crash: stacks of every seated player return to their accounts."""
    a, b = _table(store, 2)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})
    store.ledger.void_unsettled_hands(cash_out_on_crash=True)
    assert store.ledger.table_stacks("t1") == {}
    assert store.ledger.balance(a) == 50_000 and store.ledger.balance(b) == 50_000


def test_r_integ_8_hand_history_is_queryable_per_player_and_table(store: Store) -> None:
    """R-INTEG-8: every finished hand is stored with its PHH and events, queryable per player and table."""
    a, b, c = _table(store)
    store.ledger.start_hand("t1", "h1", {a: 10_000, b: 10_000})
    store.ledger.settle_hand("t1", "h1", {a: 100, b: -100}, 0, PHH + "# 1")
    store.ledger.start_hand("t1", "h2", {a: 10_100, c: 10_000})
    store.ledger.settle_hand("t1", "h2", {a: -50, c: 50}, 0, PHH + "# 2")
    store.ledger.start_hand("t1", "h3", {b: 9_900, c: 10_050})
    store.ledger.void_unsettled_hands()
    assert [h.hand_id for h in store.hands.for_table("t1")] == ["h2", "h1"]
    assert [h.hand_id for h in store.hands.for_table("t1", include_void=True)] == ["h3", "h2", "h1"]
    assert [h.hand_id for h in store.hands.for_player(a)] == ["h2", "h1"]
    assert [h.hand_id for h in store.hands.for_player(b)] == ["h1"]
    assert [h.hand_id for h in store.hands.for_player(a, limit=1)] == ["h2"]
    assert store.hands.for_player(a, table_id="elsewhere") == []
    assert store.hands.for_player(c)[0].phh == PHH + "# 2"
    store.hands.record("tour-1", "th1", {a: 1500, b: 1500}, PHH, [{"t": 1}], {a: 100, b: -100})
    assert store.hands.for_table("tour-1")[0].changes == {a: 100, b: -100}
    with pytest.raises(InvalidRequest):
        store.hands.record("tour-1", "th1", {a: 1500, b: 1500}, PHH)
