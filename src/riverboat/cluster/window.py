"""The rule both of a node's NATS windows share (the hosts' delivery window, :mod:`riverboat.cluster.delivery`, and
the gateways' command window, :mod:`riverboat.cluster.outbox`): at most one send per window."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


def call_in_window(last: float, window: float, send: Callable[[], None]) -> None:
    """Run ``send`` at the next loop turn when the last send (loop time ``last``) is at least ``window`` seconds
    old, else when that window closes (``window`` 0: always at the next loop turn)."""
    loop = asyncio.get_running_loop()
    wait = last + window - loop.time() if window > 0 else 0.0
    if wait > 0:
        loop.call_later(wait, send)
    else:
        loop.call_soon(send)
