"""What a running tournament keeps in the store: seating, stacks after every completed hand, eliminations with
their prizes, bounties and tickets paid in the same transaction (R-TOURN-GEN-5, R-WALLET-6), balancing moves, the
director's checkpoint, and the compensation of an interrupted tournament (R-TOURN-INT, R-WALLET-7).

Tournament chips are not money: a hand moves no ledger entry; :meth:`TournamentPlay.hand_done` records the hand
(PHH text and events, R-INTEG-8), every stack after it, the table's button and big blind, and the eliminations of
that hand with every payment they trigger, all in ONE transaction, once per hand (a replay of the same hand changes
nothing). A crash therefore leaves every stack as it was after the last completed hand (R-SERVER-1): the hand in
progress was never written and the tournament resumes from :meth:`TournamentPlay.snapshot`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, request_hash
from riverboat.store.errors import InvalidRequest, NotFound
from riverboat.store.fencing import check_fence
from riverboat.store.models import (
    Hand,
    HandPlayer,
    LedgerTxn,
    Ticket,
    Tournament,
    TournamentEntry,
    TournamentTable,
)
from riverboat.store.postings import AccountKey, check_amount, lock_accounts, post
from riverboat.store.tournament_history import HistoryRow, player_history
from riverboat.store.tournaments import (
    _balance,
    bounty_key,
    close_pools,
    get_tournament,
    pool_key,
    refund_entry,
)

PAYMENT_KINDS = ("prize", "bounty", "ticket")

# The statements of a hand's record, built once (hand_done runs once per hand: no ORM unit of work, no statement
# built per call). Bound parameters are named k_* (a name may not repeat a column the statement sets).
_HANDS = cast(Table, Hand.__table__)
_HAND_PLAYERS = cast(Table, HandPlayer.__table__)
_ENTRIES = cast(Table, TournamentEntry.__table__)
_TABLES = cast(Table, TournamentTable.__table__)
_TOURNAMENTS = cast(Table, Tournament.__table__)
_HAND_EXISTS = select(_HANDS.c.id).where(_HANDS.c.table_id == bindparam("k_table"),
                                         _HANDS.c.hand_id == bindparam("k_hand"))
_TOURNAMENT_STATUS = select(_TOURNAMENTS.c.id, _TOURNAMENTS.c.status).where(
    _TOURNAMENTS.c.tournament_id == bindparam("k_tid"))
_SET_CHIPS = (update(_ENTRIES).where(_ENTRIES.c.tournament_pk == bindparam("k_t"),
                                     _ENTRIES.c.player_id == bindparam("k_p"), _ENTRIES.c.status == "registered")
              .values(chips=bindparam("k_c")))
_SET_BOUNTY = (update(_ENTRIES).where(_ENTRIES.c.tournament_pk == bindparam("k_t"),
                                      _ENTRIES.c.player_id == bindparam("k_p"))
               .values(bounty=bindparam("k_b")))
_ENTRY_STATUS = select(_ENTRIES.c.player_id, _ENTRIES.c.status).where(
    _ENTRIES.c.tournament_pk == bindparam("k_t"), _ENTRIES.c.player_id.in_(bindparam("k_ps", expanding=True)))
_FINISH = (update(_ENTRIES).where(_ENTRIES.c.tournament_pk == bindparam("k_t"),
                                  _ENTRIES.c.player_id == bindparam("k_p"))
           .values(status=bindparam("k_status"), place=bindparam("k_place"), place_to=bindparam("k_place_to"),
                   eliminated_at=bindparam("k_at"), table_id=None, seat=None))
_TABLE_HAND = (update(_TABLES).where(_TABLES.c.tournament_pk == bindparam("k_t"),
                                     _TABLES.c.table_id == bindparam("k_table"))
               .values(button=bindparam("k_button"), big_blind=bindparam("k_bb"), hands=_TABLES.c.hands + 1,
                       elapsed=bindparam("k_elapsed")))


def _running(conn: Connection, tournament_id: str) -> int:
    """The row id of a running tournament (refused if it is unknown or not running)."""
    row = conn.execute(_TOURNAMENT_STATUS, {"k_tid": tournament_id}).first()
    if row is None:
        raise NotFound(f"no tournament {tournament_id!r}")
    if row[1] != "running":
        raise InvalidRequest(f"tournament {tournament_id!r} is {row[1]}")
    return int(row[0])


@dataclass(frozen=True, slots=True)
class Payment:
    """Money an elimination (or the win) pays at once: a place ``prize`` from the prize pool, a knockout
    ``bounty`` from the bounty pool, or a satellite ``ticket`` (non-cashable, R-TOURN-GEN-2) to ``ticket_for``."""

    player_id: int
    kind: str
    amount: int
    ticket_for: str | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """A player's result: out on ``place`` (``place_to`` > ``place`` when equal stacks share places), or the win."""

    player_id: int
    place: int
    place_to: int
    won: bool = False


@dataclass(frozen=True, slots=True)
class HandCheckpoint:
    table_id: str
    hand_id: str
    start_stacks: Mapping[int, int]  # player -> chips when the hand began (every player dealt in)
    stacks: Mapping[int, int]  # player -> chips after it (0 for the eliminated)
    phh: str = ""
    events: Sequence[Mapping[str, Any]] = ()
    button: int | None = None
    big_blind: int | None = None
    elapsed: float = 0.0  # the level clock (seconds of play) when the hand ended
    finishes: Sequence[Finish] = ()
    payments: Sequence[Payment] = ()
    bounties: Mapping[int, int] = field(default_factory=dict)  # new bounty on a player's head (PKO)


@dataclass(frozen=True, slots=True)
class EntryRow:
    player_id: int
    entry_no: int
    status: str
    chips: int
    table_id: str | None
    seat: int | None
    place: int | None
    place_to: int | None
    prize: int
    bounty: int
    bounties_won: int
    rebuys: int
    addons: int
    paid_buy_in: int
    paid_fee: int
    ticket_id: int | None
    tickets: int = 0  # face value of the satellite (or variant) tickets this entry won (prize is cash only)


@dataclass(frozen=True, slots=True)
class TableRow:
    table_id: str
    status: str
    button: int | None
    big_blind: int | None
    hands: int
    elapsed: float


@dataclass(frozen=True, slots=True)
class Snapshot:
    tournament_id: str
    status: str
    currency: str
    buy_in: int
    fee: int
    spec: dict[str, Any] | None
    state: dict[str, Any] | None
    entries: list[EntryRow]
    tables: list[TableRow]
    prize_pool: int
    bounty_pool: int
    overlay: int


@dataclass(frozen=True, slots=True)
class Award:
    """Compensation of one remaining player (R-TOURN-INT): ``refund`` gives back every buy-in and fee the entry
    paid (a ticket entry gets its ticket back); ``cash`` is paid from the prize pool on top, and ``tickets`` (face
    values, valid for ``ticket_for``) from the pool as non-cashable tickets (an interrupted Wild Twister)."""

    refund: bool
    cash: int
    tickets: tuple[int, ...] = ()
    ticket_for: str | None = None


def _entry_row(e: TournamentEntry, tickets: int = 0) -> EntryRow:
    return EntryRow(e.player_id, e.entry_no, e.status, e.chips, e.table_id, e.seat, e.place, e.place_to, e.prize,
                    e.bounty, e.bounties_won, e.rebuys, e.addons, e.paid_buy_in, e.paid_fee, e.ticket_id, tickets)


def _tickets_won(s: Session, tournament_id: str) -> dict[int, int]:
    """Face value of the tickets each player won in ``tournament_id``: the ``ticket_issue`` transactions the
    tournament's payments posted (idempotency keys ``t_pay:<id>:...``, result = the ticket id, :meth:`_pay`)."""
    rows = s.execute(select(Ticket.player_id, Ticket.face_value).join(LedgerTxn, LedgerTxn.result == Ticket.id)
                     .where(LedgerTxn.kind == "ticket_issue",
                            LedgerTxn.idem_key.startswith(f"t_pay:{tournament_id}:", autoescape=True))).all()
    out: dict[int, int] = {}
    for pid, value in rows:
        out[pid] = out.get(pid, 0) + value
    return out


class TournamentPlay:
    def __init__(self, db: Database) -> None:
        self._db = db

    @staticmethod
    def _get(s: Session, tournament_id: str, *, lock: bool = False) -> Tournament:
        return get_tournament(s, tournament_id, lock=lock)

    # ------------------------------------------------------------------ start and seating
    def start(self, tournament_id: str, seating: Mapping[int, tuple[str, int]], chips: int | Mapping[int, int],
              state: dict[str, Any] | None = None) -> None:
        """Registration closes (R-TOURN-REG-3) and every registered player is seated ``{player: (table, seat)}``
        with ``chips`` (R-TOURN-REG-5: absent players too); a mapping gives each player's own stack (a Day 2: the
        chips carried from Day 1, R-TOURN-FLIGHT-3)."""
        stacks = chips if isinstance(chips, Mapping) else dict.fromkeys(seating, chips)
        for pid in seating:
            check_amount(stacks.get(pid, 0), f"chips of player {pid}")

        def body(s: Session) -> None:
            t = self._get(s, tournament_id, lock=True)
            if t.status != "registering":
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status}; it cannot start")
            entries = {e.player_id: e for e in s.scalars(select(TournamentEntry).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered"))}
            if set(entries) != set(seating):
                raise InvalidRequest("the seating must place exactly the registered players")
            rows = [{"eid": entries[p].id, "tid": tb, "seat": seat, "chips": stacks[p]}
                    for p, (tb, seat) in seating.items()]
            self._seat_rows(s, rows)
            for table_id in sorted({tb for tb, _ in seating.values()}):
                s.add(TournamentTable(tournament_pk=t.id, table_id=table_id, status="open", hands=0, elapsed=0.0))
            t.status, t.started_at, t.state = "running", self._db.now(), state

        self._db.run(body)

    @staticmethod
    def _seat_rows(s: Session, rows: list[dict[str, Any]]) -> None:
        if rows:
            s.connection().execute(
                update(TournamentEntry.__table__)  # type: ignore[arg-type]
                .where(TournamentEntry.__table__.c.id == bindparam("eid"))
                .values(table_id=bindparam("tid"), seat=bindparam("seat"), chips=bindparam("chips")),
                rows)

    def seat(self, tournament_id: str, moves: Iterable[tuple[int, str, int, int]], *,
             open_tables: Iterable[str] = (), close_tables: Iterable[str] = ()) -> None:
        """Balancing and late registration: ``(player, table, seat, chips)`` for each player seated anew; tables
        opened and broken (R-TOURN-BAL-2)."""
        moves = list(moves)

        def body(s: Session) -> None:
            t = self._get(s, tournament_id)
            ids = dict(s.execute(select(TournamentEntry.player_id, TournamentEntry.id).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.player_id.in_([m[0] for m in moves]))).all())
            missing = sorted({m[0] for m in moves} - set(ids))
            if missing:
                raise InvalidRequest(f"players {missing} are not entered in {tournament_id!r}")
            self._seat_rows(s, [{"eid": ids[p], "tid": tb, "seat": seat, "chips": c} for p, tb, seat, c in moves])
            for table_id in open_tables:
                s.add(TournamentTable(tournament_pk=t.id, table_id=table_id, status="open", hands=0, elapsed=0.0))
            for table_id in close_tables:
                s.execute(update(TournamentTable).where(TournamentTable.tournament_pk == t.id,
                                                        TournamentTable.table_id == table_id)
                          .values(status="broken"))

        self._db.run(body)

    def save_state(self, tournament_id: str, state: dict[str, Any]) -> None:
        """The director's checkpoint (level clock, lifecycle): written on level changes, breaks and pauses."""

        def body(s: Session) -> None:
            self._get(s, tournament_id).state = state

        self._db.run(body)

    # ------------------------------------------------------------------ the hand
    def hand_done(self, tournament_id: str, cp: HandCheckpoint, *, epoch: int | None = None) -> bool:
        """Record one completed hand and everything it decided, in ONE transaction (see the module docstring).
        Returns False (and changes nothing) if this hand was already recorded. ``epoch``: a cluster host's lease
        epoch for the tournament (refused with ``Fenced`` once another host claimed it, :mod:`.fencing`)."""
        if set(cp.stacks) != set(cp.start_stacks):
            raise InvalidRequest("stacks after the hand must be given for exactly the players dealt in")
        for pid, c in cp.stacks.items():
            check_amount(c, f"stack of player {pid}", allow_zero=True)
        for p in cp.payments:
            if p.kind not in PAYMENT_KINDS:
                raise InvalidRequest(f"payment kind must be one of {PAYMENT_KINDS}, got {p.kind!r}")
            check_amount(p.amount, "payment")
        out = {f.player_id for f in cp.finishes if not f.won}
        if any(cp.stacks.get(p, 0) != 0 for p in out & set(cp.stacks)):
            raise InvalidRequest("an eliminated player cannot keep chips")

        def body(s: Session) -> bool:
            check_fence(s, tournament_id, epoch)
            conn = s.connection()
            if conn.execute(_HAND_EXISTS, {"k_table": cp.table_id, "k_hand": cp.hand_id}).first() is not None:
                return False
            tpk = _running(conn, tournament_id)
            now = self._db.now()
            inserted = conn.execute(_HANDS.insert(), {
                "table_id": cp.table_id, "hand_id": cp.hand_id, "currency": None, "status": "recorded",
                "started_at": now, "ended_at": now, "rake": 0, "phh": cp.phh,
                "events": [dict(e) for e in cp.events]}).inserted_primary_key
            assert inserted is not None
            hand_pk = inserted[0]
            conn.execute(_HAND_PLAYERS.insert(), [
                {"hand_pk": hand_pk, "player_id": p, "start_stack": cp.start_stacks[p],
                 "change": cp.stacks[p] - cp.start_stacks[p]} for p in cp.stacks])
            conn.execute(_SET_CHIPS, [{"k_t": tpk, "k_p": p, "k_c": c} for p, c in cp.stacks.items()])
            self._finish_players(s, tpk, tournament_id, cp.finishes, now)
            self._pay(s, tpk, cp, now)
            if cp.bounties:
                conn.execute(_SET_BOUNTY, [{"k_t": tpk, "k_p": p, "k_b": b} for p, b in cp.bounties.items()])
            conn.execute(_TABLE_HAND, {"k_t": tpk, "k_table": cp.table_id, "k_button": cp.button,
                                       "k_bb": cp.big_blind, "k_elapsed": cp.elapsed})
            return True

        try:
            return self._db.run(body)
        except IntegrityError:
            raise InvalidRequest(f"hand {cp.hand_id!r} at {cp.table_id!r} could not be recorded (unknown player "
                                 "or a concurrent record)") from None

    @staticmethod
    def _finish_players(s: Session, tpk: int, tournament_id: str, finishes: Sequence[Finish],
                        now: datetime) -> None:
        if not finishes:
            return
        conn = s.connection()
        status = dict(conn.execute(_ENTRY_STATUS, {"k_t": tpk, "k_ps": [f.player_id for f in finishes]}).all())
        for f in finishes:
            if status.get(f.player_id) != "registered":
                raise InvalidRequest(f"player {f.player_id} is not in tournament {tournament_id!r}")
            if not 1 <= f.place <= f.place_to:
                raise InvalidRequest(f"bad place {f.place}-{f.place_to}")
        conn.execute(_FINISH, [{"k_t": tpk, "k_p": f.player_id, "k_status": "won" if f.won else "eliminated",
                                "k_place": f.place, "k_place_to": f.place_to, "k_at": now} for f in finishes])
        if any(f.won for f in finishes):
            conn.execute(_TOURNAMENTS.update().where(_TOURNAMENTS.c.id == tpk)
                         .values(status="finished", finished_at=now))

    def _pay(self, s: Session, tpk: int, cp: HandCheckpoint, now: datetime) -> None:
        if not cp.payments:
            return
        t = s.get(Tournament, tpk)
        assert t is not None
        for i, p in enumerate(cp.payments):
            entry = s.scalar(select(TournamentEntry).where(TournamentEntry.tournament_pk == t.id,
                                                           TournamentEntry.player_id == p.player_id))
            if entry is None:
                raise InvalidRequest(f"player {p.player_id} is not in tournament {t.tournament_id!r}")
            idem = f"t_pay:{t.tournament_id}:{cp.table_id}:{cp.hand_id}:{i}"
            req = request_hash("t_pay", tournament_id=t.tournament_id, player_id=p.player_id, what=p.kind,
                               amount=p.amount, ticket_for=p.ticket_for)
            if p.kind == "ticket":
                source, dest = pool_key(t), AccountKey.ticket(p.player_id, t.currency)
                ticket = Ticket(player_id=p.player_id, currency=t.currency, face_value=p.amount,
                                tournament_id=p.ticket_for, status="issued", created_at=now)
                s.add(ticket)
                s.flush()
                accts = lock_accounts(s, [source, dest])
                post(s, accts, idem_key=idem, kind="ticket_issue", req_hash=req, now=now,
                     transfers=[(source, dest, p.amount)], result=ticket.id)
                continue
            source = pool_key(t) if p.kind == "prize" else bounty_key(t)
            wallet = AccountKey.wallet(p.player_id, t.currency)
            accts = lock_accounts(s, [source, wallet])
            post(s, accts, idem_key=idem, kind="t_prize" if p.kind == "prize" else "t_bounty", req_hash=req,
                 now=now, transfers=[(source, wallet, p.amount)])
            if p.kind == "prize":
                entry.prize += p.amount
            else:
                entry.bounties_won += p.amount

    @staticmethod
    def _ticket(s: Session, t: Tournament, pid: int, value: int, scope: str | None, idem: str, now: datetime) -> None:
        """A ticket worth ``value`` from the tournament's pool to the player (R-TOURN-GEN-2: never cash)."""
        check_amount(value, "ticket")
        source, dest = pool_key(t), AccountKey.ticket(pid, t.currency)
        ticket = Ticket(player_id=pid, currency=t.currency, face_value=value, tournament_id=scope, status="issued",
                        created_at=now)
        s.add(ticket)
        s.flush()
        accts = lock_accounts(s, [source, dest])
        post(s, accts, idem_key=idem, kind="ticket_issue", now=now, transfers=[(source, dest, value)],
             req_hash=request_hash("ticket_issue", tournament_id=t.tournament_id, player_id=pid, value=value,
                                   scope=scope), result=ticket.id)

    def finish_unplayed(self, tournament_id: str, finishes: Sequence[Finish], payments: Sequence[Payment],
                        key: str, *, epoch: int | None = None) -> None:
        """Eliminations and payments outside a hand (a player who does not re-buy in time, a disqualification's
        consequences, a Day 1 flight ending): the same bookkeeping as :meth:`hand_done`, under ``key``."""
        cp = HandCheckpoint(table_id=f"{tournament_id}:director", hand_id=key, start_stacks={}, stacks={},
                            finishes=finishes, payments=payments)

        def body(s: Session) -> None:
            check_fence(s, tournament_id, epoch)
            tpk = self._get(s, tournament_id).id
            now = self._db.now()
            self._finish_players(s, tpk, tournament_id, finishes, now)
            self._pay(s, tpk, cp, now)

        self._db.run(body)

    # ------------------------------------------------------------------ flights (R-TOURN-FLIGHT)
    def advance(self, tournament_id: str, survivors: Mapping[int, int]) -> dict[int, int]:
        """A Day 1 flight is over (R-TOURN-FLIGHT-3): in ONE transaction its ``survivors`` ``{player: chips}`` (all
        the players still in, nobody else) become ``advanced`` and are entered in its Day 2 with their chips; a
        player already qualified from another flight keeps the larger stack (R-TOURN-FLIGHT-6 reading); the flight
        is finished. No money moves: the buy-ins are in the Day 2 pool already. Returns each survivor's Day 2
        stack."""
        for pid, c in survivors.items():
            check_amount(c, f"chips of player {pid}")

        def body(s: Session) -> dict[int, int]:
            t = self._get(s, tournament_id, lock=True)
            if t.pool_id is None or t.status != "running":
                raise InvalidRequest(f"tournament {tournament_id!r} is not a running Day 1 flight")
            day2 = self._get(s, t.pool_id, lock=True)
            if day2.status != "registering":
                raise InvalidRequest(f"Day 2 {t.pool_id!r} is {day2.status}: it takes no more qualifiers")
            entries = {e.player_id: e for e in s.scalars(select(TournamentEntry).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered"))}
            if set(entries) != set(survivors):
                raise InvalidRequest("the survivors must be exactly the players still in the flight")
            qualified = {e.player_id: e for e in s.scalars(select(TournamentEntry).where(
                TournamentEntry.tournament_pk == day2.id))}
            number = max((e.entry_no for e in qualified.values()), default=0)
            now, out = self._db.now(), {}
            for pid in sorted(survivors):
                e = entries[pid]
                e.status, e.chips, e.table_id, e.seat = "advanced", survivors[pid], None, None
                d2 = qualified.get(pid)
                if d2 is None:
                    number += 1
                    d2 = TournamentEntry(tournament_pk=day2.id, player_id=pid, status="registered", entry_no=number,
                                         registered_at=now, chips=0, paid_buy_in=0, paid_fee=0, paid_bounty=0)
                    s.add(d2)
                d2.chips = max(d2.chips or 0, survivors[pid])
                out[pid] = d2.chips
            t.status, t.finished_at = "finished", now
            return out

        return self._db.run(body)

    def qualifiers(self, day2_id: str) -> tuple[list[tuple[int, int]], list[tuple[str, str]]]:
        """A Day 2's qualifiers so far ``[(player, chips)]`` in qualifying order, and its flights
        ``[(tournament id, status)]`` (R-TOURN-FLIGHT-1..3)."""

        def body(s: Session) -> tuple[list[tuple[int, int]], list[tuple[str, str]]]:
            t = self._get(s, day2_id)
            players = [(e.player_id, e.chips) for e in s.scalars(select(TournamentEntry).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered")
                .order_by(TournamentEntry.entry_no))]
            flights = [(f.tournament_id, f.status) for f in s.scalars(
                select(Tournament).where(Tournament.pool_id == day2_id).order_by(Tournament.id))]
            return players, flights

        return self._db.read(body)

    # ------------------------------------------------------------------ reading
    def snapshot(self, tournament_id: str) -> Snapshot:
        """Everything a restart needs to resume the tournament (or the operator to interrupt it)."""

        def body(s: Session) -> Snapshot:
            t = self._get(s, tournament_id)
            won = _tickets_won(s, tournament_id)
            entries = [_entry_row(e, won.get(e.player_id, 0)) for e in s.scalars(select(TournamentEntry).where(
                TournamentEntry.tournament_pk == t.id).order_by(TournamentEntry.entry_no))]
            tables = [TableRow(r.table_id, r.status, r.button, r.big_blind, r.hands, r.elapsed)
                      for r in s.scalars(select(TournamentTable).where(TournamentTable.tournament_pk == t.id)
                                         .order_by(TournamentTable.id))]
            return Snapshot(t.tournament_id, t.status, t.currency, t.buy_in, t.fee, t.spec, t.state, entries,
                            tables, _balance(s, pool_key(t)), _balance(s, bounty_key(t)), t.overlay)

        return self._db.read(body)

    def unfinished(self) -> list[str]:
        """Tournaments a restart must pick up again: registering or running, oldest first."""
        return self._db.read(lambda s: list(s.scalars(
            select(Tournament.tournament_id).where(Tournament.status.in_(("registering", "running")))
            .order_by(Tournament.id))))

    def history(self, player_id: int, limit: int = 50) -> list[HistoryRow]:
        """The player's tournaments of every kind, newest first (the account page's tournament history; see
        :mod:`riverboat.store.tournament_history`)."""
        return player_history(self._db, player_id, limit=limit)

    # ------------------------------------------------------------------ interruption (R-TOURN-INT)
    def interrupt(self, tournament_id: str, awards: Mapping[int, Award], house_in: int) -> int:
        """Pay an interrupted tournament's compensation in ONE transaction (R-TOURN-INT, R-WALLET-7): the house
        first adds ``house_in`` to the pool (overlay and any shortfall, INT-11a); each remaining player in
        ``awards`` gets their entry refunded (fees from the house) and their cash from the pool; eliminated players
        get nothing more (INT-1). What the pool still holds then goes back to the house. Returns that amount."""
        check_amount(house_in, "house_in", allow_zero=True)
        for a in awards.values():
            check_amount(a.cash, "cash", allow_zero=True)

        def body(s: Session) -> int:
            t = self._get(s, tournament_id, lock=True)
            if t.status != "running":
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status}; only a running one is interrupted")
            now = self._db.now()
            entries = {e.player_id: e for e in s.scalars(select(TournamentEntry).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered"))}
            if set(entries) != set(awards):
                raise InvalidRequest("compensation must cover exactly the players still in (R-TOURN-INT-1)")
            prize, ext = pool_key(t), AccountKey.external(t.currency)
            if house_in:
                accts = lock_accounts(s, [prize, ext])
                post(s, accts, idem_key=f"t_int_house:{tournament_id}", kind="t_overlay",
                     req_hash=request_hash("t_int_house", tournament_id=tournament_id, amount=house_in), now=now,
                     transfers=[(ext, prize, house_in)])
                t.overlay += house_in
            for pid in sorted(awards):
                a, e = awards[pid], entries[pid]
                if a.refund:
                    refund_entry(s, t, e, f"t_int_refund:{tournament_id}:{pid}",
                                 request_hash("t_int_refund", tournament_id=tournament_id, player_id=pid), "t_refund",
                                 now)
                if a.cash:
                    wallet = AccountKey.wallet(pid, t.currency)
                    accts = lock_accounts(s, [prize, wallet])
                    post(s, accts, idem_key=f"t_int_cash:{tournament_id}:{pid}", kind="t_prize",
                         req_hash=request_hash("t_int_cash", tournament_id=tournament_id, player_id=pid,
                                               amount=a.cash), now=now, transfers=[(prize, wallet, a.cash)])
                    e.prize += a.cash
                for i, value in enumerate(a.tickets):
                    self._ticket(s, t, pid, value, a.ticket_for, f"t_int_ticket:{tournament_id}:{pid}:{i}", now)
                e.status = "compensated"
            t.status, t.finished_at = "interrupted", now
            return close_pools(s, t, f"t_int_close:{tournament_id}", "t_close", now)

        return self._db.run(body)
