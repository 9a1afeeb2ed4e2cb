"""Flight tournaments (R-TOURN-FLIGHT-1..6): an event of Day 1 flights (1A, 1B, ...) and one Day 2.

- A **Day 1 flight** is a scheduled MTT whose spec has ``flight = {event, day, day2, levels}``. Its buy-ins go to
  the Day 2 prize pool (``store.tournaments.create(pool_id=day2)``), its fees to the house; it pays no prize. It
  ends when its ``levels`` levels are played (R-TOURN-FLIGHT-3; the director stops dealing at the first level past
  them, after the hands in progress) or when one player is left: :func:`end_flight` enters the survivors in Day 2
  with their chips in one store transaction (``store.tournament_play.advance``; the director's
  :meth:`~riverboat.room.tournament.field.Field.end_flight`). One entry per flight; a player who
  qualifies from several flights carries the largest stack (R-TOURN-FLIGHT-6 reading).
- A **Day 2** is a scheduled MTT whose spec has ``day2_of = event`` and no buy-in: nobody registers, the
  qualifiers are entered by the flights. At its start time it waits until every flight of the event is over
  (checking every :data:`POLL_SECONDS`, and at once when a flight ends), then seats the qualifiers at tables sized
  for the total (R-TOURN-FLIGHT-5: as any MTT, by the number of players) with their own stacks, and plays to the
  winner. Its pool is every flight's buy-ins (plus any overlay of its guarantee).
- **Prizes (R-TOURN-FLIGHT-4 reading):** reaching Day 2 guarantees a cash prize, so Day 2 pays every one of its
  places: the payout row is the first row of the structure that pays at least as many places as Day 2 has
  players (:func:`~riverboat.room.tournament.payouts.row_paying`); the shares of places beyond the field go to
  first place (the small-field rule of docs/tournaments.md). Players out on Day 1 get nothing.

:class:`FlightEvent` is the operator's description of a whole event (``POST /api/operator/flights``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from riverboat.room.tournament import payouts as payout_tables
from riverboat.room.tournament.spec import SpecError, TournamentSpec

POLL_SECONDS = 30.0  # a Day 2 past its start time checks this often whether every flight is over


def day2_awards(spec: TournamentSpec, pool: int, players: int) -> list[int]:
    """The prize of Day 2 places 1..``players``: every place paid (R-TOURN-FLIGHT-4 reading, module docstring)."""
    row = payout_tables.row_paying(spec.payout_rows(), max(1, players))
    return payout_tables.prizes(pool, row, max(1, players))


@dataclass(frozen=True, slots=True)
class FlightEvent:
    """An event: its Day 2 (id ``<event>-day2``) and its Day 1 flights (ids ``<event>-<day>``, e.g. ``main-1a``)."""

    event: str
    day2: TournamentSpec
    flights: tuple[tuple[str, TournamentSpec], ...]  # (tournament id, spec with its ``flight``)

    @property
    def day2_id(self) -> str:
        return f"{self.event}-day2"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FlightEvent:
        """``{"event": "main", "day2": spec, "flights": [{"day": "1A", "levels": 6, "spec": spec}, ...]}``;
        raises :class:`SpecError` saying what is wrong."""
        if not isinstance(data, Mapping) or set(data) - {"event", "day2", "flights"}:
            raise SpecError("a flight event is {event, day2, flights}")
        event = data.get("event")
        if not isinstance(event, str) or not 1 <= len(event) <= 40 or not event.replace("-", "").isalnum():
            raise SpecError("event: 1 to 40 letters, digits or '-'")
        flights = data.get("flights")
        if not isinstance(flights, Sequence) or isinstance(flights, str) or not 1 <= len(flights) <= 26:
            raise SpecError("flights: a list of 1 to 26 Day 1 flights (R-TOURN-FLIGHT-1)")
        day2_id = f"{event}-day2"
        day2 = TournamentSpec.from_dict({**_object(data.get("day2"), "day2"), "day2_of": event})
        out: list[tuple[str, TournamentSpec]] = []
        for i, f in enumerate(flights):
            f = _object(f, f"flights[{i}]")
            day, levels = f.get("day"), f.get("levels")
            if not isinstance(day, str) or not day.startswith("1") or not day[1:].isalpha() or len(day) > 3:
                raise SpecError(f"flights[{i}].day is a Day 1 flight: '1A', '1B', ...")
            day = day.upper()
            spec = TournamentSpec.from_dict({**_object(f.get("spec"), f"flights[{i}].spec"),
                                             "flight": {"event": event, "day": day, "day2": day2_id,
                                                        "levels": levels}})
            if spec.currency != day2.currency:
                raise SpecError("every flight plays in the Day 2 currency (one prize pool)")
            if day2.starts_at is not None and spec.starts_at is not None and spec.starts_at >= day2.starts_at:
                raise SpecError(f"flight {day} starts after Day 2")
            out.append((f"{event}-{day.lower()}", spec))
        if len({tid for tid, _ in out}) != len(out):
            raise SpecError("two flights of the same day")
        return cls(event, day2, tuple(out))


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise SpecError(f"{what} must be a tournament description (an object)")
    return dict(value)
