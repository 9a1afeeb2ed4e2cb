"""Random legal play for the history tests: one random legal action of the player to act."""

from __future__ import annotations

import random

from riverboat.engine import AGGRESSIVE, Action, ActionKind, Hand, LegalActions


def act_randomly(hand: Hand, la: LegalActions, rng: random.Random) -> None:
    """Apply a random legal action (any kind but straddle; random discards; a random legal amount)."""
    kind = rng.choice(sorted(la.kinds))
    if kind is ActionKind.DRAW:
        mine = [int(c) for c in hand.cards[hand.seats.index(la.seat)]]
        hand.act(Action(la.seat, kind, cards=tuple(rng.sample(mine, rng.randint(0, min(la.max_discards, 5))))))
    elif kind in AGGRESSIVE and kind is not ActionKind.STRADDLE:
        amount = rng.choice(la.allowed_to) if la.allowed_to else rng.randint(la.min_to, la.max_to)
        hand.act(Action(la.seat, kind, amount))
    else:
        hand.act(Action(la.seat, kind))
