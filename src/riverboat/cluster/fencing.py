"""The table host's store gateway: every money call of a table carries the host's lease epoch for that table.

:class:`FencedGateway` is the room's :class:`~riverboat.room.gateway.StoreGateway` with one addition: a call of
``ledger.start_hand`` / ``settle_hand`` (by table id), ``buy_in`` / ``top_up`` / ``cash_out`` (player, table id)
or ``tournament_play.hand_done`` / ``finish_unplayed`` (by tournament id)
gets ``epoch=`` the host's epoch for that table, and the store refuses it (``Fenced``, inside the same transaction,
:mod:`riverboat.store.fencing`) once another host has claimed the table. A table this host does not (or no
longer) own is refused here already. On a ``fenced`` refusal ``on_fenced(table_id)`` tells the host to drop it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from riverboat.room.errors import RoomError
from riverboat.room.gateway import MAX_BATCH, PROCESS_CALLS, StoreGateway
from riverboat.store import Store

T = TypeVar("T")
P = ParamSpec("P")

#: store calls that move a table's money -> position of the table id among their arguments
FENCED_CALLS = {"ledger.start_hand": 0, "ledger.settle_hand": 0, "ledger.buy_in": 1, "ledger.top_up": 1,
                "ledger.cash_out": 1,
                # a tournament's completed hands and its eliminations outside a hand, by tournament id
                "tournament_play.hand_done": 0, "tournament_play.finish_unplayed": 0}
assert set(FENCED_CALLS) <= PROCESS_CALLS  # the gateway names exactly the calls of its list


class FencedGateway(StoreGateway):
    def __init__(self, store: Store, *, on_fenced: Callable[[str], None] | None = None, inline: bool = False,
                 workers: int = 1, group_commit: bool = True, max_batch: int = MAX_BATCH,
                 process: bool = False) -> None:
        super().__init__(store, inline=inline, workers=workers, group_commit=group_commit, max_batch=max_batch,
                         process=process)
        self.epochs: dict[str, int] = {}
        self.on_fenced = on_fenced

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        name = self.name_of(fn)  # the gateway's explicit list of store calls (riverboat.room.gateway)
        if name in FENCED_CALLS:
            table_id = args[FENCED_CALLS[name]]
            if not isinstance(table_id, str):  # each of FENCED_CALLS names its table (tournament) by its str id
                raise TypeError(f"{name}: the table id {table_id!r} is not a str")
            epoch = self.epochs.get(table_id)
            if epoch is None:
                raise RoomError("fenced", f"this host does not own table {table_id!r} (any more)")
            kwargs["epoch"] = epoch
            try:
                return await super().call(fn, *args, **kwargs)
            except RoomError as exc:
                if exc.code == "fenced" and self.on_fenced is not None and self.epochs.get(table_id) == epoch:
                    self.on_fenced(table_id)
                raise
        return await super().call(fn, *args, **kwargs)
