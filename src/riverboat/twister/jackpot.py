"""Age of the Gods jackpot arithmetic (R-AOG-3..6, R-WALLET-9), pure and in integer minor units.

Contributions. 0.99% of a stake is rarely a whole number of cents (a EUR 1 stake gives 0.99 cent). Riverboat does
not round each stake: it keeps, per currency, the total of all AoG stakes ever started, ``S``, and tier ``i`` has
received exactly ``floor(S * 99 * share_i / 10**8)`` minor units at all times (``share_i`` in basis points,
0.99% = 99 / 10**4). A game adding ``3 * buy_in`` to ``S`` moves the difference of that formula before and after
into each tier. Each tier is therefore never more than one minor unit short of its exact share of 0.99% of all
stakes, and the four tiers together at most four; the fractions not yet moved stay in the game's prize pool (the
house's side of the pool, as the rest of the stakes above the prize). Every transfer is an integer, so the
ledger's conservation (every transaction balanced, each currency summing to zero) holds as for any posting.

Triggers (R-AOG-6: independent of the result). When an AoG Twister starts, each player's stake independently
triggers a jackpot game with probability ``ppm * buy_in / (100 * 10**6)`` (a random value below ``100 * 10**6``
compared with ``ppm * buy_in``); a triggered jackpot game awards one tier drawn by the tier weights (a random value
below 10,000), and the winner is paid that tier's whole balance, apart from the tournament prize (R-WALLET-9).
"""

from __future__ import annotations

from dataclasses import dataclass

from riverboat.twister.draw import BASIS_POINTS, BitSource, index_at, uniform_below
from riverboat.twister.settings import PPM, TIERS, TRIGGER_REFERENCE_BUY_IN, TwisterSettings


def tier_totals(stakes_total: int, settings: TwisterSettings) -> tuple[int, ...]:
    """What each tier has received in all, after ``stakes_total`` minor units of AoG stakes (see module doc)."""
    num = settings.jackpot_contribution_per_10000
    return tuple(stakes_total * num * share // (BASIS_POINTS * BASIS_POINTS)
                 for share in settings.jackpot_tier_shares_bp)


def contributions(stakes_before: int, stakes: int, settings: TwisterSettings) -> tuple[int, ...]:
    """Minor units each tier receives when ``stakes`` more are staked after ``stakes_before``."""
    before = tier_totals(stakes_before, settings)
    after = tier_totals(stakes_before + stakes, settings)
    return tuple(a - b for a, b in zip(after, before, strict=True))


def trigger_threshold(buy_in: int, settings: TwisterSettings) -> tuple[int, int]:
    """(numerator, range): a stake triggers a jackpot game when a value uniform below ``range`` is below
    ``numerator`` (capped at certainty)."""
    span = TRIGGER_REFERENCE_BUY_IN * PPM
    return min(settings.jackpot_trigger_ppm_per_100 * buy_in, span), span


@dataclass(frozen=True, slots=True)
class JackpotDraw:
    seat: int  # index of the player in the order given
    trigger_value: int
    trigger_range: int
    tier: str | None  # None: this stake did not trigger
    tier_value: int | None
    tier_range: int | None


def draw_jackpots(n_players: int, buy_in: int, settings: TwisterSettings, rng: BitSource) -> list[JackpotDraw]:
    """One trigger draw per player (and a tier draw for each triggered one), in player order."""
    num, span = trigger_threshold(buy_in, settings)
    out: list[JackpotDraw] = []
    for seat in range(n_players):
        u = uniform_below(rng, span)
        if u >= num:
            out.append(JackpotDraw(seat, u, span, None, None, None))
            continue
        v = uniform_below(rng, BASIS_POINTS)
        tier = TIERS[index_at(settings.jackpot_tier_weights_bp, v)]
        out.append(JackpotDraw(seat, u, span, tier, v, BASIS_POINTS))
    return out
