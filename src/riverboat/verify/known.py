"""Recognisers for the *documented* differences between Riverboat (RULES.md) and PokerKit.

Each recogniser looks at one observed difference and at the engine state, and returns a label when the difference
is exactly one of those listed in ``docs/findings/engine-verification.md`` (and ``docs/rules-differences.md``);
anything else stays a failure. Recognisers are deliberately narrow: they check the situation that explains the
difference, not just its symptom.

Labels:

* ``no-opponent-can-call``: one engine asks a player to act (a bet/raise, or just a check) although no other live
  player has chips beyond the current bet, while the other engine has moved on (finding 2; seen both ways).
* ``short-all-in-reopens``: PokerKit lets a player who already acted raise after only incomplete all-in
  bets/raises this street; the engine does not (R-LIMIT-GEN-2, finding 3).
* ``stud-bring-in-all-in``: the lowest stud up card is all-in from the ante; PokerKit makes the next player post
  the bring-in, the engine has no bring-in (finding 4).
* ``pokerkit-short-all-ins-sum``: several incomplete all-in raises since the player last acted add up to a full
  raise; the engine reopens the betting, PokerKit does not (it resets its running sum when the sum reaches a full
  raise without reopening the betting, then counts only the later short all-ins).
* ``pokerkit-hi-lo-side-pot``: in a hi/lo side pot no eligible player has a qualifying low but another player does;
  PokerKit still halves that pot (R-OMAHA-HL-3: the high hand scoops it).
"""

from __future__ import annotations

from riverboat.engine import Hand
from riverboat.verify.decisions import BRING_IN, CHECK, RAISE, Decision

NO_OPPONENT_CAN_CALL = "no-opponent-can-call"
SHORT_ALL_IN_REOPENS = "short-all-in-reopens"
STUD_BRING_IN_ALL_IN = "stud-bring-in-all-in"
SHORT_ALL_INS_SUM = "pokerkit-short-all-ins-sum"
HI_LO_SIDE_POT = "pokerkit-hi-lo-side-pot"

_AGGRESSIVE = frozenset({"bet", "raise", "complete"})


def nobody_else_can_call(hand: Hand, seat: int) -> bool:
    """True when every other live player is all-in or cannot put in more than the current bet."""
    i = hand.seats.index(seat)
    for j in range(hand.n):
        if j == i or hand.folded[j] or hand.allin[j]:
            continue
        if hand.stacks[j] + hand.bets[j] > hand.cur_bet:
            return False
    return True


def _street_events_since_last_action(hand: Hand, seat: int) -> list[dict[str, object]] | None:
    """The ``acted`` events of this street after ``seat``'s last action (None if ``seat`` has not acted yet)."""
    events = hand.events
    start = 0
    for k in range(len(events) - 1, -1, -1):
        if events[k].kind == "street":
            start = k + 1
            break
    last = None
    for k in range(start, len(events)):
        e = events[k]
        if e.kind == "acted" and e.seat == seat:
            last = k
    if last is None:
        return None
    return [dict(e.data) for e in events[last + 1 :] if e.kind == "acted"]


def incomplete_raises_since(hand: Hand, seat: int) -> int:
    """How many bets/raises were made since ``seat`` last acted this street, if all were incomplete (else 0)."""
    later = _street_events_since_last_action(hand, seat)
    if later is None:
        return 0
    aggressive = [d for d in later if d.get("action") in _AGGRESSIVE]
    return 0 if any(d.get("full") for d in aggressive) else len(aggressive)


def only_incomplete_raises_since(hand: Hand, seat: int) -> bool:
    """Since ``seat`` last acted this street, every bet/raise was an incomplete all-in (``full`` false)."""
    later = _street_events_since_last_action(hand, seat)
    if later is None:
        return False
    aggressive = [d for d in later if d.get("action") in _AGGRESSIVE]
    return bool(aggressive) and not any(d.get("full") for d in aggressive)


def classify_decision(hand: Hand, ours: Decision, theirs: Decision) -> str | None:
    """The label of a documented decision difference, or None."""
    if ours.actor != theirs.actor:
        return None
    extra_ours = ours.kinds - theirs.kinds
    extra_theirs = theirs.kinds - ours.kinds
    if extra_ours == {RAISE} and not extra_theirs and nobody_else_can_call(hand, ours.actor):
        return NO_OPPONENT_CAN_CALL
    if extra_ours == {RAISE} and not extra_theirs and incomplete_raises_since(hand, ours.actor) >= 2:
        return SHORT_ALL_INS_SUM
    if extra_theirs == {RAISE} and not extra_ours and only_incomplete_raises_since(hand, ours.actor):
        return SHORT_ALL_IN_REOPENS
    if (
        CHECK in ours.kinds
        and BRING_IN in theirs.kinds
        and hand.street == 0
        and hand.game.bring_in is not None
        and any(hand.allin[j] and not hand.folded[j] for j in range(hand.n))
        and not any(e.kind == "acted" for e in hand.events)
    ):
        return STUD_BRING_IN_ALL_IN
    return None


def classify_stacks(hand: Hand, ours: list[int], theirs: list[int]) -> str | None:
    """The label of a documented finishing-stack difference, or None."""
    result = hand.result
    if result is None or sum(ours) != sum(theirs):
        return None
    seats = sorted(hand.seats)  # the stacks are listed by seat (0.. in the differential, 1.. in a replay)
    differing = {seats[i] for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b}
    if hand.game.is_hi_lo:
        has_low = any(p.share == "low" for p in result.pots)
        scooped_side = any(p.share == "all" and len(p.eligible) < _live_count(hand) for p in result.pots)
        if has_low and scooped_side:
            side_players = {s for p in result.pots if p.share == "all" for s in p.eligible}
            if differing <= side_players | {s for p in result.pots for s in p.winners}:
                return HI_LO_SIDE_POT
    return None


def _live_count(hand: Hand) -> int:
    return sum(1 for j in range(hand.n) if not hand.folded[j])
