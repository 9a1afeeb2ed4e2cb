"""The Riverboat WebSocket protocol, version 1: pydantic v2 models for every frame (documented in docs/protocol.md).

Every frame is one JSON object per WebSocket text message. Client frames carry ``"v": 1``, a ``"type"`` and an
optional client message id ``"id"`` (string of at most 64 characters or integer), which the server echoes as
``"ref"`` in the ``ack``, ``error`` or ``pong`` frame it answers with. Unknown fields are refused (``extra="forbid"``)
so that a typo is an error, never a silently ignored command. Money is always an integer number of minor units
(cents for EUR); floats, booleans and strings are refused for amounts.

Compatibility rule: version 1 only grows. New frame types and new *optional* fields may be added; existing fields
never change meaning. A client must ignore server frame types and fields it does not know.

Parsing: :func:`parse_client_frame` turns raw text into a typed frame or raises :class:`ProtocolError` carrying the
error code to send back (``bad_json``, ``bad_frame``, ``bad_version``, ``unknown_type``, ``invalid``) and, when it
could be read, the client's message id.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias, Union

from pydantic import (
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictStr,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationError,
)
from typing_extensions import TypedDict

from riverboat.errors import RiverboatError, declare
from riverboat.room import frames
from riverboat.room.commands import (  # the room's commands: the client frames that reach the room
    MAX_AMOUNT as MAX_AMOUNT,
)
from riverboat.room.commands import (
    ActFrame,
    ClientFrameBase,
    EndPlayFrame,
    FastFoldFrame,
    JoinSpeedFrame,
    LeaveFrame,
    LeaveSpeedFrame,
    OptionsFrame,
    RoomCommand,
    SitFrame,
    SitInFrame,
    SitOutFrame,
    TopUpFrame,
    TournamentActFrame,
    TournamentDeclineRebuyFrame,
    TournamentRebuyFrame,
    TournamentRegisterFrame,
    TournamentSitOutFrame,
    TournamentUnregisterFrame,
    TwisterPlayFrame,
    UnwaitlistFrame,
    UnwatchFrame,
    WaitlistFrame,
    WatchFrame,
)
from riverboat.room.commands import (
    MsgId as MsgId,
)
from riverboat.room.commands import (
    TableRef as TableRef,
)

from . import safejson

PROTOCOL_VERSION = frames.PROTOCOL_VERSION
#: Largest raw frame the server reads (bytes); bigger frames get ``frame_too_large`` and are dropped.
MAX_FRAME_BYTES = 16 * 1024

class AuthFrame(ClientFrameBase):
    """Authenticate the connection with a bearer token from ``POST /api/login`` (or pass ``?token=`` on connect)."""

    type: Literal["auth"]
    token: Annotated[StrictStr, StringConstraints(min_length=1, max_length=512)]
    batch: StrictBool = Field(default=False, description="Opt in to `batch` frames (several frames per message).")



class PingFrame(ClientFrameBase):
    """Liveness check; answered with ``pong``. Allowed before authentication."""

    type: Literal["ping"]



class LobbyRequest(ClientFrameBase):
    """Ask for the lobby (tables and Speed Poker pools); answered with a ``lobby`` frame. Allowed before auth."""

    type: Literal["lobby"]



class ChatFrame(ClientFrameBase):
    """Say ``text`` at ``table`` (seated or watching): everyone there receives a ``chat`` frame. At most 200
    characters once whitespace is collapsed; offensive words are replaced by asterisks (the alias filter,
    R-ALIAS-4); rate limited per player (``chat_rate_limited``)."""

    type: Literal["chat"]
    table: TableRef
    text: Annotated[StrictStr, StringConstraints(min_length=1, max_length=400)]



class ResyncFrame(ClientFrameBase):
    """Ask the server to send the full current ``table_state`` of every table the player is seated at again."""

    type: Literal["resync"]



ClientFrame = Annotated[
    AuthFrame
    | PingFrame
    | LobbyRequest
    | SitFrame
    | ActFrame
    | SitOutFrame
    | SitInFrame
    | OptionsFrame
    | WaitlistFrame
    | UnwaitlistFrame
    | LeaveFrame
    | TopUpFrame
    | JoinSpeedFrame
    | FastFoldFrame
    | LeaveSpeedFrame
    | WatchFrame
    | UnwatchFrame
    | ChatFrame
    | TwisterPlayFrame
    | TournamentActFrame
    | TournamentRegisterFrame
    | TournamentUnregisterFrame
    | TournamentRebuyFrame
    | TournamentDeclineRebuyFrame
    | TournamentSitOutFrame
    | EndPlayFrame
    | ResyncFrame,
    Field(discriminator="type"),
]

CLIENT_FRAME_TYPES: tuple[str, ...] = (
    "auth",
    "ping",
    "lobby",
    "sit",
    "act",
    "sit_out",
    "sit_in",
    "options",
    "waitlist",
    "unwaitlist",
    "leave",
    "top_up",
    "join_speed",
    "fast_fold",
    "leave_speed",
    "watch",
    "unwatch",
    "chat",
    "twister_play",
    "tournament_act",
    "tournament_register",
    "tournament_unregister",
    "tournament_rebuy",
    "tournament_decline_rebuy",
    "tournament_sit_out",
    "end_play",
    "resync",
)
#: Frame types the connection itself handles (the session: authentication, liveness, the lobby, table chat and a
#: resync of the views); every other client frame is a room command (:mod:`riverboat.room.commands`).
SESSION_FRAME_TYPES = frozenset({"auth", "ping", "lobby", "chat", "resync"})
#: Frame types accepted before the connection is authenticated.
UNAUTHENTICATED_TYPES = frozenset({"auth", "ping", "lobby"})

#: What :func:`parse_client_frame` returns: one of the models of :data:`ClientFrame` (the server's session frames and
#: the room's commands).
AnyClientFrame: TypeAlias = AuthFrame | PingFrame | LobbyRequest | ChatFrame | ResyncFrame | RoomCommand
_CLIENT_ADAPTER: TypeAdapter[AnyClientFrame] = TypeAdapter(ClientFrame)


# --------------------------------------------------------------------------------------------------- server frames
#
# Every frame the server sends is one of the typed dicts below. The room's frames (``table_state``, ``event``,
# ``speed``) are built by :mod:`riverboat.room.frames` and get ``"v": 1`` from the server; the server's own frames
# are built by the functions below. :data:`SERVER_FRAME` validates any of them (the tests check every frame sent),
# :func:`server_frame_schemas` documents them (OpenAPI ``x-websocket``). Unknown fields are refused by the models:
# a field must be described here before it is sent.

Ref = int | str | None


class WelcomeFrame(TypedDict):
    """First frame after successful authentication; followed by one ``table_state`` per table the player sits at
    (this is how a reconnecting client gets its full view back)."""

    v: Literal[1]
    type: Literal["welcome"]
    protocol: int
    player_id: int
    alias: str | None
    server: str
    ref: Ref


class AckFrame(TypedDict):
    """The command with client id ``ref`` was accepted; ``result`` carries command-specific data (may be empty)."""

    v: Literal[1]
    type: Literal["ack"]
    ref: Ref
    command: str
    result: dict[str, Any]


class ErrorFrame(TypedDict):
    """The frame with client id ``ref`` was refused and changed nothing; ``code`` comes from the error registry
    (:mod:`riverboat.room.errors`)."""

    v: Literal[1]
    type: Literal["error"]
    code: str
    message: str
    ref: Ref


class PongFrame(TypedDict):
    v: Literal[1]
    type: Literal["pong"]
    ref: Ref


class LobbyFrame(TypedDict):
    v: Literal[1]
    type: Literal["lobby"]
    ref: Ref
    tables: list[frames.CashLobbyEntry]
    pools: list[frames.PoolLobbyEntry]


class NoticeFrame(TypedDict):
    """Out-of-band information, e.g. ``code="shutdown"`` when the server is stopping."""

    v: Literal[1]
    type: Literal["notice"]
    code: str
    message: str


class ChatMessageFrame(TypedDict):
    """A chat line at ``table`` from ``player`` (public ``alias``), already filtered; ``at`` is ISO 8601 UTC."""

    v: Literal[1]
    type: Literal["chat"]
    table: str
    player: int
    alias: str | None
    text: str
    at: str


class BatchFrame(TypedDict):
    """Several server frames in one WebSocket message, in order; sent only to clients that opted in (``auth`` with
    ``"batch": true`` or ``/ws?batch=1``), and only when frames are already waiting to be written."""

    v: Literal[1]
    type: Literal["batch"]
    frames: list[dict[str, Any]]


class TableStateWire(frames.TableStateFrame):
    """The full view of ``table`` for this player: everything they may see and nothing more (R-GEN-5)."""

    v: Literal[1]


class TableEventWire(frames.TableEventFrame):
    """One thing that happened at ``table`` (dealt, posted, acted, pot awarded, player sat/left, timer...)."""

    v: Literal[1]


class PoolEventWire(frames.PoolEventFrame):
    """One thing that happened in Speed Poker hand ``hand`` of pool ``pool``."""

    v: Literal[1]


class SpeedDealtWire(frames.SpeedDealtFrame):
    v: Literal[1]


class SpeedTurnWire(frames.SpeedTurnFrame):
    v: Literal[1]


class SpeedFastFoldedWire(frames.SpeedFastFoldedFrame):
    v: Literal[1]


class SpeedHandOverWire(frames.SpeedHandOverFrame):
    v: Literal[1]


class SpeedLeftWire(frames.SpeedLeftFrame):
    v: Literal[1]


class SpeedStateWire(frames.SpeedStateFrame):
    v: Literal[1]


#: News of a tournament for this player (docs/protocol.md "Tournament frames"): ``{"type": "tournament", "tournament",
#: "event", "data"}``, one model per ``event`` (``registered``, ``started``, ``state`` (the table, the hand view and the
#: HUD), ``level``, ``moved`` (R-TOURN-BAL-3), ``rebuy_offer`` (R-TOURN-REBUY-3), ``finished`` (place and prize),
#: ``twister_spin`` (R-TWIST-3), ...): ``data`` is ``riverboat.room.frames.TOURNAMENT_DATA[event]``.


def _tournament_wire(event: str, data: type) -> type:
    """The wire model of one tournament event: ``TournamentWire`` with ``event`` fixed and ``data`` its model."""
    fields = {"v": Literal[1], "type": Literal["tournament"], "tournament": str,
              "event": Literal[event], "data": data}
    name = f"Tournament{''.join(w.title() for w in event.split('_'))}Wire"
    wire: type = TypedDict(name, fields)  # type: ignore[misc]
    return wire


TOURNAMENT_WIRES: dict[str, type] = {event: _tournament_wire(event, data)
                                     for event, data in frames.TOURNAMENT_DATA.items()}


_TAGGED: dict[str, type] = {
    "welcome": WelcomeFrame, "ack": AckFrame, "error": ErrorFrame, "pong": PongFrame, "lobby": LobbyFrame,
    "notice": NoticeFrame, "batch": BatchFrame, "chat": ChatMessageFrame, "table_state": TableStateWire, "event_table": TableEventWire,
    "event_pool": PoolEventWire, "speed_dealt": SpeedDealtWire, "speed_your_turn": SpeedTurnWire,
    "speed_fast_folded": SpeedFastFoldedWire, "speed_hand_over": SpeedHandOverWire, "speed_left": SpeedLeftWire,
    "speed_state": SpeedStateWire,
    **{f"tournament_{event}": wire for event, wire in TOURNAMENT_WIRES.items()},
}
for _td in _TAGGED.values():
    _td.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]


def _frame_tag(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if kind == "event":
        return "event_pool" if "pool" in value else "event_table"
    if kind in ("speed", "tournament"):
        return f"{kind}_{value.get('event')}"
    return kind if isinstance(kind, str) else None


#: Any frame the server sends (a tagged union: by ``type``, then ``pool`` / ``event`` for room frames).
SERVER_FRAME: TypeAdapter[Any] = TypeAdapter(
    Annotated[Union[tuple(Annotated[td, Tag(tag)] for tag, td in _TAGGED.items())],  # type: ignore[arg-type]  # noqa: UP007
              Discriminator(_frame_tag)])
SERVER_FRAME_MODELS: tuple[type, ...] = tuple(_TAGGED.values())


def validate_server_frame(frame: Any) -> Any:
    """Validate one frame as sent (raises pydantic's ``ValidationError`` naming the field that drifted)."""
    return SERVER_FRAME.validate_python(frame)


def welcome(player_id: int, alias: str | None, ref: Ref) -> WelcomeFrame:
    return {"v": 1, "type": "welcome", "protocol": PROTOCOL_VERSION, "player_id": player_id, "alias": alias,
            "server": "riverboat", "ref": ref}


def ack(command: str, result: dict[str, Any], ref: Ref) -> AckFrame:
    return {"v": 1, "type": "ack", "ref": ref, "command": command, "result": result}


def error(code: str, message: str, ref: Ref) -> ErrorFrame:
    return {"v": 1, "type": "error", "code": code, "message": message, "ref": ref}


for _code, _status in (("frame_too_large", 413), ("too_large", 413)):
    declare(_code, _status)


def pong(ref: Ref) -> PongFrame:
    return {"v": 1, "type": "pong", "ref": ref}


def lobby(entries: list[frames.LobbyEntry], ref: Ref) -> LobbyFrame:
    tables: list[frames.CashLobbyEntry] = []
    pools: list[frames.PoolLobbyEntry] = []
    for entry in entries:
        if entry["kind"] == "speed":
            pools.append(entry)
        else:
            tables.append(entry)
    return {"v": 1, "type": "lobby", "ref": ref, "tables": tables, "pools": pools}


def chat_message(table: str, player: int, alias: str | None, text: str, at: str) -> ChatMessageFrame:
    return {"v": 1, "type": "chat", "table": table, "player": player, "alias": alias, "text": text, "at": at}


def notice(code: str, message: str) -> NoticeFrame:
    return {"v": 1, "type": "notice", "code": code, "message": message}


# ------------------------------------------------------------------------------------------------------ parsing


class ProtocolError(RiverboatError):
    """A client frame that cannot be accepted. ``code`` is the error code sent back (its status: the error
    registry, :mod:`riverboat.errors`), ``ref`` the client id if any."""

    def __init__(self, code: str, message: str, ref: int | str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


def _ref_of(obj: dict[str, Any]) -> int | str | None:
    ref = obj.get("id")
    if isinstance(ref, bool):
        return None
    if isinstance(ref, str) and len(ref) <= 64:
        return ref
    if isinstance(ref, int) and 0 <= ref <= 2**53:
        return ref
    return None


def _describe(exc: ValidationError) -> str:
    parts: list[str] = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and p in CLIENT_FRAME_TYPES))
        parts.append(f"{loc or 'frame'}: {err['msg']}")
    return "; ".join(parts)


def parse_client_frame(raw: str | bytes) -> AnyClientFrame:
    """Parse and validate one client frame. Returns one of the client frame models; raises :class:`ProtocolError`."""
    if len(raw) > MAX_FRAME_BYTES:
        raise ProtocolError("frame_too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        obj = safejson.loads(raw)
    except safejson.JsonRefused as exc:
        raise ProtocolError("invalid", f"the frame is refused: {exc}") from None
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "the frame is not valid JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_frame", "a frame must be a JSON object")
    ref = _ref_of(obj)
    version = obj.get("v")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise ProtocolError("bad_version", f"unsupported protocol version {version!r}; this server speaks v=1", ref)
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_FRAME_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 32 else type(kind).__name__
        raise ProtocolError("unknown_type", f"unknown frame type {shown!r}", ref)
    try:
        return _CLIENT_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        raise ProtocolError("invalid", f"invalid {kind} frame: {_describe(exc)}", ref) from None


def peek_ref(raw: str | bytes) -> int | str | None:
    """The client's message id of a frame that will not be parsed (rate limited), if it can be read safely."""
    if len(raw) > MAX_FRAME_BYTES:
        return None
    try:
        obj = safejson.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return _ref_of(obj) if isinstance(obj, dict) else None


def client_frame_schema() -> dict[str, Any]:
    """JSON Schema of every client frame (used by docs and the OpenAPI document)."""
    return _CLIENT_ADAPTER.json_schema()


def server_frame_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schema of every server frame, by model name."""
    return {m.__name__: TypeAdapter(m).json_schema() for m in SERVER_FRAME_MODELS}
