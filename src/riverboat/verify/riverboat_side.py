"""The Riverboat side of the differential harness: a :class:`riverboat.engine.Hand` seen through the neutral
:class:`~riverboat.verify.decisions.Decision` / :class:`~riverboat.verify.decisions.Action` vocabulary.

Seats are ``0..n-1`` with the button (or dealer box) on seat ``n-1``, so seat ``i`` is PokerKit's player ``i``.
Games use their PHH reading (:func:`riverboat.games.phh_game`: the fixed-limit cap does not count the blind, no
stud open-pair rule) and table settings without straddles, run it twice or split agreements, which PokerKit's
variants do not have.

The class is also the :class:`~riverboat.verify.pokerkit_side.CardFeed` of the PokerKit side: it reports every card
the engine dealt to each player (from the ``dealt`` and ``drew_cards`` events) and the board.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from riverboat.cards import Card, parse_card
from riverboat.engine import Action as EngineAction
from riverboat.engine import ActionKind, Hand, HandConfig, LegalActions, Settings
from riverboat.games import OddChip, Structure, get_game, phh_game
from riverboat.games import Stakes as GameStakes
from riverboat.verify.decisions import BRING_IN, CALL, CHECK, DRAW, FOLD, RAISE, Action, Decision
from riverboat.verify.setups import VARIANTS, HandSetup

K = ActionKind

# PokerKit gives a pot's whole odd-chip remainder to the first winner after the button: the R-ODD-1 reading
# "whole remainder to the first player left of the dealer" (OddChip.LEFT_OF_BUTTON_ALL); it pays the pots left
# with the same players after the showdown as one pot (the PHH reading ``merge_equal_pots``).
DIFFERENTIAL_SETTINGS = Settings(
    run_it_twice=False,
    straddle=False,
    split_agreement=False,
    odd_chip=OddChip.LEFT_OF_BUTTON_ALL,
    merge_equal_pots=True,
)

_KIND_MAP: dict[ActionKind, str] = {
    K.FOLD: FOLD,
    K.CHECK: CHECK,
    K.CALL: CALL,
    K.BET: RAISE,
    K.RAISE: RAISE,
    K.COMPLETE: RAISE,
    K.BRING_IN: BRING_IN,
    K.DRAW: DRAW,
    K.STAND_PAT: DRAW,
}


def engine_config(setup: HandSetup) -> HandConfig:
    """The engine configuration for a differential hand set-up (PHH reading of the variant)."""
    info = VARIANTS[setup.code]
    game = phh_game(get_game(info.game_id))
    s = setup.stakes
    stakes = GameStakes(
        small_blind=s.small_blind,
        big_blind=s.big_blind,
        ante=s.ante,
        bring_in=s.bring_in,
        small_bet=s.small_bet,
        big_bet=s.big_bet,
    )
    n = setup.players
    return HandConfig(
        game=game,
        structure=Structure[info.structure],
        stakes=stakes,
        seats=list(range(n)),
        stacks=list(setup.stacks),
        button=n - 1,
        deck=[parse_card(c) for c in setup.deck],
        settings=DIFFERENTIAL_SETTINGS,
        shuffle=random.Random(
            f"reshuffle:{setup.code}:{setup.seed}"
        ).shuffle,  # R-INSUF reshuffles, reproducible
    )


class RiverboatHand:
    """One engine hand driven by neutral actions; also the card feed for the PokerKit side."""

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        self.hand = Hand(engine_config(setup))
        self._hole: list[list[str]] = [[] for _ in range(setup.players)]
        self._seen_events = 0
        self.applied: list[EngineAction] = []  # the engine actions played, in order (a replayable script)

    # -- CardFeed ----------------------------------------------------------------------------------------------
    def _sync(self) -> None:
        events = self.hand.events
        for e in events[self._seen_events :]:
            if e.kind == "dealt" or e.kind == "drew_cards":
                assert e.seat is not None
                self._hole[e.seat].extend(e.data["cards"])
        self._seen_events = len(events)

    def hole_cards(self, player: int) -> Sequence[str]:
        self._sync()
        return self._hole[player]

    def board_cards(self) -> Sequence[str]:
        return [str(c) for c in self.hand.board]

    # -- play --------------------------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.hand.is_over

    @property
    def stacks(self) -> list[int]:
        result = self.hand.result
        if result is None:
            return list(self.hand.stacks)
        return [result.stacks[s] for s in range(self.setup.players)]

    def legal(self) -> LegalActions | None:
        return None if self.hand.is_over else self.hand.legal_actions()

    def decision(self) -> Decision | None:
        legal = self.legal()
        if legal is None:
            return None
        return to_decision(legal, self.hand)

    def apply(self, action: Action) -> None:
        legal = self.hand.legal_actions()
        engine_action = to_engine_action(action, legal)
        self.hand.act(engine_action)
        self.applied.append(engine_action)


def to_decision(legal: LegalActions, hand: Hand) -> Decision:
    """Neutral view of the engine's legal actions (fold is dropped when check is free, as PokerKit does)."""
    kinds = {_KIND_MAP[k] for k in legal.kinds if k in _KIND_MAP}
    if CHECK in kinds:
        kinds.discard(FOLD)
    seat = legal.seat
    if DRAW in kinds:
        idx = hand.seats.index(seat)
        cards = tuple(str(c) for c in hand.cards[idx])
        return Decision(seat, frozenset(kinds), hand=cards, max_discards=legal.max_discards)
    has_raise = RAISE in kinds
    return Decision(
        seat,
        frozenset(kinds),
        call_amount=legal.call if CALL in kinds else 0,
        min_to=legal.min_to if has_raise else None,
        max_to=legal.max_to if has_raise else None,
        bring_in_amount=legal.bring_in if BRING_IN in kinds else None,
    )


def to_engine_action(action: Action, legal: LegalActions) -> EngineAction:
    seat = legal.seat
    kinds = legal.kinds
    if action.kind == RAISE:
        for k in (K.COMPLETE, K.BET, K.RAISE):
            if k in kinds:
                return EngineAction(seat, k, amount=int(action.amount or 0))
        raise ValueError(f"no bet/raise/complete offered to seat {seat}")
    if action.kind == DRAW:
        if not action.cards:
            return EngineAction(seat, K.STAND_PAT)
        return EngineAction(seat, K.DRAW, cards=tuple(Card(parse_card(c)) for c in action.cards))
    return EngineAction(seat, ActionKind(action.kind))
