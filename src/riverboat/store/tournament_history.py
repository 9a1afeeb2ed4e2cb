"""A player's tournament history: one row per tournament they entered, of every kind — Sit & Go, MTT, Twister, Age
of the Gods Twister, Wild Twister (issue #11 item 8, issue #12 item 6, R-TWIST-11: "the amount won, with the date,
time and name of the tournament").

Every figure is read from what the store already keeps; nothing is recorded twice:

- the entry (``tournament_entries``): place (a shared range ``place``..``place_to``, R-TOURN-GEN-6), the cash prize
  and the knockout bounties won, what was paid in cash (entry, re-buys, add-ons: ``paid_buy_in`` + ``paid_fee``) and
  the ticket the entry was paid with (``ticket_id``; its face value is shown, R-TOURN-GEN-2);
- the field: the tournament's entries that were not withdrawn (unregistered);
- tickets won (satellite seats, Wild Twister prizes, R-TOURN-SAT-1, R-WILD-1): the ledger's ``ticket_issue``
  transactions paid out of the tournament's prize pool to this player, each with the ticket's face value — so a
  Wild Twister prize shows as a ticket of its value, not as a cash prize of 0;
- Twister family: the drawn multiplier and prize pool (``twister_games``) and the Age of the Gods jackpot wins of
  the player (``twister_draws``), listed apart from the tournament prize (R-AOG-3, R-WALLET-9).

Rows of entries withdrawn before the start (``unregistered``) are left out: the player did not play them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware
from riverboat.store.models import (
    Account,
    Entry,
    LedgerTxn,
    Ticket,
    Tournament,
    TournamentEntry,
    TwisterDraw,
    TwisterGame,
)
from riverboat.store.postings import AccountKey
from riverboat.twister import KINDS

WITHDRAWN = "unregistered"
TWISTER_KINDS = KINDS  # twister, aog, wild


@dataclass(frozen=True, slots=True)
class TicketWon:
    """A non-cashable ticket the player won in the tournament (R-TOURN-GEN-2): its face value and where it can be
    used (``None``: any tournament; ``twister:*``: any Twister or Age of the Gods Twister, R-WILD-1)."""

    ticket_id: int
    value: int
    valid_for: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"ticket": self.ticket_id, "value": self.value, "valid_for": self.valid_for}


@dataclass(frozen=True, slots=True)
class JackpotWon:
    """An Age of the Gods jackpot tier won at the start of the tournament, paid apart from the prize (R-WALLET-9)."""

    tier: str
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One tournament of a player's history (R-TWIST-11: amount won, date, time, name)."""

    tournament_id: str
    name: str | None
    kind: str | None  # sng | mtt | twister | aog | wild
    status: str  # the tournament's: registering | running | finished | cancelled | interrupted
    entry_status: str  # the player's: registered | eliminated | won | refunded | compensated | ...
    place: int | None
    place_to: int | None
    prize: int  # cash prizes (and compensation) paid to the player's balance
    bounties_won: int
    buy_in: int
    fee: int
    currency: str
    started_at: datetime | None
    finished_at: datetime | None
    registered_at: datetime | None = None
    field: int = 0
    paid_buy_in: int = 0  # cash paid: entry, re-buys and add-ons (0 for a ticket entry)
    paid_fee: int = 0
    rebuys: int = 0
    addons: int = 0
    ticket_used: int | None = None  # face value of the ticket the entry was paid with
    tickets_won: tuple[TicketWon, ...] = ()
    jackpots: tuple[JackpotWon, ...] = ()
    multiplier: int | None = None  # Twister family: the drawn multiplier ...
    prize_pool: int | None = None  # ... and the prize it set (R-TWIST-3)
    features: tuple[str, ...] = ()  # knockout, progressive, satellite, freeroll, rebuy, private, flight, guaranteed

    @property
    def date(self) -> datetime | None:
        """When the player played it: the start, or the registration for one that never started."""
        return self.started_at or self.registered_at

    def to_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament_id, "name": self.name, "kind": self.kind, "status": self.status,
                "entry": self.entry_status, "place": self.place, "place_to": self.place_to, "field": self.field,
                "prize": self.prize, "bounties": self.bounties_won, "buy_in": self.buy_in, "fee": self.fee,
                "currency": self.currency, "paid_buy_in": self.paid_buy_in, "paid_fee": self.paid_fee,
                "rebuys": self.rebuys, "addons": self.addons, "ticket_used": self.ticket_used,
                "tickets_won": [t.to_dict() for t in self.tickets_won],
                "jackpots": [j.to_dict() for j in self.jackpots], "multiplier": self.multiplier,
                "prize_pool": self.prize_pool, "features": list(self.features), "date": _iso(self.date),
                "registered_at": _iso(self.registered_at), "started_at": _iso(self.started_at),
                "finished_at": _iso(self.finished_at)}


def features_of(spec: Any, t: Tournament) -> tuple[str, ...]:
    """The kind's particulars from the stored description (the room's TournamentSpec as JSON)."""
    spec = spec if isinstance(spec, dict) else {}
    out: list[str] = []
    knockout = spec.get("knockout")
    if isinstance(knockout, dict):
        out.append("progressive" if knockout.get("progressive") else "knockout")
    if spec.get("named_bounties"):
        out.append("bounty")
    for key in ("satellite", "rebuy", "private", "flight"):
        if spec.get(key):
            out.append(key)
    if t.kind not in TWISTER_KINDS and t.buy_in == 0 and t.fee == 0:
        out.append("freeroll")
    if t.guarantee:
        out.append("guaranteed")
    return tuple(out)


def player_history(db: Database, player_id: int, *, limit: int = 50,
                   kinds: Collection[str] | None = None) -> list[HistoryRow]:
    """The player's tournaments, newest first (at most ``limit``; only ``kinds`` if given)."""

    def body(s: Session) -> list[HistoryRow]:
        q = (select(Tournament, TournamentEntry, TwisterGame)
             .join(TournamentEntry, TournamentEntry.tournament_pk == Tournament.id)
             .outerjoin(TwisterGame, TwisterGame.tournament_id == Tournament.tournament_id)
             .where(TournamentEntry.player_id == player_id, TournamentEntry.status != WITHDRAWN))
        if kinds is not None:
            q = q.where(Tournament.kind.in_(list(kinds)))
        rows = s.execute(q.order_by(Tournament.id.desc()).limit(limit)).all()
        tournaments = [t for t, _e, _g in rows]
        fields = _fields(s, [t.id for t in tournaments])
        used = _ticket_values(s, [e.ticket_id for _t, e, _g in rows if e.ticket_id is not None])
        won = _tickets_won(s, player_id, tournaments)
        jackpots = _jackpots(s, player_id, [t.tournament_id for t in tournaments if t.kind == "aog"])
        return [HistoryRow(
            t.tournament_id, t.name, t.kind, t.status, e.status, e.place, e.place_to, e.prize, e.bounties_won,
            t.buy_in, t.fee, t.currency, _at(t.started_at), _at(t.finished_at), _at(e.registered_at),
            fields[t.id], e.paid_buy_in, e.paid_fee, e.rebuys, e.addons,
            used.get(e.ticket_id) if e.ticket_id is not None else None, tuple(won[t.tournament_id]),
            tuple(jackpots[t.tournament_id]), g.multiplier if g is not None else None,
            g.prize if g is not None else None, features_of(t.spec, t)) for t, e, g in rows]

    return db.read(body)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _at(value: datetime | None) -> datetime | None:
    return aware(value) if value is not None else None


def _fields(s: Session, pks: Sequence[int]) -> Counter[int]:
    if not pks:
        return Counter()
    return Counter({pk: int(n) for pk, n in s.execute(
        select(TournamentEntry.tournament_pk, func.count()).where(
            TournamentEntry.tournament_pk.in_(pks), TournamentEntry.status != WITHDRAWN)
        .group_by(TournamentEntry.tournament_pk))})


def _ticket_values(s: Session, ids: Sequence[int]) -> dict[int, int]:
    if not ids:
        return {}
    return {i: int(v) for i, v in s.execute(select(Ticket.id, Ticket.face_value).where(Ticket.id.in_(ids)))}


def _tickets_won(s: Session, player_id: int, tournaments: Sequence[Tournament]) -> defaultdict[str, list[TicketWon]]:
    """Tickets issued to the player out of each tournament's own prize pool (the ledger's ``ticket_issue``
    transactions debiting that pool; the transaction's result is the ticket id). A Day 1 flight has no pool of its
    own (it pays into its Day 2's), so it wins no tickets itself."""
    out: defaultdict[str, list[TicketWon]] = defaultdict(list)
    pools = {AccountKey.prize(t.tournament_id, t.currency).key: t.tournament_id for t in tournaments if not t.pool_id}
    if not pools:
        return out
    rows = s.execute(
        select(Account.key, Ticket.id, Ticket.face_value, Ticket.tournament_id)
        .select_from(Entry).join(Account, Account.id == Entry.account_id)
        .join(LedgerTxn, LedgerTxn.id == Entry.txn_id).join(Ticket, Ticket.id == LedgerTxn.result)
        .where(Account.key.in_(list(pools)), LedgerTxn.kind == "ticket_issue", Entry.amount < 0,
               Ticket.player_id == player_id)
        .order_by(Ticket.id))
    for key, ticket_id, value, valid_for in rows:
        out[pools[key]].append(TicketWon(int(ticket_id), int(value), valid_for))
    return out


def _jackpots(s: Session, player_id: int, tournament_ids: Sequence[str]) -> defaultdict[str, list[JackpotWon]]:
    out: defaultdict[str, list[JackpotWon]] = defaultdict(list)
    if not tournament_ids:
        return out
    for tid, tier, amount in s.execute(
            select(TwisterDraw.tournament_id, TwisterDraw.tier, TwisterDraw.amount).where(
                TwisterDraw.tournament_id.in_(list(tournament_ids)), TwisterDraw.player_id == player_id,
                TwisterDraw.tier.is_not(None)).order_by(TwisterDraw.seq)):
        out[tid].append(JackpotWon(str(tier), int(amount or 0)))
    return out
