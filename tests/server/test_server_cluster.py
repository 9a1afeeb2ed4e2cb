"""One room on many processes (issue #15, docs/cluster.md), with real processes, the real NATS server and
PostgreSQL: two gateways and table hosts (``riverboat serve --role gateway|tables``), bots that play through the
gateways, the secrecy recorder on every connection.

The scenarios run in order on one cluster (a module fixture), each a few seconds:

1. players at tables of both hosts through both gateways (two players on different gateways share a table and
   chat; one changes their alias and the other sees it at once, R-ALIAS-2);
2. a table host killed with SIGKILL mid-hands: within 10 s its tables are dealt again by the survivor, the hands
   in progress voided and refunded (R-SERVER-1), the chips conserved, no hand settled twice;
3. a gateway killed: its players reconnect through the other one and get their tables back (R-DISC);
4. split brain: a host paused (SIGSTOP) past its lease, then resumed, does not settle the hand it was dealing;
5. the NATS server restarted: the room goes on without a restart of its own.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, text

from riverboat.bots import CallingStation, ProtocolClient
from riverboat.bots.player import Bot
from riverboat.cluster.link import drop_room
from riverboat.cluster.names import Names, preference, table_id_for
from riverboat.store import Store
from riverboat.store.models import Hand

from .conftest import FAST_HASHER, RunningServer, SecrecyRecorder

PG_BASE = os.environ.get("RIVERBOAT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
NATS_START = ["start-stop-daemon", "--start", "--oknodo", "--background", "--exec", "/usr/sbin/nats-server", "--",
              "-a", "127.0.0.1", "-p", "4222", "-js", "-sd", "/var/lib/nats-server", "-l", "/var/log/nats-server.log"]
FAST = {"action_seconds": 2, "between_hands_seconds": 0.2, "timebank_seconds": 0}
TABLES = [{"name": f"C{i}", "game": "holdem", "structure": "NL", "small_blind": 50, "big_blind": 100,
           "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY", "max_seats": 6, "settings": FAST}
          for i in range(4)]
TABLE_IDS = [table_id_for(i, t["name"], False) for i, t in enumerate(TABLES)]


def _host_names(prefix: str) -> tuple[str, str]:
    """Two host ids for which the four tables split two and two (rendezvous hashing is deterministic)."""
    for n in range(200):
        a, b = f"{prefix}-h1-{n}", f"{prefix}-h2-{n}"
        if sum(preference(a, t) > preference(b, t) for t in TABLE_IDS) == 2:
            return a, b
    raise AssertionError("no split found")


class Cluster:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.prefix = f"t{uuid.uuid4().hex[:8]}"
        self.schema = f"rb_cluster_{uuid.uuid4().hex[:10]}"
        self.admin = create_engine(PG_BASE)
        with self.admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        self.db_url = f"{PG_BASE}?options=-csearch_path%3D{self.schema}"
        self.store = Store(self.db_url, password_hasher=FAST_HASHER)
        self.store.upgrade()
        self.nodes: dict[str, RunningServer] = {}
        self.h1, self.h2 = _host_names(self.prefix)

    def start(self, name: str, role: str, *extra: str, tables: list[dict[str, Any]] | None = None) -> RunningServer:
        args = ["--role", role, "--database-url", self.db_url, "--cluster", self.prefix, "--node-id", name, *extra]
        if tables is None:
            args.append("--no-demo")
        node = RunningServer(self.tmp, tables, args)
        self.nodes[name] = node
        return node

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        node = self.nodes[name]
        node.killed = True
        node.proc.send_signal(sig)
        if sig == signal.SIGKILL:
            node.proc.wait(10)

    def health(self, name: str) -> dict[str, Any]:
        return dict(httpx.get(self.nodes[name].base_url + "/health", timeout=2).json())

    def metric(self, name: str, metric: str) -> float:
        """One unlabelled value of the node's ``/metrics`` (Prometheus text)."""
        url = self.health(name)["metrics"]  # the node's own loopback listener, not its public port (issue #29)
        body = httpx.get(url, timeout=2).text
        return float(next(line.split()[1] for line in body.splitlines() if line.startswith(metric + " ")))

    def owner(self, table: str) -> str | None:
        for name, node in self.nodes.items():
            if node.proc.poll() is None and name.startswith(self.prefix + "-h"):
                try:
                    if table in self.health(name).get("tables", []):
                        return name
                except httpx.HTTPError:
                    continue
        return None

    def hands(self, table: str) -> list[Hand]:
        with self.store.session() as s:
            return list(s.scalars(select(Hand).where(Hand.table_id == table).order_by(Hand.id)))

    def chips(self) -> int:
        """Every PLAY chip outside the external account: balances + table stacks + house (conserved)."""
        return sum(v for k, v in self.store.ledger.balances("PLAY").items() if not k.startswith("external"))

    def close(self) -> None:
        for node in self.nodes.values():
            if node.proc.poll() is None:
                if node.killed:  # paused by a test: let it go
                    node.proc.send_signal(signal.SIGCONT)
                node.proc.send_signal(signal.SIGTERM)
        for node in self.nodes.values():
            try:
                node.proc.wait(15)
            except subprocess.TimeoutExpired:
                node.proc.kill()
                node.proc.wait(5)
            node.http.close()
            node._log.close()
        self.store.dispose()
        with self.admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
        self.admin.dispose()
        _nats_up()
        asyncio.run(drop_room("nats://127.0.0.1:4222", Names(self.prefix)))  # leave nothing on NATS


def _nats_up() -> None:
    subprocess.run(NATS_START, check=False)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            import socket

            with socket.create_connection(("127.0.0.1", 4222), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    CURRENT.append(c)
    try:
        c.start(c.h1, "tables", tables=TABLES)  # the default delivery window (20 ms)
        c.start(c.h2, "tables", "--delivery-window-ms", "0")  # frames leave at every loop turn: both ways tested
        c.start(f"{c.prefix}-g1", "gateway")  # the default command window (10 ms)
        c.start(f"{c.prefix}-g2", "gateway", "--command-window-ms", "0")  # commands written at every loop turn
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not all(c.owner(t) for t in TABLE_IDS):
            time.sleep(0.2)
        yield c
    finally:
        CURRENT.remove(c)
        c.close()


class Player:
    def __init__(self, cluster: Cluster, recorder: SecrecyRecorder, name: str) -> None:
        self.cluster = cluster
        self.recorder = recorder
        self.name = name
        self.id = cluster.store.accounts.register(name, "password-" + name).id
        cluster.store.ledger.deposit(self.id, "PLAY", 100_000, f"dep:{self.id}")
        self.token = cluster.store.accounts.login(name, "password-" + name)
        self.client: ProtocolClient | None = None
        self.bot: Bot | None = None

    async def connect(self, gateway: str) -> ProtocolClient:
        await self.disconnect()
        client = ProtocolClient(self.cluster.nodes[gateway].ws_url, self.token)
        self.recorder.attach(client, f"{self.name}@{gateway}:{time.monotonic()}")
        await client.connect()
        self.client = client
        self.bot = Bot(client, CallingStation(), think=0.05)
        return client

    async def disconnect(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
        if self.client is not None:
            await self.client.close()
        self.bot = self.client = None


CURRENT: list[Cluster] = []  # for the diagnostics of a timeout


async def _wait(pred: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s: {what}\n{_diagnose()}")


def _diagnose() -> str:
    """What every node and table looked like (hosts' health, hand statuses, the nodes' last log lines)."""
    out = []
    for c in CURRENT:
        for name, node in c.nodes.items():
            alive = node.proc.poll() is None
            health: Any = None
            if alive and "-h" in name:
                try:
                    health = c.health(name)
                except Exception as exc:  # noqa: BLE001 - a paused or dying node
                    health = repr(exc)
            out.append(f"{name} alive={alive} health={health} log: {node.log()[-600:]!r}")
        for t in TABLE_IDS:
            out.append(f"{t}: {[(h.hand_id, h.status) for h in c.hands(t)][-5:]}")
    return "\n".join(out)


def _settled(c: Cluster, table: str) -> int:
    return sum(1 for h in c.hands(table) if h.status == "settled")


async def _play(cluster: Cluster, recorder: SecrecyRecorder) -> None:
    c = cluster
    g1, g2 = f"{c.prefix}-g1", f"{c.prefix}-g2"
    owners = {t: c.owner(t) for t in TABLE_IDS}
    assert set(owners.values()) == {c.h1, c.h2}, owners  # tables on both hosts
    on_h2 = [t for t in TABLE_IDS if owners[t] == c.h2]
    players = [Player(c, recorder, f"cl{uuid.uuid4().hex[:8]}") for _ in range(2 * len(TABLE_IDS))]
    for i, p in enumerate(players):  # two players per table; at the first table of h2, one on each gateway
        table = TABLE_IDS[i // 2]
        gateway = g2 if (table == on_h2[0] and i % 2) else g1
        await p.connect(gateway)
        assert p.client is not None
        await p.client.sit(table, i % 2, 5000)
    c.chips_before = c.chips()  # type: ignore[attr-defined]
    await _wait(lambda: all(_settled(c, t) >= 2 for t in TABLE_IDS), 90, "two hands at every table")
    c.players = players  # type: ignore[attr-defined]
    c.shared = on_h2[0]  # type: ignore[attr-defined]
    # table chat across gateways: the host of the table sends the line to its whole audience
    here, there = [players[i] for i in range(len(players)) if TABLE_IDS[i // 2] == c.shared]
    assert here.client is not None and there.client is not None
    heard = asyncio.ensure_future(here.client.next_frame(lambda f: f.get("type") == "chat", timeout=10))
    await there.client.command({"type": "chat", "table": c.shared, "text": "hello from the other gateway"})
    line = await heard
    assert line["text"] == "hello from the other gateway" and line["player"] == there.id
    # R-ALIAS-2 across gateways (issue #10): an alias changed through one gateway is shown at once at the table,
    # by its host, to a player on the other gateway
    renamed = f"Cl{uuid.uuid4().hex[:10]}"
    seen = asyncio.ensure_future(here.client.next_frame(
        lambda f: f.get("type") == "event" and f["event"].get("kind") == "alias_changed", timeout=10))
    reply = await asyncio.to_thread(c.nodes[g2].http.put, "/api/alias", json={"alias": renamed},
                                    headers={"Authorization": f"Bearer {there.token}"})
    assert reply.status_code == 200, reply.text
    event = (await seen)["event"]
    assert (event["player"], event["alias"]) == (there.id, renamed)


def test_play_across_hosts_and_gateways_with_secrecy(cluster: Cluster, recorder: SecrecyRecorder) -> None:
    """A player plays at a table of the second host through the first gateway; two players on different
    gateways share a table; every connection's frames keep the other players' hole cards secret (R-GEN-5)."""
    asyncio.run(_scenario(cluster, recorder))


async def _scenario(c: Cluster, recorder: SecrecyRecorder) -> None:
    # the play below crosses both hosts: one gathers its frames for the default window, one sends them every turn
    assert c.health(c.h1)["delivery_window_ms"] == 20.0 and c.health(c.h2)["delivery_window_ms"] == 0.0
    # and both gateways: one writes its commands at most once per the default window, one at every turn
    g1, g2 = f"{c.prefix}-g1", f"{c.prefix}-g2"
    assert c.metric(g1, "riverboat_command_window_seconds") == 0.01
    assert c.metric(g2, "riverboat_command_window_seconds") == 0.0
    await _play(c, recorder)
    assert c.metric(g1, "riverboat_commands_sent_total") > 0 and c.metric(g2, "riverboat_commands_sent_total") > 0
    players: list[Player] = c.players  # type: ignore[attr-defined]
    try:
        await _failover(c)
        await _gateway_lost(c, players)
        await _split_brain(c)
        await _nats_restart(c)
    finally:
        for p in players:
            await p.disconnect()
    recorder.check(c.store, TABLE_IDS)
    assert recorder.checked_hands, "no hand was checked for secrecy"
    assert c.chips() == c.chips_before  # type: ignore[attr-defined]
    c.store.ledger.verify()


def _in_progress(c: Cluster, tables: list[str]) -> dict[str, str]:
    return {t: h.hand_id for t in tables for h in c.hands(t) if h.status == "started"}


async def _failover(c: Cluster) -> None:
    """kill -9 of a host mid-hands: every table back within 10 s, voided hands refunded, chips conserved."""
    victims = [t for t in TABLE_IDS if c.owner(t) == c.h2]
    await _wait(lambda: len(_in_progress(c, victims)) == len(victims), 30, "hands in progress at h2's tables")
    c.kill(c.h2)
    t0 = time.monotonic()
    await asyncio.sleep(0.3)  # a store call already on its way commits (or not) now; none can follow
    running = _in_progress(c, victims)  # the hands the dead host was dealing
    assert running, "the host died between two hands at every table"
    counts = {t: len(c.hands(t)) for t in victims}
    await _wait(lambda: all(any(h.status in ("started", "settled") for h in c.hands(t)[counts[t]:])
                            for t in victims), 10, "every table dealt again by the survivor")
    took = time.monotonic() - t0
    assert took < 10
    for t in victims:
        assert c.owner(t) == c.h1
    for t, hand_id in running.items():
        voided = {h.hand_id: h for h in c.hands(t)}[hand_id]
        assert voided.status == "void" and voided.txn_id is None  # R-SERVER-1: voided, never settled
    assert c.chips() == c.chips_before  # type: ignore[attr-defined]
    c.store.ledger.verify()
    await _wait(lambda: all(_settled(c, t) >= 3 for t in victims), 60, "hands settled after the failover")


async def _gateway_lost(c: Cluster, players: list[Player]) -> None:
    """The second gateway dies; its player reconnects through the first and gets the table back (R-DISC)."""
    g1, g2 = f"{c.prefix}-g1", f"{c.prefix}-g2"
    moved = [p for p in players if p.client is not None and c.nodes[g2].ws_url == p.client.ws_url]
    assert moved
    c.kill(g2)
    for p in moved:
        client = await p.connect(g1)
        await client.next_frame(lambda f: f.get("type") == "table_state" and f.get("table") == c.shared
                                and (f.get("view") or {}).get("you") is not None, timeout=10)
        await client.command({"type": "sit_in", "table": c.shared})  # R-DISC-3: sat out while away
    before = _settled(c, c.shared)
    await _wait(lambda: _settled(c, c.shared) > before, 60, "a hand with the reconnected player")


async def _split_brain(c: Cluster) -> None:
    """SIGSTOP the host past its lease, a new host takes over, SIGCONT: the old host settles nothing."""
    h3 = f"{c.prefix}-h3"
    c.start(h3, "tables")
    proc = c.nodes[c.h1].proc
    table = hand = None
    for _ in range(10):  # pause the host in the middle of a hand at one of its tables
        await _wait(lambda: bool(_in_progress(c, TABLE_IDS)), 60, "a hand in progress")
        mine = list(c.health(c.h1)["tables"])  # the third host may have some already (balancing)
        c.kill(c.h1, signal.SIGSTOP)
        await asyncio.sleep(0.3)
        running = _in_progress(c, mine)
        if running:
            table, hand = sorted(running.items())[0]
            break
        proc.send_signal(signal.SIGCONT)
    assert table is not None and hand is not None, "never paused the host during a hand"
    paused_epoch = (c.store.fences.current(table) or (0, ""))[0]
    await _wait(lambda: c.owner(table) == h3, 45, "the third host takes the table")
    proc.send_signal(signal.SIGCONT)
    await asyncio.sleep(3)  # the resumed host finds its lease gone and drops its tables
    by_id = {h.hand_id: h for h in c.hands(table)}
    assert by_id[hand].status == "void" and by_id[hand].txn_id is None
    epoch, _node = c.store.fences.current(table) or (0, "")
    assert epoch > paused_epoch  # claimed again since (by the third host; balancing may give it back later)
    settled = [h.hand_id for h in c.hands(table) if h.status == "settled"]
    assert len(settled) == len(set(settled))
    assert c.chips() == c.chips_before  # type: ignore[attr-defined]


async def _nats_restart(c: Cluster) -> None:
    """The NATS server stops and starts again: hands go on at every table without restarting any node."""
    subprocess.run(["start-stop-daemon", "--stop", "--oknodo", "--exec", "/usr/sbin/nats-server", "--retry", "5"],
                   check=False)
    await asyncio.sleep(1.0)
    _nats_up()
    counts = {t: _settled(c, t) for t in TABLE_IDS}
    await _wait(lambda: all(_settled(c, t) > counts[t] for t in TABLE_IDS), 120, "hands after NATS restarted")
