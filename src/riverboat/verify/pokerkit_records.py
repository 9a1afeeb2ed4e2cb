"""Fresh random hands played by PokerKit alone and written as PHH by PokerKit itself: the outside-world check of
the replay (``riverboat replay``, :func:`riverboat.history.replay`).

Unlike the differential (:mod:`riverboat.verify.differential`), where the engine deals and PokerKit follows, here
PokerKit deals from the set-up's deck (burn cards included), plays the set-up's random actions and shows down as
shipped (hands that win nothing are killed, pots left with the same players are merged); ``HandHistory`` writes the
record with PokerKit's finishing stacks. The replay must reproduce those stacks. Set-ups are
:func:`riverboat.verify.setups.random_setup`'s, so a tenth of the hands seat more players than a table does (the
9-player Omaha Hi/Lo hands the replay once refused, issue #16).
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from typing import Any

from riverboat.verify.decisions import RandomActor
from riverboat.verify.known import classify_stacks
from riverboat.verify.pokerkit_side import PokerKitHand
from riverboat.verify.setups import random_setup


@dataclass(frozen=True, slots=True)
class ReplayCheck:
    code: str
    seed: int
    players: int
    match: bool
    record: str  # the PHH text PokerKit wrote
    problem: str | None = None  # the replay's error, or both finishing stacks
    reshuffled: bool = False  # PokerKit's stub ran out and it dealt cards out of play again (draw games)
    known: str | None = None  # a documented PokerKit difference explains the mismatch (riverboat.verify.known)


def _history_class() -> Any:
    import pokerkit as pk

    from riverboat.verify.pokerkit_side import _fixed_limit_omaha_hi_lo

    class History(pk.HandHistory):  # PokerKit's own writer, told that our FO/8 class is FO/8
        game_types = {**pk.HandHistory.game_types, "FO/8": _fixed_limit_omaha_hi_lo()}
        variants = {v: k for k, v in game_types.items()}

    return History


def pokerkit_record(code: str, seed: int, players: int | None = None, profile: str = "mixed"
                    ) -> tuple[str, int, bool]:
    """PHH text of hand ``seed`` of variant ``code`` played by PokerKit alone; returns (text, players, whether
    PokerKit reshuffled cards out of play)."""
    setup = random_setup(code, seed, players, profile)
    saved = random.getstate()  # PokerKit reshuffles draw discards with the random module: seed it for this hand
    random.seed(f"pokerkit-record:{code}:{seed}:{profile}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hand = PokerKitHand(code, setup.stakes, setup.stacks, None, fast_showdown=False, deck=setup.deck,
                                ante_trimming=False)  # the PHH default, as in nearly every record of the corpus
            actor = RandomActor(random.Random(f"record-actions:{code}:{seed}"))
            while True:
                hand.deal_pending()
                decision = hand.decision()
                if decision is None:
                    break
                hand.apply(actor.choose(decision))
            # (the game's ante trimming is not one of the fields PokerKit copies: without it the record would say
            # false while the hand was played with trimming on)
            history = _history_class().from_game_state(hand.game, hand.state,
                                                       ante_trimming_status=hand.game.ante_trimming_status,
                                                       finishing_stacks=list(hand.state.stacks))
            return history.dumps(), setup.players, hand.reshuffled
    finally:
        random.setstate(saved)


def check_replay(code: str, seed: int, players: int | None = None, profile: str = "mixed") -> ReplayCheck:
    """Replay PokerKit's record of hand ``seed`` and compare the finishing stacks."""
    from riverboat.history import loads, replay

    text, n, reshuffled = pokerkit_record(code, seed, players, profile)
    result = replay(loads(text, source=f"pokerkit:{code}:{seed}")[0])
    problem = result.error
    known = None
    if problem is None and not result.match:
        problem = f"replay {result.finishing_stacks} != PokerKit {result.expected}"
        if result.hand is not None and result.finishing_stacks is not None and result.expected is not None:
            known = classify_stacks(result.hand, list(result.finishing_stacks), list(result.expected))
    return ReplayCheck(code, seed, n, result.match, text, problem, reshuffled, known)
