"""The search keys of a stored hand (issue #31, the hand-history search): its game and its stakes, read once from
the PHH text when the hand is written, so the store can filter hands in SQL instead of parsing every record.

``game`` is the game id as the history pages name it (``holdem``, ``stud``, ``triple_draw_27``...; a PHH-only
reading such as ``short_deck_phh`` without its ``_phh``); ``stakes`` is the big blind, or in a game without blinds
(stud) the small bet, in the record's units.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from riverboat.games.catalog import Game
from riverboat.games.structures import Structure
from riverboat.history.phh import PhhError, resolve_variant

_VARIANT = re.compile(r'^variant\s*=\s*"([^"]+)"', re.MULTILINE)
_BLINDS = re.compile(r"^blinds_or_straddles\s*=\s*\[([^\]\n]*)\]\s*$", re.MULTILINE)
_SMALL_BET = re.compile(r"^small_bet\s*=\s*(\S+)\s*$", re.MULTILINE)


@lru_cache(maxsize=256)
def _variant_of_code(code: str) -> tuple[Game, Structure] | None:
    try:
        return resolve_variant(code)
    except (PhhError, KeyError):
        return None


def variant_of(phh: str | None) -> tuple[str, Game, Structure] | None:
    """(game id as the history pages name it, the game, its structure) of a PHH record, from its variant code;
    None when it names no variant the room knows. Shared by the search keys and the history views."""
    m = _VARIANT.search(phh or "")
    found = _variant_of_code(m.group(1)) if m else None
    if found is None:
        return None
    game, structure = found
    return game.id.removesuffix("_phh"), game, structure


def game_key(phh: str | None) -> str | None:
    """The game id of a PHH record (None when it names no variant the room knows)."""
    found = variant_of(phh)
    return found[0] if found else None


def stakes_key(fields: Mapping[str, Any]) -> int | None:
    """The big blind, or (no blinds: stud) the small bet; None when the record has neither."""
    try:
        blinds = [int(b) for b in fields.get("blinds_or_straddles", []) if int(b) > 0]
        small_bet = int(fields.get("small_bet", 0) or 0)
    except (TypeError, ValueError):
        return None
    if blinds:
        return max(blinds)
    return small_bet or None


def _quick_fields(phh: str) -> dict[str, Any] | None:
    """The two stake fields as the room's writer puts them (one line each, integers), without parsing the whole
    record; None when they are written any other way (then TOML reads them)."""
    fields: dict[str, Any] = {}
    blinds = _BLINDS.search(phh)
    if blinds:
        items = [b.strip() for b in blinds.group(1).split(",") if b.strip()]
        if not all(b.isdigit() for b in items):
            return None
        fields["blinds_or_straddles"] = [int(b) for b in items]
    small = _SMALL_BET.search(phh)
    if small:
        if not small.group(1).isdigit():
            return None
        fields["small_bet"] = int(small.group(1))
    return fields


def search_keys(phh: str | None) -> tuple[str | None, int | None]:
    """(game, stakes) of a stored hand's PHH text."""
    if not phh:
        return None, None
    fields = _quick_fields(phh)
    if fields is None:
        try:
            fields = tomllib.loads(phh)
        except tomllib.TOMLDecodeError:
            return game_key(phh), None
    return game_key(phh), stakes_key(fields)
