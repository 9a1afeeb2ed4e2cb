"""The cashier's movement list, read from the store's movement API (:mod:`riverboat.store.movements`).

A movement is one entry on a player's wallet (cash or play money): ``{"txn": id, "kind": "buy_in" | "cash_out" |
"deposit" | ..., "currency", "amount" (signed integer: + into the balance, - out of it), "table" (for table
movements), "at" (ISO time)}``, newest first. The cashier shows every kind (tournament entries and prizes too);
``before`` pages back to older movements.
"""

from __future__ import annotations

from typing import Any

from riverboat.store.movements import MovementPage


def movement_page(store: Any, player_id: int, limit: int = 100, before: int | None = None) -> dict[str, Any]:
    """``{"history": [movement dicts], "next_before": txn id of the next (older) page or None}``."""
    page: MovementPage = store.movements.for_player(player_id, limit=limit, before=before, kinds=None)
    return {"history": [m.to_dict() for m in page.items], "next_before": page.next_before}

