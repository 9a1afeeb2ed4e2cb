"""A whole tournament run by the real director, tables and store with in-process bots on a fake clock: the engine
of ``riverboat tournament simulate`` (issue #11 item 9), ``bench/tournament.py`` and the end-to-end tests.

:func:`run` returns a :class:`SimReport`; every invariant it reports is checked while the tournament plays:
chips conserved at every hand (each table's stacks before and after, every stack between hands against the chips
issued), nobody seated twice or lost, places 1..N each exactly once, prizes paid equal to the pool plus the
overlay, every payment a ledger entry and the ledger balanced (``verify()``).
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy import func, select

from riverboat.cards import seeded_rng
from riverboat.room.clock import FakeClock
from riverboat.room.frames import RoomFrame
from riverboat.room.gateway import StoreGateway
from riverboat.room.tournament.bots import ShoveBot
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament.tables import FinishedHand, TourneyTable
from riverboat.store import Store
from riverboat.store.models import LedgerTxn

BATCH = 500
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # bots' throwaway passwords


@dataclass(slots=True)
class SimHost:
    """The room side of a director in a simulation: a fake clock, a seeded deck, the store inline."""

    clock: FakeClock
    rng: Any
    gateway: StoreGateway
    connected: set[int] = field(default_factory=set)
    sent: int = 0

    def is_connected(self, player_id: int) -> bool:
        return player_id in self.connected

    def send(self, player_id: int, message: RoomFrame) -> None:
        self.sent += 1

    def send_many(self, player_ids: list[int], message: RoomFrame) -> None:
        self.sent += len(player_ids)


@dataclass(slots=True)
class SimReport:
    entrants: int
    finished: bool
    hands: int
    places: list[int]
    prize_pool: int
    paid_total: int
    overlay: int
    chips_conserved: bool
    max_table_gap_after_balancing: int
    tables_broken: int
    moves: int
    ledger_balanced: bool
    wall_s: float
    bounties_paid: int = 0
    hand_for_hand_rounds: int = 0
    bubble_outside_hand_for_hand: int = 0
    seating_ok: bool = True
    places_ok: bool = True
    payments_are_ledger_entries: bool = True
    balancing_work_per_elimination: float = 0.0
    hands_per_s: float = 0.0
    max_gap_waiting_for_a_hand: int = 0
    naive_scan_per_elimination: float = 0.0  # the peer: tables a full scan per elimination would read
    hands_per_commit: float = 0.0  # hands recorded per store transaction (group commit)
    full_scans: int = 0  # full seating and chip scans done besides the per-hand checks
    setup_s: float = 0.0  # of wall_s: the bots' accounts and deposits, the registrations
    play_s: float = 0.0  # of wall_s: from the start to the winner, and the audit
    peak_rss_mb: float = 0.0  # maximum resident set of this process so far
    loadavg_1m: float = 0.0  # the machine's load average (1 minute) at the end

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_bots(store: Store, n: int, deposit: int, currency: str, prefix: str = "bot") -> list[int]:
    """``n`` funded bot accounts (cheap password hashes)."""
    ids: list[int] = []
    accounts = store.accounts
    old = accounts._hasher
    accounts._hasher = CHEAP_HASHER
    try:
        for lo in range(0, n, BATCH):
            with store.batch():  # group commit: one transaction per batch of accounts
                for i in range(lo, min(n, lo + BATCH)):
                    pid = accounts.register(f"{prefix}{i:06d}", "bot password 123").id
                    if deposit:
                        store.ledger.deposit(pid, currency, deposit, f"sim-dep:{prefix}:{pid}")
                    ids.append(pid)
    finally:
        accounts._hasher = old
    return ids


class Checker:
    """Invariants checked after every hand, at a cost that does not grow with the field (O(seats) per hand plus the
    places of the players just out):

    - chips conserved: a running total of every stack, updated with the stacks of the hand's players and of the
      table's players (re-buys, add-ons), equals the chips issued;
    - nobody seated twice or lost: every player of the table and of the hand sits where they think they sit (or is
      out with a place, or waits for the hand-for-hand round to end), and the players seated at all tables plus
      those waiting are exactly the players still in;
    - places unique: each player out holds a place range no other group of tied players holds, and no range holds
      more players than places.

    ``every`` > 0 adds the full scan of every table and stack (:meth:`Director.check_seating`) every ``every``
    hands."""

    def __init__(self, every: int = 1,
                 then: Callable[[Director, TourneyTable, FinishedHand], None] | None = None) -> None:
        self.every = every
        self.then = then
        self.ok_chips = True
        self.ok_seating = True
        self.ok_places = True
        self.count = 0
        self.full_scans = 0
        self._known: dict[int, int] | None = None  # player -> stack as last seen
        self._total = 0
        self._busted: set[int] = set()  # at 0 chips after a hand, place not seen yet
        self._placed: set[int] = set()
        self._slots: dict[int, tuple[int, int]] = {}  # place -> the (place, place_to) group holding it
        self._groups: dict[tuple[int, int], int] = {}

    def __call__(self, director: Director, table: TourneyTable, driver: FinishedHand) -> None:
        self.count += 1
        try:
            self._seating(director, table, driver)
        except AssertionError:
            self.ok_seating = False
        self._chips(director, table, driver)
        self._places(director, driver)
        if self.every and self.count % self.every == 0:
            self.full_scans += 1
            try:
                director.check_seating()
            except AssertionError:
                self.ok_seating = False
            if director.total_chips() != director.chips_issued and director.alive > 0:
                self.ok_chips = False
        if self.then is not None:
            self.then(director, table, driver)

    @staticmethod
    def _seating(d: Director, table: TourneyTable, driver: FinishedHand) -> None:
        for seat, e in table.seats.items():
            assert e.table_id == table.id and e.seat == seat and d.entrants_by_id.get(e.player_id) is e
        for pid in driver.players.values():
            p = d.entrants_by_id.get(pid)
            if p is None:
                assert pid in d.results or pid in d.disqualified, f"player {pid} lost"
            elif not p.busted_round:
                t = d.tables.get(p.table_id or "")
                assert t is not None and p.seat is not None and t.seats.get(p.seat) is p, f"player {pid} lost"
        waiting = sum(1 for b, _ in d.round_busts
                      if (w := d.entrants_by_id.get(b.player_id)) is not None and w.busted_round)
        assert d.seated + waiting == len(d.entrants_by_id), "a player is seated twice or lost"

    def _chips(self, d: Director, table: TourneyTable, driver: FinishedHand) -> None:
        known = self._known
        if known is None:  # once: every stack
            known = self._known = {pid: e.chips for pid, e in d.entrants_by_id.items()}
            self._total = sum(known.values())
        changed = set(driver.players.values())
        changed.update(e.player_id for e in table.seats.values())
        for pid in changed:
            e = d.entrants_by_id.get(pid)
            now = e.chips if e is not None else 0
            self._total += now - known.get(pid, 0)
            known[pid] = now
        if d.alive > 0 and self._total != d.chips_issued:
            self.ok_chips = False

    def _places(self, d: Director, driver: FinishedHand) -> None:
        for pid in list(self._busted):
            if pid in d.results:
                self._busted.discard(pid)
                self._place(d, pid)
        for pid in driver.players.values():
            e = d.entrants_by_id.get(pid)
            if e is None:
                if pid in d.results:
                    self._place(d, pid)
            elif e.chips == 0:
                self._busted.add(pid)

    def _place(self, d: Director, pid: int) -> None:
        if pid in self._placed:
            return
        self._placed.add(pid)
        r = d.results[pid]
        group = (r.place, r.place_to)
        if not 1 <= r.place <= r.place_to <= d.entries:
            self.ok_places = False
            return
        for p in range(r.place, r.place_to + 1):
            if self._slots.setdefault(p, group) != group:
                self.ok_places = False
        self._groups[group] = self._groups.get(group, 0) + 1
        if self._groups[group] > r.place_to - r.place + 1:
            self.ok_places = False


async def play(director: Director, clock: FakeClock, *, step: float = 60.0, max_steps: int = 10_000_000,
               progress: Callable[[Director], None] | None = None) -> None:
    """Advance the fake clock until the tournament is over."""
    for _ in range(max_steps):
        if director.done.is_set():
            return
        await clock.advance(step)
        if progress is not None:
            progress(director)
    raise RuntimeError("the tournament did not finish")  # pragma: no cover


def audit(store: Store, director: Director, start_wall: float, checker: Checker) -> SimReport:
    """The report of a finished run (reads the ledger: every payment an entry, the ledger balanced)."""
    led = store.ledger
    balanced = True
    try:
        led.verify()
        balanced = led.total(director.spec.currency) == 0
    except Exception:  # pragma: no cover - reported, not raised
        balanced = False
    n_pay = store._db.read(lambda s: s.scalar(select(func.count()).select_from(LedgerTxn).where(
        LedgerTxn.kind.in_(("t_prize", "t_bounty", "ticket_issue")))))
    places = director.places()
    results = director.results
    places_ok = (checker.ok_places and len(places) == director.entries and len(set(places)) == len(places)
                 and sorted(r.place for r in results.values()) == _expected_places(results))
    prize_paid = director.prize_paid
    if prize_paid != sum(r.prize for r in results.values()):
        places_ok = False
    b = director.balancer
    elim = max(1, director.entries - 1)
    wall = time.perf_counter() - start_wall
    return SimReport(
        entrants=director.entries, finished=director.done.is_set() and director.alive == 0,
        hands=director.stats.hands, places=places, prize_pool=director.prize_pool, paid_total=prize_paid,
        overlay=director.overlay, chips_conserved=director.stats.chips_conserved and checker.ok_chips,
        max_table_gap_after_balancing=b.max_gap_after_step, tables_broken=b.breaks, moves=b.moves,
        ledger_balanced=balanced, wall_s=round(wall, 3), bounties_paid=director.paid_total - prize_paid,
        hand_for_hand_rounds=director.stats.hand_for_hand_rounds,
        bubble_outside_hand_for_hand=director.stats.bubble_outside_hand_for_hand, seating_ok=checker.ok_seating,
        places_ok=places_ok, payments_are_ledger_entries=n_pay == director.payments_made,
        balancing_work_per_elimination=round(b.work / elim, 3), hands_per_s=round(director.stats.hands / wall, 1),
        max_gap_waiting_for_a_hand=b.max_gap_waiting,
        naive_scan_per_elimination=round(director.stats.naive_scan / elim, 1),
        hands_per_commit=round(director.stats.hands / max(1, director.stats.hand_commits), 1),
        full_scans=checker.full_scans,
        peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        loadavg_1m=round(os.getloadavg()[0], 2))


def _expected_places(results: dict[int, Any]) -> list[int]:
    """Places 1..N, with a shared group counted as its places (each tied player holds one of them)."""
    out: list[int] = []
    groups: dict[tuple[int, int], int] = {}
    for r in results.values():
        groups[(r.place, r.place_to)] = groups.get((r.place, r.place_to), 0) + 1
    for (lo, _hi), k in groups.items():
        out.extend([lo] * k)
    return sorted(out)


def default_spec(kind: str, entrants: int, seats: int, game: str, structure: str, *, rebuys: bool = False,
                 ko: str | None = None, seed: int = 0, **extra: Any) -> TournamentSpec:
    """The simulation's tournament: a fast structure (levels of 20 hands at one table, no breaks)."""
    from riverboat.room.tournament.presets import standard_levels

    fields: dict[str, Any] = dict(
        name=f"sim {kind} {entrants}", kind=kind, game=game, structure=structure, seats=seats,
        starting_stack=1500, levels=standard_levels(), level_seconds=180.0, buy_in=1000, fee=100,
        min_entrants=2, payout="sng" if kind == "sng" and entrants <= 10 else "mtt",
        settings={"between_hands_seconds": 15.0})
    if kind == "sng":
        fields["seats"] = entrants
    else:
        fields["starts_at"] = 1_800_000_000.0 + 60.0
    if rebuys:
        fields["rebuy"] = {"period_levels": 3, "price": 1000, "chips": 1500, "addon_price": 1000,
                           "addon_chips": 1500}
    if ko is not None:
        fields["knockout"] = {"bounty": 250, "progressive": ko == "pko"}
    fields.update(extra)
    return TournamentSpec.from_dict(fields)


async def run(spec: TournamentSpec, entrants: int, *, store: Store, seed: int = 1, check_every: int = 1,
              record_history: bool = True, progress: Callable[[Director], None] | None = None,
              tournament_id: str | None = None, named: int = 0, capture: list[Director] | None = None,
              players: list[int] | None = None,
              on_hand: Callable[[Director, TourneyTable, FinishedHand], None] | None = None,
              batch_hands: bool = True) -> SimReport:
    """Register ``entrants`` bots for ``spec`` and play it to the winner (``batch_hands=False``: every hand
    recorded in a transaction of its own, see :meth:`Director.record_hand`)."""
    start = time.perf_counter()
    clock = FakeClock()
    gateway = StoreGateway(store, inline=True)
    host = SimHost(clock, seeded_rng(seed), gateway)
    rng = random.Random(seed)
    rb = spec.rebuy
    deposit = 2 * (spec.buy_in + spec.fee) + (
        (rb.price + rb.fee) * (rb.max_rebuys or 20) + rb.addon_price + rb.addon_fee if rb else 0)
    if players is None:
        players = make_bots(store, entrants, deposit, spec.currency, prefix=f"s{seed}x{tournament_id or ''}")
    if named:
        spec = spec.but(named_bounties=tuple((p, 500) for p in players[:named]))
    bots = {pid: ShoveBot(random.Random(rng.random())) for pid in players}
    checker = Checker(check_every, then=on_hand)
    director = Director(host, tournament_id or f"sim-{seed}-{entrants}", spec, bots=bots, notify_players=False,
                        record_history=record_history, seed=seed, on_hand=checker, batch_hands=batch_hands)
    clock.add_settle_hook(director.quiesce)
    if capture is not None:
        capture.append(director)
    try:
        await director.open()
        for lo in range(0, len(players), BATCH):
            with store.batch():  # the inline gateway runs on this thread: one commit per batch
                for pid in players[lo:lo + BATCH]:
                    await director.register(pid)
        registered = time.perf_counter()
        await play(director, clock, progress=progress)
    finally:
        clock.remove_settle_hook(director.quiesce)
        await director.close()
    report = audit(store, director, start, checker)
    report.setup_s = round(registered - start, 1)
    report.play_s = round(report.wall_s - report.setup_s, 1)
    return report


def temp_store() -> tuple[Store, Path]:
    """A migrated SQLite store in a fresh temporary directory (RAM-backed /dev/shm when there is one)."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="rb-tsim-", dir=shm if shm.is_dir() else None))
    st = Store(f"sqlite:///{folder / 'sim.sqlite3'}")
    st.upgrade()
    return st, folder


def remove_store(store: Store, folder: Path) -> None:
    store.dispose()
    shutil.rmtree(folder, ignore_errors=True)
