"""The hand-history store: every finished hand (PHH text and events), queryable per player and per table
(R-INTEG-8).  Cash hands are written by :meth:`Ledger.settle_hand`; hands without money (tournament chips) by
:meth:`Hands.record`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.history.keys import search_keys
from riverboat.history.play_flags import play_flags
from riverboat.store import hand_stats
from riverboat.store._tx import Database, aware
from riverboat.store.errors import InvalidRequest
from riverboat.store.hand_stats import FINISHED, PlayCounts, PlayerStatistics
from riverboat.store.models import Hand, HandPlayer


@dataclass(frozen=True, slots=True)
class HandRecord:
    table_id: str
    hand_id: str
    status: str  # started | settled | void | recorded
    currency: str | None
    started_at: datetime
    ended_at: datetime | None
    rake: int
    phh: str | None
    events: list[dict[str, Any]]
    start_stacks: dict[int, int]
    changes: dict[int, int]


RESULTS = ("won", "lost", "even")
KINDS = ("cash", "tournament")


@dataclass(frozen=True, slots=True)
class HandFilter:
    """What the hand-history search asks for (issue #31); every field None matches every hand.

    ``game``: a game id (``holdem``); ``stakes``: the big blind, or without blinds the small bet (history/keys.py);
    ``since`` / ``until``: the hand started at or after / at or before; ``result``: the player's own result,
    ``won`` | ``lost`` | ``even``; ``kind``: ``cash`` | ``tournament`` (a tournament table's id has a slash);
    ``tournament``: one tournament's hands (its tables are ``<tournament id>/...``)."""

    game: str | None = None
    stakes: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    result: str | None = None
    kind: str | None = None
    tournament: str | None = None

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise InvalidRequest(f"result must be one of: {', '.join(RESULTS)}")
        if self.kind is not None and self.kind not in KINDS:
            raise InvalidRequest(f"kind must be one of: {', '.join(KINDS)}")
        if self.stakes is not None and (isinstance(self.stakes, bool) or self.stakes < 0):
            raise InvalidRequest("stakes must be a non-negative integer")
        for name, when in (("since", self.since), ("until", self.until)):
            if when is not None and when.tzinfo is None:
                raise InvalidRequest(f"{name} must carry its time zone")


def _utc(when: datetime) -> datetime:
    """UTC, and naive on SQLite's side as it stores (everything is stored in UTC)."""
    return when.astimezone(UTC)


def _search_query(player_id: int, f: HandFilter) -> Select[int]:
    """The ids of the player's finished hands that match ``f`` (no order, no limit)."""
    q = (select(Hand.id).join(HandPlayer, HandPlayer.hand_pk == Hand.id)
         .where(HandPlayer.player_id == player_id, Hand.status.in_(FINISHED)))
    if f.game is not None:
        q = q.where(Hand.game == f.game)
    if f.stakes is not None:
        q = q.where(Hand.stakes == f.stakes)
    if f.since is not None:
        q = q.where(Hand.started_at >= _utc(f.since))
    if f.until is not None:
        q = q.where(Hand.started_at <= _utc(f.until))
    if f.result == "won":
        q = q.where(HandPlayer.change > 0)
    elif f.result == "lost":
        q = q.where(HandPlayer.change < 0)
    elif f.result == "even":
        q = q.where(func.coalesce(HandPlayer.change, 0) == 0)
    if f.kind is not None:
        slash = Hand.table_id.contains("/", autoescape=True)
        q = q.where(slash if f.kind == "tournament" else ~slash)
    if f.tournament is not None:
        q = q.where(Hand.table_id.startswith(f"{f.tournament}/", autoescape=True))
    return q


def _records(s: Session, hands: Sequence[Hand]) -> list[HandRecord]:
    """Build records for ``hands`` with one query for all their players."""
    by_hand: dict[int, list[HandPlayer]] = {h.id: [] for h in hands}
    if hands:
        for hp in s.scalars(select(HandPlayer).where(HandPlayer.hand_pk.in_(list(by_hand)))):
            by_hand[hp.hand_pk].append(hp)
    return [
        HandRecord(
            table_id=h.table_id, hand_id=h.hand_id, status=h.status, currency=h.currency,
            started_at=aware(h.started_at), ended_at=aware(h.ended_at) if h.ended_at else None, rake=h.rake,
            phh=h.phh, events=list(h.events or []),
            start_stacks={hp.player_id: hp.start_stack for hp in by_hand[h.id]},
            changes={hp.player_id: hp.change for hp in by_hand[h.id] if hp.change is not None},
        )
        for h in hands
    ]


class Hands:
    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, table_id: str, hand_id: str) -> HandRecord | None:
        def body(s: Session) -> HandRecord | None:
            h = s.scalar(select(Hand).where(Hand.table_id == table_id, Hand.hand_id == hand_id))
            return None if h is None else _records(s, [h])[0]

        return self._db.read(body)

    def for_table(self, table_id: str, limit: int = 100, *, include_void: bool = False) -> list[HandRecord]:
        """The table's finished hands, newest first."""

        def body(s: Session) -> list[HandRecord]:
            q = select(Hand).where(Hand.table_id == table_id)
            q = q.where(Hand.status.in_(("settled", "recorded", "void") if include_void else ("settled", "recorded")))
            return _records(s, s.scalars(q.order_by(Hand.id.desc()).limit(limit)).all())

        return self._db.read(body)

    def for_player(
        self, player_id: int, limit: int = 100, *, include_void: bool = False, table_id: str | None = None
    ) -> list[HandRecord]:
        """The finished hands the player was dealt into (optionally at one table), newest first."""

        def body(s: Session) -> list[HandRecord]:
            statuses = ("settled", "recorded", "void") if include_void else ("settled", "recorded")
            q = (select(Hand).join(HandPlayer, HandPlayer.hand_pk == Hand.id)
                 .where(HandPlayer.player_id == player_id, Hand.status.in_(statuses)))
            if table_id is not None:
                q = q.where(Hand.table_id == table_id)
            q = q.order_by(Hand.id.desc()).limit(limit)
            return _records(s, s.scalars(q).all())

        return self._db.read(body)

    def search(self, player_id: int, f: HandFilter, *, offset: int = 0, limit: int = 50
               ) -> tuple[int, list[HandRecord]]:
        """The player's finished hands that match ``f``, newest first: (how many match, one page of them from
        ``offset``).  One count and one page query in SQL (issue #31: paging beyond the last 50)."""
        if offset < 0 or limit < 1:
            raise InvalidRequest("offset must be >= 0 and limit >= 1")

        def body(s: Session) -> tuple[int, list[HandRecord]]:
            ids = _search_query(player_id, f)
            total = int(s.scalar(select(func.count()).select_from(ids.subquery())) or 0)
            if total <= offset:
                return total, []
            page = s.scalars(ids.with_only_columns(Hand).order_by(Hand.id.desc()).offset(offset).limit(limit)).all()
            return total, _records(s, page)

        return self._db.read(body)

    def play_stats(self, player_id: int) -> PlayCounts:
        """The player's play counts (VPIP, PFR, 3-bet, WTSD, won at showdown) over every finished hand, summed in
        SQL from the flags written with each hand (issue #31, second pass)."""
        return self._db.read(lambda s: hand_stats.play_counts(s, player_id))

    def statistics(self, player_id: int, now: datetime, *, gap_seconds: int = 30 * 60, points: int = 400
                   ) -> PlayerStatistics:
        """Everything ``GET /api/stats`` shows, over every finished hand, in one read: the current session (hands
        since the last pause of ``gap_seconds``), the play counts, and the profit per game and currency with at
        most ``points`` graph points each (store/hand_stats.py)."""
        if gap_seconds < 0 or points < 1:
            raise InvalidRequest("gap_seconds must be >= 0 and points >= 1")
        if now.tzinfo is None:
            raise InvalidRequest("now must carry its time zone")
        return self._db.read(lambda s: hand_stats.statistics(s, player_id, now, timedelta(seconds=gap_seconds),
                                                             points))

    def money_since(self, player_id: int, since: datetime) -> tuple[int, dict[str, int]]:
        """(How many money hands the player finished that started at or after ``since``, their net per currency
        over them), summed in SQL over every such hand (the reality check, issue #30)."""
        if since.tzinfo is None:
            raise InvalidRequest("since must carry its time zone")
        return self._db.read(lambda s: hand_stats.money_since(s, player_id, _utc(since)))

    def count(self) -> int:
        """The number of finished hands (settled or recorded)."""
        return self._db.read(lambda s: int(s.scalar(
            select(func.count()).select_from(Hand).where(Hand.status.in_(("settled", "recorded")))) or 0))

    def iter_all(self, batch: int = 500) -> Iterator[HandRecord]:
        """Every finished hand, oldest first, read in batches of ``batch`` (the integrity scan, R-INTEG-8)."""
        last = 0
        while True:
            def body(s: Session, after: int = last) -> tuple[int, list[HandRecord]]:
                q = (select(Hand).where(Hand.id > after, Hand.status.in_(("settled", "recorded")))
                     .order_by(Hand.id).limit(batch))
                rows = s.scalars(q).all()
                return (rows[-1].id if rows else after), _records(s, rows)

            last, records = self._db.read(body)
            if not records:
                return
            yield from records

    def record(
        self,
        table_id: str,
        hand_id: str,
        players: Mapping[int, int],
        phh: str,
        events: Sequence[Mapping[str, Any]] | None = None,
        changes: Mapping[int, int] | None = None,
    ) -> None:
        """Save a finished hand that moved no money (tournament chips): ``players`` maps player id to starting
        stack, ``changes`` to the stack change."""
        if not players:
            raise InvalidRequest("a hand needs players")
        game, stakes = search_keys(phh)
        flags = {pid: int(f) for pid, f in play_flags(phh, changes or {}, players).items()}  # VPIP, PFR...

        def body(s: Session) -> None:
            now = self._db.now()
            h = Hand(table_id=table_id, hand_id=hand_id, currency=None, status="recorded", started_at=now,
                     ended_at=now, rake=0, phh=phh, events=[dict(e) for e in (events or [])], game=game,
                     stakes=stakes)
            s.add(h)
            s.flush()
            s.add_all(HandPlayer(hand_pk=h.id, player_id=pid, start_stack=stack,
                                 change=(changes or {}).get(pid, 0), play=flags.get(pid))
                      for pid, stack in players.items())

        try:
            self._db.run(body)
        except IntegrityError:
            raise InvalidRequest(f"hand {hand_id!r} at table {table_id!r} is already stored, or a player id is unknown") from None
