"""A population of bots for testing the integrity detectors (docs/integrity.md, R-INTEG-2..4).

Honest players are :class:`~riverboat.bots.strength.StrengthBot` (equity against random hands against pot odds).
Planted pairs cheat at a chosen ``strength`` (the share of their hands together in which they cheat):

* ``dump``: the giver (first of the pair) raises big into the receiver and then folds to the receiver's bet,
  whatever its cards; the receiver calls the giver's bets and bets the minimum into the giver (R-INTEG-3);
* ``soft``: neither bets nor raises into the other; they check and call between them (R-INTEG-4, R-INTEG-8).

:func:`simulate` seats players in sessions at fresh tables (six seats, random players; a planted pair asks to sit
together), plays the hands through the engine and returns every hand as a PHH record (``riverboat.history``),
players named by their bot names: the same records the room stores.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from riverboat.cards import DECK_52, Card
from riverboat.engine import Action, ActionKind, Hand, HandConfig
from riverboat.games import Stakes, Structure, get_game
from riverboat.history import PhhHand, hand_to_phh, loads
from riverboat.integrity import equity

from .strategies import Decision, Move
from .strength import StrengthBot

K = ActionKind


@dataclass(frozen=True, slots=True)
class Plant:
    """A cheating pair: ``mode`` is ``dump`` (``a`` gives to ``b``) or ``soft``."""

    a: str
    b: str
    mode: str
    strength: float


@dataclass(slots=True)
class Population:
    players: int = 24
    plants: tuple[Plant, ...] = ()
    sessions: int = 60
    hands_per_session: int = 40
    seats: int = 6
    sit_together: float = 0.5  # chance a planted pair asks to sit together when one of them is seated
    regulars: tuple[str, ...] = ()  # honest players seated in every session (they meet at every table)
    seed: int = 1
    trials: int = 120  # Monte Carlo size of the honest bots' equity estimate
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = [f"bot{i:02d}" for i in range(self.players)]


def _quick_equity(game: str, hole: Sequence[str], board: Sequence[str], opponents: int, rng: random.Random,
                  trials: int) -> float:
    """Equity against one random hand (cached Monte Carlo, :func:`riverboat.integrity.equity`), raised to the
    number of opponents: a fast stand-in for the bots' own estimate, good enough for a sensible strategy."""
    e = equity(tuple(int(Card(c)) for c in hole), tuple(int(Card(c)) for c in board), samples=trials)
    return e ** opponents


def _decision(hand: Hand, i: int) -> Decision:
    legal = hand.legal_actions()
    opponents = sum(1 for j in range(hand.n) if j != i and not hand.folded[j])
    return Decision(table="sim", seat=hand.seats[i], game="holdem", kinds=frozenset(k.value for k in legal.kinds),
                    call=legal.call, min_to=legal.min_to, max_to=legal.max_to, hole=tuple(str(c) for c in hand.cards[i]),
                    board=tuple(str(c) for c in hand.board), opponents=max(1, opponents), pot=hand.pot,
                    stack=hand.stacks[i])


class _Seat:
    """One seated bot: honest play, bent when its planted partner is in the hand."""

    def __init__(self, name: str, plant: Plant | None, partner: str | None, rng: random.Random, trials: int) -> None:
        self.name, self.plant, self.partner = name, plant, partner
        self.honest = StrengthBot(rng, trials=trials, estimator=_quick_equity)
        self.rng = rng
        self.cheating = False
        self.dumped = False

    def new_hand(self) -> None:
        self.cheating = self.plant is not None and self.rng.random() < self.plant.strength
        self.dumped = False

    def decide(self, hand: Hand, i: int, names: list[str], last_aggressor: str | None) -> Move:
        d = _decision(hand, i)
        partner_in = self.partner is not None and self.partner in names and not hand.folded[names.index(self.partner)]
        if not (self.cheating and partner_in):
            return self.honest.decide(d)
        assert self.plant is not None
        if self.plant.mode == "soft":
            return self._soft(d, last_aggressor)
        return self._dump(d, hand, last_aggressor)

    def _soft(self, d: Decision, last_aggressor: str | None) -> Move:
        move = self.honest.decide(d)
        if move.kind in ("bet", "raise") and d.opponents == 1:
            return Move("check") if "check" in d.kinds else Move("call")
        if move.kind == "fold" and last_aggressor == self.partner and "call" in d.kinds:
            return Move("call")  # the partner's (rare) bet is not a threat
        return move

    def _dump(self, d: Decision, hand: Hand, last_aggressor: str | None) -> Move:
        assert self.plant is not None
        giver = self.name == self.plant.a
        if giver:
            if last_aggressor == self.partner and "fold" in d.kinds and "check" not in d.kinds and self.dumped:
                return Move("fold")
            if not self.dumped and ("raise" in d.kinds or "bet" in d.kinds):
                kind = "raise" if "raise" in d.kinds else "bet"
                self.dumped = True
                return Move(kind, max(d.min_to, min(d.max_to, d.pot + d.min_to + d.stack // 3)))
            return Move("check") if "check" in d.kinds else Move("call") if "call" in d.kinds else Move("fold")
        # receiver: stays in while the giver is in, calls the giver, bets the minimum at the giver
        if (last_aggressor == self.partner or not hand.board) and "call" in d.kinds:
            return Move("call")
        if not hand.board and "check" in d.kinds:
            return Move("check")
        if d.opponents == 1 and hand.board and "bet" in d.kinds:
            return Move("bet", d.min_to)
        return self.honest.decide(d)


def _play_hand(hand: Hand, seats: list[_Seat]) -> None:
    names = [s.name for s in seats]
    last_aggressor: str | None = None
    street_board = -1
    while not hand.is_over:
        if len(hand.board) != street_board:
            street_board, last_aggressor = len(hand.board), None
        legal = hand.legal_actions()
        i = hand.seats.index(legal.seat)
        move = seats[i].decide(hand, i, names, last_aggressor)
        kind = K(move.kind) if move.kind in K.__members__.values() else K.FOLD
        if kind not in legal.kinds:
            kind = next(k for k in (K.CHECK, K.CALL, K.RUN_ONCE, K.DECLINE_SPLIT, K.FOLD, *sorted(legal.kinds))
                        if k in legal.kinds)
        amount = 0
        if kind in (K.BET, K.RAISE):
            amount = max(legal.min_to, min(legal.max_to, move.amount or legal.min_to))
            last_aggressor = seats[i].name
        hand.act(Action(legal.seat, kind, amount=amount))


def simulate(pop: Population, progress: Callable[[], None] | None = None) -> Iterator[PhhHand]:
    """Play the population's sessions; every hand as a PHH record (``table``/``hand``/``players`` set)."""
    rng = random.Random(pop.seed)
    partner_of: dict[str, tuple[Plant, str]] = {}
    for p in pop.plants:
        partner_of[p.a] = (p, p.b)
        partner_of[p.b] = (p, p.a)
    game, stakes = get_game("holdem"), Stakes(small_blind=1, big_blind=2)
    buy_in = 200
    for session in range(pop.sessions):
        chosen: list[str] = list(pop.regulars[:pop.seats])
        for name in rng.sample(pop.names, len(pop.names)):
            if len(chosen) >= pop.seats:
                break
            if name in chosen:
                continue
            chosen.append(name)
            if name in partner_of and len(chosen) < pop.seats and rng.random() < pop.sit_together:
                mate = partner_of[name][1]
                if mate not in chosen:
                    chosen.append(mate)
        seats = []
        for n in chosen:
            plant, partner = partner_of[n] if n in partner_of else (None, None)
            seats.append(_Seat(n, plant, partner, random.Random(rng.getrandbits(64)), pop.trials))
        stacks = [buy_in] * len(seats)
        table = f"sim{session:04d}"
        for k in range(pop.hands_per_session):
            stacks = [s if s > 0 else buy_in for s in stacks]
            for s in seats:
                s.new_hand()
            button = k % len(seats)
            hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=stakes,
                                   seats=list(range(len(seats))), stacks=list(stacks), button=button,
                                   deck=DECK_52.shuffled(rng)))
            order = [seats[s] for s in hand.seats]
            _play_hand(hand, order)
            assert hand.result is not None
            stacks = [hand.result.stacks[s] for s in range(len(seats))]
            text = hand_to_phh(hand, table=table, hand=str(k + 1), players={j: seats[j].name for j in range(len(seats))})
            yield loads(text, f"{table}#{k + 1}")[0]
            if progress is not None:
                progress()


__all__ = ["Plant", "Population", "simulate"]
