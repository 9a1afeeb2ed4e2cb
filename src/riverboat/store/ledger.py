"""Cash-game money: deposits and withdrawals, buy-in / top-up / cash-out (R-BUYIN, R-CASH-3, R-WALLET-1/2),
hand settlement in one transaction (R-WALLET-3) and voiding of unsettled hands after a crash (R-SERVER)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.history.keys import search_keys
from riverboat.history.play_flags import play_flags
from riverboat.store._tx import Database, request_hash
from riverboat.store.errors import InvalidRequest, LedgerCorrupt, NotFound
from riverboat.store.fencing import check_fence
from riverboat.store.models import Account, Entry, Hand, HandPlayer, LedgerTxn, Player, TableSeat
from riverboat.store.postings import (
    ESCROW,
    EXTERNAL,
    PLAY,
    AccountKey,
    check_amount,
    check_currency,
    lock_accounts,
    post,
)
from riverboat.store.protections import check_may_play


def _check_id(value: str, what: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 128:
        raise InvalidRequest(f"{what} must be a string of 1 to 128 characters, got {value!r}")
    return value


def _require_player(session: Session, player_id: int) -> None:
    if isinstance(player_id, bool) or not isinstance(player_id, int) or session.get(Player, player_id) is None:
        raise NotFound(f"no player with id {player_id!r}")


def _require_players(session: Session, player_ids: Iterable[int]) -> None:
    wanted = set(player_ids)
    if any(isinstance(p, bool) or not isinstance(p, int) for p in wanted):
        raise NotFound(f"player ids must be integers, got {sorted(map(repr, wanted))}")
    found = set(session.scalars(select(Player.id).where(Player.id.in_(wanted))))
    if found != wanted:
        raise NotFound(f"no player with id {sorted(wanted - found)[0]!r}")


@dataclass(frozen=True, slots=True)
class KeptStack:
    """Chips on a table that outlived the room's process (:meth:`Ledger.kept_stacks`)."""

    table_id: str
    currency: str
    player_id: int
    chips: int
    seat: int | None  # the seat given at the buy-in, if any


class Ledger:
    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ wallet
    def deposit(self, player_id: int, currency: str, amount: int, idem_key: str) -> int:
        """Credit a player's balance from outside (operator/cashier).  Returns the transaction id."""
        return self._external_transfer("deposit", player_id, currency, amount, idem_key)

    def withdraw(self, player_id: int, currency: str, amount: int, idem_key: str) -> int:
        """Pay money out of a player's balance (refused if it would overdraw).  Returns the transaction id."""
        return self._external_transfer("withdraw", player_id, currency, amount, idem_key)

    def _external_transfer(self, kind: str, player_id: int, currency: str, amount: int, idem_key: str) -> int:
        """Move money between the outside world and a wallet: ``deposit`` credits it, ``withdraw`` debits it."""
        check_currency(currency)
        check_amount(amount)
        wallet, ext = AccountKey.wallet(player_id, currency), AccountKey.external(currency)
        source, target = (ext, wallet) if kind == "deposit" else (wallet, ext)

        def body(s: Session) -> int:
            _require_player(s, player_id)
            accts = lock_accounts(s, [wallet, ext])
            txn = post(s, accts, idem_key=idem_key, kind=kind, req_hash=req, now=self._db.now(),
                       transfers=[(source, target, amount)])
            return txn.id

        req = request_hash(kind, player_id=player_id, currency=currency, amount=amount)
        return self._db.run_idempotent(idem_key, kind, req, body)

    # ------------------------------------------------------------------ tables
    def buy_in(
        self,
        player_id: int,
        table_id: str,
        amount: int,
        idem_key: str,
        *,
        currency: str = "EUR",
        min_buy_in: int = 0,
        max_buy_in: int | None = None,
        epoch: int | None = None,
        once: bool = False,
        seat: int | None = None,
    ) -> int:
        """Move ``amount`` from the player's balance to their stack at ``table_id`` (R-BUYIN-1, R-WALLET-1).

        Refused below ``min_buy_in`` or above ``max_buy_in`` (``None``: no maximum, "all the player's money",
        R-BUYIN-2/3), when the player already has chips on that table (use :meth:`top_up`) and when the balance
        does not cover it.  ``epoch``: a cluster host's fencing token (:mod:`riverboat.store.fencing`).  ``once``:
        a used ``idem_key`` raises :class:`IdempotentReplay` (a key derived from a frame id).  ``seat``: the
        player's seat, kept until :meth:`cash_out` (a restart that keeps the stacks seats them there again,
        :meth:`kept_stacks`).  Returns the transaction id."""
        check_currency(currency)
        _check_id(table_id, "table_id")
        check_amount(amount)
        check_amount(min_buy_in, "min_buy_in", allow_zero=True)
        if max_buy_in is not None:
            check_amount(max_buy_in, "max_buy_in")
            if max_buy_in < min_buy_in:
                raise InvalidRequest(f"max_buy_in {max_buy_in} is below min_buy_in {min_buy_in}")
        if amount < min_buy_in:
            raise InvalidRequest(f"buy-in {amount} is below the table minimum of {min_buy_in} (R-BUYIN-2)")
        if max_buy_in is not None and amount > max_buy_in:
            raise InvalidRequest(f"buy-in {amount} is above the table maximum of {max_buy_in} (R-BUYIN-2)")
        wallet, escrow = AccountKey.wallet(player_id, currency), AccountKey.escrow(player_id, table_id, currency)

        def body(s: Session) -> int:
            check_fence(s, table_id, epoch)
            _require_player(s, player_id)
            check_may_play(s, player_id, self._db.now())  # a time-out or self-exclusion: no new play (#30)
            accts = lock_accounts(s, [wallet, escrow])
            if accts[escrow].balance > 0:
                raise InvalidRequest(
                    f"you already have {accts[escrow].balance} on this table: use top_up to add chips"
                )
            txn = post(s, accts, idem_key=idem_key, kind="buy_in", req_hash=req, now=self._db.now(),
                       transfers=[(wallet, escrow, amount)])
            if seat is not None:
                s.execute(delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id))
                s.add(TableSeat(table_id=table_id, player_id=player_id, seat=seat))
            return txn.id

        req = request_hash("buy_in", player_id=player_id, table_id=table_id, amount=amount, currency=currency,
                           min_buy_in=min_buy_in, max_buy_in=max_buy_in)
        return self._db.run_idempotent(idem_key, "buy_in", req, body, once=once)

    def top_up(
        self,
        player_id: int,
        table_id: str,
        amount: int,
        idem_key: str,
        *,
        currency: str = "EUR",
        max_buy_in: int | None = None,
        epoch: int | None = None,
        once: bool = False,
    ) -> int:
        """Add chips to a stack between hands; the stack may not exceed ``max_buy_in``.  Refused while the
        player is in an unsettled hand at that table (table stakes, R-BUYIN-1).  ``once`` as for :meth:`buy_in`.
        Returns the transaction id."""
        check_currency(currency)
        _check_id(table_id, "table_id")
        check_amount(amount)
        if max_buy_in is not None:
            check_amount(max_buy_in, "max_buy_in")
        wallet, escrow = AccountKey.wallet(player_id, currency), AccountKey.escrow(player_id, table_id, currency)

        def body(s: Session) -> int:
            check_fence(s, table_id, epoch)
            _require_player(s, player_id)
            check_may_play(s, player_id, self._db.now())  # a time-out or self-exclusion: no new play (#30)
            accts = lock_accounts(s, [wallet, escrow])
            self._refuse_in_hand(s, player_id, table_id, "top up")
            stack = accts[escrow].balance
            if max_buy_in is not None and stack + amount > max_buy_in:
                raise InvalidRequest(
                    f"top-up to {stack + amount} would exceed the table maximum of {max_buy_in} (R-BUYIN-2)"
                )
            txn = post(s, accts, idem_key=idem_key, kind="top_up", req_hash=req, now=self._db.now(),
                       transfers=[(wallet, escrow, amount)])
            return txn.id

        req = request_hash("top_up", player_id=player_id, table_id=table_id, amount=amount, currency=currency,
                           max_buy_in=max_buy_in)
        return self._db.run_idempotent(idem_key, "top_up", req, body, once=once)

    def cash_out(self, player_id: int, table_id: str, idem_key: str, *, currency: str = "EUR",
                 epoch: int | None = None) -> int:
        """Return the player's whole stack at ``table_id`` to their balance (R-CASH-3, R-WALLET-2).  Refused
        while the player is in an unsettled hand there.  Returns the amount moved (0 if the stack was empty)."""
        check_currency(currency)
        _check_id(table_id, "table_id")
        wallet, escrow = AccountKey.wallet(player_id, currency), AccountKey.escrow(player_id, table_id, currency)

        def body(s: Session) -> int:
            check_fence(s, table_id, epoch)
            _require_player(s, player_id)
            accts = lock_accounts(s, [wallet, escrow])
            self._refuse_in_hand(s, player_id, table_id, "cash out")
            stack = accts[escrow].balance
            transfers = [(escrow, wallet, stack)] if stack > 0 else []
            post(s, accts, idem_key=idem_key, kind="cash_out", req_hash=req, now=self._db.now(),
                 transfers=transfers, result=stack)
            s.execute(delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id))
            return stack

        req = request_hash("cash_out", player_id=player_id, table_id=table_id, currency=currency)
        return self._db.run_idempotent(idem_key, "cash_out", req, body)

    def table_stack(self, player_id: int, table_id: str, currency: str = "EUR") -> int:
        """The player's chips at ``table_id`` (their table escrow)."""
        return self.account_balance(AccountKey.escrow(player_id, table_id, currency))

    def table_stacks(self, table_id: str, currency: str = "EUR") -> dict[int, int]:
        """Every non-empty stack at ``table_id``: ``{player_id: chips}`` (what survives a restart)."""

        def body(s: Session) -> dict[int, int]:
            rows = s.execute(
                select(Account.player_id, Account.balance).where(
                    Account.kind == ESCROW, Account.ref == table_id, Account.currency == currency,
                    Account.balance > 0,
                )
            ).all()
            return {int(pid): int(bal) for pid, bal in rows if pid is not None}

        return self._db.read(body)

    @staticmethod
    def _refuse_in_hand(s: Session, player_id: int, table_id: str, what: str) -> None:
        busy = s.scalar(
            select(Hand.hand_id)
            .join(HandPlayer, HandPlayer.hand_pk == Hand.id)
            .where(Hand.table_id == table_id, Hand.status == "started", HandPlayer.player_id == player_id)
        )
        if busy is not None:
            raise InvalidRequest(
                f"you cannot {what} at this table while you are in a hand there; wait for it to end"
            )

    # ------------------------------------------------------------------ hands
    def start_hand(
        self, table_id: str, hand_id: str, seats_and_stacks: Mapping[int, int], *, currency: str = "EUR",
        epoch: int | None = None,
    ) -> None:
        """Record that a hand has started.  No chips move until :meth:`settle_hand`; if the process dies first,
        :meth:`void_unsettled_hands` cancels the hand and every stack is still its pre-hand value (R-SERVER-1).
        Each given stack must equal the player's chips on the table; one unsettled hand per table at a time.
        Repeating the call with the same seats while the hand is open changes nothing."""
        _check_id(table_id, "table_id")
        _check_id(hand_id, "hand_id")
        check_currency(currency)
        if len(seats_and_stacks) < 2:
            raise InvalidRequest("a hand needs at least two players (R-CASH-2)")
        for pid, stack in seats_and_stacks.items():
            check_amount(stack, f"stack of player {pid}")
        keys = {pid: AccountKey.escrow(pid, table_id, currency) for pid in seats_and_stacks}

        def body(s: Session) -> None:
            check_fence(s, table_id, epoch)
            _require_players(s, seats_and_stacks)
            accts = lock_accounts(s, keys.values())
            existing = s.scalar(select(Hand).where(Hand.table_id == table_id, Hand.hand_id == hand_id))
            if existing is not None:
                seats = {hp.player_id: hp.start_stack
                         for hp in s.scalars(select(HandPlayer).where(HandPlayer.hand_pk == existing.id))}
                if existing.status == "started" and seats == dict(seats_and_stacks):
                    return  # a retried call: the hand is already recorded exactly so
                raise InvalidRequest(f"hand {hand_id!r} at table {table_id!r} already exists ({existing.status})")
            open_hand = s.scalar(select(Hand.hand_id).where(Hand.table_id == table_id, Hand.status == "started"))
            if open_hand is not None:
                raise InvalidRequest(f"hand {open_hand!r} at table {table_id!r} has not been settled yet")
            for pid, stack in seats_and_stacks.items():
                held = accts[keys[pid]].balance
                if held != stack:
                    raise InvalidRequest(
                        f"player {pid} has {held} on table {table_id!r}, not the {stack} given for hand {hand_id!r}"
                    )
            hand = Hand(table_id=table_id, hand_id=hand_id, currency=currency, status="started",
                        started_at=self._db.now(), rake=0)
            s.add(hand)
            s.flush()
            s.add_all(HandPlayer(hand_pk=hand.id, player_id=pid, start_stack=stack)
                      for pid, stack in seats_and_stacks.items())

        try:
            self._db.run(body)
        except IntegrityError:  # the same hand started concurrently
            raise InvalidRequest(f"hand {hand_id!r} at table {table_id!r} already exists") from None

    def settle_hand(
        self,
        table_id: str,
        hand_id: str,
        stack_changes: Mapping[int, int],
        rake: int,
        phh: str,
        events: Sequence[Mapping[str, Any]] | None = None,
        *,
        epoch: int | None = None,
    ) -> int:
        """Apply a finished hand in ONE transaction: every stack change, the rake to the house (R-WALLET-3), the
        hand history (PHH text and events) and the hand's status.  ``sum(stack_changes) + rake`` must be 0; play
        money is never raked (R-GEN-3).  Settling the same hand again with the same data changes nothing.
        ``epoch``: a cluster host's fencing token; refused (``Fenced``) once another host owns the table.
        Returns the transaction id."""
        _check_id(table_id, "table_id")
        _check_id(hand_id, "hand_id")
        check_amount(rake, "rake", allow_zero=True)
        for pid, c in stack_changes.items():
            if isinstance(c, bool) or not isinstance(c, int):
                raise InvalidRequest(f"stack change of player {pid} must be an integer, got {c!r}")
        changes = {int(pid): int(c) for pid, c in stack_changes.items() if c != 0}
        if sum(changes.values()) + rake != 0:
            raise InvalidRequest(
                f"stack changes sum to {sum(changes.values())} but must equal minus the rake ({-rake})"
            )
        if not isinstance(phh, str):
            raise InvalidRequest("phh must be the hand history text")
        events_list = [dict(e) for e in (events or [])]
        idem_key = f"settle:{table_id}:{hand_id}"
        search = search_keys(phh)  # the history search's game and stakes (issue #31), outside the transaction
        # each player's VPIP, PFR, showdown... for the statistics (issue #31), outside the transaction too
        flags = {pid: int(f) for pid, f in play_flags(phh, changes).items()}

        def body(s: Session) -> int:
            check_fence(s, table_id, epoch)
            hand = s.scalar(select(Hand).where(Hand.table_id == table_id, Hand.hand_id == hand_id))
            if hand is None:
                raise NotFound(f"hand {hand_id!r} at table {table_id!r} was never started")
            if hand.status != "started":
                raise InvalidRequest(f"hand {hand_id!r} at table {table_id!r} is {hand.status}, not in progress")
            currency = hand.currency or "EUR"
            if currency == PLAY and rake:
                raise InvalidRequest("play-money hands are never raked (R-GEN-3)")
            seats = {hp.player_id: hp for hp in s.scalars(select(HandPlayer).where(HandPlayer.hand_pk == hand.id))}
            strangers = sorted(set(changes) - set(seats))
            if strangers:
                raise InvalidRequest(f"players {strangers} were not dealt into hand {hand_id!r}")
            keys = {pid: AccountKey.escrow(pid, table_id, currency) for pid in seats}
            house = AccountKey.rake(currency)
            accts = lock_accounts(s, [*keys.values(), house])
            # Pair losers' chips with winners' in a deterministic order; every leg is escrow->escrow or ->rake.
            losers = [(pid, -c) for pid, c in sorted(changes.items()) if c < 0]
            gains = [(keys[pid], c) for pid, c in sorted(changes.items()) if c > 0]
            if rake:
                gains.append((house, rake))
            transfers: list[tuple[AccountKey, AccountKey, int]] = []
            li = 0
            for dest, want in gains:
                while want > 0:
                    pid, left = losers[li]
                    take = min(left, want)
                    transfers.append((keys[pid], dest, take))
                    want -= take
                    left -= take
                    if left == 0:
                        li += 1
                    else:
                        losers[li] = (pid, left)
            txn = post(s, accts, idem_key=idem_key, kind="settle_hand", req_hash=req, now=self._db.now(),
                       transfers=transfers)
            hand.status = "settled"
            hand.ended_at = self._db.now()
            hand.rake = rake
            hand.txn_id = txn.id
            hand.phh = phh
            hand.game, hand.stakes = search
            hand.events = events_list
            for pid, hp in seats.items():
                hp.change = changes.get(pid, 0)
                hp.play = flags.get(pid)
            return txn.id

        req = request_hash("settle_hand", table_id=table_id, hand_id=hand_id, changes=sorted(changes.items()),
                           rake=rake, phh=phh, events=events_list)
        return self._db.run_idempotent(idem_key, "settle_hand", req, body)

    def void_unsettled_hands(self, *, cash_out_on_crash: bool = False) -> list[tuple[str, str]]:
        """On restart: cancel every hand that started but never settled (R-SERVER-1/2).  Chips only move at
        settlement, so every stack is already its pre-hand value; the hand is recorded as ``void``.  With
        ``cash_out_on_crash`` (R-SERVER-3 room flag, default off) every table stack also returns to its owner's
        balance; otherwise table escrow survives the restart.  Returns the voided ``(table_id, hand_id)``s."""

        def body(s: Session) -> list[tuple[str, str]]:
            hands = s.scalars(select(Hand).where(Hand.status == "started").order_by(Hand.id).with_for_update()).all()
            now = self._db.now()
            for hand in hands:
                hand.status = "void"
                hand.ended_at = now
            return [(h.table_id, h.hand_id) for h in hands]

        voided = self._db.run(body)
        if cash_out_on_crash:
            self._cash_out_everyone()
        return voided

    def kept_stacks(self) -> list[KeptStack]:
        """Every chip left on a table (table escrow), with the seat of its buy-in if one was given: what a
        restart finds (R-SERVER-3 off: the tables reopen with them; on: they go back to the balances)."""

        def body(s: Session) -> list[KeptStack]:
            seats = {(str(t), int(p)): int(n) for t, p, n in s.execute(
                select(TableSeat.table_id, TableSeat.player_id, TableSeat.seat)).all()}
            rows = s.execute(select(Account.ref, Account.currency, Account.player_id, Account.balance)
                             .where(Account.kind == ESCROW, Account.balance > 0)
                             .order_by(Account.ref, Account.player_id)).all()
            return [KeptStack(str(t), str(c), int(p), int(b), seats.get((str(t), int(p))))
                    for t, c, p, b in rows if p is not None]

        return self._db.read(body)

    def hands_dealt(self, table_id: str) -> int:
        """Hands ever started at ``table_id`` (a reopened table's hand counter goes on from there)."""
        return self._db.read(lambda s: int(s.scalar(
            select(func.count()).select_from(Hand).where(Hand.table_id == table_id)) or 0))

    def _cash_out_everyone(self) -> None:
        def stacks(s: Session) -> list[tuple[int, str, str]]:
            rows = s.execute(
                select(Account.player_id, Account.ref, Account.currency).where(
                    Account.kind == ESCROW, Account.balance > 0
                )
            ).all()
            return [(int(p), str(r), str(c)) for p, r, c in rows if p is not None]

        for pid, table_id, currency in self._db.read(stacks):
            self.cash_out(pid, table_id, f"crash-cashout:{uuid.uuid4()}", currency=currency)

    # ------------------------------------------------------------------ balances and checks
    def balance(self, player_id: int, currency: str = "EUR") -> int:
        """The player's cash balance in ``currency`` (play money for ``"PLAY"``)."""
        return self.account_balance(AccountKey.wallet(player_id, currency))

    def account_balance(self, key: AccountKey) -> int:
        def body(s: Session) -> int:
            bal = s.scalar(select(Account.balance).where(Account.key == key.key))
            return int(bal or 0)

        return self._db.read(body)

    def balances(self, currency: str | None = None) -> dict[str, int]:
        """Every account's balance by account key (for audits and tests)."""

        def body(s: Session) -> dict[str, int]:
            q = select(Account.key, Account.balance)
            if currency is not None:
                q = q.where(Account.currency == currency)
            return {str(k): int(b) for k, b in s.execute(q).all()}

        return self._db.read(body)

    def total(self, currency: str) -> int:
        """Sum over every account of ``currency``, external included: always 0 (conservation)."""

        def body(s: Session) -> int:
            return int(s.scalar(select(func.coalesce(func.sum(Account.balance), 0))
                                .where(Account.currency == currency)) or 0)

        return self._db.read(body)

    def verify(self) -> None:
        """Check every transaction is balanced, every cached balance equals the sum of its entries, and no
        balance except the external one is negative.  Raises :class:`LedgerCorrupt` otherwise."""

        def body(s: Session) -> None:
            bad = s.execute(
                select(Entry.txn_id).group_by(Entry.txn_id).having(func.sum(Entry.amount) != 0).limit(1)
            ).first()
            if bad is not None:
                raise LedgerCorrupt(f"transaction {bad[0]} is not balanced")
            # ONE statement: balances and sums from the same snapshot even under READ COMMITTED while a room
            # settles hands (two statements could see a settlement between them)
            sums = (select(Entry.account_id, func.sum(Entry.amount).label("total"))
                    .group_by(Entry.account_id).subquery())
            rows = s.execute(select(Account, func.coalesce(sums.c.total, 0))
                             .outerjoin(sums, sums.c.account_id == Account.id)).all()
            for acc, total in rows:
                if int(total) != acc.balance:
                    raise LedgerCorrupt(f"account {acc.key} caches {acc.balance} but its entries sum to {total}")
                if acc.kind != EXTERNAL and acc.balance < 0:
                    raise LedgerCorrupt(f"account {acc.key} is negative ({acc.balance})")
            multi = s.execute(
                select(Entry.txn_id).join(Account, Account.id == Entry.account_id)
                .group_by(Entry.txn_id).having(func.count(func.distinct(Account.currency)) > 1).limit(1)
            ).first()
            if multi is not None:
                raise LedgerCorrupt(f"transaction {multi[0]} mixes currencies")

        self._db.read(body)

    def transaction_count(self) -> int:
        return self._db.read(lambda s: int(s.scalar(select(func.count()).select_from(LedgerTxn)) or 0))
