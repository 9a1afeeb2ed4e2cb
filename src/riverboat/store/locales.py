"""The client language a player chose (issue #32): one of :data:`LOCALES`, kept per account so it follows the
player to any browser. A player who never chose has none (the client then uses the browser's language)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from riverboat.store._tx import Database
from riverboat.store.errors import InvalidRequest, NotFound
from riverboat.store.models import Player, PlayerLocale

#: The languages of the client: English, Latvian, Russian, Lithuanian, Finnish.
LOCALES = ("en", "lv", "ru", "lt", "fi")


class Locales:
    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, player_id: int) -> str | None:
        """The player's chosen locale, or None if they never chose one."""

        def body(s: Session) -> str | None:
            row = s.get(PlayerLocale, player_id)
            return row.locale if row is not None else None

        return self._db.read(body)

    def set(self, player_id: int, locale: str) -> str:
        """Remember ``locale`` for the player. An unknown locale raises :class:`InvalidRequest` and changes
        nothing; an unknown player :class:`NotFound`."""
        if locale not in LOCALES:
            raise InvalidRequest(f"unknown language {locale!r}; the languages are: {', '.join(LOCALES)}")

        def body(s: Session) -> str:
            if s.get(Player, player_id) is None:
                raise NotFound(f"no player {player_id}")
            row = s.get(PlayerLocale, player_id)
            if row is None:
                row = PlayerLocale(player_id=player_id)
                s.add(row)
            row.locale, row.updated_at = locale, self._db.now()
            s.flush()
            return row.locale

        return self._db.run(body)
