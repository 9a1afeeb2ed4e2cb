"""The hand-history text saved with every settled hand (``store.ledger.settle_hand(..., phh=...)``): the PHH
record written by :func:`riverboat.history.hand_to_phh`, naming the players by their ids."""

from __future__ import annotations

from riverboat.engine import Hand
from riverboat.history import hand_to_phh


def hand_history_text(hand: Hand, table_id: str, hand_id: str, players: dict[int, int]) -> str:
    return hand_to_phh(hand, table=table_id, hand=hand_id, players={s: str(pid) for s, pid in players.items()})
