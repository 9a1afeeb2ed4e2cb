"""A player's playing statistics from their stored hands (issue #31, "What to add"), as trackers define them:

- **VPIP**: hands where the player put money in voluntarily before the flop (a call of more than their blind, a bet
  or a raise) / hands dealt;
- **PFR**: hands where they raised before the flop / hands dealt;
- **3-bet**: re-raises before the flop / the times they faced exactly one raise before the flop;
- **WTSD**: hands they went to showdown / hands they saw the flop in;
- **W$SD** (won at showdown): showdowns they won money in / showdowns.

Read from each hand's PHH actions (players ``p1..pn`` in the record's order; heads-up the blinds are listed
``[small, big]`` with ``p1`` the big blind, docs/phh-variants.md). Flop games only (Hold'em, Omaha, Six Plus...):
stud and draw games have no flop, and their hands are counted apart (``other_hands``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_NOT_FLOP = ("F7S", "FR", "F2L3D", "N2L1D", "FB", "RB/stud", "RB/razz", "RB/soko", "RB/americana", "RB/draw",
             "RB/triple_draw", "RB/single_draw", "RB/badugi")


@dataclass
class Counts:
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet: int = 0
    three_bet_chances: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    other_hands: int = 0

    def as_dict(self) -> dict[str, Any]:
        def pct(part: int, whole: int) -> float | None:
            return round(100 * part / whole, 1) if whole else None

        return {"hands": self.hands, "other_hands": self.other_hands,
                "vpip": pct(self.vpip, self.hands), "pfr": pct(self.pfr, self.hands),
                "three_bet": pct(self.three_bet, self.three_bet_chances),
                "wtsd": pct(self.showdowns, self.saw_flop), "wsd": pct(self.won_at_showdown, self.showdowns),
                "counts": {"vpip": self.vpip, "pfr": self.pfr, "three_bet": self.three_bet,
                           "three_bet_chances": self.three_bet_chances, "saw_flop": self.saw_flop,
                           "showdowns": self.showdowns, "won_at_showdown": self.won_at_showdown}}


def _fields(record: Any) -> dict[str, Any]:
    try:
        return tomllib.loads(getattr(record, "phh", None) or "")
    except tomllib.TOMLDecodeError:
        return {}


def add_hand(c: Counts, fields: dict[str, Any], me: int, net: int) -> None:
    """Count one flop-game hand of the player at index ``me`` (0-based) who ended it ``net`` chips up or down."""
    n = len(fields.get("starting_stacks", []))
    blinds = [int(b) for b in fields.get("blinds_or_straddles", [])] + [0] * n
    mine = blinds[1 - me] if n == 2 else blinds[me]  # heads-up: [small, big], p1 the big blind
    top = max(blinds[:n] or [0])
    c.hands += 1
    raises = 0
    vpip = pfr = three = chance = False
    folded: set[int] = set()
    flop = False
    for action in (str(a) for a in fields.get("actions", [])):
        parts = action.split()
        if parts[:2] == ["d", "db"]:
            flop = True
            continue
        if parts[0] == "d" or len(parts) < 2 or not parts[0][1:].isdigit():
            continue
        who = int(parts[0][1:]) - 1
        verb = parts[1]
        if verb == "f":
            folded.add(who)
        if flop:
            continue
        if who == me:
            if raises == 1:
                chance = True
            if verb == "cbr":
                vpip = pfr = True
                three = three or raises == 1
            elif verb == "cc" and top > mine:
                vpip = True
        if verb == "cbr":
            raises += 1
            top = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else top
            if who == me:
                mine = top
        elif verb == "cc" and who == me:
            mine = top
    c.vpip += vpip
    c.pfr += pfr
    c.three_bet += three
    c.three_bet_chances += chance
    if flop and me not in folded_before_flop(fields, me):
        c.saw_flop += 1
        if me not in folded and n - len(folded) >= 2:
            c.showdowns += 1
            c.won_at_showdown += net > 0


def folded_before_flop(fields: dict[str, Any], me: int) -> set[int]:
    out: set[int] = set()
    for action in (str(a) for a in fields.get("actions", [])):
        parts = action.split()
        if parts[:2] == ["d", "db"]:
            break
        if len(parts) >= 2 and parts[1] == "f" and parts[0][1:].isdigit():
            out.add(int(parts[0][1:]) - 1)
    return out


def play_stats(records: Iterable[Any], player_id: int) -> dict[str, Any]:
    """VPIP, PFR, 3-bet, WTSD and W$SD over ``records`` (the player's stored hands)."""
    c = Counts()
    for record in records:
        fields = _fields(record)
        players = [str(p) for p in fields.get("players", [])]
        if str(player_id) not in players:
            continue
        if str(fields.get("variant", "")).startswith(_NOT_FLOP):
            c.other_hands += 1
            continue
        net = int((getattr(record, "changes", None) or {}).get(player_id, 0))
        add_hand(c, fields, players.index(str(player_id)), net)
    return c.as_dict()
