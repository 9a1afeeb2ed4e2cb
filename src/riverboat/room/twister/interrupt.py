"""An interrupted Twister (R-TOURN-INT-9/10, R-TOURN-INT-11, R-WALLET-7): the compensation of every remaining
player computed by :func:`riverboat.room.tournament.compensation.compensate` (kind ``twister``) from the stacks
after the last completed hand (the hand in progress is voided, R-SERVER-1) and paid in one store transaction
(``store.tournament_play.interrupt``).

Figures: the pool is the drawn prize (``multiplier x buy-in``), what the eliminated players were already paid is
the prize less what the pool still holds; each remaining player gets their buy-in back (a ticket entry: its ticket
back) and, below ``split_threshold``, the rest of the pool by chips (INT-9); from it, also 10% of the pool left
after the refunds each (INT-10, INT-11d), the rest by chips. A shortfall (a 2x prize cannot refund three buy-ins)
is paid by the house. Wild Twister is compensated the same way, in cash (the rule names no ticket for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riverboat.room.errors import RoomError
from riverboat.room.tournament.compensation import (
    CompensationInput,
    CompensationResult,
    Remaining,
    compensate,
)
from riverboat.room.tournament.lifecycle import PLAYING, Status, Transition
from riverboat.store.tournament_play import Award

if TYPE_CHECKING:  # pragma: no cover
    from riverboat.room.tournament.director import Director


async def interrupt_twister(director: Director, reason: str = "interrupted by the operator") -> CompensationResult:
    """Stop ``director``'s Twister and pay every remaining player their compensation. Returns the figures."""
    from riverboat.room.twister.variants import VARIANTS

    variant = VARIANTS.get(director.spec.variant or "")
    if variant is None:
        raise RoomError("bad_settings", f"tournament {director.id} is not a Twister")
    if director.status not in PLAYING:
        raise RoomError("not_running", f"tournament {director.id} is {director.status.value}; only a running "
                                       "Twister is interrupted")
    settings = variant.config(director.id).settings
    # inside the tournament's actor, so that no hand is being recorded meanwhile; then the actor stops
    result = await director.actor.submit(lambda: _interrupt(director, settings.split_threshold, reason))
    await director.close()
    return result


async def _interrupt(director: Director, split_threshold: int, reason: str) -> CompensationResult:
    from riverboat.room.twister.variants import VARIANTS

    for table in director.tables.values():  # the hand in progress is voided (R-SERVER-1): never recorded
        if table.driver is not None:
            table.driver.close()
    gw = director.gw
    snap = await gw.call(gw.store.tournament_play.snapshot, director.id)
    spin = await gw.call(gw.store.twister.result, director.id)
    prize = spin.prize if spin is not None else snap.prize_pool
    remaining = [e for e in snap.entries if e.status == "registered"]
    inp = CompensationInput(
        kind="twister", buy_in=snap.buy_in, fee=0, prize_pool=prize,
        paid_so_far=max(0, prize - snap.prize_pool), split_threshold=split_threshold,
        remaining=tuple(Remaining(str(e.player_id), e.chips) for e in remaining))
    result = compensate(inp)
    awards = {e.player_id: Award(refund=True, cash=result.payouts[str(e.player_id)] - snap.buy_in)
              for e in remaining}
    await gw.call(gw.store.tournament_play.interrupt, director.id, awards, result.from_house)
    director.lifecycle.apply(Transition(Status.INTERRUPTED, reason), director.now)
    for e in remaining:
        director.notify(e.player_id, "interrupted", {"rule": result.rule, "reason": reason,
                                                     "paid": result.payouts[str(e.player_id)]})
    await VARIANTS[director.spec.variant or ""].on_finished(director)
    director.done.set()
    return result
