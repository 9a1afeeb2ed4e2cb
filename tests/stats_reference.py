"""The statistics ``GET /api/stats`` computed in Python before issue #31's second pass (server/player_stats.py's
``play_stats`` and server/hand_views.py's ``statistics``, over the player's last 2,000 hands read whole), kept
verbatim as the reference the store's SQL figures are checked against (tests/history, tests/store, tests/server).
Only the profit graph's thinning (``MAX_SERIES``) differs: the store keeps the last hand of each 400th of a game's
hands, :func:`thin` here."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from riverboat.server.hand_views import game_of

SESSION_GAP_SECONDS = 30 * 60
MAX_SERIES = 400


def thin(series: list[Any], points: int = MAX_SERIES) -> list[Any]:
    """The points the store keeps: with more than ``points``, the last of each ``points``-th part (1-based ``k``
    kept when ``k * points % len < points``), so the last point is always the last hand."""
    n = len(series)
    return [p for k, p in enumerate(series, start=1) if (k * points) % n < points] if n > points else series


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


def statistics(records: Sequence[Any], player_id: int, now: datetime) -> dict[str, Any]:
    """Session statistics (the hands since the last pause of 30 minutes) and the profit after each hand per game
    and currency, oldest first. ``records`` are the player's hands, newest first."""
    hands = sorted(records, key=lambda r: r.started_at)
    session: list[Any] = []
    for r in reversed(hands):  # newest first, back to the first pause
        end = r.ended_at or r.started_at
        ref = session[-1].started_at if session else now
        if (ref - end).total_seconds() > SESSION_GAP_SECONDS:
            break
        session.append(r)
    session.reverse()
    # A tournament hand (no currency) moves tournament chips, not money: it counts as a hand played, but its chips
    # are neither won nor lost money (the prize is what the tournament pays, in the cashier).
    net: dict[str, int] = {}
    for r in session:
        if r.currency is None:
            continue
        net[r.currency] = net.get(r.currency, 0) + int((r.changes or {}).get(player_id, 0))
    out_session: dict[str, Any] = {"hands": len(session), "net": net}
    if session:
        start = session[0].started_at
        end = session[-1].ended_at or session[-1].started_at
        hours = max((end - start).total_seconds(), 60.0) / 3600
        out_session |= {"since": start.isoformat(), "hands_per_hour": round(len(session) / hours)}
    games: dict[tuple[str, str], dict[str, Any]] = {}
    for r in hands:
        if r.currency is None:  # tournament chips: not a profit in any currency
            continue
        game, _, _ = game_of(r)
        key = (game or "unknown", r.currency)
        g = games.setdefault(key, {"game": key[0], "currency": key[1], "hands": 0, "net": 0, "series": []})
        g["hands"] += 1
        g["net"] += int((r.changes or {}).get(player_id, 0))
        g["series"].append([(r.ended_at or r.started_at).isoformat(), g["net"]])
    for g in games.values():
        g["series"] = thin(g["series"])
    return {"session": out_session, "games": sorted(games.values(), key=lambda g: -g["hands"])}
