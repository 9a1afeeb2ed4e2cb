"""A player's statistics over EVERY hand they were dealt (issue #31, second pass), counted by the database: the play
flags written with each hand (``hand_players.play``, history/play_flags.py) summed for VPIP, PFR, 3-bet, WTSD and
won at showdown; the current session (the hands since the last pause of ``gap`` seconds) as a count and a sum per
currency; and the profit per game and currency as a total and at most ``points`` graph points (running totals from
a window function). What the database sends back is bounded by the session's length and by ``points`` per game,
not by how many hands the player has.

Finished hands only (settled or recorded). A tournament hand (no currency) counts as a hand played and in the play
flags, never as money won or lost. Hands are ordered by (start time, id).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, case, func, or_, select
from sqlalchemy.orm import Session

from riverboat.history.play_flags import Play
from riverboat.store._tx import aware
from riverboat.store.models import Hand, HandPlayer

FINISHED = ("settled", "recorded")
_WALK = 250  # hands read per step of the walk back to the session's first hand


@dataclass(frozen=True, slots=True)
class PlayCounts:
    """Flop-game hands and how many of them had each flag; ``other_hands``: stud and draw hands (counted apart)."""

    hands: int = 0
    other_hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet: int = 0
    three_bet_chances: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0


@dataclass(frozen=True, slots=True)
class SessionTotals:
    """The current session: its hands, the money won or lost per currency, its first hand's start and its last
    hand's end (None without a session), and the play counts of its hands."""

    hands: int = 0
    net: dict[str, int] = field(default_factory=dict)
    since: datetime | None = None
    until: datetime | None = None
    play: PlayCounts = PlayCounts()


@dataclass(frozen=True, slots=True)
class GameProfit:
    """One game and currency: hands, money won or lost, and the running total after some of its hands, oldest
    first (every hand up to ``points``; beyond, the last hand of each ``points``-th part, the last hand always)."""

    game: str | None
    currency: str
    hands: int
    net: int
    series: list[tuple[datetime, int]]


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    session: SessionTotals
    play: PlayCounts
    games: list[GameProfit]


_Key = tuple[datetime, int]  # (started_at as stored, id): a hand's place in the order


def _mine(player_id: int) -> Select[Any]:
    return (select().select_from(HandPlayer).join(Hand, Hand.id == HandPlayer.hand_pk)
            .where(HandPlayer.player_id == player_id, Hand.status.in_(FINISHED)))


def _from(key: _Key) -> ColumnElement[bool]:
    """The hands at or after ``key`` in the order."""
    at, pk = key
    return or_(Hand.started_at > at, and_(Hand.started_at == at, Hand.id >= pk))


def _count(flag: Play) -> ColumnElement[Any]:
    return func.coalesce(func.sum(case((HandPlayer.play.bitwise_and(int(flag)) != 0, 1), else_=0)), 0)


def play_counts(s: Session, player_id: int, since: _Key | None = None) -> PlayCounts:
    """The sums of the player's play flags (at or after ``since``), one aggregate query."""
    q = _mine(player_id).where(HandPlayer.play.is_not(None)).add_columns(
        _count(Play.FLOP_GAME), func.coalesce(func.sum(case((HandPlayer.play == 0, 1), else_=0)), 0),
        _count(Play.VPIP), _count(Play.PFR), _count(Play.THREE_BET), _count(Play.THREE_BET_CHANCE),
        _count(Play.SAW_FLOP), _count(Play.SHOWDOWN), _count(Play.WON_AT_SHOWDOWN))
    if since is not None:
        q = q.where(_from(since))
    row = s.execute(q).one()
    return PlayCounts(*(int(v) for v in row))


def session_start(s: Session, player_id: int, now: datetime, gap: timedelta) -> tuple[_Key, datetime] | None:
    """(The session's first hand, its last hand's end): walking back from the newest hand while the pause between
    a hand's end and the next hand's start (for the newest: ``now``) is at most ``gap``. Reads two times per hand
    of the session only, ``_WALK`` at a time; None when the last hand ended more than ``gap`` before ``now``."""
    ref = now
    first: _Key | None = None
    last_end: datetime | None = None
    while True:
        q = _mine(player_id).add_columns(Hand.started_at, Hand.ended_at, Hand.id)
        if first is not None:
            at, pk = first
            q = q.where(or_(Hand.started_at < at, and_(Hand.started_at == at, Hand.id < pk)))
        rows = s.execute(q.order_by(Hand.started_at.desc(), Hand.id.desc()).limit(_WALK)).all()
        for started, ended, pk in rows:
            end = aware(ended or started)
            if ref - end > gap:
                return None if first is None or last_end is None else (first, last_end)
            if last_end is None:
                last_end = end
            first, ref = (started, pk), aware(started)
        if len(rows) < _WALK:
            return None if first is None or last_end is None else (first, last_end)


def session_totals(s: Session, player_id: int, now: datetime, gap: timedelta) -> SessionTotals:
    found = session_start(s, player_id, now, gap)
    if found is None:
        return SessionTotals()
    first, until = found
    rows = s.execute(_mine(player_id).where(_from(first))
                     .add_columns(Hand.currency, func.count(), func.coalesce(func.sum(HandPlayer.change), 0))
                     .group_by(Hand.currency)).all()
    net = {str(cur): int(total) for cur, _n, total in rows if cur is not None}
    return SessionTotals(hands=sum(int(n) for _c, n, _t in rows), net=net, since=aware(first[0]), until=until,
                         play=play_counts(s, player_id, first))


def money_since(s: Session, player_id: int, since: datetime) -> tuple[int, dict[str, int]]:
    """(Money hands started at or after ``since``, the player's net per currency over them): one aggregate query
    (the reality check's figures, issue #30)."""
    rows = s.execute(_mine(player_id).where(Hand.started_at >= since, Hand.currency.is_not(None),
                                            HandPlayer.change.is_not(None))
                     .add_columns(Hand.currency, func.count(), func.coalesce(func.sum(HandPlayer.change), 0))
                     .group_by(Hand.currency)).all()
    return sum(int(n) for _c, n, _t in rows), {str(cur): int(total) for cur, _n, total in rows}


def profit_by_game(s: Session, player_id: int, points: int) -> list[GameProfit]:
    """Per game and currency (money hands only): hands, net and at most ``points`` running totals, from one
    window query (the database numbers each game's hands and keeps the chosen ones)."""
    part = (Hand.game, Hand.currency)
    order = (Hand.started_at, Hand.id)
    numbered = (_mine(player_id).where(Hand.currency.is_not(None))
                .add_columns(Hand.game, Hand.currency, Hand.started_at, Hand.ended_at,
                             func.sum(func.coalesce(HandPlayer.change, 0)).over(
                                 partition_by=part, order_by=order, rows=(None, 0)).label("running"),
                             func.row_number().over(partition_by=part, order_by=order).label("k"),
                             func.count().over(partition_by=part).label("n"))
                .subquery())
    c = numbered.c
    rows = s.execute(select(c.game, c.currency, c.started_at, c.ended_at, c.running, c.k, c.n)
                     .where(or_(c.n <= points, (c.k * points) % c.n < points))
                     .order_by(c.game, c.currency, c.k)).all()
    games: dict[tuple[str | None, str], GameProfit] = {}
    for game, currency, started, ended, running, _k, n in rows:
        g = games.get((game, currency))
        if g is None:
            g = games[(game, currency)] = GameProfit(game, str(currency), int(n), 0, [])
        g.series.append((aware(ended or started), int(running)))
    out = [GameProfit(g.game, g.currency, g.hands, g.series[-1][1], g.series) for g in games.values()]
    return sorted(out, key=lambda g: (-g.hands, g.game or "", g.currency))


def statistics(s: Session, player_id: int, now: datetime, gap: timedelta, points: int) -> PlayerStatistics:
    return PlayerStatistics(session=session_totals(s, player_id, now, gap), play=play_counts(s, player_id),
                            games=profit_by_game(s, player_id, points))

