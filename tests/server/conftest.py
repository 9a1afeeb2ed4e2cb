"""Harness for the server tests: a real ``riverboat serve`` process on a free port with SQLite in a tmp dir.

``RunningServer`` starts the process with a table list (JSON, like ``riverboat serve --tables``), waits for
``GET /health`` to answer 200, and stops it with SIGTERM (asserting a clean exit). Players are created directly in
the same database through the store with a cheap argon2id hasher (the REST register/login path is tested on its
own in test_server_rest.py), funded by an operator deposit, and connected with real WebSocket clients.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from riverboat.store import Store

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RunningServer:
    def __init__(self, tmp: Path, tables: list[dict[str, Any]] | None, extra_args: list[str] | None = None,
                 db_path: Path | None = None) -> None:
        self.tmp = tmp
        self.db_path = db_path or tmp / f"rb-{uuid.uuid4().hex[:8]}.sqlite3"
        self.db_url = f"sqlite:///{self.db_path}"
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        table_args: list[str] = []
        if tables is not None:  # None: the demo tables of `riverboat serve`
            tables_file = tmp / f"tables-{self.port}.json"
            tables_file.write_text(json.dumps(tables))
            table_args = ["--tables", str(tables_file)]
        self.log_path = tmp / f"server-{self.port}.log"
        self._log = self.log_path.open("wb")
        args = [
            sys.executable, "-c", "from riverboat.cli import main; main()", "serve",
            "--port", str(self.port), "--database-url", self.db_url, *table_args,
            "--log-level", "warning", *(extra_args or []),
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT, cwd=str(tmp), env=env)
        self._store: Store | None = None
        self.killed = False  # set by a test that kills the process on purpose (no clean exit expected)
        self.http = httpx.Client(base_url=self.base_url, timeout=5.0)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if self.http.get("/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server not ready after {timeout} s:\n{self.log()}")

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.db_url, password_hasher=FAST_HASHER)
        return self._store

    def player(self, name: str | None = None, eur: int = 0, play: int = 0) -> tuple[int, str]:
        """Create a funded player in the server's database; returns (player_id, bearer token)."""
        name = name or f"p{uuid.uuid4().hex[:10]}"
        info = self.store.accounts.register(name, "password-" + name)
        if eur:
            self.store.ledger.deposit(info.id, "EUR", eur, f"test-dep-eur:{info.id}")
        if play:
            self.store.ledger.deposit(info.id, "PLAY", play, f"test-dep-play:{info.id}")
        token = self.store.accounts.login(name, "password-" + name)
        return info.id, token

    def balance(self, player_id: int, currency: str = "EUR") -> int:
        return self.store.ledger.balance(player_id, currency)

    def lobby(self) -> list[dict[str, Any]]:
        data = self.http.get("/api/lobby").json()
        return list(data["tables"]) + list(data.get("pools", []))

    def table_id(self, name: str) -> str:
        for entry in self.lobby():
            if entry.get("name") == name:
                return str(entry["id"])
        raise KeyError(name)

    def stop(self, timeout: float = 30.0) -> int:
        self.http.close()
        if self._store is not None:
            self._store.dispose()
            self._store = None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
                raise AssertionError(f"server did not stop on SIGTERM:\n{self.log()}") from None
        self._log.close()
        return self.proc.returncode


@pytest.fixture(scope="module")
def start_module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Like ``start_server`` but shared by the tests of one module."""
    servers: list[RunningServer] = []

    def start(tables: list[dict[str, Any]] | None, extra_args: list[str] | None = None) -> RunningServer:
        server = RunningServer(tmp_path_factory.mktemp("server"), tables, extra_args)
        servers.append(server)
        return server

    yield start
    for server in servers:
        code = server.stop()
        assert code == 0, f"server exit status {code}:\n{server.log()}"


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Any]:
    """Factory: ``start_server(tables, extra_args)`` -> RunningServer, stopped (SIGTERM, exit 0) at teardown."""
    servers: list[RunningServer] = []

    def start(tables: list[dict[str, Any]] | None, extra_args: list[str] | None = None,
              db_path: Path | None = None) -> RunningServer:
        server = RunningServer(tmp_path, tables, extra_args, db_path)
        servers.append(server)
        return server

    yield start
    for server in servers:
        code = server.stop()
        assert code == 0 or server.killed, f"server exit status {code}:\n{server.log()}"


# --------------------------------------------------------------------------------------------- secrecy recorder

CARD_TOKEN = re.compile(r'"((?:[2-9TJQKA])[cdhs])"')


class SecrecyRecorder:
    """Records every frame each connection receives, to check R-GEN-5 afterwards against the store's hand
    histories: before a hand's showdown, no frame sent to a player contains another player's face-down card, and
    after it only the cards that were shown.

    A connection's frames are split into hands by the ``hand_started`` event (it carries the hand id; a tournament
    ``state`` frame names its table, the player's seat and the hand in its ``data``); the private
    cards of each seat in each hand (dealt face down, drawn) and the shown cards come from the hand's stored events
    (the engine's event stream with ``visible_to``), not from what the clients received.
    """

    def __init__(self) -> None:
        self.streams: dict[str, list[dict[str, Any]]] = {}
        self.checked_frames = 0
        self.checked_hands: set[tuple[str, str]] = set()

    def attach(self, client: Any, name: str) -> None:
        stream = self.streams.setdefault(name, [])
        client.on_frame.append(stream.append)

    def check(self, store: Store, tables: list[str]) -> None:
        hands: dict[tuple[str, str], tuple[dict[int, set[str]], set[str], set[str]]] = {}
        for table in tables:
            for record in store.hands.for_table(table, limit=10_000, include_void=True):
                private: dict[int, set[str]] = {}
                public: set[str] = set()
                shown: set[str] = set()
                for ev in record.events or []:
                    cards = _cards_in(ev)
                    if ev.get("kind") == "showed":
                        shown |= cards
                    elif ev.get("visible_to") is None:
                        public |= cards
                    else:
                        for seat in ev["visible_to"]:
                            private.setdefault(int(seat), set()).update(cards)
                hands[(table, record.hand_id)] = (private, public, shown)
        for name, frames in self.streams.items():
            current: dict[str, str] = {}  # cash table -> hand id of this segment of the stream
            table_seat: dict[str, int | None] = {}
            # a seat learned from this player's own `seated` event holds until their `left` event: in a cluster
            # the sit's reply (a table_state) and the table's events travel different NATS paths, so a view
            # without the seat may arrive after the seat's first private cards
            by_event: dict[str, bool] = {}
            me = next((f.get("player_id") for f in frames if f.get("type") == "welcome"), None)
            speed_seat: dict[str, int] = {}  # Speed Poker hand key -> my seat in it
            showdown: set[tuple[str, str]] = set()
            # A connection opened while its player sits in a running hand (a reconnect, a new gateway): in a
            # cluster the hand's next private event may come before the table_state of the reconnect (the host
            # routes the player at once; the state is the table actor's next step). Such frames wait for this
            # connection's first view of the table: the seat it names in the same hand is the one they are judged
            # by (a seat cannot change within a hand); without such a view they are judged as seatless.
            waiting: dict[str, list[tuple[dict[str, Any], str, bool]]] = {}

            def judge(name: str, frame: dict[str, Any], table: str, hand_id: str, seat: int | None,
                      after_showdown: bool) -> None:
                if (table, hand_id) not in hands:  # not in the store (a hand voided at shutdown)
                    return
                private, public, shown = hands[(table, hand_id)]
                mine = private.get(seat, set()) if seat is not None else set()
                others = set().union(*(c for s, c in private.items() if s != seat)) if private else set()
                forbidden = others - mine - public
                if after_showdown:
                    forbidden -= shown
                leaked = set(CARD_TOKEN.findall(json.dumps(frame))) & forbidden
                assert not leaked, (f"R-GEN-5 violated: {name} (seat {seat}) received other players' "
                                    f"face-down cards {sorted(leaked)} in hand {hand_id}: {frame}")
                self.checked_frames += 1
                self.checked_hands.add((table, hand_id))

            for frame in frames:
                kind = frame.get("type")
                # a tournament frame names its table (and the player's seat there) in its data
                data = frame.get("data") if kind == "tournament" and isinstance(frame.get("data"), dict) else {}
                table = str(frame.get("table") or frame.get("pool") or data.get("table"))
                ev = frame.get("event") if isinstance(frame.get("event"), dict) else {}
                if data.get("table") is not None and "seat" in data:
                    table_seat[table], by_event[table] = data["seat"], data["seat"] is not None
                    if isinstance(data.get("hand_id"), str):
                        current[table] = data["hand_id"]
                if "hand" in frame and isinstance(frame.get("hand"), str):  # Speed Poker frames name their hand
                    hand_id = frame["hand"]
                    if kind == "speed" and isinstance(frame.get("seat"), int):
                        speed_seat[hand_id] = frame["seat"]
                    seat = speed_seat.get(hand_id)
                else:
                    if kind == "event" and me is not None and ev.get("kind") == "seated" and ev.get("player") == me:
                        table_seat[table], by_event[table] = int(ev["seat"]), True
                    elif (kind == "event" and ev.get("kind") in ("left", "evicted")
                          and ev.get("seat") == table_seat.get(table) and ev.get("player") in (None, me)):
                        table_seat[table], by_event[table] = None, False
                    if kind == "table_state":
                        view = frame.get("view") or {}
                        you = view.get("you")
                        own = you.get("seat") if isinstance(you, dict) else None
                        if own is not None or not by_event.get(table):
                            table_seat[table] = own
                        if view.get("hand_id") and view["hand_id"] != current.get(table):
                            current[table] = str(view["hand_id"])  # joined while this hand was running
                    if kind == "event" and ev.get("kind") == "hand_started":
                        current[table] = str(ev["hand_id"])
                    hand_id = current.get(table)  # type: ignore[assignment]
                    seat = table_seat.get(table)
                # the showdown, or the all-in hands turned up before the run-out (R-SHOW-4 reading): the hands
                # exposed are exactly those the showdown shows, so the same cards become public
                if kind == "event" and ev.get("kind") in ("showed", "exposed") and hand_id is not None:
                    showdown.add((table, hand_id))
                # a player who sat down after the showdown's events gets the finished hand's view: its result
                # says the showdown happened (the cards it may show are still only the store's shown ones)
                result = ((frame.get("view") or {}).get("hand") or {}).get("result") if kind == "table_state" else None
                if isinstance(result, dict) and result.get("showdown") and hand_id is not None:
                    showdown.add((table, hand_id))
                if kind == "table_state" and table in waiting:
                    view_hand = (frame.get("view") or {}).get("hand_id")
                    for early, early_hand, shown_then in waiting.pop(table):
                        judge(name, early, table, early_hand, seat if early_hand == view_hand else None, shown_then)
                if hand_id is None:
                    assert not CARD_TOKEN.findall(json.dumps(frame)), f"{name}: cards before any hand: {frame}"
                    continue
                if kind == "event" and table not in table_seat and "hand" not in frame:
                    # no view of this table on this connection yet
                    waiting.setdefault(table, []).append((frame, hand_id, (table, hand_id) in showdown))
                    continue
                judge(name, frame, table, hand_id, seat, (table, hand_id) in showdown)
            for table, early_frames in waiting.items():  # never followed by a view: judged as seatless
                for early, early_hand, shown_then in early_frames:
                    judge(name, early, table, early_hand, None, shown_then)

    def check_tournament(self) -> None:
        """R-GEN-5 at tournament tables, where a seat is not announced by ``seated`` events: every face-down card
        event a connection receives (``dealt`` face down, ``drew_cards``) is for a seat its player holds at that
        table, as the tournament frames (``started``, ``moved``, ``state``: ``data.table`` and ``data.seat``)
        announce it. The seats are gathered first: in a cluster a ``moved`` frame (from the director's host) and
        the new table's first cards (from the host that deals it) travel different NATS paths."""
        for name, frames in self.streams.items():
            held = set()
            for frame in frames:
                data = frame.get("data") if frame.get("type") == "tournament" else None
                if isinstance(data, dict) and isinstance(data.get("seat"), int):
                    held.add((str(data.get("table")), data["seat"]))
            for frame in frames:
                ev = frame.get("event")
                if frame.get("type") != "event" or not isinstance(ev, dict) or ev.get("up"):
                    continue
                if ev.get("kind") in ("dealt", "drew_cards") and _cards_in(ev):
                    key = (str(frame.get("table")), ev.get("seat"))
                    assert key in held, f"R-GEN-5 violated: {name} received the face-down cards of {key}: {frame}"
                    self.checked_frames += 1
                    self.checked_hands.add(key)


def _cards_in(ev: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for key in ("cards", "discarded", "drawn", "new_cards"):
        value = ev.get(key)
        if isinstance(value, list):
            out |= {c for c in value if isinstance(c, str) and len(c) == 2}
    return out


@pytest.fixture
def recorder() -> SecrecyRecorder:
    return SecrecyRecorder()


# ------------------------------------------------------------------------------------------ frame validation

@pytest.fixture(autouse=True)
def _every_frame_validates(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every frame any test client receives from a real server validates against the documented protocol models
    (``riverboat.server.protocol.validate_server_frame``: unknown fields refused). Checked at the end of each test,
    so a client's read loop never dies on a bad frame mid-test."""
    from pydantic import ValidationError

    from riverboat.bots.client import ProtocolClient
    from riverboat.server import protocol

    problems: list[str] = []
    counted = [0]
    original = ProtocolClient._dispatch

    def dispatch(self: ProtocolClient, frame: dict[str, Any]) -> None:
        counted[0] += 1
        try:
            protocol.validate_server_frame({k: v for k, v in frame.items() if k != "_t"})
        except ValidationError as exc:
            if len(problems) < 5:
                problems.append(f"{exc}\nframe: {json.dumps(frame)[:2000]}")
        original(self, frame)

    monkeypatch.setattr(ProtocolClient, "_dispatch", dispatch)
    yield problems
    assert not problems, "frames that do not match the protocol models:\n" + "\n".join(problems)
