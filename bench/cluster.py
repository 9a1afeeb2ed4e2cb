"""Cluster benchmark: the human-paced bot load of ``bench/load.py`` against three rooms, in one run:

1. ``all``: one ``riverboat serve --role all`` process (the peer: today's single process);
2. ``gw+1``: one gateway and one table host (``--role gateway`` + ``--role tables``) over NATS;
3. ``gw+2``: one gateway and two table hosts.

Every room uses the same PostgreSQL server (a fresh schema per room: the bench compares the room's processes, not
SQLite with PostgreSQL) and the same table list (ceil(N / 6) six-max play-money NL Hold'em tables). The bots are
``bench/load.py``'s client workers (check/call bots waiting U(LO, HI) s before every action), connected to the
room's only HTTP entry (the single process, or the gateway). For each room: hands/s, actions/s, p50/p99 latency
from an ``act`` sent to the first frame about that table back, and the CPU of every process of the room (the
gateway, the hosts and their store processes; NATS itself is reported apart) per second and per action. The
last line printed is one JSON object with every figure.

Run: ``.venv/bin/python bench/cluster.py --bots 5000 --human 1 4 --duration 40 --warmup 30 --client-procs 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import make_accounts, pct, server_cpu_seconds, wait_health  # noqa: E402
from riverboat.cluster.link import drop_room  # noqa: E402
from riverboat.cluster.names import Names, table_id_for  # noqa: E402

PG_BASE = os.environ.get("RIVERBOAT_BENCH_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
LOAD = Path(__file__).resolve().parent / "load.py"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def nats_pid() -> int | None:
    out = subprocess.run(["pgrep", "-x", "nats-server"], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else None


def proc_cpu(pid: int) -> float:
    own, kids = server_cpu_seconds(pid)
    return own + kids


class Room:
    """The processes of one room under test."""

    def __init__(self, kind: str, tmp: Path, db_url: str, tables_file: Path, prefix: str) -> None:
        self.kind = kind
        self.procs: list[subprocess.Popen[bytes]] = []
        self.logs: list[Any] = []
        self.tmp = tmp
        self.db_url = db_url
        self.tables_file = tables_file
        self.prefix = prefix
        self.port = free_port()
        self.host_ports: list[int] = []

    def _start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.tmp / f"{self.prefix}-{name}.log").open("wb")
        self.logs.append(log)
        proc = subprocess.Popen([sys.executable, "-c", "from riverboat.cli import main; main()", "serve", *args,
                                 "--database-url", self.db_url, "--no-bots", "--frame-rate", "1000",
                                 "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT, cwd=str(self.tmp))
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        tables = ["--tables", str(self.tables_file)]
        if self.kind == "all":
            proc = self._start("all", "--port", str(self.port), *tables)
            wait_health(f"http://127.0.0.1:{self.port}/health", proc)
            return
        hosts = 1 if self.kind == "gw+1" else 2
        common = ["--role", "tables", "--cluster", self.prefix]
        for i in range(hosts):
            port = free_port()
            self.host_ports.append(port)
            proc = self._start(f"h{i + 1}", *common, "--node-id", f"{self.prefix}-h{i + 1}", "--port", str(port),
                               *(tables if i == 0 else ["--no-demo"]))
            wait_health(f"http://127.0.0.1:{port}/health", proc)
        gw = self._start("gw", "--role", "gateway", "--cluster", self.prefix, "--node-id", f"{self.prefix}-gw",
                         "--port", str(self.port))
        wait_health(f"http://127.0.0.1:{self.port}/health", gw)

    def cpu(self) -> float:
        return sum(proc_cpu(p.pid) for p in self.procs if p.poll() is None)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(120)
            except subprocess.TimeoutExpired:
                p.kill()
        for log in self.logs:
            log.close()


async def wait_owned(room: Room, ids: list[str], timeout: float = 300.0) -> None:
    """Until every table is owned by a host, in the lobby, and the hosts are done balancing (the same split for
    3 s), so that no bot sits down at a table on its way between hosts."""
    deadline = time.monotonic() + timeout
    stable, last = 0, None
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < deadline:
            owned = [tuple(sorted((await http.get(f"http://127.0.0.1:{p}/health")).json()["tables"]))
                     for p in room.host_ports]
            lobby = (await http.get(f"http://127.0.0.1:{room.port}/api/lobby")).json()["tables"]
            complete = sum(len(o) for o in owned) == len(ids) and {t["id"] for t in lobby} >= set(ids)
            stable = stable + 1 if complete and owned == last else 0
            last = owned
            if stable >= 6:
                return
            await asyncio.sleep(0.5)
    raise RuntimeError("the tables did not settle on the hosts")


async def run_room(kind: str, n: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    schema = f"rb_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_BASE)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    db_url = f"{PG_BASE}?options=-csearch_path%3D{schema}%20-csynchronous_commit%3Doff"
    prefix = f"b{uuid.uuid4().hex[:6]}"
    room: Room | None = None
    workers: list[asyncio.subprocess.Process] = []
    try:
        t0 = time.perf_counter()
        accounts = await asyncio.to_thread(make_accounts, db_url, n)
        setup_s = time.perf_counter() - t0
        n_tables = math.ceil(n / 6)
        tables = [{"name": f"Load {i}", "game": "holdem", "structure": "NL", "small_blind": 50, "big_blind": 100,
                   "max_seats": 6, "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY",
                   "settings": {"between_hands_seconds": 1.0, "action_seconds": 30}} for i in range(n_tables)]
        tables_file = tmp / f"tables-{prefix}.json"
        tables_file.write_text(json.dumps(tables))
        room = Room(kind, tmp, db_url, tables_file, prefix)
        await asyncio.to_thread(room.start)
        if kind == "all":
            async with httpx.AsyncClient(timeout=30) as http:
                lobby = (await http.get(f"http://127.0.0.1:{room.port}/api/lobby")).json()["tables"]
            table_ids = [t["id"] for t in sorted(lobby, key=lambda t: int(t["name"].split()[1]))]
        else:
            table_ids = [table_id_for(i, t["name"], False) for i, t in enumerate(tables)]
            await wait_owned(room, table_ids)
        seats = [(tok, table_ids[i // 6], i % 6) for i, (_, tok) in enumerate(accounts)]
        t0 = time.perf_counter()
        for k in range(args.client_procs):
            w = await asyncio.create_subprocess_exec(
                sys.executable, str(LOAD), "--client-worker", stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, limit=2**28)
            assert w.stdin is not None
            share = [s for i, s in enumerate(seats) if (i // 6) % args.client_procs == k]
            cfg = {"ws_url": f"ws://127.0.0.1:{room.port}/ws", "seats": share, "think": 0.0,
                   "think_range": list(args.human), "batch": True, "warmup": args.warmup, "duration": args.duration}
            w.stdin.write((json.dumps(cfg) + "\n").encode())
            await w.stdin.drain()
            workers.append(w)
        readies = [json.loads(await w.stdout.readline()) for w in workers]  # type: ignore[union-attr]
        connect_s = time.perf_counter() - t0
        for w in workers:
            assert w.stdin is not None
            w.stdin.write(b"go\n")
            await w.stdin.drain()
        await asyncio.sleep(args.warmup)
        nats = nats_pid()
        cpu0, nats0, load0 = room.cpu(), proc_cpu(nats) if nats else 0.0, os.getloadavg()[0]
        t_start = time.perf_counter()
        outs = [json.loads(await w.stdout.readline()) for w in workers]  # type: ignore[union-attr]
        elapsed = time.perf_counter() - t_start
        cpu1, nats1, load1 = room.cpu(), proc_cpu(nats) if nats else 0.0, os.getloadavg()[0]
        await asyncio.gather(*(w.wait() for w in workers))
        latencies = [x for o in outs for x in o["latencies"]]
        hands = {h for o in outs for h in o["hands"]}
        seconds = max(o["seconds"] for o in outs)
        actions = sum(o["actions"] for o in outs)
        room_cpu = (cpu1 - cpu0) / elapsed
        nats_cpu = (nats1 - nats0) / elapsed if kind != "all" else 0.0
        return {
            "room": kind, "bots": n, "tables": n_tables, "connected": sum(o["connected"] for o in outs),
            "seat_failures": sum(r["failures"] for r in readies), "setup_s": round(setup_s, 1),
            "connect_s": round(connect_s, 1), "seconds": round(seconds, 1),
            "hands_per_s": round(len(hands) / seconds, 1), "actions_per_s": round(actions / seconds, 1),
            "latency_p50_ms": round(pct(latencies, 50) * 1000, 1),
            "latency_p99_ms": round(pct(latencies, 99) * 1000, 1),
            "latency_max_ms": round(max(latencies) * 1000, 1) if latencies else None,
            "latency_samples": len(latencies), "room_cpu": round(room_cpu, 3), "nats_cpu": round(nats_cpu, 3),
            "cpu_ms_per_action": round(1000 * room_cpu / (actions / seconds), 3) if actions else None,
            "cpu_ms_per_action_with_nats": round(1000 * (room_cpu + nats_cpu) / (actions / seconds), 3)
            if actions else None,
            "client_cpu": [round(o["cpu"], 2) for o in outs],
            "load_avg_start": round(load0, 2), "load_avg_end": round(load1, 2),
        }
    finally:
        for w in workers:
            if w.returncode is None:
                w.kill()
        if room is not None:
            await asyncio.to_thread(room.stop)
            if kind != "all":
                await drop_room("nats://127.0.0.1:4222", Names(prefix))
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[2000])
    parser.add_argument("--rooms", nargs="+", default=["all", "gw+1", "gw+2"], choices=["all", "gw+1", "gw+2"])
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--human", nargs=2, type=float, metavar=("LO", "HI"), default=(1.0, 4.0))
    parser.add_argument("--client-procs", type=int, default=2)
    args = parser.parse_args()
    results: dict[str, Any] = {"human_think_s": list(args.human), "cpus": os.cpu_count(),
                               "load_avg_before": round(os.getloadavg()[0], 2), "runs": []}
    with tempfile.TemporaryDirectory(prefix="rb-cluster-") as tmp:
        for n in args.bots:
            for kind in args.rooms:
                r = await run_room(kind, n, args, Path(tmp))
                print(f"{kind:5s} bots={n:5d} connected={r['connected']:5d} hands/s={r['hands_per_s']:6.1f} "
                      f"actions/s={r['actions_per_s']:7.1f} p50={r['latency_p50_ms']:6.1f} ms "
                      f"p99={r['latency_p99_ms']:6.1f} ms cpu={r['room_cpu']:.2f} (+nats {r['nats_cpu']:.2f}) "
                      f"cpu/action={r['cpu_ms_per_action']} ms load={r['load_avg_start']}-{r['load_avg_end']}",
                      flush=True)
                results["runs"].append(r)
    print(json.dumps(results))


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    asyncio.run(main())
