"""A stored PHH record as one player may see it (R-GEN-5): the record the room keeps holds every player's hole
cards, mucked ones included; the copy handed to a player keeps their own cards, every card dealt face up and every
card shown down, and writes ``??`` (PHH's unknown card) for the rest. Player ids become public names."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

from riverboat.history.phh import PhhError, dumps

#: Fields of the stored record that say nothing to the player or name internal ids.
_DROP = ("table", "hand")


def _split(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def visible_cards(events: Iterable[Mapping[str, Any]], viewer_seat: int | None) -> dict[int, set[str]]:
    """Per table seat, the cards of that seat the viewer has seen in the events they may see (face-up deals,
    cards shown down, and all of the viewer's own)."""
    seen: dict[int, set[str]] = {}
    for ev in events:
        seat = ev.get("seat")
        if seat is None:
            continue
        kind = ev.get("kind")
        public = ev.get("visible_to") is None
        mine = seat == viewer_seat
        if kind == "dealt" and (public and ev.get("up") or mine):
            seen.setdefault(int(seat), set()).update(ev.get("cards") or [])
        elif kind == "showed":
            seen.setdefault(int(seat), set()).update(ev.get("cards") or [])
        elif kind == "drew_cards" and mine:
            seen.setdefault(int(seat), set()).update((ev.get("cards") or []) + (ev.get("discarded") or []))
    return seen


def masked_phh(text: str, *, viewer_seat: int | None, events: Iterable[Mapping[str, Any]],
               names: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> str:
    """The PHH ``text`` of a stored hand with every card ``viewer_seat`` may not see as ``??``, the players named by
    ``names`` (player id -> public name) and ``extra`` fields added (e.g. ``table`` = the table's name)."""
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"stored hand is not PHH: {exc}") from None
    seats = [int(s) for s in fields.get("seats", [])]
    seen = visible_cards(events, viewer_seat)
    out_actions = []
    for action in fields.get("actions", []):
        parts = str(action).split()
        if len(parts) >= 4 and parts[0] == "d" and parts[1] == "dh":
            seat = _seat_of(parts[2], seats)
            if seat != viewer_seat:
                known = seen.get(seat, set()) if seat is not None else set()
                parts[3] = "".join(c if c in known else "??" for c in _split(parts[3]))
        elif len(parts) >= 3 and parts[1] == "sd" and parts[0].startswith("p"):
            seat = _seat_of(parts[0], seats)
            if seat != viewer_seat:
                parts[2] = "??" * len(_split(parts[2]))
        out_actions.append(" ".join(parts))
    fields["actions"] = out_actions
    if "players" in fields:
        fields["players"] = [names.get(str(p), f"Player {i + 1}") for i, p in enumerate(fields["players"])]
    for key in _DROP:
        fields.pop(key, None)
    fields.update(extra or {})
    return dumps(fields)


def _seat_of(token: str, seats: list[int]) -> int | None:
    try:
        n = int(token.lstrip("p"))
    except ValueError:
        return None
    return seats[n - 1] if 0 < n <= len(seats) else None
