"""All-in hands face up before the run-out (issue #14; R-SHOW-4 reading: "online rooms normally show all-in hands
automatically").

When an action ends the betting with a player all-in, the engine deals the rest of the cards and shows the hands
down in the same step. The room then turns the hands that will be shown face up *before* the first of those cards
(an ``exposed`` event) and, when the table's ``allin_runout_seconds`` is above zero, deals the rest street by
street with that pause between them, so the players watch the run-out with the hands on their backs.

Only hands the showdown of that very step shows are turned up (never more than R-SHOW-4 reveals), with the cards
they held before the run-out. Pure functions over the engine's events.
"""

from __future__ import annotations

from collections.abc import Sequence

from riverboat.engine.events import Event

CARD_KINDS = frozenset({"board", "dealt"})


def runout_start(step: Sequence[Event]) -> int | None:
    """Where in ``step`` (the events one engine step added) an all-in run-out begins: the first card dealt after the
    step's last action when a showdown follows in the same step (no decision came between: betting was over).
    None when the step has no run-out."""
    first_show = next((i for i, ev in enumerate(step) if ev.kind == "showed"), None)
    if first_show is None:
        return None
    last_act = max((i for i, ev in enumerate(step[:first_show]) if ev.kind == "acted"), default=-1)
    return next((i for i in range(last_act + 1, first_show) if step[i].kind in CARD_KINDS), None)


def exposed_hands(before: Sequence[Event], step: Sequence[Event]) -> dict[str, list[str]]:
    """The cards each seat that shows down in ``step`` held before the run-out (``before``: the hand's events up to
    the run-out). Empty when fewer than two such seats hold cards yet (nothing to turn up)."""
    showing = {ev.seat for ev in step if ev.kind == "showed" and ev.seat is not None}
    held: dict[int, list[str]] = {seat: [] for seat in showing}
    for ev in before:
        if ev.seat in held and ev.kind == "dealt":
            held[ev.seat].extend(str(c) for c in ev.data.get("cards") or ())
        elif ev.seat in held and ev.kind == "drew_cards":
            gone = set(ev.data.get("discarded") or ())
            held[ev.seat] = [c for c in held[ev.seat] if c not in gone] + [str(c) for c in ev.data.get("cards") or ()]
    hands = {str(seat): cards for seat, cards in sorted(held.items()) if cards}
    return hands if len(hands) >= 2 else {}


def streets(runout: Sequence[Event]) -> list[list[Event]]:
    """The run-out cut after each group of cards (one street each); the showdown rides with the last street."""
    chunks: list[list[Event]] = [[]]
    for i, ev in enumerate(runout):
        chunks[-1].append(ev)
        nxt = runout[i + 1] if i + 1 < len(runout) else None
        if ev.kind in CARD_KINDS and nxt is not None and nxt.kind not in CARD_KINDS \
                and any(later.kind in CARD_KINDS for later in runout[i + 1:]):
            chunks.append([])
    return chunks
