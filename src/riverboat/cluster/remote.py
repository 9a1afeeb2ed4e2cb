"""The gateway's room (``riverboat serve --role gateway``): the interface the server uses of
:class:`riverboat.room.Room`, with every command forwarded over NATS to the host that owns the table.

- commands: request/reply on the table's subject (:mod:`riverboat.cluster.wire` models) with a timeout; when no
  host answers (``no responders``: the host is gone and no survivor has taken the table yet) the player gets
  ``table_unavailable``, a clear error, and may try again within seconds. The reply subject is this gateway's
  ``Names.replies(node).<token>``: the host puts the reply in its next delivery of frames to this gateway (one
  NATS message for an action's frames and its reply, :mod:`riverboat.cluster.delivery`), or publishes it on the
  reply subject (a host's peers, older hosts); NATS's *no responders* status arrives there too;
- frames: the hosts publish the frames of this gateway's players on its subject, batched and already encoded
  (:mod:`riverboat.cluster.delivery`); each frame's text is handed to the player's ``encoded`` callable (the
  server queues it for every tab of the player), and a frame the host could not name is handed, as a dict, to
  the ``immediate`` one the server gives a local room (aliases named and encoded there);
- presence: ``attach`` writes ``player -> this gateway`` in the ``presence`` bucket (the hosts then send the
  player's tables again: a reconnect through any gateway gets the tables back, within the R-DISC window);
  ``detach`` deletes it if it still names this gateway;
- the lobby: the union of every host's tables, from the ``tables`` bucket (a watcher keeps it current).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
from nats.aio.msg import Msg
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

from riverboat.cluster.batches import gather_in_batches
from riverboat.cluster.deadlines import Deadlines
from riverboat.cluster.identity import claim_room
from riverboat.cluster.link import LEASE_SECONDS, Link
from riverboat.cluster.metrics import NodeMetrics
from riverboat.cluster.mirror import KvMirror
from riverboat.cluster.names import Names, record_id
from riverboat.cluster.outbox import COMMAND_WINDOW_S, Outbox
from riverboat.cluster.twister import RemoteTwister
from riverboat.cluster.wire import (
    AliasChanged,
    Execute,
    GatewayCommand,
    Info,
    NodeInfo,
    Relay,
    Reply,
    TableRecord,
    TournamentDetail,
    TournamentOperate,
    decode_delivery,
)
from riverboat.room.commands import Result, RoomCommand, target_of
from riverboat.room.errors import RoomError
from riverboat.room.frames import LobbyEntry, RoomFrame
from riverboat.room.replies import parse_reply
from riverboat.room.tournament.flights import FlightEvent
from riverboat.room.tournament.lobby import TWISTER_PREFIXES
from riverboat.room.tournament.spec import TournamentSpec

log = logging.getLogger("riverboat.cluster")
COMMAND_TIMEOUT = 5.0
#: a command that reached no host (NATS's *no responders*) is sent again for this long before the player hears
#: ``table_unavailable`` (a table handed between hosts is taken within a second: the player never notices)
UNAVAILABLE_RETRY_S = 2.0
UNAVAILABLE_FIRST_DELAY_S = 0.025
UNAVAILABLE_MAX_DELAY_S = 0.4
Sink = Callable[[RoomFrame], Awaitable[None]]
C = TypeVar("C", bound=GatewayCommand)


PRESENCE_ATTEMPTS = 6  # a presence write that fails is tried again after 0.5, 1, 2, 4, 8 s
PRESENCE_BACKOFF_S = 0.5
FORGET_BATCH = 256  # presences deleted at once when the gateway stops


class RemoteRoom:
    def __init__(self, nats_url: str, node: str, *, names: Names | None = None, url: str | None = None,
                 lease_seconds: float = LEASE_SECONDS, timeout: float = COMMAND_TIMEOUT,
                 unavailable_retry: float = UNAVAILABLE_RETRY_S, command_window: float = COMMAND_WINDOW_S,
                 database: str | None = None) -> None:
        self.node = node
        self.database = database  # the store's identity (cluster.identity): checked against the room's at start
        self.names = names or Names()
        self.url = url
        self.timeout = timeout
        self.unavailable_retry = unavailable_retry
        self.unavailable_retries = 0  # commands sent again after *no responders* (statistics)
        self.link = Link(nats_url, self.names, lease_seconds=lease_seconds, name=node)
        self.records: KvMirror[TableRecord] = KvMirror(lambda: self.link.tables, TableRecord.decode,
                                                       self._record_changed, name="tables", key_of=record_id)
        # the ids of the Speed Poker pools and cash tables, kept with the mirror (the server asks ``pools`` at every
        # ``act``: a scan of every record there cost O(tables) per action)
        self._kinds: dict[str, set[str]] = {"speed": set(), "cash": set()}
        self.twisters: set[str] = set()  # the Twisters' records (a login looks up the player's among them only)
        self.metrics = NodeMetrics(node, "gateway")
        self._immediate: dict[int, Callable[[Any], None]] = {}
        self._encoded: dict[int, Callable[[str], None]] = {}  # player -> who takes their frames as text
        self._seated: dict[int, set[str]] = {}  # player -> cash tables where the last view showed them seated
        self._tasks: list[asyncio.Task[None]] = []
        self.metrics.players.set_function(lambda: float(len(self._immediate)))
        self.started = time.time()
        self.tournaments = RemoteTournaments(self)
        self.twister = RemoteTwister(self)  # the Twister offer and its Sit & Go's run on a table host
        self._replies_to = self.names.replies(node) + "."
        self._tokens = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[Reply | None]] = {}  # token -> its reply (None: no responders)
        self.deadlines = Deadlines(timeout)  # each of them fails with TimeoutError after ``timeout``: one timer
        self.outbox = Outbox(self._publish_command, command_window)  # commands: at most one NATS write per window
        self.metrics.command_window.set(command_window)
        self.metrics.commands_sent.set_function(lambda: float(self.outbox.commands))
        self.metrics.command_writes.set_function(lambda: float(self.outbox.writes))

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> list[tuple[str, str]]:
        await self.link.connect()
        if self.database is not None:  # a gateway of another database's room stops here (RoomMismatch)
            await claim_room(self.link.room, self.names.prefix, self.database)
        self.link.on_reconnect(self._reconnected)
        await self.announce()
        await self.records.start()
        await self.link.client.subscribe(self.names.gateway(self.node), cb=self._on_delivery)
        await self.link.client.subscribe(self._replies_to + "*", cb=self._on_reply)
        self._tasks.append(asyncio.get_running_loop().create_task(self._heartbeat_loop(), name=f"{self.node}:hb"))
        return []

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        # a batch at a time (10,000 one by one: two NATS round trips each)
        await gather_in_batches(self._forget, list(self._immediate), FORGET_BATCH, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.link.nodes.delete(self.node)
        await self.records.stop()
        await self.link.close()
        self.deadlines.close()  # a command still waiting can no longer be answered: table_timeout now

    def set_url(self, url: str) -> None:
        self.url = url

    async def announce(self) -> None:
        """Renew this gateway's node key (with its URL: bots and players connect there)."""
        info = NodeInfo(node=self.node, role="gateway", url=self.url, started=self.started)
        await self.link.nodes.put(self.node, info.model_dump_json().encode())

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.link.lease_seconds / 4)
            with contextlib.suppress(Exception):
                await self.announce()
                if rtt := await self.link.measure_rtt():
                    self.metrics.nats_rtt.set(rtt)
            self.metrics.nats_reconnects.set(self.link.reconnects)

    async def _reconnected(self) -> None:
        await self.records.restart()
        with contextlib.suppress(Exception):
            await self.announce()
        for pid in list(self._immediate):  # the hosts may have thought this gateway gone: say where they are
            with contextlib.suppress(Exception):
                await self.link.presence.put(str(pid), self.node.encode())

    # ------------------------------------------------------------------ lobby
    def _records(self) -> list[TableRecord]:
        def order(rec: TableRecord) -> tuple[int, str]:
            head = rec.id.split("-", 1)[0][1:]
            return (int(head) if head.isdigit() else 0, rec.id)

        return sorted((rec for rec, _ in self.records.items.values()), key=order)

    def lobby(self) -> list[LobbyEntry]:
        return [rec.lobby for rec in self._records() if rec.lobby is not None]

    def lobby_entry(self, table_id: str) -> LobbyEntry | None:
        """As :meth:`Room.lobby_entry`: the entry the table's host last wrote (None: no such table or pool)."""
        rec = self.records.items.get(table_id)
        return rec[0].lobby if rec is not None else None

    def _record_changed(self, key: str, rec: TableRecord | None) -> None:
        if rec is not None and rec.kind == "tournament" and key.startswith(TWISTER_PREFIXES):
            self.twisters.add(key)
        else:
            self.twisters.discard(key)
        for kind, ids in self._kinds.items():
            if rec is not None and rec.kind == kind:
                ids.add(key)
            else:
                ids.discard(key)

    @property
    def pools(self) -> set[str]:
        """The Speed Poker pools' ids (a live set: read it, do not change it)."""
        return self._kinds["speed"]

    @property
    def tables(self) -> set[str]:
        """The cash tables' ids (a live set: read it, do not change it)."""
        return self._kinds["cash"]

    def owner_of(self, table_id: str) -> str | None:
        rec = self.records.items.get(table_id)
        return rec[0].owner if rec is not None else None

    # ------------------------------------------------------------------ players and delivery
    def attach(self, player_id: int, sink: Sink, *, immediate: Callable[[Any], None] | None = None,
               encoded: Callable[[str], None] | None = None) -> None:
        """As :meth:`Room.attach`. ``encoded``: takes the frames the hosts encoded (their text, forwarded as is:
        the server's ``Connection.deliver_text``); without it they are decoded for ``immediate``."""
        if immediate is None:
            queue_sink = sink

            def immediate(frame: Any) -> None:
                asyncio.ensure_future(queue_sink(frame))

        if encoded is None:
            as_dict = immediate

            def encoded(text: str) -> None:
                as_dict(orjson.loads(text))

        self._immediate[player_id] = immediate
        self._encoded[player_id] = encoded
        asyncio.ensure_future(self._put_presence(player_id))

    async def _put_presence(self, player_id: int, attempts: int = PRESENCE_ATTEMPTS,
                            backoff: float = PRESENCE_BACKOFF_S) -> None:
        """Record that the player is connected here, trying again while they stay connected: a host that takes one
        of their tables later (a failover, balancing) routes them by this record, and without it they got no frames
        there -- no turn -- until they sent a command (a write timed out 43 times under load at 10,000 bots)."""
        for attempt in range(attempts):
            try:
                await self.link.presence.put(str(player_id), self.node.encode())
                return
            except Exception:
                if attempt == attempts - 1:
                    log.warning("%s: could not record the presence of player %s", self.node, player_id,
                                exc_info=True)
                    return
            await asyncio.sleep(backoff * 2 ** attempt)
            if player_id not in self._immediate:
                return  # gone meanwhile

    def detach(self, player_id: int) -> None:
        self._immediate.pop(player_id, None)
        self._encoded.pop(player_id, None)
        self._seated.pop(player_id, None)
        asyncio.ensure_future(self._forget(player_id))

    async def _forget(self, player_id: int) -> None:
        """Delete the player's presence if it still names this gateway (they may have reconnected elsewhere). NATS
        away or too slow (a gateway stopping drops all its players at once): the presence stays, which the hosts
        handle like any stale route (the gateway's key goes, R-DISC); nothing is logged per player."""
        self._immediate.pop(player_id, None)
        self._encoded.pop(player_id, None)
        kv = self.link.presence
        try:
            entry = await kv.get(str(player_id))
            if entry.value == self.node.encode():
                with contextlib.suppress(KeyWrongLastSequenceError):
                    await kv.delete(str(player_id), last=entry.revision)
        except KeyNotFoundError:
            return
        except Exception as exc:  # noqa: BLE001 - a NATS timeout or a closed connection
            log.debug("%s: presence of player %s not forgotten: %r", self.node, player_id, exc)

    def is_connected(self, player_id: int) -> bool:
        return player_id in self._immediate

    async def _on_delivery(self, msg: Msg) -> None:
        try:
            batch, replies = decode_delivery(msg.data)
        except Exception:
            log.warning("%s: unreadable delivery", self.node, exc_info=True)
            return
        for item in batch:
            players, text = item.players, item.text
            if item.seated_at is not None:
                self._track(item.seated_at, players)
            if text is None:  # a frame the gateway names (a player without an alias in it)
                self._hand_out(item.as_dict(), players, self._immediate)
            else:
                self._hand_out(text, players, self._encoded)
        for token, data in replies:  # after the frames: an action's events reach the player before its answer
            try:
                self._answered(token, Reply.model_validate(data))
            except Exception:
                log.warning("%s: unreadable reply %r", self.node, token, exc_info=True)

    @staticmethod
    def _hand_out(frame: Any, players: list[int], receivers: dict[int, Callable[[Any], None]]) -> None:
        for pid in players:
            fn = receivers.get(pid)
            if fn is not None:
                try:
                    fn(frame)
                except Exception:
                    log.exception("delivery to player %s failed", pid)

    async def _on_reply(self, msg: Msg) -> None:
        """A reply published on its reply subject, or NATS's *no responders* status (no host owns the table)."""
        token = msg.subject[len(self._replies_to):]
        if msg.headers and msg.headers.get("Status") == "503":
            self._answered(token, None)
            return
        try:
            self._answered(token, Reply.model_validate_json(msg.data))
        except Exception:
            log.warning("%s: unreadable reply %r", self.node, token, exc_info=True)

    def _answered(self, token: str, reply: Reply | None) -> None:
        fut = self._waiting.get(token)
        if fut is not None and not fut.done():
            fut.set_result(reply)

    def _track(self, seated_at: tuple[str, bool], players: list[int]) -> None:
        """A ``table_state`` went to ``players``: whether its view showed them seated at the table (``tables_of``)."""
        table, seated = seated_at
        for pid in players:
            if seated:
                self._seated.setdefault(pid, set()).add(table)
            elif pid in self._seated:
                self._seated[pid].discard(table)

    def tables_of(self, player_id: int) -> list[str]:
        return sorted(self._seated.get(player_id, ()))

    def table_audience(self, table_id: str) -> set[int]:
        raise RoomError("not_here", "the audience of a table is known to its host: use relay()")

    async def relay(self, player_id: int, table_id: str, frame: dict[str, Any]) -> dict[str, Any]:
        """Send a frame (table chat) to the table's audience through its host (``not_at_table`` if the player
        neither sits nor watches there)."""
        return await self._request(table_id, self._c(Relay, player_id, frame=frame))

    def send(self, player_id: int, message: RoomFrame) -> None:
        fn = self._immediate.get(player_id)
        if fn is not None:
            fn(message)

    async def alias_changed(self, player_id: int, alias: str | None) -> None:
        """R-ALIAS-2: the hosts of the player's tables name them by the new alias at once."""
        for tid in self.tables_of(player_id):
            with contextlib.suppress(RoomError):
                await self._request(tid, self._c(AliasChanged, player_id, alias=alias))

    # ------------------------------------------------------------------ commands
    async def _request(self, table_id: str, command: GatewayCommand) -> dict[str, Any]:
        """Send the command to the table's host and return its result (or raise its refusal). NATS's *no
        responders* means no host subscribes to the table's subject: the command reached nobody and was not
        applied, so it is sent again, after 25, 50, 100... ms (at most 400), for up to ``unavailable_retry``
        seconds: a table handed from one host to another (balancing, a host stopping) is taken within a second,
        and the player's action then goes through instead of failing. Only after that is it ``table_unavailable``
        (a host that died: its tables come back once its lease expires)."""
        if not isinstance(table_id, str) or table_id not in self.records.items:
            raise RoomError("no_table", f"no table {table_id!r}")
        t0 = time.perf_counter()
        subject, data = self.names.command(table_id), command.model_dump_json().encode()
        loop = asyncio.get_running_loop()
        give_up = loop.time() + min(self.unavailable_retry, self.timeout)
        delay = UNAVAILABLE_FIRST_DELAY_S
        while (reply := await self._send(table_id, subject, data)) is None:
            if loop.time() + delay > give_up:
                self.metrics.errors.labels("table_unavailable").inc()
                raise RoomError("table_unavailable", f"table {table_id} is between hosts (its host is gone); "
                                "it is back within seconds: try again")
            self.unavailable_retries += 1
            self.metrics.retries.inc()
            await asyncio.sleep(delay)
            delay = min(delay * 2, UNAVAILABLE_MAX_DELAY_S)
        self.metrics.action.observe(time.perf_counter() - t0)
        if not reply.ok:
            self.metrics.errors.labels(reply.code or "refused").inc()
            raise RoomError(reply.code or "refused", reply.message or "refused")
        return reply.result or {}

    async def _send(self, table_id: str, subject: str, data: bytes) -> Reply | None:
        """One attempt: the host's reply, or None (*no responders*: no host has the table now)."""
        token = format(next(self._tokens), "x")
        fut: asyncio.Future[Reply | None] = asyncio.get_running_loop().create_future()
        self._waiting[token] = fut
        self.deadlines.watch(fut)
        try:
            self.outbox.put(subject, data, self._replies_to + token, fut)  # with the other commands of the window
            return await fut
        except TimeoutError:
            self.metrics.errors.labels("table_timeout").inc()
            raise RoomError("table_timeout", f"the host of table {table_id} did not answer within "
                            f"{self.timeout:.0f} s; the command may not have been applied") from None
        finally:
            del self._waiting[token]

    def _publish_command(self, subject: str, data: bytes, reply: str) -> Awaitable[None]:
        return self.link.client.publish(subject, data, reply=reply)  # the outbox awaits it: no coroutine of our own

    def _c(self, cls: type[C], player_id: int, **fields: object) -> C:
        return cls(player=player_id, gateway=self.node, **fields)

    async def execute(self, player_id: int, command: RoomCommand, key: str | None = None) -> Result:
        """As :meth:`Room.execute`: the command as it is, to the host of its table, pool or tournament (issue #29:
        one generic forward; the host runs it with its room's ``execute``), and its typed reply, parsed back by the
        command's reply type (the host sent its JSON object)."""
        result = await self._request(target_of(command), Execute(player=player_id, gateway=self.node,
                                                                 command=command, key=key))
        return parse_reply(command.type, result)

    @property
    def store_gateway(self) -> None:
        return None  # the server opens its own: this node runs no table

    async def table_view(self, table_id: str) -> Any:
        return await self.table_info(table_id)

    async def table_info(self, table_id: str) -> dict[str, Any]:
        rec = self.records.items.get(table_id) if isinstance(table_id, str) else None
        if rec is not None and rec[0].kind == "speed" and rec[0].lobby is not None:
            return dict(rec[0].lobby)
        return await self._request(table_id, self._c(Info, 0))


class RemoteTournament:
    """A tournament of the cluster as the gateway's operator routes name it (its players' commands go through
    :meth:`RemoteRoom.execute`, to the host that runs it)."""

    def __init__(self, room: RemoteRoom, tournament_id: str) -> None:
        self.room = room
        self.id = tournament_id


class RemoteTournaments:
    """The room's tournaments seen from a gateway (the interface of
    :class:`~riverboat.room.tournament.lobby.TournamentLobby` the server uses): the lobby's tabs from the
    ``tables`` bucket (each host writes its tournaments' rows, fresh within a second), commands to their hosts."""

    OVER_HIDDEN = frozenset({"cancelled", "interrupted"})

    def __init__(self, room: RemoteRoom) -> None:
        self.room = room

    def _rows(self) -> dict[str, TableRecord]:
        """The tournaments' records; the Twister offer's Sit & Go's are the offer's (``hub.twister``), as in one
        process."""
        return {tid: rec for tid, (rec, _) in self.room.records.items.items()
                if rec.kind == "tournament" and not tid.startswith(TWISTER_PREFIXES)}

    @property
    def directors(self) -> dict[str, RemoteTournament]:
        return {tid: RemoteTournament(self.room, tid) for tid in self._rows()}

    def get(self, tournament_id: str) -> RemoteTournament:
        if tournament_id not in self._rows():
            raise RoomError("no_tournament", f"no tournament {tournament_id!r}")
        return RemoteTournament(self.room, tournament_id)

    async def create(self, spec: TournamentSpec, tournament_id: str, *, series: bool = False) -> RemoteTournament:
        """A new tournament: its record; a table host takes it and opens registration."""
        from riverboat.cluster.tourney import create_tournament

        if not await create_tournament(self.room.link, tournament_id, spec, series=series):
            raise RoomError("bad_settings", f"tournament {tournament_id!r} already exists")
        await self._hosted(tournament_id)
        return RemoteTournament(self.room, tournament_id)

    async def create_flights(self, event: FlightEvent) -> dict[str, Any]:
        """R-TOURN-FLIGHT-1 through a gateway, as ``TournamentLobby.create_flights``: Day 2 first, hosted (its store
        row holds the pool the flights' buy-ins go to), then each Day 1 flight; a flight's end wakes Day 2 on its
        host (``cluster.tourney``)."""
        ids = [event.day2_id, *(tid for tid, _ in event.flights)]
        for tid in ids:
            if tid in self._rows():
                raise RoomError("bad_settings", f"tournament {tid!r} already exists")
        await self.create(event.day2, event.day2_id)
        for tid, spec in event.flights:
            await self.create(spec, tid)
        return {"event": event.event, "day2": event.day2_id, "flights": ids[1:]}

    async def _hosted(self, tournament_id: str) -> None:
        """Wait (at most the command timeout) until a host runs the tournament and has written its lobby row, so
        that the caller's next question (the operator route's detail) has somebody to answer it."""
        deadline = time.monotonic() + self.room.timeout
        while time.monotonic() < deadline:
            rec = self._rows().get(tournament_id)
            if rec is not None and rec.owner and rec.tournament is not None:
                return
            await asyncio.sleep(0.02)

    def lobby(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {"sng": [], "mtt": []}
        for rec in sorted(self._rows().values(), key=lambda r: r.id):
            row = rec.tournament
            if row is None or row.get("status") in self.OVER_HIDDEN:
                continue
            out["sng" if row.get("kind") == "sng" else "mtt"].append(row)
        return out

    async def detail(self, tournament_id: str) -> dict[str, Any]:
        self.get(tournament_id)
        return await self.room._request(tournament_id, self.room._c(TournamentDetail, 0))

    async def close(self) -> None:
        """Nothing to stop at a gateway: the tournaments run on their hosts."""

    async def recover(self) -> dict[str, list[str]]:
        """Nothing to recover at a gateway: a host that takes a tournament's lease resumes it (docs/cluster.md)."""
        return {"resumed": [], "cancelled": []}

    async def connected(self, player_id: int) -> None:
        """A player logged in here: their presence (written by ``attach``) tells the hosts, whose tournaments then
        stop sitting them out (R-TOURN-REG-5)."""

    def disconnected(self, player_id: int) -> None:
        """A player's last connection here closed: their presence goes (``detach``), which tells the hosts, whose
        tournaments then apply R-DISC-1/2."""

    # ------------------------------------------------------------------ operator powers (R-OPER-1..5, R-INTEG-5)
    async def _operate(self, tournament_id: str, operator_id: int, action: str, **fields: object) -> dict[str, Any]:
        self.get(tournament_id)
        return await self.room._request(tournament_id, self.room._c(TournamentOperate, operator_id, action=action,
                                                                    **fields))

    async def edit(self, tournament_id: str, changes: dict[str, Any]) -> RemoteTournament:
        """R-OPER-2: the tournament's host checks and applies the change; the edited tournament has a new id (as in
        one process), whose record this gateway waits for before answering (its detail is read next)."""
        result = await self._operate(tournament_id, 0, "edit", changes=dict(changes))
        new = str(result["tournament"])
        await self._hosted(new)
        return self.get(new)

    async def cancel(self, tournament_id: str) -> dict[str, Any]:
        return await self._operate(tournament_id, 0, "cancel")

    async def interrupt(self, tournament_id: str) -> dict[str, Any]:
        return await self._operate(tournament_id, 0, "interrupt")

    async def disqualify(self, tournament_id: str, player_id: int, operator_id: int) -> dict[str, Any]:
        return await self._operate(tournament_id, operator_id, "disqualify", target=player_id)
