"""Tournament money (R-FEE, R-TOURN-REG, R-TOURN-GEN, R-WALLET-5/6/9): registration (buy-in to the prize pool,
entry fee to the house, or a ticket standing in for both), unregistration and cancellation refunds, prizes, tickets
and jackpot pools.  Every movement goes through the double-entry core in :mod:`riverboat.store.postings`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, aware, request_hash
from riverboat.store.errors import InvalidRequest, NotFound
from riverboat.store.ledger import _check_id, _require_player
from riverboat.store.models import Account, LedgerTxn, Ticket, Tournament, TournamentEntry
from riverboat.store.postings import AccountKey, check_amount, check_currency, lock_accounts, post
from riverboat.store.protections import check_blocked, check_may_play

Transfer = tuple[AccountKey, AccountKey, int]


def pool_key(t: Tournament) -> AccountKey:
    """The prize pool a tournament's buy-ins go to: its own, or for a Day 1 flight its Day 2's (R-TOURN-FLIGHT)."""
    return AccountKey.prize(t.pool_id or t.tournament_id, t.currency)


def bounty_key(t: Tournament) -> AccountKey:
    """The knockout bounty pool (R-TOURN-KO / R-TOURN-PKO): the bounty part of every buy-in."""
    return AccountKey.prize(f"{t.pool_id or t.tournament_id}#ko", t.currency)


def get_tournament(s: Session, tournament_id: str, *, lock: bool = False) -> Tournament:
    q = select(Tournament).where(Tournament.tournament_id == tournament_id)
    if lock:
        q = q.with_for_update()
    t = s.scalar(q)
    if t is None:
        raise NotFound(f"no tournament {tournament_id!r}")
    return t


def _balance(s: Session, key: AccountKey) -> int:
    return int(s.scalar(select(Account.balance).where(Account.key == key.key)) or 0)


def close_pools(s: Session, t: Tournament, idem_key: str, kind: str, now: datetime) -> int:
    """Return what the prize and bounty pools still hold to the house (the outside world): room-added money of a
    cancelled tournament, rounding left over after the last prize. Returns the amount."""
    prize, ko, ext = pool_key(t), bounty_key(t), AccountKey.external(t.currency)
    accts = lock_accounts(s, [prize, ko, ext])
    transfers: list[Transfer] = [(acct, ext, accts[acct].balance) for acct in (prize, ko) if accts[acct].balance]
    left = sum(a for _, _, a in transfers)
    post(s, accts, idem_key=idem_key, kind=kind, req_hash=request_hash(kind, tournament_id=t.tournament_id),
         now=now, transfers=transfers, result=left)
    return left


def refund_entry(s: Session, t: Tournament, entry: TournamentEntry, idem_key: str, req: str, kind: str,
                 now: datetime) -> LedgerTxn:
    """Give back everything the entry paid: a ticket entry's buy-in + fee to the ticket (re-issued: a ticket never
    becomes cash, R-TOURN-GEN-2), cash buy-ins (entry, re-buys, add-ons; the knockout part from the bounty pool)
    and fees to the balance. The entry's paid amounts become zero; its status is the caller's."""
    prize, ko, fees = pool_key(t), bounty_key(t), AccountKey.fees(t.currency)
    wallet, ticket_acct = AccountKey.wallet(entry.player_id, t.currency), AccountKey.ticket(entry.player_id,
                                                                                             t.currency)
    transfers: list[Transfer] = []
    if entry.ticket_id is not None:
        ticket = s.get(Ticket, entry.ticket_id, with_for_update=True)
        if ticket is None:  # pragma: no cover - foreign key
            raise NotFound(f"no ticket {entry.ticket_id}")
        ticket.status = "issued"
        transfers += [(prize, ticket_acct, t.buy_in - t.bounty)] if t.buy_in - t.bounty else []
        transfers += [(ko, ticket_acct, t.bounty)] if t.bounty else []
        transfers += [(fees, ticket_acct, t.fee)] if t.fee else []
    cash_pool = entry.paid_buy_in - entry.paid_bounty
    transfers += [(prize, wallet, cash_pool)] if cash_pool else []
    transfers += [(ko, wallet, entry.paid_bounty)] if entry.paid_bounty else []
    transfers += [(fees, wallet, entry.paid_fee)] if entry.paid_fee else []
    accts = lock_accounts(s, [prize, ko, fees, wallet, ticket_acct])
    txn = post(s, accts, idem_key=idem_key, kind=kind, req_hash=req, now=now, transfers=transfers)
    entry.paid_buy_in = entry.paid_fee = entry.paid_bounty = 0
    return txn


@dataclass(frozen=True, slots=True)
class TicketInfo:
    id: int
    player_id: int
    currency: str
    face_value: int
    tournament_id: str | None
    status: str


def _ticket_valid_for(scope: str | None, tournament_id: str) -> bool:
    """A ticket is valid anywhere (None), for one tournament, or for every id starting with the part of its
    scope before a final ``*`` (Wild Twister tickets: ``twister:*``, R-WILD-1)."""
    if scope is None or scope == tournament_id:
        return True
    return scope.endswith("*") and tournament_id.startswith(scope[:-1])


class Tournaments:
    def __init__(self, db: Database) -> None:
        self._db = db

    def create(
        self,
        tournament_id: str,
        currency: str,
        buy_in: int,
        fee: int,
        *,
        unregister_deadline: datetime | None = None,
        name: str | None = None,
        kind: str | None = None,
        spec: dict[str, Any] | None = None,
        guarantee: int = 0,
        bounty: int = 0,
        pool_id: str | None = None,
    ) -> None:
        """Declare a tournament.  A freeroll has neither buy-in nor fee; every other tournament has both
        (R-FEE-2, R-TOURN-REG-2).  ``unregister_deadline`` (aware datetime) closes unregistration (R-TOURN-REG-3).
        ``bounty``: the knockout part of every buy-in, kept in the tournament's bounty pool (R-TOURN-KO/PKO);
        ``guarantee``: the guaranteed pool (R-TOURN-MTT-4, any overlay paid by the house with :meth:`pay_overlay`);
        ``pool_id``: the tournament whose prize pool this one's buy-ins go to (a Day 1 flight: its Day 2,
        R-TOURN-FLIGHT); ``name``/``kind``/``spec``: the room's description of it."""
        _check_id(tournament_id, "tournament_id")
        check_currency(currency)
        check_amount(buy_in, "buy_in", allow_zero=True)
        check_amount(fee, "fee", allow_zero=True)
        check_amount(guarantee, "guarantee", allow_zero=True)
        check_amount(bounty, "bounty", allow_zero=True)
        if (buy_in == 0) != (fee == 0):
            raise InvalidRequest("a tournament has both a buy-in and an entry fee, or neither (freeroll, R-FEE-2)")
        if bounty and bounty >= buy_in:
            raise InvalidRequest("the knockout bounty is part of the buy-in and must be smaller than it")
        if pool_id is not None:
            _check_id(pool_id, "pool_id")

        def body(s: Session) -> None:
            s.add(Tournament(tournament_id=tournament_id, currency=currency, buy_in=buy_in, fee=fee,
                             status="registering",
                             unregister_deadline=aware(unregister_deadline) if unregister_deadline else None,
                             name=name, kind=kind, spec=spec, guarantee=guarantee, bounty=bounty, pool_id=pool_id,
                             overlay=0, created_at=self._db.now()))
            s.flush()

        try:
            self._db.run(body)
        except IntegrityError:
            raise InvalidRequest(f"tournament {tournament_id!r} already exists") from None

    def exists(self, tournament_id: str) -> bool:
        """Whether a tournament of this id was ever created (ids are never reused, even after it finished)."""
        return self._db.read(lambda s: s.scalar(
            select(Tournament.id).where(Tournament.tournament_id == tournament_id)) is not None)

    def status(self, tournament_id: str) -> str:
        return self._db.read(lambda s: self._get(s, tournament_id).status)

    def start(self, tournament_id: str) -> None:
        """Registration closes; from now on nobody can unregister (R-TOURN-REG-3)."""
        self._set_status(tournament_id, "running", ("registering",))

    def finish(self, tournament_id: str) -> None:
        self._set_status(tournament_id, "finished", ("running",))

    def registered(self, tournament_id: str) -> list[int]:
        def body(s: Session) -> list[int]:
            t = self._get(s, tournament_id)
            return list(s.scalars(select(TournamentEntry.player_id).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered")
                .order_by(TournamentEntry.id)))

        return self._db.read(body)

    def register(self, player_id: int, tournament_id: str, idem_key: str, *, ticket_id: int | None = None,
                 late: bool = False, once: bool = False) -> int:
        """Pay the buy-in into the prize pool and the entry fee to the house (R-FEE-1, R-WALLET-5), from the
        player's balance or with a ticket whose face value equals buy-in + fee.  ``late``: the director accepts a
        late registration while the tournament runs (R-TOURN-REG-1).  Returns the transaction id."""

        def body(s: Session) -> int:
            _require_player(s, player_id)
            check_may_play(s, player_id, self._db.now())  # a time-out or self-exclusion: no new play (#30)
            t = self._get(s, tournament_id, lock=True)
            if t.status != "registering" and not (late and t.status == "running"):
                raise InvalidRequest(f"registration for tournament {tournament_id!r} is closed ({t.status})")
            entry = s.scalar(select(TournamentEntry).where(TournamentEntry.tournament_pk == t.id,
                                                           TournamentEntry.player_id == player_id))
            if entry is not None and entry.status == "registered":
                raise InvalidRequest(f"player {player_id} is already registered for {tournament_id!r}")
            prize, ko, fees = pool_key(t), bounty_key(t), AccountKey.fees(t.currency)
            if ticket_id is not None:
                ticket = self._ticket(s, ticket_id)
                if ticket.player_id != player_id or ticket.status != "issued":
                    raise InvalidRequest(f"ticket {ticket_id} is not an unused ticket of player {player_id}")
                if not _ticket_valid_for(ticket.tournament_id, tournament_id):
                    raise InvalidRequest(f"ticket {ticket_id} is only valid for {ticket.tournament_id!r}")
                if ticket.currency != t.currency or ticket.face_value != t.buy_in + t.fee:
                    raise InvalidRequest(
                        f"ticket {ticket_id} is worth {ticket.face_value} {ticket.currency}, the entry costs "
                        f"{t.buy_in + t.fee} {t.currency}"
                    )
                source = AccountKey.ticket(player_id, t.currency)
                ticket.status = "redeemed"
            else:
                source = AccountKey.wallet(player_id, t.currency)
            accts = lock_accounts(s, [source, prize, ko, fees])
            transfers = [(source, prize, t.buy_in - t.bounty)] if t.buy_in else []
            if t.bounty:
                transfers.append((source, ko, t.bounty))
            if t.fee:
                transfers.append((source, fees, t.fee))
            txn = post(s, accts, idem_key=idem_key, kind="t_register", req_hash=req, now=self._db.now(),
                       transfers=transfers)
            paid_buy_in, paid_fee = (0, 0) if ticket_id is not None else (t.buy_in, t.fee)
            paid_bounty = 0 if ticket_id is not None else t.bounty
            number = (s.scalar(select(func.max(TournamentEntry.entry_no))
                               .where(TournamentEntry.tournament_pk == t.id)) or 0) + 1
            if entry is None:
                entry = TournamentEntry(tournament_pk=t.id, player_id=player_id)
                s.add(entry)
            entry.status, entry.ticket_id = "registered", ticket_id
            entry.paid_buy_in, entry.paid_fee, entry.paid_bounty = paid_buy_in, paid_fee, paid_bounty
            entry.entry_no, entry.registered_at = number, self._db.now()
            entry.bounty = t.bounty
            entry.chips = entry.rebuys = entry.addons = 0
            return txn.id

        req = request_hash("t_register", player_id=player_id, tournament_id=tournament_id, ticket_id=ticket_id,
                           late=late)
        return self._db.run_idempotent(idem_key, "t_register", req, body, once=once)

    def unregister(self, player_id: int, tournament_id: str, idem_key: str, *, protection: bool = False) -> int:
        """Refund buy-in and fee to where they came from (balance or ticket).  Refused once the tournament has
        started or its unregistration deadline has passed (R-TOURN-REG-3).  ``protection`` (issue #30): the
        player's time-out or self-exclusion ends the registration of a tournament not yet started, deadline or not;
        refused (``not_blocked``) unless one is in force.  Returns the transaction id."""

        def body(s: Session) -> int:
            t = self._get(s, tournament_id, lock=True)
            if t.status != "registering":
                raise InvalidRequest(
                    f"tournament {tournament_id!r} has started; buy-in and fee are not refunded (R-TOURN-REG-3)"
                )
            if protection:
                check_blocked(s, player_id, self._db.now())
            elif t.unregister_deadline is not None and self._db.now() > aware(t.unregister_deadline):
                raise InvalidRequest(
                    f"the unregistration deadline of {tournament_id!r} has passed; no refund (R-TOURN-REG-3)"
                )
            return self._refund(s, t, player_id, idem_key, req, "t_unregister")

        req = request_hash("t_unregister", player_id=player_id, tournament_id=tournament_id,
                           **({"protection": True} if protection else {}))
        return self._db.run_idempotent(idem_key, "t_unregister", req, body)

    def cancel(self, tournament_id: str) -> list[int]:
        """Cancel a tournament that did not meet its requirements: every registered player gets buy-in and fee
        back (R-TOURN-REG-4) and any room-added money returns to the room.  Returns the refunded player ids."""

        def body(s: Session) -> list[int]:
            t = self._get(s, tournament_id, lock=True)
            if t.status not in ("registering", "running"):
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status} and cannot be cancelled")
            players = list(s.scalars(select(TournamentEntry.player_id).where(
                TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered")
                .order_by(TournamentEntry.id)))
            for pid in players:
                key = f"t_cancel:{tournament_id}:{pid}"
                self._refund(s, t, pid, key, request_hash("t_cancel", tournament_id=tournament_id, player_id=pid),
                             "t_cancel")
            if t.pool_id is None:  # a flight's buy-ins stay in its Day 2 pool; only its own entries are refunded
                close_pools(s, t, f"t_cancel_pool:{tournament_id}", "t_cancel_pool", self._db.now())
            t.status = "cancelled"
            t.finished_at = self._db.now()
            return players

        return self._db.run(body)

    def edit(self, tournament_id: str, *, spec: dict[str, Any], name: str | None, guarantee: int,
             unregister_deadline: datetime | None) -> None:
        """An operator's edit of a registering or running tournament (R-OPER-2; the room decides what may change):
        its description, name, guarantee (overlay still unpaid) and unregistration deadline. No money moves."""
        check_amount(guarantee, "guarantee", allow_zero=True)

        def body(s: Session) -> None:
            t = self._get(s, tournament_id, lock=True)
            if t.status not in ("registering", "running"):
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status} and cannot be edited")
            if guarantee != t.guarantee and t.overlay:
                raise InvalidRequest(f"the overlay of {tournament_id!r} is paid: its guarantee is final")
            t.spec, t.name, t.guarantee = spec, name, guarantee
            t.unregister_deadline = aware(unregister_deadline) if unregister_deadline else None

        self._db.run(body)

    def add_to_prize_pool(self, tournament_id: str, amount: int, idem_key: str) -> int:
        """Room money added to the prize pool (guarantees, freerolls: R-TOURN-GEN-1/3)."""
        check_amount(amount)

        def body(s: Session) -> int:
            t = self._get(s, tournament_id)
            prize, ext = pool_key(t), AccountKey.external(t.currency)
            accts = lock_accounts(s, [prize, ext])
            txn = post(s, accts, idem_key=idem_key, kind="t_add_prize", req_hash=req, now=self._db.now(),
                       transfers=[(ext, prize, amount)])
            return txn.id

        req = request_hash("t_add_prize", tournament_id=tournament_id, amount=amount)
        return self._db.run_idempotent(idem_key, "t_add_prize", req, body)

    def pay_overlay(self, tournament_id: str, idem_key: str) -> int:
        """R-TOURN-MTT-4 / R-TOURN-GEN-1: the house tops the prize pool up to the guarantee (the overlay) once the
        pool is final. Returns the overlay paid (0 when the buy-ins reached the guarantee)."""

        def body(s: Session) -> int:
            t = self._get(s, tournament_id, lock=True)
            prize, ext = pool_key(t), AccountKey.external(t.currency)
            accts = lock_accounts(s, [prize, ext])
            overlay = max(0, t.guarantee - accts[prize].balance) if t.overlay == 0 else 0
            post(s, accts, idem_key=idem_key, kind="t_overlay", req_hash=req, now=self._db.now(),
                 transfers=[(ext, prize, overlay)] if overlay else [], result=overlay)
            t.overlay += overlay
            return overlay

        req = request_hash("t_overlay", tournament_id=tournament_id)
        return self._db.run_idempotent(idem_key, "t_overlay", req, body)

    def pay_in(
        self, player_id: int, tournament_id: str, buy_in: int, fee: int, idem_key: str, *, kind: str = "rebuy",
        once: bool = False,
    ) -> int:
        """A re-buy or add-on (R-TOURN-REBUY): ``buy_in`` to the prize pool, ``fee`` to the house, from the
        balance of a registered player while the tournament runs or registers; counted on the entry.  Returns the
        transaction id."""
        check_amount(buy_in, "buy_in")
        check_amount(fee, "fee", allow_zero=True)
        if kind not in ("rebuy", "addon"):
            raise InvalidRequest("kind must be 'rebuy' or 'addon'")

        def body(s: Session) -> int:
            check_may_play(s, player_id, self._db.now())  # a time-out or self-exclusion: no re-buy either (#30)
            t = self._get(s, tournament_id, lock=True)
            if t.status not in ("registering", "running"):
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status}")
            entry = s.scalar(select(TournamentEntry).where(TournamentEntry.tournament_pk == t.id,
                                                           TournamentEntry.player_id == player_id))
            if entry is None or entry.status != "registered":
                raise InvalidRequest(f"player {player_id} is not registered for {tournament_id!r}")
            wallet = AccountKey.wallet(player_id, t.currency)
            prize, fees = pool_key(t), AccountKey.fees(t.currency)
            accts = lock_accounts(s, [wallet, prize, fees])
            transfers = [(wallet, prize, buy_in)] + ([(wallet, fees, fee)] if fee else [])
            txn = post(s, accts, idem_key=idem_key, kind=f"t_{kind}", req_hash=req, now=self._db.now(),
                       transfers=transfers)
            entry.paid_buy_in += buy_in
            entry.paid_fee += fee
            if kind == "rebuy":
                entry.rebuys += 1
            else:
                entry.addons += 1
            return txn.id

        req = request_hash(f"t_{kind}", player_id=player_id, tournament_id=tournament_id, buy_in=buy_in, fee=fee)
        return self._db.run_idempotent(idem_key, f"t_{kind}", req, body, once=once)

    def refund_entry(self, tournament_id: str, player_id: int, idem_key: str) -> int:
        """Interrupted tournament (R-TOURN-INT-2..6, part 1): give a remaining player back their buy-in(s) and
        entry fee(s).  Further compensation from the pool is paid with :meth:`pay_prize`.  Returns the txn id."""

        def body(s: Session) -> int:
            t = self._get(s, tournament_id, lock=True)
            if t.status not in ("registering", "running"):
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status}")
            return self._refund(s, t, player_id, idem_key, req, "t_refund")

        req = request_hash("t_refund", tournament_id=tournament_id, player_id=player_id)
        return self._db.run_idempotent(idem_key, "t_refund", req, body)

    def disqualify(self, operator_id: int, tournament_id: str, player_id: int) -> None:
        """Operator sanction (R-INTEG-5 a/b, R-OPER-1, R-WALLET-8): remove the player from the tournament (their
        chips leave play); the buy-ins and fees already paid are forfeited (they stay in the prize pool and with
        the house)."""
        from riverboat.store.accounts import require_operator

        def body(s: Session) -> None:
            require_operator(s, operator_id)
            t = self._get(s, tournament_id, lock=True)
            entry = s.scalar(select(TournamentEntry).where(TournamentEntry.tournament_pk == t.id,
                                                           TournamentEntry.player_id == player_id))
            if entry is None or entry.status != "registered":
                raise InvalidRequest(f"player {player_id} is not registered for {tournament_id!r}")
            entry.status = "disqualified"
            entry.chips, entry.table_id, entry.seat = 0, None, None

        self._db.run(body)

    def prize_pool(self, tournament_id: str) -> int:
        """The prize pool's balance (for a Day 1 flight: its Day 2's pool)."""
        return self._db.read(lambda s: _balance(s, pool_key(self._get(s, tournament_id))))

    def bounty_pool(self, tournament_id: str) -> int:
        """What the knockout bounty pool holds (R-TOURN-KO / R-TOURN-PKO)."""
        return self._db.read(lambda s: _balance(s, bounty_key(self._get(s, tournament_id))))

    def pay_prize(self, tournament_id: str, player_id: int, amount: int, idem_key: str) -> int:
        """Pay a prize from the prize pool to the player's balance at once (R-TOURN-GEN-5, R-WALLET-6)."""
        check_amount(amount)

        def body(s: Session) -> int:
            _require_player(s, player_id)
            t = self._get(s, tournament_id)
            if t.status == "cancelled":
                raise InvalidRequest(f"tournament {tournament_id!r} was cancelled")
            prize, wallet = pool_key(t), AccountKey.wallet(player_id, t.currency)
            accts = lock_accounts(s, [prize, wallet])
            txn = post(s, accts, idem_key=idem_key, kind="t_prize", req_hash=req, now=self._db.now(),
                       transfers=[(prize, wallet, amount)])
            return txn.id

        req = request_hash("t_prize", tournament_id=tournament_id, player_id=player_id, amount=amount)
        return self._db.run_idempotent(idem_key, "t_prize", req, body)

    def pay_bounty(self, tournament_id: str, player_id: int, amount: int, idem_key: str) -> int:
        """Pay a knockout bounty from the bounty pool to the player's balance (R-TOURN-KO-1, R-TOURN-PKO-3)."""
        check_amount(amount)

        def body(s: Session) -> int:
            _require_player(s, player_id)
            t = self._get(s, tournament_id)
            ko, wallet = bounty_key(t), AccountKey.wallet(player_id, t.currency)
            accts = lock_accounts(s, [ko, wallet])
            return post(s, accts, idem_key=idem_key, kind="t_bounty", req_hash=req, now=self._db.now(),
                        transfers=[(ko, wallet, amount)]).id

        req = request_hash("t_bounty", tournament_id=tournament_id, player_id=player_id, amount=amount)
        return self._db.run_idempotent(idem_key, "t_bounty", req, body)

    def close(self, tournament_id: str, idem_key: str) -> int:
        """A finished or interrupted tournament: whatever its pools still hold (rounding, money a Sit & Go pool
        held beyond the refunds) goes back to the house. Returns the amount (0 when every chip was paid out)."""

        def body(s: Session) -> int:
            t = self._get(s, tournament_id, lock=True)
            if t.pool_id is not None:  # a Day 1 flight: the pool is its Day 2's, still to be paid
                return 0
            return close_pools(s, t, idem_key, "t_close", self._db.now())

        return self._db.run(body)

    # ------------------------------------------------------------------ tickets
    def issue_ticket(
        self,
        player_id: int,
        currency: str,
        face_value: int,
        idem_key: str,
        *,
        tournament_id: str | None = None,
        from_tournament: str | None = None,
    ) -> int:
        """Credit a non-cashable ticket (R-TOURN-GEN-2, R-WALLET-6), funded by the room or, with
        ``from_tournament``, by that tournament's prize pool (satellites).  ``tournament_id`` restricts where it
        can be used.  Returns the ticket id."""
        check_currency(currency)
        check_amount(face_value, "face_value")

        def body(s: Session) -> int:
            _require_player(s, player_id)
            if from_tournament is not None:
                src_t = self._get(s, from_tournament)
                if src_t.currency != currency:
                    raise InvalidRequest("the ticket's currency differs from the tournament's")
                source = pool_key(src_t)
            else:
                source = AccountKey.external(currency)
            dest = AccountKey.ticket(player_id, currency)
            accts = lock_accounts(s, [source, dest])
            ticket = Ticket(player_id=player_id, currency=currency, face_value=face_value,
                            tournament_id=tournament_id, status="issued", created_at=self._db.now())
            s.add(ticket)
            s.flush()
            post(s, accts, idem_key=idem_key, kind="ticket_issue", req_hash=req, now=self._db.now(),
                 transfers=[(source, dest, face_value)], result=ticket.id)
            return ticket.id

        req = request_hash("ticket_issue", player_id=player_id, currency=currency, face_value=face_value,
                           tournament_id=tournament_id, from_tournament=from_tournament)
        return self._db.run_idempotent(idem_key, "ticket_issue", req, body)

    def tickets(self, player_id: int, *, unused_only: bool = True) -> list[TicketInfo]:
        def body(s: Session) -> list[TicketInfo]:
            q = select(Ticket).where(Ticket.player_id == player_id)
            if unused_only:
                q = q.where(Ticket.status == "issued")
            return [TicketInfo(t.id, t.player_id, t.currency, t.face_value, t.tournament_id, t.status)
                    for t in s.scalars(q.order_by(Ticket.id))]

        return self._db.read(body)

    # ------------------------------------------------------------------ jackpots
    def jackpot_contribute(self, tournament_id: str, pool: str, amount: int, idem_key: str) -> int:
        """Move part of a tournament's stakes into a jackpot pool (R-WALLET-9, R-AOG-5)."""
        check_amount(amount)
        _check_id(pool, "pool")

        def body(s: Session) -> int:
            t = self._get(s, tournament_id)
            src, dest = pool_key(t), AccountKey.jackpot(pool, t.currency)
            accts = lock_accounts(s, [src, dest])
            txn = post(s, accts, idem_key=idem_key, kind="jackpot_in", req_hash=req, now=self._db.now(),
                       transfers=[(src, dest, amount)])
            return txn.id

        req = request_hash("jackpot_in", tournament_id=tournament_id, pool=pool, amount=amount)
        return self._db.run_idempotent(idem_key, "jackpot_in", req, body)

    def jackpot_pay(self, pool: str, player_id: int, currency: str, amount: int, idem_key: str) -> int:
        """Pay a jackpot win to the player's balance, separately from any tournament prize (R-WALLET-9)."""
        check_amount(amount)
        check_currency(currency)

        def body(s: Session) -> int:
            _require_player(s, player_id)
            src, dest = AccountKey.jackpot(pool, currency), AccountKey.wallet(player_id, currency)
            accts = lock_accounts(s, [src, dest])
            txn = post(s, accts, idem_key=idem_key, kind="jackpot_out", req_hash=req, now=self._db.now(),
                       transfers=[(src, dest, amount)])
            return txn.id

        req = request_hash("jackpot_out", pool=pool, player_id=player_id, currency=currency, amount=amount)
        return self._db.run_idempotent(idem_key, "jackpot_out", req, body)

    def jackpot_balance(self, pool: str, currency: str) -> int:
        from riverboat.store.models import Account

        def body(s: Session) -> int:
            bal = s.scalar(select(Account.balance).where(Account.key == AccountKey.jackpot(pool, currency).key))
            return int(bal or 0)

        return self._db.read(body)

    # ------------------------------------------------------------------ helpers
    def _refund(self, s: Session, t: Tournament, player_id: int, idem_key: str, req: str, kind: str) -> int:
        """Give back everything the entry paid: a ticket entry's buy-in + fee to the ticket (re-issued), cash
        buy-ins (entry, re-buys, add-ons) and fees to the balance."""
        entry = s.scalar(select(TournamentEntry).where(TournamentEntry.tournament_pk == t.id,
                                                       TournamentEntry.player_id == player_id))
        if entry is None or entry.status != "registered":
            raise InvalidRequest(f"player {player_id} is not registered for {t.tournament_id!r}")
        txn = refund_entry(s, t, entry, idem_key, req, kind, self._db.now())
        entry.status = "unregistered" if kind == "t_unregister" else "refunded"
        return txn.id

    def _set_status(self, tournament_id: str, status: str, allowed_from: tuple[str, ...]) -> None:
        def body(s: Session) -> None:
            t = self._get(s, tournament_id, lock=True)
            if t.status not in allowed_from:
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status}; cannot become {status}")
            t.status = status

        self._db.run(body)

    @staticmethod
    def _get(s: Session, tournament_id: str, *, lock: bool = False) -> Tournament:
        return get_tournament(s, tournament_id, lock=lock)

    @staticmethod
    def _ticket(s: Session, ticket_id: int) -> Ticket:
        ticket = s.get(Ticket, ticket_id, with_for_update=True)
        if ticket is None:
            raise NotFound(f"no ticket {ticket_id}")
        return ticket
