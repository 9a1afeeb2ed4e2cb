"""The hand-history store: every finished hand (PHH text and events), queryable per player and per table
(R-INTEG-8).  Cash hands are written by :meth:`Ledger.settle_hand`; hands without money (tournament chips) by
:meth:`Hands.record`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware
from riverboat.store.errors import InvalidRequest
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

        def body(s: Session) -> None:
            now = self._db.now()
            h = Hand(table_id=table_id, hand_id=hand_id, currency=None, status="recorded", started_at=now,
                     ended_at=now, rake=0, phh=phh, events=[dict(e) for e in (events or [])])
            s.add(h)
            s.flush()
            s.add_all(HandPlayer(hand_pk=h.id, player_id=pid, start_stack=stack,
                                 change=(changes or {}).get(pid, 0)) for pid, stack in players.items())

        try:
            self._db.run(body)
        except IntegrityError:
            raise InvalidRequest(f"hand {hand_id!r} at table {table_id!r} is already stored, or a player id is unknown") from None
