"""The NATS round trip a node measures for ``/metrics`` (``riverboat_nats_rtt_seconds``, issue #15) must never cost
the node its NATS connection. It was measured with nats-py's ``flush(timeout)``: when the PONG came later than the
timeout (a loaded machine), the late PONG raised ``InvalidStateError`` in the client's read loop, the connection
dropped and every delivery in flight was lost (seen on a gateway at 10,000 bots). Real NATS at 127.0.0.1:4222."""

from __future__ import annotations

import asyncio
import secrets

from riverboat.cluster.link import Link, drop_room
from riverboat.cluster.names import Names

NATS_URL = "nats://127.0.0.1:4222"


async def _with_link(body: object) -> None:
    names = Names(prefix=f"rbt{secrets.token_hex(4)}")
    link = Link(NATS_URL, names, name="rtt-test")
    await link.connect()
    try:
        await body(link)  # type: ignore[operator]
    finally:
        await link.close()
        await drop_room(NATS_URL, names)


def test_the_nats_round_trip_is_measured() -> None:
    """``riverboat_nats_rtt_seconds`` (issue #15, /metrics): a round trip through the NATS server is measured."""
    async def body(link: Link) -> None:
        rtt = await link.measure_rtt()
        assert rtt is not None and 0 < rtt < 2.0
        assert link.rtt_seconds == rtt

    asyncio.run(_with_link(body))


def test_a_round_trip_over_its_timeout_keeps_the_connection() -> None:
    """R-DISC-1 / R-SERVER-1: a node's measurement must never drop its NATS connection (a gateway that lost it
    disconnected its players). Every measurement times out before the answer can come back; the answers arrive
    afterwards. The connection stays up (no reconnection), and requests through it still work."""

    async def body(link: Link) -> None:
        got: list[bytes] = []

        async def answer(msg: object) -> None:
            got.append(msg.data)  # type: ignore[attr-defined]
            await msg.respond(b"pong")  # type: ignore[attr-defined]

        await link.client.subscribe(f"{link.names.prefix}.probe", cb=answer)
        for _ in range(20):
            assert await link.measure_rtt(timeout=1e-9) is None
        await asyncio.sleep(0.5)  # the late answers arrive now
        assert link.client.is_connected and link.connected
        assert link.reconnects == 0
        reply = await link.client.request(f"{link.names.prefix}.probe", b"ping", timeout=2)
        assert reply.data == b"pong" and got == [b"ping"]
        assert await link.measure_rtt() is not None

    asyncio.run(_with_link(body))
