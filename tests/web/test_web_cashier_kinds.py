"""The cashier's movements say what they are in words (found by the outside walk of 2026-12-03: a Sit & Go prize
and a Twister buy-in were listed as "t prize" and "t register", the ledger's codes with the underscore taken out).

Every kind the store writes into a player's wallet is read from the store's source, so a new kind must read as
words too; the page's own module (web/js/account_view.js) is imported in Chromium, no server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

STORE = Path(__file__).resolve().parents[2] / "src" / "riverboat" / "store"


def _store_kinds() -> set[str]:
    text = "\n".join(p.read_text() for p in STORE.glob("*.py"))
    kinds = set(re.findall(r'kind="([a-z_]+)"', text)) | set(re.findall(r'"(t_[a-z_]+)"', text))
    kinds |= {"deposit", "withdraw", "t_rebuy", "t_addon"}  # written through variables (ledger, f"t_{kind}")
    return kinds


def test_every_movement_kind_reads_as_words(new_page: Any, static_url: str) -> None:
    kinds = sorted(_store_kinds())
    assert {"t_prize", "t_register", "buy_in", "cash_out"} <= set(kinds)
    page = new_page()
    page.goto(f"{static_url}/harness/table.html")
    labels = page.evaluate("""async (kinds) => {
        const { movementKind } = await import("/js/account_view.js");
        return Object.fromEntries(kinds.map((k) => [k, movementKind(k)]));
    }""", kinds)
    for kind, label in labels.items():
        assert label and "_" not in label and not label.startswith("t ") and label[0].isupper(), (kind, label)
    assert labels["t_prize"] == "Tournament prize" and labels["t_register"] == "Tournament buy-in"
    assert labels["buy_in"] == "Buy-in" and labels["cash_out"] == "Cash-out" and labels["deposit"] == "Deposit"
