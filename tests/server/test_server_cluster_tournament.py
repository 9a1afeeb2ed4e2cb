"""Tournaments in the cluster (issue #15 item 3, docs/cluster.md "Tournaments"), with real table host processes,
the real NATS server and PostgreSQL; the gateway is the gateway's room (:class:`riverboat.cluster.RemoteRoom`,
what ``riverboat serve --role gateway`` runs under its WebSocket server) in the test process, so that every
command crosses NATS to the host that runs the tournament and every tournament frame comes back on the gateway's
subject.

1. a Sit & Go: declared in the cluster, shown in the lobby, players register through the gateway; its host is
   killed (SIGKILL) during registration: the other host reopens the registration with the paid entrants, the
   rest register there and it starts; that host is killed after some completed hands: the first one (restarted)
   takes it over, resumes it from the store (every stack as after its last completed hand, R-SERVER-1) and it is
   played to the end; every player is ranked once, every hand is recorded once, the chips and the money are
   conserved (each player paid one buy-in and fee);
2. a small MTT (six players, three seats a table: two tables, balanced and merged by the director on its one
   host) registered and played to the end over the WebSocket of a real gateway process.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from riverboat.bots import ProtocolClient
from riverboat.bots.twister import TwisterBot
from riverboat.cluster import RemoteRoom
from riverboat.cluster.names import Names
from riverboat.room.commands import TournamentActFrame, TournamentRegisterFrame
from riverboat.room.errors import RoomError
from riverboat.room.tournament.presets import sit_and_go
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.store.models import Hand

from .conftest import SecrecyRecorder
from .test_server_cluster import CURRENT, Cluster

TIMEOUT = 120.0  # generous for a loaded machine: every wait ends as soon as its condition holds
FAST = {"action_seconds": 10, "between_hands_seconds": 0.05, "timebank_seconds": 0}
DEPOSIT = 50_000
CUR = "EUR"


class Entrant:
    """A player connected through the gateway: calls and checks (slow play) until ``shove`` is set, then goes
    all-in whenever it may bet or raise (the tournament ends quickly)."""

    def __init__(self, c: Cluster, gw: RemoteRoom) -> None:
        name = f"tp{uuid.uuid4().hex[:8]}"
        self.id = c.store.accounts.register(name, "password-" + name).id
        c.store.ledger.deposit(self.id, CUR, DEPOSIT, f"dep:{self.id}")
        self.gw = gw
        self.frames: list[dict[str, Any]] = []
        self.finished: dict[str, Any] | None = None
        self.shove = False
        self.tasks: set[asyncio.Task[None]] = set()
        gw.attach(self.id, self._sink, immediate=self._on_frame)

    async def _sink(self, frame: Any) -> None:
        return None

    def _on_frame(self, frame: Any) -> None:
        if frame.get("type") != "tournament":
            return
        self.frames.append(frame)
        data = frame.get("data") or {}
        if frame.get("event") == "finished":
            self.finished = data
            return
        hand = data.get("hand") if frame.get("event") == "state" else None
        legal = hand.get("legal") if isinstance(hand, dict) else None
        if isinstance(legal, dict) and legal.get("seat") == data.get("seat"):
            task = asyncio.get_running_loop().create_task(self._act(str(frame["tournament"]), legal))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _act(self, tid: str, legal: dict[str, Any]) -> None:
        kinds = legal.get("kinds") or []
        kind, amount = next(k for k in ("check", "call", "fold") if k in kinds), None
        if self.shove:
            for k in ("raise", "bet"):
                if k in kinds:
                    kind, amount = k, int(legal["max_to"])
                    break
        with contextlib.suppress(Exception):  # a stale decision, or the host between owners: the next state asks
            act = TournamentActFrame(v=1, type="tournament_act", tournament=tid, kind=kind, amount=amount)
            await self.gw.execute(self.id, act)


async def _wait(pred: Any, what: str, c: Cluster) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if pred():
            return
        await asyncio.sleep(0.2)
    logs = {n: node.log()[-1500:] for n, node in c.nodes.items()}
    raise AssertionError(f"timed out after {TIMEOUT} s: {what}\n{logs}")


async def _retry(call: Any, c: Cluster) -> Any:
    """A command, again while the tournament is between hosts (``table_unavailable``: its host is gone)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            return await call()
        except RoomError as exc:
            if exc.code not in ("table_unavailable", "table_timeout", "no_tournament") or \
                    time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.3)


def _register(tid: str) -> TournamentRegisterFrame:
    """A player's ``tournament_register`` command, as the gateway's server hands it to its room port."""
    return TournamentRegisterFrame(v=1, type="tournament_register", tournament=tid)


def _hands(c: Cluster, tid: str) -> list[Hand]:
    with c.store.session() as s:
        return list(s.scalars(select(Hand).where(Hand.table_id.like(f"{tid}/%")).order_by(Hand.id)))


def _money(c: Cluster) -> int:
    return sum(v for k, v in c.store.ledger.balances(CUR).items() if not k.startswith("external"))


@pytest.fixture
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster-tourney"))
    CURRENT.append(c)
    try:
        c.start(c.h1, "tables")
        c.start(c.h2, "tables")
        yield c
    finally:
        CURRENT.remove(c)
        c.close()


async def _gateway(c: Cluster) -> RemoteRoom:
    gw = RemoteRoom("nats://127.0.0.1:4222", f"{c.prefix}-gt", names=Names(c.prefix))
    await gw.start()
    return gw


def _row(gw: RemoteRoom, tid: str) -> dict[str, Any] | None:
    rec = gw.records.items.get(tid)
    return rec[0].tournament if rec is not None else None


def _owner(gw: RemoteRoom, tid: str) -> str | None:
    return gw.owner_of(tid) or None


def _sng() -> TournamentSpec:
    return sit_and_go("Cluster SNG", seats=6, buy_in=1000, fee=100, currency=CUR, starting_stack=1500,
                      level_hands=1000, settings=FAST)


def test_sit_and_go_survives_its_host(cluster: Cluster) -> None:
    """R-SERVER-1, R-TOURN-SNG-1, R-TOURN-GEN-6: a Sit & Go through the gateway whose host is killed during
    registration keeps its entrants; when its next host is killed mid-play it resumes on another host from the
    stacks after the last completed hand and is played to the end."""
    asyncio.run(_sng_failover(cluster))


async def _sng_failover(c: Cluster) -> None:
    gw = await _gateway(c)
    try:
        tid = f"sng-{uuid.uuid4().hex[:6]}"
        await gw.tournaments.create(_sng(), tid)
        await _wait(lambda: (_row(gw, tid) or {}).get("status") == "registering", "the SNG in the lobby", c)
        assert [r["id"] for r in gw.tournaments.lobby()["sng"]] == [tid]
        players = [Entrant(c, gw) for _ in range(6)]
        money = _money(c)
        await asyncio.sleep(0.5)  # presence reaches the hosts (they route the players' frames to this gateway)
        for p in players[:3]:
            await gw.execute(p.id, _register(tid))
        # its host dies during registration: the survivor reopens it with the three paid registrations
        first = _owner(gw, tid)
        assert first in (c.h1, c.h2)
        survivor = c.h2 if first == c.h1 else c.h1
        c.kill(first, signal.SIGKILL)
        await _wait(lambda: _owner(gw, tid) == survivor and (_row(gw, tid) or {}).get("entrants") == 3,
                    "the survivor reopened the registration", c)
        c.start(first, "tables")  # the lost machine comes back (same node id, its lease long gone)
        for p in players[3:]:
            await _retry(lambda p=p: gw.execute(p.id, _register(tid)), c)
        await _wait(lambda: len([h for h in _hands(c, tid) if h.status == "recorded"]) >= 3,
                    "three hands completed", c)
        # and its new host dies in the middle of play: the other one resumes it from the store
        c.kill(survivor, signal.SIGKILL)
        await _wait(lambda: _owner(gw, tid) == first, "the restarted host took the tournament", c)
        for p in players:
            p.shove = True
        await _wait(lambda: all(p.finished is not None for p in players), "every player ranked", c)
        places = sorted(int(p.finished["place"]) for p in players if p.finished)
        assert places[0] == 1 and len(places) == 6
        hands = _hands(c, tid)
        keys = [(h.table_id, h.hand_id) for h in hands]
        assert len(keys) == len(set(keys))  # no hand recorded twice
        assert all(h.status == "recorded" for h in hands)
        await _wait(lambda: (_row(gw, tid) or {}).get("status") == "finished", "the lobby says finished", c)
        assert _money(c) == money  # balances + pools + house: conserved
        paid = sum(DEPOSIT - c.store.ledger.balance(p.id, CUR) for p in players)
        prizes = sum(int(p.finished.get("prize") or 0) for p in players if p.finished)
        assert paid == 6 * (1000 + 100) - prizes  # one buy-in and fee each: not restarted, not charged twice
        c.store.ledger.verify()
    finally:
        await gw.stop()


def test_small_mtt_through_a_gateway_process(cluster: Cluster, recorder: SecrecyRecorder) -> None:
    """R-TOURN-MTT-2, R-TOURN-BAL-1, R-GEN-5: a scheduled MTT of six on two tables of three, registered with
    ``tournament_register`` over the WebSocket of a real gateway process and played to the end with
    ``tournament_act`` on its one host; the gateway's REST lobby and detail show it; every frame keeps the other
    players' hole cards secret."""
    asyncio.run(_mtt(cluster, recorder))


def _player(c: Cluster) -> str:
    name = f"tp{uuid.uuid4().hex[:8]}"
    pid = c.store.accounts.register(name, "password-" + name).id
    c.store.ledger.deposit(pid, CUR, DEPOSIT, f"dep:{pid}")
    return c.store.accounts.login(name, "password-" + name)


async def _mtt(c: Cluster, recorder: SecrecyRecorder) -> None:
    gw = await _gateway(c)  # only to declare the tournament in the cluster (what an operator route does)
    node = c.start(f"{c.prefix}-g1", "gateway")
    clients: list[ProtocolClient] = []
    try:
        tid = f"mtt-{uuid.uuid4().hex[:6]}"
        spec = TournamentSpec.from_dict({**_sng().to_dict(), "name": "Cluster MTT", "kind": "mtt", "seats": 3,
                                         "starts_at": time.time() + 25, "min_entrants": 2, "payout": "mtt"})
        await gw.tournaments.create(spec, tid)
        lobby_url = node.base_url + "/api/tournaments"
        async with httpx.AsyncClient(timeout=10) as http:
            async def listed() -> list[str]:
                tabs = (await http.get(lobby_url)).json()
                return [r["id"] for r in tabs["mtt"] if r["status"] == "registering"]

            deadline = time.monotonic() + TIMEOUT
            while await listed() != [tid]:
                assert time.monotonic() < deadline, "the MTT never reached the gateway's lobby"
                await asyncio.sleep(0.2)
            tokens = [_player(c) for _ in range(6)]
            money = _money(c)
            clients = [ProtocolClient(node.ws_url, token) for token in tokens]
            for i, cl in enumerate(clients):
                recorder.attach(cl, f"mtt-{i}")
            bots = [TwisterBot(cl) for cl in clients]  # acts on every tournament "state" decision: all-in
            for cl in clients:
                await cl.connect()
            for cl in clients:
                ack = await cl.command({"type": "tournament_register", "tournament": tid,
                                        "id": f"reg-{secrets.token_hex(6)}"})
                assert ack["result"]["registered"] is True
            await _wait(lambda: all(b.finished.is_set() for b in bots), "every player ranked", c)
            detail = (await http.get(f"{lobby_url}/{tid}")).json()
        assert detail["status"] == "finished" and len(detail["results"]) == 6
        assert len({h.table_id for h in _hands(c, tid)}) >= 2  # played on two tables
        assert sorted(int((b.result or {})["place"]) for b in bots)[0] == 1
        assert _money(c) == money
        c.store.ledger.verify()
        recorder.check_tournament()  # every face-down card went to its own seat only (R-GEN-5)
        assert recorder.checked_frames > 0
    finally:
        for cl in clients:
            await cl.close()
        await gw.stop()
