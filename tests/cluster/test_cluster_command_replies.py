"""A gateway's commands and their replies (riverboat.cluster.remote, issue #15), over the real NATS server at
127.0.0.1:4222: the reply rides in the host's delivery of frames to the gateway (one NATS message for an action's
frames and its answer), after the frames; a reply published on the reply subject still works (a host's held
commands, peers); no host for the table is ``table_unavailable`` at once (NATS's *no responders*), a host that does
not answer is ``table_timeout``. R-SERVER-1: a table between hosts answers with a clear error, never a hang."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import pytest

from riverboat.cluster.link import drop_room
from riverboat.cluster.names import Names
from riverboat.cluster.remote import RemoteRoom
from riverboat.cluster.wire import COMMAND, Reply, TableRecord, encode_delivery
from riverboat.room.errors import RoomError

NATS_URL = "nats://127.0.0.1:4222"
TABLE = "t1-test"


async def _with_gateway(body: Any, timeout: float = 5.0) -> None:
    names = Names(prefix=f"rbt{secrets.token_hex(4)}")
    gw = RemoteRoom(NATS_URL, "gw-test", names=names, timeout=timeout)
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
            reply = Reply(ok=True, result={"table": TABLE, "acted": cmd.kind}).model_dump_json().encode()
            published.append(names.gateway(cmd.gateway))
            await host.publish(names.gateway(cmd.gateway), encode_delivery([(frame, [7])], [(token, reply)]))

        await host.subscribe(names.command(TABLE), cb=answer)
        result = await gw.act(7, TABLE, "call")
        assert result == {"table": TABLE, "acted": "call"}
        assert seen == [{"type": "event", "table": TABLE, "event": {"kind": "action", "player": 7}}]  # first
        assert published == [names.gateway("gw-test")]
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body))


def test_a_reply_published_on_the_reply_subject_is_taken_too() -> None:
    async def body(gw: RemoteRoom, names: Names) -> None:
        async def answer(msg: Any) -> None:
            await msg.respond(Reply(ok=False, code="not_your_turn", message="wait for your turn")
                              .model_dump_json().encode())

        await gw.link.client.subscribe(names.command(TABLE), cb=answer)
        with pytest.raises(RoomError) as err:
            await gw.act(7, TABLE, "call")
        assert err.value.code == "not_your_turn"

    asyncio.run(_with_gateway(body))


def test_r_server_1_no_host_for_the_table_is_table_unavailable_at_once() -> None:
    async def body(gw: RemoteRoom, names: Names) -> None:
        t = time.monotonic()
        with pytest.raises(RoomError) as err:
            await gw.act(7, TABLE, "call")
        assert err.value.code == "table_unavailable"
        assert time.monotonic() - t < 1.0  # NATS said so: not the 5 s timeout
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body))


def test_a_host_that_does_not_answer_is_table_timeout() -> None:
    async def body(gw: RemoteRoom, names: Names) -> None:
        async def silent(msg: Any) -> None:
            return None

        await gw.link.client.subscribe(names.command(TABLE), cb=silent)
        t = time.monotonic()
        with pytest.raises(RoomError) as err:
            await gw.act(7, TABLE, "call")
        assert err.value.code == "table_timeout"
        assert 0.25 <= time.monotonic() - t < 2.0
        assert gw._waiting == {}

    asyncio.run(_with_gateway(body, timeout=0.3))
