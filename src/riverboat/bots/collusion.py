"""A population of bots for testing the integrity detectors (docs/integrity.md, R-INTEG-2..4).

Honest players are :class:`~riverboat.bots.strength.StrengthBot` (equity against random hands against pot odds).
Planted pairs cheat at a chosen ``strength`` (the share of their hands together in which they cheat):

* ``dump``: the giver (first of the pair) raises big into the receiver and then folds to the receiver's bet,
  whatever its cards; the receiver calls the giver's bets and bets the minimum into the giver (R-INTEG-3);
* ``soft``: neither bets nor raises into the other; they check and call between them (R-INTEG-4, R-INTEG-8);
* ``bubble`` (tournaments): ``dump`` while the tournament is short of the money (more players left than places
  paid), honest from the bubble on: chips passed before the bubble (issue #34).

With ``tournament`` set, every session is a sit-and-go: one table, no new chips, the blinds doubling every
``level_hands`` hands, a busted player leaving, until ``paid`` players are left or the session's hands run out.

:func:`simulate` seats players in sessions at fresh tables (six seats, random players; a planted pair asks to sit
together), plays the hands through the engine and returns every hand as a PHH record (``riverboat.history``),
players named by their bot names: the same records the room stores.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from riverboat.cards import Card
from riverboat.engine import Action, ActionKind, Hand, HandConfig
from riverboat.evaluate.versus import GAME_FAMILY
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
    friends: tuple[tuple[str, str], ...] = ()  # honest pairs who sit together as often as a planted pair
    game: str = "holdem"  # holdem (no limit), omaha / omaha5 / omaha_hl (pot limit), stud / stud_hl (fixed limit)
    seed: int = 1
    trials: int = 120  # Monte Carlo size of the honest bots' equity estimate
    tournament: bool = False  # sessions are sit-and-go tournaments (see the module docstring)
    paid: int = 2  # places paid in a tournament: the bubble bursts when one more than this is left
    level_hands: int = 10  # hands per blind level in a tournament
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = [f"bot{i:02d}" for i in range(self.players)]


def _quick_equity(game: str, hole: Sequence[str], board: Sequence[str], opponents: int, rng: random.Random,
                  trials: int) -> float:
    """Equity against one random hand (cached Monte Carlo, :func:`riverboat.integrity.equity`), raised to the
    number of opponents: a fast stand-in for the bots' own estimate, good enough for a sensible strategy."""
    family = GAME_FAMILY[game]
    e = equity(tuple(int(Card(c)) for c in hole), tuple(int(Card(c)) for c in board), samples=trials,
               family=family)
    return e ** opponents


#: structure and stakes of each game the simulation deals
_TABLE = {
    "holdem": (Structure.NO_LIMIT, Stakes(small_blind=1, big_blind=2), 200),
    "omaha": (Structure.POT_LIMIT, Stakes(small_blind=1, big_blind=2), 200),
    "omaha5": (Structure.POT_LIMIT, Stakes(small_blind=1, big_blind=2), 200),
    "omaha_hl": (Structure.POT_LIMIT, Stakes(small_blind=1, big_blind=2), 200),
    "omaha5_hl": (Structure.POT_LIMIT, Stakes(small_blind=1, big_blind=2), 200),
    "stud": (Structure.FIXED_LIMIT, Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8), 200),
    "stud_hl": (Structure.FIXED_LIMIT, Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8), 200),
}


def _first_round(hand: Hand) -> bool:
    """Still the first betting round (pre-flop; in stud, third street)."""
    return hand.street == 0


def _decision(hand: Hand, i: int) -> Decision:
    legal = hand.legal_actions()
    opponents = sum(1 for j in range(hand.n) if j != i and not hand.folded[j])
    return Decision(table="sim", seat=hand.seats[i], game=hand.game.id, kinds=frozenset(k.value for k in legal.kinds),
                    call=legal.call, min_to=legal.min_to, max_to=legal.max_to, bring_in=legal.bring_in,
                    allowed_to=legal.allowed_to, hole=tuple(str(c) for c in hand.cards[i]),
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

    def new_hand(self, pair_cheats: dict[Plant, bool]) -> None:
        """The pair cheats together in a ``strength`` share of their hands: one draw per pair and hand (drawn by
        the first of the pair seated; before issue #34 each drew on its own, so a pair cheated together in only
        ``strength**2`` of its hands)."""
        if self.plant is not None and self.plant not in pair_cheats:
            pair_cheats[self.plant] = self.rng.random() < self.plant.strength
        self.cheating = self.plant is not None and pair_cheats[self.plant]
        self.dumped = False

    def bubble_burst(self) -> None:
        """The tournament is in the money: a ``bubble`` pair plays honestly from now on."""
        if self.plant is not None and self.plant.mode == "bubble":
            self.cheating = False

    def decide(self, hand: Hand, i: int, names: list[str], last_aggressor: str | None) -> Move:
        d = _decision(hand, i)
        partner_in = self.partner is not None and self.partner in names and not hand.folded[names.index(self.partner)]
        if not (self.cheating and partner_in):
            return self.honest.decide(d)
        assert self.plant is not None
        if self.plant.mode == "soft":
            return self._soft(d, last_aggressor)
        return self._dump(d, hand, last_aggressor)  # dump, and bubble before the money

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
        first = _first_round(hand)
        limit = hand.structure in (Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT)
        last_street = hand.street >= len(hand.game.streets) - 1
        if giver:
            if last_aggressor == self.partner and "fold" in d.kinds and "check" not in d.kinds and self.dumped:
                return Move("fold")
            # no limit: one big raise; limit: a raise on every street but the last (the pot has to be built)
            keep_raising = limit and not last_street and last_aggressor != self.name
            if (not self.dumped or keep_raising) and ("raise" in d.kinds or "bet" in d.kinds or "complete" in d.kinds):
                kind = next(k for k in ("raise", "bet", "complete") if k in d.kinds)
                self.dumped = True
                return Move(kind, max(d.min_to, min(d.max_to, d.pot + d.min_to + d.stack // 3)))
            return Move("check") if "check" in d.kinds else Move("call") if "call" in d.kinds else Move("fold")
        # receiver: stays in while the giver is in, calls the giver, bets the minimum at the giver
        if (last_aggressor == self.partner or first) and "call" in d.kinds:
            return Move("call")
        if first and "check" in d.kinds:
            return Move("check")
        if d.opponents == 1 and not first and "bet" in d.kinds and (not limit or last_street):
            return Move("bet", d.min_to)
        if limit and not last_street and "check" in d.kinds:
            return Move("check")  # let the giver build the pot
        return self.honest.decide(d)


def _play_hand(hand: Hand, seats: list[_Seat]) -> None:
    names = [s.name for s in seats]
    last_aggressor: str | None = None
    street_board = -1
    while not hand.is_over:
        if hand.street != street_board:  # a new betting round (a new board card, a new stud street)
            street_board, last_aggressor = hand.street, None
        legal = hand.legal_actions()
        i = hand.seats.index(legal.seat)
        move = seats[i].decide(hand, i, names, last_aggressor)
        kind = K(move.kind) if move.kind in K.__members__.values() else K.FOLD
        if kind not in legal.kinds:
            kind = next(k for k in (K.CHECK, K.CALL, K.RUN_ONCE, K.DECLINE_SPLIT, K.FOLD, *sorted(legal.kinds))
                        if k in legal.kinds)
        amount = 0
        if kind in (K.BET, K.RAISE, K.COMPLETE):
            amount = max(legal.min_to, min(legal.max_to, move.amount or legal.min_to))
            if legal.allowed_to and amount not in legal.allowed_to:
                amount = min(legal.allowed_to)
            last_aggressor = seats[i].name
        elif kind is K.BRING_IN:
            amount = legal.bring_in
        hand.act(Action(legal.seat, kind, amount=amount))


def _choose(pop: Population, rng: random.Random, partner_of: dict[str, tuple[Plant, str]],
            friend_of: dict[str, str]) -> list[str]:
    """The players of one session: random, a planted pair or friends asking to sit together."""
    chosen: list[str] = list(pop.regulars[:pop.seats])
    for name in rng.sample(pop.names, len(pop.names)):
        if len(chosen) >= pop.seats:
            break
        if name in chosen:
            continue
        chosen.append(name)
        mate = partner_of[name][1] if name in partner_of else friend_of.get(name)
        if mate is not None and len(chosen) < pop.seats and rng.random() < pop.sit_together:
            if mate not in chosen:
                chosen.append(mate)
    return chosen


def _session(pop: Population, session: int, seats: list[_Seat], rng: random.Random) -> Iterator[PhhHand]:
    """One session's hands: a cash table (a busted stack is bought in again) or a sit-and-go (``tournament``:
    busted players leave, the blinds double every ``level_hands`` hands, it ends when ``paid`` are left)."""
    game = get_game(pop.game)
    structure, stakes, buy_in = _TABLE[pop.game]
    stacks = [buy_in] * len(seats)
    table = f"{'sng' if pop.tournament else 'sim'}{session:04d}"
    for k in range(pop.hands_per_session):
        if pop.tournament:
            alive = [j for j in range(len(seats)) if stacks[j] > 0]
            if len(alive) <= pop.paid:
                return
            level = 2 ** (k // pop.level_hands)
            hand_stakes = Stakes(small_blind=stakes.small_blind * level, big_blind=stakes.big_blind * level)
        else:
            stacks = [s if s > 0 else buy_in for s in stacks]
            alive, hand_stakes = list(range(len(seats))), stakes
        pair_cheats: dict[Plant, bool] = {}
        for j in alive:
            seats[j].new_hand(pair_cheats)
            if pop.tournament and len(alive) <= pop.paid + 1:
                seats[j].bubble_burst()
        hand = Hand(HandConfig(game=game, structure=structure, stakes=hand_stakes, seats=alive,
                               stacks=[stacks[j] for j in alive], button=alive[k % len(alive)],
                               deck=game.deck.shuffled(rng)))
        _play_hand(hand, [seats[s] for s in hand.seats])
        assert hand.result is not None
        for j in alive:
            stacks[j] = hand.result.stacks[j]
        text = hand_to_phh(hand, table=table, hand=str(k + 1), players={j: seats[j].name for j in alive})
        yield loads(text, f"{table}#{k + 1}")[0]


def simulate(pop: Population, progress: Callable[[], None] | None = None) -> Iterator[PhhHand]:
    """Play the population's sessions; every hand as a PHH record (``table``/``hand``/``players`` set)."""
    rng = random.Random(pop.seed)
    partner_of: dict[str, tuple[Plant, str]] = {}
    for p in pop.plants:
        partner_of[p.a] = (p, p.b)
        partner_of[p.b] = (p, p.a)
    friend_of = {a: b for a, b in pop.friends} | {b: a for a, b in pop.friends}
    for session in range(pop.sessions):
        seats = []
        for n in _choose(pop, rng, partner_of, friend_of):
            plant, partner = partner_of[n] if n in partner_of else (None, None)
            seats.append(_Seat(n, plant, partner, random.Random(rng.getrandbits(64)), pop.trials))
        for record in _session(pop, session, seats, rng):
            yield record
            if progress is not None:
                progress()


__all__ = ["Plant", "Population", "simulate"]
