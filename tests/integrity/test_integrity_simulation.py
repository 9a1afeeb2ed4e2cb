"""R-INTEG-3 (chip dumping) and R-INTEG-4/-8 (soft play, check-downs) on a simulated population (small version of
``scripts/integrity_simulation.py``; figures in docs/integrity.md).

The population: 16 StrengthBot players (equity against pot odds), 1,200 hands of six-max no-limit hold'em in
sessions of 40 hands at fresh tables; one pair dumps chips in half of their hands together, one pair soft-plays
in all of them, a third pair dumps in a quarter of them, and two honest friends sit together as often as the
planted pairs (issue #34). The run is seeded, so the thresholds are checked on one fixed population:

* every plant, the 0.25 dumper included, is flagged with its own pattern (and the dumper first);
* no pair of two honest players is flagged at all, the friends included (the large runs measure the rate: 0 of
  several hundred);
* every pair flag is on a planted pair (precision 1; the large runs: 1.0 on every seed).
"""

from __future__ import annotations

import pytest

from riverboat.bots.collusion import Plant, Population, simulate
from riverboat.bots.collusion_eval import evaluate
from riverboat.integrity import hand_facts, scan_full

PLANTS = (Plant("bot00", "bot01", "dump", 0.5), Plant("bot02", "bot03", "soft", 1.0),
          Plant("bot04", "bot05", "dump", 0.25))
FRIENDS = (("bot06", "bot07"),)


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    pop = Population(players=16, plants=PLANTS, sessions=30, hands_per_session=40, seed=7, friends=FRIENDS)
    return scan_full(hand_facts(r) for r in simulate(pop))


def test_planted_dumping_and_soft_play_are_flagged_r_integ_3_r_integ_4(result) -> None:  # type: ignore[no-untyped-def]
    ev = evaluate(result.flags, PLANTS, result.tested_pairs, FRIENDS)
    assert ev.by_plant["dump:0.5:bot00-bot01"], [f.to_dict() for f in result.flags]
    assert ev.by_plant["soft:1.0:bot02-bot03"], [f.to_dict() for f in result.flags]
    assert ev.by_plant["dump:0.25:bot04-bot05"], [f.to_dict() for f in result.flags]
    dump = next(f for f in result.flags if f.pattern == "chip_dumping" and set(f.players) == {"bot00", "bot01"})
    assert dump.players == ("bot00", "bot01")  # the giver first
    assert 0.0 <= dump.score <= 1.0 and dump.evidence and dump.hands >= 30


def test_no_honest_pair_is_flagged_and_precision_r_integ_2(result) -> None:  # type: ignore[no-untyped-def]
    ev = evaluate(result.flags, PLANTS, result.tested_pairs, FRIENDS)
    assert ev.honest_pairs >= 20
    assert ev.honest_flagged == 0 and ev.friends_flagged == 0, [f.to_dict() for f in result.flags]
    assert ev.precision == 1.0, [f.to_dict() for f in result.flags]


def test_flags_sorted_and_evidence_are_shared_hands_r_integ_8(result) -> None:  # type: ignore[no-untyped-def]
    scores = [f.score for f in result.flags]
    assert scores == sorted(scores, reverse=True)
    for f in result.flags:
        assert all(h.startswith("sim") and "/" in h for h in f.evidence)
        assert f.why and len(f.reasons) == len(f.evidence)  # what was seen, and what happened in each hand
