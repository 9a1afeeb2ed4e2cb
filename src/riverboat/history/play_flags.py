"""Each player's play flags in one stored hand (issue #31, the statistics over every hand): read once from the PHH
text when the hand is written, stored on the hand's player rows, and counted by the store in SQL (VPIP, PFR,
3-bet, WTSD, won at showdown), as the search keys (``keys.py``) are for the hand-history search.

The definitions are the trackers' ones the statistics page has used since issue #31's first pass:

- **VPIP**: the player put money in voluntarily before the flop (a call of more than their blind, a bet or a
  raise);
- **PFR**: they raised before the flop;
- **3-bet chance / 3-bet**: they acted before the flop facing exactly one raise / and re-raised;
- **saw the flop**: the hand reached a flop and they had not folded before it;
- **showdown**: they saw the flop, never folded, and at least two players never folded;
- **won at showdown**: a showdown in which they ended up chips ahead.

Read from the PHH actions (players ``p1..pn`` in the record's order; heads-up the blinds are listed ``[small,
big]`` with ``p1`` the big blind, docs/phh-variants.md). Flop games only (Hold'em, Omaha, Six Plus...): a hand of a
stud or draw game gets no flag but ``FLOP_GAME`` unset (counted apart); a player the record does not name (its
``players`` field holds player ids as text) gets nothing (None).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from enum import IntFlag
from typing import Any

# The variant codes of games without a flop (stud, razz, draw games, badugi; PHH codes and the room's RB/ codes).
NOT_FLOP = ("F7S", "FR", "F2L3D", "N2L1D", "FB", "RB/stud", "RB/razz", "RB/soko", "RB/americana", "RB/draw",
            "RB/triple_draw", "RB/single_draw", "RB/badugi")


class Play(IntFlag):
    """One player's flags in one hand, stored as an integer (``hand_players.play``)."""

    FLOP_GAME = 1  # a hand of a flop game: counted in the statistics (0: another game's hand, counted apart)
    VPIP = 2
    PFR = 4
    THREE_BET_CHANCE = 8
    THREE_BET = 16
    SAW_FLOP = 32
    SHOWDOWN = 64
    WON_AT_SHOWDOWN = 128


_NONE = Play(0)
_FLOP, _VPIP, _PFR, _CHANCE, _THREE, _SAW, _SHOWDOWN, _WON = (
    int(f) for f in (Play.FLOP_GAME, Play.VPIP, Play.PFR, Play.THREE_BET_CHANCE, Play.THREE_BET, Play.SAW_FLOP,
                     Play.SHOWDOWN, Play.WON_AT_SHOWDOWN))
_WANTED = frozenset(("variant", "players", "starting_stacks", "blinds_or_straddles", "actions"))
_STRINGS = ("players", "actions")


def _quick_value(key: str, value: str) -> Any:
    """``value`` as the room's writer puts it (``"text"``, ``["a", "b"]``, ``[1, 2]``), or None for anything else."""
    if key == "variant":
        inner = value[1:-1]
        ok = len(value) >= 2 and value[0] == value[-1] == '"' and '"' not in inner and "\\" not in inner
        return inner if ok else None
    if value == "[]":
        return []
    if key in _STRINGS:
        if not (value.startswith('["') and value.endswith('"]')):
            return None
        items = value[2:-2].split('", "')
        return None if any('"' in t or "\\" in t for t in items) else items
    if not (value.startswith("[") and value.endswith("]")):
        return None
    numbers = value[1:-1].split(", ")
    return [int(t) for t in numbers] if all(t.removeprefix("-").isdigit() for t in numbers) else None


def _quick_fields(phh: str) -> dict[str, Any] | None:
    """The five fields the flags need as the room's writer puts them (one line each, ``key = value``: plain
    strings, integers), without parsing the whole record; None when one is written any other way (then TOML reads
    them)."""
    fields: dict[str, Any] = {}
    for line in phh.split("\n"):
        key, eq, value = line.partition("=")
        key = key.strip()
        if key in _WANTED:
            parsed = _quick_value(key, value.strip()) if eq else None
            if parsed is None or key in fields:
                return None
            fields[key] = parsed
    return fields


def _fields(phh: str) -> dict[str, Any]:
    fields = _quick_fields(phh)
    if fields is not None:
        return fields
    try:
        return tomllib.loads(phh)
    except tomllib.TOMLDecodeError:
        return {}


def play_flags(phh: str | None, changes: Mapping[int, int], player_ids: Iterable[int] | None = None
               ) -> dict[int, Play]:
    """The flags of each player the record names, by player id: of ``player_ids``, or (None) of every player
    whose name in the record is a player id. ``changes`` are the players' chip results in the hand (won at
    showdown: ahead; a player missing from it is even)."""
    if not phh:
        return {}
    fields = _fields(phh)
    players = [str(p) for p in fields.get("players", [])]
    if player_ids is None:
        player_ids = [int(p) for p in players if p.isdigit()]
    index = {pid: players.index(str(pid)) for pid in player_ids if str(pid) in players}
    if not index:
        return {}
    if str(fields.get("variant", "")).startswith(NOT_FLOP):
        return {pid: _NONE for pid in index}
    try:
        flags = _flop_flags(fields)
    except (TypeError, ValueError):  # a record the room did not write (non-integer blinds...): count it bare
        flags = {}
    out: dict[int, Play] = {}
    for pid, me in index.items():
        f = flags.get(me, _FLOP)
        if f & _SHOWDOWN and int(changes.get(pid, 0)) > 0:
            f |= _WON
        out[pid] = Play(f)
    return out


def _flop_flags(fields: Mapping[str, Any]) -> dict[int, int]:
    """Every player's flags (by index in the record) in one pass over the actions (plain ints: an ``IntFlag``'s
    operators cost microseconds each, and this runs on the settle path)."""
    n = len(fields.get("starting_stacks", []))
    count = max(n, len(fields.get("players", [])))
    blinds = [int(b) for b in fields.get("blinds_or_straddles", [])] + [0] * count
    # what each player has in before the flop (heads-up: blinds are [small, big], p1 the big blind)
    mine = [blinds[1 - me] if n == 2 and me < 2 else blinds[me] for me in range(count)]
    top = max(blinds[:n] or [0])
    raises = 0  # bets and raises before the flop so far
    flags = [_FLOP] * count
    folded: set[int] = set()
    folded_before_flop: set[int] | None = None  # None until the flop is dealt
    for action in fields.get("actions", []):
        parts = str(action).split()
        if len(parts) < 2:
            continue
        head, verb = parts[0], parts[1]
        if head == "d":
            if verb == "db" and folded_before_flop is None:
                folded_before_flop = set(folded)
            continue
        if not head[1:].isdigit():
            continue
        who = int(head[1:]) - 1
        if verb == "f":
            folded.add(who)
        if folded_before_flop is not None:
            continue
        named = 0 <= who < count
        if named:
            if raises == 1:
                flags[who] |= _CHANCE
            if verb == "cbr":
                flags[who] |= _VPIP | _PFR | (_THREE if raises == 1 else 0)
            elif verb == "cc" and top > mine[who]:
                flags[who] |= _VPIP
        if verb == "cbr":
            raises += 1
            top = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else top
            if named:
                mine[who] = top
        elif verb == "cc" and named:
            mine[who] = top
    if folded_before_flop is not None:
        live = n - len(folded)
        for me in range(count):
            if me in folded_before_flop:
                continue
            flags[me] |= _SAW
            if me not in folded and live >= 2:
                flags[me] |= _SHOWDOWN
    return dict(enumerate(flags))
