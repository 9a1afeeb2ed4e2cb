"""A player's stored hands as the browser shows them: summaries with table name, game and the player's own cards
(also in hands they folded), one hand with every seat named by its public alias (R-ALIAS-1), the hand sheets the
PokerStars-text and PHH exports are written from. (The player's statistics: player_stats.py, counted by the store.)

Everything here is built from what the player may see (``visible_events``): the stored PHH text holds every
player's hole cards and is never sent as it is (``riverboat.history.masking`` blanks what the player did not see).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from riverboat.games.catalog import Kind
from riverboat.history.keys import variant_of
from riverboat.history.masking import masked_phh
from riverboat.history.pokerstars import HandSheet, SheetSeat, TournamentInfo, tournament_number
from riverboat.room.frames import LobbyEntry
from riverboat.store.hands import HandRecord
from riverboat.store.tournament_play import Snapshot

_FAMILY = {Kind.STUD: "stud", Kind.DRAW: "draw"}

Alias = Callable[[int], Awaitable[str | None]]
Lookup = Callable[[str], Awaitable[Snapshot | None]]  # a tournament id -> the store's snapshot of it (buy-in, fee, spec)


class Lobby(Protocol):
    """What the hand views ask the room (a :class:`~riverboat.room.Room` or a cluster gateway's room alike): the
    lobby entry of an open table or pool, for its name, mixed game and seats."""

    def lobby_entry(self, table_id: str) -> LobbyEntry | None: ...


def phh_fields(record: HandRecord) -> dict[str, Any]:
    if not record.phh:
        return {}
    try:
        return tomllib.loads(record.phh)
    except tomllib.TOMLDecodeError:
        return {}


def game_of(record: HandRecord) -> tuple[str | None, str | None, str]:
    """(game id, structure, family) of a stored hand, from its PHH variant code (``history.keys.variant_of``)."""
    found = variant_of(record.phh)
    if found is None:
        return None, None, "flop"
    base, game, structure = found
    return base, structure.value, _FAMILY.get(game.kind, "flop")


def seat_of(fields: Mapping[str, Any], player_id: int) -> int | None:
    for name, seat in zip(fields.get("players", []), fields.get("seats", []), strict=False):
        if str(name) == str(player_id) and isinstance(seat, int):
            return seat
    return None


def own_cards(events: Sequence[Mapping[str, Any]], seat: int | None) -> list[str]:
    """The player's cards at the end of the hand (dealt, then changed by their draws), in the order held."""
    if seat is None:
        return []
    cards: list[str] = []
    for ev in events:
        if ev.get("seat") != seat:
            continue
        if ev.get("kind") == "dealt":
            cards.extend(ev.get("cards") or [])
        elif ev.get("kind") == "drew_cards":
            gone = set(ev.get("discarded") or [])
            cards = [c for c in cards if c not in gone] + list(ev.get("cards") or [])
    return cards


TWISTER_TITLES = {"twister": "Twister", "aog": "Age of the Gods Twister", "wild": "Wild Twister"}


def table_name(room: Lobby | None, table_id: str) -> str:
    """The table's name for a player: an open table's or Speed Poker pool's own name; a closed table's id still
    carries it (``t1-riga-3f2a1c`` -> ``Riga``); a tournament table (``sng1/t1``, ``twister:aog-500-1-ab/t1``) is
    named by its kind and number, never by the ids."""
    entry = room.lobby_entry(table_id) if room is not None else None
    if entry is not None:
        return entry["name"]
    tournament, _, seat_table = table_id.rpartition("/")
    if tournament:
        twister = re.match(r"^(?:twister|wild):(twister|aog|wild)-", tournament)
        if twister:
            return TWISTER_TITLES[twister.group(1)]
        number = seat_table[1:] if re.fullmatch(r"t\d+", seat_table) else seat_table
        return f"Tournament table {number}"
    m = re.match(r"^[ts]\d+-([a-z0-9]+)(?:-[0-9a-f]+)?$", table_id)
    return m.group(1).capitalize() if m else table_id


def _stakes(fields: Mapping[str, Any]) -> dict[str, int]:
    blinds = sorted(int(b) for b in fields.get("blinds_or_straddles", []) if int(b) > 0)
    return {
        "small_blind": blinds[0] if len(blinds) > 1 else 0,
        "big_blind": blinds[-1] if blinds else 0,
        "ante": max([int(a) for a in fields.get("antes", [])] or [0]),
        "bring_in": int(fields.get("bring_in", 0) or 0),
        "small_bet": int(fields.get("small_bet", 0) or 0),
        "big_bet": int(fields.get("big_bet", 0) or 0),
    }


def summary(record: HandRecord, player_id: int, room: Lobby | None, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The fields a hand list shows, added to the stored summary: table name, game, the player's result and cards."""
    game, structure, _family = game_of(record)
    fields = phh_fields(record)
    seat = seat_of(fields, player_id)
    entry = room.lobby_entry(record.table_id) if room is not None else None
    return {
        "table_name": table_name(room, record.table_id),
        "game": game,
        "structure": structure,
        "mixed": entry.get("mixed") if entry is not None else None,
        "result": (record.changes or {}).get(int(player_id)) if str(player_id).isdigit() else None,
        "my_seat": seat,
        "my_cards": own_cards(events, seat),
    }


async def detail(record: HandRecord, player_id: int, room: Lobby | None, events: Sequence[Mapping[str, Any]], alias: Alias
                 ) -> dict[str, Any]:
    """One hand for the history page and the replayer: its header and every seat named."""
    fields = phh_fields(record)
    game, structure, family = game_of(record)
    seats_list = [int(s) for s in fields.get("seats", [])]
    players = [str(p) for p in fields.get("players", [])]
    stacks = [int(s) for s in fields.get("starting_stacks", [])]
    seats = []
    for i, seat in enumerate(seats_list):
        pid = players[i] if i < len(players) else None
        name = await alias(int(pid)) if pid is not None and pid.isdigit() else None
        seats.append({"seat": seat, "player": int(pid) if pid and pid.isdigit() else pid, "alias": name or f"Player {i + 1}",
                      "stack": stacks[i] if i < len(stacks) else 0})
    entry = room.lobby_entry(record.table_id) if room is not None else None
    max_seats = entry["max_seats"] if entry is not None else max([s + 1 for s in seats_list] or [2])
    return summary(record, player_id, room, events) | {
        "family": family, "seats": seats, "button": seats_list[-1] if seats_list and family != "stud" else None,
        "stakes": _stakes(fields), "max_seats": max_seats,
    }


async def tournament_info(record: HandRecord, lookup: Lookup) -> TournamentInfo | None:
    """The tournament of a tournament table's hand (``sng1/t1``, ``twister:...-ab/t1``) for PokerStars' header
    (issue #31 item 6): number, buy-in and fee, and the level whose stakes the hand was dealt at."""
    tid, _, table = str(record.table_id).rpartition("/")
    if not tid:
        return None
    try:
        snap = await lookup(tid)
    except Exception:  # noqa: BLE001 - a tournament the store no longer knows: the hand is exported without it
        return None
    if snap is None:
        return None
    st = _stakes(phh_fields(record))
    level = 1
    for i, lv in enumerate((snap.spec or {}).get("levels") or []):
        blinds = st["big_blind"] and (int(lv.get("big_blind", 0)), int(lv.get("small_blind", 0))) == (
            st["big_blind"], st["small_blind"])
        bets = st["small_bet"] and int(lv.get("small_bet", 0) or lv.get("big_blind", 0)) == st["small_bet"]
        if blinds or bets:
            level = i + 1
            break
    number = table[1:] if re.fullmatch(r"t\d+", table) else table
    return TournamentInfo(tournament_number(tid), int(snap.buy_in), int(snap.fee), str(snap.currency), level, number)


async def sheet(record: HandRecord, player_id: int, room: Lobby | None, events: Sequence[Mapping[str, Any]], alias: Alias,
                tournament: TournamentInfo | None = None) -> HandSheet:
    """The hand as the player saw it, for the PokerStars-text export (``tournament``: the tournament it was dealt
    in, for the tournament header)."""
    d = await detail(record, player_id, room, events, alias)
    st = d["stakes"]
    return HandSheet(
        table_id=record.table_id, hand_id=record.hand_id, table_name=d["table_name"], game=d["game"] or "holdem",
        structure=d["structure"] or "NL", family=d["family"], currency=record.currency or "PLAY",
        started_at=record.started_at, seats=tuple(SheetSeat(s["seat"], str(s["alias"]), int(s["stack"])) for s in d["seats"]),
        button=d["button"], max_seats=d["max_seats"], events=tuple(events), hero_seat=d["my_seat"],
        small_blind=st["small_blind"], big_blind=st["big_blind"], small_bet=st["small_bet"] or st["big_blind"],
        big_bet=st["big_bet"] or 2 * (st["small_bet"] or st["big_blind"]), mixed=d["mixed"], tournament=tournament)


async def phh_export(record: HandRecord, player_id: int, room: Lobby | None, events: Sequence[Mapping[str, Any]], alias: Alias) -> str:
    """The hand's PHH record as the player may see it (cards they did not see as ``??``, players by alias)."""
    fields = phh_fields(record)
    names: dict[str, str] = {}
    for pid in fields.get("players", []):
        if str(pid).isdigit():
            names[str(pid)] = await alias(int(pid)) or f"Player {pid}"
    return masked_phh(record.phh or "", viewer_seat=seat_of(fields, player_id), events=events, names=names,
                      extra={"table": table_name(room, record.table_id), "hand": record.hand_id,
                             "currency": record.currency or "PLAY"})
