"""Button and blinds for blind games at cash tables, as pure functions.

- R-TABLE-3: the button moves clockwise to the next active player after every hand.
- R-BLIND-1: left of the button posts the small blind, the next player the big blind; R-BLIND-3 (reading): heads-up
  the button posts the small blind.
- R-NEWPLAYER-1 / R-MISSED-1: a player who *owes* a big blind (new at the table, or missed it while sitting out)
  either waits until the big blind reaches them or posts a live big blind from any other position.
- R-MISSED-2 (CONFLICT C-5): a player who also missed the small blind posts the big blind live plus the small blind
  dead (default, 004), or only the small blind, dead (002). R-MISSED-3: dead money does not count as a bet.
- R-SITOUT-5 / R-BLIND-4: sitting-out players are never charged; the blinds that pass them are recorded as missed.

Reading for the table start (no source): when fewer than two players who owe nothing are ready, everyone ready is
dealt in free of any obligation (otherwise a new table of new players would wait for ever).
Reading for a player who owes a blind and chose to post at once: the small blind is given to the next player who
owes nothing, so the returning player posts exactly their live big blind (plus dead money per R-MISSED-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from riverboat.room.settings import MissedBlindPolicy


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """What the blind logic needs to know about one occupied seat."""

    seat: int
    ready: bool  # seated, not sitting out, has chips: can be dealt in
    owes_bb: bool = False  # new player (R-NEWPLAYER-1) or missed the big blind (R-MISSED-1)
    missed_sb: bool = False  # also missed the small blind (R-MISSED-2)
    post_now: bool = False  # chose to post now rather than wait for the big blind


@dataclass(frozen=True, slots=True)
class BlindPlan:
    button: int
    small_blind: int | None
    big_blind: int
    dealt: tuple[int, ...]  # seats dealt in, clockwise from the left of the button
    live_posts: Mapping[int, int] = field(default_factory=dict)  # seat -> live big blind posted out of position
    dead_posts: Mapping[int, int] = field(default_factory=dict)  # seat -> dead money (R-MISSED-3)
    heads_up: bool = False
    free_start: bool = False  # table (re)start: waiting players dealt in without posting


def clockwise_after(start: int, seats: Iterable[int], max_seats: int) -> list[int]:
    """``seats`` ordered clockwise beginning with the first seat strictly after ``start`` (``start`` last)."""
    return sorted(set(seats), key=lambda s: (s - start - 1) % max_seats)


def on_arc(seat: int, start: int | None, end: int, max_seats: int) -> bool:
    """True if ``seat`` lies on the clockwise arc (start, end] (the whole circle when start is None/equal)."""
    if start is None:
        return seat == end
    if start == end:
        return True
    return 0 < (seat - start) % max_seats <= (end - start) % max_seats


def plan_blinds(
    statuses: Mapping[int, SeatStatus],
    *,
    max_seats: int,
    prev_button: int | None,
    small_blind: int,
    big_blind: int,
    policy: MissedBlindPolicy = MissedBlindPolicy.BB_LIVE_PLUS_SB_DEAD,
) -> BlindPlan | None:
    """Who has the button, who posts what, and who is dealt in for the next hand; None if fewer than 2 can play."""
    ready = [s for s, st in statuses.items() if st.ready]
    if len(ready) < 2:
        return None
    active = [s for s in ready if not statuses[s].owes_bb or statuses[s].post_now]
    waiting = [s for s in ready if s not in active]
    free_start = False
    if len(active) < 2:
        active, waiting, free_start = sorted(ready), [], True

    anchor = prev_button if prev_button is not None else min(active) - 1
    button = clockwise_after(anchor % max_seats, active, max_seats)[0]
    owing = {s for s in active if not free_start and statuses[s].owes_bb}

    order = clockwise_after(button, ready, max_seats)  # button is last
    sb_candidates = [s for s in order[:-1] if s in active and s not in owing] or [
        s for s in order[:-1] if s in active
    ]
    if not sb_candidates:
        sb = button
    else:
        sb = sb_candidates[0]
    after_sb = clockwise_after(sb, ready, max_seats)
    bb = next((s for s in after_sb if s != sb and (s in waiting or s in active)), button)
    dealt_set = set(active) | {bb}
    heads_up = len(dealt_set) == 2
    if heads_up:
        sb = button
        bb = next(s for s in dealt_set if s != button)
    elif bb == button:  # only possible if everyone else owes; the button cannot post both roles
        bb = next(s for s in after_sb if s != sb and s in dealt_set)

    live, dead = ({}, {}) if free_start else _owed_posts(statuses, dealt_set, (sb, bb), policy, small_blind,
                                                        big_blind)
    dealt = tuple(s for s in clockwise_after(button, dealt_set, max_seats))
    return BlindPlan(
        button=button,
        small_blind=sb,
        big_blind=bb,
        dealt=dealt,
        live_posts=live,
        dead_posts=dead,
        heads_up=heads_up,
        free_start=free_start,
    )


def _owed_posts(statuses: Mapping[int, SeatStatus], dealt: set[int], blinds: tuple[int, int],
                policy: MissedBlindPolicy, small_blind: int, big_blind: int) -> tuple[dict[int, int], dict[int, int]]:
    """The live and dead posts of the players dealt in who owe blinds (R-MISSED), other than the two blinds."""
    live: dict[int, int] = {}
    dead: dict[int, int] = {}
    for s in dealt:
        st = statuses[s]
        if s in blinds or not (st.owes_bb or st.missed_sb):
            continue
        if policy is MissedBlindPolicy.SB_DEAD_ONLY and st.owes_bb and st.missed_sb:
            dead[s] = small_blind
        else:
            if st.owes_bb:
                live[s] = big_blind
            if st.missed_sb:
                dead[s] = small_blind
    return live, dead


def missed_blinds(
    sitting_out: Iterable[int],
    *,
    prev: BlindPlan | None,
    plan: BlindPlan,
    max_seats: int,
) -> dict[int, tuple[bool, bool]]:
    """For each sitting-out seat: (missed_bb, missed_sb) -- did the big/small blind pass over it this hand?

    A blind *passes* a seat when the seat lies on the clockwise arc from the previous hand's blind seat (exclusive)
    to this hand's (inclusive). On the first hand nothing is missed.
    """
    out: dict[int, tuple[bool, bool]] = {}
    if prev is None:
        return out
    for s in sitting_out:
        missed_bb = on_arc(s, prev.big_blind, plan.big_blind, max_seats) and prev.big_blind != plan.big_blind
        missed_sb = (
            prev.small_blind is not None
            and plan.small_blind is not None
            and prev.small_blind != plan.small_blind
            and on_arc(s, prev.small_blind, plan.small_blind, max_seats)
        )
        if missed_bb or missed_sb:
            out[s] = (missed_bb, missed_sb)
    return out
