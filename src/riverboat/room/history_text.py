"""The hand-history text saved with every settled hand (``store.ledger.settle_hand(..., phh=...)``): the PHH
record written by :func:`riverboat.history.hand_to_phh`, naming the players by their ids.

Settling the money must never depend on the history writer: if it fails on a hand, a short TOML record of the
hand (variant, seats, players, stacks, public actions) is stored instead and the failure is logged.
"""

from __future__ import annotations

import json
import logging

from riverboat.engine import Hand
from riverboat.history import hand_to_phh

log = logging.getLogger("riverboat.room")


def hand_history_text(hand: Hand, table_id: str, hand_id: str, players: dict[int, int]) -> str:
    try:
        return hand_to_phh(hand, table=table_id, hand=hand_id, players={s: str(pid) for s, pid in players.items()})
    except Exception:
        log.exception("PHH writer failed on hand %s at %s; storing a plain record", hand_id, table_id)
    result = hand.result
    lines = [
        f"variant = {json.dumps(hand.game.id)}",
        f"structure = {json.dumps(hand.structure.value)}",
        f"table = {json.dumps(table_id)}",
        f"hand = {json.dumps(hand_id)}",
        f"seats = {json.dumps(list(hand.seats))}",
        f"players = {json.dumps([str(players[s]) for s in hand.seats])}",
        f"starting_stacks = {json.dumps(list(hand.start_stacks))}",
        "actions = " + json.dumps([" ".join(f"{k}={v}" for k, v in e.to_dict().items())
                                   for e in hand.events if e.visible_to is None]),
    ]
    if result is not None:
        lines.append(f"finishing_stacks = {json.dumps([result.stacks[s] for s in hand.seats])}")
    return "\n".join(lines) + "\n"
