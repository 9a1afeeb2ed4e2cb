"""Issue #33: ``build_pots`` layers the pots at the contributions of the players still in only; the pots must be
exactly those of layering at every contribution (folded players' too) and merging equal neighbours (R-ALLIN-5)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from riverboat.engine.pots import Pot, build_pots


def layered_at_every_contribution(contrib: list[int], folded: list[bool], dead: int = 0) -> list[tuple[int, tuple]]:
    """The reference: one layer per distinct contribution, equal neighbours merged, a layer nobody still in
    reached into the pot below it, dead money a pot of its own under the layers (merged when the players match)."""
    pots: list[Pot] = []
    prev = 0
    n = len(contrib)
    for level in sorted({c for c in contrib if c > 0}):
        amount = sum(min(c, level) - prev for c in contrib if c > prev)
        eligible = tuple(i for i in range(n) if not folded[i] and contrib[i] >= level)
        if not eligible and pots:
            pots[-1].amount += amount
        elif pots and pots[-1].eligible == eligible:
            pots[-1].amount += amount
        elif eligible:
            pots.append(Pot(amount, eligible))
        else:
            dead += amount
        prev = level
    if dead:
        alive = tuple(i for i in range(n) if not folded[i])
        if pots and pots[0].eligible == alive:
            pots[0].amount += dead
        else:
            pots.insert(0, Pot(dead, alive))
    return [(p.amount, p.eligible) for p in pots]


def test_issue_33_r_allin_5_a_folded_bet_above_every_live_player_goes_to_the_top_pot():
    # position 1 folded after putting in more than anyone still in: its chips above 100 join the top pot
    got = [(p.amount, p.eligible) for p in build_pots([100, 300, 50], [False, True, False])]
    assert got == [(150, (0, 2)), (300, (0,))]
    assert got == layered_at_every_contribution([100, 300, 50], [False, True, False])


def test_issue_33_r_allin_5_a_folded_level_between_two_live_levels_is_part_of_the_pot_above():
    got = [(p.amount, p.eligible) for p in build_pots([100, 60, 100, 20], [False, True, False, False])]
    assert got == [(80, (0, 2, 3)), (200, (0, 2))]


def test_issue_33_nobody_still_in_put_chips_in_everything_is_one_pot_for_the_players_still_in():
    got = [(p.amount, p.eligible) for p in build_pots([0, 50, 0], [False, True, False], dead=5)]
    assert got == [(55, (0, 2))]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.booleans()), min_size=2, max_size=9), st.integers(0, 30))
def test_issue_33_r_allin_5_pots_equal_the_layering_at_every_contribution(players, dead):
    contrib = [c for c, _ in players]
    folded = [f for _, f in players]
    got = [(p.amount, p.eligible) for p in build_pots(contrib, folded, dead=dead)]
    assert got == layered_at_every_contribution(contrib, folded, dead)
    assert sum(a for a, _ in got) == sum(contrib) + dead
