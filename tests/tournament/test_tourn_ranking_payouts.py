"""Places at elimination (R-TOURN-GEN-6 reading), shared prizes, eliminators, and the payout tables
(R-TOURN-GEN-4, R-TOURN-SNG-4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverboat.room.tournament import payouts
from riverboat.room.tournament.ranking import Bust, eliminators, group_prizes, rank_busts, split_evenly


def test_r_tourn_gen_6_single_elimination_takes_the_last_place_left() -> None:
    """R-TOURN-GEN-6: reverse order of elimination: with 10 left, the next one out finishes 10th."""
    (g,) = rank_busts([Bust(7, 300, 4)], players_left_before=10)
    assert g.players == (7,) and g.places == (10,)


def test_r_tourn_gen_6_same_hand_larger_starting_stack_finishes_higher() -> None:
    """R-TOURN-GEN-6 reading: three out in one hand with 5 left take places 3, 4, 5 by their stacks at the start of
    the hand: 900 -> 3rd, 500 -> 4th, 200 -> 5th."""
    groups = rank_busts([Bust(1, 200, 1), Bust(2, 900, 2), Bust(3, 500, 3)], players_left_before=5)
    assert [(g.players, g.places) for g in groups] == [((2,), (3,)), ((3,), (4,)), ((1,), (5,))]


def test_r_tourn_gen_6_equal_stacks_share_the_places_prizes_with_the_remainder_rule() -> None:
    """R-TOURN-GEN-6 reading: two players with equal stacks out in the same hand on places 3 and 4 share prizes
    of 1001 + 500 = 1501: 750 each, the 1 left over to the earlier registration (entry 2, player 9)."""
    (g,) = rank_busts([Bust(5, 400, 8), Bust(9, 400, 2)], players_left_before=4)
    assert g.players == (9, 5) and g.places == (3, 4)
    assert group_prizes(g, [5000, 3000, 1001, 500]) == {9: 751, 5: 750}
    # places past the paid ones pay nothing: a tie on the bubble shares the last paid prize only
    (g2,) = rank_busts([Bust(1, 10, 1), Bust(2, 10, 2)], players_left_before=4)
    assert group_prizes(g2, [600, 300, 101]) == {1: 51, 2: 50}


def test_rank_busts_refuses_impossible_input() -> None:
    with pytest.raises(ValueError, match="twice"):
        rank_busts([Bust(1, 1, 1), Bust(1, 1, 1)], 5)
    with pytest.raises(ValueError, match="more eliminations"):
        rank_busts([Bust(1, 1, 1), Bust(2, 1, 2)], 1)


@settings(max_examples=80, deadline=None)
@given(stacks=st.lists(st.integers(1, 5), min_size=1, max_size=8), extra=st.integers(0, 5),
       pool=st.integers(0, 10**7))
def test_places_are_each_used_once_and_shared_prizes_add_up(stacks: list[int], extra: int, pool: int) -> None:
    """Property: k players out at once take the k places above the survivors exactly once; tied players share;
    the prizes paid equal the prizes of those places."""
    left = len(stacks) + extra
    busts = [Bust(i, s, i) for i, s in enumerate(stacks)]
    groups = rank_busts(busts, left)
    places = [p for g in groups for p in g.places]
    assert sorted(places) == list(range(extra + 1, left + 1))
    assert sorted(p for g in groups for p in g.players) == list(range(len(stacks)))
    for better, worse in zip(groups, groups[1:], strict=False):
        assert stacks[better.players[0]] > stacks[worse.players[0]]
    row = payouts.row_for(payouts.structure("mtt"), max(2, left))
    prizes = payouts.prizes(pool, row, max(2, left))
    paid = sum(sum(group_prizes(g, prizes).values()) for g in groups)
    assert paid == sum(prizes[p - 1] for p in places if p - 1 < len(prizes))


def test_split_evenly_integer_remainder_in_order() -> None:
    assert split_evenly(10, [3, 1, 2]) == {3: 4, 1: 3, 2: 3}
    assert split_evenly(0, [1]) == {1: 0}


def test_eliminators_are_the_winners_of_the_highest_pot_the_player_was_in() -> None:
    """R-TOURN-KO-1 reading: seat 1 (short) and seat 2 are all-in against seat 3. Main pot (1, 2, 3) won by seat 2,
    side pot (2, 3) won by seat 3: seat 2 eliminated seat 1 (the main pot was seat 1's highest) and seat 3
    eliminated seat 2. A split pot gives two eliminators."""
    pots = [([1, 2, 3], {2: 300}), ([2, 3], {3: 400})]
    assert eliminators(1, pots) == [2]
    assert eliminators(2, pots) == [3]
    split = [([0, 4, 5], {4: 150, 5: 150})]
    assert eliminators(0, split) == [4, 5]
    hi_lo = [([0, 1, 2], {1: 100}), ([0, 1, 2], {2: 100})]  # the two halves of one pot
    assert eliminators(0, hi_lo) == [1, 2]


def test_r_tourn_gen_4_every_payout_row_is_valid_and_paid_places_grow_with_the_field() -> None:
    """R-TOURN-GEN-4: first place wins the most, later places never more than earlier ones, more entrants never
    fewer paid places; rows cover 2 to 1,000,000 entrants without a gap (checked at load: parse_structure)."""
    rows = payouts.structure("mtt")
    assert rows[0].lo == 2 and rows[-1].hi == 1_000_000
    paid = [r.paid_places for r in rows]
    assert paid == sorted(paid) and paid[0] == 1
    assert payouts.row_for(rows, 9).paid_places == 3
    assert 0.13 <= payouts.row_for(rows, 100_000).paid_places / 100_000 <= 0.16
    for r in rows:
        shares = r.shares()
        assert sum(shares) == payouts.PPB
        assert shares == sorted(shares, reverse=True)
        assert shares[0] > shares[-1] or len(shares) == 1


def test_r_tourn_sng_4_sit_and_go_pays_three_places_at_6_and_9_seats() -> None:
    """R-TOURN-SNG-4 reading: 6- and 9-player SNGs pay 1st, 2nd and 3rd (50/30/20); heads-up pays the winner."""
    rows = payouts.structure("sng")
    assert payouts.prizes(9000, payouts.row_for(rows, 9)) == [4500, 2700, 1800]
    assert payouts.prizes(6000, payouts.row_for(rows, 6)) == [3000, 1800, 1200]
    assert payouts.prizes(2000, payouts.row_for(rows, 2)) == [2000]


@settings(max_examples=80, deadline=None)
@given(pool=st.integers(0, 10**9), entrants=st.integers(2, 200_000))
def test_prizes_add_up_to_the_pool_exactly(pool: int, entrants: int) -> None:
    """Integer prizes: floor of each share, the remainder to first place; the sum is the pool to the cent."""
    rows = payouts.structure("mtt")
    prizes = payouts.prizes(pool, payouts.row_for(rows, entrants), entrants)
    assert sum(prizes) == pool
    assert prizes[1:] == sorted(prizes[1:], reverse=True)
    assert all(prizes[0] >= p for p in prizes)


def test_a_custom_payout_table_is_checked() -> None:
    with pytest.raises(payouts.PayoutError, match="add up"):
        payouts.structure([{"entrants": [2, 10], "places": [[1, 1, 600_000_000], [2, 2, 300_000_000]]}])
    with pytest.raises(payouts.PayoutError, match="more than the place above"):
        payouts.structure([{"entrants": [2, 10], "places": [[1, 1, 400_000_000], [2, 2, 600_000_000]]}])
    with pytest.raises(payouts.PayoutError, match="unknown payout"):
        payouts.structure("nope")
    rows = payouts.structure([{"entrants": [2, 10], "places": [[1, 1, 700_000_000], [2, 2, 300_000_000]]}])
    assert payouts.prizes(999, rows[0]) == [700, 299]
