"""A table host's settings (:class:`HostOptions`), read by the host and each of its parts (:mod:`.host`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from riverboat.cluster.delivery import DELIVERY_WINDOW_S
from riverboat.cluster.link import LEASE_SECONDS
from riverboat.cluster.names import Names


@dataclass
class HostOptions:
    nats_url: str = "nats://127.0.0.1:4222"
    node: str = "tables-1"
    names: Names = field(default_factory=Names)
    lease_seconds: float = LEASE_SECONDS
    grace_seconds: float = 2.0  # a table without owner waits this long for its preferred host
    scan_seconds: float = 0.5
    record_seconds: float = 1.0  # lobby / seats written at most this often per table
    cash_out_on_crash: bool = False  # R-SERVER-3 room flag; a table's settings may say otherwise
    store_process: bool = True
    # the router flushes the host's frames to the gateways at most once per this many seconds (cluster/delivery.py;
    # 0: at every loop turn)
    delivery_window_seconds: float = DELIVERY_WINDOW_S
    # a gateway whose key is gone is taken for dead only if it is still gone this long after it was first missed:
    # a live gateway whose loop was too busy to renew in time (seating 10,000 bots) puts its key back within a
    # second or two, and taking it for dead disconnected (R-DISC) and then re-sent every table to its ~10,000
    # players (a 6 s stall of the host's loop, measured)
    gateway_grace_seconds: float = 3.0
    # the room's Twister section (ServerConfig.twister: TwisterSettings fields, currency, table_settings, fill_bots):
    # give every table host the same; the host of the offer runs it (cluster.twister)
    twister: dict[str, Any] = field(default_factory=dict)
