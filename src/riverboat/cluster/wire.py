"""What crosses NATS between the nodes of a cluster (docs/cluster.md "What crosses the wire"): typed, validated.

- **Commands** (gateway → table host, request/reply on ``<prefix>.cmd.<table id>``): a player's room command goes
  as it is, in :class:`Execute` (the client frame's own model, :mod:`riverboat.room.commands`, run by the host's
  ``Room.execute``); the other ops (:data:`Command`, told apart by ``op``) are the cluster's own: a table's view
  (``Info``), chat (``Relay``), an alias change, and the tournaments' (``tourney.py``). Each names the player and the gateway that holds their connection; the answer is
  a :class:`Reply` (the command's result, or the refusal's code and message).
- **Deliveries** (table host → gateway, ``<prefix>.gw.<gateway id>``): the room frames
  (:data:`riverboat.room.frames.RoomFrame`, built by the room) produced in one event-loop turn, each once with
  the players of that gateway who receive it (a public event goes once per table and gateway, not per player),
  already encoded as the text the players' WebSockets get (:func:`encode_frame`, :func:`encode_delivery`).
- **Records** (JetStream KV): :class:`NodeInfo` (``nodes`` bucket, with a TTL: the node lease) and
  :class:`TableRecord` (``tables`` bucket: what the table is, who owns it, the lobby entry and the seats as after
  the last settled hand). Presence (``presence`` bucket) maps a player id to their gateway id (plain text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from riverboat.room.commands import RoomCommand
from riverboat.room.frames import PROTOCOL_VERSION, LobbyEntry, RoomFrame, players_without_alias
from riverboat.room.move import Move

_STRICT = ConfigDict(extra="forbid", frozen=True)


class GatewayCommand(BaseModel):
    """What a gateway sends a table host: each names the player and the gateway that holds their connection."""

    model_config = _STRICT
    player: int
    gateway: str


class Execute(GatewayCommand):
    """A room command as the player sent it (issue #29): the gateway's one generic forward, run by the table's host
    with ``Room.execute``. ``key``: the idempotency key of a money command (made once, from the player and the
    frame id, by the gateway's server)."""

    op: Literal["execute"] = "execute"
    command: Annotated[RoomCommand, Field(discriminator="type")]
    key: str | None = None


class Info(GatewayCommand):
    op: Literal["info"] = "info"  # the spectator view (REST table info)


class Relay(GatewayCommand):
    """Table chat through a gateway: the frame the gateway's server built (``server/protocol.py`` chat frame, word
    filter and rate limit applied there) goes to the table's audience, if the player is in it."""

    op: Literal["relay"] = "relay"
    frame: dict[str, Any]


class AliasChanged(GatewayCommand):
    """R-ALIAS-2: the player's new alias, for the tables where they sit on the table's host."""

    op: Literal["alias_changed"] = "alias_changed"
    alias: str | None


class TournamentRegister(GatewayCommand):
    """Register for the tournament (buy-in + fee, or a ticket; a private one needs both secrets)."""

    op: Literal["t_register"] = "t_register"
    promo_code: str | None = None
    password: str | None = None
    ticket: int | None = None


class TournamentUnregister(GatewayCommand):
    op: Literal["t_unregister"] = "t_unregister"


class TournamentRebuy(GatewayCommand):
    op: Literal["t_rebuy"] = "t_rebuy"
    what: Literal["rebuy", "addon", "decline"] = "rebuy"  # decline: the re-buy offered after a bust


class TournamentDetail(GatewayCommand):
    op: Literal["t_detail"] = "t_detail"  # the lobby's detail of the tournament (structure, tables, results)


class TournamentOperate(GatewayCommand):
    """An operator power over the tournament (R-OPER-1..5, R-INTEG-5), run by the host that runs it; ``player`` is
    the operator. ``edit``: ``changes`` to the spec (before any entry; the edited tournament gets a new id, in the
    reply); ``disqualify``: ``target`` is the player put out."""

    op: Literal["t_operate"] = "t_operate"
    action: Literal["edit", "cancel", "interrupt", "disqualify"]
    changes: dict[str, Any] | None = None
    target: int | None = None


HostCommand = (Execute | Info | Relay | AliasChanged | TournamentRegister | TournamentUnregister | TournamentRebuy
               | TournamentDetail | TournamentOperate)
Command = Annotated[HostCommand, Field(discriminator="op")]
COMMAND: TypeAdapter[HostCommand] = TypeAdapter(Command)


# ------------------------------------------------------------------------------------------------ between hosts
# A tournament's director (on the host that owns the tournament) deals some of its tables on other hosts
# (cluster/tourney_tables.py): request/reply on the dealing host's ``<prefix>.peer.<node>`` subject, and the hand's
# outcome back on the director's. ``epoch`` is the director's lease epoch for the tournament: a host drops the hands
# of an older epoch (the tournament moved to another host, which resumed it from the store).


class _Peer(BaseModel):
    model_config = _STRICT
    tournament: str
    table: str


class SeatWire(BaseModel):
    """One seat of a tournament table as the director sends it (the stacks as after the last completed hand)."""

    model_config = _STRICT
    seat: int
    player: int
    entry_no: int
    chips: int
    sitting_out: bool = False  # absent since the start (R-TOURN-REG-5)
    sat_out: bool = False  # sat out by the player (R-SITOUT-1/2): their state frame offers "I'm back"
    bounty: int = 0
    timebank: float = 0.0
    # what the player's state frame shows, as the director knows it at the deal
    alias: str | None = None
    rank: int | None = None  # place by chips among the players left
    rebuy: bool = False  # a re-buy or add-on may be taken now
    addon: bool = False


class TableDeal(_Peer):
    """Deal the table's next hand: its seats, button and level, and what the table shows (``hud``)."""

    op: Literal["deal"] = "deal"
    epoch: int
    director: str  # the director's node: the hand's outcome goes there
    token: str  # names this deal; the outcome carries it back
    hand_no: int
    button: int | None = None
    big_blind: int | None = None
    level: dict[str, int]
    seats: list[SeatWire]
    hud: dict[str, Any]


class TableVoid(_Peer):
    """The director voided the table's hand (interrupted, or it stops): drop it."""

    op: Literal["void"] = "void"
    epoch: int


class TableAbandon(_Peer):
    """A disqualified player folds at their turn (R-INTEG-5)."""

    op: Literal["abandon"] = "abandon"
    epoch: int
    seat: int


class TableAct(_Peer):
    """A player's action, passed on by the director's host."""

    op: Literal["act"] = "act"
    player: int
    move: Move


class TableCheck(_Peer):
    """Is the hand of this deal still being played here? (the director asks about a hand it has waited for)."""

    op: Literal["check"] = "check"
    token: str


class TableState(_Peer):
    """Send the player the table's state (they reconnected, or sat out or back in: ``sat_out``, the director's own
    R-SITOUT-1 flag of the player, which the dealing host takes at once, as one process does)."""

    op: Literal["state"] = "state"
    player: int
    sat_out: bool | None = None


class HandPlayed(_Peer):
    """A hand dealt for the director is over: everything the director needs to record it (``hand_done``) and go on."""

    op: Literal["played"] = "played"
    epoch: int
    token: str  # the deal's
    hand_id: str
    players: dict[int, int]  # seat -> player
    seats: list[int]
    start_stacks: list[int]
    stacks: dict[int, int]  # seat -> stack after the hand
    pots: list[tuple[list[int], dict[int, int]]]  # (eligible seats, {winner seat: chips}) in award order
    phh: str = ""
    events: list[dict[str, Any]] = Field(default_factory=list)
    button: int | None = None
    big_blind: int | None = None
    timebanks: dict[int, float] = Field(default_factory=dict)


class PlayerSitOut(BaseModel):
    """R-SITOUT-4 across hosts: the player sat out (``out``) or back in at a cash table of another host, whose room
    applied the rule to its own tables; this host's room does the same at its tables (``Room.sit_out_here`` or
    ``sit_in_here``) and answers ``{"tables": [...]}``, the tables where that happened."""

    model_config = _STRICT
    op: Literal["player_sit_out"] = "player_sit_out"
    player: int
    out: bool


class FlightOver(BaseModel):
    """A Day 1 flight of ``day2``'s event ended (R-TOURN-FLIGHT-3): the host that runs Day 2 looks at once whether
    every flight is over (as one process's lobby does; Day 2 also checks every ``flights.POLL_SECONDS``)."""

    model_config = _STRICT
    op: Literal["flight_over"] = "flight_over"
    day2: str


PeerBody = (TableDeal | TableVoid | TableAbandon | TableAct | TableState | TableCheck | HandPlayed | PlayerSitOut
            | FlightOver)
PeerMessage = Annotated[PeerBody, Field(discriminator="op")]
PEER: TypeAdapter[PeerBody] = TypeAdapter(PeerMessage)


class Reply(BaseModel):
    """A table host's answer: ``ok`` with the command's JSON-able result, or the refusal's code and message."""

    model_config = _STRICT
    ok: bool
    result: dict[str, Any] | None = None
    code: str | None = None
    message: str | None = None


# ------------------------------------------------------------------------------------------------ deliveries
# A delivery is one NATS message: a JSON header line, then the frames' texts back to back.
#
#   header  = [item, ...]; item = [players, n] | [players, n, table, seated] | [players, frame] | [token, reply]
#   message = header b"\n" text_1 text_2 ...
#
# ``[players, n]``: the next ``n`` bytes after the header are the frame's text exactly as the players' WebSocket
# gets it (the server frame, ``"v"`` first, every alias named: the host encoded it, once for all its recipients);
# the gateway forwards it without decoding it. A ``table_state`` item also names its table and whether the view
# shows the player seated (``you``): what the gateway keeps to answer ``tables_of``. ``[players, frame]``: a room
# frame that names a player without an alias (none of the room's frames should): the gateway names and encodes it,
# as for a local room. ``[token, reply]``: the answer to one of the gateway's commands (:class:`Reply`), after the
# frames. orjson never writes a raw newline, so the first one ends the header.

_VERSION_PREFIX = b'{"v":%d,' % PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Encoded:
    """A room frame encoded by the table host as its server frame's text. ``seated_at``: for a ``table_state``,
    ``(table id, the view shows the player seated)``; else None."""

    text: bytes
    seated_at: tuple[str, bool] | None = None


def encode_frame(frame: RoomFrame) -> Encoded | RoomFrame:
    """The frame as its server text (:class:`Encoded`), or the frame itself when the gateway must name a player
    in it first."""
    if players_without_alias(frame):
        return frame
    data: Any = frame
    if "v" in data or not data:
        text = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    else:
        text = _VERSION_PREFIX + orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)[1:]
    seated_at = None
    if data.get("type") == "table_state":
        view = data.get("view")
        table = data.get("table")
        if isinstance(table, str) and isinstance(view, dict):
            seated_at = (table, view.get("you") is not None)
    return Encoded(text, seated_at)


def encode_delivery(batch: list[tuple[Encoded | RoomFrame, list[int]]],
                    replies: list[tuple[str, bytes]] | None = None) -> bytes:
    """One delivery (see above): the frames (encoded by :func:`encode_frame`, or as room frames) with their
    players, then the replies to this gateway's commands answered meanwhile (``[token, reply]``, the reply
    already JSON: :class:`Reply`)."""
    header: list[Any] = []
    texts: list[bytes] = []
    for item, players in batch:
        if isinstance(item, Encoded):
            texts.append(item.text)
            if item.seated_at is None:
                header.append((players, len(item.text)))
            else:
                header.append((players, len(item.text), item.seated_at[0], item.seated_at[1]))
        else:
            header.append((players, item))
    head = orjson.dumps(header, option=orjson.OPT_NON_STR_KEYS)
    if replies:
        tail = b",".join(b"[" + orjson.dumps(token) + b"," + reply + b"]" for token, reply in replies)
        head = head[:-1] + (b"," if header else b"") + tail + b"]"
    return head + b"\n" + b"".join(texts)


@dataclass(frozen=True, slots=True)
class Delivered:
    """A frame as a gateway receives it: its text (``text``, forwarded as is) or, rarely, the room frame
    (``frame``: a player in it must be named first); ``seated_at`` as in :class:`Encoded`."""

    players: list[int]
    text: str | None = None
    frame: dict[str, Any] | None = None
    seated_at: tuple[str, bool] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The frame as a dict (tests, and a receiver that cannot take text)."""
        if self.frame is not None:
            return self.frame
        assert self.text is not None
        return dict(orjson.loads(self.text))


def decode_delivery(data: bytes) -> tuple[list[Delivered], list[tuple[str, dict[str, Any]]]]:
    """The delivery as sent: its frames in order, and its replies (``token``, the :class:`Reply` as a dict)."""
    end = data.index(b"\n")
    items = orjson.loads(data[:end])
    if not isinstance(items, list):
        raise ValueError("a delivery header is a list of [players, n], [players, frame] and [token, reply]")
    frames: list[Delivered] = []
    replies: list[tuple[str, dict[str, Any]]] = []
    pos = end + 1
    for item in items:
        first, second = item[0], item[1]
        if isinstance(first, str):
            replies.append((first, second))
        elif isinstance(second, int):
            nxt = pos + second
            if nxt > len(data):
                raise ValueError("a delivery's frame runs past its end")
            frames.append(Delivered(first, text=data[pos:nxt].decode(),
                                    seated_at=(item[2], item[3]) if len(item) == 4 else None))
            pos = nxt
        else:
            frames.append(Delivered(first, frame=second))
    if pos != len(data):
        raise ValueError("a delivery holds bytes its header does not name")
    return frames, replies


# ------------------------------------------------------------------------------------------------ KV records

Role = Literal["gateway", "tables"]


class NodeInfo(BaseModel):
    model_config = _STRICT
    node: str
    role: Role
    url: str | None = None  # a gateway's base URL (bots and players connect there)
    started: float


class TableRecord(BaseModel):
    """One table (or Speed Poker pool, or tournament) of the room, in the ``tables`` bucket under its id.

    ``owner`` is the node that hosts it ("" while it has none: new, handed off, or its host is gone); the KV
    revision of the write that named the owner is the owner's lease epoch (the store's fencing token). ``seats``
    (seat → player) and ``button`` are as after the last settled hand; the chips are in the store."""

    model_config = ConfigDict(extra="forbid")
    id: str
    kind: Literal["cash", "speed", "tournament", "twister"]
    entry: dict[str, Any]  # the table list entry it was opened from (riverboat.server.demo format); a
    # tournament: {"spec": TournamentSpec.to_dict(), "series": bool}, a Sit & Go of the Twister offer also
    # {"twister": its TwisterSettings}; the Twister offer (kind "twister", id room.commands.TWISTER_OFFER): {}
    owner: str = ""
    seats: dict[int, int] = Field(default_factory=dict)
    button: int | None = None
    hands_played: int = 0
    lobby: LobbyEntry | None = None
    tournament: dict[str, Any] | None = None  # a tournament's lobby row (room.tournament.lobby.entry)
    offer: dict[str, Any] | None = None  # the Twister offer's lobby (room.twister.offers.TwisterOffers.lobby)

    def encode(self) -> bytes:
        return self.model_dump_json().encode()

    @classmethod
    def decode(cls, data: bytes) -> TableRecord:
        return cls.model_validate_json(data)
