"""Events: every change of a hand, with who may see it.

``visible_to`` is ``None`` for everyone, or the frozenset of seats allowed to see the event (a hole card: its
owner). Tables, histories and clients are all fed from the same stream (``Hand.events``).

Kinds: ``posted`` (ante/blind/dead/bring_in), ``dealt`` (hole card(s) to a seat; ``up`` says face up),
``board`` (community cards; ``run`` for run it twice), ``acted`` (an action), ``drew`` (discard count, public) with
a private ``drew_cards`` event for the drawer, ``reshuffled``, ``returned`` (uncalled bet, R-POT-4),
``street`` (a betting round begins), ``showed``/``mucked``, ``pot_awarded``, ``rake``, ``split_agreed``,
``hand_over``.
"""

from __future__ import annotations

from typing import Any, cast

from riverboat.engine.views import EngineEvent


class Event:
    """One change of a hand (treat as read-only)."""

    __slots__ = ("kind", "seat", "data", "visible_to")

    def __init__(self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None,
                 visible_to: frozenset[int] | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.data = data if data is not None else {}
        self.visible_to = visible_to

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.seat!r}, {self.data!r}, {self.visible_to!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.kind, self.seat, self.data, self.visible_to) == (
            other.kind, other.seat, other.data, other.visible_to)

    __hash__ = None  # type: ignore[assignment]

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_dict(self) -> EngineEvent:
        """The event as the wire and the store carry it (its shape by kind: :mod:`riverboat.engine.views`)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        return cast(EngineEvent, out)
