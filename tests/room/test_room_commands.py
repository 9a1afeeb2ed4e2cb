"""The room's command registry (issue #29): every client frame that is not the connection's own (auth, ping, lobby,
chat, resync) has a handler in the room, and every handler has a frame; the money commands pass the idempotency key
made from the player and the frame id to the ledger, so a repeat after the server's reply cache forgot the first
copy (expiry, a restart) moves no money: one ledger entry per key, for each money command."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from sqlalchemy import func, select

from riverboat.room import FakeClock, Room, RoomError, SpeedSpec, TableSpec
from riverboat.room.commands import MONEY_COMMANDS, ROOM_COMMANDS, command_type
from riverboat.room.replies import (
    REPLY_TYPES,
    Acted,
    CommandReply,
    DeclinedRebuy,
    FastFolded,
    JoinedPool,
    Left,
    LeftPool,
    NotWaiting,
    Options,
    OptionsSet,
    PlayEnded,
    ReboughtChips,
    Registered,
    SatIn,
    SatOut,
    Seated,
    SpeedActed,
    ToppedUp,
    TournamentSatOut,
    TwisterRegistered,
    Unregistered,
    Waiting,
    Watching,
    parse_reply,
)
from riverboat.room.tournament.lobby import TournamentLobby
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament_commands import register_tournament_commands
from riverboat.room.twister.offers import TwisterOffers
from riverboat.server.protocol import CLIENT_FRAME_TYPES, SESSION_FRAME_TYPES, parse_client_frame
from riverboat.server.replies import store_key
from riverboat.store import Store
from riverboat.store.models import LedgerTxn

from .conftest import make_players

SNG = {"name": "Keyed SNG", "kind": "sng", "seats": 3, "min_entrants": 3, "buy_in": 100, "fee": 10,
       "currency": "EUR", "starting_stack": 1500, "payout": "sng", "level_seconds": 600,
       "levels": [{"small_blind": 10, "big_blind": 20}]}


def test_issue_29_every_frame_type_has_a_handler_and_every_handler_a_frame(store: Store) -> None:
    """Issue #29: the room's registry against the client-frame union, both ways (a new frame without a handler,
    or a handler left without a frame, fails here)."""
    room = Room(store, clock=FakeClock(), store_inline=True)
    commands = set(CLIENT_FRAME_TYPES) - SESSION_FRAME_TYPES
    assert room.commands.handled() == commands, "frame types without a handler / handlers without a frame"
    assert {command_type(m) for m in ROOM_COMMANDS} == commands
    assert MONEY_COMMANDS <= commands
    register_tournament_commands(room.commands, TournamentLobby(room), None)  # as the app does: same set
    assert room.commands.handled() == commands
    assert set(REPLY_TYPES) == commands, "commands without a reply type / reply types without a command"


#: one answer of every reply type, with the JSON object the ack's ``result`` has always carried (the browser
#: client reads these fields: src/riverboat/web)
WIRE = [
    (Seated(table="t", seat=2, stack=400), {"table": "t", "seat": 2, "stack": 400}),
    (Acted(), {"ok": True}),
    (SpeedActed(hand="3-ab"), {"ok": True, "hand": "3-ab"}),
    (SatOut(table="t", also_sat_out=["u"]), {"table": "t", "sitting_out": True, "also_sat_out": ["u"]}),
    (SatIn(table="t", owes_bb=True, missed_sb=False, also_sat_in=[]),
     {"table": "t", "sitting_out": False, "owes_bb": True, "missed_sb": False, "also_sat_in": []}),
    (OptionsSet(table="t", options=Options(auto_post=True, sit_out_next_bb=False, wait_for_bb=True, auto_muck=True)),
     {"table": "t", "options": {"auto_post": True, "sit_out_next_bb": False, "wait_for_bb": True, "auto_muck": True}}),
    (Waiting(table="t", position=1), {"table": "t", "waiting": True, "position": 1}),
    (NotWaiting(table="t"), {"table": "t", "waiting": False}),
    (Left(table="t", pending=True, cashed_out=None), {"table": "t", "pending": True, "cashed_out": None}),
    (ToppedUp(table="t", pending=False, stack=900), {"table": "t", "pending": False, "stack": 900}),
    (Watching(table="t", watching=False), {"table": "t", "watching": False}),
    (JoinedPool(pool="s", stack=500), {"pool": "s", "stack": 500}),
    (FastFolded(pool="s", folded="9-cd"), {"pool": "s", "folded": "9-cd"}),
    (LeftPool(pool="s", pending=False, cashed_out=480), {"pool": "s", "pending": False, "cashed_out": 480}),
    (Registered(tournament="m", entrants=3), {"tournament": "m", "registered": True, "entrants": 3}),
    (Unregistered(tournament="m"), {"tournament": "m", "registered": False}),
    (ReboughtChips(tournament="m", chips=3000), {"tournament": "m", "chips": 3000}),
    (DeclinedRebuy(tournament="m"), {"tournament": "m", "declined": True}),
    (TournamentSatOut(tournament="m", sitting_out=True), {"tournament": "m", "sitting_out": True}),
    (TwisterRegistered(tournament="w1", entrants=2, kind="twister", buy_in=100, currency="EUR"),
     {"tournament": "w1", "registered": True, "entrants": 2, "kind": "twister", "buy_in": 100, "currency": "EUR"}),
    (PlayEnded(target="t", ended="left"), {"target": "t", "ended": "left"}),
]


@pytest.mark.parametrize(("reply", "wire"), WIRE, ids=[type(r).__name__ for r, _ in WIRE])
def test_issue_29_a_typed_reply_is_the_same_json_object_and_parses_back_by_its_command(
        reply: CommandReply, wire: dict[str, object]) -> None:
    """The ack's ``result`` keeps its fields and order; a gateway parses a host's answer back to the same value by
    the command's reply types (``parse_reply``, ``RemoteRoom.execute``)."""
    assert reply.wire() == wire and list(reply.wire()) == list(wire)
    kinds = [kind for kind, models in REPLY_TYPES.items() if type(reply) in models]
    assert kinds
    for kind in kinds:
        assert parse_reply(kind, orjson.loads(orjson.dumps(wire))) == reply


def test_issue_29_every_reply_type_has_its_wire_example() -> None:
    assert {m for models in REPLY_TYPES.values() for m in models} == {type(r) for r, _ in WIRE}


def _frame(frame_type: str, fid: str, **fields: Any) -> Any:
    import json

    return parse_client_frame(json.dumps({"v": 1, "type": frame_type, "id": fid, **fields}))


def _entries(store: Store, key_part: str) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(LedgerTxn).where(LedgerTxn.idem_key.contains(key_part)))
                   or 0)


async def _refused(room: Room, pid: int, frame: Any, key: str, codes: tuple[str, ...] = ("id_reused",)) -> None:
    with pytest.raises(RoomError) as err:
        await room.execute(pid, frame, key)
    assert err.value.code in codes, err.value


async def test_issue_29_r_wallet_1_cash_money_commands_repeated_with_their_key_move_no_money(
        room: Room, store: Store) -> None:
    """Issue #29, R-WALLET-1, R-BUYIN-1: ``sit``, ``top_up`` and ``join_speed`` through ``Room.execute`` twice with
    the same frame's key (what the server sends once its reply cache forgot the first): the second is refused with
    ``id_reused``, the balance moved once and the ledger holds one entry for the key."""
    (pid,) = make_players(store, 1, deposit=10_000)
    tid = await room.open_table(TableSpec(name="Keyed", min_buy_in=40, max_buy_in=1000))
    pool = await room.open_speed_pool(SpeedSpec(name="Keyed speed", game="holdem", structure="NL", small_blind=5,
                                                big_blind=10, table_size=6, min_buy_in=400, max_buy_in=1000))
    sit, sit_key = _frame("sit", "s1", table=tid, seat=0, buy_in=400), store_key(pid, "s1")
    await room.execute(pid, sit, sit_key)
    await room.execute(pid, _frame("leave", "l1", table=tid))
    await _refused(room, pid, sit, sit_key)  # seated again with the same frame: no second buy-in
    assert _entries(store, sit_key) == 1
    await room.execute(pid, _frame("sit", "s2", table=tid, seat=0, buy_in=400), store_key(pid, "s2"))
    top, top_key = _frame("top_up", "t1", table=tid, amount=100), store_key(pid, "t1")
    await room.execute(pid, top, top_key)
    await _refused(room, pid, top, top_key)
    assert room.tables[tid].seat_of(pid).stack == 500  # type: ignore[union-attr]
    assert _entries(store, top_key) == 1
    join, join_key = _frame("join_speed", "j1", pool=pool, buy_in=400), store_key(pid, "j1")
    await room.execute(pid, join, join_key)
    await room.execute(pid, _frame("leave_speed", "ls1", pool=pool))
    await _refused(room, pid, join, join_key)
    assert _entries(store, join_key) == 1
    assert store.ledger.balance(pid, "EUR") == 10_000 - 500  # the table's stack; the pool's came back


async def test_issue_29_tournament_and_twister_money_commands_repeated_with_their_key_move_no_money(
        room: Room, store: Store, clock: FakeClock) -> None:
    """Issue #29, R-TOURN-REG-3, R-TWIST-11: ``tournament_register`` (after an unregister) and ``twister_play``
    through the room's registry (the handlers the app registers) twice with one frame's key: refused
    (``id_reused``), money moved once, one ledger entry for the key. (The re-buy's key: the director's own test,
    tests/tournament/test_tourn_rebuy_window.py, reached by the same ``Caller.key``.)"""
    pid, other = make_players(store, 2, deposit=10_000)
    lobby = TournamentLobby(room)
    twister = TwisterOffers(room)
    register_tournament_commands(room.commands, lobby, twister)
    try:
        d = await lobby.create(TournamentSpec.from_dict(SNG), "keyed")
        reg, reg_key = _frame("tournament_register", "r1", tournament=d.id), store_key(pid, "r1")
        await room.execute(pid, reg, reg_key)
        await room.execute(pid, _frame("tournament_unregister", "u1", tournament=d.id))
        await _refused(room, pid, reg, reg_key)
        assert _entries(store, reg_key) == 1
        assert store.ledger.balance(pid, "EUR") == 10_000  # registered once, refunded once
        buy_in = 500  # a published Twister buy-in (R-TWIST-7)
        play, play_key = _frame("twister_play", "p1", kind="twister", buy_in=buy_in), store_key(other, "p1")
        await room.execute(other, play, play_key)
        before = store.ledger.balance(other, "EUR")
        await _refused(room, other, play, play_key, ("id_reused", "already_registered"))
        assert store.ledger.balance(other, "EUR") == before == 10_000 - buy_in
        assert _entries(store, play_key) == 1
    finally:
        await twister.close()
        await lobby.close()
