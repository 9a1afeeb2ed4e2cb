"""Twister, Age of the Gods Twister and Wild Twister played by the real director, tables and store with in-process
bots on a FakeClock (SQLite and PostgreSQL): the variants of riverboat.room.twister on the director's hooks.

Each game checks: three seats, NL Hold'em turbo, 500 chips (AoG 100) (R-TWIST-1, R-AOG-1); the spin drawn in the
store once the three are seated and shown to every player before the first hand (R-TWIST-3); the prize paid by
the drawn multiplier, winner-takes-all or 80/10/10 (R-TWIST-5/10); the draw stored for audit; chips conserved at
every hand; the ledger balanced (verify() in the fixture)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import func, select

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.lifecycle import Status
from riverboat.room.tournament.simulate import make_bots, play
from riverboat.room.tournament.tables import TourneyTable
from riverboat.room.twister import VARIANTS, twister_spec
from riverboat.room.twister.interrupt import interrupt_twister
from riverboat.store import AccountKey, Store
from riverboat.store.models import LedgerTxn
from riverboat.twister import TwisterError, TwisterSettings


class Values:
    """A bit source that returns the given values (each must fit the bits asked for): forces a draw."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def getrandbits(self, k: int, /) -> int:
        v = self.values.pop(0) if self.values else 0
        assert v < 2**k
        return v


@dataclass
class RecHost:
    clock: FakeClock
    rng: Any
    gateway: StoreGateway
    frames: list[tuple[float, int, dict[str, Any]]] = field(default_factory=list)

    def is_connected(self, player_id: int) -> bool:
        return True

    def send_many(self, player_ids: list[int], message: Any) -> None:
        for pid in player_ids:
            self.send(pid, message)

    def send(self, player_id: int, message: Any) -> None:
        self.frames.append((self.clock.now(), player_id, dict(message)))

    def events(self, name: str) -> list[tuple[float, int, dict[str, Any]]]:
        return [f for f in self.frames if f[2].get("type") == "tournament" and f[2].get("event") == name]


@dataclass
class Game:
    director: Director
    host: RecHost
    players: list[int]
    hands: list[tuple[float, list[dict[str, Any]], int, int]] = field(default_factory=list)  # (t, events, before, after)
    all_in: list[bool] = field(default_factory=list)  # per hand: every player all-in (or covering every other)


async def open_game(store: Store, kind: str, buy_in: int, *, tid: str, seed: int = 1,
                    settings: TwisterSettings | None = None, rng: Any = None, players: list[int] | None = None,
                    ticket_ids: dict[int, int] | None = None, register: bool = True) -> Game:
    clock = FakeClock()
    host = RecHost(clock, seeded_rng(seed), StoreGateway(store, inline=True))
    spec = twister_spec(kind, buy_in, settings=settings)
    if players is None:
        players = make_bots(store, 3, 10 * buy_in, "EUR", prefix=f"{tid.replace(':', '')}-")
    VARIANTS[kind].configure(tid, settings, rng if rng is not None else random.Random(seed))
    bots = {p: ShoveBot(random.Random(seed + p)) for p in players}
    game = Game(Director(host, tid, spec, bots=bots, seed=seed), host, players)

    def on_hand(d: Director, table: TourneyTable, driver: HandDriver) -> None:
        hand = driver.hand
        assert hand.result is not None
        start = list(hand.start_stacks)
        covered = [i for i in range(len(start))  # all in, or (the biggest stack) covering every other stack
                   if hand.allin[i] or hand.total[i] >= max(start[j] for j in range(len(start)) if j != i)]
        game.hands.append((clock.now(), [e.to_dict() for e in hand.events], sum(start),
                           sum(hand.result.stacks.values())))
        game.all_in.append(len(covered) == len(start))

    game.director.on_hand = on_hand
    clock.add_settle_hook(game.director.quiesce)
    await game.director.open()
    if register:
        for p in players:
            await game.director.register(p, ticket_id=(ticket_ids or {}).get(p))
    return game


async def finish(game: Game) -> None:
    try:
        await play(game.director, game.host.clock, step=30.0)
    finally:
        game.host.clock.remove_settle_hook(game.director.quiesce)
        await game.director.close()


def txns(store: Store, kind: str) -> int:
    return int(store._db.read(lambda s: s.scalar(select(func.count()).select_from(LedgerTxn)
                                                 .where(LedgerTxn.kind == kind))))


def check_conserved(game: Game, chips: int) -> None:
    assert game.hands and all(before == after == 3 * chips for _, _, before, after in game.hands)


async def test_r_twist_1_2_3_5_twister_to_the_winner(tstore: Store) -> None:
    """R-TWIST-1/2/3/5/7, R-TOURN-GEN-5: a EUR 1 Twister (3 seats, NL Hold'em turbo, 500 chips) is spun after the
    three are seated and before the first hand, every player is shown the spin, and the winner is paid the drawn
    prize (below EUR 1000: winner takes all) through the ledger; the draw is stored with its random value."""
    game = await open_game(tstore, "twister", 100, tid="twister:t1", seed=3)
    d = game.director
    spec = d.spec
    assert (spec.seats, spec.starting_stack, spec.game, spec.structure, spec.fee) == (3, 500, "holdem", "NL", 0)
    await finish(game)
    spins = game.host.events("twister_spin")
    assert sorted(p for _, p, _ in spins) == sorted(game.players)  # every player is shown the spin
    spin_t = spins[0][0]
    data = spins[0][2]["data"]
    assert data["reel"] == [1000, 50, 8, 5, 3, 2] and data["multiplier"] in data["reel"]
    assert data["prize"] == data["multiplier"] * 100 and data["places"] == [data["prize"]]
    assert game.hands[0][0] >= spin_t + TwisterSettings().spin_seconds  # the spin before the first hand
    check_conserved(game, 500)
    assert not all(game.all_in)  # the bots fold sometimes: only Wild Twister is all-in every hand
    (draw,) = [r for r in tstore.twister.draws(tournament_id="twister:t1") if r.seq == 0]
    assert (draw.multiplier, draw.table_name, draw.amount) == (data["multiplier"], "twister-1-20", data["prize"])
    winner = d.places()[0]
    assert d.results[winner].prize == data["prize"] and d.status is Status.FINISHED
    assert tstore.tournament_play.snapshot("twister:t1").prize_pool == 0
    assert txns(tstore, "t_prize") == 1
    finished = [f for f in game.host.events("finished") if f[1] == winner]
    assert finished and finished[-1][2]["data"]["prize"] == data["prize"]


async def test_r_twist_2_random_seating() -> None:
    """R-TWIST-2: players are seated at random: over twenty tournaments the first registered player sits in more
    than one seat (the director's seed decides, not the registration order)."""
    from riverboat.store import Store as _Store

    st = _Store("sqlite://")
    st.upgrade()
    try:
        players = make_bots(st, 3, 10_000, "EUR")
        seats: set[int] = set()
        for i in range(20):
            game = await open_game(st, "twister", 100, tid=f"twister:seat{i}", seed=100 + i, players=players)
            e = game.director.entrants_by_id[players[0]]
            assert e.seat is not None
            seats.add(e.seat)
            await game.director.close()
        assert len(seats) > 1
    finally:
        st.dispose()


async def test_r_twist_5_10_split_80_10_10(tstore: Store) -> None:
    """R-TWIST-5/10: a 1000x EUR 1 Twister (forced draw: random value 0) pays EUR 1000 split 80/10/10 -- the
    winner 80,000, second and third 10,000 each -- from the pool topped up by the room (R-TOURN-GEN-1)."""
    game = await open_game(tstore, "twister", 100, tid="twister:big", seed=5, rng=Values(0))
    await finish(game)
    d = game.director
    assert game.host.events("twister_spin")[0][2]["data"]["places"] == [80_000, 10_000, 10_000]
    prizes = sorted((d.results[p].prize for p in d.places()), reverse=True)
    assert sum(prizes) == 100_000 and prizes[0] == 80_000
    assert tstore.ledger.account_balance(AccountKey.external("EUR")) < 0  # room money came in
    check_conserved(game, 500)


async def test_r_aog_3_6_forced_jackpot_trigger_pauses_and_pays(tstore: Store) -> None:
    """R-AOG-1/3/5/6, R-WALLET-9: an Age of the Gods Twister (100 chips) with every trigger forced: 0.99% of the
    stakes goes to the tiers, each player's jackpot game is drawn at the start whatever the result, every player
    is told of every win, the tournament pauses while the jackpot game runs (the first hand waits spin +
    jackpot seconds), and the jackpot is credited to the balance apart from the tournament prize."""
    settings = TwisterSettings(jackpot_trigger_ppm_per_100=1_000_000, spin_seconds=4.0, jackpot_game_seconds=9.0)
    game = await open_game(tstore, "aog", 1000, tid="twister:aog1", seed=7, settings=settings, register=False)
    before = {p: tstore.ledger.balance(p, "EUR") for p in game.players}
    for p in game.players:
        await game.director.register(p)
    assert game.director.spec.starting_stack == 100
    await finish(game)
    spin = game.host.events("twister_spin")[0]
    jackpots = game.host.events("jackpot")
    assert len(spin[2]["data"]["jackpots"]) == 3  # all three triggered
    assert len(jackpots) == 9  # three wins, each told to all three players (R-AOG-3)
    assert game.hands[0][0] >= spin[0] + 4.0 + 9.0  # paused for the jackpot game
    wins = {p: 0 for p in game.players}
    for _, _, f in jackpots[::3]:
        wins[f["data"]["player"]] += f["data"]["amount"]
    assert sum(wins.values()) > 0 and txns(tstore, "jackpot_out") == sum(1 for v in wins.values() if v)
    d = game.director
    for p in game.players:  # balance change = jackpot + prize - stake, the jackpot apart from the prize
        assert tstore.ledger.balance(p, "EUR") - before[p] == wins[p] + d.results[p].prize - 1000
    stakes, contributed = tstore.twister.jackpot_progress("EUR")
    assert stakes == 3000 and sum(contributed) == sum(tstore.twister.jackpots("EUR").values()) + sum(wins.values())
    check_conserved(game, 100)


async def test_r_wild_1_2_all_in_every_hand_ticket_buys_the_next_twister(tstore: Store) -> None:
    """R-WILD-1/2/3, R-TOURN-GEN-2: in a Wild Twister every player is all-in automatically on every hand (no fold,
    the first voluntary action of each hand puts a whole stack in); the prize is a non-cashable Twister ticket of
    the drawn multiplier x EUR 0.50, and the winner uses it as the buy-in of the next Twister of that value."""
    game = await open_game(tstore, "wild", 50, tid="wild:w1", seed=9)
    await finish(game)
    d = game.director
    assert game.all_in and all(game.all_in)
    for _, events, _, _ in game.hands:
        assert not any(e["kind"] == "acted" and e["action"] == "fold" for e in events)
    winner = d.places()[0]
    mult = game.host.events("twister_spin")[0][2]["data"]["multiplier"]
    (ticket,) = tstore.tournaments.tickets(winner)
    assert (ticket.face_value, ticket.tournament_id) == (mult * 50, "twister:*")
    assert d.results[winner].prize == mult * 50 and txns(tstore, "t_prize") == 0
    # the ticket is the buy-in of the next Twister of its value (R-WILD-1)
    others = make_bots(tstore, 2, 10 * mult * 50, "EUR", prefix="next-")
    balance = tstore.ledger.balance(winner, "EUR")
    nxt = await open_game(tstore, "twister", mult * 50, tid="twister:after-wild", seed=10,
                          players=[winner, *others], ticket_ids={winner: ticket.id})
    await finish(nxt)
    assert tstore.tournaments.tickets(winner) == []
    assert tstore.ledger.balance(winner, "EUR") == balance + nxt.director.results[winner].prize
    check_conserved(game, 500)


async def test_r_wild_5_type_not_offered_is_refused() -> None:
    """R-WILD-5: which types a room offers is a setting; a Sit & Go of a type the room does not offer, or at a
    buy-in without a published table (R-TWIST-7), is refused."""
    with pytest.raises(TwisterError, match="does not offer"):
        twister_spec("wild", 50, settings=TwisterSettings(enabled_kinds=("twister", "aog")))
    with pytest.raises(TwisterError, match="no published"):
        twister_spec("twister", 300)


def test_r_twist_11_the_name_shows_the_buy_in_as_the_client_does() -> None:
    """R-TWIST-11 (the history row names the tournament): a play-money Twister is named in whole chips as the
    client shows play money ("100 chips", not "PLAY 1"), a real-money one in units and cents."""
    assert twister_spec("aog", 100, currency="PLAY").name == "Age of the Gods Twister 100 chips"
    assert twister_spec("twister", 10_000, currency="PLAY").name == "Twister 10,000 chips"
    assert twister_spec("wild", 50).name == "Wild Twister EUR 0.50"
    assert twister_spec("twister", 200).name == "Twister EUR 2"


async def test_r_tourn_int_9_interrupted_twister_below_threshold(tstore: Store) -> None:
    """R-TOURN-INT-9, INT-11(e): a EUR 1 Twister spun at 5x (random value 5000 of the 1-20 table) is interrupted
    before its first hand: pool 500; each gets the buy-in back (300) and the 200 left is split by chips (500
    each: 66 each, the 2 cents left to the first largest stack). Nothing stays in the pool."""
    game = await open_game(tstore, "twister", 100, tid="twister:int9", seed=11, rng=Values(5000), register=False)
    before = {p: tstore.ledger.balance(p, "EUR") for p in game.players}
    for p in game.players:
        await game.director.register(p)
    await game.host.clock.advance(1.0)  # spun, the first hand not dealt yet
    assert game.host.events("twister_spin")[0][2]["data"]["multiplier"] == 5
    result = await interrupt_twister(game.director)
    assert result.rule == "R-TOURN-INT-9" and result.from_house == 0
    paid = {int(k): v for k, v in result.payouts.items()}
    first = tstore.tournament_play.snapshot("twister:int9").entries[0].player_id  # listed first on the tie
    assert paid == {p: 100 + 66 + (2 if p == first else 0) for p in game.players}
    for p in game.players:
        assert tstore.ledger.balance(p, "EUR") - before[p] == paid[p] - 100
    assert tstore.tournament_play.snapshot("twister:int9").status == "interrupted"
    assert tstore.tournament_play.snapshot("twister:int9").prize_pool == 0
    game.host.clock.remove_settle_hook(game.director.quiesce)


async def test_r_tourn_int_10_interrupted_twister_from_threshold(tstore: Store) -> None:
    """R-TOURN-INT-10, INT-11(d/e): a 1000x EUR 1 Twister (pool 100,000) interrupted before the first hand: each
    gets 100 back, 10% of the 99,700 left (9,970) each, and the remaining 69,790 by chips (23,263 each, the 1 cent
    left to the first largest stack): 33,333 each and one more for the first."""
    game = await open_game(tstore, "twister", 100, tid="twister:int10", seed=12, rng=Values(0))
    await game.host.clock.advance(1.0)
    result = await interrupt_twister(game.director)
    assert result.rule == "R-TOURN-INT-10"
    assert sorted(result.payouts.values()) == [33_333, 33_333, 33_334] and result.from_house == 0
    assert tstore.tournament_play.snapshot("twister:int10").prize_pool == 0
    game.host.clock.remove_settle_hook(game.director.quiesce)


async def test_r_tourn_int_9_interrupted_wild_twister_pays_its_share_in_tickets(tstore: Store) -> None:
    """R-TOURN-INT-9 / INT-11(e) with the Wild Twister reading (docs/twister.md; R-TOURN-GEN-2, R-WILD-1): a EUR 0.50
    Wild Twister whose deck gives 100x (prize EUR 50 = 5,000, a Twister ticket) is interrupted before its first hand.
    By hand: each gets the 50 buy-in back in cash; the 4,850 left is split by chips (500 each): 1,616 each, the 2
    cents to the first listed; each share is paid in Twister tickets of the published buy-ins, largest first
    (1,618 -> 1,000 + 500 + 100; 1,616 -> 1,000 + 500 + 100); the residues 18 + 16 + 16 = 50 make no ticket and go
    back to the house with the pool. No share becomes cash; a ticket then buys into a EUR 5 Twister."""
    from riverboat.room.twister.interrupt import in_tickets, ticket_values

    assert ticket_values() == (100, 200, 500, 1_000, 2_000, 5_000, 10_000)
    game = await open_game(tstore, "wild", 50, tid="wild:int9", seed=13, rng=Values(0), register=False)
    before = {p: tstore.ledger.balance(p, "EUR") for p in game.players}
    for p in game.players:
        await game.director.register(p)
    await game.host.clock.advance(1.0)  # spun, the first hand not dealt yet
    assert game.host.events("twister_spin")[0][2]["data"]["multiplier"] == 100
    result = await interrupt_twister(game.director)
    first = tstore.tournament_play.snapshot("wild:int9").entries[0].player_id
    assert result.rule == "R-TOURN-INT-9" and result.from_house == 0
    assert {int(k): v for k, v in result.payouts.items()} == {p: 50 + (1_618 if p == first else 1_616)
                                                             for p in game.players}
    assert {int(k): v for k, v in result.tickets.items()} == {p: [1_000, 500, 100] for p in game.players}
    for p in game.players:
        assert tstore.ledger.balance(p, "EUR") == before[p]  # the 50 back in cash, nothing more in cash
        owned = tstore.tournaments.tickets(p)
        assert sorted(t.face_value for t in owned) == [100, 500, 1_000]
        assert {t.tournament_id for t in owned} == {"twister:*"}
    snap = tstore.tournament_play.snapshot("wild:int9")
    assert snap.status == "interrupted" and snap.prize_pool == 0
    notes = [f for _, _, f in game.host.events("interrupted")]
    assert sorted(n["data"]["tickets"] for n in notes) == [[1_000, 500, 100]] * 3
    assert all(n["data"]["paid"] == 50 for n in notes)
    assert in_tickets({"a": 1_618, "b": 1_616, "c": 1_616}, ticket_values(), "a") == (
        {"a": [1_000, 500, 100], "b": [1_000, 500, 100], "c": [1_000, 500, 100]}, 50)
    assert in_tickets({"a": 90, "b": 60, "c": 55}, ticket_values(), "b") == ({"a": [], "b": [200], "c": []}, 5)
    ticket = next(t for t in tstore.tournaments.tickets(first) if t.face_value == 500)
    tstore.twister.create("twister:five", "twister", 500)
    tstore.tournaments.register(first, "twister:five", "wild-int-ticket", ticket_id=ticket.id)
    assert tstore.tournaments.registered("twister:five") == [first]
    tstore.tournaments.cancel("twister:five")  # the ticket comes back as a ticket (R-TOURN-GEN-2)
    game.host.clock.remove_settle_hook(game.director.quiesce)
