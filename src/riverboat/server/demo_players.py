"""The demo's in-process tournament players (issue #31 item 3): bots that play like people, at a person's pace.

The tournament bots of the simulations (:class:`riverboat.room.tournament.bots.ShoveBot`) shove often so that
fields shrink fast; in the demo a 13-player MTT was over 17 seconds after its start. :class:`PeopleBot` instead
plays by its hand's strength (a quick reading of the cards, no Monte Carlo): it opens and raises its good hands with
bets of half the pot to the pot, calls when the price is right, folds the rest, goes all in only with a strong hand
or a short stack; it draws to its made cards. It answers the director's ``auto`` hook with ``None`` (the table then
runs the usual decision timer and shows the turn) and acts ``think`` seconds later through the table's clock and
actor, as a person would, so the demo's tables can be watched.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from riverboat.cards import Card
from riverboat.engine import Action, ActionKind
from riverboat.evaluate import CardUse, Category, HandError, Ranking, best_hand, category
from riverboat.room.errors import RoomError
from riverboat.room.hand_driver import HandDriver, fallback_kind
from riverboat.room.move import Move

_AGGRESSIVE = (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE)
_LOW = (Ranking.LOW_27, Ranking.LOW_A5, Ranking.LOW_8B)
_MADE = {Category.HIGH_CARD: 0.15, Category.PAIR: 0.45, Category.FOUR_STRAIGHT: 0.5, Category.FOUR_FLUSH: 0.5,
         Category.TWO_PAIR: 0.7, Category.TRIPS: 0.8, Category.STRAIGHT: 0.86, Category.FLUSH: 0.89,
         Category.FULL_HOUSE: 0.94, Category.QUADS: 0.98, Category.STRAIGHT_FLUSH: 1.0}


def ranking_of(name: str) -> Ranking:
    return Ranking[name] if name in Ranking.__members__ else Ranking(name)


def starting_strength(cards: Sequence[Card], low: bool) -> float:
    """0..1 for a starting hand (or the own cards of a low hand): pairs and high cards, suited and connected cards
    (for a low game: low distinct ranks)."""
    if not cards:
        return 0.0
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts = Counter(ranks)
    if low:
        lows = sorted(set(12 if r == 12 else r for r in ranks))[:3]  # ace counted among the high in 2-7
        pairs = sum(n - 1 for n in counts.values())
        return max(0.0, min(1.0, 0.85 - sum(lows) / (3 * 12) * 0.7 - 0.2 * pairs))
    top = ranks[:2] if len(ranks) > 1 else ranks + ranks
    score = 0.1 + 0.35 * sum(top) / 24
    paired = [r for r, n in counts.items() if n >= 2]
    if paired:
        score += 0.3 + 0.15 * max(paired) / 12
    suits = Counter(int(c.suit) for c in cards)
    if max(suits.values()) >= 2:
        score += 0.05
    if len(top) == 2 and abs(top[0] - top[1]) == 1:
        score += 0.04
    return min(1.0, score)


def hand_strength(driver: HandDriver, seat: int) -> float:
    """0..1: the made hand (category) once five cards are known, else the starting hand."""
    hand = driver.hand
    idx = hand.seats.index(seat)
    mine = [Card(c) for c in hand.cards[idx]]
    board = [Card(c) for c in hand.board]
    ranking = ranking_of(hand.game.rankings[0])
    low = ranking in _LOW
    if low or len(mine) + len(board) < 5 or (hand.game.omaha and len(board) < 3):
        return starting_strength(mine, low)
    try:
        value = best_hand(ranking, mine, board, CardUse.OMAHA if hand.game.omaha else CardUse.ANY)
    except HandError:
        return starting_strength(mine, low)
    if value is None:
        return 0.2
    made = _MADE.get(category(ranking, value.strength), 0.3)
    if board and made <= _MADE[Category.TWO_PAIR]:  # a pair on the board is everyone's pair
        board_made = Counter(int(c.rank) for c in board).most_common(1)[0][1]
        if board_made >= 2:
            made -= 0.2
    return max(0.0, made)


class PeopleBot:
    """A tournament bot with a person's habits (see the module docstring). ``think=0`` acts at once."""

    def __init__(self, rng: random.Random, *, think: tuple[float, float] = (1.0, 3.0)) -> None:
        self.rng = rng
        self.think = think

    def __call__(self, driver: HandDriver, seat: int) -> Action | None:
        action = self.choose(driver, seat)
        if self.think[1] <= 0:
            return action
        hand = driver.hand
        moment = len(hand.events)
        host = driver.host
        actor = host.actor

        async def play() -> None:
            if driver.closed or hand.is_over or hand.to_act != seat or len(hand.events) != moment:
                return  # the decision is gone (timed out, the hand ended)
            try:
                driver.act(seat, Move(action.kind, action.amount or None, action.cards or None))
            except RoomError:
                driver.act(seat, Move(fallback_kind(hand.legal_actions().kinds)))

        host.clock.call_later(self.rng.uniform(*self.think), lambda: actor.post(play))
        return None

    def choose(self, driver: HandDriver, seat: int) -> Action:
        hand = driver.hand
        legal = hand.legal_actions()
        kinds = legal.kinds
        s = hand_strength(driver, seat)
        if ActionKind.DRAW in kinds or ActionKind.STAND_PAT in kinds:
            return self._draw(driver, seat, legal.max_discards, s)
        idx = hand.seats.index(seat)
        stack = hand.stacks[idx]
        big = max(1, hand.config.stakes.big_blind or hand.config.stakes.small_bet or 1)
        pot = hand.pot
        aggressive = next((k for k in _AGGRESSIVE if k in kinds), None)
        r = self.rng.random()
        short = stack <= 10 * big
        if ActionKind.BRING_IN in kinds:
            if aggressive is not None and s > 0.75 and r < 0.6:
                return Action(seat, aggressive, self._size(legal, pot, 0.5))
            return Action(seat, ActionKind.BRING_IN, legal.bring_in)
        if ActionKind.CHECK in kinds:
            if aggressive is not None and (s > 0.6 and r < s or r < 0.06):
                return Action(seat, aggressive, legal.max_to if short and s > 0.7 else self._size(legal, pot, r))
            return Action(seat, ActionKind.CHECK)
        call = legal.call
        odds = call / max(1, pot + call)
        if aggressive is not None and s > 0.82 and r < 0.5:
            return Action(seat, aggressive, legal.max_to if short else self._size(legal, pot, r))
        if ActionKind.CALL in kinds and (s >= odds + 0.15 or (call <= big and s >= 0.3) or (short and s > 0.55)):
            return Action(seat, ActionKind.CALL)
        if ActionKind.FOLD in kinds:
            return Action(seat, ActionKind.FOLD)
        return Action(seat, fallback_kind(kinds))

    @staticmethod
    def _size(legal: object, pot: int, r: float) -> int:
        """A bet or raise of half the pot to the pot above the minimum, within what is allowed."""
        allowed: tuple[int, ...] = legal.allowed_to  # type: ignore[attr-defined]
        lo: int = legal.min_to  # type: ignore[attr-defined]
        hi: int = legal.max_to  # type: ignore[attr-defined]
        if allowed:
            return min(allowed)
        return max(lo, min(hi, lo + int(pot * (0.5 + r / 2))))

    def _draw(self, driver: HandDriver, seat: int, max_discards: int, s: float) -> Action:
        """Keep the cards that make the hand (pairs and better; low cards in a low game), draw to the rest."""
        hand = driver.hand
        mine = [Card(c) for c in hand.cards[hand.seats.index(seat)]]
        if s >= 0.7 or max_discards <= 0:
            return Action(seat, ActionKind.STAND_PAT)
        low = ranking_of(hand.game.rankings[0]) in _LOW
        counts = Counter(int(c.rank) for c in mine)
        if low:
            drop = [c for c in mine if counts[int(c.rank)] > 1 or int(c.rank) >= 7]
        else:
            drop = sorted((c for c in mine if counts[int(c.rank)] == 1), key=lambda c: int(c.rank))
            drop = drop[:-1] if len(drop) == len(mine) else drop  # keep the highest card when nothing is made
        drop = drop[:max_discards]
        if not drop:
            return Action(seat, ActionKind.STAND_PAT)
        return Action(seat, ActionKind.DRAW, 0, tuple(int(c) for c in drop))
