"""A gateway's commands and their replies (riverboat.cluster.remote, issue #15), over the real NATS server at
127.0.0.1:4222: the reply rides in the host's delivery of frames to the gateway (one NATS message for an action's
frames and its answer), after the frames; a reply published on the reply subject still works (a host's held
commands, peers); a command that reached no host (NATS's *no responders*) is sent again for a short while, so a
table handed between hosts takes it, and only then is ``table_unavailable``; a host that does not answer is
``table_timeout``. R-SERVER-1: a table between hosts answers with a clear error, never a hang."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import pytest

from riverboat.cluster.link import drop_room
from riverboat.cluster.names import Names
from riverboat.cluster.remote import RemoteRoom
from riverboat.cluster.wire import COMMAND, Reply, TableRecord, encode_delivery, encode_frame
from riverboat.room.commands import ActFrame
from riverboat.room.errors import RoomError
from riverboat.room.replies import Acted, SpeedActed

NATS_URL = "nats://127.0.0.1:4222"
TABLE = "t1-test"


async def _with_gateway(body: Any, timeout: float = 5.0, unavailable_retry: float = 2.0) -> None:
    names = Names(prefix=f"rbt{secrets.token_hex(4)}")
    gw = RemoteRoom(NATS_URL, "gw-test", names=names, timeout=timeout, unavailable_retry=unavailable_retry)
    await gw.start()
    gw.records.items[TABLE] = (TableRecord(id=TABLE, kind="cash", entry={}), 1)
    try:
        await body(gw, names)
    finally:
        await gw.stop()
        await drop_room(NATS_URL, names)


def test_r_server_1_the_reply_rides_after_the_actions_frames_in_one_message() -> None:
    async def body(gw: RemoteRoom, names: Names) -> None:
        seen: list[Any] = []
        gw.attach(7, lambda frame: asyncio.sleep(0), immediate=seen.append)
        host = gw.link.client
        published: list[str] = []

        async def answer(msg: Any) -> None:  # the host: the frames of the action and its reply, one message
            cmd = COMMAND.validate_json(msg.data)
            token = msg.reply[len(names.replies(cmd.gateway)) + 1:]
            frame = {"type": "event", "table": TABLE, "event": {"kind": "action", "player": cmd.player}}
            reply = Reply(ok=True, result={"ok": True, "hand": f"h-{cmd.command.kind}"}).model_dump_json().encode()
            published.append(names.gateway(cmd.gateway))
            await host.publish(names.gateway(cmd.gateway), encode_delivery([(frame, [7])], [(token, reply)]))

        await host.subscribe(names.command(TABLE), cb=answer)
        result = await gw.execute(7, ActFrame(v=1, type="act", table=TABLE, kind="call"))
        assert result == SpeedActed(hand="h-call")  # issue #29: typed, parsed back by the act's reply types
        assert seen == [{"type": "event", "table": TABLE, "event": {"kind": "action", "player": 7}}]  # first
        assert published == [names.gateway("gw-test")]
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body))


def test_r_alias_1_a_hosts_encoded_frames_reach_the_connection_as_sent_and_keep_the_players_tables() -> None:
    """A delivery's encoded frames go to the player's ``encoded`` receiver as the host's text, unchanged (the
    gateway decodes none of them); a frame the host left unnamed goes to ``immediate`` as a dict; without an
    ``encoded`` receiver the text is decoded for ``immediate``. The ``table_state`` items keep ``tables_of``
    (the tables where the last view showed the player seated) without the view being decoded."""
    async def body(gw: RemoteRoom, names: Names) -> None:
        texts: list[str] = []
        dicts: list[Any] = []
        plain: list[Any] = []
        gw.attach(7, lambda frame: asyncio.sleep(0), immediate=dicts.append, encoded=texts.append)
        gw.attach(8, lambda frame: asyncio.sleep(0), immediate=plain.append)
        seated = {"type": "table_state", "table": TABLE, "view": {"seats": [], "you": {"seat": 3}}}
        event = {"type": "event", "table": TABLE, "event": {"kind": "posted", "seat": 3, "amount": 5}}
        unnamed = {"type": "event", "table": TABLE, "event": {"kind": "seated", "seat": 3, "player": 7}}
        enc_seated, enc_event = encode_frame(seated), encode_frame(event)  # type: ignore[arg-type]
        data = encode_delivery([(enc_seated, [7]), (enc_event, [7, 8]), (unnamed, [7])])  # type: ignore[list-item]
        await gw.link.client.publish(names.gateway("gw-test"), data)
        for _ in range(200):
            if len(texts) == 2 and dicts and plain:
                break
            await asyncio.sleep(0.01)
        assert texts == [enc_seated.text.decode(), enc_event.text.decode()]  # type: ignore[union-attr]
        assert dicts == [unnamed]
        assert plain == [{"v": 1, **event}]
        assert gw.tables_of(7) == [TABLE] and gw.tables_of(8) == []

        watching = {"type": "table_state", "table": TABLE, "view": {"seats": [], "you": None}}  # left the seat
        await gw.link.client.publish(names.gateway("gw-test"),
                                     encode_delivery([(encode_frame(watching), [7])]))  # type: ignore[arg-type]
        for _ in range(200):
            if len(texts) == 3:
                break
            await asyncio.sleep(0.01)
        assert gw.tables_of(7) == []

    asyncio.run(_with_gateway(body))


def test_a_reply_published_on_the_reply_subject_is_taken_too() -> None:
    async def body(gw: RemoteRoom, names: Names) -> None:
        async def answer(msg: Any) -> None:
            await msg.respond(Reply(ok=False, code="not_your_turn", message="wait for your turn")
                              .model_dump_json().encode())

        await gw.link.client.subscribe(names.command(TABLE), cb=answer)
        with pytest.raises(RoomError) as err:
            await gw.execute(7, ActFrame(v=1, type="act", table=TABLE, kind="call"))
        assert err.value.code == "not_your_turn"

    asyncio.run(_with_gateway(body))


def test_r_server_1_no_host_for_the_table_is_table_unavailable_after_a_short_retry() -> None:
    """No host has the table (its host died and its lease has not expired yet): the command is sent again for the
    retry budget (0.3 s here), then the player hears ``table_unavailable`` -- not after the 5 s command timeout."""
    async def body(gw: RemoteRoom, names: Names) -> None:
        t = time.monotonic()
        with pytest.raises(RoomError) as err:
            await gw.execute(7, ActFrame(v=1, type="act", table=TABLE, kind="call"))
        assert err.value.code == "table_unavailable"
        assert 0.15 <= time.monotonic() - t < 1.0  # retried for the budget; NATS said so each time
        assert gw.unavailable_retries >= 3  # 25, 50, 100 ms...
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body, unavailable_retry=0.3))


def test_r_server_1_a_table_handed_between_hosts_takes_the_command_once() -> None:
    """A table being handed from one host to another (balancing): for a moment nobody subscribes to its subject.
    The player's action is not refused: the gateway sends it again until the new host has the table, which applies
    it exactly once (the attempts that found no host reached nobody)."""
    async def body(gw: RemoteRoom, names: Names) -> None:
        applied: list[int] = []

        async def answer(msg: Any) -> None:
            cmd = COMMAND.validate_json(msg.data)
            applied.append(cmd.player)
            await msg.respond(Reply(ok=True, result={"ok": True}).model_dump_json().encode())

        async def new_host_takes_the_table() -> None:
            await asyncio.sleep(0.3)
            await gw.link.client.subscribe(names.command(TABLE), cb=answer)

        taking = asyncio.create_task(new_host_takes_the_table())
        t = time.monotonic()
        assert await gw.execute(7, ActFrame(v=1, type="act", table=TABLE, kind="call")) == Acted()
        await taking
        assert applied == [7]
        assert 0.25 <= time.monotonic() - t < 1.5
        assert gw.unavailable_retries >= 2
        assert b"riverboat_command_retries_total " + str(float(gw.unavailable_retries)).encode() in \
            gw.metrics.render()
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body))


def test_a_host_that_does_not_answer_is_table_timeout() -> None:
    async def body(gw: RemoteRoom, names: Names) -> None:
        async def silent(msg: Any) -> None:
            return None

        await gw.link.client.subscribe(names.command(TABLE), cb=silent)
        t = time.monotonic()
        with pytest.raises(RoomError) as err:
            await gw.execute(7, ActFrame(v=1, type="act", table=TABLE, kind="call"))
        assert err.value.code == "table_timeout"
        assert 0.25 <= time.monotonic() - t < 2.0
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body, timeout=0.3))
