"""What an operator may change in a tournament players have entered (R-OPER-2: "the operator may change any
tournament's time, guaranteed prize or conditions"), as pure code. The reading (docs/tournaments.md, "Operator
edits"): what the players paid for never changes once anyone paid; what only helps them may only go their way; the
rest (times, structure, conditions) may change until the start; after the start only what cannot hurt anyone
already playing.

- **Never, once anyone entered** (:data:`FIXED`): the buy-in and fee (and the knockout part of the buy-in), the
  currency, the kind, the game and structure, satellite / flight / Day 2 / variant. To change those, cancel (every
  buy-in and fee back) and create another tournament. A Sit & Go's seats are fixed too (it starts when full).
- **Only up** (:data:`UP_ONLY`): guarantee, added prize, maximum entrants (0 = no maximum counts as the top; never
  below the entrants already in); **only down**: minimum entrants (never a reason to cancel what players entered).
- **Until the start**: everything else (name, start time — not in the past —, registration and unregistration
  times, late registration, levels and their length, breaks, starting stack, payout, table settings, re-buy
  terms, named bounties, promo code and password, an MTT's seats per table).
- **After the start** (:data:`AFTER_START`): the name, the guarantee up while the prizes are not fixed yet (late
  registration or re-buys still open), the maximum entrants up and the late registration up.

:func:`refusal` returns the message of the first change refused (None: every change is allowed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from riverboat.room.tournament.spec import TournamentSpec

FIXED = ("buy_in", "fee", "currency", "kind", "game", "structure", "mixed", "knockout", "satellite", "flight",
         "day2_of", "variant")
UP_ONLY = ("guarantee", "added_prize", "max_entrants")
DOWN_ONLY = ("min_entrants",)
AFTER_START = ("name", "guarantee", "max_entrants", "late_registration_levels")


def changed(old: TournamentSpec, new: TournamentSpec) -> dict[str, Any]:
    """The fields whose value differs, with the new value (JSON form)."""
    a, b = old.to_dict(), new.to_dict()
    return {k: b[k] for k in b if a.get(k) != b[k]}


def refusal(old: TournamentSpec, new: TournamentSpec, *, entrants: int, started: bool, prizes_fixed: bool,
            now: float) -> str | None:
    """Why the edit from ``old`` to ``new`` is refused for a tournament with ``entrants`` entries (None: allowed).
    ``started``: running; ``prizes_fixed``: the pool is final (the overlay was paid)."""
    diff = changed(old, new)
    if not diff or entrants == 0 and not started:
        return None  # nobody entered yet: any field may change (the spec's own validation applies)
    for name in diff:
        if name in FIXED or (name == "seats" and old.is_sng):
            return (f"{name} cannot change once players have entered: what they paid for stays (R-OPER-2); "
                    "cancel the tournament (every buy-in and fee back) and create another")
        if started and name not in AFTER_START:
            return (f"{name} cannot change once the tournament has started; only {', '.join(AFTER_START)} "
                    "(R-OPER-2)")
    if new.max_entrants and new.max_entrants < entrants:
        return f"max_entrants cannot be below the {entrants} entrants already in"
    for name in UP_ONLY:
        if name in diff and _below(getattr(new, name), getattr(old, name), unlimited=name == "max_entrants"):
            return f"{name} may only go up once players have entered (R-OPER-2)"
    if "min_entrants" in diff and new.min_entrants > old.min_entrants:
        return "min_entrants may only go down once players have entered (R-OPER-2)"
    if started and new.late_registration_levels < old.late_registration_levels:
        return "late_registration_levels may only go up once the tournament has started"
    if "guarantee" in diff and prizes_fixed:
        return "the prizes are fixed (the pool is final): the guarantee cannot change any more"
    if "starts_at" in diff and new.starts_at is not None and new.starts_at <= now:
        return "starts_at is in the past"
    return None


def _below(new: int, old: int, *, unlimited: bool) -> bool:
    if unlimited:  # 0 = no maximum: the top
        return old == 0 and new != 0 or new != 0 and new < old
    return new < old


def apply(spec: TournamentSpec, changes: Mapping[str, Any]) -> TournamentSpec:
    """``spec`` with ``changes`` (JSON field values), validated (raises ``SpecError``)."""
    return TournamentSpec.from_dict(spec.to_dict() | dict(changes))
