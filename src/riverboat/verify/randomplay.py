"""Engine-only random play for every game and betting structure (used by ``riverboat simulate`` and the properties).

* :func:`stakes_for` gives sensible stakes for a game and structure (blinds or ante/bring-in, fixed limits,
  spread limits), scaled by a chip ``unit``.
* :func:`random_action` picks a uniformly random legal action kind (weighted by a style) and, for bets and raises,
  an amount that is often the minimum or the maximum and otherwise uniform between them; draws discard a random
  subset; votes (run it twice, split agreement) are random too.
* :class:`RandomTable` plays consecutive hands at one table: stacks carry over, the button moves, busted players
  buy in again, and chip conservation is checked after every hand (:class:`ConservationError`).

Everything random comes from the injected ``random.Random`` (seeded for reproducible runs).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from riverboat.cards import Card
from riverboat.engine import Action, ActionKind, Hand, HandConfig, LegalActions, Settings
from riverboat.games import Game, Kind, Stakes, Structure

K = ActionKind

_WEIGHTS: dict[ActionKind, float] = {
    K.FOLD: 1.0,
    K.CHECK: 4.0,
    K.CALL: 4.0,
    K.BET: 2.0,
    K.RAISE: 2.0,
    K.COMPLETE: 1.5,
    K.BRING_IN: 3.0,
    K.STRADDLE: 0.5,
    K.DRAW: 3.0,
    K.STAND_PAT: 1.0,
    K.AGREE_SPLIT: 0.5,
    K.DECLINE_SPLIT: 1.0,
    K.RUN_TWICE: 1.0,
    K.RUN_ONCE: 1.0,
}


class ConservationError(AssertionError):
    """Chips were created or destroyed during a hand."""


def stakes_for(game: Game, structure: Structure, unit: int = 1) -> Stakes:
    """Stakes for ``game`` played ``structure``: blinds unit/2 unit (or ante unit, bring-in 2 units in stud)."""
    if game.kind is Kind.STUD:
        ante, bring_in = unit, 2 * unit
        small = 4 * unit
        spread = (small, small, 2 * small, 3 * small) if structure is Structure.SPREAD_LIMIT else ()
        return Stakes(ante=ante, bring_in=bring_in, small_bet=small, big_bet=2 * small, spread=spread)
    sb, bb = unit, 2 * unit
    spread = (bb, bb, 2 * bb, 3 * bb) if structure is Structure.SPREAD_LIMIT else ()
    return Stakes(small_blind=sb, big_blind=bb, small_bet=bb, big_bet=2 * bb, spread=spread)


def random_action(legal: LegalActions, hand_cards: list[Card], rng: random.Random) -> Action:
    """A random legal action for the player described by ``legal`` holding ``hand_cards``."""
    kinds = sorted(legal.kinds, key=lambda k: k.value)
    if K.DRAW in legal.kinds:
        limit = min(legal.max_discards, len(hand_cards))
        count = rng.randint(0, limit)
        if count == 0:
            return Action(legal.seat, K.STAND_PAT)
        return Action(legal.seat, K.DRAW, cards=tuple(rng.sample(hand_cards, count)))
    total = sum(_WEIGHTS.get(k, 1.0) for k in kinds)
    x = rng.random() * total
    kind = kinds[-1]
    for k in kinds:
        x -= _WEIGHTS.get(k, 1.0)
        if x < 0:
            kind = k
            break
    if kind in (K.BET, K.RAISE, K.COMPLETE):
        if legal.allowed_to:
            amount = rng.choice(legal.allowed_to)
        else:
            roll = rng.random()
            lo, hi = legal.min_to, legal.max_to
            amount = lo if roll < 1 / 3 or hi <= lo else hi if roll < 0.5 else rng.randint(lo, hi)
        return Action(legal.seat, kind, amount=amount)
    return Action(legal.seat, kind)


def play_random_hand(
    config: HandConfig,
    rng: random.Random,
    on_step: Callable[[Hand], None] | None = None,
) -> Hand:
    """Play one hand to the end with random legal actions; ``on_step(hand)`` runs before every action and at the
    end (property checks hook in here)."""
    hand = Hand(config)
    while not hand.is_over:
        if on_step is not None:
            on_step(hand)
        legal = hand.legal_actions()
        cards = list(hand.cards[hand.seats.index(legal.seat)])
        hand.act(random_action(legal, cards, rng))
    if on_step is not None:
        on_step(hand)
    return hand


@dataclass(slots=True)
class TableStats:
    hands: int = 0
    decisions: int = 0
    showdowns: int = 0
    rebuys: int = 0
    largest_pot: int = 0


@dataclass(slots=True)
class RandomTable:
    """A table playing consecutive random hands of one game and structure."""

    game: Game
    structure: Structure
    players: int
    rng: random.Random
    buy_in: int = 0  # default: 100 big bets
    unit: int = 1
    settings: Settings = field(default_factory=Settings)
    stakes: Stakes = field(init=False)
    stacks: list[int] = field(init=False)
    button: int = field(init=False)
    stats: TableStats = field(default_factory=TableStats)

    def __post_init__(self) -> None:
        if not 2 <= self.players <= self.game.max_players:
            raise ValueError(
                f"{self.game.name} seats 2 to {self.game.max_players} players, not {self.players}"
            )
        if self.structure not in self.game.structures:
            allowed = ", ".join(s.name for s in self.game.structures)
            raise ValueError(f"{self.game.name} is not played {self.structure.name} (allowed: {allowed})")
        self.stakes = stakes_for(self.game, self.structure, self.unit)
        if not self.buy_in:
            self.buy_in = 100 * max(self.stakes.big_blind, self.stakes.small_bet)
        self.stacks = [self.buy_in] * self.players
        self.button = self.players - 1

    def play_hand(self) -> Hand:
        """Play one hand; raises :class:`ConservationError` if chips are not conserved."""
        for i, s in enumerate(self.stacks):
            if s <= 0:
                self.stacks[i] = self.buy_in
                self.stats.rebuys += 1
        before = sum(self.stacks)
        rng = self.rng
        config = HandConfig(
            game=self.game,
            structure=self.structure,
            stakes=self.stakes,
            seats=list(range(self.players)),
            stacks=list(self.stacks),
            button=self.button,
            deck=self.game.deck.shuffled(rng),
            settings=self.settings,
            shuffle=rng.shuffle,
        )
        decisions = 0

        def count(_: Hand) -> None:
            nonlocal decisions
            decisions += 1

        hand = play_random_hand(config, rng, count)
        result = hand.result
        assert result is not None
        after = sum(result.stacks.values())
        if after + result.rake != before:
            raise ConservationError(
                f"hand {self.stats.hands + 1}: chips before {before}, after {after} + rake {result.rake}"
            )
        if any(v < 0 for v in result.stacks.values()):
            raise ConservationError(f"hand {self.stats.hands + 1}: negative stack {result.stacks}")
        self.stacks = [result.stacks[s] for s in range(self.players)]
        if self.game.kind is not Kind.STUD:
            self.button = (self.button + 1) % self.players
        self.stats.hands += 1
        self.stats.decisions += decisions - 1
        self.stats.showdowns += int(result.showdown)
        self.stats.largest_pot = max(self.stats.largest_pot, sum(p.amount for p in result.pots))
        return hand
