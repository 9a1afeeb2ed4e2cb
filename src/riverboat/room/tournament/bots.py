"""In-process tournament bots: a decision made at once from the engine's legal actions, through the hand driver's
``auto`` hook (no protocol, no timers). They play any game: aggressive enough that fields shrink fast (simulations,
end-to-end tests), and they stand pat in draw games. The protocol bots of :mod:`riverboat.bots` play the same
tournaments through the server."""

from __future__ import annotations

import random

from riverboat.engine import Action, ActionKind
from riverboat.room.hand_driver import HandDriver, fallback_kind

_AGGRESSIVE = (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE)


class ShoveBot:
    """Shoves with probability ``shove``, calls with ``call``, else checks or folds."""

    def __init__(self, rng: random.Random, shove: float = 0.12, call: float = 0.25) -> None:
        self.rng = rng
        self.shove = shove
        self.call = call

    def __call__(self, driver: HandDriver, seat: int) -> Action:
        legal = driver.hand.legal_actions()
        kinds = legal.kinds
        if ActionKind.STAND_PAT in kinds:
            return Action(seat, ActionKind.STAND_PAT)
        r = self.rng.random()
        if r < self.shove:
            for k in _AGGRESSIVE:
                if k in kinds:
                    to = max(legal.allowed_to) if legal.allowed_to else legal.max_to
                    return Action(seat, k, to)
        if ActionKind.CHECK in kinds:
            return Action(seat, ActionKind.CHECK)
        if ActionKind.CALL in kinds and r < self.shove + self.call:
            return Action(seat, ActionKind.CALL)
        if ActionKind.FOLD in kinds:
            return Action(seat, ActionKind.FOLD)
        kind = fallback_kind(kinds)
        return Action(seat, kind, legal.bring_in if kind is ActionKind.BRING_IN else 0)
