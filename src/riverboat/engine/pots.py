"""Pots from contributions (R-ALLIN-5) and odd-chip division (R-ODD)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(slots=True)
class Pot:
    """One pot: ``amount`` chips contested by the player positions in ``eligible``."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contrib: Sequence[int], folded: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Layer the contributions into a main pot and side pots (R-ALLIN-5).

    ``contrib[i]``: chips player position ``i`` put in (folded players included). ``dead``: chips that belong to
    the main pot whatever the layers (antes/dead blinds under the PHH no-trimming reading): every player still in
    can win them, a player whose only chips in are dead ones too. Pots whose eligible
    sets are equal are merged; a layer nobody still in the hand reached goes to the pot below it.
    """
    n = len(contrib)
    # the eligible players change only at the contribution of a player still in: one pot per such level, the
    # layers between two of them (folded players' contributions) in the pot above
    levels = sorted({c for c, f in zip(contrib, folded) if c > 0 and not f})  # noqa: B905 (same length)
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        amount = 0
        eligible = []
        for i in range(n):
            c = contrib[i]
            if c > prev:
                amount += (c if c < level else level) - prev
                if c >= level and not folded[i]:
                    eligible.append(i)
        pots.append(Pot(amount, tuple(eligible)))
        prev = level
    above = 0  # a layer nobody still in the hand reached goes to the pot below it
    for c in contrib:
        if c > prev:
            above += c - prev
    if above:
        if pots:
            pots[-1].amount += above
        else:  # nobody still in put chips in: all of it below the layers
            dead += above
    if dead:  # a pot of its own below the layers, every player still in eligible (also one all-in for an ante
        # only, PHH ``ante_trimming_status = false``); merged with the main pot when the players are the same
        alive = tuple(i for i in range(n) if not folded[i])
        if pots and pots[0].eligible == alive:
            pots[0].amount += dead
        else:
            pots.insert(0, Pot(dead, alive))
    return pots


def merge_equal_pots(pots: Sequence[Pot], winners: set[int]) -> list[Pot]:
    """The PHH (PokerKit) reading of a showdown (``Settings.merge_equal_pots``): only ``winners`` (the players who
    win a share of some pot) stay in the pots, and pots whose remaining players are the same become one pot.
    Pots are layered from the main pot up, so equal player sets are neighbours."""
    out: list[Pot] = []
    for p in pots:
        eligible = tuple(filter(winners.__contains__, p.eligible)) or p.eligible
        if out and out[-1].eligible == eligible:
            out[-1].amount += p.amount
        else:
            out.append(Pot(p.amount, eligible))
    return out


def divide(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Split ``amount`` equally among ``winners`` (already in odd-chip order): the remainder goes one unit at a
    time to the winners in that order (R-ODD-1 default)."""
    k = len(winners)
    share, rem = divmod(amount, k)
    out = {w: share for w in winners}
    for w in winners[:rem]:
        out[w] += 1
    return out


def divide_all_to_first(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Split equally; the whole remainder goes to the first winner in order (R-ODD-1, 002/004 wording)."""
    k = len(winners)
    share, rem = divmod(amount, k)
    out = {w: share for w in winners}
    out[winners[0]] += rem
    return out
