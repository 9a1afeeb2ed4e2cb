"""Demo tables for ``riverboat serve``, and loading table lists from JSON (``--tables FILE``).

A table entry is a JSON object with the fields of :class:`riverboat.room.TableSpec` (``name``, ``game``,
``structure``, ``small_blind``, ``big_blind``, ``ante``, ``bring_in``, ``small_bet``, ``big_bet``, ``max_seats``,
``min_buy_in``, ``max_buy_in``, ``currency``, ``rake``, ``mixed``, ``settings``) plus ``"bots": n`` (how many
demo bots to seat) and ``"bot": "random" | "strength"``. An entry with ``"speed": true`` is a Speed Poker pool
(:class:`riverboat.room.SpeedSpec` fields: ``name``, ``game``, ``structure``, blinds, ``table_size``, buy-ins,
``currency``, ``rake``, ``settings``).

The demo tables are play money (``PLAY``), so a freshly registered player (who receives play chips on sign-up)
can sit at once; one real-money table shows the rake. There is a table of every game, HORSE and 8-Game tables and
two Speed Poker pools; ``DEMO_TOURNAMENTS`` are a Sit & Go series and a scheduled MTT with in-process bots.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

_FL = {"structure": "FL", "small_blind": 50, "big_blind": 100, "min_buy_in": 1000, "max_buy_in": None,
       "currency": "PLAY"}
_PL = {"small_blind": 50, "big_blind": 100, "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY"}
_STUD = {**_FL, "ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200, "max_seats": 8}

#: A table of every game (RULES.md section 4), both mixed games and two Speed Poker pools, all play money with
#: bots, plus one real-money table that shows the rake. test_demo_tables_cover_every_game keeps it complete.
DEMO_TABLES: list[dict[str, Any]] = [
    {"name": "Riga", "game": "holdem", "structure": "NL", **_PL, "max_seats": 6, "bots": 3, "bot": "strength"},
    {"name": "Vilnius", "game": "omaha", "structure": "PL", **_PL, "max_seats": 6, "bots": 2},
    {"name": "Tallinn", "game": "omaha_hl", "structure": "PL", **_PL, "max_seats": 8, "bots": 2},
    {"name": "Ventspils", "game": "omaha5", "structure": "PL", **_PL, "max_seats": 6, "bots": 2},
    {"name": "Narva", "game": "omaha5_hl", "structure": "PL", **_PL, "max_seats": 6, "bots": 2},
    {"name": "Parnu", "game": "six_plus", "structure": "NL", **_PL, "max_seats": 6, "bots": 2},
    {"name": "Kaunas", "game": "stud", **_STUD, "bots": 3},
    {"name": "Klaipeda", "game": "stud_hl", **_STUD, "bots": 2},
    {"name": "Jurmala", "game": "razz", **_STUD, "bots": 2},
    {"name": "Cesis", "game": "soko", **_STUD, "bots": 2},
    {"name": "Rezekne", "game": "americana", **{**_STUD, "max_seats": 6}, "bots": 2},
    {"name": "Valga", "game": "draw5", **_FL, "max_seats": 6, "bots": 2},
    {"name": "Tartu", "game": "triple_draw_27", **_FL, "max_seats": 6, "bots": 2},
    {"name": "Daugava", "game": "draw32", **_FL, "max_seats": 5, "bots": 2},
    # mixed games: the blinds of the flop and draw games, the ante and bring-in of the stud games (R-STUD-1)
    {"name": "Sigulda", "game": "holdem", **_STUD, "bots": 3, "mixed": "horse"},
    {"name": "Liepaja Mix", "game": "triple_draw_27", **{**_STUD, "max_seats": 6, "max_buy_in": 20000,
                                                        "min_buy_in": 4000}, "bots": 2, "mixed": "8game"},
    {"name": "Liepaja", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10, "max_seats": 6,
     "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR", "bots": 0},
    # Speed Poker pools (R-SPEED): bots keep them going so a player is dealt in at once. Two tables' worth of bots
    # that play by hand strength (issue #31 item 2: five random bots went broke one after the other and the pool
    # dealt heads-up hands to the last one); a bot that goes broke buys in again (riverboat.bots.demo).
    {"name": "Speed Riga", "speed": True, "game": "holdem", "structure": "NL", **_PL, "table_size": 6, "bots": 11,
     "bot": "strength"},
    {"name": "Speed Vilnius", "speed": True, "game": "omaha", "structure": "PL", **_PL, "table_size": 6, "bots": 11,
     "bot": "strength"},
]
# At the cash tables an all-in run-out is dealt one street a second, the hands face up (R-SHOW-4 reading, issue #14).
DEMO_TABLES = [entry if entry.get("speed") else {**entry, "settings": {"allin_runout_seconds": 1.0}}
               for entry in DEMO_TABLES]

#: The demo's tournaments (issue #11): play-money freerolls (play money pays no fee to the house, R-FEE-2; the room
#: adds the pool): a 6-seat Sit & Go series that five bots have entered (a player who registers starts it; the next
#: one opens at once), and an MTT of up to 100 starting 30 minutes after the server with 12 bots, late registration
#: for 3 levels.
DEMO_TOURNAMENTS: list[dict[str, Any]] = [
    {"spec": {"name": "Demo Sit & Go 6", "kind": "sng", "seats": 6, "min_entrants": 6, "added_prize": 6000,
              "currency": "PLAY", "starting_stack": 1500, "payout": "sng", "level_seconds": 180,
              "levels": [{"small_blind": sb, "big_blind": 2 * sb} for sb in (10, 15, 25, 50, 75, 100, 150, 200,
                                                                              300, 400, 600, 800, 1000)],
              "settings": {"between_hands_seconds": 2.0}},
     "series": True, "fill_bots": 5},
    {"spec": {"name": "Demo Tournament", "kind": "mtt", "seats": 9, "min_entrants": 2, "max_entrants": 100,
              "added_prize": 50000, "currency": "PLAY", "starting_stack": 3000, "payout": "mtt",
              "level_seconds": 300, "late_registration_levels": 3, "starts_at": 0,
              "levels": [{"small_blind": sb, "big_blind": 2 * sb, "ante": sb // 4} for sb in
                         (10, 15, 25, 50, 75, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000)],
              "settings": {"between_hands_seconds": 2.0}},
     "starts_in": 1800, "fill_bots": 12},
]

_BOT_KEYS = ("bots", "bot")


def load_tables(path: str | Path) -> list[dict[str, Any]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise ValueError(f"{path}: expected a JSON list of table objects")
    return data


def table_spec(entry: dict[str, Any]) -> Any:
    """Build a ``TableSpec`` (or ``SpeedSpec`` when ``speed`` is true) from a table entry."""
    from riverboat.room import SpeedSpec, TableSpec

    cls = SpeedSpec if entry.get("speed") else TableSpec
    known = {f.name for f in fields(cls)}
    kwargs = {k: v for k, v in entry.items() if k not in _BOT_KEYS and k != "speed"}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise ValueError(f"table {entry.get('name')!r}: unknown fields {', '.join(unknown)}")
    if "spread" in kwargs and isinstance(kwargs["spread"], list):
        kwargs["spread"] = tuple(kwargs["spread"])
    return cls(**kwargs)


async def open_tables(room: Any, entries: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Open every entry in the room with its stable id (``table_id_for``: the same list gives the same ids after a
    restart, so the store's seats and stacks find their table again, R-SERVER-3); returns (table or pool id,
    entry) pairs in order."""
    from riverboat.room import RoomError, table_id_for

    opened = []
    for i, entry in enumerate(entries):
        try:
            spec = table_spec(entry)
            ident = table_id_for(i, str(entry.get("name", "")), bool(entry.get("speed")))
            if entry.get("speed"):
                ident = await room.open_speed_pool(spec, pool_id=ident)
            else:
                ident = await room.open_table(spec, table_id=ident)
        except (RoomError, TypeError, ValueError) as exc:
            raise ValueError(f"cannot open table {entry.get('name')!r}: {exc}") from None
        opened.append((str(ident), entry))
    return opened
