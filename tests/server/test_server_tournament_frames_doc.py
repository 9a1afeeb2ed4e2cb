"""Issue #11 item 4 (protocol): every tournament frame the room sends is built from a model of
``riverboat.room.frames.TOURNAMENT_DATA`` and validated by its event (``protocol.TOURNAMENT_WIRES``, unknown fields
refused); this checks that docs/protocol.md ("Tournament frames") names every event and every field of its data,
so the documentation cannot drift from the models, and that a field the model does not know is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from riverboat.room import frames
from riverboat.server import protocol

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### Tournament frames")
    return text[start:text.index("### Speed Poker frames", start)]


def test_r_tourn_bal_3_every_tournament_event_and_field_is_documented() -> None:
    """R-TOURN-BAL-3 (moved), R-TOURN-REBUY-3 (rebuy_offer), R-TOURN-GEN-5 (finished) and every other event."""
    section = _section()
    for event, model in frames.TOURNAMENT_DATA.items():
        assert f"`{event}`" in section, f"event {event!r} is not documented"
        for name in model.__required_keys__ | model.__optional_keys__:
            assert f"`{name}`" in section or f'"{name}"' in section, f"{event}.{name} is not documented"
    assert set(protocol.TOURNAMENT_WIRES) == set(frames.TOURNAMENT_DATA)


def test_r_tourn_bal_3_an_undocumented_field_or_event_is_refused() -> None:
    """A ``moved`` frame with a field the model does not have, or an unknown event, fails validation."""
    good = frames.tournament_frame("t1", "moved", {"table": "t1/t2", "seat": 3, "rule": "R-TOURN-BAL-3"})
    protocol.validate_server_frame({"v": 1, **good})
    with pytest.raises(ValidationError):
        protocol.validate_server_frame({"v": 1, **good, "data": {**good["data"], "message": "drift"}})
    with pytest.raises(ValidationError):
        protocol.validate_server_frame({"v": 1, **good, "event": "teleported"})
    with pytest.raises(ValidationError):  # the data of another event
        protocol.validate_server_frame({"v": 1, **good, "event": "finished"})
