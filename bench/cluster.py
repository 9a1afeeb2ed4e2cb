"""Cluster benchmark: the human-paced bot load of ``bench/load.py`` against three rooms, in one run:

1. ``all``: one ``riverboat serve --role all`` process (the peer: today's single process);
2. ``gw+1``: one gateway and one table host (``--role gateway`` + ``--role tables``) over NATS;
3. ``gw+2``: one gateway and two table hosts.

A cluster room may name the table hosts' delivery window in milliseconds (``gw+2:0``: frames sent at every loop
turn; without it the hosts' default, ``riverboat.cluster.delivery.DELIVERY_WINDOW_S``) and after it the gateway's
command window (``gw+2:10:0``: commands written at every loop turn; without it the gateway's default,
``riverboat.cluster.outbox.COMMAND_WINDOW_S``), so that one run can compare windows on the same machine.

Every room uses the same PostgreSQL server (a fresh schema per room: the bench compares the room's processes, not
SQLite with PostgreSQL) and the same table list (ceil(N / 6) six-max play-money NL Hold'em tables). The bots are
``bench/load.py``'s client workers (check/call bots waiting U(LO, HI) s before every action), connected to the
room's only HTTP entry (the single process, or the gateway). For each room: hands/s, actions/s, p50/p99 latency
from an ``act`` sent to the first frame about that table back, and the CPU of every process of the room (the
gateway, the hosts and their store processes; NATS itself is reported apart) per second and per action. The
last line printed is one JSON object with every figure.

The bots' accounts (registered, funded, logged in) are created ONCE per run, for the largest ``--bots``, in a
template database; each room gets a copy of it (``CREATE DATABASE ... TEMPLATE``: a file copy, seconds for 10,000
accounts) and the first N accounts of it play. ``--keep-accounts`` keeps the template and its session tokens (in
``/dev/shm``) for the next runs while the sessions live (12 h), so a series of runs creates the accounts once (a
template of an older schema is upgraded once, before its copies are made).

Run: ``.venv/bin/python bench/cluster.py --bots 10000 --human 1 4 --duration 40 --warmup 30 --client-procs 2``.
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
from sqlalchemy import create_engine, make_url, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import make_accounts, pct, server_cpu_seconds, wait_health  # noqa: E402
from riverboat.cluster.delivery import DELIVERY_WINDOW_S  # noqa: E402
from riverboat.cluster.link import drop_room  # noqa: E402
from riverboat.cluster.names import Names, table_id_for  # noqa: E402
from riverboat.cluster.outbox import COMMAND_WINDOW_S  # noqa: E402
from riverboat.store import Store  # noqa: E402
from riverboat.store.migrate import head_revision  # noqa: E402

PG_BASE = os.environ.get("RIVERBOAT_BENCH_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
TOKENS_DIR = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
TOKENS_MAX_AGE_S = 11 * 3600  # the store's sessions live 12 h
LOAD = Path(__file__).resolve().parent / "load.py"


def calibrate() -> float:
    """Milliseconds of this thread's CPU for a fixed piece of pure-Python work: the machine's speed at that moment.
    Taken at the start, the middle and the end of every measured window, it tells a room measured while the machine
    ran slower (a shared virtual machine's speed moves: a room of 2026-12-05 used 35 % more CPU per action than the
    same room an hour earlier, its store taking twice as long over the same calls) from one whose code costs more.
    Thread CPU time: waiting for a core (the room's processes compete with this one) does not count."""
    t0 = time.thread_time()
    d: dict[int, int] = {}
    for i in range(500_000):
        k = i & 1023
        d[k] = d.get(k, 0) + len(str(i))
    return round((time.thread_time() - t0) * 1000, 1)


def parse_room(spec: str) -> tuple[str, str, str]:
    """``kind[:delivery ms[:command ms]]`` → (kind, delivery window, command window); "" where not named."""
    kind, *windows = spec.split(":")
    if kind not in ("all", "gw+1", "gw+2") or (windows and kind == "all") or len(windows) > 2 or \
            not all(w.replace(".", "", 1).isdigit() for w in windows):
        raise argparse.ArgumentTypeError(f"{spec!r}: all, gw+1 or gw+2, a cluster room with :MS for its hosts' "
                                         "delivery window and :MS for its gateway's command window")
    delivery, command = (windows + ["", ""])[:2]
    return kind, delivery, command


def room_spec(spec: str) -> str:
    parse_room(spec)
    return spec


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


def nats_cpu(pid: int | None) -> float | None:
    """CPU seconds of the NATS server, None if it is not running or was restarted (another test may do that)."""
    if pid is None or nats_pid() != pid:
        return None
    try:
        return proc_cpu(pid)
    except OSError:
        return None


class Room:
    """The processes of one room under test."""

    def __init__(self, kind: str, tmp: Path, db_url: str, tables_file: Path, prefix: str) -> None:
        self.kind = kind
        self.procs: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []  # "all", or "gw", "h1", "h2"
        self.logs: list[Any] = []
        self.tmp = tmp
        self.db_url = db_url
        self.tables_file = tables_file
        self.prefix = prefix
        self.port = free_port()
        self.host_ports: list[int] = []
        self.profile_dir: Path | None = None
        self.nice = 0  # --nice: the room's processes (and the bots') ahead of other work on a shared machine
        self.log_dir: Path = tmp  # --logs: kept after the run (with RIVERBOAT_PROBE set, the nodes' probe lines)
        self.delivery_window_ms: str | None = None  # the hosts' --delivery-window-ms (None: their default)
        self.command_window_ms: str | None = None  # the gateway's --command-window-ms (None: its default)

    def _start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"{self.kind}-{self.prefix}-{name}.log").open("wb")
        self.logs.append(log)
        code = "from riverboat.cli import main; main()"
        if self.profile_dir is not None:  # --profile: the node's event-loop thread under cProfile, by CPU time
            out = self.profile_dir / f"{self.kind}-{name}.prof"
            # the measured window only: SIGUSR1 (the measurement starts) enables the profiler in the main thread,
            # SIGUSR2 (it ends) disables it and writes the file; the set-up (accounts, seats, balancing) is left out
            code = ("import cProfile, signal, time; from riverboat.cli import main\n"
                    "p = cProfile.Profile(time.thread_time)\n"
                    "signal.signal(signal.SIGUSR1, lambda *_: p.enable())\n"
                    f"signal.signal(signal.SIGUSR2, lambda *_: (p.disable(), p.dump_stats({str(out)!r})))\n"
                    "main()")
        prio = ["nice", "-n", str(self.nice)] if self.nice else []
        proc = subprocess.Popen([*prio, sys.executable, "-c", code, "serve", *args,
                                 "--database-url", self.db_url, "--no-bots", "--frame-rate", "1000",
                                 "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT, cwd=str(self.tmp))
        self.procs.append(proc)
        self.names.append(name)
        return proc

    def start(self) -> None:
        tables = ["--tables", str(self.tables_file)]
        if self.kind == "all":
            proc = self._start("all", "--port", str(self.port), *tables)
            wait_health(f"http://127.0.0.1:{self.port}/health", proc)
            return
        hosts = 1 if self.kind == "gw+1" else 2
        common = ["--role", "tables", "--cluster", self.prefix]
        if self.delivery_window_ms is not None:
            common += ["--delivery-window-ms", self.delivery_window_ms]
        for i in range(hosts):
            port = free_port()
            self.host_ports.append(port)
            proc = self._start(f"h{i + 1}", *common, "--node-id", f"{self.prefix}-h{i + 1}", "--port", str(port),
                               *(tables if i == 0 else ["--no-demo"]))
            wait_health(f"http://127.0.0.1:{port}/health", proc)
        # --no-demo: the gateway would otherwise open the demo tournaments (and their bots) in the measured room
        command = [] if self.command_window_ms is None else ["--command-window-ms", self.command_window_ms]
        gw = self._start("gw", "--role", "gateway", "--no-demo", "--cluster", self.prefix, "--node-id", f"{self.prefix}-gw",
                         "--port", str(self.port), *command)
        wait_health(f"http://127.0.0.1:{self.port}/health", gw)

    def signal_profiled(self, sig: int) -> None:
        """--profile: tell every node that the measured window starts (SIGUSR1) or ends (SIGUSR2)."""
        if self.profile_dir is not None:
            for p in self.procs:
                if p.poll() is None:
                    p.send_signal(sig)

    def cpu(self) -> float:
        return sum(self.cpu_parts().values())

    def cpu_parts(self) -> dict[str, float]:
        """CPU seconds of each process of the room: ``<name>`` itself and ``<name>_store`` (its children: the store
        process)."""
        out: dict[str, float] = {}
        for name, p in zip(self.names, self.procs, strict=True):
            if p.poll() is None:
                out[name], out[f"{name}_store"] = server_cpu_seconds(p.pid)
        return out

    def stop(self) -> None:
        """SIGTERM to every process at once; each must exit within 120 s (a node that does not is killed and
        reported: a stop that hangs is a bug, not a figure)."""
        t0 = time.monotonic()
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for name, p in zip(self.names, self.procs, strict=True):
            try:
                p.wait(max(1.0, 120 - (time.monotonic() - t0)))
            except subprocess.TimeoutExpired:
                p.kill()
                print(f"{self.kind}: node {name} did not stop within 120 s of SIGTERM: killed", flush=True)
            else:
                if p.returncode != 0:
                    print(f"{self.kind}: node {name} exited with {p.returncode} after SIGTERM", flush=True)
        self.stop_s = round(time.monotonic() - t0, 1)
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


def merge_counts(counts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out


def pg_url(database: str) -> str:
    return make_url(PG_BASE).set(database=database).render_as_string(hide_password=False)


def pg_admin() -> Any:
    return create_engine(PG_BASE, isolation_level="AUTOCOMMIT")  # CREATE / DROP DATABASE: outside a transaction


def database_exists(admin: Any, name: str) -> bool:
    with admin.connect() as conn:
        return conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first() is not None


def drop_database(admin: Any, name: str) -> None:
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class Accounts:
    """The bots' accounts, created once in a template database (every room plays on a copy of it)."""

    def __init__(self, n: int, keep: bool) -> None:
        self.n = n
        self.keep = keep
        # a kept template may be of an older schema: it is upgraded when reused (_reuse)
        self.template = f"rb_bench_accounts_{n}" if keep else f"rb_bench_acc_{uuid.uuid4().hex[:10]}"
        self.tokens_file = TOKENS_DIR / f"{self.template}.json"
        self.accounts: list[tuple[int, str]] = []
        self.setup_s = 0.0
        self.reused = False

    def prepare(self) -> None:
        admin = pg_admin()
        try:
            if self.keep and self._reuse(admin):
                return
            drop_database(admin, self.template)
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{self.template}"'))
            t0 = time.perf_counter()
            self.accounts = make_accounts(pg_url(self.template), self.n)
            self.setup_s = time.perf_counter() - t0
            if self.keep:
                self.tokens_file.write_text(json.dumps({"created": time.time(), "schema": head_revision(),
                                                        "accounts": self.accounts}))
        finally:
            admin.dispose()

    def _reuse(self, admin: Any) -> bool:
        """A kept template of at least ``n`` accounts whose sessions still live (the smallest such): use it."""
        kept = sorted((int(f.stem.split("_")[3]), f) for f in TOKENS_DIR.glob("rb_bench_accounts_*.json")
                      if f.stem.split("_")[3].isdigit() and len(f.stem.split("_")) == 4)
        for size, tokens in kept:
            if size < self.n or not database_exists(admin, tokens.stem):
                continue
            saved = json.loads(tokens.read_text())
            if time.time() - saved["created"] < TOKENS_MAX_AGE_S and len(saved["accounts"]) == size:
                self.template, self.tokens_file = tokens.stem, tokens
                store = Store(pg_url(self.template))
                store.upgrade()  # kept from an older schema: migrate it once here, not in every room's copy
                store.dispose()
                self.accounts = [(int(pid), str(tok)) for pid, tok in saved["accounts"]]
                self.reused = True
                return True
        return False

    def copy(self) -> str:
        """A fresh database for one room: a copy of the template (accounts, balances, sessions)."""
        name = f"rb_bench_room_{uuid.uuid4().hex[:10]}"
        admin = pg_admin()
        try:
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'))
        finally:
            admin.dispose()
        return name

    def close(self) -> None:
        if not self.keep:
            admin = pg_admin()
            try:
                drop_database(admin, self.template)
            finally:
                admin.dispose()


async def run_room(spec: str, n: int, args: argparse.Namespace, tmp: Path, prepared: Accounts) -> dict[str, Any]:
    kind, window, command_window = parse_room(spec)
    t0 = time.perf_counter()
    database = await asyncio.to_thread(prepared.copy)
    copy_s = time.perf_counter() - t0
    db_url = f"{pg_url(database)}?options=-csynchronous_commit%3Doff"
    prefix = f"b{uuid.uuid4().hex[:6]}"
    room: Room | None = None
    workers: list[asyncio.subprocess.Process] = []
    try:
        accounts = prepared.accounts[:n]
        setup_s = prepared.setup_s
        n_tables = math.ceil(n / 6)
        tables = [{"name": f"Load {i}", "game": "holdem", "structure": "NL", "small_blind": 50, "big_blind": 100,
                   "max_seats": 6, "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY",
                   "settings": {"between_hands_seconds": 1.0, "action_seconds": 30}} for i in range(n_tables)]
        tables_file = tmp / f"tables-{prefix}.json"
        tables_file.write_text(json.dumps(tables))
        room = Room(kind, tmp, db_url, tables_file, prefix)
        room.delivery_window_ms = window or None
        room.command_window_ms = command_window or None
        room.profile_dir = args.profile
        if args.profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
        room.nice = args.nice
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            room.log_dir = args.logs
        nats_at_start = nats_pid()  # another engineer's test may restart the shared NATS server: noted below
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
            prio = ["nice", "-n", str(args.nice)] if args.nice else []
            w = await asyncio.create_subprocess_exec(
                *prio, sys.executable, str(LOAD), "--client-worker", stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, limit=2**28)
            assert w.stdin is not None
            share = [s for i, s in enumerate(seats) if (i // 6) % args.client_procs == k]
            cfg = {"ws_url": f"ws://127.0.0.1:{room.port}/ws", "seats": share, "think": 0.0,
                   "think_range": list(args.human), "batch": True, "warmup": args.warmup, "duration": args.duration,
                   "wait_for_bb": args.wait_for_bb,
                   "concurrency": args.join_concurrency}
            w.stdin.write((json.dumps(cfg) + "\n").encode())
            await w.stdin.drain()
            workers.append(w)
        readies = [json.loads(await w.stdout.readline()) for w in workers]  # type: ignore[union-attr]
        connect_s = time.perf_counter() - t0
        for w in workers:
            assert w.stdin is not None
            w.stdin.write(b"go\n")
            await w.stdin.drain()
        print(f"{kind}: {sum(r['failures'] for r in readies)} seat failures of {n}, seated in {connect_s:.0f} s; "
              f"warm-up {args.warmup:.0f} s, then measuring {args.duration:.0f} s", file=sys.stderr, flush=True)
        await asyncio.sleep(args.warmup)
        nats = nats_pid()
        room.signal_profiled(signal.SIGUSR1)
        parts0, nats0, load0 = room.cpu_parts(), nats_cpu(nats), os.getloadavg()[0]
        t_start = time.perf_counter()
        speed = [calibrate()]

        async def mid_window() -> None:
            await asyncio.sleep(args.duration / 2)
            speed.append(calibrate())

        mid = asyncio.ensure_future(mid_window())
        outs = [json.loads(await w.stdout.readline()) for w in workers]  # type: ignore[union-attr]
        elapsed = time.perf_counter() - t_start
        mid.cancel()
        speed.append(calibrate())
        room.signal_profiled(signal.SIGUSR2)
        parts1, nats1, load1 = room.cpu_parts(), nats_cpu(nats), os.getloadavg()[0]
        cpu0, cpu1 = sum(parts0.values()), sum(parts1.values())
        await asyncio.gather(*(w.wait() for w in workers))
        latencies = [x for o in outs for x in o["latencies"]]
        hands = {h for o in outs for h in o["hands"]}
        dealt = {h: n for o in outs for h, n in o.get("dealt", {}).items()}
        seconds = max(o["seconds"] for o in outs)
        actions = sum(o["actions"] for o in outs)
        room_cpu = (cpu1 - cpu0) / elapsed
        nats_used = (nats1 - nats0) / elapsed if kind != "all" and nats0 is not None and nats1 is not None else None
        # the NATS server was restarted meanwhile (during the set-up or the measurement): noted, not hidden
        restarted = kind != "all" and (nats_used is None or nats_pid() != nats_at_start)
        return {
            "room": spec, "bots": n, "tables": n_tables, "connected": sum(o["connected"] for o in outs),
            "delivery_window_ms": None if kind == "all" else float(window or DELIVERY_WINDOW_S * 1000),
            "command_window_ms": None if kind == "all" else float(command_window or COMMAND_WINDOW_S * 1000),
            "seat_failures": sum(r["failures"] for r in readies),
            "seat_failure_reasons": merge_counts(r.get("failure_reasons", {}) for r in readies),
            "sat_in_again": sum(o.get("sat_in_again", 0) for o in outs),
            # turns the table played for a bot (its action timer ran out: the bot never got or answered its turn)
            # and bot actions the room refused (e.g. table_timeout), over the measurement
            "timed_out_turns": sum(o.get("timed_out_turns", 0) for o in outs),
            "refused_actions": sum(o.get("refused_actions", 0) for o in outs),
            "accounts_s": round(setup_s, 1),
            "accounts_reused": prepared.reused, "db_copy_s": round(copy_s, 1),
            "connect_s": round(connect_s, 1), "seconds": round(seconds, 1),
            "hands_per_s": round(len(hands) / seconds, 1), "actions_per_s": round(actions / seconds, 1),
            # the hands in the window and how many players each dealt in: per-hand work (deal, settle, the store)
            # is a large part of the CPU, so two rooms' CPU per action compare only when these are alike
            "actions_per_hand": round(actions / len(hands), 1) if hands else None,
            "players_per_hand": round(sum(dealt.values()) / len(dealt), 2) if dealt else None,
            "latency_p50_ms": round(pct(latencies, 50) * 1000, 1),
            "latency_p99_ms": round(pct(latencies, 99) * 1000, 1),
            "latency_max_ms": round(max(latencies) * 1000, 1) if latencies else None,
            "latency_samples": len(latencies), "room_cpu": round(room_cpu, 3),
            "nats_cpu": round(nats_used, 3) if nats_used is not None else None, "nats_restarted": restarted,
            "cpu_ms_per_action": round(1000 * room_cpu / (actions / seconds), 3) if actions else None,
            "cpu_ms_per_action_with_nats": round(1000 * (room_cpu + nats_used) / (actions / seconds), 3)
            if actions and nats_used is not None else None,
            "cpu_ms_per_action_by_process": {
                k: round(1000 * (parts1[k] - parts0.get(k, 0.0)) / elapsed / (actions / seconds), 3)
                for k in parts1} if actions else None,
            "client_cpu": [round(o["cpu"], 2) for o in outs],
            "load_avg_start": round(load0, 2), "load_avg_end": round(load1, 2), "nice": args.nice,
            "calibration_ms": speed,  # the machine's speed during the window (calibrate(): higher is slower)
        }
    finally:
        for w in workers:
            if w.returncode is None:
                w.kill()
        if room is not None:
            await asyncio.to_thread(room.stop)
            if kind != "all":
                await drop_room("nats://127.0.0.1:4222", Names(prefix))
        admin = pg_admin()
        try:
            drop_database(admin, database)
        finally:
            admin.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[2000])
    parser.add_argument("--rooms", nargs="+", default=["all", "gw+1", "gw+2"], type=room_spec,
                        help="all, gw+1, gw+2; a cluster room may add its hosts' delivery window and its gateway's command "
                        "window: gw+2:0, gw+2:10:0")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--human", nargs=2, type=float, metavar=("LO", "HI"), default=(1.0, 4.0))
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--join-concurrency", type=int, default=32,
                        help="bots of one client process connecting and sitting down at once (a cluster gateway "
                             "answers table_timeout after 5 s: more sits in flight than the store settles in 5 s "
                             "time out and are sat again)")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="run every node's event-loop thread under cProfile (CPU time) during the measured window "
                             "and write DIR/<room>-<node>.prof at its end (slows the nodes: not for figures)")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the room's and the bots' processes at this nice value (negative: ahead of other "
                             "work on a shared machine, as a dedicated machine would run them; needs root)")
    parser.add_argument("--logs", type=Path, default=None, metavar="DIR",
                        help="keep every node's log in DIR (default: a temporary directory removed at the end); run "
                             "with RIVERBOAT_PROBE=10 to have each node log its loop lag and store timings there")
    parser.add_argument("--wait-for-bb", action="store_true",
                        help="the bots sit down waiting for the big blind (before 2026-12-05 they all did): tables "
                             "then deal two- and three-player hands for an orbit of the button, so the window "
                             "measures a room still filling up; default: they post at once and every hand is full")
    parser.add_argument("--keep-accounts", action="store_true",
                        help="keep the accounts' template database and tokens for later runs (12 h sessions)")
    args = parser.parse_args()
    results: dict[str, Any] = {"human_think_s": list(args.human), "wait_for_bb": args.wait_for_bb,
                               "cpus": os.cpu_count(), "load_avg_before": round(os.getloadavg()[0], 2), "runs": []}
    prepared = Accounts(max(args.bots), args.keep_accounts)
    t0 = time.perf_counter()
    await asyncio.to_thread(prepared.prepare)
    print(f"accounts: {prepared.n} {'reused from' if prepared.reused else 'created in'} {prepared.template} "
          f"in {time.perf_counter() - t0:.1f} s", flush=True)
    results["accounts"] = {"n": prepared.n, "reused": prepared.reused, "created_s": round(prepared.setup_s, 1)}
    try:
        with tempfile.TemporaryDirectory(prefix="rb-cluster-") as tmp:
            for n in args.bots:
                for kind in args.rooms:
                    r = await run_room(kind, n, args, Path(tmp), prepared)
                    print(f"{kind:5s} bots={n:5d} connected={r['connected']:5d} hands/s={r['hands_per_s']:6.1f} "
                          f"actions/s={r['actions_per_s']:7.1f} (per hand {r['actions_per_hand']}, "
                          f"{r['players_per_hand']} players) p50={r['latency_p50_ms']:6.1f} ms "
                          f"p99={r['latency_p99_ms']:6.1f} ms cpu={r['room_cpu']:.2f} (+nats {r['nats_cpu']}) "
                          f"cpu/action={r['cpu_ms_per_action']} ms load={r['load_avg_start']}-{r['load_avg_end']} "
                          f"calibration={r['calibration_ms']} ms",
                          flush=True)
                    results["runs"].append(r)
    finally:
        prepared.close()
    print(json.dumps(results))


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    asyncio.run(main())
