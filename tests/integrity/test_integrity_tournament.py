"""Issue #34, R-INTEG-3: chips passed before a tournament's bubble. Sit-and-go tournaments of the simulation
(``Population(tournament=True)``: six players, no new chips, the blinds doubling every 10 hands, two places
paid); a planted pair dumps chips to each other until the bubble bursts (three players left) and plays honestly
from then on; two honest friends register together as often. The scan finds the pair (the giver first) from the
hands before the bubble, and flags no honest pair."""

from __future__ import annotations

import pytest

from riverboat.bots.collusion import Plant, Population, simulate
from riverboat.bots.collusion_eval import evaluate
from riverboat.history import PhhHand
from riverboat.integrity import hand_facts, scan_full

PLANTS = (Plant("bot00", "bot01", "bubble", 1.0),)
FRIENDS = (("bot02", "bot03"),)
PAID = 2


@pytest.fixture(scope="module")
def records() -> list[PhhHand]:
    pop = Population(players=10, plants=PLANTS, friends=FRIENDS, sessions=24, hands_per_session=200, seed=3,
                     tournament=True, paid=PAID, level_hands=10)
    return list(simulate(pop))


def test_the_simulation_deals_sit_and_go_tournaments_issue_34(records: list[PhhHand]) -> None:
    by_table: dict[str, list[PhhHand]] = {}
    for r in records:
        by_table.setdefault(str(r.fields["table"]), []).append(r)
    assert len(by_table) == 24
    for hands in by_table.values():
        seated = [len(r.fields["players"]) for r in hands]
        assert seated == sorted(seated, reverse=True) and seated[0] == 6 and seated[-1] > PAID  # busted leave
        blinds = [max(r.fields["blinds_or_straddles"]) for r in hands]
        assert blinds[0] == 2 and blinds == sorted(blinds)  # the levels only go up
        for before, after in zip(hands, hands[1:], strict=False):  # no chips come in
            assert sum(after.fields["starting_stacks"]) == sum(before.fields["finishing_stacks"])


def test_chips_passed_before_the_bubble_are_flagged_giver_first_issue_34(records: list[PhhHand]) -> None:
    result = scan_full(hand_facts(r) for r in records)
    ev = evaluate(result.flags, PLANTS, result.tested_pairs, FRIENDS)
    assert ev.by_plant["bubble:1.0:bot00-bot01"], [f.to_dict() for f in result.flags]
    assert ev.honest_flagged == 0 and ev.friends_flagged == 0 and ev.precision == 1.0, \
        [f.to_dict() for f in result.flags]
    flag = next(f for f in result.flags if f.pattern == "chip_dumping")
    seated = {f"{r.fields['table']}/{r.fields['hand']}": len(r.fields["players"]) for r in records}
    bad = [h for h, why in zip(flag.evidence, flag.reasons, strict=True) if why]
    assert len(bad) >= 10
    assert all(seated[h] > PAID + 1 for h in bad)  # every hand lost badly was before the bubble
