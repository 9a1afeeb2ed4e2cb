"""Issue #36: rules the room accepted but did not keep in tournaments, each shown with a real director and store on
a FakeClock: disconnection (R-DISC-1/2, R-TOURN-DISC-1), the voluntary sit-out (R-SITOUT-1/2), bounties on view
(R-TOURN-KO-1, R-TOURN-PKO-1..3), the table settings' readings (R-TOURN-GEN-7, RULES.md section 27) and the mixed
game's rotation by orbit (R-HORSE-3). Every frame sent validates against the protocol models; the ledger is verified
by the fixture."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from riverboat.cards import seeded_rng
from riverboat.engine import ActionKind
from riverboat.games import get_game
from riverboat.room.clock import FakeClock
from riverboat.room.deal import engine_settings, table_game
from riverboat.room.errors import RoomError
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver
from riverboat.room.move import Move
from riverboat.room.settings import TableSettings
from riverboat.room.timers import Phase
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.lobby import TournamentLobby
from riverboat.room.tournament.simulate import make_bots
from riverboat.room.tournament.spec import SpecError, TournamentSpec
from riverboat.server import protocol
from riverboat.store import Store

HU = {"name": "Rules HU", "kind": "sng", "seats": 2, "min_entrants": 2, "buy_in": 1000, "fee": 100,
      "starting_stack": 2000, "payout": "sng", "level_seconds": 3600,
      "levels": [{"small_blind": 10, "big_blind": 20}], "settings": {"between_hands_seconds": 1.0}}


class Host:
    """The room side: a fake clock, a seeded deck, the store inline; presence is the ``connected`` set; every frame
    is validated and kept per player."""

    def __init__(self, clock: FakeClock, store: Store, connected: set[int], seed: int = 3) -> None:
        self.clock = clock
        self.rng = seeded_rng(seed)
        self.gateway = StoreGateway(store, inline=True)
        self.connected = connected
        self.frames: dict[int, list[dict[str, Any]]] = {}

    def is_connected(self, player_id: int) -> bool:
        return player_id in self.connected

    def send(self, player_id: int, message: Any) -> None:
        protocol.validate_server_frame({"v": 1, **message})
        self.frames.setdefault(player_id, []).append(message)

    def send_many(self, player_ids: list[int], message: Any) -> None:
        for pid in player_ids:
            self.send(pid, message)

    def events(self, pid: int, name: str) -> list[dict[str, Any]]:
        return [f["data"] for f in self.frames.get(pid, []) if f.get("type") == "tournament" and f["event"] == name]


def _lobby(store: Store, connected: set[int], bots: dict[int, Any]) -> tuple[TournamentLobby, Host, FakeClock]:
    clock = FakeClock()
    host = Host(clock, store, connected)
    lob = TournamentLobby(host, bots=bots)

    async def settle() -> None:
        for d in list(lob.directors.values()):
            await d.quiesce()

    clock.add_settle_hook(settle)
    return lob, host, clock


def _turn(d: Director, pid: int) -> HandDriver | None:
    """The hand driver waiting for ``pid``'s decision, if it is their turn now."""
    e = d.entrants_by_id.get(pid)
    table = d.tables.get(e.table_id or "") if e is not None else None
    driver = table.driver if table is not None else None
    if driver is None or e is None or driver.decision is None or driver.hand.to_act != e.seat:
        return None
    return driver


async def _until(clock: FakeClock, done: Any, step: float = 0.5, limit: int = 2000) -> None:
    for _ in range(limit):
        if done():
            return
        await clock.advance(step)
    raise AssertionError("the awaited moment never came")


async def test_r_disc_1_2_disconnected_in_turn_reconnect_window_then_folded_and_dealt_in_away(
        sqlite_store: Store) -> None:
    """R-DISC-1, R-DISC-2, R-TOURN-DISC-1: the human bets, then drops during their own turn (the server's
    disconnect reaches the tournament: ``TournamentLobby.disconnected``): the turn switches to the 30 s reconnect
    window (not the 20 s action timer): still to act after 25 s, checked or folded at 30 s. The next hands they
    are dealt in while away and checked or folded at once, keeping paying blinds; back (``connected``), they
    decide again."""
    human, bot = make_bots(sqlite_store, 2, 20_000, "EUR", prefix="disc")
    lob, host, clock = _lobby(sqlite_store, {human}, {bot: ShoveBot(random.Random(1), shove=0.0, call=1.0)})
    d = await lob.create(TournamentSpec.from_dict(HU), "disc")
    await d.register(human)
    await d.register(bot)
    seat = None
    for _ in range(4000):  # act until the human has bet in the hand and it is their turn again
        driver = _turn(d, human)
        if driver is not None:
            seat = d.entrants_by_id[human].seat
            if seat in driver.has_bet:
                break
            kinds = driver.hand.legal_actions().kinds
            if ActionKind.CALL in kinds:
                await d.act(human, Move.parse("call"))
            else:
                await d.act(human, Move.parse("bet" if ActionKind.BET in kinds else "raise",
                            driver.hand.legal_actions().min_to))
            continue
        await clock.advance(0.5)
    driver = _turn(d, human)
    assert driver is not None and seat in driver.has_bet, "the human never had a turn after betting"
    host.connected.discard(human)
    lob.disconnected(human)
    await clock.advance(0)
    timer = driver.decision
    assert timer is not None and timer.phase is Phase.RECONNECT
    assert timer.deadline == pytest.approx(timer.turn_started + 30.0)  # R-DISC-1, R-TIME-5
    hand_id = driver.hand_id
    await clock.advance(25)  # past the 20 s action timer: still their decision
    assert _turn(d, human) is driver and driver.hand_id == hand_id
    await clock.advance(6)
    assert driver.decision is not timer  # checked or folded for them at the window's end
    last = [e for e in driver.hand.events if e.kind == "acted" and e.seat == seat][-1]
    assert last.data["action"] in ("check", "fold")
    played: list[HandDriver] = []
    ended: list[float] = []
    d.on_hand = lambda _d, _table, drv: (played.append(drv), ended.append(clock.now()))
    d.bots[bot] = ShoveBot(random.Random(2), shove=1.0)  # from now on the bot bets every hand
    await _until(clock, lambda: len([h for h in played if h.hand_id != hand_id]) >= 4)
    for drv in [h for h in played if h.hand_id != hand_id][:4]:  # dealt in while away (R-DISC-2)
        assert seat in drv.players
        acts = [e.data["action"] for e in drv.hand.events if e.kind == "acted" and e.seat == seat]
        assert acts and set(acts) <= {"check", "fold"}, acts
        start = drv.hand.start_stacks[drv.hand.seats.index(seat)]
        assert drv.hand.result is not None and drv.hand.result.stacks[seat] < start  # the blind paid, folded
    assert d.entrants_by_id[human].away
    away = [t for h, t in zip(played, ended, strict=True) if h.hand_id != hand_id][:4]
    assert away[-1] - away[0] < 3 * 5.0  # folded at once: no 20 s timer ran in those hands
    host.connected.add(human)
    await lob.connected(human)
    assert not d.entrants_by_id[human].away
    await _until(clock, lambda: _turn(d, human) is not None)  # back: they decide again
    await lob.close()


async def test_r_sitout_1_2_a_voluntary_sit_out_is_blinded_away_and_returns(sqlite_store: Store) -> None:
    """R-SITOUT-1/2, R-BLIND-4: a connected player sits out (``sit_out``): they stay seated and are dealt in,
    pay their blinds and are folded at once (their stack only shrinks, the table never waits for them, the
    state says ``sitting_out`` and every seat view shows them ``away``); sitting back in, they decide again."""
    human, bot = make_bots(sqlite_store, 2, 20_000, "EUR", prefix="sito")
    lob, host, clock = _lobby(sqlite_store, {human}, {bot: ShoveBot(random.Random(1), shove=1.0)})
    d = await lob.create(TournamentSpec.from_dict(HU), "sito")
    await d.register(human)
    await d.register(bot)
    await _until(clock, lambda: d.tables and any(t.driver for t in d.tables.values()))
    out = await lob.sit_out("sito", human, True)
    assert out == {"tournament": "sito", "sitting_out": True}
    state = host.events(human, "state")[-1]
    assert state["sitting_out"] is True
    assert any(s.get("away") for s in state["seats"] if s["player"] == human)
    start = d.entrants_by_id[human].chips
    hands = d.stats.hands
    for _ in range(200):
        assert _turn(d, human) is None
        if d.stats.hands >= hands + 6:
            break
        await clock.advance(0.5)
    assert d.stats.hands >= hands + 6, "the table stopped dealing"
    assert d.entrants_by_id[human].chips < start  # blinded away, never more
    back = await lob.sit_out("sito", human, False)
    assert back["sitting_out"] is False and host.events(human, "state")[-1]["sitting_out"] is False
    await _until(clock, lambda: _turn(d, human) is not None)
    with pytest.raises(Exception) as refused:  # a player not in the tournament cannot sit out of it
        await lob.sit_out("sito", 999_999, True)
    assert getattr(refused.value, "code", None) == "not_registered"
    await lob.close()


class Shovers(Host):
    """Six human players who act from their frames: all-in when they may bet or raise, else call or check."""

    def __init__(self, clock: FakeClock, store: Store, connected: set[int]) -> None:
        super().__init__(clock, store, connected, seed=11)
        self.director: Director | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    def send(self, player_id: int, message: Any) -> None:
        super().send(player_id, message)
        data = message.get("data") or {}
        hand = data.get("hand") if message.get("event") == "state" else None
        legal = hand.get("legal") if isinstance(hand, dict) else None
        if legal and legal.get("seat") == data.get("seat") and self.director is not None:
            kinds = legal["kinds"]
            kind, amount = (("raise", legal["max_to"]) if "raise" in kinds else ("bet", legal["max_to"])
                            if "bet" in kinds else ("call", None) if "call" in kinds else ("check", None))
            task = asyncio.get_running_loop().create_task(self._act(player_id, kind, amount))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _act(self, pid: int, kind: str, amount: int | None) -> None:
        assert self.director is not None
        with contextlib.suppress(RoomError):  # the deal's state and the turn's may both offer the same decision
            await self.director.act(pid, Move.parse(kind, amount))


async def test_r_tourn_pko_2_bounties_are_seen_by_every_player_and_in_the_lobby_and_match_the_awards(
        sqlite_store: Store) -> None:
    """R-TOURN-KO-1, R-TOURN-PKO-1/2/3: in a progressive knockout Sit & Go of six, every player's ``state`` shows
    each seated player's bounty; the lobby row names the starting bounty and the detail every player's bounty now;
    the table is told each bounty paid (``bounty``, to every player there), the bounties shown grow by what was
    added, the sum told equals the bounty payments of the ledger, and each player's ``finished`` and results carry
    the bounties they won."""
    players = make_bots(sqlite_store, 6, 20_000, "EUR", prefix="pko")
    clock = FakeClock()
    host = Shovers(clock, sqlite_store, set(players))
    lob = TournamentLobby(host)
    spec = TournamentSpec.from_dict({**HU, "name": "PKO six", "seats": 6, "min_entrants": 6,
                                     "starting_stack": 1000, "knockout": {"bounty": 400, "progressive": True}})
    d = await lob.create(spec, "pko")
    host.director = d
    clock.add_settle_hook(d.quiesce)
    for p in players:
        await d.register(p)
    row = next(e for e in lob.lobby()["sng"] if e["id"] == "pko")
    assert row["knockout"] is True and row["bounty"] == 400 and row["progressive"] is True
    await _until(clock, lambda: d.status.value == "running")
    detail = lob.detail("pko")
    assert sorted(p["bounty"] for t in detail["tables"] for p in t["players"]) == [400] * 6
    await _until(clock, lambda: d.done.is_set(), limit=20_000)
    told: dict[tuple[str, int, int], dict[str, Any]] = {}
    for pid in players:
        for ev in host.events(pid, "bounty"):
            told[(ev["hand_id"], ev["player"], ev["busted"])] = ev
        for st in host.events(pid, "state"):
            assert all("bounty" in s for s in st["seats"]), "a seat without its bounty"
    assert told, "no bounty was announced"
    # all the bounty money (6 x 400) was paid: knockouts' cash parts and the winner's own (grown) bounty
    assert sum(ev["cash"] for ev in told.values()) == 6 * 400
    assert sqlite_store.tournament_play.snapshot("pko").bounty_pool == 0
    for ev in told.values():
        if ev["added"] and ev["busted"] != ev["player"]:
            assert ev["bounty"] >= 400 + ev["added"]  # PKO-1: the eliminator's own bounty grew
    for (_hand, winner, busted), ev in told.items():
        seen_by = [pid for pid in players if ev in host.events(pid, "bounty")]
        assert busted in seen_by and (winner in seen_by)
    results = {r["player"]: r for r in lob.detail("pko")["results"]}
    for pid in players:
        won = sum(ev["cash"] for ev in told.values() if ev["player"] == pid)
        assert results[pid]["bounties"] == won
        assert host.events(pid, "finished")[-1]["bounties"] == won
    await lob.close()


READINGS = [  # (game, a table setting of RULES.md section 27, what it must change in the engine's hand)
    ("holdem", {"muck_losers": False}, lambda h: h.settings.muck_losers is False),
    ("holdem", {"odd_chip": "shown_first"}, lambda h: h.settings.odd_chip is not None),
    ("stud", {"stud_community_betting": False}, lambda h: h.settings.stud_community_betting is False),
    ("draw5", {"post_draw_first": "left_of_big_blind"}, lambda h: h.game != get_game("draw5")),
    ("draw32", {"thirty_two_ties": "split"}, lambda h: h.game != get_game("draw32")),
]


async def _first_hand(store: Store, prefix: str, spec: dict[str, Any]) -> tuple[Director, HandDriver]:
    players = make_bots(store, 3, 20_000, "EUR", prefix=prefix)
    lob, _host, clock = _lobby(store, set(players), {p: ShoveBot(random.Random(p), shove=0.0, call=1.0)
                                                     for p in players})
    d = await lob.create(TournamentSpec.from_dict(spec), prefix)
    played: list[HandDriver] = []
    d.on_hand = lambda _d, _t, drv: played.append(drv)
    for p in players:
        await d.register(p)
    await _until(clock, lambda: bool(played))
    await lob.close()
    return d, played[0]


@pytest.mark.parametrize(("game", "setting", "changed"), READINGS, ids=[next(iter(s)) for _, s, _ in READINGS])
async def test_r_tourn_gen_7_each_reading_changes_a_tournament_hand_as_a_cash_hand(
        sqlite_store: Store, game: str, setting: dict[str, Any], changed: Any) -> None:
    """R-TOURN-GEN-7, RULES.md section 27 (C-2, C-6/7, C-14, R-SHOW-4, U-13): a tournament whose table settings
    choose a reading deals hands with exactly the engine settings and game a cash table with the same settings
    deals (``engine_settings``/``table_game``, the cash table's own code), and they differ from the default."""
    structure = {"stud": "FL", "draw5": "FL", "draw32": "FL"}.get(game, "NL")
    spec = {**HU, "name": f"reading {game}", "seats": 3, "min_entrants": 3, "game": game, "structure": structure,
            "levels": [{"small_blind": 10, "big_blind": 20, "ante": 5 if game == "stud" else 0}],
            "settings": {"between_hands_seconds": 1.0, **setting}}
    prefix = f"rd{next(iter(setting))[:6]}"
    _d, driver = await _first_hand(sqlite_store, prefix, spec)
    hand = driver.hand
    cash = TableSettings.from_dict(setting)
    assert hand.settings == engine_settings(cash, straddle=False, run_it_twice=False)
    assert hand.game == table_game(get_game(game), cash)
    assert changed(hand), f"{setting} left the tournament's hand as by default"
    if setting == {"muck_losers": False} and any(e.kind == "showed" for e in hand.events):
        at_showdown = {s for s in hand.seats if not hand.folded[hand.seats.index(s)]}
        assert {e.seat for e in hand.events if e.kind == "showed"} == at_showdown  # nobody mucked (R-SHOW-4)


@pytest.mark.parametrize("setting", [{"straddle": True}, {"run_it_twice": False}, {"disconnect_policy": "check_fold"}])
def test_r_tourn_gen_7_a_setting_tournaments_do_not_use_is_refused(setting: dict[str, Any]) -> None:
    """R-TOURN-GEN-7 (issue #36 item 3): a cash-only table setting in a tournament is refused with a clear error
    (``bad_settings``), not accepted and dropped."""
    with pytest.raises(SpecError) as refused:
        TournamentSpec.from_dict({**HU, "settings": setting})
    assert refused.value.code == "bad_settings" and next(iter(setting)) in refused.value.message


@pytest.mark.parametrize(("settings", "first_game_hands"), [({"rotation_mode": "orbit"}, 3),
                                                            ({"rotation_mode": "hands", "hands_per_game": 2}, 2)])
async def test_r_horse_3_a_horse_tournament_rotates_by_orbit(sqlite_store: Store, settings: dict[str, Any],
                                                            first_game_hands: int) -> None:
    """R-HORSE-3: a HORSE tournament of three rotates as its table settings say, as a cash table does: by orbit (the
    first game is dealt once round the table: three hands, then the next game) or after ``hands_per_game``."""
    players = make_bots(sqlite_store, 3, 20_000, "EUR", prefix=f"horse{first_game_hands}")
    lob, _host, clock = _lobby(sqlite_store, set(players), {p: ShoveBot(random.Random(p), shove=0.0, call=0.0)
                                                            for p in players})
    spec = {**HU, "name": "HORSE", "seats": 3, "min_entrants": 3, "mixed": "horse", "game": None,
            "structure": "FL", "levels": [{"small_blind": 10, "big_blind": 20, "ante": 5}],
            "settings": {"between_hands_seconds": 1.0, **settings}}
    d = await lob.create(TournamentSpec.from_dict({k: v for k, v in spec.items() if v is not None}),
                         f"horse{first_game_hands}")
    games: list[str] = []
    d.on_hand = lambda _d, _t, drv: games.append(drv.hand.game.id)
    for p in players:
        await d.register(p)
    await _until(clock, lambda: len(games) >= first_game_hands + 1)
    assert games[:first_game_hands] == [games[0]] * first_game_hands
    assert games[first_game_hands] != games[0]
    await lob.close()
