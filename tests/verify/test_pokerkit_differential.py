"""Differential tests: Riverboat's engine against PokerKit on the eleven PHH variants both implement.

Same deck order, same seeded random actions; at every decision the same player, legal action kinds, amount to call
and min/max bet-raise-complete "to" amounts; at the end the same stacks. The only tolerated differences are the
documented readings recognised by :mod:`riverboat.verify.known` (docs/findings/engine-verification.md).
Big runs: ``scripts/differential.py --variant NT --hands 1000000``.
"""

from __future__ import annotations

import dataclasses

import pytest

from riverboat.verify import differential
from riverboat.verify.decisions import RAISE
from riverboat.verify.differential import play_hand, run
from riverboat.verify.pokerkit_side import VARIANT_CODES, PokerKitHand, create_pokerkit_state
from riverboat.verify.riverboat_side import RiverboatHand
from riverboat.verify.setups import random_setup

pytest.importorskip("pokerkit")

# hands per variant in CI (2,340, plus 600 short-stack hands below: about 50 s of CPU); two chunks per variant
# so that pytest -n 2 balances them
HANDS = {
    "NT": 240,
    "FT": 240,
    "PO": 160,
    "FO/8": 160,
    "NS": 240,
    "F7S": 240,
    "F7S/8": 240,
    "FR": 240,
    "F2L3D": 240,
    "N2L1D": 300,
    "FB": 160,
}
CHUNKS = [(code, part) for code in VARIANT_CODES for part in (0, 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("code", "part"), CHUNKS, ids=[f"{c}-{p}" for c, p in CHUNKS])
def test_r_limit_r_allin_r_pot_engine_matches_pokerkit_on_random_hands(code: str, part: int) -> None:
    """R-LIMIT-GEN, R-FL, R-PL, R-NL, R-BLIND, R-BRINGIN, R-ALLIN, R-POT, R-SHOW: same legal actions and amounts at
    every decision and the same finishing stacks as PokerKit (PHH readings), on seeded random hands."""
    half = HANDS[code] // 2
    summary = run(code, half, seed=1_000_000 * (part + 1), keep_failures=3)
    details = "\n\n".join(o.reproduction() for o in summary.first_failures)
    assert summary.failures == 0, f"{summary.to_dict()}\n{details}"
    assert summary.decisions > 5 * half  # real hands were played, not just folds


SHORT_HANDS = 60


@pytest.mark.slow
@pytest.mark.parametrize("code", VARIANT_CODES)
def test_r_allin_r_limit_gen_2_engine_matches_pokerkit_with_short_stacks(code: str) -> None:
    """R-ALLIN-1..5, R-LIMIT-GEN-2, R-BLIND, R-BRINGIN: every stack 1 chip to 3 big bets (all-ins on the forced
    bets, short blinds and bring-ins, incomplete raises, many side pots): same decisions and stacks as PokerKit."""
    summary = run(code, SHORT_HANDS, seed=7_000_000, keep_failures=3, profile="short")
    details = "\n\n".join(o.reproduction() for o in summary.first_failures)
    assert summary.failures == 0, f"{summary.to_dict()}\n{details}"


@pytest.mark.parametrize(
    ("code", "seed", "profile", "index", "expected"),
    [
        ("FT", 98, "short", 14, "p2 {call,fold} call=20 ->"),
        ("F7S/8", 2, "short", 19, "p5 {call,fold} call=1 ->"),
        ("PO", 101812, "mixed", 5, "p3 {call,fold} call=8 ->"),
    ],
)
def test_r_limit_gen_2_no_reraise_after_only_incomplete_all_in_raises(
    code: str, seed: int, profile: str, index: int, expected: str
) -> None:
    """R-LIMIT-GEN-2 (finding 5): a player who already acted and faces only incomplete all-in raises may call or
    fold but not raise (FT short seed 98: call 98, then an all-in raise +20 < 50; F7S/8 short seed 2; PO 101812)."""
    outcome = play_hand(code, seed, profile=profile)
    assert outcome.ok, outcome.reproduction()
    assert outcome.log[index].startswith(expected), outcome.reproduction()


def test_every_phh_variant_both_engines_have_is_covered() -> None:
    """Issue #3: the differential covers NT, FT, PO, FO/8, NS, F7S, F7S/8, FR, F2L3D and N2L1D."""
    assert set(VARIANT_CODES) == {"NT", "FT", "PO", "FO/8", "NS", "F7S", "F7S/8", "FR", "F2L3D", "N2L1D", "FB"}
    assert set(HANDS) == set(VARIANT_CODES)


def test_r_stud_3_bring_in_poster_may_reraise_after_a_completion() -> None:
    """R-STUD-3 / R-BRINGIN-2: a completion is a full bet, so the bring-in poster may raise it (finding 1, F7S/8
    seed 0: bring-in 2, calls, completion to 4, back to the bring-in who may raise to 8)."""
    outcome = play_hand("F7S/8", 0)
    assert outcome.ok, outcome.reproduction()
    assert "p2 {call,fold,raise} call=2 to=8..8" in outcome.log[4]


def test_r_fl_4_pokerkit_fo8_is_built_fixed_limit() -> None:
    """R-FL-1: PHH FO/8 is fixed limit; PokerKit 0.7.7's class plays pot limit, so the harness builds its own."""
    setup = random_setup("FO/8", 1, players=4)
    state = create_pokerkit_state("FO/8", setup.stakes, setup.stacks)
    assert state.betting_structure.name == "FIXED_LIMIT"
    ours = RiverboatHand(setup)
    theirs = PokerKitHand("FO/8", setup.stakes, setup.stacks, ours)
    theirs.deal_pending()
    decision = theirs.decision()
    assert decision is not None and RAISE in decision.kinds
    assert decision.min_to == decision.max_to == 2 * setup.stakes.big_blind


def test_harness_reports_a_wrong_maximum_with_a_reproduction(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential can fail: an engine offering one chip too many as maximum raise is caught (R-NL-1)."""
    original = RiverboatHand.decision

    def off_by_one(self: RiverboatHand):  # type: ignore[no-untyped-def]
        d = original(self)
        if d is not None and d.max_to is not None:
            return dataclasses.replace(d, max_to=d.max_to + 1)
        return d

    monkeypatch.setattr(RiverboatHand, "decision", off_by_one)
    outcome = differential.play_hand("NT", 5)
    assert not outcome.ok
    assert outcome.problem is not None and "raise-to" in outcome.problem
    assert "deck " in outcome.reproduction() and "stacks " in outcome.reproduction()


def test_harness_reports_different_finishing_stacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential compares finishing stacks: moving a chip between players is caught (R-POT-1)."""
    original = RiverboatHand.stacks.fget
    assert original is not None

    def shifted(self: RiverboatHand) -> list[int]:
        stacks = list(original(self))
        if self.finished and stacks[0] > 0:
            stacks[0] -= 1
            stacks[1] += 1
        return stacks

    monkeypatch.setattr(RiverboatHand, "stacks", property(shifted))
    outcomes = [differential.play_hand("FT", seed) for seed in range(20)]
    bad = [o for o in outcomes if not o.ok]
    assert bad and all(o.problem == "finishing stacks differ" for o in bad)


# Hands of the generator where PokerKit's showdown merges pots (found with the reading switched off): hold'em at
# 11, 18 and 15 players (more than a table seats), Omaha Hi/Lo at 8 and 9.
MERGED_POT_HANDS = [("NT", 12), ("NT", 24), ("NT", 63), ("FO/8", 210), ("FO/8", 291)]


@pytest.mark.parametrize(("code", "seed"), MERGED_POT_HANDS)
def test_r_allin_5_harness_compares_pokerkits_merged_pots(code: str, seed: int, monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Issue #16: the harness once disabled PokerKit's hand killing (so it never merged pots) and 200,000 hands
    missed the PHH reading of merged pots. PokerKit now shows down as shipped whenever there are side pots: these
    hands agree with the engine's PHH reading (``merge_equal_pots``) and differ under RULES.md's (R-ALLIN-5,
    each pot on its own)."""
    from riverboat.verify import riverboat_side

    assert play_hand(code, seed).ok
    rules = dataclasses.replace(riverboat_side.DIFFERENTIAL_SETTINGS, merge_equal_pots=False)
    monkeypatch.setattr(riverboat_side, "DIFFERENTIAL_SETTINGS", rules)
    outcome = play_hand(code, seed)
    assert not outcome.ok and outcome.problem == "finishing stacks differ"


def test_r_table_1_generator_seats_more_players_than_a_table_up_to_what_the_deck_deals() -> None:
    """A tenth of the generated hands seat more players than a table does (PHH records have no table size): up
    to 22 in hold'em, 11 in Omaha Hi/Lo; the other hands are the same as before (drawn from a separate RNG)."""
    from riverboat.verify.setups import VARIANTS

    for code, top in (("NT", 22), ("FO/8", 11)):
        counts = [random_setup(code, seed).players for seed in range(400)]
        large = [n for n in counts if n > VARIANTS[code].max_players]
        assert 20 <= len(large) <= 70 and max(large) <= top and min(counts) >= 2
