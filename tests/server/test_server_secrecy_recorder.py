"""The secrecy recorder used by every integration test (R-GEN-5) must catch a leak: fed a stream in which a player
receives another player's face-down card before showdown, it fails; the same card after it was shown passes."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

EVENTS = [
    {"kind": "dealt", "seat": 0, "cards": ["Ah"], "up": False, "visible_to": [0]},
    {"kind": "dealt", "seat": 1, "cards": ["Kd"], "up": False, "visible_to": [1]},
    {"kind": "board", "cards": ["2c", "7d", "9s"], "visible_to": None},
    {"kind": "showed", "seat": 0, "cards": ["Ah"], "visible_to": None},
]


class _Client:
    def __init__(self) -> None:
        self.on_frame: list[Any] = []

    def feed(self, frame: dict[str, Any]) -> None:
        for cb in self.on_frame:
            cb(frame)


def _store() -> Any:
    record = SimpleNamespace(hand_id="h1", events=EVENTS)
    return SimpleNamespace(hands=SimpleNamespace(for_table=lambda table, limit, include_void: [record]))


def _stream(recorder: Any, frames: list[dict[str, Any]]) -> None:
    client = _Client()
    recorder.attach(client, "seat1")
    client.feed({"type": "table_state", "table": "t", "view": {"you": {"seat": 1}, "hand_id": None}})
    client.feed({"type": "event", "table": "t", "event": {"kind": "hand_started", "hand_id": "h1"}})
    for frame in frames:
        client.feed(frame)


def test_recorder_fails_on_another_players_down_card_before_showdown(recorder: Any) -> None:
    _stream(recorder, [{"type": "event", "table": "t", "event": {"kind": "board", "cards": ["2c", "7d", "9s"]}},
                       {"type": "table_state", "table": "t", "view": {"hand": {"players": [{"cards": ["Ah"]}]}}}])
    with pytest.raises(AssertionError, match="R-GEN-5"):
        recorder.check(_store(), ["t"])


def test_recorder_accepts_own_cards_public_cards_and_shown_cards(recorder: Any) -> None:
    _stream(recorder, [{"type": "event", "table": "t", "event": {"kind": "dealt", "seat": 1, "cards": ["Kd"]}},
                       {"type": "event", "table": "t", "event": {"kind": "board", "cards": ["2c", "7d", "9s"]}},
                       {"type": "event", "table": "t", "event": {"kind": "showed", "seat": 0, "cards": ["Ah"]}},
                       {"type": "table_state", "table": "t", "view": {"hand": {"players": [{"cards": ["Ah"]}]}}}])
    recorder.check(_store(), ["t"])
    assert recorder.checked_frames == 5 and recorder.checked_hands == {("t", "h1")}


def _fresh_connection(recorder: Any, view_seat: int | None, view_hand: str | None = "h1") -> None:
    """A connection opened while its player sits at the table (a reconnect): the hand's events come before the
    connection's first view of the table (in a cluster the host routes the player at once, and the view is the
    table's next step), so the recorder learns the seat only from that later view."""
    client = _Client()
    recorder.attach(client, "reconnected")
    client.feed({"type": "event", "table": "t", "event": {"kind": "hand_started", "hand_id": "h1"}})
    client.feed({"type": "event", "table": "t", "event": {"kind": "dealt", "seat": 1, "cards": ["Kd"]}})
    if view_seat is not None:
        client.feed({"type": "table_state", "table": "t", "view": {"you": {"seat": view_seat}, "hand_id": view_hand}})


def test_recorder_judges_a_reconnects_early_cards_by_the_seat_its_first_view_names(recorder: Any) -> None:
    """R-GEN-5: the seat's own card before the view that names the seat, in the same hand, is no leak (CI at
    5e45402: a reconnect through the other gateway got its own ``dealt`` first and was reported as seatless)."""
    _fresh_connection(recorder, view_seat=1)
    recorder.check(_store(), ["t"])
    assert recorder.checked_hands == {("t", "h1")}


@pytest.mark.parametrize(("view_seat", "view_hand"), [(0, "h1"), (None, None), (1, "h2")])
def test_recorder_still_catches_early_cards_of_another_seat(recorder: Any, view_seat: int | None,
                                                            view_hand: str | None) -> None:
    """R-GEN-5: the early card is a leak when the first view names another seat, when no view follows, or when
    the view is of another hand (the seat then says nothing of the earlier hand)."""
    _fresh_connection(recorder, view_seat=view_seat, view_hand=view_hand)
    with pytest.raises(AssertionError, match="R-GEN-5"):
        recorder.check(_store(), ["t"])
