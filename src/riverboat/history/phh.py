"""Read and write PHH (Poker Hand History) files: TOML, ``.phh`` (one hand) and ``.phhs`` (``[1]``, ``[2]``...).

Variant codes: the standard PHH codes keep PHH's (PokerKit's) meaning and map to our games in their PHH reading
(see ``docs/phh-variants.md`` and ``docs/rules-differences.md``). Every game and structure Riverboat deals also
has a user code ``RB/<game id>/<structure label>`` (``RB/soko/FL``, ``RB/holdem/SL``, ``RB/draw32/HPL``...),
which reads back with the RULES.md reading. Amounts with decimals (``2.50``) are converted to integers in the
finest unit the record uses.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from riverboat.games.catalog import Game, get_game, phh_game
from riverboat.games.structures import Structure


class PhhError(ValueError):
    """The text is not valid PHH (or names an unknown variant); the message says where."""


# PHH code -> (game id, structure), every code of the PHH spec (FB, badugi, is a PHH-only game of ours).
# These use the PHH reading of the game (phh_game()).
PHH_VARIANTS: dict[str, tuple[str, Structure]] = {
    "NT": ("holdem", Structure.NO_LIMIT),
    "FT": ("holdem", Structure.FIXED_LIMIT),
    "PO": ("omaha", Structure.POT_LIMIT),
    "FO/8": ("omaha_hl", Structure.FIXED_LIMIT),
    "NS": ("short_deck_phh", Structure.NO_LIMIT),
    "F7S": ("stud", Structure.FIXED_LIMIT),
    "F7S/8": ("stud_hl", Structure.FIXED_LIMIT),
    "FR": ("razz", Structure.FIXED_LIMIT),
    "N2L1D": ("single_draw_27", Structure.NO_LIMIT),
    "F2L3D": ("triple_draw_27", Structure.FIXED_LIMIT),
    "FB": ("badugi", Structure.FIXED_LIMIT),
}
_STRUCT_BY_LABEL = {s.value: s for s in Structure}
USER_PREFIX = "RB/"
#: A user field of a record under a standard code written by the room (issue #31 item 6): ``"riverboat"`` -- read
#: it with the room's readings (docs/phh-variants.md) and its ``_setting_`` / ``_game_`` fields, as an ``RB/`` code.
READINGS_FIELD = "_readings"


def user_code(game: Game, structure: Structure) -> str:
    """Our user variant code for a game and structure, e.g. ``RB/soko/FL``."""
    return f"{USER_PREFIX}{game.id}/{structure.value}"


def resolve_variant(code: str) -> tuple[Game, Structure]:
    """The game (in the reading the code stands for) and structure of a PHH or ``RB/`` variant code."""
    if code.startswith(USER_PREFIX):
        parts = code[len(USER_PREFIX):].split("/")
        if len(parts) != 2 or parts[1] not in _STRUCT_BY_LABEL:
            raise PhhError(f"bad Riverboat variant code {code!r} (expected RB/<game>/<FL|SL|PL|HPL|NL>)")
        try:
            game = get_game(parts[0])
        except KeyError as exc:
            raise PhhError(str(exc.args[0])) from None
        structure = _STRUCT_BY_LABEL[parts[1]]
        if structure not in game.structures:
            raise PhhError(f"{game.name} is not played {structure.name}")
        return game, structure
    try:
        gid, structure = PHH_VARIANTS[code]
    except KeyError:
        raise PhhError(f"unsupported PHH variant {code!r}; supported: {', '.join(PHH_VARIANTS)} and RB/...") from None
    return phh_game(get_game(gid)), structure


@dataclass(slots=True)
class PhhHand:
    """One hand record: the TOML fields as read (``fields``) plus where it came from."""

    fields: dict[str, Any]
    source: str = ""
    index: int = 0  # position in a .phhs file (0 for a .phh file)
    errors: list[str] = field(default_factory=list)

    @property
    def variant(self) -> str:
        return str(self.fields.get("variant", ""))

    @property
    def actions(self) -> list[str]:
        return list(self.fields.get("actions", []))


_REQUIRED = ("variant", "starting_stacks", "actions")

# R-AAI-1 (PHH has no verb for it): ``_artificial_allin = [[k, p], ...]`` -- player ``p`` (1-based) was made
# artificially all-in for the chips already committed, after the first ``k`` entries of ``actions``.
ARTIFICIAL_ALLIN_FIELD = "_artificial_allin"


def _check(fields: Mapping[str, Any], where: str) -> None:
    for key in _REQUIRED:
        if key not in fields:
            raise PhhError(f"{where}: missing required field {key!r}")
    if not isinstance(fields["variant"], str):
        raise PhhError(f"{where}: variant must be a string")
    if not isinstance(fields["actions"], list) or not all(isinstance(a, str) for a in fields["actions"]):
        raise PhhError(f"{where}: actions must be a list of strings")
    stacks = fields["starting_stacks"]
    if not isinstance(stacks, list) or not stacks or not all(_is_num(x) for x in stacks):
        raise PhhError(f"{where}: starting_stacks must be a non-empty list of numbers")


def _is_num(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def loads(text: str, source: str = "<string>", many: bool | None = None) -> list[PhhHand]:
    """Parse PHH text. ``many``: a ``.phhs`` file of tables ``[1]``, ``[2]``... (guessed when None)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{source}: not valid TOML: {exc}") from None
    if many is None:
        many = "variant" not in data and bool(data) and all(isinstance(v, dict) for v in data.values())
    if not many:
        _check(data, source)
        return [PhhHand(dict(data), source, 0)]
    hands: list[PhhHand] = []
    for key, value in data.items():
        if not isinstance(value, dict):
            raise PhhError(f"{source}: .phhs entries must be tables, got {key!r}")
        _check(value, f"{source}[{key}]")
        hands.append(PhhHand(dict(value), source, len(hands)))
    return hands


def load(path: str | Path) -> list[PhhHand]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PhhError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PhhError(f"{p}: cannot read: not UTF-8 text") from None
    return loads(text, str(p), many=p.suffix == ".phhs" or None)


# ---------------------------------------------------------------------------------------------------- writing
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float | Decimal):
        s = format(Decimal(str(v)), "f")
        return s
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, dt.time | dt.date | dt.datetime):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise PhhError(f"cannot write {type(v).__name__} to PHH")


def dumps(fields: Mapping[str, Any]) -> str:
    """One hand as PHH text (``variant`` first, then the other fields in their order)."""
    keys = ["variant"] + [k for k in fields if k != "variant"]
    lines = []
    for k in keys:
        if k not in fields:
            continue
        if not _BARE_KEY.match(k):
            raise PhhError(f"bad field name {k!r}")
        lines.append(f"{k} = {_value(fields[k])}")
    return "\n".join(lines) + "\n"


def dumps_many(hands: Iterable[Mapping[str, Any]]) -> str:
    """Several hands as ``.phhs`` text."""
    return "\n".join(f"[{i}]\n{dumps(h)}" for i, h in enumerate(hands, start=1))
