"""The cluster knows its room's database (issue #29 item 5): a node refuses to join a NATS room (``--cluster``
name) created for another database.

The first node of a room writes its database's identity under ``database`` in the room's ``room`` bucket; every
node that starts later compares its own with it and stops with :class:`RoomMismatch` (a clear message, exit status
2 from ``riverboat serve``) when they differ: a fresh database joined to an old room name otherwise took over the
old room's table records (their ids, owners and seats) and dealt them with money it did not hold.

The identity is PostgreSQL's own (no table of ours): the server's ``system_identifier`` (random at ``initdb``), the
database's oid and the schema's oid (both new when a database or schema is created again), so one server with two
databases, or two schemas of one database (as the tests run), are told apart.
"""

from __future__ import annotations

from typing import Protocol

from nats.js.errors import KeyWrongLastSequenceError
from nats.js.kv import KeyValue
from sqlalchemy import text
from sqlalchemy.engine import Engine

DATABASE_KEY = "database"

_IDENTITY_SQL = text(
    "SELECT (SELECT system_identifier FROM pg_control_system()), "
    "(SELECT oid FROM pg_database WHERE datname = current_database()), "
    "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())")


class RoomMismatch(ValueError):
    """This node's database is not the one the NATS room was created for."""


class HasEngine(Protocol):
    engine: Engine


def database_identity(store: HasEngine) -> str:
    """``<system identifier>/<database oid>/<schema oid>`` of the store's PostgreSQL database (another database,
    SQLite in unit tests: its dialect and file)."""
    url = store.engine.url
    if url.get_backend_name() != "postgresql":
        return f"{url.get_backend_name()}:{url.database}"
    with store.engine.connect() as conn:
        system, database, schema = conn.execute(_IDENTITY_SQL).one()
    return f"{system}/{database}/{schema}"


async def claim_room(room_bucket: KeyValue, room_name: str, identity: str) -> None:
    """Write ``identity`` as the room's database if the room has none yet; else check that it is the same (raises
    :class:`RoomMismatch` with what to do)."""
    try:
        await room_bucket.create(DATABASE_KEY, identity.encode())
        return
    except KeyWrongLastSequenceError:
        pass
    entry = await room_bucket.get(DATABASE_KEY)
    known = (entry.value or b"").decode()
    if known != identity:
        raise RoomMismatch(
            f"the NATS room {room_name!r} (--cluster) was created for another database ({known}; this node's is "
            f"{identity}): start this node with that room's --database-url, or give this database's room another "
            "--cluster name")
