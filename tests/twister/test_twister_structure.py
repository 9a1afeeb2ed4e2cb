"""Blind structures (R-TWIST-1: NL Hold'em turbo with 500 chips; R-AOG-1: 100 chips; R-WILD: like Twister)."""

from __future__ import annotations

from riverboat.twister import TwisterSettings
from riverboat.twister.structure import structure_for


def test_r_twist_1_r_aog_1_starting_chips_and_turbo_levels() -> None:
    """R-TWIST-1 / R-AOG-1: the structures start at the rule's stacks (the same figures as the settings) and
    every type has one; blinds only go up and start at 25 big blinds."""
    settings = TwisterSettings()
    for kind in ("twister", "aog", "wild"):
        s = structure_for(kind)
        assert s.starting_chips == settings.starting_chips_for(kind)
        assert s.starting_chips == 25 * s.levels[0].big_blind
        assert s.level_seconds <= 180  # turbo
        assert all(a.big_blind < b.big_blind for a, b in zip(s.levels, s.levels[1:], strict=False))
    assert structure_for("twister").starting_chips == 500 and structure_for("aog").starting_chips == 100
