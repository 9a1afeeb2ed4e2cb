"""Fixtures for the room tests: a real store (SQLite in a tmp dir, migrated once per worker and copied per test),
players with money, a room on a FakeClock with a seeded shuffle, and recording sinks that check secrecy."""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from riverboat.cards import seeded_rng
from riverboat.engine import ActionKind
from riverboat.room import FakeClock, Room
from riverboat.room.move import Move
from riverboat.room.table import Table
from riverboat.store import Store

_NAMES = itertools.count()
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
CARD = re.compile(r"^(?:[2-9TJQKA][cdhs])$")


@pytest.fixture(scope="session")
def room_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("room_template") / "template.sqlite3"
    st = Store(f"sqlite:///{path}")
    st.upgrade()
    st.dispose()
    return path


@pytest.fixture
def store(room_sqlite_template: Path) -> Iterator[Store]:
    """A private copy of the migrated database, in RAM-backed /dev/shm when available: the store commits with
    ``synchronous=FULL`` and the room tests settle thousands of hands, so fsyncs on a busy disk dominate."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="rb-room-", dir=shm if shm.is_dir() else None))
    path = folder / "room.sqlite3"
    shutil.copy(room_sqlite_template, path)
    st = Store(f"sqlite:///{path}", password_hasher=FAST_HASHER)
    try:
        yield st
    finally:
        st.dispose()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _ledger_audit(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every room test that touches a store ends with a full ledger audit, after the room has stopped: every
    transaction balanced, cached balances equal to their entries, nothing negative except the outside world, and
    the sum over all accounts zero per currency (chip conservation)."""
    if "store" not in request.fixturenames:
        yield
        return
    st: Store = request.getfixturevalue("store")
    yield
    st.ledger.verify()
    for currency in ("EUR", "PLAY"):
        assert st.ledger.total(currency) == 0


def make_players(store: Store, n: int, deposit: int = 10_000, currency: str = "EUR") -> list[int]:
    ids = []
    for _ in range(n):
        info = store.accounts.register(f"player{next(_NAMES):04d}", "correct horse battery")
        store.ledger.deposit(info.id, currency, deposit, f"dep:{info.id}:{currency}")
        ids.append(info.id)
    return ids


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def room(store: Store, clock: FakeClock) -> AsyncIterator[Room]:
    r = Room(store, clock=clock, rng=seeded_rng(7))
    await r.start()
    try:
        yield r
    finally:
        await r.stop()


def money(store: Store, currency: str = "EUR") -> dict[str, int]:
    """Every non-external account's balance: wallets, table escrows and the house rake."""
    return {k: v for k, v in store.ledger.balances(currency).items() if not k.startswith("external")}


def assert_conserved(store: Store, expected_total: int, currency: str = "EUR") -> None:
    """Chip conservation: wallets + escrows (stacks, and pots in play) + rake == what was deposited."""
    assert store.ledger.total(currency) == 0
    store.ledger.verify()
    assert sum(money(store, currency).values()) == expected_total


def assert_table_matches_store(store: Store, table: Table) -> None:
    """Between hands every seated stack equals the player's escrow in the store."""
    assert table.hand is None
    stacks = store.ledger.table_stacks(table.id, table.spec.currency)
    assert stacks == {st.player_id: st.stack for st in table.seats.values() if st.stack > 0}


class Recorder:
    """A sink that keeps every message and checks that no face-down card of another seat is ever shown to this
    player before it is shown at showdown (R-GEN-5)."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        self.messages: list[dict[str, Any]] = []
        self.my_seat: dict[str, int | None] = {}
        self.violations: list[str] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        table = message.get("table")
        if message.get("type") == "table_state" and table is not None:
            view = message["view"]
            you = view.get("you")
            self.my_seat[table] = you["seat"] if you else None
            hand = view.get("hand")
            if hand:
                shown = {int(s) for s in (hand.get("result") or {}).get("shown", {})}
                for pl in hand["players"]:
                    if pl["seat"] == self.my_seat[table] or pl["seat"] in shown:
                        continue
                    for card, up in zip(pl["cards"], pl["up"], strict=True):
                        if not up and card != "??":
                            self.violations.append(f"saw {card} of seat {pl['seat']} in {table}")
        if message.get("type") == "speed" and message.get("event") == "dealt":
            self.my_seat[message["hand"]] = message["seat"]
        if message.get("type") == "event" and message.get("pool") is not None:
            ev = message["event"]
            if ev.get("kind") in ("dealt", "drew_cards") and not ev.get("up"):
                if ev.get("seat") != self.my_seat.get(message["hand"]):
                    self.violations.append(f"private pool event {ev} reached player {self.player_id}")
        if message.get("type") == "event" and table is not None:
            ev = message["event"]
            if ev.get("kind") in ("dealt", "drew_cards") and not ev.get("up"):
                if ev.get("seat") != self.my_seat.get(table):
                    self.violations.append(f"private event {ev} reached player {self.player_id}")

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [m["event"] for m in self.messages if m.get("type") == "event" and (kind is None or
                                                                                  m["event"].get("kind") == kind)]


def passive_action(legal: Any) -> tuple[str, int | None]:
    kinds = legal.kinds
    for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.STAND_PAT, ActionKind.BRING_IN, ActionKind.RUN_ONCE,
              ActionKind.DECLINE_SPLIT):
        if k in kinds:
            return k.value, None
    return ActionKind.FOLD.value, None


async def play_hand_passively(room: Room, table_id: str, max_actions: int = 500) -> None:
    """Check/call the current hand down to the end (every player acts at once)."""
    table = room.tables[table_id]
    await room.quiesce()
    start_no = table.hand_no
    for _ in range(max_actions):
        await room.quiesce()
        hand = table.hand
        if hand is None or table.hand_no != start_no:
            return
        seat = hand.to_act
        if seat is None:
            continue
        kind, amount = passive_action(hand.legal_actions())
        await room.act(table.seats[seat].player_id, table_id, Move.parse(kind, amount))
    raise AssertionError("hand did not finish")


async def seat_players(room: Room, store: Store, spec: Any, n: int, buy_in: int, deposit: int = 10_000
                       ) -> tuple[str, Table, list[int]]:
    """Open a table whose ``min_players`` is ``n``, seat ``n`` players in seats 0..n-1 and let the first hand
    be dealt to all of them; later hands need the usual two players (R-CASH-2 reading)."""
    from dataclasses import replace

    spec = replace(spec, settings={"min_players": n, **spec.settings})
    players = make_players(store, n, deposit=deposit)
    tid = await room.open_table(spec)
    for seat, pid in enumerate(players):
        await room.sit(pid, tid, seat, buy_in)
    await room.quiesce()
    table = room.tables[tid]
    table.settings = replace(table.settings, min_players=2)
    return tid, table, players


async def act_as_seat(room: Room, table: Table, seat: int, kind: str, amount: int | None = None) -> None:
    assert table.hand is not None and table.hand.to_act == seat, (table.hand and table.hand.to_act, seat)
    await room.act(table.seats[seat].player_id, table.id, Move.parse(kind, amount))
    await room.quiesce()


def acted(table: Table) -> list[tuple[int | None, str]]:
    assert table.hand is not None
    return [(e.seat, e.data["action"]) for e in table.hand.events if e.kind == "acted"]
