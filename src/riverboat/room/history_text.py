"""The hand-history text saved with every settled hand (``store.ledger.settle_hand(..., phh=...)``).

When :mod:`riverboat.history` offers a PHH writer for engine hands (``hand_to_phh(hand, ...)``) it is used;
otherwise a small PHH-style TOML record is written here: variant, seats, players, starting and finishing stacks,
the deck order is never written, only cards that were dealt, and the public action log.
"""

from __future__ import annotations

import json
from typing import Any

from riverboat.engine import Hand


def _toml_value(value: Any) -> str:
    return json.dumps(value)


def hand_history_text(hand: Hand, table_id: str, hand_id: str, players: dict[int, int]) -> str:
    try:  # the history package's writer, if it exists
        from riverboat.history import hand_to_phh  # type: ignore[attr-defined]
    except ImportError:
        hand_to_phh = None
    if hand_to_phh is not None:
        try:
            return str(hand_to_phh(hand, table=table_id, hand=hand_id, players=players))
        except Exception:  # pragma: no cover - fall back to our own record
            pass
    result = hand.result
    lines = [
        f"variant = {_toml_value(hand.game.id)}",
        f"structure = {_toml_value(hand.structure.value)}",
        f"table = {_toml_value(table_id)}",
        f"hand = {_toml_value(hand_id)}",
        f"seats = {_toml_value(list(hand.seats))}",
        f"players = {_toml_value([players[s] for s in hand.seats])}",
        f"starting_stacks = {_toml_value(list(hand.start_stacks))}",
        f"button = {_toml_value(hand.config.button)}",
    ]
    actions = []
    for ev in hand.events:
        if ev.visible_to is not None:
            continue
        d = ev.to_dict()
        actions.append(" ".join(f"{k}={v}" for k, v in d.items()))
    lines.append(f"actions = {_toml_value(actions)}")
    if result is not None:
        lines.append(f"finishing_stacks = {_toml_value([result.stacks[s] for s in hand.seats])}")
        lines.append(f"rake = {result.rake}")
    return "\n".join(lines) + "\n"
