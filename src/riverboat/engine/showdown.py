"""Hand values at showdown through :mod:`riverboat.evaluate` (R-CARD-2, R-OMAHA-3, R-LOW-8B, R-RANK-*)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from riverboat.evaluate import CardUse, Ranking, best_hand, describe, evaluate7
from riverboat.games.catalog import Game


@cache
def ranking_of(name: str) -> Ranking:
    return Ranking[name]


def evaluate_hands(
    game: Game, cards: Sequence[Sequence[int]], board: Sequence[int], alive: Sequence[int]
) -> list[list[int | None]]:
    """For each of the game's rankings, each position's strength (higher is better) or None (folded, or no
    qualifying low). Seven-card standard high hands take the fast seven-card evaluator."""
    use = CardUse.OMAHA if game.omaha else CardUse.ANY
    n = len(cards)
    out: list[list[int | None]] = []
    board_t = tuple(board)
    for name in game.rankings:
        ranking = ranking_of(name)
        row: list[int | None] = [None] * n
        fast = ranking is Ranking.HIGH and use is CardUse.ANY
        for j in alive:
            hole = cards[j]
            if fast and len(hole) + len(board_t) == 7:
                row[j] = evaluate7(*hole, *board_t)
            else:
                v = best_hand(ranking, tuple(hole), board_t, use)
                row[j] = None if v is None else v.strength
        out.append(row)
    return out


def label_of(game: Game, strengths: Sequence[int | None]) -> str:
    """The labels of one player's hand values ("Flush, King high / Seven-Five low")."""
    return " / ".join(describe(ranking_of(name), v) for name, v in zip(game.rankings, strengths, strict=True)
                      if v is not None)
