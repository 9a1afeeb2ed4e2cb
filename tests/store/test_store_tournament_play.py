"""The money and state of a running tournament, on SQLite and PostgreSQL: knockout bounties (R-TOURN-KO/PKO),
prizes at elimination in the hand's transaction (R-TOURN-GEN-5, R-WALLET-6), satellite tickets (R-TOURN-GEN-2),
overlay (R-TOURN-MTT-4), flights' shared pool (R-TOURN-FLIGHT), late registration (R-TOURN-REG-1),
disqualification with forfeit (R-INTEG-5, R-WALLET-8) and interrupted-tournament compensation (R-TOURN-INT)."""

from __future__ import annotations

import pytest

from riverboat.store import AccountKey, InsufficientFunds, InvalidRequest, Store
from riverboat.store.postings import ALLOWED_FLOWS, CASH, TICKET
from riverboat.store.tournament_play import Award, Finish, HandCheckpoint, Payment

from .conftest import make_player


def rich(store: Store, name: str, amount: int = 10_000) -> int:
    p = make_player(store, name)
    store.ledger.deposit(p, "EUR", amount, f"dep-{name}")
    return p


def house(store: Store) -> int:
    return store.ledger.account_balance(AccountKey.fees("EUR"))


def conserved(store: Store) -> None:
    assert store.ledger.total("EUR") == 0
    store.ledger.verify()


def start3(store: Store, tid: str = "ko", bounty: int = 250) -> list[int]:
    ps = [rich(store, f"{tid}p{i}") for i in range(3)]
    store.tournaments.create(tid, "EUR", 1_000, 100, bounty=bounty, name="KO", kind="sng")
    for p in ps:
        store.tournaments.register(p, tid, f"r-{tid}-{p}")
    store.tournament_play.start(tid, {p: ("T1", i) for i, p in enumerate(ps)}, chips=1_500)
    return ps


def test_r_tourn_ko_1_bounty_is_split_off_the_buy_in_and_refunded_with_it(store: Store) -> None:
    """R-TOURN-KO-1 / R-FEE-1: a 10 + 1 knockout with a 2.50 bounty: 7.50 to the prize pool, 2.50 to the bounty
    pool, 1 to the house; unregistering gives all 11 back."""
    p = rich(store, "kouser")
    store.tournaments.create("ko1", "EUR", 1_000, 100, bounty=250)
    store.tournaments.register(p, "ko1", "r")
    assert (store.tournaments.prize_pool("ko1"), store.tournaments.bounty_pool("ko1"), house(store)) == (750, 250, 100)
    store.tournaments.unregister(p, "ko1", "u")
    assert store.ledger.balance(p) == 10_000
    assert store.tournaments.bounty_pool("ko1") == 0
    conserved(store)


def test_r_tourn_gen_5_hand_records_stacks_eliminations_and_pays_at_once(store: Store) -> None:
    """R-TOURN-GEN-5 / R-WALLET-6 / R-TOURN-KO-1: one hand eliminates player C (3rd, unpaid place) who was busted
    by A: A's bounty of C is paid from the bounty pool in the hand's transaction; the stacks after the hand are
    stored (R-SERVER-1 resume point). A replay of the same hand changes nothing."""
    a, b, c = start3(store)
    cp = HandCheckpoint(table_id="T1", hand_id="h1", start_stacks={a: 1500, b: 1500, c: 1500},
                        stacks={a: 3000, b: 1500, c: 0}, phh="phh text", button=0, big_blind=2, elapsed=12.5,
                        finishes=[Finish(c, 3, 3)], payments=[Payment(a, "bounty", 250)])
    assert store.tournament_play.hand_done("ko", cp) is True
    assert store.tournament_play.hand_done("ko", cp) is False
    assert store.ledger.balance(a) == 10_000 - 1_100 + 250
    assert store.tournaments.bounty_pool("ko") == 500
    snap = store.tournament_play.snapshot("ko")
    by = {e.player_id: e for e in snap.entries}
    assert (by[a].chips, by[b].chips) == (3000, 1500)
    assert (by[c].status, by[c].place, by[c].table_id) == ("eliminated", 3, None)
    assert by[a].bounties_won == 250
    assert snap.tables[0].hands == 1 and snap.tables[0].elapsed == 12.5 and snap.tables[0].big_blind == 2
    assert store.hands.get("T1", "h1") is not None
    # the final hand: B out 2nd, A wins; 1st and 2nd prizes from the pool (2250 = 3 x 750), A's own bounty back
    cp2 = HandCheckpoint(table_id="T1", hand_id="h2", start_stacks={a: 3000, b: 1500}, stacks={a: 4500, b: 0},
                         finishes=[Finish(b, 2, 2), Finish(a, 1, 1, won=True)],
                         payments=[Payment(b, "prize", 750), Payment(a, "prize", 1500), Payment(a, "bounty", 250),
                                   Payment(a, "bounty", 250)])
    store.tournament_play.hand_done("ko", cp2)
    assert store.tournaments.prize_pool("ko") == 0 and store.tournaments.bounty_pool("ko") == 0
    assert store.tournaments.status("ko") == "finished"
    assert store.ledger.balance(a) == 10_000 - 1_100 + 1_500 + 750
    hist = store.tournament_play.history(a)
    assert hist[0].place == 1 and hist[0].prize == 1500 and hist[0].bounties_won == 750
    assert store.tournaments.close("ko", "close") == 0
    conserved(store)


def test_an_eliminated_player_cannot_keep_chips_and_bad_checkpoints_change_nothing(store: Store) -> None:
    a, b, c = start3(store, "bad")
    with pytest.raises(InvalidRequest, match="keep chips"):
        store.tournament_play.hand_done("bad", HandCheckpoint("T1", "h", {a: 1, b: 1}, {a: 1, b: 1},
                                                              finishes=[Finish(b, 3, 3)]))
    with pytest.raises(InvalidRequest, match="exactly the players"):
        store.tournament_play.hand_done("bad", HandCheckpoint("T1", "h", {a: 1, b: 1}, {a: 2}))
    with pytest.raises(InsufficientFunds):  # more than the pool holds: the whole hand is refused
        store.tournament_play.hand_done("bad", HandCheckpoint("T1", "h", {c: 1500}, {c: 0},
                                                              finishes=[Finish(c, 3, 3)],
                                                              payments=[Payment(a, "prize", 10**6)]))
    assert store.hands.get("T1", "h") is None
    assert {e.status for e in store.tournament_play.snapshot("bad").entries} == {"registered"}


def test_r_tourn_sat_1_satellite_pays_non_cashable_tickets_from_the_pool(store: Store) -> None:
    """R-TOURN-SAT-1 / R-TOURN-GEN-2: the winner's prize is a ticket to the target worth its buy-in + fee, paid
    from the satellite's pool; the remainder is cash to the next place. No ledger flow turns a ticket into cash."""
    ps = [rich(store, f"sat{i}", 1_000) for i in range(3)]
    store.tournaments.create("sat", "EUR", 400, 40)
    for p in ps:
        store.tournaments.register(p, "sat", f"rs{p}")
    store.tournament_play.start("sat", {p: ("S1", i) for i, p in enumerate(ps)}, chips=1000)
    cp = HandCheckpoint("S1", "h1", {p: 1000 for p in ps}, {ps[0]: 3000, ps[1]: 0, ps[2]: 0},
                        finishes=[Finish(ps[1], 2, 2), Finish(ps[2], 3, 3), Finish(ps[0], 1, 1, won=True)],
                        payments=[Payment(ps[0], "ticket", 1_100, ticket_for="main"), Payment(ps[1], "prize", 100)])
    store.tournament_play.hand_done("sat", cp)
    (ticket,) = store.tournaments.tickets(ps[0])
    assert (ticket.face_value, ticket.tournament_id) == (1_100, "main")
    assert store.ledger.account_balance(AccountKey.ticket(ps[0], "EUR")) == 1_100
    assert store.ledger.balance(ps[1]) == 1_000 - 440 + 100
    assert not any(a == TICKET and b == CASH for a, b in ALLOWED_FLOWS)
    store.tournaments.create("main", "EUR", 1_000, 100)
    store.tournaments.register(ps[0], "main", "rm", ticket_id=ticket.id)
    assert store.tournaments.prize_pool("main") == 1_000
    conserved(store)


def test_r_tourn_mtt_4_overlay_tops_the_pool_up_to_the_guarantee_once(store: Store) -> None:
    """R-TOURN-MTT-4 / R-TOURN-GEN-1: 3 entries of 10 against a 50 guarantee: the house adds 20, once."""
    ps = [rich(store, f"gtd{i}") for i in range(3)]
    store.tournaments.create("gtd", "EUR", 1_000, 100, guarantee=5_000)
    for p in ps:
        store.tournaments.register(p, "gtd", f"rg{p}")
    assert store.tournaments.pay_overlay("gtd", "ov") == 2_000
    assert store.tournaments.pay_overlay("gtd", "ov") == 2_000  # idempotent replay
    assert store.tournaments.pay_overlay("gtd", "ov2") == 0
    assert store.tournaments.prize_pool("gtd") == 5_000
    conserved(store)


def test_r_tourn_flight_buy_ins_go_to_the_day_2_pool(store: Store) -> None:
    """R-TOURN-FLIGHT: Day 1A and 1B buy-ins go to the Day 2 pool; a cancelled flight refunds its own entries from
    it and leaves the other flight's money there."""
    a, b = rich(store, "flya"), rich(store, "flyb")
    store.tournaments.create("main-d2", "EUR", 1_000, 100)
    store.tournaments.create("main-1a", "EUR", 1_000, 100, pool_id="main-d2")
    store.tournaments.create("main-1b", "EUR", 1_000, 100, pool_id="main-d2")
    store.tournaments.register(a, "main-1a", "ra")
    store.tournaments.register(b, "main-1b", "rb")
    assert store.tournaments.prize_pool("main-d2") == 2_000
    store.tournaments.cancel("main-1b")
    assert store.ledger.balance(b) == 10_000 and store.tournaments.prize_pool("main-d2") == 1_000
    conserved(store)


def test_r_tourn_reg_1_late_registration_only_when_the_director_says_so(store: Store) -> None:
    a, b, c = start3(store, "late", bounty=0)
    d = rich(store, "latecomer")
    with pytest.raises(InvalidRequest, match="closed"):
        store.tournaments.register(d, "late", "rl")
    store.tournaments.register(d, "late", "rl2", late=True)
    store.tournament_play.seat("late", [(d, "T2", 0, 1_500)], open_tables=["T2"])
    snap = store.tournament_play.snapshot("late")
    assert [(e.player_id, e.entry_no, e.table_id) for e in snap.entries][-1] == (d, 4, "T2")
    assert [t.table_id for t in snap.tables] == ["T1", "T2"]
    conserved(store)


def test_r_integ_5_disqualified_mid_tournament_forfeits_and_leaves_play(store: Store) -> None:
    """R-INTEG-5 (a, b) / R-WALLET-8 / R-OPER-1: disqualified while playing: chips out of play, buy-in and fee
    forfeited (pool and house unchanged), and nothing more can be paid to the entry as a refund."""
    op = make_player(store, "director", role="operator")
    a, b, c = start3(store, "dq", bounty=0)
    store.tournaments.disqualify(op, "dq", b)
    e = {x.player_id: x for x in store.tournament_play.snapshot("dq").entries}[b]
    assert (e.status, e.chips, e.table_id) == ("disqualified", 0, None)
    assert store.ledger.balance(b) == 10_000 - 1_100
    assert store.tournaments.prize_pool("dq") == 3_000 and house(store) == 300
    with pytest.raises(InvalidRequest):
        store.tournament_play.interrupt("dq", {a: Award(True, 0), b: Award(True, 0), c: Award(True, 0)}, 0)
    conserved(store)


def test_r_tourn_int_compensation_is_paid_in_one_transaction(store: Store) -> None:
    """R-TOURN-INT-3 / R-WALLET-7: a 3-player SNG at 10 + 1 interrupted after C's elimination (no prize):
    A and B get 11 back each (fees from the house) plus half of C's 10 (5 each) from the pool; C nothing
    (INT-1). The pool ends empty; everything is conserved."""
    a, b, c = start3(store, "int", bounty=0)
    store.tournament_play.hand_done("int", HandCheckpoint("T1", "h1", {a: 1500, b: 1500, c: 1500},
                                                          {a: 3000, b: 1500, c: 0}, finishes=[Finish(c, 3, 3)]))
    before_house = house(store)
    left = store.tournament_play.interrupt("int", {a: Award(True, 500), b: Award(True, 500)}, house_in=0)
    assert left == 0
    assert [store.ledger.balance(p) for p in (a, b, c)] == [10_500, 10_500, 8_900]  # 10000 - 1100 + 1100 + 500
    assert house(store) == before_house - 200
    assert store.tournaments.status("int") == "interrupted"
    assert {e.player_id: e.status for e in store.tournament_play.snapshot("int").entries} == {
        a: "compensated", b: "compensated", c: "eliminated"}
    with pytest.raises(InvalidRequest, match="interrupted"):
        store.tournament_play.interrupt("int", {a: Award(True, 0)}, 0)
    conserved(store)


def test_interrupted_guaranteed_mtt_overlay_from_the_house_and_ticket_entries_get_their_ticket(
        store: Store) -> None:
    """R-TOURN-INT-4 + INT-11(a): the house adds the overlay; a player who entered with a ticket gets the ticket
    back, never cash for it (R-TOURN-GEN-2); leftover pool money returns to the house."""
    a, b = rich(store, "inta"), make_player(store, "intb")
    t = store.tournaments.issue_ticket(b, "EUR", 1_100, "tk")
    store.tournaments.create("gint", "EUR", 1_000, 100, guarantee=4_000)
    store.tournaments.register(a, "gint", "ra")
    store.tournaments.register(b, "gint", "rb", ticket_id=t)
    store.tournament_play.start("gint", {a: ("G1", 0), b: ("G1", 1)}, chips=1000)
    left = store.tournament_play.interrupt("gint", {a: Award(True, 1_000), b: Award(True, 1_000)}, house_in=2_000)
    assert left == 0
    assert store.ledger.balance(a) == 10_000 + 1_000
    assert store.ledger.balance(b) == 1_000
    assert [x.id for x in store.tournaments.tickets(b)] == [t]
    conserved(store)
