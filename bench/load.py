"""Load benchmark: N bot clients over real WebSockets against one ``riverboat serve`` process.

For each N in ``--bots`` (default 500 and 2000):

1. creates N funded accounts and their session tokens directly in a fresh SQLite database (cheap argon2id: the
   bench measures table play, not password hashing), and ceil(N / 6) six-max play-money NL Hold'em tables;
2. starts ``riverboat serve --tables ... --no-bots`` in a subprocess (one server process, uvicorn, one core);
3. connects N protocol clients (``riverboat.bots``) in this process on uvloop, sits each at its seat, and lets them
   play (check/call bots that think ``--think`` seconds before each action, like people do);
4. measures, over ``--duration`` seconds after a warm-up: hands/s (distinct ``hand_over`` events), actions/s, and the
   latency from an ``act`` frame sent to the first frame about that table received back (the broadcast of the
   action): p50 / p99 / max; and the server's CPU use;
5. then runs the peer baseline in the same run: a bare Starlette echo WebSocket server on the same uvicorn
   settings (``bench/echo_peer.py``), N clients each sending one message per measured per-bot action interval,
   round-trip p50 / p99.

The last line printed is one JSON object with every figure. Run: ``.venv/bin/python bench/load.py --bots 500 2000``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from argon2 import PasswordHasher

from riverboat.bots import CallingStation, CommandRefused, ProtocolClient
from riverboat.bots.player import Bot
from riverboat.server.gcpace import GcPacer
from riverboat.store import Store

ROOT = Path(__file__).resolve().parents[1]
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_health(url: str, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=2.0) as http:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                if http.get(url).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    raise RuntimeError("server not ready")


def make_accounts(url: str, n: int) -> list[tuple[int, str]]:
    store = Store(url, password_hasher=FAST_HASHER)
    store.upgrade()
    out = []
    for first in range(0, n, 250):  # 250 accounts per transaction (group commit, one savepoint per call)
        with store._db.batch():
            for i in range(first, min(n, first + 250)):
                name = f"load{i:05d}"
                info = store.accounts.register(name, "load-password")
                store.ledger.deposit(info.id, "PLAY", 1_000_000, f"load-dep:{info.id}")
                out.append((info.id, store.accounts.login(name, "load-password")))
    store.dispose()
    return out


def server_cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds of the server process and of its children (the store process)."""
    own = cpu_seconds(pid)
    kids = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            for child in (task / "children").read_text().split():
                kids += cpu_seconds(int(child))
        except (OSError, ValueError):
            continue
    return own, kids


SIT_RETRY_S = 300.0
RETRY_CODES = frozenset({"table_timeout", "table_unavailable"})


async def client_worker() -> None:
    """One client process (``--client-worker``): reads its share of the bots as one JSON line on stdin, connects
    and seats them, prints ``{"ready": ...}``, waits for ``go``, measures for the duration after the warm-up and
    prints its raw figures as one JSON line."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    cfg = json.loads(await reader.readline())
    latencies: list[float] = []
    hands: set[str] = set()
    dealt: dict[str, int] = {}  # hand started in the window -> players dealt in (its ``seats``)
    timed_out: set[tuple[str, object, int]] = set()  # (table, event number, seat): a turn the table played for a bot
    measuring = False

    def on_act(table: str, seconds: float) -> None:
        if measuring:
            latencies.append(seconds)

    def on_frame(frame: dict[str, Any]) -> None:
        if measuring and frame.get("type") == "event":
            ev = frame.get("event") or {}
            if ev.get("kind") == "hand_over" and "hand_id" in ev:
                hands.add(ev["hand_id"])
            elif ev.get("kind") == "hand_started" and "hand_id" in ev:
                dealt[ev["hand_id"]] = len(ev.get("seats") or ())
            elif ev.get("kind") == "timed_out":  # every player at the table sees it: counted once
                timed_out.add((str(frame.get("table")), frame.get("seq"), int(ev.get("seat", -1))))

    clients: list[ProtocolClient] = []
    bots: list[Bot] = []
    sem = asyncio.Semaphore(cfg.get("concurrency", 100))  # bots connecting and sitting down at once
    think_range = tuple(cfg["think_range"]) if cfg["think_range"] else None
    failures = 0
    why: dict[str, int] = {}  # why seats failed: the refusal's code or the exception's class

    async def sit_down(client: ProtocolClient, table: str, seat: int) -> None:
        """Sit, and like a person sit again when a cluster gateway says the table's host did not answer in time
        (``table_timeout``: the sit may still apply; then the next one is refused ``already_seated``) or the table
        is between hosts (``table_unavailable``), for up to ``SIT_RETRY_S``."""
        deadline = time.monotonic() + SIT_RETRY_S
        retried = False
        while True:
            try:
                # post at once (R-NEWPLAYER): dealt in from the next hand. Waiting for the big blind kept a table
                # at two or three players for an orbit of the button, minutes at human pace: the measured window
                # then caught rooms at different points of that ramp (3.6 to 5.7 players per hand, in the same
                # run), and per-hand work per action with them
                await client.command({"type": "sit", "table": table, "seat": seat, "buy_in": 10_000,
                                      "wait_for_bb": bool(cfg.get("wait_for_bb", False))}, timeout=600)
                return
            except CommandRefused as exc:
                if exc.code == "already_seated" and retried:
                    return  # an earlier try applied after its timeout
                if exc.code not in RETRY_CODES or time.monotonic() > deadline:
                    raise
                why[f"retried_{exc.code}"] = why.get(f"retried_{exc.code}", 0) + 1
                retried = True
                await asyncio.sleep(random.uniform(1.0, 3.0))

    async def join(token: str, table: str, seat: int) -> None:
        nonlocal failures
        async with sem:
            client = ProtocolClient(cfg["ws_url"], token, batch=cfg["batch"])
            client.on_frame.append(on_frame)
            try:
                await client.connect(timeout=120)
                clients.append(client)
                bots.append(Bot(client, CallingStation(), think=cfg["think"] * random.uniform(0.5, 1.5),
                                think_range=think_range, on_act=on_act))
                await sit_down(client, table, seat)
            except CommandRefused as exc:
                failures += 1
                why[str(exc.code)] = why.get(str(exc.code), 0) + 1
            except Exception as exc:
                failures += 1
                why[type(exc).__name__] = why.get(type(exc).__name__, 0) + 1

    sat_in = 0

    async def back_in() -> None:
        """A bot sat out by its table (it missed a decision while the machine or the room was too slow, R-TIME) sits
        in again, as a person clicks "I'm back"; counted in ``sat_in_again``."""
        nonlocal sat_in
        while True:
            await asyncio.sleep(5.0)
            for client in list(clients):
                for table, view in list(client.views.items()):
                    you = view.get("you") if isinstance(view, dict) else None
                    if isinstance(you, dict) and you.get("sitting_out") and not client.closed.is_set():
                        sat_in += 1
                        with contextlib.suppress(Exception):
                            await client.command({"type": "sit_in", "table": table}, timeout=30)

    pacer = GcPacer()  # the measuring client must not stall on full collections either (riverboat.server.gcpace)
    pacer.start()
    t0 = time.perf_counter()
    returning = asyncio.get_running_loop().create_task(back_in())
    await asyncio.gather(*(join(tok, table, seat) for tok, table, seat in cfg["seats"]))
    print(json.dumps({"ready": True, "connect_s": time.perf_counter() - t0, "failures": failures,
                      "failure_reasons": why, "sat_in_again": sat_in}), flush=True)
    await reader.readline()  # "go"
    await asyncio.sleep(cfg["warmup"])
    cpu0 = time.process_time()
    actions0 = sum(b.actions for b in bots)
    refused0 = sum(b.refused for b in bots)
    measuring = True
    t_start = time.perf_counter()
    await asyncio.sleep(cfg["duration"])
    measuring = False
    elapsed = time.perf_counter() - t_start
    result = {"latencies": latencies, "hands": sorted(hands), "dealt": dealt,
              "actions": sum(b.actions for b in bots) - actions0,
              "cpu": (time.process_time() - cpu0) / elapsed, "seconds": elapsed,
              "connected": sum(1 for c in clients if not c.closed.is_set()), "sat_in_again": sat_in,
              "timed_out_turns": len(timed_out), "refused_actions": sum(b.refused for b in bots) - refused0}
    returning.cancel()
    print(json.dumps(result), flush=True)
    for bot in bots:
        bot.stopped = True
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


async def run_riverboat(n: int, duration: float, warmup: float, think: float, tmp: Path,
                        think_range: tuple[float, float] | None = None, batch: bool = True,
                        client_procs: int = 1, nice: int = 0, logs: Path | None = None) -> dict[str, Any]:
    db = tmp / f"load-{n}.sqlite3"
    url = f"sqlite:///{db}"
    t0 = time.perf_counter()
    accounts = await asyncio.to_thread(make_accounts, url, n)
    setup_s = time.perf_counter() - t0
    n_tables = math.ceil(n / 6)
    tables = [{"name": f"Load {i}", "game": "holdem", "structure": "NL", "small_blind": 50, "big_blind": 100,
               "max_seats": 6, "min_buy_in": 4000, "max_buy_in": 20000, "currency": "PLAY",
               "settings": {"between_hands_seconds": 1.0, "action_seconds": 30}} for i in range(n_tables)]
    tables_file = tmp / f"tables-{n}.json"
    tables_file.write_text(json.dumps(tables))
    port = free_port()
    log = ((logs or tmp) / f"server-{n}.log").open("wb")
    prio = ["nice", "-n", str(nice)] if nice else []  # --nice: the processes under test ahead of other work
    proc = subprocess.Popen(
        [*prio, sys.executable, "-c", "from riverboat.cli import main; main()", "serve", "--port", str(port),
         "--database-url", url, "--tables", str(tables_file), "--no-bots", "--frame-rate", "1000"],
        stdout=log, stderr=subprocess.STDOUT, cwd=str(tmp))
    workers: list[asyncio.subprocess.Process] = []
    try:
        await asyncio.to_thread(wait_health, f"http://127.0.0.1:{port}/health", proc)
        async with httpx.AsyncClient(timeout=30) as http:
            lobby = (await http.get(f"http://127.0.0.1:{port}/api/lobby")).json()["tables"]
        table_ids = [t["id"] for t in sorted(lobby, key=lambda t: int(t["name"].split()[1]))]
        seats = [(tok, table_ids[i // 6], i % 6) for i, (_, tok) in enumerate(accounts)]
        t0 = time.perf_counter()
        for k in range(client_procs):
            w = await asyncio.create_subprocess_exec(
                *prio, sys.executable, str(Path(__file__).resolve()), "--client-worker",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**28)
            assert w.stdin is not None
            # whole tables per process: each table's six bots live in one client process
            share = [s for i, s in enumerate(seats) if (i // 6) % client_procs == k]
            cfg = {"ws_url": f"ws://127.0.0.1:{port}/ws", "seats": share, "think": think,
                   "think_range": list(think_range) if think_range else None, "batch": batch,
                   "warmup": warmup, "duration": duration}
            w.stdin.write((json.dumps(cfg) + "\n").encode())
            await w.stdin.drain()
            workers.append(w)
        readies = [json.loads(await w.stdout.readline()) for w in workers]  # type: ignore[union-attr]
        connect_s = time.perf_counter() - t0
        for w in workers:
            assert w.stdin is not None
            w.stdin.write(b"go\n")
            await w.stdin.drain()
        await asyncio.sleep(warmup)
        own0, kids0 = server_cpu_seconds(proc.pid)
        load0 = os.getloadavg()[0]
        t_start = time.perf_counter()
        outs = [json.loads(await w.stdout.readline()) for w in workers]  # type: ignore[union-attr]
        elapsed = time.perf_counter() - t_start
        own1, kids1 = server_cpu_seconds(proc.pid)
        load1 = os.getloadavg()[0]
        await asyncio.gather(*(w.wait() for w in workers))
        latencies = [x for o in outs for x in o["latencies"]]
        hands = {h for o in outs for h in o["hands"]}
        seconds = max(o["seconds"] for o in outs)
        return {
            "bots": n, "tables": n_tables, "connected": sum(o["connected"] for o in outs),
            "seat_failures": sum(r["failures"] for r in readies), "client_procs": client_procs,
            "sat_in_again": sum(o.get("sat_in_again", 0) for o in outs),
            "think": f"uniform {think_range[0]}-{think_range[1]} s" if think_range else f"{think} s x U(0.5, 1.5)",
            "setup_s": round(setup_s, 1), "connect_s": round(connect_s, 1), "seconds": round(seconds, 1),
            "hands_per_s": round(len(hands) / seconds, 1),
            "actions_per_s": round(sum(o["actions"] for o in outs) / seconds, 1),
            "latency_p50_ms": round(pct(latencies, 50) * 1000, 1),
            "latency_p99_ms": round(pct(latencies, 99) * 1000, 1),
            "latency_max_ms": round(max(latencies) * 1000, 1) if latencies else None,
            "latency_samples": len(latencies), "server_cpu": round((own1 - own0) / elapsed, 2),
            "store_process_cpu": round((kids1 - kids0) / elapsed, 2),
            "client_cpu": [round(o["cpu"], 2) for o in outs], "batch": batch,
            "load_avg_start": round(load0, 2), "load_avg_end": round(load1, 2), "nice": nice,
        }
    finally:
        for w in workers:
            if w.returncode is None:
                w.kill()
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.to_thread(proc.wait, 120)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


async def run_echo_peer(n: int, interval: float, duration: float, warmup: float, nice: int = 0) -> dict[str, Any]:
    port = free_port()
    prio = ["nice", "-n", str(nice)] if nice else []
    proc = subprocess.Popen([*prio, sys.executable, str(ROOT / "bench" / "echo_peer.py"), str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        await asyncio.to_thread(wait_health, f"http://127.0.0.1:{port}/health", proc)
        rtts: list[float] = []
        sent = 0
        state = {"measuring": False, "stop": False}
        payload = json.dumps({"v": 1, "type": "act", "table": "t1-load-000000", "kind": "call", "id": 1})
        sem = asyncio.Semaphore(100)

        async def client() -> None:
            nonlocal sent
            async with sem:
                ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=60, ping_interval=None,
                                              compression=None)
            try:
                await asyncio.sleep(random.uniform(0, interval))
                while not state["stop"]:
                    t = time.perf_counter()
                    await ws.send(payload)
                    await ws.recv()
                    if state["measuring"]:
                        rtts.append(time.perf_counter() - t)
                        sent += 1
                    await asyncio.sleep(interval * random.uniform(0.5, 1.5))
            finally:
                await ws.close()

        tasks = [asyncio.create_task(client()) for _ in range(n)]
        await asyncio.sleep(warmup)
        cpu0 = cpu_seconds(proc.pid)
        state["measuring"] = True
        t0 = time.perf_counter()
        await asyncio.sleep(duration)
        state["measuring"] = False
        elapsed = time.perf_counter() - t0
        cpu = (cpu_seconds(proc.pid) - cpu0) / elapsed
        state["stop"] = True
        await asyncio.gather(*tasks, return_exceptions=True)
        return {"clients": n, "messages_per_s": round(sent / elapsed, 1),
                "rtt_p50_ms": round(pct(rtts, 50) * 1000, 2), "rtt_p99_ms": round(pct(rtts, 99) * 1000, 2),
                "server_cpu": round(cpu, 2)}
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[500, 2000])
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=0.3,
                        help="mean seconds a bot waits before acting (each bot: think x U(0.5, 1.5), fixed)")
    parser.add_argument("--human", nargs=2, type=float, metavar=("LO", "HI"), default=None,
                        help="human pace instead: before every action wait a time drawn uniformly in [LO, HI] s "
                             "(e.g. --human 1 4)")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="client processes the bots are split over (whole tables per process)")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the server and client processes at this nice value (negative: ahead of the other "
                             "work on a shared machine; needs root)")
    parser.add_argument("--no-peer", action="store_true", help="skip the echo peer")
    parser.add_argument("--logs", type=Path, default=None, metavar="DIR",
                        help="keep the server's log in DIR (with RIVERBOAT_PROBE=10: its loop lag and store timings)")
    parser.add_argument("--no-batch", action="store_true", help="bots do not opt in to batch frames")
    parser.add_argument("--client-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db-dir", default="/dev/shm" if Path("/dev/shm").is_dir() else None,
                        help="where the SQLite database goes (default tmpfs: the bench measures the server, not fsync)")
    args = parser.parse_args()
    if args.client_worker:
        await client_worker()
        return
    think_range = tuple(args.human) if args.human else None
    results: dict[str, Any] = {"think_s": args.think, "human_think_s": args.human, "cpus": os.cpu_count(),
                               "load_avg_before": round(os.getloadavg()[0], 2), "db_dir": args.db_dir,
                               "riverboat": [], "echo_peer": []}
    if args.logs is not None:
        args.logs.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rb-load-", dir=args.db_dir) as tmp:
        for n in args.bots:
            rb = await run_riverboat(n, args.duration, args.warmup, args.think, Path(tmp), think_range=think_range,
                                     batch=not args.no_batch, client_procs=args.client_procs, nice=args.nice,
                                     logs=args.logs)
            print(f"riverboat  bots={n:5d} tables={rb['tables']:4d} connected={rb['connected']:5d} "
                  f"seated in {rb['connect_s']:.0f} s hands/s={rb['hands_per_s']:7.1f} "
                  f"actions/s={rb['actions_per_s']:7.1f} p50={rb['latency_p50_ms']:7.1f} ms "
                  f"p99={rb['latency_p99_ms']:7.1f} ms server cpu={rb['server_cpu']:.2f}+{rb['store_process_cpu']:.2f} "
                  f"client cpu={rb['client_cpu']} load={rb['load_avg_start']}-{rb['load_avg_end']} nice={args.nice}", flush=True)
            results["riverboat"].append(rb)
            if args.no_peer:
                continue
            per_bot_interval = n / rb["actions_per_s"] if rb["actions_per_s"] else args.think
            peer = await run_echo_peer(n, per_bot_interval, args.duration, min(args.warmup, 5.0), nice=args.nice)
            print(f"echo peer  clients={n:5d} msgs/s={peer['messages_per_s']:7.1f} "
                  f"p50={peer['rtt_p50_ms']:6.2f} ms p99={peer['rtt_p99_ms']:6.2f} ms "
                  f"server cpu={peer['server_cpu']:.2f}", flush=True)
            results["echo_peer"].append(peer)
    print(json.dumps(results))


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    asyncio.run(main())
