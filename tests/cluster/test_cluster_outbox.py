"""A gateway's commands to the table hosts (riverboat.cluster.outbox, issue #15 speed): at most one NATS write per
command window. A command after a quiet window leaves at the next loop turn; the commands queued sooner wait for the
window to close and are published together, in order (R-GEN-5: a player's commands are applied in the order sent);
a command whose caller stopped waiting is not sent; a failed publish fails its own command only."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from riverboat.cluster.link import drop_room
from riverboat.cluster.names import Names
from riverboat.cluster.outbox import COMMAND_WINDOW_S, Outbox
from riverboat.cluster.remote import RemoteRoom
from riverboat.cluster.wire import COMMAND, Reply, TableRecord, encode_delivery
from riverboat.room.commands import ActFrame
from riverboat.room.replies import SpeedActed

NATS_URL = "nats://127.0.0.1:4222"


def test_r_gen_5_commands_within_the_window_leave_together_in_order() -> None:
    sent: list[tuple[str, bytes, str, float]] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()

        async def publish(subject: str, data: bytes, reply: str) -> None:
            sent.append((subject, data, reply, loop.time()))

        box = Outbox(publish, window=0.05)
        futs = [loop.create_future() for _ in range(5)]
        box.put("cmd.t1", b"a0", "r.0", futs[0])  # quiet until now: it leaves at the next loop turn
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert [s[1] for s in sent] == [b"a0"] and box.writes == 1
        t0 = sent[0][3]
        box.put("cmd.t2", b"b1", "r.1", futs[1])  # within the window: they wait for it to close...
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        box.put("cmd.t1", b"a2", "r.2", futs[2])
        box.put("cmd.t2", b"b3", "r.3", futs[3])
        await asyncio.sleep(0.01)
        assert len(sent) == 1  # loop turns went by, the window is still open: nothing more left
        await asyncio.sleep(0.1)
        assert [(s[0], s[1], s[2]) for s in sent[1:]] == [("cmd.t2", b"b1", "r.1"), ("cmd.t1", b"a2", "r.2"),
                                                          ("cmd.t2", b"b3", "r.3")]
        assert all(s[3] - t0 >= 0.05 for s in sent[1:]) and box.writes == 2 and box.commands == 4
        await asyncio.sleep(0.1)  # the window has closed: the next command leaves at once again
        box.put("cmd.t1", b"a4", "r.4", futs[4])
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sent[-1][1] == b"a4" and box.writes == 3

    asyncio.run(scenario())


def test_a_command_given_up_is_not_sent_and_a_failed_publish_fails_its_command_only() -> None:
    sent: list[bytes] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()

        async def publish(subject: str, data: bytes, reply: str) -> None:
            if data == b"bad":
                raise ConnectionError("nats: connection closed")
            sent.append(data)

        box = Outbox(publish, window=0.0)
        gone, bad, good = loop.create_future(), loop.create_future(), loop.create_future()
        box.put("s", b"gone", "r", gone)
        box.put("s", b"bad", "r", bad)
        box.put("s", b"good", "r", good)
        gone.cancel()  # its caller timed out before the write
        await asyncio.sleep(0.01)
        assert sent == [b"good"]
        assert isinstance(bad.exception(), ConnectionError) and not good.done()

    asyncio.run(scenario())


def test_a_batch_waits_for_the_one_before_it() -> None:
    """A publish that waits (nats-py's outbound buffer full) holds the next batch back: no command overtakes."""
    order: list[bytes] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        gate = asyncio.Event()

        async def publish(subject: str, data: bytes, reply: str) -> None:
            if data == b"slow":
                await gate.wait()
            order.append(data)

        box = Outbox(publish, window=0.0)
        box.put("s", b"slow", "r", loop.create_future())
        await asyncio.sleep(0.01)
        box.put("s", b"next", "r", loop.create_future())
        await asyncio.sleep(0.01)
        assert order == []  # the second batch is behind the first
        gate.set()
        await asyncio.sleep(0.01)
        assert order == [b"slow", b"next"]

    asyncio.run(scenario())


def test_a_gateway_writes_its_commands_in_one_nats_message_stream_per_window_over_real_nats() -> None:
    """Over the real NATS server: ten players act at two tables, 2 ms apart (loop turns apart); the gateway's
    window puts their commands in one write, every command reaches its table's subject in the order sent, and every player
    gets their own reply (the host answers in its delivery, as a table host does)."""

    async def scenario() -> None:
        names = Names(prefix=f"rbt{secrets.token_hex(4)}")
        gw = RemoteRoom(NATS_URL, "gw-ob", names=names, command_window=0.2)
        await gw.start()
        for tid in ("ta", "tb"):
            gw.records.items[tid] = (TableRecord(id=tid, kind="cash", entry={}), 1)
        seen: list[tuple[str, int]] = []
        try:
            host = gw.link.client

            async def answer(msg: Any) -> None:
                cmd = COMMAND.validate_json(msg.data)
                table = msg.subject[len(names.command("")):]
                seen.append((table, cmd.player))
                token = msg.reply[len(names.replies(cmd.gateway)) + 1:]
                reply = Reply(ok=True, result={"ok": True, "hand": f"{table}/{cmd.player}"}).model_dump_json().encode()
                await host.publish(names.gateway(cmd.gateway), encode_delivery([], [(token, reply)]))

            for tid in ("ta", "tb"):
                await host.subscribe(names.command(tid), cb=answer)
            await host.flush()
            await gw.execute(99, ActFrame(v=1, type="act", table="ta", kind="check"))  # the first command: at once; it opens a window
            writes = gw.outbox.writes
            acts = []
            for p in range(10):
                acts.append(asyncio.ensure_future(gw.execute(p, ActFrame(v=1, type="act", table="ta" if p % 2 else "tb", kind="call"))))
                await asyncio.sleep(0.002)
            results = await asyncio.gather(*acts)
            hands = [r.hand if isinstance(r, SpeedActed) else "" for r in results]
            assert hands == [f"{'ta' if p % 2 else 'tb'}/{p}" for p in range(10)]
            assert gw.outbox.writes - writes == 1 and gw.outbox.commands == 11
            assert [p for t, p in seen if t == "ta"] == [99, 1, 3, 5, 7, 9]
            assert [p for t, p in seen if t == "tb"] == [0, 2, 4, 6, 8]
            metrics = gw.metrics.render().decode()
            assert "riverboat_command_window_seconds 0.2" in metrics
            assert "riverboat_command_writes_total" in metrics
        finally:
            await gw.stop()
            await drop_room(NATS_URL, names)

    asyncio.run(scenario())


def test_the_gateways_default_command_window() -> None:
    """``riverboat serve --role gateway --command-window-ms N`` reaches the gateway's outbox (default 10 ms; the
    two-host integration test, tests/server/test_server_cluster.py, reads it back from /metrics)."""
    assert RemoteRoom("nats://127.0.0.1:1", "gw-w").outbox.window == COMMAND_WINDOW_S == 0.01
