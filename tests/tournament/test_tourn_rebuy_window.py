"""The re-buy decision window of a busted human (R-TOURN-REBUY-3 reading, issue #11 item 8): a player who busts
during the re-buy period gets ``decision_seconds`` to re-buy (a ``rebuy_offer`` frame tells them); their place is
fixed only when they decline or the time runs out. Heads-up Sit & Go's on a FakeClock with a real store: the human
plays through the frames the director sends them (all-in or call whenever ``legal`` is offered), the opponent is
an in-process bot that always shoves (and re-buys at once, as bots do). Every frame sent validates against the
protocol models (docs/protocol.md); the ledger is verified by the fixture."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.errors import RoomError
from riverboat.room.gateway import StoreGateway
from riverboat.room.move import Move
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.lifecycle import Status
from riverboat.room.tournament.simulate import make_bots
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.server import protocol
from riverboat.store import AccountKey, IdempotentReplay, Store

DECIDE = 20.0
SPEC = {"name": "Rebuy HU", "kind": "sng", "seats": 2, "min_entrants": 2, "buy_in": 1000, "fee": 100,
        "starting_stack": 1000, "payout": "sng", "level_seconds": 600,
        "levels": [{"small_blind": 50, "big_blind": 100}],
        "rebuy": {"period_levels": 5, "price": 1000, "chips": 1000, "fee": 100, "max_rebuys": 3,
                  "decision_seconds": DECIDE},
        "settings": {"between_hands_seconds": 0.0}}


class HumanHost:
    """The room side: a fake clock, a seeded deck, the store inline; the human plays from their frames."""

    def __init__(self, clock: FakeClock, gateway: StoreGateway, human: int, seed: int) -> None:
        self.clock = clock
        self.rng = seeded_rng(seed)
        self.gateway = gateway
        self.human = human
        self.frames: list[dict[str, Any]] = []
        self.director: Director | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    def is_connected(self, player_id: int) -> bool:
        return player_id == self.human

    def send_many(self, player_ids: list[int], message: Any) -> None:
        for pid in player_ids:
            self.send(pid, message)

    def send(self, player_id: int, message: Any) -> None:
        protocol.validate_server_frame({"v": 1, **message})
        if player_id != self.human:
            return
        self.frames.append(message)
        data = message.get("data") or {}
        hand = data.get("hand") if message.get("event") == "state" else None
        legal = hand.get("legal") if isinstance(hand, dict) else None
        if legal and legal.get("seat") == data.get("seat") and self.director is not None:
            kinds = legal["kinds"]
            kind, amount = (("raise", legal["max_to"]) if "raise" in kinds else ("bet", legal["max_to"])
                            if "bet" in kinds else ("call", None) if "call" in kinds else ("check", None))
            task = asyncio.get_running_loop().create_task(self._act(kind, amount))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _act(self, kind: str, amount: int | None) -> None:
        assert self.director is not None
        with contextlib.suppress(RoomError):  # the deal's state and the turn's may both offer the same decision
            await self.director.act(self.human, Move.parse(kind, amount))

    def events(self, name: str) -> list[dict[str, Any]]:
        return [f["data"] for f in self.frames if f.get("type") == "tournament" and f.get("event") == name]


async def _until_offer(director: Director, host: HumanHost, clock: FakeClock) -> None:
    """Play until the human busts and is offered the re-buy."""
    for _ in range(400):
        if host.events("rebuy_offer"):
            return
        await clock.advance(0.5)
    raise AssertionError(f"the human was never offered a re-buy (results: {director.results})")


async def _start(store: Store, seed: int) -> tuple[Director, HumanHost, FakeClock, int, int]:
    clock = FakeClock()
    human, bot = make_bots(store, 2, 20_000, "EUR", prefix=f"rw{seed}")
    host = HumanHost(clock, StoreGateway(store, inline=True), human, seed)
    director = Director(host, f"rw-{seed}", TournamentSpec.from_dict(SPEC),
                        bots={bot: ShoveBot(random.Random(seed), shove=1.0, call=1.0)}, seed=seed)
    host.director = director
    clock.add_settle_hook(director.quiesce)
    await director.open()
    await director.register(human)
    await director.register(bot)
    return director, host, clock, human, bot


async def test_r_tourn_rebuy_3_busted_human_is_ranked_only_when_the_window_ends(sqlite_store: Store) -> None:
    """R-TOURN-REBUY-3, R-TOURN-GEN-5/6: the busted human is told (rebuy_offer: seconds, price, fee, chips); for
    the whole window they keep their seat, are not ranked and nothing is paid, and the table does not deal; when
    the time runs out they finish 2nd and the bot wins the whole pool (winner takes all heads-up) at once."""
    director, host, clock, human, bot = await _start(sqlite_store, seed=3)
    try:
        await _until_offer(director, host, clock)
        offer = host.events("rebuy_offer")[0]
        assert offer == {"seconds": DECIDE, "price": 1000, "fee": 100, "chips": 1000, "currency": "EUR",
                         "rule": "R-TOURN-REBUY-3"}
        state = host.events("state")[-1]
        assert state["rebuy"] is True and state["seat"] is not None  # the page shows the Re-buy button
        hands = director.stats.hands
        await clock.advance(DECIDE - 1)
        assert human not in director.results and director.status is Status.RUNNING
        assert director.stats.hands == hands  # nobody else has chips to play against: the table waits
        snap = sqlite_store.tournament_play.snapshot(director.id)
        assert all(e.place is None for e in snap.entries)
        await clock.advance(1.5)
        assert director.results[human].place == 2 and director.results[bot].place == 1
        assert host.events("finished")[-1] == {"place": 2, "place_to": 2, "prize": 0}
        assert director.status is Status.FINISHED
        with_rebuys = 2000 + 1000 * sum(e.rebuys for e in snap.entries)
        assert director.results[bot].prize == director.prize_pool == with_rebuys
        fees = 100 * (2 + sum(e.rebuys for e in snap.entries))
        assert sqlite_store.ledger.account_balance(AccountKey.fees("EUR")) == fees
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()


async def test_r_tourn_rebuy_3_rebuy_in_the_window_then_decline_fixes_the_place(sqlite_store: Store) -> None:
    """R-TOURN-REBUY-3: a re-buy inside the window puts the human back in play (chips, pool and a t_rebuy ledger
    entry; the table deals again); at the next bust they decline (tournament_decline_rebuy) and are ranked at
    once, before the window would end. A decline with no offer is refused and changes nothing."""
    director, host, clock, human, bot = await _start(sqlite_store, seed=5)
    try:
        try:
            await director.decline_rebuy(human)
            raise AssertionError("a decline without an offer was accepted")
        except RoomError as exc:
            assert exc.code == "rebuy_closed"
        await _until_offer(director, host, clock)
        pool = director.prize_pool
        await clock.advance(DECIDE / 2)
        ack = await director.rebuy(human)
        assert ack["chips"] == 1000 and director.prize_pool == pool + 1000
        assert director.entrants_by_id[human].rebuys == 1 and human not in director.results
        offers = len(host.events("rebuy_offer"))
        for _ in range(400):  # play on until the human busts again
            if len(host.events("rebuy_offer")) > offers:
                break
            await clock.advance(0.5)
        assert len(host.events("rebuy_offer")) == offers + 1, "the human never busted again"
        assert human not in director.results
        await director.decline_rebuy(human)
        assert director.results[human].place == 2 and director.status is Status.FINISHED
        assert host.events("finished")[-1]["place"] == 2
        try:
            await director.rebuy(human)
            raise AssertionError("a re-buy after the decline was accepted")
        except RoomError as exc:
            assert exc.code == "not_registered"
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()


async def test_r_tourn_rebuy_3_a_bust_from_above_the_rebuy_limit_is_offered_the_rebuy_too(sqlite_store: Store) -> None:
    """R-TOURN-REBUY-3 reading, R-TOURN-MTT-4: a human who busts from a stack above the re-buy limit (here 2,000
    after the bot's bust and re-buy; the limit is the starting 1,000) is out of chips all the same: they get the
    window, and the pool does not become final (the money is not reached while they may still re-buy)."""
    director, host, clock, human, bot = await _start(sqlite_store, seed=1)
    try:
        await _until_offer(director, host, clock)
        frames = [f for f in host.frames if f.get("type") == "tournament"]
        at = next(i for i, f in enumerate(frames) if f["event"] == "rebuy_offer")
        dealt = next(f["data"] for f in reversed(frames[:at]) if f["event"] == "state" and f["data"]["hand"])
        start = next(s["stack"] for s in dealt["seats"] if s["player"] == human)
        assert start > 1000, f"the human busted from {start}: not the case this test is for"
        assert director.entrants_by_id[bot].rebuys >= 1 and not director.pool_final
        assert human not in director.results
        await director.rebuy(human)
        assert director.entrants_by_id[human].chips == 1000 and director.entrants_by_id[human].rebuys == 1
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()


async def test_issue_29_a_money_command_repeated_with_its_key_moves_no_money(sqlite_store: Store) -> None:
    """Issue #29 (idempotency keys from the frame id), R-TOURN-REBUY-3, R-WALLET-5: register and re-buy take the
    command's idempotency key; the same key again (the reply cache forgot it) is refused with ``id_reused`` and
    moves nothing: one ledger entry, one re-buy, no chips added."""
    clock = FakeClock()
    human, bot = make_bots(sqlite_store, 2, 20_000, "EUR", prefix="idem")
    host = HumanHost(clock, StoreGateway(sqlite_store, inline=True), human, 5)
    director = Director(host, "idem-5", TournamentSpec.from_dict(SPEC),
                        bots={bot: ShoveBot(random.Random(5), shove=1.0, call=1.0)}, seed=5)
    host.director = director
    clock.add_settle_hook(director.quiesce)
    await director.open()
    try:
        await director.register(human, idem_key=f"{human}:f1")
        balance = sqlite_store.ledger.balance(human, "EUR")
        await director.unregister(human)
        try:
            await director.register(human, idem_key=f"{human}:f1")
            raise AssertionError("a register repeated with its key was accepted")
        except RoomError as exc:
            assert exc.code == "id_reused"
        assert sqlite_store.ledger.balance(human, "EUR") == balance + 1100  # refunded, not charged again
        await director.register(human, idem_key=f"{human}:f2")
        await director.register(bot)
        await _until_offer(director, host, clock)
        pool = director.prize_pool
        ack = await director.rebuy(human, idem_key=f"{human}:f3")
        assert ack["chips"] == 1000 and director.prize_pool == pool + 1000
        try:
            await director.rebuy(human, idem_key=f"{human}:f3")
            raise AssertionError("a re-buy repeated with its key was accepted")
        except RoomError as exc:
            assert exc.code in ("id_reused", "rebuy_closed")  # (a new hand may have been dealt already)
        try:  # the key reaches the ledger: the store itself refuses it again
            sqlite_store.tournaments.pay_in(human, director.id, 1000, 100, f"t_rebuy:{director.id}:{human}:{human}:f3",
                                            kind="rebuy", once=True)
            raise AssertionError("the ledger accepted a used re-buy key")
        except IdempotentReplay:
            pass
        assert director.entrants_by_id[human].rebuys == 1
        mine = next(e for e in sqlite_store.tournament_play.snapshot(director.id).entries if e.player_id == human)
        assert mine.rebuys == 1  # the store counted one re-buy: one t_rebuy ledger entry
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()
