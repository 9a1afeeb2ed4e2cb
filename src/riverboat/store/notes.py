"""Player notes: what one player keeps about another -- a private note, a colour tag and whether their chat is
muted -- per account, so it follows the player to any browser. Only the owner ever reads their notes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware
from riverboat.store.errors import InvalidRequest, NotFound
from riverboat.store.models import Player, PlayerNote

#: The colour tags a note may carry ("" = none).
TAGS = ("", "red", "orange", "yellow", "green", "blue", "purple")
MAX_NOTE = 1000


@dataclass(frozen=True, slots=True)
class NoteRecord:
    player_id: int  # the player the note is about
    alias: str | None
    note: str
    tag: str
    muted: bool
    updated_at: datetime


def _record(n: PlayerNote, alias: str | None) -> NoteRecord:
    return NoteRecord(player_id=n.target_id, alias=alias, note=n.note, tag=n.tag, muted=n.muted,
                      updated_at=aware(n.updated_at))


class Notes:
    def __init__(self, db: Database) -> None:
        self._db = db

    def list(self, owner_id: int) -> list[NoteRecord]:
        """Every note of ``owner_id``, with the current alias of the player it is about."""

        def body(s: Session) -> list[NoteRecord]:
            rows = s.execute(select(PlayerNote, Player.alias).join(Player, Player.id == PlayerNote.target_id)
                             .where(PlayerNote.owner_id == owner_id).order_by(PlayerNote.id)).all()
            return [_record(n, alias) for n, alias in rows]

        return self._db.read(body)

    def save(self, owner_id: int, target_id: int, *, note: str = "", tag: str = "", muted: bool = False) -> NoteRecord:
        """Create or replace the note of ``owner_id`` on ``target_id``. An empty note without tag or mute is kept
        (it still records the update). Bad input raises :class:`InvalidRequest` and changes nothing."""
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise InvalidRequest(f"a note holds at most {MAX_NOTE} characters")
        if tag not in TAGS:
            raise InvalidRequest(f"unknown colour tag {tag!r}; tags are: {', '.join(t for t in TAGS if t)}")
        if owner_id == target_id:
            raise InvalidRequest("notes are kept on other players")

        def body(s: Session) -> NoteRecord:
            target = s.get(Player, target_id)
            if target is None:
                raise NotFound(f"no player {target_id}")
            row = s.scalar(select(PlayerNote).where(PlayerNote.owner_id == owner_id, PlayerNote.target_id == target_id))
            if row is None:
                row = PlayerNote(owner_id=owner_id, target_id=target_id)
                s.add(row)
            row.note, row.tag, row.muted, row.updated_at = note, tag, bool(muted), self._db.now()
            s.flush()
            return _record(row, target.alias)

        return self._db.run(body)
