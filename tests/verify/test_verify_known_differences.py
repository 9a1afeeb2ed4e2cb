"""The recognisers of documented Riverboat/PokerKit differences are narrow: they excuse only what they document."""

from __future__ import annotations

import dataclasses

import pytest

from riverboat.verify.differential import play_hand
from riverboat.verify.known import HI_LO_SIDE_POT, classify_decision, classify_stacks
from riverboat.verify.riverboat_side import RiverboatHand
from riverboat.verify.setups import random_setup

pytest.importorskip("pokerkit")


def test_r_nl_1_an_amount_difference_is_never_excused() -> None:
    """R-NL-1: a different maximum raise at the same decision is a failure, not a known difference."""
    hand = RiverboatHand(random_setup("NT", 3, players=6))
    ours = hand.decision()
    assert ours is not None and ours.max_to is not None
    theirs = dataclasses.replace(ours, max_to=ours.max_to - 1)
    assert classify_decision(hand.hand, ours, theirs) is None
    other_actor = dataclasses.replace(ours, actor=(ours.actor + 1) % 6)
    assert classify_decision(hand.hand, ours, other_actor) is None


def test_r_pot_1_a_stack_difference_in_a_high_only_game_is_never_excused() -> None:
    """R-POT-1: in a high-only game any finishing-stack difference is a failure."""
    outcome = play_hand("FT", 26)
    assert outcome.ok and outcome.riverboat is not None
    stacks = outcome.riverboat_stacks
    moved = (
        [stacks[0] - 1, stacks[1] + 1, *stacks[2:]]
        if stacks[0]
        else [stacks[0] + 1, stacks[1] - 1, *stacks[2:]]
    )
    assert classify_stacks(outcome.riverboat.hand, stacks, moved) is None


def test_r_omaha_hl_3_side_pot_without_an_eligible_low_goes_to_the_high_hand() -> None:
    """R-OMAHA-HL-3 / R-ALLIN-5 (FO/8 seed 41): no player in side pot 1 has a qualifying low (only the all-in player
    outside it does), so the high hand scoops that pot; PokerKit halves it (recognised PokerKit defect)."""
    outcome = play_hand("FO/8", 41)
    assert outcome.ok, outcome.reproduction()
    assert HI_LO_SIDE_POT in outcome.known
    assert outcome.riverboat is not None
    result = outcome.riverboat.hand.result
    assert result is not None
    side = [p for p in result.pots if p.eligible == [1, 2, 3]]
    assert len(side) == 1 and side[0].share == "all" and side[0].winners == {3: side[0].amount}
    assert outcome.riverboat_stacks != outcome.pokerkit_stacks
