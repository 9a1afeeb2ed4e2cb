"""Names in a cluster: node ids, stable table ids, NATS subjects and JetStream KV buckets (docs/cluster.md)."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import secrets
import socket
from dataclasses import dataclass

from riverboat.room.settings import table_id_for  # stable table ids (also those of a single-process room)

__all__ = ["Names", "node_id", "preference", "preferred_host", "record_id", "record_key", "table_id_for"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def node_id(given: str | None, role: str) -> str:
    """``--node-id`` if given (letters, digits, ``-`` and ``_``), else ``<role>-<host>-<pid>-<random>``."""
    if given:
        if _UNSAFE.search(given) or len(given) > 64:
            raise ValueError(f"--node-id {given!r}: use 1 to 64 letters, digits, '-' or '_'")
        return given
    host = _UNSAFE.sub("", socket.gethostname())[:20] or "host"
    return f"{role}-{host}-{os.getpid()}-{secrets.token_hex(2)}"


def record_key(record_id: str) -> str:
    """The key of a record of the ``tables`` bucket: its id with ``:`` as ``=`` (a KV key holds no ``:``; a Twister's
    id does, ``twister:twister-100-1-ab12cd``; no id holds ``=``, ``room.commands.TableRef``)."""
    return record_id.replace(":", "=")


def record_id(key: str) -> str:
    """The id of the record under ``key`` (:func:`record_key` undone)."""
    return key.replace("=", ":")


@functools.lru_cache(maxsize=1 << 16)
def preference(node: str, table_id: str) -> int:
    """Rendezvous hash: the live host with the highest preference for a table (or tournament) is its preferred host.
    Memoised: every host asks it for each of its tables on every ownership scan (twice a second); hashing them all
    again was 6 % of a table host's CPU at 10,000 bots (docs/performance.md)."""
    return int.from_bytes(hashlib.blake2b(f"{node}/{table_id}".encode(), digest_size=8).digest(), "big")


def preferred_host(hosts: list[str], table_id: str) -> str:
    """The live host (of ``hosts``, not empty) that should own ``table_id``: the highest :func:`preference`."""
    return max(hosts, key=lambda n: preference(n, table_id))


@dataclass(frozen=True)
class Names:
    """Subjects and buckets of one room (``prefix`` separates rooms sharing a NATS server, e.g. tests)."""

    prefix: str = "rb"

    def command(self, table_id: str) -> str:
        return f"{self.prefix}.cmd.{table_id}"

    def gateway(self, gateway_id: str) -> str:
        return f"{self.prefix}.gw.{gateway_id}"

    def replies(self, gateway_id: str) -> str:
        """The reply subjects of a gateway's commands: ``<this>.<token>`` (``RemoteRoom._request``)."""
        return f"{self.prefix}.gw.{gateway_id}.r"

    def echo(self, node_id: str, nonce: str) -> str:
        """A node's round-trip echo subject (``Link.measure_rtt``)."""
        return f"{self.prefix}.echo.{node_id}.{nonce}"

    def peer(self, node_id: str) -> str:
        """A table host's own subject: messages between hosts (tournament tables dealt for another host's director)."""
        return f"{self.prefix}.peer.{node_id}"

    @property
    def nodes_bucket(self) -> str:
        return f"{self.prefix}_nodes"

    @property
    def tables_bucket(self) -> str:
        return f"{self.prefix}_tables"

    @property
    def presence_bucket(self) -> str:
        return f"{self.prefix}_presence"

    @property
    def room_bucket(self) -> str:
        return f"{self.prefix}_room"
