"""Aliases (R-ALIAS): the public table name of a player.

* assigned on first login (R-ALIAS-1): the username if it is an acceptable, free alias, else ``Player`` + digits;
* ``^[A-Za-z0-9]{4,16}$`` (R-ALIAS-5), unique ignoring case, exactly one per player (R-ALIAS-3, R-INTEG-7);
* the player may change it once (R-ALIAS-2), the automatic first alias included;
* offensive aliases are refused by the word filter, and an operator may reject or force-rename any alias
  (R-ALIAS-4, R-OPER-5).  A rejected alias must be replaced; that replacement does not use up the one change.
"""

from __future__ import annotations

import random
import re
import secrets

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database
from riverboat.store.alias_filter import offensive_word
from riverboat.store.errors import AliasRefused, InvalidRequest, NotFound
from riverboat.store.models import Player
from riverboat.store.person_names import person_alias

ALIAS_RE = re.compile(r"^[A-Za-z0-9]{4,16}$")


def validate_alias(alias: str) -> None:
    """Raise :class:`AliasRefused` with the reason if ``alias`` breaks R-ALIAS-5 or R-ALIAS-4."""
    if not isinstance(alias, str):
        raise AliasRefused("an alias must be text (R-ALIAS-5)")
    if not 4 <= len(alias) <= 16:
        raise AliasRefused(f"an alias must be 4 to 16 characters long; {alias!r} has {len(alias)} (R-ALIAS-5)")
    if not ALIAS_RE.match(alias):
        raise AliasRefused("an alias may contain only letters A-Z, a-z and digits 0-9 (R-ALIAS-5)")
    word = offensive_word(alias)
    if word is not None:
        raise AliasRefused("this alias is offensive and is not allowed; choose another (R-ALIAS-4)")


def _taken(s: Session, alias: str, by: int | None) -> bool:
    other = s.scalar(select(Player.id).where(Player.alias_key == alias.lower()))
    return other is not None and other != by


def auto_alias(s: Session, p: Player) -> None:
    """Give ``p`` its first alias (R-ALIAS-1): its username when acceptable and free, else ``PlayerNNNNNN``."""
    candidates = [p.username] + [f"Player{secrets.randbelow(10**8):08d}" for _ in range(20)]
    for cand in candidates:
        try:
            validate_alias(cand)
        except AliasRefused:
            continue
        if not _taken(s, cand, p.id):
            p.alias, p.alias_key = cand, cand.lower()
            return
    raise AliasRefused("could not find a free alias")  # pragma: no cover - 20 random 8-digit tries


class Aliases:
    def __init__(self, db: Database) -> None:
        self._db = db

    def check(self, alias: str) -> None:
        """Raise :class:`AliasRefused` saying why ``alias`` is not acceptable (format or filter)."""
        validate_alias(alias)

    def set(self, player_id: int, alias: str) -> str:
        """Choose the first alias of a player who has none yet."""

        def body(s: Session) -> str:
            p = self._player(s, player_id)
            if p.alias is not None:
                raise AliasRefused(
                    f"you already have the alias {p.alias!r}: a player has only one alias (R-ALIAS-3), which may be "
                    "changed once (R-ALIAS-2)"
                )
            return self._assign(s, p, alias)

        return self._guard(body, alias)

    def set_person_like(self, player_id: int, rng: random.Random) -> str:
        """Give a bot account without an alias a first alias like a person's (``Marta``, ``LuckyIlze7``; issue #14:
        bots are not named ``PlayerNNNNNNNN``), trying other names while one is taken or refused."""
        taken: set[str] = set()
        for _ in range(50):
            try:
                return self.set(player_id, person_alias(rng, taken))
            except AliasRefused as exc:
                if "already have the alias" in str(exc):
                    raise
        raise AliasRefused("could not find a free alias")  # pragma: no cover - 58 names x 7 styles x 99 numbers

    def change(self, player_id: int, alias: str) -> str:
        """Replace the alias.  Allowed once (R-ALIAS-2), plus whenever an operator has rejected it (R-ALIAS-4)."""

        def body(s: Session) -> str:
            p = self._player(s, player_id)
            if p.alias is None:
                return self._assign(s, p, alias)
            if p.alias_must_change:
                self._assign(s, p, alias)
                p.alias_must_change = False
                return alias
            if p.alias_changes >= 1:
                raise AliasRefused("the alias has already been changed once and cannot be changed again (R-ALIAS-2)")
            if alias == p.alias:
                raise AliasRefused("the new alias is the same as the current one")
            self._assign(s, p, alias)
            p.alias_changes += 1
            return alias

        return self._guard(body, alias)

    def reject(self, operator_id: int, player_id: int, reason: str) -> str:
        """Operator: judge the player's alias offensive (R-ALIAS-4, R-OPER-5).  It is replaced at once by a neutral
        ``PlayerNNNNNNNN`` alias and the player must choose another.  Returns the neutral alias."""
        from riverboat.store.accounts import require_operator

        if not reason:
            raise InvalidRequest("a rejection needs a reason the player is shown")

        def body(s: Session) -> str:
            require_operator(s, operator_id)
            p = self._player(s, player_id)
            p.alias, p.alias_key = None, None
            s.flush()
            auto_alias_neutral(s, p)
            p.alias_must_change = True
            assert p.alias is not None
            return p.alias

        return self._db.run(body)

    def force_rename(self, operator_id: int, player_id: int, alias: str) -> str:
        """Operator: set the alias directly (format and uniqueness still apply; the change limit does not)."""
        from riverboat.store.accounts import require_operator

        def body(s: Session) -> str:
            require_operator(s, operator_id)
            p = self._player(s, player_id)
            self._assign(s, p, alias)
            p.alias_must_change = False
            return alias

        return self._guard(body, alias)

    def lookup(self, alias: str) -> int | None:
        """The id of the player whose alias is ``alias`` (ignoring case), if any."""

        def body(s: Session) -> int | None:
            return s.scalar(select(Player.id).where(Player.alias_key == func.lower(alias)))

        return self._db.read(body)

    # ----------------------------------------------------------------------
    @staticmethod
    def _player(s: Session, player_id: int) -> Player:
        p = s.get(Player, player_id, with_for_update=True)
        if p is None:
            raise NotFound(f"no player with id {player_id!r}")
        return p

    @staticmethod
    def _assign(s: Session, p: Player, alias: str) -> str:
        validate_alias(alias)
        if _taken(s, alias, p.id):
            raise AliasRefused(f"the alias {alias!r} is taken (aliases are unique ignoring case)")
        p.alias, p.alias_key = alias, alias.lower()
        s.flush()
        return alias

    def _guard(self, body: object, alias: str) -> str:
        try:
            return self._db.run(body)  # type: ignore[arg-type]
        except IntegrityError:
            raise AliasRefused(f"the alias {alias!r} is taken (aliases are unique ignoring case)") from None


def auto_alias_neutral(s: Session, p: Player) -> None:
    """A fresh neutral alias, never derived from the username."""
    for _ in range(20):
        cand = f"Player{secrets.randbelow(10**8):08d}"
        if not _taken(s, cand, p.id):
            p.alias, p.alias_key = cand, cand.lower()
            return
    raise AliasRefused("could not find a free alias")  # pragma: no cover
