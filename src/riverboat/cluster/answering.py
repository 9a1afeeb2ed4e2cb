"""A table host's NATS subscriptions' answers (a part of :class:`~riverboat.cluster.host.TableHostNode`, issue #29):
the players' commands on the subjects of the tables it owns (``Execute``: the room runs it, ``Room.execute``; the
cluster's own ops) and the other hosts' messages on its peer subject (R-SITOUT-4, a tournament's tables). A reply
rides with the gateway's next frames when it can. While the host's lease renewal is late, what comes waits (held)
and is answered once the renewal succeeds, or, when the lease was lost, for the tables the host kept."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from nats.aio.msg import Msg
from pydantic import ValidationError

from riverboat.cluster.metrics import NodeMetrics
from riverboat.cluster.names import Names
from riverboat.cluster.routes import PlayerRoutes
from riverboat.cluster.tourney import TournamentHosting
from riverboat.cluster.wire import (
    COMMAND,
    PEER,
    AliasChanged,
    Execute,
    FlightOver,
    GatewayCommand,
    HostCommand,
    Info,
    PeerBody,
    PlayerSitOut,
    Relay,
    Reply,
    TournamentDetail,
    TournamentOperate,
    TournamentRebuy,
    TournamentRegister,
    TournamentUnregister,
)
from riverboat.errors import RiverboatError, wire_error
from riverboat.room import Room, RoomError
from riverboat.room.replies import CommandReply

log = logging.getLogger("riverboat.cluster")
#: A command's answer on the host: a room command's typed reply, or the JSON object of the cluster's own ops.
Answer = CommandReply | Mapping[str, object] | None


class Answering:
    """Answers what comes on this host's subjects. ``lease_ok()``: the host may answer now."""

    def __init__(self, node: str, names: Names, room: Room, tourneys: TournamentHosting, players: PlayerRoutes,
                 metrics: NodeMetrics, *, lease_ok: Callable[[], bool]) -> None:
        self.node = node
        self.names = names
        self.room = room
        self.tourneys = tourneys
        self.players = players
        self.metrics = metrics
        self.lease_ok = lease_ok
        self.held: list[tuple[Msg, bool]] = []  # commands (msg, peer) that came while the lease was unconfirmed

    async def on_command(self, msg: Msg) -> None:
        if self.lease_ok():
            asyncio.get_running_loop().create_task(self.answer(msg))
        else:  # answered once the lease is renewed; dropped if the table's new owner has it (it answers)
            self.held.append((msg, False))

    async def on_peer(self, msg: Msg) -> None:
        """Another host: R-SITOUT-4 from its room (``cluster/elsewhere.py``), or about a tournament's tables."""
        if self.lease_ok():
            asyncio.get_running_loop().create_task(self.answer(msg, peer=True))
        else:
            self.held.append((msg, True))

    def table_of(self, msg: Msg) -> str:
        return msg.subject[len(self.names.command("")):]  # a tournament id may hold dots (an edited one)

    def answer_held(self, keep: Callable[[str], bool] | None = None) -> tuple[int, int]:
        """Answer the commands that waited for the lease (``keep``: only the peers' and those of the tables it
        says this host kept); (answered, waited)."""
        held, self.held = self.held, []
        loop = asyncio.get_running_loop()
        kept = 0
        for msg, peer in held:
            if keep is None or peer or keep(self.table_of(msg)):
                kept += 1
                loop.create_task(self.answer(msg, peer=peer))
        return kept, len(held)

    async def answer(self, msg: Msg, *, peer: bool = False) -> None:
        t0 = time.perf_counter()
        tid = self.table_of(msg)
        gateway: str | None = None
        router = self.players.router
        try:
            cmd: HostCommand | PeerBody = PEER.validate_json(msg.data) if peer else COMMAND.validate_json(msg.data)
        except ValidationError as exc:
            reply = Reply(ok=False, code="bad_request", message=str(exc))
        else:
            if isinstance(cmd, GatewayCommand):  # a gateway's (never a peer's: no peer message is one)
                gateway = cmd.gateway
                if self.players.routes.get(cmd.player) != gateway:
                    self.players.route(cmd.player, gateway)
            router.answering += 1
            try:
                result = await (self._dispatch(tid, cmd) if isinstance(cmd, GatewayCommand) else self._peer(cmd))
                reply = Reply(ok=True, result=_wire(result))
            except RiverboatError as exc:  # a refusal: the registry's code, as REST and the WebSocket give it
                wire = wire_error(exc)
                assert wire is not None
                reply = Reply(ok=False, code=wire.code, message=wire.message)
            except Exception:
                log.exception("%s: command %s at %s failed", self.node, cmd.op, tid)
                reply = Reply(ok=False, code="internal", message="internal error; the command may not have applied")
            finally:
                router.answering -= 1
        data = reply.model_dump_json(exclude_none=True).encode()
        if gateway is not None and (token := self._reply_token(gateway, msg.reply)) is not None:
            router.reply(gateway, token, data)  # with the gateway's next frames
        else:
            with contextlib.suppress(Exception):
                await msg.respond(data)
        self.metrics.command.observe(time.perf_counter() - t0)

    async def _peer(self, msg: PeerBody) -> dict[str, Any]:
        """A message from another host: R-SITOUT-4 from a table there (this room applies the rule at its own
        tables of the player), or about a tournament's tables (``cluster/tourney_tables.py``)."""
        if isinstance(msg, PlayerSitOut):
            here = self.room.sit_out_here if msg.out else self.room.sit_in_here
            return {"tables": await here(msg.player)}
        if isinstance(msg, FlightOver):  # R-TOURN-FLIGHT-3: Day 2 (if it runs here) looks whether it may start
            day2 = self.tourneys.get(msg.day2)
            if day2 is not None:
                day2.actor.post(day2.registration.tick)
            return {"day2": msg.day2, "here": day2 is not None}
        return await self.tourneys.peer(msg)

    def _reply_token(self, gateway: str, reply_to: str | None) -> str | None:
        """The token of a gateway's command whose reply may ride in that gateway's deliveries (its reply subject
        is ``Names.replies(gateway).<token>``); None: answer on the reply subject itself."""
        if not reply_to:
            return None
        prefix = self.names.replies(gateway) + "."
        if not reply_to.startswith(prefix):
            return None
        token = reply_to[len(prefix):]
        return token if token and "." not in token else None

    async def _dispatch(self, tid: str, cmd: HostCommand) -> Answer:
        room, p = self.room, cmd.player
        match cmd:
            case Execute():  # a player's command, as they sent it (issue #29): the room runs it
                return await room.execute(p, cmd.command, cmd.key)
            case Info():
                return room.table_info(tid)
            case Relay():
                return await room.relay(p, tid, cmd.frame)
            case AliasChanged():
                await room.alias_changed(p, cmd.alias)
                return {"table": tid}
            case TournamentRegister() | TournamentUnregister() | TournamentRebuy() | \
                    TournamentDetail() | TournamentOperate():
                return await self.tourneys.dispatch(tid, cmd)
        raise RoomError("bad_request", f"unknown command {cmd.op!r}")


def _wire(result: Answer) -> dict[str, object]:
    """A command's answer as the reply carries it: a room command's typed reply as its JSON object (the gateway parses
    it back by the command's reply type), the cluster's own ops' objects as they are."""
    if isinstance(result, CommandReply):
        return result.wire()
    return dict(result) if result is not None else {}
