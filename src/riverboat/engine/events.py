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

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        return out
