"""What a tournament player's client is told (issue #11 item 8), on a FakeClock with a real store: the table
balancing message and the follow-up view of the new table (R-TOURN-BAL-3), and the HUD of the ``state`` frame
(level, blinds, the time to the next level counted from the level clock, players left, average stack, the
player's place by chips). An MTT of four on tables of three starts on two tables of two; the operator disqualifies
one player (the scripted elimination, R-INTEG-5); the three left fit one table, so the other player of that table
is moved. Every frame validates against the protocol models; the ledger is verified by the fixture."""

from __future__ import annotations

import asyncio
from typing import Any

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.gateway import StoreGateway
from riverboat.room.move import Move
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.simulate import make_bots
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.server import protocol
from riverboat.store import Store

START = 1_800_000_000.0
MTT = {"name": "Frames MTT", "kind": "mtt", "seats": 3, "min_entrants": 4, "max_entrants": 4, "buy_in": 1000,
       "fee": 100, "starting_stack": 1500, "level_seconds": 300, "payout": "mtt",
       "levels": [{"small_blind": 25, "big_blind": 50}, {"small_blind": 50, "big_blind": 100}],
       "settings": {"between_hands_seconds": 1.0}}


class Players:
    """The room side for four human players who act from their frames: check, else fold (nobody busts)."""

    def __init__(self, clock: FakeClock, gateway: StoreGateway) -> None:
        self.clock = clock
        self.rng = seeded_rng(7)
        self.gateway = gateway
        self.frames: dict[int, list[dict[str, Any]]] = {}
        self.director: Director | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    def is_connected(self, player_id: int) -> bool:
        return True

    def send_many(self, player_ids: list[int], message: Any) -> None:
        for pid in player_ids:
            self.send(pid, message)

    def send(self, player_id: int, message: Any) -> None:
        protocol.validate_server_frame({"v": 1, **message})
        if message.get("type") != "tournament":
            return
        self.frames.setdefault(player_id, []).append(message)
        data = message["data"]
        hand = data.get("hand") if message["event"] == "state" else None
        legal = hand.get("legal") if isinstance(hand, dict) else None
        if legal and legal["seat"] == data["seat"] and self.director is not None:
            kind = "check" if "check" in legal["kinds"] else "fold"
            task = asyncio.get_running_loop().create_task(self.director.act(player_id, Move.parse(kind)))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def events(self, pid: int, name: str) -> list[dict[str, Any]]:
        return [f["data"] for f in self.frames.get(pid, []) if f["event"] == name]


def _four_player_mtt(store: Store, prefix: str) -> tuple[FakeClock, Players, list[int], Director]:
    """The MTT of four (``MTT``) starting in 60 s on a fake clock, its players acting from their frames."""
    clock = FakeClock(wall_start=START)
    host = Players(clock, StoreGateway(store, inline=True))
    players = make_bots(store, 4, 20_000, "EUR", prefix=prefix)
    spec = TournamentSpec.from_dict(MTT | {"starts_at": clock.wall() + 60})
    director = Director(host, f"{prefix}-mtt", spec, seed=3)
    host.director = director
    clock.add_settle_hook(director.quiesce)
    return clock, host, players, director


async def test_r_tourn_bal_3_the_moved_player_is_told_and_shown_the_new_table(sqlite_store: Store) -> None:
    """R-TOURN-BAL-3/5/6/7, R-INTEG-5: the moved player gets ``moved`` (new table and seat, the table it left,
    broken) and right after it a ``state`` of the new table with them in that seat, everyone there and the HUD;
    the others are told the final table."""
    clock, host, players, director = _four_player_mtt(sqlite_store, "pf")
    op = sqlite_store.accounts.register("pf_operator", "password-pf", role="operator").id
    try:
        await director.open()
        for pid in players:
            await director.register(pid)
        await clock.advance(61)
        assert director.status.value == "running" and len(director.tables) == 2
        first = {pid: host.events(pid, "started")[0] for pid in players}
        hud = host.events(players[0], "state")[0]
        assert (hud["level"], hud["small_blind"], hud["big_blind"], hud["players_left"], hud["entrants"],
                hud["average_stack"]) == (1, 25, 50, 4, 4, 1500)
        assert 0 < hud["seconds_left"] <= 300 and hud["on_break"] is False and hud["rank"] == 1
        gone = players[0]
        stays = next(p for p in players[1:] if first[p]["table"] == first[gone]["table"])
        others = {first[p]["table"] for p in players if p not in (gone, stays)}
        assert len(others) == 1
        target = others.pop()
        await director.actor.submit(lambda: director.disqualify_now(gone, op))
        for _ in range(200):
            if host.events(stays, "moved"):
                break
            await clock.advance(0.5)
        moved = host.events(stays, "moved")
        assert len(moved) == 1, "the player of the broken table was not moved"
        m = moved[0]
        assert m["table"] == target and m["from_table"] == first[stays]["table"] and m["broken"] is True
        assert m["rule"] == "R-TOURN-BAL-3"
        frames = host.frames[stays]
        after = frames[frames.index(next(f for f in frames if f["event"] == "moved")) + 1]
        assert after["event"] == "state" and after["data"]["table"] == target and after["data"]["seat"] == m["seat"]
        seated = {s["player"]: s["seat"] for s in after["data"]["seats"]}
        assert seated[stays] == m["seat"] and len(seated) == 3 and gone not in seated
        assert after["data"]["players_left"] == 3
        director.check_seating()
        assert host.events(stays, "final_table") == [{"players": 3}]
        assert host.events(gone, "disqualified") == [{"rule": "R-INTEG-5"}]
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()


async def test_r_tourn_free_1_the_lobby_shows_a_freeroll_pool_before_the_start(sqlite_store: Store) -> None:
    """R-TOURN-FREE-1, R-TOURN-GEN-4, R-FEE-1: a freeroll's lobby row and detail show the pool the room adds (and
    the payouts of it for the minimum field) before anyone plays; once it starts the pool is the same, counted
    once; the detail lists the entrants by alias, the structure and no fee."""
    from riverboat.room.tournament.lobby import TournamentLobby, entry

    clock = FakeClock(wall_start=START)
    host = Players(clock, StoreGateway(sqlite_store, inline=True))
    lobby = TournamentLobby(host)
    spec = TournamentSpec.from_dict({"name": "Free 3", "kind": "sng", "seats": 3, "min_entrants": 3,
                                     "added_prize": 6000, "currency": "PLAY", "starting_stack": 1500,
                                     "payout": "sng", "levels": [{"small_blind": 10, "big_blind": 20}]})
    d = await lobby.create(spec, "free3")
    host.director = d
    clock.add_settle_hook(d.quiesce)
    try:
        before = lobby.detail("free3")
        assert (before["prize_pool"], before["buy_in"], before["fee"], before["payouts"]) == (6000, 0, 0, [3900, 2100])
        assert before["overlay"] == 0 and before["rebuy"] is None and before["limit"] == "NL"
        assert before["structure"]["levels"][0]["big_blind"] == 20
        players = make_bots(sqlite_store, 3, 0, "PLAY", prefix="fr")
        for pid in players[:2]:
            await d.register(pid)
        assert [e["player"] for e in lobby.detail("free3")["entrant_list"]] == players[:2]
        await d.register(players[2])  # full: it starts
        assert d.status.value == "running" and entry(d)["prize_pool"] == 6000 and d.pool_collected == 6000
    finally:
        clock.remove_settle_hook(d.quiesce)
        await lobby.close()


async def test_hand_for_hand_rounds_pause_between_hands_and_deal_every_table_together(sqlite_store: Store) -> None:
    """R-TOURN-GEN-6 reading, hand-for-hand (docs/tournaments.md): four players on two tables of two with two places
    paid could all bust in one round, so hand-for-hand play starts with the tournament (``hand_for_hand`` on). Each
    round deals both tables together, after the pause between hands (1 s here): players who never bust play about
    one round a second, not (as before) endless hands at one instant of the clock."""
    clock, host, players, director = _four_player_mtt(sqlite_store, "hh")
    try:
        await director.open()
        for pid in players:
            await director.register(pid)
        await asyncio.wait_for(clock.advance(61), 60)
        assert director.paid_places() == 2 and len(director.tables) == 2
        assert host.events(players[0], "hand_for_hand") == [{"on": True}]
        hands0, rounds0 = director.stats.hands, director.stats.hand_for_hand_rounds
        for _ in range(20):
            await asyncio.wait_for(clock.advance(0.5), 60)
        rounds = director.stats.hand_for_hand_rounds - rounds0
        assert 8 <= rounds <= 11, rounds  # one round per second of the clock (plus the one dealt at a boundary)
        assert director.stats.hands - hands0 == 2 * rounds  # every round deals both tables
        assert director.alive == 4
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()
