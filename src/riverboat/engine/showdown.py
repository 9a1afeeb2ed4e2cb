"""Hand values at showdown through :mod:`riverboat.evaluate` (R-CARD-2, R-OMAHA-3, R-LOW-8B, R-RANK-*)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from riverboat.games.catalog import Game


@cache
def _evaluate_api() -> tuple[Any, Any, Any]:
    from riverboat.evaluate import CardUse, Ranking, best_hand

    return Ranking, CardUse, best_hand


def evaluate_hands(
    game: Game, cards: Sequence[Sequence[int]], board: Sequence[int], alive: Sequence[int]
) -> list[list[tuple[int, str] | None]]:
    """For each of the game's rankings, each position's ``(strength, label)`` (higher is better) or None
    (folded, or no qualifying low)."""
    ranking_enum, card_use, best_hand = _evaluate_api()
    use = card_use.OMAHA if game.omaha else card_use.ANY
    n = len(cards)
    out: list[list[tuple[int, str] | None]] = []
    for name in game.rankings:
        ranking = getattr(ranking_enum, name)
        row: list[tuple[int, str] | None] = [None] * n
        for j in alive:
            v = best_hand(ranking, tuple(cards[j]), tuple(board), use)
            if v is not None:
                row[j] = (v.strength, v.label)
        out.append(row)
    return out
