"""Wild Twister's automatic play (R-WILD-2): every player goes all-in on the first hand and on every later hand.

:func:`wild_action` is the action the table takes for a player at each of their decisions: bet or raise the
whole stack when that is offered, else call (which puts the rest of the stack in when facing an all-in), else
check (nothing left to put in); split-pot and run-it-twice offers are declined so the hand runs out once. The
player never folds.
"""

from __future__ import annotations

from riverboat.engine.actions import Action, ActionKind, LegalActions

_K = ActionKind


def wild_action(legal: LegalActions) -> Action:
    kinds = legal.kinds
    for kind in (_K.RAISE, _K.BET):
        if kind in kinds:
            return Action(legal.seat, kind, legal.max_to)
    for kind in (_K.CALL, _K.CHECK, _K.RUN_ONCE, _K.DECLINE_SPLIT):
        if kind in kinds:
            return Action(legal.seat, kind)
    raise ValueError(f"no all-in action among {sorted(k.value for k in kinds)} (R-WILD-2 is for NL Hold'em)")
