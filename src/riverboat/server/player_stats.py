"""``GET /api/stats``'s answer (issue #31): a player's statistics over EVERY hand they were dealt, counted by the
store in SQL (store/hand_stats.py, from the play flags written with each hand: history/play_flags.py), shaped as
the account page reads them (web/js/account_view.js ``renderStats``):

- ``session``: ``hands``, ``net`` (per currency), and with hands ``since`` and ``hands_per_hour``; ``play`` (the
  session's play statistics, as below);
- ``play``: the trackers' statistics over every hand, as percentages (None without hands) and counts:

  - **VPIP**: hands where the player put money in voluntarily before the flop / hands dealt;
  - **PFR**: hands where they raised before the flop / hands dealt;
  - **3-bet**: re-raises before the flop / the times they faced exactly one raise before the flop;
  - **WTSD**: hands they went to showdown / hands they saw the flop in;
  - **W$SD** (won at showdown): showdowns they won money in / showdowns.

  Flop games only (Hold'em, Omaha, Six Plus...): stud and draw hands are counted apart (``other_hands``);
- ``games``: per game and currency, ``hands``, ``net`` and ``series``, at most :data:`MAX_SERIES` points
  ``[time the hand ended, running total]``, oldest first (tournament chips are not money: no tournament hands).
"""

from __future__ import annotations

from typing import Any

from riverboat.store.hand_stats import GameProfit, PlayCounts, PlayerStatistics, SessionTotals

SESSION_GAP_SECONDS = 30 * 60  # a pause this long between two hands ends a session
MAX_SERIES = 400  # points of a profit graph


def _pct(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def play_answer(c: PlayCounts) -> dict[str, Any]:
    return {"hands": c.hands, "other_hands": c.other_hands,
            "vpip": _pct(c.vpip, c.hands), "pfr": _pct(c.pfr, c.hands),
            "three_bet": _pct(c.three_bet, c.three_bet_chances),
            "wtsd": _pct(c.showdowns, c.saw_flop), "wsd": _pct(c.won_at_showdown, c.showdowns),
            "counts": {"vpip": c.vpip, "pfr": c.pfr, "three_bet": c.three_bet,
                       "three_bet_chances": c.three_bet_chances, "saw_flop": c.saw_flop,
                       "showdowns": c.showdowns, "won_at_showdown": c.won_at_showdown}}


def session_answer(s: SessionTotals) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": s.hands, "net": dict(s.net)}
    if s.hands and s.since is not None and s.until is not None:
        hours = max((s.until - s.since).total_seconds(), 60.0) / 3600
        out |= {"since": s.since.isoformat(), "hands_per_hour": round(s.hands / hours)}
    return out | {"play": play_answer(s.play)}


def game_answer(g: GameProfit) -> dict[str, Any]:
    return {"game": g.game or "unknown", "currency": g.currency, "hands": g.hands, "net": g.net,
            "series": [[at.isoformat(), total] for at, total in g.series]}


def stats_answer(st: PlayerStatistics) -> dict[str, Any]:
    return {"session": session_answer(st.session), "games": [game_answer(g) for g in st.games],
            "play": play_answer(st.play)}
