"""Differential testing of the engine against PokerKit: same deck order, same random actions, same answers.

``play_hand(code, seed)`` builds the set-up of hand ``seed`` (:func:`riverboat.verify.setups.random_setup`), plays
it on both engines with one seeded :class:`~riverboat.verify.decisions.RandomActor`, and checks

* at every decision: the same player to act, the same legal action kinds, the same amount to call, the same
  minimum and maximum bet/raise/complete "to" amounts and bring-in (and, in draws, the same cards in hand);
* at the end: the same finishing stacks on both sides, and chips conserved on each side.

A difference is reported with everything needed to replay it (:meth:`HandOutcome.reproduction`).
``run(code, hands, seed)`` plays many hands and summarises.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from riverboat.verify.decisions import CHECK, DRAW, Action, Decision, RandomActor, compare_decisions
from riverboat.verify.known import (
    NO_OPPONENT_CAN_CALL,
    STUD_BRING_IN_ALL_IN,
    classify_decision,
    classify_stacks,
    nobody_else_can_call,
)
from riverboat.verify.pokerkit_side import PokerKitHand
from riverboat.verify.riverboat_side import RiverboatHand
from riverboat.verify.setups import HandSetup, random_setup


@dataclass(slots=True)
class HandOutcome:
    setup: HandSetup
    ok: bool = True
    decisions: int = 0
    problem: str | None = None  # what differed, or the exception raised
    known: list[str] = field(default_factory=list)  # documented differences met (see riverboat.verify.known)
    log: list[str] = field(default_factory=list)
    riverboat_stacks: list[int] = field(default_factory=list)
    pokerkit_stacks: list[int] = field(default_factory=list)
    riverboat: RiverboatHand | None = None  # both finished hands (their ``applied`` scripts, cards...)
    pokerkit: PokerKitHand | None = None

    def reproduction(self) -> str:
        s = self.setup
        lines = [
            f"variant {s.code}, seed {s.seed}, {s.players} players",
            f"stakes {s.stakes}",
            f"stacks {list(s.stacks)} (seat 0 = first after the button/dealer box, button = seat {s.players - 1})",
            f"deck {' '.join(s.deck)}",
            "actions:",
            *(f"  {line}" for line in self.log),
            f"problem: {self.problem}",
        ]
        if self.riverboat_stacks or self.pokerkit_stacks:
            lines.append(
                f"finishing stacks riverboat {self.riverboat_stacks} pokerkit {self.pokerkit_stacks}"
            )
        return "\n".join(lines)


def play_hand(code: str, seed: int, players: int | None = None, profile: str = "mixed") -> HandOutcome:
    """Play one hand of ``code`` on both engines and compare them at every step (``profile``: see
    :func:`riverboat.verify.setups.random_setup`)."""
    setup = random_setup(code, seed, players, profile)
    out = HandOutcome(setup)
    actor = RandomActor(random.Random(f"actions:{code}:{seed}"))
    try:
        ours = out.riverboat = RiverboatHand(setup)
        theirs = out.pokerkit = PokerKitHand(code, setup.stakes, setup.stacks, ours)
        while True:
            d_ours: Decision | None = ours.decision()
            try:
                theirs.deal_pending()
            except LookupError as exc:
                # PokerKit moves on (deals) while the engine still asks somebody to act
                if (
                    d_ours is not None
                    and CHECK in d_ours.kinds
                    and nobody_else_can_call(ours.hand, d_ours.actor)
                ):
                    out.known.append(NO_OPPONENT_CAN_CALL)
                    out.log.append(f"{d_ours.describe()} -> check (Riverboat only; PokerKit: {exc})")
                    ours.apply(Action(CHECK))
                    continue
                raise
            d_theirs: Decision | None = theirs.decision()
            if (
                d_ours is not None
                and CHECK in d_ours.kinds
                and (d_theirs is None or d_theirs.actor != d_ours.actor or DRAW in d_theirs.kinds)
                and nobody_else_can_call(ours.hand, d_ours.actor)
            ):
                # the engine asks for a check nobody needs (every opponent is all-in); PokerKit has moved on
                other = "nothing" if d_theirs is None else d_theirs.describe()
                out.known.append(NO_OPPONENT_CAN_CALL)
                out.log.append(f"{d_ours.describe()} -> check (Riverboat only; PokerKit asks {other})")
                ours.apply(Action(CHECK))
                continue
            if (
                d_theirs is not None
                and d_theirs.kinds == {CHECK}
                and (d_ours is None or d_ours.actor != d_theirs.actor or DRAW in d_ours.kinds)
                and nobody_else_can_call(ours.hand, d_theirs.actor)
            ):
                # the mirror case: PokerKit asks for a check nobody needs, the engine has moved on
                other = "nothing" if d_ours is None else d_ours.describe()
                out.known.append(NO_OPPONENT_CAN_CALL)
                out.log.append(f"{d_theirs.describe()} -> check (PokerKit only; Riverboat asks {other})")
                theirs.apply(Action(CHECK))
                continue
            if d_ours is None or d_theirs is None:
                if d_ours is not None or d_theirs is not None:
                    who = "PokerKit" if d_ours is None else "Riverboat"
                    other_decision = d_theirs if d_ours is None else d_ours
                    assert other_decision is not None
                    return _fail(
                        out, f"only {who} still has a decision: {other_decision.describe()}", ours, theirs
                    )
                break
            choice = d_ours
            diffs = compare_decisions(d_ours, d_theirs)
            if diffs:
                label = classify_decision(ours.hand, d_ours, d_theirs)
                where = f"riverboat {d_ours.describe()} | pokerkit {d_theirs.describe()}"
                if label is None:
                    return _fail(out, f"decision {out.decisions}: {'; '.join(diffs)} ({where})", ours, theirs)
                out.known.append(label)
                out.log.append(f"known difference {label}: {where}")
                if label == STUD_BRING_IN_ALL_IN:
                    return out  # the hands diverge from here on (who posts what)
                choice = _common(d_ours, d_theirs)
            action = actor.choose(choice)
            out.log.append(f"{d_ours.describe()} -> {action.describe()}")
            out.decisions += 1
            ours.apply(action)
            theirs.apply(action)
        out.riverboat_stacks = ours.stacks
        out.pokerkit_stacks = theirs.stacks
        total = sum(setup.stacks)
        if sum(out.riverboat_stacks) != total:
            return _fail(out, f"Riverboat does not conserve chips: {sum(out.riverboat_stacks)} != {total}")
        if out.riverboat_stacks != out.pokerkit_stacks:
            label = classify_stacks(ours.hand, out.riverboat_stacks, out.pokerkit_stacks)
            if label is None:
                return _fail(out, "finishing stacks differ")
            out.known.append(label)
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its reproduction
        tb = traceback.format_exception(exc)
        return _fail(out, f"{type(exc).__name__}: {exc}\n{''.join(tb[-3:])}")
    return out


def _common(a: Decision, b: Decision) -> Decision:
    """The decision restricted to what both sides allow (amounts agree on common kinds: checked before)."""
    return Decision(
        a.actor,
        a.kinds & b.kinds,
        call_amount=a.call_amount,
        min_to=a.min_to,
        max_to=a.max_to,
        bring_in_amount=a.bring_in_amount,
        hand=a.hand,
        max_discards=a.max_discards,
    )


def _fail(out: HandOutcome, problem: str, ours: Any = None, theirs: Any = None) -> HandOutcome:
    out.ok = False
    out.problem = problem
    if ours is not None and not out.riverboat_stacks:
        out.riverboat_stacks = list(ours.stacks)
    if theirs is not None and not out.pokerkit_stacks:
        out.pokerkit_stacks = list(theirs.stacks)
    return out


@dataclass(slots=True)
class Summary:
    code: str
    hands: int = 0
    failures: int = 0
    decisions: int = 0
    seconds: float = 0.0
    problems: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)
    first_failures: list[HandOutcome] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.code,
            "hands": self.hands,
            "failures": self.failures,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "hands_per_s": round(self.hands / self.seconds, 1) if self.seconds else None,
            "problems": dict(self.problems.most_common(20)),
            "known_differences": dict(self.known.most_common()),
            "failing_seeds": [o.setup.seed for o in self.first_failures],
        }


def problem_class(problem: str | None) -> str:
    """A short key grouping similar problems (the part before the first parenthesis or number detail)."""
    if problem is None:
        return "ok"
    head = problem.split("\n", 1)[0]
    if head.startswith("decision "):
        head = head.split(": ", 1)[1]
    return head.split(" (", 1)[0][:120]


def run(
    code: str,
    hands: int,
    seed: int = 0,
    *,
    keep_failures: int = 5,
    on_hand: Callable[[HandOutcome], None] | None = None,
    profile: str = "mixed",
) -> Summary:
    """Play ``hands`` differential hands of ``code`` with seeds ``seed, seed+1, ...``."""
    import time

    summary = Summary(code)
    start = time.perf_counter()
    for k in range(hands):
        outcome = play_hand(code, seed + k, profile=profile)
        summary.hands += 1
        summary.decisions += outcome.decisions
        summary.known.update(set(outcome.known))
        if not outcome.ok:
            summary.failures += 1
            summary.problems[problem_class(outcome.problem)] += 1
            if len(summary.first_failures) < keep_failures:
                summary.first_failures.append(outcome)
        if on_hand is not None:
            on_hand(outcome)
    summary.seconds = time.perf_counter() - start
    return summary
