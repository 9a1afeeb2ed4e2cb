"""The real ``riverboat serve`` process, started and stopped 20 times: every start stops within 5 s of the first
SIGTERM or SIGINT, with or without demo tables and bots, whether the signal comes while the bots are still being
seated or once they play (issue #16: a demo bot that swallowed its cancellation kept the event loop from closing,
for 30 s to 10 minutes in one start of three; R-SERVER-1: the hands it leaves are voided and refunded, tested in
test_server_shutdown.py).

Lean on purpose: two lanes of ten starts side by side, each on its own SQLite file (migrated by its first start).
"""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from .conftest import free_port

STOP_WITHIN_S = 5.0
# (extra arguments, signal, signal as soon as /health is 200 (bots still being seated) or after "is running",
#  a WebSocket client connected that never reads nor answers the closing handshake)
VARIANTS: list[tuple[list[str], signal.Signals, bool, bool]] = [
    ([], signal.SIGTERM, True, False),
    ([], signal.SIGINT, True, False),
    ([], signal.SIGTERM, False, True),
    ([], signal.SIGINT, False, False),
    (["--no-bots"], signal.SIGTERM, True, True),
    (["--no-demo"], signal.SIGINT, True, False),
    ([], signal.SIGTERM, True, False),
    ([], signal.SIGINT, True, True),
    ([], signal.SIGTERM, False, False),
    (["--no-demo"], signal.SIGTERM, False, True),
]
CYCLES = VARIANTS * 2  # 20 starts


def _budget() -> float:
    """5 s on a machine with a core to spare; on a machine loaded beyond its cores (other test suites) the bound
    grows with the load per core, so that it still tells a hang (minutes) from a slow stop."""
    per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    return STOP_WITHIN_S * max(1.0, per_core)


def _group_alive(pgid: int) -> list[int]:
    """The processes of group ``pgid`` that are still running (zombies waiting to be reaped are not)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


def _stuck_client(port: int) -> socket.socket:
    """A WebSocket client that completes the opening handshake and then never reads again."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert sock.recv(4096).startswith(b"HTTP/1.1 101")
    return sock


def _start_and_stop(tmp: Path, db_url: str, n: int, extra: list[str], sig: signal.Signals, early: bool,
                    stuck: bool) -> tuple[float, str]:
    port = free_port()
    log_path = tmp / f"serve-{n}.log"
    with log_path.open("wb") as log:
        # a session of its own, like a terminal's foreground job: SIGINT goes to the whole group (as Ctrl-C does,
        # the store process included), SIGTERM to the server process only (as `kill` does)
        proc = subprocess.Popen(
            [sys.executable, "-c", "from riverboat.cli import main; main()", "serve", "--port", str(port),
             "--database-url", db_url, *extra],
            stdout=log, stderr=subprocess.STDOUT, cwd=str(tmp), start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        client: socket.socket | None = None
        try:
            deadline = time.monotonic() + 60
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=1.0) as http:
                while True:
                    assert proc.poll() is None, log_path.read_text(errors="replace")
                    assert time.monotonic() < deadline, "not ready in 60 s"
                    try:
                        if http.get("/health").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.02)
            while not early and b"is running" not in log_path.read_bytes():
                assert time.monotonic() < deadline, "no 'is running' line in 60 s"
                time.sleep(0.05)
            if not early:
                time.sleep(0.5)  # the bots sit down and play
            if stuck:
                client = _stuck_client(port)
            sent = time.monotonic()
            if sig == signal.SIGINT:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
            budget = _budget()
            try:
                code = proc.wait(budget)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"start {n} ({extra}, {sig.name}, early={early}) still running "
                                     f"{budget:.1f} s after the signal:\n"
                                     f"{log_path.read_text(errors='replace')}") from None
            took = time.monotonic() - sent
            assert code == 0, f"start {n}: exit status {code}:\n{log_path.read_text(errors='replace')}"
            while _group_alive(proc.pid):  # the store process (and multiprocessing's tracker) went with it
                assert time.monotonic() - sent < budget, f"start {n}: a process of its group outlived it"
                time.sleep(0.05)
            return took, log_path.read_text(errors="replace")
        finally:
            if client is not None:
                client.close()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_serve_stops_within_5_s_of_sigterm_or_sigint_20_times(tmp_path: Path) -> None:
    def lane(k: int) -> list[tuple[float, str]]:  # one database per lane: a start voids the file's open hands
        db_url = f"sqlite:///{tmp_path / f'stop-{k}.sqlite3'}"
        return [_start_and_stop(tmp_path, db_url, n, *CYCLES[n]) for n in range(k, len(CYCLES), 2)]

    with ThreadPoolExecutor(2) as pool:
        results = [r for rs in pool.map(lane, range(2)) for r in rs]
    assert len(results) == 20
    for took, log in results:
        assert took < _budget()
        assert "Riverboat stopped" in log
        assert "Traceback" not in log, log
    print(f"20 stops, worst {max(t for t, _ in results):.2f} s")


async def test_protocol_client_close_lets_the_callers_cancellation_through() -> None:
    """The bug behind the hang: ``ProtocolClient.close()`` swallowed the cancellation of the task closing it (a
    demo bot cancelled at shutdown then went on reconnecting forever)."""
    from riverboat.bots import ProtocolClient

    client = ProtocolClient("ws://127.0.0.1:9/ws")
    client._reader = asyncio.create_task(asyncio.sleep(60))  # a reader that does not end by itself
    closing = asyncio.create_task(client.close())
    await asyncio.sleep(0.01)
    closing.cancel()
    await asyncio.wait({closing}, timeout=1.0)
    assert closing.cancelled()
    client._reader.cancel()


def test_run_loop_leaves_a_task_that_ignores_its_cancellation_behind(monkeypatch: Any,
                                                                     caplog: Any) -> None:
    """However a task misbehaves, the loop closes: a task that swallows its cancellation is logged with its
    stack and left behind once ``LEFTOVER_TASKS_S`` have passed (``asyncio.run`` waits for it forever)."""
    from riverboat.server import launch

    monkeypatch.setattr(launch, "LEFTOVER_TASKS_S", 0.2)

    async def stubborn() -> None:
        while True:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                pass

    async def main() -> None:
        asyncio.create_task(stubborn(), name="stubborn")
        await asyncio.sleep(0)

    runner = threading.Thread(target=launch.run_loop, args=(main(),), daemon=True)  # asyncio.run never returns
    runner.start()
    runner.join(3.0)
    assert not runner.is_alive()
    assert "task stubborn did not end" in caplog.text and "in stubborn" in caplog.text


def test_a_second_stop_signal_exits_at_once() -> None:
    """The first SIGTERM/SIGINT asks for the clean stop; a second one, while that stop is under way, ends the
    process at once (issue #16: a second Ctrl-C did not)."""
    code = ("import os, signal, time\n"
            "from riverboat.server.runner import StopSignals\n"
            "s = StopSignals()\n"
            "s.on_stop(lambda: print('stopping', flush=True))\n"
            "with s.installed():\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "    time.sleep(0.1)\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(30)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert done.stdout == "stopping\n"
    assert done.returncode == 128 + signal.SIGINT
    assert "again while stopping" in done.stderr
