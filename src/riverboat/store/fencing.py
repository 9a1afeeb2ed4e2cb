"""Table fences: the store's half of a cluster table lease (issue #15, docs/cluster.md "Fencing").

A table host of a cluster owns a table through a lease whose **epoch** only grows (the JetStream KV revision at
which the lease was created). Before it deals, the host :meth:`Fences.claim`s the table with that epoch: in ONE
transaction the table's fence row takes the new epoch (refused if a later epoch already claimed it), every hand
the previous owner left unsettled is voided (chips only move at settlement, so every stack is its pre-hand value:
R-SERVER-1) and the stacks as after the last settled hand are returned. From then on every money operation of the
host for that table carries its epoch (``epoch=`` of ``Ledger.start_hand``, ``settle_hand``, ``buy_in``,
``top_up``, ``cash_out``) and :func:`check_fence` refuses it with :class:`~riverboat.store.errors.Fenced` inside
the operation's own transaction unless the epoch is still the table's. A host that was paused past its lease (or
cut off from NATS) therefore cannot settle the hand it was dealing once another host has claimed the table, even
if it never noticed that it lost the lease.

In a single process (``riverboat serve --role all``) nothing passes an epoch and nothing here is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from riverboat.store._tx import Database
from riverboat.store.errors import Fenced, InvalidRequest
from riverboat.store.models import Account, Hand, TableFence
from riverboat.store.postings import ESCROW


def check_fence(session: Session, table_id: str, epoch: int | None) -> None:
    """Inside a money operation's transaction: refuse unless ``epoch`` is the table's current one (no-op for
    ``None``: a single-process room). The fence row is read with a shared lock, so a concurrent :meth:`claim`
    (which takes it exclusively) waits for the operation or makes it fail."""
    if epoch is None:
        return
    query = select(TableFence.epoch, TableFence.node).where(TableFence.table_id == table_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(read=True)
    row = session.execute(query).first()
    if row is None or int(row[0]) != epoch:
        current = "unclaimed" if row is None else f"epoch {row[0]} of {row[1]}"
        raise Fenced(f"table {table_id!r} is {current}; epoch {epoch} may no longer move its money")


@dataclass(frozen=True)
class Claim:
    """What a new owner gets: the hands voided (R-SERVER-1) and every stack as after the last settled hand
    (``{player_id: chips}`` per currency)."""

    table_id: str
    epoch: int
    voided: list[str] = field(default_factory=list)
    stacks: dict[str, dict[int, int]] = field(default_factory=dict)
    hands: int = 0  # hands ever started at the table (its lobby counter goes on from there)


class Fences:
    def __init__(self, db: Database) -> None:
        self._db = db

    def claim(self, table_id: str, node: str, epoch: int) -> Claim:
        """Take the table for ``node`` at ``epoch`` (see the module docstring). Refused with ``Fenced`` if the
        table was claimed at a later epoch, or at this epoch by another node; claiming again at the same epoch
        by the same node voids nothing new and returns the stacks again."""
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 128:
            raise InvalidRequest(f"table_id must be a string of 1 to 128 characters, got {table_id!r}")
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch <= 0:
            raise InvalidRequest(f"epoch must be a positive integer, got {epoch!r}")
        if not isinstance(node, str) or not 1 <= len(node) <= 64:
            raise InvalidRequest(f"node must be a string of 1 to 64 characters, got {node!r}")

        def body(s: Session) -> Claim:
            now = self._db.now()
            insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
            s.execute(insert(TableFence).values(table_id=table_id, epoch=0, node=node, claimed_at=now)
                      .on_conflict_do_nothing(index_elements=["table_id"]))
            fence = s.scalars(select(TableFence).where(TableFence.table_id == table_id).with_for_update()).one()
            if fence.epoch > epoch or (fence.epoch == epoch and fence.node != node):
                raise Fenced(f"table {table_id!r} was claimed at epoch {fence.epoch} by {fence.node}; "
                             f"epoch {epoch} is too old")
            fence.epoch, fence.node, fence.claimed_at = epoch, node, now
            hands = s.scalars(select(Hand).where(Hand.table_id == table_id, Hand.status == "started")
                              .order_by(Hand.id).with_for_update()).all()
            for hand in hands:
                hand.status = "void"
                hand.ended_at = now
            rows = s.execute(select(Account.currency, Account.player_id, Account.balance).where(
                Account.kind == ESCROW, Account.ref == table_id, Account.balance > 0)).all()
            stacks: dict[str, dict[int, int]] = {}
            for currency, pid, balance in rows:
                if pid is not None:
                    stacks.setdefault(str(currency), {})[int(pid)] = int(balance)
            dealt = int(s.scalar(select(func.count()).select_from(Hand).where(Hand.table_id == table_id)) or 0)
            return Claim(table_id, epoch, [h.hand_id for h in hands], stacks, dealt)

        return self._db.run(body)

    def current(self, table_id: str) -> tuple[int, str] | None:
        """The table's (epoch, node), or None if no cluster host ever claimed it."""
        def body(s: Session) -> tuple[int, str] | None:
            row = s.execute(select(TableFence.epoch, TableFence.node)
                            .where(TableFence.table_id == table_id)).first()
            return None if row is None else (int(row[0]), str(row[1]))

        return self._db.read(body)
