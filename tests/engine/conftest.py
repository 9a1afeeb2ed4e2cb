"""Helpers for engine tests: build decks in the engine's documented dealing order and play scripted hands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from riverboat.cards import Card, parse_cards
from riverboat.engine import Action, ActionKind, Hand, HandConfig, Settings
from riverboat.games import Game, Stakes, Structure, get_game


def deal_order_deck(game: Game, per_player: Sequence[str], rest: str = "", rounds: int | None = None) -> list[Card]:
    """A deck giving player k (left of the button first) the cards ``per_player[k]`` on the first street (one
    card at a time round the table), then ``rest`` (board, later streets, draws) in order, then the other cards."""
    hands = [parse_cards(p) for p in per_player]
    width = rounds if rounds is not None else max(len(h) for h in hands)
    order: list[Card] = []
    for r in range(width):
        for h in hands:
            order.append(h[r])
    order += parse_cards(rest)
    used = set(order)
    assert len(used) == len(order), "duplicate card in the test deck"
    return order + [c for c in game.deck.cards if c not in used]


def make_hand(
    game_id: str | Game,
    structure: Structure,
    stacks: Sequence[int],
    per_player: Sequence[str] = (),
    rest: str = "",
    stakes: Stakes | None = None,
    settings: Settings | None = None,
    **kw: Any,
) -> Hand:
    game = get_game(game_id) if isinstance(game_id, str) else game_id
    n = len(stacks)
    seats = kw.pop("seats", list(range(1, n + 1)))
    button = kw.pop("button", seats[-1])
    deck = deal_order_deck(game, per_player, rest) if per_player else list(game.deck.cards)
    return Hand(HandConfig(
        game=game, structure=structure, stakes=stakes or Stakes(small_blind=1, big_blind=2), seats=seats,
        stacks=list(stacks), button=button, deck=deck, settings=settings or Settings(), **kw,
    ))


def act(hand: Hand, *moves: str) -> None:
    """Apply moves like ``"1 raise 6"``, ``"2 call"``, ``"3 draw AhKd"``, ``"4 fold"``."""
    for move in moves:
        parts = move.split()
        seat, kind = int(parts[0]), ActionKind(parts[1])
        if kind is ActionKind.DRAW:
            cards = tuple(int(c) for c in parse_cards(parts[2])) if len(parts) > 2 else ()
            hand.act(Action(seat, kind, cards=cards))
        else:
            hand.act(Action(seat, kind, int(parts[2]) if len(parts) > 2 else 0))


def check_down(hand: Hand) -> None:
    """Everyone checks or calls (and stands pat) until the hand ends."""
    while not hand.is_over:
        la = hand.legal_actions()
        for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.STAND_PAT, ActionKind.BRING_IN,
                  ActionKind.RUN_ONCE):
            if k in la.kinds:
                hand.act(Action(la.seat, k))
                break
        else:  # pragma: no cover - a test setup error
            raise AssertionError(f"no passive action in {la}")


@pytest.fixture
def mk() -> Callable[..., Hand]:
    return make_hand


@pytest.fixture
def play() -> Callable[..., None]:
    return act


@pytest.fixture
def finish() -> Callable[[Hand], None]:
    return check_down


@pytest.fixture
def deck_for() -> Callable[..., list[Card]]:
    return deal_order_deck
