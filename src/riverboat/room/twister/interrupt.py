"""An interrupted Twister (R-TOURN-INT-9/10, R-TOURN-INT-11, R-WALLET-7): the compensation of every remaining
player computed by :func:`riverboat.room.tournament.compensation.compensate` (kind ``twister``) from the stacks
after the last completed hand (the hand in progress is voided, R-SERVER-1) and paid in one store transaction
(``store.tournament_play.interrupt``).

Figures: the pool is the drawn prize (``multiplier x buy-in``), what the eliminated players were already paid is
the prize less what the pool still holds; each remaining player gets their buy-in back (a ticket entry: its ticket
back) and, below ``split_threshold``, the rest of the pool by chips (INT-9); from it, also 10% of the pool left
after the refunds each (INT-10, INT-11d), the rest by chips. A shortfall (a 2x prize cannot refund three buy-ins)
is paid by the house.

Wild Twister (reading, docs/twister.md): the same figures, each part paid in the form of what it stands for. The
buy-in goes back as it was paid (cash: a Wild Twister is not entered with a ticket). The share of the prize (by
chips, and from the threshold the 10%) stands for a prize that is a Twister ticket, whose value must never become
cash (R-TOURN-GEN-2, R-WILD-1): it is paid in Twister tickets (scope ``twister:*``) of the published Twister and AoG
buy-ins it covers, largest first, since a ticket only buys in at its face value (:func:`in_tickets`). What each
share leaves below the smallest buy-in is pooled and goes, as tickets again, to the largest stack (the remainder
rule of INT-11e); what is left below one ticket after that stays in the pool and returns to the house with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from riverboat.store.twister import TICKET_SCOPE
from riverboat.twister.tables import buy_ins

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
    shares = {str(e.player_id): result.payouts[str(e.player_id)] - snap.buy_in for e in remaining}
    if director.spec.variant == "wild":  # the prize is a ticket: so is its share (module docstring)
        largest = max(remaining, key=lambda e: e.chips).player_id if remaining else 0
        tickets, _left = in_tickets(shares, ticket_values(), str(largest))
        awards = {e.player_id: Award(refund=True, cash=0, tickets=tuple(tickets[str(e.player_id)]),
                                     ticket_for=TICKET_SCOPE) for e in remaining}
        result.tickets = tickets
    else:
        awards = {e.player_id: Award(refund=True, cash=shares[str(e.player_id)]) for e in remaining}
    await gw.call(gw.store.tournament_play.interrupt, director.id, awards, result.from_house)
    director.lifecycle.apply(Transition(Status.INTERRUPTED, reason), director.now)
    for e in remaining:
        name = str(e.player_id)
        if result.tickets:  # Wild Twister: the buy-in in cash, the share in Twister tickets
            director.notify(e.player_id, "interrupted", {"rule": result.rule, "reason": reason,
                                                         "paid": snap.buy_in,  # the buy-in back, in cash
                                                         "tickets": result.tickets[name]})
        else:
            director.notify(e.player_id, "interrupted", {"rule": result.rule, "reason": reason,
                                                         "paid": result.payouts[name]})
    await VARIANTS[director.spec.variant or ""].on_finished(director)
    director.done.set()
    return result


def interrupt_answer(result: CompensationResult) -> dict[str, object]:
    """The operator's answer (``POST /api/operator/twister/{id}/interrupt``): ``{"rule", "payouts", "from_pool",
    "from_house"}``, Wild Twister also ``"tickets"`` (the share of the prize as Twister tickets)."""
    out: dict[str, object] = {"rule": result.rule, **result.to_dict()}
    if result.tickets:
        out["tickets"] = result.tickets
    return out


def ticket_values() -> tuple[int, ...]:
    """Face values a Wild Twister compensation ticket can take: the buy-ins its scope (``twister:*``) admits."""
    return tuple(sorted(set(buy_ins("twister")) | set(buy_ins("aog"))))


def in_tickets(shares: Mapping[str, int], values: Sequence[int], largest: str) -> tuple[dict[str, list[int]], int]:
    """Each player's ``shares`` as tickets of ``values`` (largest first); the parts below the smallest value are
    pooled and paid to ``largest`` as tickets too. Returns (tickets per player, what is left below one ticket)."""
    order = sorted(values, reverse=True)

    def split(amount: int) -> tuple[list[int], int]:
        out: list[int] = []
        for v in order:
            n, amount = divmod(amount, v)
            out += [v] * n
        return out, amount

    tickets: dict[str, list[int]] = {}
    rest = 0
    for name, share in shares.items():
        tickets[name], left = split(max(0, share))
        rest += left
    extra, rest = split(rest)
    tickets.setdefault(largest, []).extend(extra)
    return tickets, rest
