"""Demo tables for ``riverboat serve``, and loading table lists from JSON (``--tables FILE``).

A table entry is a JSON object with the fields of :class:`riverboat.room.TableSpec` (``name``, ``game``,
``structure``, ``small_blind``, ``big_blind``, ``ante``, ``bring_in``, ``small_bet``, ``big_bet``, ``max_seats``,
``min_buy_in``, ``max_buy_in``, ``currency``, ``rake``, ``mixed``, ``settings``) plus ``"bots": n`` (how many
demo bots to seat) and ``"bot": "random" | "strength"``. An entry with ``"speed": true`` is a Speed Poker pool
(:class:`riverboat.room.SpeedSpec` fields: ``name``, ``game``, ``structure``, blinds, ``table_size``, buy-ins,
``currency``, ``rake``, ``settings``).

The demo tables are play money (``PLAY``), so a freshly registered player (who receives play chips on sign-up)
can sit at once; one real-money table shows the rake. There is a table of every game, HORSE and 8-Game tables and
two Speed Poker pools; ``DEMO_TOURNAMENTS`` are a Sit & Go series and a schedule of MTTs with in-process bots.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, cast

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

#: The demo's tournament structures (issue #31 item 3): human-scale levels (five minutes; the standard progression,
#: antes from the fifth level), a five-minute break after every fourth level (R-TOURN-BREAK), three seconds between
#: hands. The bots play like people at a person's pace (riverboat.server.demo_players.PeopleBot), so a visitor can
#: watch levels rise, a break, tables balanced and broken, and a final table.
_LEVELS = [{"small_blind": bb // 2, "big_blind": bb, "ante": bb // 8 if i >= 4 else 0}
           for i, bb in enumerate((20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000,
                                   2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000))]
_PLO_LEVELS = [{k: v for k, v in lv.items() if k != "ante"} for lv in _LEVELS]
_DEMO_PACE = {"between_hands_seconds": 3.0, "allin_runout_seconds": 1.0}


def _demo_mtt(name: str, starts_in: float, bots: int, *, game: str = "holdem", structure: str = "NL",
              stack: int = 3000, levels: list[dict[str, int]] = _LEVELS) -> dict[str, Any]:
    return {"spec": {"name": name, "kind": "mtt", "game": game, "structure": structure, "seats": 9,
                     "min_entrants": 2, "max_entrants": 100, "added_prize": 50000, "currency": "PLAY",
                     "starting_stack": stack, "payout": "mtt", "level_seconds": 300, "late_registration_levels": 3,
                     "break_every_levels": 4, "break_seconds": 300, "starts_at": 0, "levels": levels,
                     "settings": _DEMO_PACE},
            "starts_in": starts_in, "fill_bots": bots}


#: The demo's tournaments (issues #11, #31): play-money freerolls (play money pays no fee to the house, R-FEE-2; the
#: room adds the pool): a 6-seat Sit & Go series that five bots have entered (a player who registers starts it; the
#: next one opens at once) and a schedule of MTTs with bots, the first five minutes after the server starts (20
#: bots: three tables, balanced and broken down to a final table), then one every half hour.
DEMO_TOURNAMENTS: list[dict[str, Any]] = [
    {"spec": {"name": "Demo Sit & Go 6", "kind": "sng", "seats": 6, "min_entrants": 6, "added_prize": 6000,
              "currency": "PLAY", "starting_stack": 1500, "payout": "sng", "level_seconds": 300,
              "levels": _LEVELS, "settings": _DEMO_PACE},
     "series": True, "fill_bots": 5},
    _demo_mtt("Demo Tournament", 300, 20),
    _demo_mtt("Demo Omaha Tournament", 1800, 14, game="omaha", structure="PL", levels=_PLO_LEVELS),
    _demo_mtt("Demo Deepstack", 3600, 20, stack=5000),
]


async def open_demo_tournaments(lobby: Any, store: Any, entries: list[dict[str, Any]], *, now: float,
                                call: Callable[..., Awaitable[Any]], pace: bool = True) -> list[Any]:
    """Open the configured tournaments in a single process's lobby (``lobby.bots``: its in-process bots) with the
    bots each entry asks for (``fill_bots``, accounts named like people and funded from the house, playing as
    :class:`PeopleBot`); ``starts_in`` is counted from ``now`` (Unix seconds). ``call`` runs a store call (in a
    thread in the server); ``pace=False``: the bots act at once (simulations). Returns the directors."""
    import random
    import secrets

    from riverboat.room.tournament.director import BotPolicy
    from riverboat.room.tournament.spec import TournamentSpec

    from .demo_players import PeopleBot

    out = []
    for n, entry in enumerate(entries):
        data = dict(entry["spec"])
        if entry.get("starts_in") is not None:
            data["starts_at"] = now + float(entry["starts_in"])
        spec = TournamentSpec.from_dict(data)
        bots: list[int] = []
        for i in range(int(entry.get("fill_bots", 0))):
            name = f"tbot{n}_{i}_{secrets.token_hex(3)}"
            info = await call(store.accounts.register, name, secrets.token_hex(12))
            await call(store.aliases.set_person_like, info.id, random.Random(info.id))
            await call(store.ledger.deposit, info.id, spec.currency, 100 * (spec.buy_in + spec.fee + 1),
                       f"tbot-dep:{info.id}")
            bot = PeopleBot(random.Random(info.id), think=(1.0, 3.0) if pace else (0.0, 0.0))
            lobby.bots[info.id] = cast(BotPolicy, bot)  # None from the hook: it acts later, on the table's clock
            bots.append(info.id)
        out.append(await lobby.create(spec, series=bool(entry.get("series", False)), fill=bots))
    return out


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
