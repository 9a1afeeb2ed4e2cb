"""One room on many machines (issue #15, docs/cluster.md): gateways and table hosts over NATS (JetStream KV) and
PostgreSQL.

Layer: between ``room`` and ``server`` (it imports ``room`` and ``store``; the server imports it; the room never
does). Modules: ``names`` (node ids, stable table ids, subjects, buckets), ``wire`` (every message and record that
crosses NATS, typed), ``link`` (the NATS connection: reconnects, KV buckets, round trip), ``mirror`` (a local copy
of a KV bucket), ``fencing`` (the host's store gateway that adds its lease epoch to every money call), ``delivery``
(frames to gateways, batched; a public frame once per gateway), ``host`` (the table host: leases, failover,
balancing, commands), ``remote`` (the gateway's room: the Room interface over NATS), ``metrics`` (Prometheus),
``health`` (the table host's ``/health`` and ``/metrics``).
"""

from riverboat.cluster.host import HostOptions, TableHostNode
from riverboat.cluster.names import Names, node_id, table_id_for
from riverboat.cluster.remote import RemoteRoom

__all__ = ["HostOptions", "Names", "RemoteRoom", "TableHostNode", "node_id", "table_id_for"]
