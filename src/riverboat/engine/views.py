"""The JSON shapes the engine produces, as typed dicts: a seat's view of a hand (:meth:`Hand.view`), the legal
actions in it, the result, and every event kind of :attr:`Hand.events` (``Event.to_dict()``).

These are plain ``TypedDict`` definitions (no runtime cost; the engine stays pure and free of any wire library).
The room builds its frames from them (:mod:`riverboat.room.frames`) and the server's protocol models
(:mod:`riverboat.server.protocol`) validate against them, so what the engine emits, what the room sends and what
the protocol documents are one definition. Keys of ``dict[int, ...]`` fields are seat numbers (strings once
encoded as JSON). Cards are two-character strings (``"Ah"``), ``"??"`` for a card this seat may not see.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

Share = Literal["all", "high", "low", "split"]  # a pot won whole, its high or low half, or split by agreement


class LegalView(TypedDict):
    """What the player to act may do: ``kinds`` (action kind values), the ``call`` amount, the ``min_to`` ..
    ``max_to`` range of the bet/raise/complete "to" amount, the ``bring_in`` amount, ``max_discards`` (draw) and
    ``allowed_to``: when not empty, the only bet/raise amounts allowed (a stud open-pair street in fixed limit,
    R-STUD-6, possibly with an all-in for less). ``min_to == max_to == 0`` when no aggressive kind is offered."""

    seat: int
    kinds: list[str]
    call: int
    min_to: int
    max_to: int
    bring_in: int
    max_discards: int
    allowed_to: list[int]


class PlayerView(TypedDict):
    seat: int
    stack: int
    bet: int
    folded: bool
    all_in: bool
    cards: list[str]
    up: list[bool]


class WinningHand(TypedDict):
    """What won one pot award at a showdown (R-CARD-2): ``cards``, the cards that make the winner's hand under the
    award's ranking (the best five, in the evaluator's display order; fewer for Badugi), taken from the winner's
    shown cards and the award's board (R-OMAHA-3: exactly two hole and three board cards; R-LOW-8B-4: chosen
    independently for the high and the low half), and ``label``, the hand's name ("Full house, Kings full of
    Fives")."""

    cards: list[str]
    label: str


class PotView(TypedDict):
    """One pot award; ``hands`` (seat -> :class:`WinningHand`) only when it went to a showdown."""

    amount: int
    eligible: list[int]
    winners: dict[int, int]
    share: Share
    run: int
    hands: NotRequired[dict[int, WinningHand]]


class ResultView(TypedDict):
    stacks: dict[int, int]
    net: dict[int, int]
    rake: int
    pots: list[PotView]
    shown: dict[int, list[str]]
    labels: dict[int, str]
    showdown: bool


class HandView(TypedDict):
    """One seat's view of a hand (a spectator's has no face-down card). ``legal`` only for the player to act,
    ``result`` once the hand is over."""

    game: str
    structure: str
    street: int
    button: int
    board: list[str]
    boards: list[list[str]]
    pot: int
    players: list[PlayerView]
    to_act: int | None
    over: bool
    legal: NotRequired[LegalView]
    result: NotRequired[ResultView]


# ------------------------------------------------------------------------------------------------ engine events

class PostedEvent(TypedDict):
    kind: Literal["posted"]
    seat: int
    what: Literal["ante", "blind", "dead", "live"]
    amount: int


class DealtEvent(TypedDict):
    """Cards dealt to ``seat``: face down (``up`` false) reach their owner only (R-GEN-5)."""

    kind: Literal["dealt"]
    seat: int
    cards: list[str]
    up: bool


class BoardEvent(TypedDict):
    kind: Literal["board"]
    cards: list[str]
    community: NotRequired[bool]  # R-INSUF-3: one community card for everybody (stud)
    run: NotRequired[int]  # run it twice: which run


class StreetEvent(TypedDict):
    kind: Literal["street"]
    street: int


class ActedEvent(TypedDict):
    """An action: ``action`` is an action kind value (or ``artificial_allin``, R-AAI-1); ``amount`` what a call
    or bring-in added, ``to`` the bet it reached, ``full`` whether a raise reopened the betting."""

    kind: Literal["acted"]
    seat: int
    action: str
    amount: NotRequired[int]
    to: NotRequired[int]
    all_in: NotRequired[bool]
    full: NotRequired[bool]
    committed: NotRequired[int]


class DrewEvent(TypedDict):
    kind: Literal["drew"]
    seat: int
    count: int


class DrewCardsEvent(TypedDict):
    """The drawer's own discards and new cards (private)."""

    kind: Literal["drew_cards"]
    seat: int
    discarded: list[str]
    cards: list[str]


class ReshuffledEvent(TypedDict):
    kind: Literal["reshuffled"]
    count: int


class ReturnedEvent(TypedDict):
    kind: Literal["returned"]
    seat: int
    amount: int


class ShowedEvent(TypedDict):
    kind: Literal["showed"]
    seat: int
    cards: list[str]
    label: str


class MuckedEvent(TypedDict):
    kind: Literal["mucked"]
    seat: int


class PotAwardedEvent(TypedDict):
    """A pot (or its high / low half, or one run of it) won: ``hands`` names, for each winner, the cards that make
    the winning hand and its label (:class:`WinningHand`); absent when nobody had to show (R-SHOW-4)."""

    kind: Literal["pot_awarded"]
    amount: int
    winners: dict[int, int]
    share: Share
    run: int
    hands: NotRequired[dict[int, WinningHand]]


class RakeEvent(TypedDict):
    kind: Literal["rake"]
    amount: int


class SplitAgreedEvent(TypedDict):
    kind: Literal["split_agreed"]
    seats: list[int]


class SplitRefusedEvent(TypedDict):
    kind: Literal["split_refused"]
    seat: NotRequired[int]


class RunItTwiceEvent(TypedDict):
    kind: Literal["run_it_twice"]


class HandOverEvent(TypedDict):
    """The hand is over: final ``stacks`` by seat. The table's own ``hand_over`` also names the ``hand_id`` and
    the ``rake``."""

    kind: Literal["hand_over"]
    stacks: dict[int, int]
    hand_id: NotRequired[str]
    rake: NotRequired[int]


EngineEvent = (
    PostedEvent | DealtEvent | BoardEvent | StreetEvent | ActedEvent | DrewEvent | DrewCardsEvent | ReshuffledEvent
    | ReturnedEvent | ShowedEvent | MuckedEvent | PotAwardedEvent | RakeEvent | SplitAgreedEvent | SplitRefusedEvent
    | RunItTwiceEvent | HandOverEvent
)

ENGINE_EVENT_TYPES: tuple[type, ...] = (
    PostedEvent, DealtEvent, BoardEvent, StreetEvent, ActedEvent, DrewEvent, DrewCardsEvent, ReshuffledEvent,
    ReturnedEvent, ShowedEvent, MuckedEvent, PotAwardedEvent, RakeEvent, SplitAgreedEvent, SplitRefusedEvent,
    RunItTwiceEvent, HandOverEvent,
)
VIEW_TYPES: tuple[type, ...] = (LegalView, PlayerView, WinningHand, PotView, ResultView, HandView)
