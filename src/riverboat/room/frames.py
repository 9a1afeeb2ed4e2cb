"""Every frame the room sends, built in one place from typed dicts.

The room hands these to the server (``Room.send`` → the player's sink), which adds ``"v": 1`` and encodes them;
:mod:`riverboat.server.protocol` documents the wire frames with these very types, and the tests validate every
frame the room and the server send against those models (``tests/room/test_room_frames.py``, the server test
harness). To add a field or a frame: add it to the typed dict here (``NotRequired`` if it is optional), build it
with a function here, and describe it in docs/protocol.md. Adding is the only change version 1 allows.

Shapes:

- ``{"type": "table_state", "table", "view": TableView}``: one player's full view of a table;
- ``{"type": "event", "table", "event": Event}``: a hand event (:mod:`riverboat.engine.views`) or a table event
  (below) at a table; in a Speed Poker pool ``{"type": "event", "pool", "hand", "event"}``;
- ``{"type": "speed", "pool", "event": "dealt" | "your_turn" | "fast_folded" | "hand_over" | "left" | "state",
  ...}``: Speed Poker news for one player.

Table events that name a player carry their ``alias`` (R-ALIAS-1), so no layer above has to look it up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, cast

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from riverboat.engine.views import ENGINE_EVENT_TYPES, VIEW_TYPES, EngineEvent, HandView

#: the wire protocol's version, carried as ``"v"`` by every server frame (version 1 only ever adds); the server
#: (:mod:`riverboat.server.protocol`) and a cluster's table hosts (:mod:`riverboat.cluster.wire`) write it
PROTOCOL_VERSION = 1


def players_without_alias(frame: RoomFrame | dict[str, Any]) -> list[Any]:
    """The players a frame names (a ``table_state``'s seats, an event's ``player``) without an ``alias`` next to
    them (R-ALIAS-1: the room names every one; the server and a cluster gateway name any it did not)."""
    data: Any = frame
    kind = data.get("type")
    if kind == "table_state":
        view = data.get("view")
        seats = view.get("seats") if isinstance(view, dict) else None
        if isinstance(seats, list):
            return [s["player"] for s in seats if isinstance(s, dict) and "player" in s and "alias" not in s]
    elif kind == "event":
        event = data.get("event")
        if isinstance(event, dict) and "player" in event and "alias" not in event:
            return [event["player"]]
    return []


# ------------------------------------------------------------------------------------------------ table views

Phase = Literal["action", "timebank", "reconnect", "draw"]


class TimerView(TypedDict):
    """The decision timer: whose turn, which phase (R-TIME, R-DISC-1) and the seconds left."""

    seat: int
    phase: Phase
    remaining: float


SeatStatusName = Literal["playing", "waiting", "sitting_out"]


class SeatView(TypedDict):
    seat: int
    player: int
    alias: str | None
    stack: int
    status: SeatStatusName
    connected: bool
    owes_bb: bool
    missed_sb: bool


class TableOptions(TypedDict):
    """A seated player's table options (the ``options`` command): post blinds by themselves (False: sat out instead
    of posting), sit out at the next big blind (once), wait for the big blind when sitting in, and mucking losing
    hands that need not be shown (R-SHOW-4: the room always does, so it is always true)."""

    auto_post: bool
    sit_out_next_bb: bool
    wait_for_bb: bool
    auto_muck: bool


class YouView(TypedDict):
    """What only the seated player sees about their own seat."""

    seat: int
    stack: int
    timebank: float
    sitting_out: bool
    owes_bb: bool
    missed_sb: bool
    post_now: bool
    leaving: bool
    pending_top_up: int
    options: NotRequired[TableOptions]


class TableHeader(TypedDict):
    id: str
    name: str
    game: str
    structure: str
    mixed: str | None
    small_blind: int
    big_blind: int
    ante: int
    small_bet: int
    big_bet: int
    max_seats: int
    min_buy_in: int
    max_buy_in: int | None
    currency: str
    rake: str


class TableView(TypedDict):
    """One player's (or a spectator's: ``you`` null, no face-down card) view of a cash table."""

    table: TableHeader
    game: str
    structure: str
    seats: list[SeatView]
    button: int | None
    hand_id: str | None
    hand: HandView | None
    timer: TimerView | None
    you: YouView | None
    #: the last event of this table (by ``seq``) the view already includes: the client skips events numbered
    #: at or below it (docs/protocol.md "Sequence numbers")
    seq: NotRequired[int]


class CashLobbyEntry(TableHeader):
    kind: Literal["cash"]
    current_game: str
    current_structure: str
    seats_taken: int
    players: int
    average_pot: int
    players_per_flop_pct: int
    hands_played: int
    #: hands finished in the last hour (extrapolated while the table is younger than an hour)
    hands_per_hour: NotRequired[int]
    #: players on the waiting list of this table (offered a seat in turn when one is free)
    waiting: NotRequired[int]
    #: a mixed table's rotation: the game ids in order (empty at a one-game table), and the index of the game
    #: being dealt
    rotation: list[str]
    #: the structure of each game of the rotation (8-Game deals Hold'em both Fixed and No Limit, issue #31 item 9)
    rotation_structures: NotRequired[list[str]]
    rotation_index: int


class PoolLobbyEntry(TypedDict):
    id: str
    kind: Literal["speed"]
    name: str
    game: str
    structure: str
    small_blind: int
    big_blind: int
    max_seats: int
    min_buy_in: int
    max_buy_in: int | None
    currency: str
    players: int
    seats_taken: int
    hands_running: int
    hands_played: int
    average_pot: int


LobbyEntry = CashLobbyEntry | PoolLobbyEntry


class PoolView(TypedDict):
    """A Speed Poker player's view of their pool: stack, waiting, and the hand they are live in."""

    pool: str
    joined: bool
    stack: NotRequired[int]
    waiting: NotRequired[bool]
    hand: NotRequired[str | None]
    seat: NotRequired[int | None]
    view: NotRequired[HandView | None]


# ------------------------------------------------------------------------------------------------ table events

class HandStartedEvent(TypedDict):
    kind: Literal["hand_started"]
    hand_id: str
    button: int
    seats: list[int]
    game: str
    structure: str


class SeatedEvent(TypedDict):
    kind: Literal["seated"]
    seat: int
    player: int
    alias: str | None
    stack: int


class SatOutEvent(TypedDict):
    kind: Literal["sat_out"]
    seat: int
    player: int
    alias: str | None
    reason: str


class SatInEvent(TypedDict):
    kind: Literal["sat_in"]
    seat: int
    player: int
    alias: str | None
    post: bool


class LeavingEvent(TypedDict):
    kind: Literal["leaving"]
    seat: int
    player: int
    alias: str | None


class LeftEvent(TypedDict):
    """A player left (R-CASH-3); the one who left gets it too, with what went back to their balance."""

    kind: Literal["left"]
    seat: int
    cashed_out: int
    player: NotRequired[int]
    alias: NotRequired[str | None]


class ToppedUpEvent(TypedDict):
    kind: Literal["topped_up"]
    seat: int
    player: int
    alias: str | None
    stack: int


class EvictedEvent(TypedDict):
    kind: Literal["evicted"]
    seat: int
    player: int
    alias: str | None
    rule: str


class AliasChangedEvent(TypedDict):
    """R-ALIAS-2: the player at ``seat`` changed their alias."""

    kind: Literal["alias_changed"]
    seat: int
    player: int
    alias: str | None


class SeatOfferedEvent(TypedDict):
    """To the first player of the waiting list only: a seat is free at this table (sit with the usual ``sit``)."""

    kind: Literal["seat_offered"]
    seat: int


class TopUpFailedEvent(TypedDict):
    kind: Literal["top_up_failed"]
    message: str


class TurnEvent(TypedDict):
    kind: Literal["turn"]
    seat: int
    phase: Phase
    remaining: float


class TimebankEvent(TypedDict):
    kind: Literal["timebank"]
    seat: int
    seconds: float
    rule: str


class TimedOutEvent(TypedDict):
    """The table acted for ``seat``: ``action`` (R-TIME-3, R-DISC-1) or, on a draw, ``discards`` (R-TIME-4)."""

    kind: Literal["timed_out"]
    seat: int
    rule: str
    action: NotRequired[str]
    discards: NotRequired[int]


class AutoDrawEvent(TypedDict):
    kind: Literal["auto_draw"]
    seat: int
    discards: int
    rule: str


class ExposedEvent(TypedDict):
    """R-SHOW-4 reading (issue #14): betting is over with a player all-in; before the rest of the cards are dealt
    the hands that the showdown shows are turned face up: ``hands`` maps each seat to the cards it holds."""

    kind: Literal["exposed"]
    hands: dict[str, list[str]]
    rule: str


class ArtificialAllinEvent(TypedDict):
    kind: Literal["artificial_allin"]
    seat: int
    committed: int
    rule: str


TableEvent = (
    HandStartedEvent | SeatedEvent | SatOutEvent | SatInEvent | LeavingEvent | LeftEvent | ToppedUpEvent
    | EvictedEvent | AliasChangedEvent | SeatOfferedEvent | TopUpFailedEvent | TurnEvent | TimebankEvent | TimedOutEvent
    | AutoDrawEvent | ArtificialAllinEvent | ExposedEvent
)
#: Any event of a table or pool frame, told apart by its ``kind``.
Event = Annotated[EngineEvent | TableEvent, Field(discriminator="kind")]

TABLE_EVENT_TYPES: tuple[type, ...] = (
    HandStartedEvent, SeatedEvent, SatOutEvent, SatInEvent, LeavingEvent, LeftEvent, ToppedUpEvent, EvictedEvent,
    AliasChangedEvent, SeatOfferedEvent, TopUpFailedEvent, TurnEvent, TimebankEvent, TimedOutEvent, AutoDrawEvent,
    ArtificialAllinEvent, ExposedEvent,
)

# ------------------------------------------------------------------------------------------------ frames


class TableStateFrame(TypedDict):
    type: Literal["table_state"]
    table: str
    view: TableView


class TableEventFrame(TypedDict):
    type: Literal["event"]
    table: str
    event: Event
    #: this event's number at its table (1, 2, ...; a player sees gaps where events were for someone else)
    seq: NotRequired[int]


class PoolEventFrame(TypedDict):
    type: Literal["event"]
    pool: str
    hand: str
    event: Event


class SpeedDealtFrame(TypedDict):
    type: Literal["speed"]
    pool: str
    event: Literal["dealt"]
    hand: str
    seat: int
    view: HandView


class SpeedTurnFrame(TypedDict):
    type: Literal["speed"]
    pool: str
    event: Literal["your_turn"]
    hand: str
    view: HandView
    timer: TimerView | None


class SpeedFastFoldedFrame(TypedDict):
    type: Literal["speed"]
    pool: str
    event: Literal["fast_folded"]
    hand: str


class SpeedHandOverFrame(TypedDict):
    type: Literal["speed"]
    pool: str
    event: Literal["hand_over"]
    hand: str
    net: int
    stack: int


class SpeedLeftFrame(TypedDict):
    type: Literal["speed"]
    pool: str
    event: Literal["left"]
    cashed_out: int


class SpeedStateFrame(TypedDict):
    type: Literal["speed"]
    pool: str
    event: Literal["state"]
    view: PoolView


SpeedFrame = (SpeedDealtFrame | SpeedTurnFrame | SpeedFastFoldedFrame | SpeedHandOverFrame | SpeedLeftFrame
              | SpeedStateFrame)
EventFrame = TableEventFrame | PoolEventFrame


# ------------------------------------------------------------------------------------------------ tournament frames
#
# ``{"type": "tournament", "tournament", "event", "data"}``: one model per ``event``, its ``data`` a typed dict below
# (docs/protocol.md "Tournament frames"). The room builds them with :func:`tournament_frame`; the server validates
# every frame sent against :data:`TOURNAMENT_DATA` (unknown fields refused), so a field must be described here first.


class TournamentSeatView(TypedDict):
    """A player at the tournament table (public: the alias and the chips; in a knockout tournament ``bounty``, the
    bounty on their head now, which grows in a progressive knockout, R-TOURN-KO-1 / R-TOURN-PKO-1/2; ``away``:
    sat out or disconnected, dealt in and folded, R-SITOUT-1 / R-DISC-2)."""

    seat: int
    player: int
    alias: str | None
    stack: int
    bounty: NotRequired[int]
    away: NotRequired[bool]


class TournamentHud(TypedDict):
    """The tournament table's HUD (issue #11 item 8): ``level`` (1-based), its blinds and ante, ``on_break``,
    ``seconds_left`` to the next level or the end of the break and ``next_break_in`` (None: no more, or levels by
    hands; the client counts them down from the frame's arrival), ``players_left`` of ``entrants``,
    ``average_stack``, ``prize_pool``, ``hand_for_hand`` (R-TOURN-GEN-6 reading: every table deals one hand at a
    time on the money bubble)."""

    level: int
    small_blind: int
    big_blind: int
    ante: int
    on_break: bool
    seconds_left: float | None
    next_break_in: NotRequired[float | None]
    players_left: int
    entrants: int
    average_stack: int
    prize_pool: int
    hand_for_hand: bool


class TournamentStateData(TournamentHud):
    """The player's table (``table``, their ``seat``; None once out), the hand view (``hand``: with ``legal`` when
    they are to act) and the HUD; also ``seats`` (everyone at the table), ``hand_id``, ``seq``, ``rank`` (the player's place by chips
    among ``players_left``), ``rebuy`` / ``addon`` (true while the player may re-buy / take the add-on,
    R-TOURN-REBUY-3) and ``automatic`` (Wild Twister: the table decides, R-WILD-2)."""

    table: str
    seat: int | None
    hand: HandView | None
    seats: NotRequired[list[TournamentSeatView]]
    #: the hand in progress at ``table`` (its ``hand_started`` event's ``hand_id``), None between hands
    hand_id: NotRequired[str | None]
    #: the last event of ``table`` (by ``seq``) this state includes, as a ``table_state`` view's ``seq``
    seq: NotRequired[int]
    rank: NotRequired[int | None]
    rebuy: NotRequired[bool]
    addon: NotRequired[bool]
    automatic: NotRequired[bool]
    #: the player sat out (R-SITOUT-1): dealt in and folded until they sit back in
    sitting_out: NotRequired[bool]


class TournamentRegisteredData(TypedDict):
    """Registered (``entrants`` so far); a late registration also names the ``table`` and ``seat`` (``late``)."""

    entrants: NotRequired[int]
    table: NotRequired[str]
    seat: NotRequired[int]
    late: NotRequired[bool]


class TournamentEmptyData(TypedDict):
    """No fields (``unregistered``)."""


class TournamentReasonData(TypedDict):
    """``cancelled`` (too few entrants, R-TOURN-REG-4, or the operator, R-OPER-3)."""

    reason: str


class TournamentStartedData(TypedDict):
    table: str
    seat: int
    entrants: int


class TournamentLevelData(TypedDict):
    """A new level (1-based) and its stakes; ``seconds_left`` until the next one (None: the last, or by hands)."""

    level: int
    small_blind: int
    big_blind: int
    ante: int
    seconds_left: NotRequired[float | None]


class TournamentBreakData(TypedDict):
    """A break of ``seconds`` begins (R-TOURN-BREAK-1): no table deals until it ends."""

    seconds: float


class TournamentFlightOverData(TypedDict):
    """The Day 1 flight is over (R-TOURN-FLIGHT-3): the survivor goes to ``day2`` with ``chips``; ``day2_chips`` is
    their Day 2 stack (the larger one if they qualified from another flight too, R-TOURN-FLIGHT-6 reading)."""

    day2: str | None
    chips: NotRequired[int]
    day2_chips: NotRequired[int]
    rule: NotRequired[str]


class TournamentRuleData(TypedDict):
    """``disqualified`` (R-INTEG-5)."""

    rule: str


class TournamentBountyData(TypedDict):
    """``bounty``, to everyone at the table once the hand is recorded (the hand log): ``player`` (``alias``) won
    ``cash`` for eliminating ``busted`` (``busted_alias``; the winner themself: their own bounty with the first
    place); ``added`` went onto their own bounty, which is ``bounty`` now (progressive knockout, R-TOURN-PKO-3);
    ``named``: a named bounty (R-TOURN-BOUNTY-1)."""

    table: str
    hand_id: str
    player: int
    alias: str | None
    busted: int
    busted_alias: str | None
    cash: int
    added: int
    bounty: int
    named: bool
    rule: str


class TournamentEditedData(TypedDict):
    """The operator changed the tournament (R-OPER-2): ``changes`` maps each changed field of the tournament's
    description (docs/tournaments.md) to its new value."""

    changes: dict[str, Any]
    rule: str


class TournamentFinishedData(TypedDict):
    """The player's place (``place``..``place_to`` when shared, R-TOURN-GEN-6) and prize, paid at once
    (R-TOURN-GEN-5)."""

    place: int
    place_to: int
    prize: int
    #: knockout and named bounties won in the tournament (paid at once when won, R-TOURN-KO-1 / R-TOURN-BOUNTY-1)
    bounties: NotRequired[int]


class TournamentFinalTableData(TypedDict):
    players: int


class TournamentHandForHandData(TypedDict):
    on: bool


class TournamentMovedData(TypedDict):
    """R-TOURN-BAL-3: table balancing moved the player to ``table``, ``seat`` (from ``from_table``; ``broken``:
    that table was broken up)."""

    table: str
    seat: int
    rule: str
    from_table: NotRequired[str]
    broken: NotRequired[bool]


class TournamentRebuyOfferData(TypedDict):
    """R-TOURN-REBUY-3 reading: the player busted during the re-buy period and may re-buy (``price`` + ``fee`` for
    ``chips``) within ``seconds`` (``tournament_rebuy``) or decline (``tournament_decline_rebuy``); their place is
    fixed only when they decline or the time runs out."""

    seconds: float
    price: int
    fee: int
    chips: int
    currency: str
    rule: str


class TournamentInterruptedData(TypedDict):
    """R-TOURN-INT: the tournament was interrupted; ``compensation`` (lobby tournaments) or ``paid`` with ``rule``
    and ``reason`` (Twister) is what the player was paid."""

    compensation: NotRequired[int]
    paid: NotRequired[int]
    rule: NotRequired[str]
    reason: NotRequired[str]
    tickets: NotRequired[list[int]]  # Wild Twister: the share of the prize as Twister tickets (face values)


class JackpotNoticeView(TypedDict):
    seat: int
    tier: str
    amount: int


class TwisterSpinData(TypedDict):
    """The Twister spin (R-TWIST-3, docs/protocol.md "Twister spin")."""

    table: str
    seat: int
    rule: str
    tournament_id: str
    kind: str
    currency: str
    buy_in: int
    multiplier: int
    prize: int
    places: list[int]
    ticket: bool
    reel: list[int]
    jackpots: list[JackpotNoticeView]
    seconds: float
    small_blind: int
    big_blind: int
    ante: int


class JackpotData(TypedDict):
    """An Age of the Gods jackpot win (R-AOG-3); the tournament pauses ``seconds``."""

    rule: str
    player: int
    seat: int | None
    tier: str
    amount: int
    seconds: float


#: Every tournament ``event`` and the model of its ``data``.
TOURNAMENT_DATA: dict[str, type] = {
    "registered": TournamentRegisteredData, "unregistered": TournamentEmptyData, "cancelled": TournamentReasonData,
    "started": TournamentStartedData, "state": TournamentStateData, "level": TournamentLevelData,
    "break": TournamentBreakData, "flight_over": TournamentFlightOverData, "disqualified": TournamentRuleData,
    "finished": TournamentFinishedData, "final_table": TournamentFinalTableData,
    "hand_for_hand": TournamentHandForHandData, "moved": TournamentMovedData,
    "rebuy_offer": TournamentRebuyOfferData, "interrupted": TournamentInterruptedData,
    "edited": TournamentEditedData, "bounty": TournamentBountyData,
    "twister_spin": TwisterSpinData, "jackpot": JackpotData,
}
TournamentEventName = Literal["registered", "unregistered", "cancelled", "started", "state", "level", "break",
                              "flight_over", "disqualified", "finished", "final_table", "hand_for_hand", "moved",
                              "rebuy_offer", "interrupted", "twister_spin", "jackpot", "edited", "bounty"]
TournamentData = (TournamentRegisteredData | TournamentEmptyData | TournamentReasonData | TournamentStartedData
                  | TournamentStateData | TournamentLevelData | TournamentBreakData | TournamentFlightOverData
                  | TournamentRuleData | TournamentFinishedData | TournamentFinalTableData | TournamentHandForHandData
                  | TournamentMovedData | TournamentRebuyOfferData | TournamentInterruptedData | TwisterSpinData
                  | JackpotData | TournamentEditedData | TournamentBountyData)


class TournamentFrame(TypedDict):
    """A tournament's news for one player: ``event`` names the model of ``data`` (:data:`TOURNAMENT_DATA`)."""

    type: Literal["tournament"]
    tournament: str
    event: TournamentEventName
    data: TournamentData


def tournament_state(table: str, seat: int | None, hand: HandView | None, hud: TournamentHud) -> TournamentStateData:
    """The ``state`` data: the player's table and seat, the hand view and the HUD's fields (optional ones are set on
    the result)."""
    return cast(TournamentStateData, {"table": table, "seat": seat, "hand": hand, **hud})


def tournament_frame(tournament_id: str, event: TournamentEventName, data: TournamentData) -> TournamentFrame:
    """The frame of ``event`` (the server checks that ``data`` is the model :data:`TOURNAMENT_DATA` names)."""
    return {"type": "tournament", "tournament": tournament_id, "event": event, "data": data}


RoomFrame = TableStateFrame | EventFrame | SpeedFrame | TournamentFrame

FRAME_TYPES: tuple[type, ...] = (
    TableStateFrame, TableEventFrame, PoolEventFrame, SpeedDealtFrame, SpeedTurnFrame, SpeedFastFoldedFrame,
    SpeedHandOverFrame, SpeedLeftFrame, SpeedStateFrame, TournamentFrame,
)
VIEW_AND_ENTRY_TYPES: tuple[type, ...] = (TimerView, SeatView, TableOptions, YouView, TableHeader, TableView, CashLobbyEntry,
                                          PoolLobbyEntry, PoolView, TournamentSeatView, TournamentHud,
                                          JackpotNoticeView, *TOURNAMENT_DATA.values())

# Unknown fields are refused when a frame is validated (tests, docs): a field that is not described here is drift.
for _td in (*VIEW_TYPES, *ENGINE_EVENT_TYPES, *TABLE_EVENT_TYPES, *FRAME_TYPES, *VIEW_AND_ENTRY_TYPES):
    _td.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------------------ builders

def table_state(table_id: str, view: TableView) -> TableStateFrame:
    return {"type": "table_state", "table": table_id, "view": view}


def table_event(table_id: str, event: Event, seq: int | None = None) -> TableEventFrame:
    frame: TableEventFrame = {"type": "event", "table": table_id, "event": event}
    if seq is not None:
        frame["seq"] = seq
    return frame


def pool_event(pool_id: str, hand_id: str, event: Event) -> PoolEventFrame:
    return {"type": "event", "pool": pool_id, "hand": hand_id, "event": event}


class EventCounter:
    """The sequence numbers of one table's event frames: each event is numbered once, and a ``table_state``
    carries the number of the last event it includes, so a client applies every event exactly once."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = 0

    def next(self) -> int:
        self.last += 1
        return self.last


@dataclass(frozen=True, slots=True)
class TableAddress:
    """Where a hand's events go at a table (cash, tournament, Twister): ``{"type": "event", "table", "seq",
    ...}``, numbered by the table's :class:`EventCounter`."""

    table: str
    counter: EventCounter = field(default_factory=EventCounter, compare=False)

    def event(self, event: Event) -> TableEventFrame:
        return table_event(self.table, event, self.counter.next())


@dataclass(frozen=True, slots=True)
class PoolHandAddress:
    """Where the events of one Speed Poker hand go: ``{"type": "event", "pool", "hand", ...}``."""

    pool: str
    hand: str

    def event(self, event: Event) -> EventFrame:
        return pool_event(self.pool, self.hand, event)


Address = TableAddress | PoolHandAddress


def speed_dealt(pool_id: str, hand_id: str, seat: int, view: HandView) -> SpeedDealtFrame:
    return {"type": "speed", "pool": pool_id, "event": "dealt", "hand": hand_id, "seat": seat, "view": view}


def speed_your_turn(pool_id: str, hand_id: str, view: HandView, timer: TimerView | None) -> SpeedTurnFrame:
    return {"type": "speed", "pool": pool_id, "event": "your_turn", "hand": hand_id, "view": view, "timer": timer}


def speed_fast_folded(pool_id: str, hand_id: str) -> SpeedFastFoldedFrame:
    return {"type": "speed", "pool": pool_id, "event": "fast_folded", "hand": hand_id}


def speed_hand_over(pool_id: str, hand_id: str, net: int, stack: int) -> SpeedHandOverFrame:
    return {"type": "speed", "pool": pool_id, "event": "hand_over", "hand": hand_id, "net": net, "stack": stack}


def speed_left(pool_id: str, cashed_out: int) -> SpeedLeftFrame:
    return {"type": "speed", "pool": pool_id, "event": "left", "cashed_out": cashed_out}


def speed_state(pool_id: str, view: PoolView) -> SpeedStateFrame:
    return {"type": "speed", "pool": pool_id, "event": "state", "view": view}
