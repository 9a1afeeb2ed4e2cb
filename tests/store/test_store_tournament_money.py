"""Tournament money: R-FEE, R-TOURN-REG, R-TOURN-GEN (prizes, tickets), R-WALLET-5/6/9 (jackpots)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from riverboat.store import AccountKey, InsufficientFunds, InvalidRequest, PermissionDenied, Store

from .conftest import FakeClock, make_player


def _rich(store: Store, name: str, amount: int = 10_000) -> int:
    p = make_player(store, name)
    store.ledger.deposit(p, "EUR", amount, f"dep-{name}")
    return p


def test_r_fee_1_register_pays_buy_in_to_pool_and_fee_to_house(store: Store) -> None:
    """R-FEE-1 / R-WALLET-5: the buy-in goes to the prize pool, the entry fee to the house."""
    p = _rich(store, "alice")
    store.tournaments.create("sng1", "EUR", 1_000, 100)
    store.tournaments.register(p, "sng1", "reg")
    assert store.ledger.balance(p) == 8_900
    assert store.tournaments.prize_pool("sng1") == 1_000
    assert store.ledger.account_balance(AccountKey.fees("EUR")) == 100
    assert store.tournaments.registered("sng1") == [p]
    with pytest.raises(InvalidRequest, match="already registered"):
        store.tournaments.register(p, "sng1", "reg2")


def test_r_fee_2_every_tournament_but_a_freeroll_has_both_buy_in_and_fee(store: Store) -> None:
    """R-FEE-2 / R-TOURN-REG-2: buy-in and fee together, or neither (freeroll)."""
    with pytest.raises(InvalidRequest, match="R-FEE-2"):
        store.tournaments.create("bad", "EUR", 1_000, 0)
    store.tournaments.create("free", "EUR", 0, 0)
    p = _rich(store, "bob", 1)
    store.tournaments.register(p, "free", "reg")
    assert store.ledger.balance(p) == 1


def test_registration_without_enough_money_is_refused(store: Store) -> None:
    """R-WALLET-5: registration debits buy-in and fee; without the money nothing is debited or registered."""
    p = _rich(store, "carol", 1_050)
    store.tournaments.create("sng1", "EUR", 1_000, 100)
    with pytest.raises(InsufficientFunds):
        store.tournaments.register(p, "sng1", "reg")
    assert store.ledger.balance(p) == 1_050
    assert store.tournaments.registered("sng1") == []


def test_r_tourn_reg_3_unregister_refunds_before_the_deadline_only(store: Store, clock: FakeClock) -> None:
    """R-TOURN-REG-3: unregistering before the deadline refunds buy-in and fee; after it, no refund."""
    a, b = _rich(store, "dave"), _rich(store, "erin")
    store.tournaments.create("mtt", "EUR", 1_000, 100, unregister_deadline=clock.now + timedelta(minutes=10))
    store.tournaments.register(a, "mtt", "ra")
    store.tournaments.register(b, "mtt", "rb")
    store.tournaments.unregister(a, "mtt", "ua")
    assert store.ledger.balance(a) == 10_000
    clock.advance(minutes=11)
    with pytest.raises(InvalidRequest, match="deadline.*R-TOURN-REG-3"):
        store.tournaments.unregister(b, "mtt", "ub")
    assert store.ledger.balance(b) == 8_900
    assert store.tournaments.prize_pool("mtt") == 1_000


def test_r_tourn_reg_3_no_unregistering_after_the_start(store: Store) -> None:
    p = _rich(store, "frank")
    store.tournaments.create("sng", "EUR", 1_000, 100)
    store.tournaments.register(p, "sng", "r")
    store.tournaments.start("sng")
    with pytest.raises(InvalidRequest, match="started.*R-TOURN-REG-3"):
        store.tournaments.unregister(p, "sng", "u")
    with pytest.raises(InvalidRequest, match="closed"):
        store.tournaments.register(_rich(store, "late"), "sng", "r2")


def test_r_tourn_reg_4_cancelled_tournament_refunds_everyone(store: Store) -> None:
    """R-TOURN-REG-4: minimum not met -> cancelled; buy-in and fee refunded; room money returns to the room."""
    ps = [_rich(store, f"player{i}") for i in range(3)]
    store.tournaments.create("mtt", "EUR", 1_000, 100)
    for p in ps:
        store.tournaments.register(p, "mtt", f"r{p}")
    store.tournaments.add_to_prize_pool("mtt", 5_000, "guarantee")
    assert store.tournaments.cancel("mtt") == ps
    assert all(store.ledger.balance(p) == 10_000 for p in ps)
    assert store.tournaments.prize_pool("mtt") == 0
    assert store.ledger.account_balance(AccountKey.fees("EUR")) == 0
    assert store.tournaments.status("mtt") == "cancelled"


def test_r_tourn_gen_5_prizes_are_paid_from_the_pool_and_never_beyond_it(store: Store) -> None:
    """R-TOURN-GEN-5 / R-WALLET-6: prizes go from the pool to the balance at once; the pool cannot overdraw."""
    a, b = _rich(store, "gina"), _rich(store, "hank")
    store.tournaments.create("hu", "EUR", 1_000, 50)
    store.tournaments.register(a, "hu", "ra")
    store.tournaments.register(b, "hu", "rb")
    store.tournaments.start("hu")
    with pytest.raises(InsufficientFunds):
        store.tournaments.pay_prize("hu", a, 2_001, "win-too-much")
    store.tournaments.pay_prize("hu", a, 2_000, "win")
    assert store.ledger.balance(a) == 10_950 and store.tournaments.prize_pool("hu") == 0


def test_r_tourn_gen_3_freeroll_pool_is_funded_by_the_room(store: Store) -> None:
    """R-TOURN-GEN-3: in a freeroll the room alone funds the prize pool."""
    p = _rich(store, "ivan", 0 + 1)
    store.tournaments.create("free", "EUR", 0, 0)
    store.tournaments.register(p, "free", "r")
    store.tournaments.add_to_prize_pool("free", 500, "room")
    store.tournaments.start("free")
    store.tournaments.pay_prize("free", p, 500, "win")
    assert store.ledger.balance(p) == 501
    assert store.ledger.total("EUR") == 0


def test_r_tourn_gen_2_ticket_stands_in_for_buy_in_and_refunds_as_a_ticket(store: Store) -> None:
    """R-TOURN-GEN-2 / R-WALLET-5: a ticket (non-cashable, face value) may pay buy-in + fee; unregistering gives
    the ticket back, never cash."""
    p = make_player(store, "jane")
    sat = _rich(store, "sat")
    store.tournaments.create("sat1", "EUR", 1_000, 100)
    store.tournaments.register(sat, "sat1", "rs")
    store.tournaments.start("sat1")
    ticket = store.tournaments.issue_ticket(p, "EUR", 1_000, "prize-ticket", from_tournament="sat1")
    assert store.tournaments.prize_pool("sat1") == 0
    store.tournaments.create("big", "EUR", 900, 100)
    store.tournaments.create("other", "EUR", 1_000, 100)
    with pytest.raises(InvalidRequest, match="worth 1000"):
        store.tournaments.register(p, "other", "r-other", ticket_id=ticket)
    store.tournaments.register(p, "big", "r-big", ticket_id=ticket)
    assert store.tournaments.tickets(p) == []
    assert store.tournaments.prize_pool("big") == 900
    store.tournaments.unregister(p, "big", "u-big")
    assert [t.id for t in store.tournaments.tickets(p)] == [ticket]
    assert store.ledger.balance(p) == 0
    assert store.ledger.account_balance(AccountKey.ticket(p, "EUR")) == 1_000


def test_ticket_restricted_to_a_tournament_and_owner(store: Store) -> None:
    """R-TOURN-GEN-2 / R-WALLET-5: a ticket stands in only for its owner and, if restricted, its tournament."""
    p, q = make_player(store, "kate"), make_player(store, "liam")
    t = store.tournaments.issue_ticket(p, "EUR", 550, "tk", tournament_id="only")
    store.tournaments.create("only", "EUR", 500, 50)
    store.tournaments.create("else", "EUR", 500, 50)
    with pytest.raises(InvalidRequest, match="only valid"):
        store.tournaments.register(p, "else", "r1", ticket_id=t)
    with pytest.raises(InvalidRequest, match="not an unused ticket"):
        store.tournaments.register(q, "only", "r2", ticket_id=t)
    store.tournaments.register(p, "only", "r3", ticket_id=t)


def test_r_wallet_9_jackpot_contribution_and_payout(store: Store) -> None:
    """R-WALLET-9: part of the stakes goes into a jackpot pool; wins are paid from it separately."""
    ps = [_rich(store, f"tw{i}") for i in range(3)]
    store.tournaments.create("twister1", "EUR", 1_000, 70)
    for p in ps:
        store.tournaments.register(p, "twister1", f"r{p}")
    store.tournaments.start("twister1")
    store.tournaments.jackpot_contribute("twister1", "aog", 30, "jp-in")
    assert store.tournaments.jackpot_balance("aog", "EUR") == 30
    assert store.tournaments.prize_pool("twister1") == 2_970
    with pytest.raises(InsufficientFunds):
        store.tournaments.jackpot_pay("aog", ps[0], "EUR", 31, "jp-out-big")
    store.tournaments.jackpot_pay("aog", ps[0], "EUR", 30, "jp-out")
    assert store.ledger.balance(ps[0]) == 8_960
    assert store.ledger.total("EUR") == 0


def test_r_tourn_rebuy_re_buys_and_add_ons_feed_the_pool_and_the_house(store: Store) -> None:
    """R-TOURN-REBUY: a re-buy / add-on pays its buy-in into the prize pool and its fee to the house."""
    p = _rich(store, "rebuyer")
    store.tournaments.create("rb", "EUR", 1_000, 100)
    with pytest.raises(InvalidRequest, match="not registered"):
        store.tournaments.pay_in(p, "rb", 1_000, 100, "early")
    store.tournaments.register(p, "rb", "r")
    store.tournaments.start("rb")
    store.tournaments.pay_in(p, "rb", 1_000, 100, "rebuy-1")
    store.tournaments.pay_in(p, "rb", 2_000, 0, "addon-1", kind="addon")
    assert store.tournaments.prize_pool("rb") == 4_000
    assert store.ledger.account_balance(AccountKey.fees("EUR")) == 200
    assert store.ledger.balance(p) == 10_000 - 4_200


def test_r_tourn_int_3_interrupted_sng_refunds_buy_ins_and_fees_then_shares_the_rest(store: Store) -> None:
    """R-TOURN-INT-3 (illustration in RULES.md): 6-player SNG at 10+1 with 2 players out: each of the 4 remaining
    players gets 11 back plus an equal share of the eliminated buy-ins, 20/4 = 5 -> 16 each."""
    ps = [_rich(store, f"sngplayer{i}", 1_100) for i in range(6)]
    store.tournaments.create("sng6", "EUR", 1_000, 100)
    for p in ps:
        store.tournaments.register(p, "sng6", f"r{p}")
    store.tournaments.start("sng6")
    out, remaining = ps[:2], ps[2:]
    for p in remaining:
        store.tournaments.refund_entry("sng6", p, f"int-refund-{p}")
    share = store.tournaments.prize_pool("sng6") // len(remaining)
    for p in remaining:
        store.tournaments.pay_prize("sng6", p, share, f"int-share-{p}")
    assert [store.ledger.balance(p) for p in remaining] == [1_600] * 4
    assert [store.ledger.balance(p) for p in out] == [0, 0]
    assert store.tournaments.prize_pool("sng6") == 0
    assert store.ledger.account_balance(AccountKey.fees("EUR")) == 200  # only the eliminated players' fees
    with pytest.raises(InvalidRequest, match="not registered"):
        store.tournaments.refund_entry("sng6", remaining[0], "again")


def test_r_integ_5_disqualified_player_forfeits_buy_in_and_fee(store: Store) -> None:
    """R-INTEG-5 (a, b) / R-WALLET-8: an operator removes a player; buy-in and fee are forfeited, not refunded."""
    op = make_player(store, "tdirector", role="operator")
    p = _rich(store, "cheater")
    store.tournaments.create("mttx", "EUR", 1_000, 100)
    store.tournaments.register(p, "mttx", "r")
    with pytest.raises(PermissionDenied):
        store.tournaments.disqualify(p, "mttx", p)
    store.tournaments.disqualify(op, "mttx", p)
    assert store.tournaments.registered("mttx") == []
    with pytest.raises(InvalidRequest, match="not registered"):
        store.tournaments.unregister(p, "mttx", "u")
    assert store.ledger.balance(p) == 8_900
    assert store.tournaments.prize_pool("mttx") == 1_000
