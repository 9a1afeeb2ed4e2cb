"""A hand-strength bot: it estimates its chance of winning against random hands and bets, calls or folds by it.

Hold'em, Omaha and Omaha Hi/Lo use the equity API (``riverboat.evaluate.equity.equity``): random holdings are dealt
to the opponents from the unseen cards and the equity of the bot's hand against them is averaged over those
deals (Monte Carlo boards inside each call). Other games use a small Monte Carlo of their own: the opponents'
hands are drawn from the unseen cards of the game's deck (and the board completed in flop games), every hand is
ranked with ``riverboat.evaluate.best_hand`` under the game's first ranking (Six Plus, 2-7, A-5, 32-card...), and
ties count half. It then raises with a strong hand, calls when the price is right (equity against pot odds), and
folds otherwise; in draw games it keeps the cards that make its hand and draws to the rest.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Sequence

from riverboat.cards import Card
from riverboat.evaluate import CardUse, HandError, Ranking, best_hand
from riverboat.games import Kind, get_game

from .strategies import Decision, Move, passive_move

LOW_RANKINGS = {Ranking.LOW_27, Ranking.LOW_A5, Ranking.LOW_8B}


def ranking_of(name: str) -> Ranking:
    """The evaluator ranking for a game's ranking name (``"HIGH"`` or ``"high"``)."""
    return Ranking[name] if name in Ranking.__members__ else Ranking(name)


EQUITY_GAMES = {"holdem": "holdem", "omaha": "omaha", "omaha_hl": "omaha-hl"}


def estimate_equity(game_id: str, hole: Sequence[str], board: Sequence[str], opponents: int,
                    rng: random.Random, trials: int = 150) -> float:
    """Share of the pot won against ``opponents`` random hands (ties split)."""
    if game_id in EQUITY_GAMES and opponents <= 8:
        try:
            return equity_vs_random(game_id, hole, board, opponents, rng, deals=max(4, trials // 6))
        except HandError:
            pass  # e.g. too few cards left for the sampled deal: fall back to the plain Monte Carlo
    return monte_carlo_equity(game_id, hole, board, opponents, rng, trials)


def equity_vs_random(game_id: str, hole: Sequence[str], board: Sequence[str], opponents: int,
                     rng: random.Random, deals: int = 24, boards_per_deal: int = 60) -> float:
    """Average equity (``riverboat.evaluate.equity``) against ``deals`` random holdings of the opponents."""
    from riverboat.evaluate.equity import equity

    game = get_game(game_id)
    mine = [int(Card(c)) for c in hole]
    seen = [int(Card(c)) for c in board]
    unseen = [int(c) for c in game.deck.cards if int(c) not in set(mine) | set(seen)]
    size = len(mine)
    total = 0.0
    for _ in range(deals):
        sample = rng.sample(unseen, opponents * size)
        hands = [mine] + [sample[k * size:(k + 1) * size] for k in range(opponents)]
        result = equity(hands, seen, game=EQUITY_GAMES[game_id], trials=boards_per_deal, exact=False,
                        seed=rng.getrandbits(63))
        total += result.players[0].equity
    return total / deals


def monte_carlo_equity(game_id: str, hole: Sequence[str], board: Sequence[str], opponents: int,
                       rng: random.Random, trials: int = 150) -> float:
    """Share of the pot won against ``opponents`` random hands (ties split), ranked with ``best_hand``."""
    game = get_game(game_id)
    ranking = ranking_of(game.rankings[0])
    use = CardUse.OMAHA if getattr(game, "omaha", False) else CardUse.ANY
    mine = [int(Card(c)) for c in hole]
    seen = [int(Card(c)) for c in board]
    unseen = [int(c) for c in game.deck.cards if int(c) not in set(mine) | set(seen)]
    board_size = 5 if game.kind is Kind.FLOP else 0
    need_board = max(0, board_size - len(seen))
    hand_size = len(mine)
    won = 0.0
    done = 0
    for _ in range(trials):
        sample = rng.sample(unseen, need_board + opponents * hand_size)
        full_board = seen + sample[:need_board]
        try:
            me = best_hand(ranking, mine, full_board, use)
            best_other = 0
            for k in range(opponents):
                start = need_board + k * hand_size
                other = best_hand(ranking, sample[start:start + hand_size], full_board, use)
                if other is not None and other.strength > best_other:
                    best_other = other.strength
        except HandError:
            continue
        done += 1
        mine_strength = me.strength if me is not None else 0
        if mine_strength > best_other:
            won += 1.0
        elif mine_strength == best_other:
            won += 0.5
    return won / done if done else 0.0


def draw_discards(game_id: str, hole: Sequence[str], max_discards: int) -> tuple[str, ...]:
    """Which cards to throw: low games throw pairs and high cards; high games keep pairs and better, else the
    two highest cards."""
    game = get_game(game_id)
    ranking = ranking_of(game.rankings[0])
    cards = [Card(c) for c in hole]
    counts = Counter(c.rank for c in cards)
    if ranking in LOW_RANKINGS:
        limit = 8 if ranking is Ranking.LOW_27 else 7
        keep: list[Card] = []
        kept_ranks: set[int] = set()
        for c in sorted(cards, key=lambda c: c.rank):
            value = int(c.rank) + 2
            if ranking is not Ranking.LOW_27 and value == 14:
                value = 1
            if value <= limit and c.rank not in kept_ranks:
                keep.append(c)
                kept_ranks.add(c.rank)
        throw = [c for c in cards if c not in keep]
    elif any(n >= 2 for n in counts.values()):
        throw = [c for c in cards if counts[c.rank] == 1]
    else:
        throw = sorted(cards, key=lambda c: c.rank)[:-2]
    throw = throw[:max_discards] if max_discards else throw
    if len(cards) - len(throw) < 1:
        throw = throw[:-1]
    return tuple(str(c) for c in throw)


Estimator = Callable[[str, Sequence[str], Sequence[str], int, random.Random, int], float]


class StrengthBot:
    """``estimator`` replaces :func:`estimate_equity` (same arguments), e.g. a cached one for long simulations."""

    def __init__(self, rng: random.Random | None = None, trials: int = 150, estimator: Estimator | None = None) -> None:
        self.rng = rng or secrets.SystemRandom()
        self.trials = trials
        self.estimator: Estimator = estimator or estimate_equity

    def decide(self, d: Decision) -> Move:
        if not d.game or not d.hole:
            return passive_move(d)
        if "draw" in d.kinds:
            throw = draw_discards(d.game, d.hole, d.max_discards)
            if not throw and "stand_pat" in d.kinds:
                return Move("stand_pat")
            return Move("draw", cards=throw)
        equity = self.estimator(d.game, d.hole, d.board, d.opponents, self.rng, self.trials)
        fair = 1.0 / (d.opponents + 1)
        aggressive = next((k for k in ("raise", "bet", "complete") if k in d.kinds), None)
        if aggressive is not None and equity > min(0.85, fair * 1.8):
            return Move(aggressive, self._size(d, equity))
        if "check" in d.kinds:
            return Move("check")
        price = d.call / (d.pot + d.call) if d.call else 0.0
        if "call" in d.kinds and (equity >= price or equity >= fair * 0.9):
            return Move("call")
        if "bring_in" in d.kinds:
            return Move("bring_in", d.bring_in or None)
        if "fold" in d.kinds:
            return Move("fold")
        return passive_move(d)

    def _size(self, d: Decision, equity: float) -> int:
        if d.allowed_to:
            return max(d.allowed_to) if equity > 0.75 else min(d.allowed_to)
        low, high = d.min_to, max(d.min_to, d.max_to)
        target = low + int((high - low) * min(1.0, max(0.0, equity - 0.5)) * 0.5)
        return max(low, min(high, target))
