"""A bot whose server goes away (a cluster gateway or ``riverboat serve`` stopping: close code 1012, R-DISC) ends its
turn quietly: the protocol client raises the one error its callers handle for a closed connection
(``ConnectionError``), not the websockets library's own, which a bot's turn task did not catch and asyncio logged
as "Task exception was never retrieved" at every cluster shutdown."""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from riverboat.bots.client import ProtocolClient
from riverboat.bots.player import Bot
from riverboat.bots.strategies import CallingStation

#: a decision for seat 0 (what ``legal_of`` / ``decision_from_view`` read of a table_state view)
VIEW = {"you": {"seat": 0, "stack": 1000}, "legal": {"seat": 0, "kinds": ["fold", "check"], "call": 0}}


async def _server_that_leaves(closed: asyncio.Event) -> Any:
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()  # auth
        await ws.send('{"v":1,"type":"welcome","player_id":7}')
        await ws.close(1012, "server stopping")
        closed.set()

    return await serve(handler, "127.0.0.1", 0)


async def test_r_disc_a_request_on_a_closed_connection_raises_connection_error() -> None:
    closed = asyncio.Event()
    async with await _server_that_leaves(closed) as server:
        port = server.sockets[0].getsockname()[1]
        client = ProtocolClient(f"ws://127.0.0.1:{port}/ws", "token")
        await client.connect()
        await asyncio.wait_for(closed.wait(), 5)
        await asyncio.wait_for(client.closed.wait(), 5)
        with pytest.raises(ConnectionError):
            await client.act("t1", "check")
        assert client._pending == {}  # nothing left waiting for an answer that cannot come
        await client.close()


async def test_r_disc_a_bots_turn_ends_quietly_when_the_server_went_away(caplog: pytest.LogCaptureFixture) -> None:
    closed = asyncio.Event()
    async with await _server_that_leaves(closed) as server:
        port = server.sockets[0].getsockname()[1]
        client = ProtocolClient(f"ws://127.0.0.1:{port}/ws", "token")
        await client.connect()
        await asyncio.wait_for(client.closed.wait(), 5)
        bot = Bot(client, CallingStation(), think=0.0)
        errors: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: errors.append(ctx))
        with caplog.at_level(logging.ERROR):
            client._dispatch({"type": "table_state", "table": "t1", "view": VIEW})  # its turn, after the close
            tasks = list(bot._tasks)
            assert len(tasks) == 1, "the view must be a decision for this test to mean anything"
            await asyncio.wait(tasks, timeout=5)
            assert tasks[0].done() and tasks[0].exception() is None
            assert bot.actions == 1  # it did try to act
        del tasks
        gc.collect()
        assert errors == []
        await client.close()
