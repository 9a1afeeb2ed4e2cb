"""What the lobby's Twister section offers (R-TWIST-11: choose a type, then a buy-in; R-TWIST-1: each game's
buy-in and prizes are shown in its information; R-WILD-5: only the types the room enables). JSON-ready."""

from __future__ import annotations

from typing import Any

from riverboat.twister.settings import TwisterSettings
from riverboat.twister.tables import load_tables

TITLES = {"twister": "Twister", "aog": "Age of the Gods Twister", "wild": "Wild Twister"}


def offer(settings: TwisterSettings | None = None) -> dict[str, Any]:
    """``{"types": [{"kind", "title", "starting_chips", "ticket_prizes", "buy_ins": [{"buy_in", "table",
    "prizes": [{"multiplier", "prize", "probability_percent", "split": [..]}]}]}]}`` in the order of the settings.
    Probabilities are the published figures; ``split`` is the prize per place where R-TWIST-5 splits it."""
    from riverboat.twister.draw import split_prize

    settings = settings or TwisterSettings()
    types = []
    for kind in settings.enabled_kinds:
        threshold, split = settings.split_for(kind)
        buy_ins: list[dict[str, Any]] = []
        for table in (t for t in load_tables() if t.kind == kind):
            for b in table.buy_ins:
                prizes: list[dict[str, Any]] = []
                for r in table.rows:
                    parts = split_prize(r.multiplier * b, threshold, split)
                    prizes.append({"multiplier": r.multiplier, "prize": r.multiplier * b,
                                   "probability_percent": r.probability_percent,
                                   "split": list(parts) if len(parts) > 1 else []})
                buy_ins.append({"buy_in": b, "table": table.name, "prizes": prizes})
        types.append({"kind": kind, "title": TITLES[kind], "starting_chips": settings.starting_chips_for(kind),
                      "ticket_prizes": kind == "wild", "buy_ins": sorted(buy_ins, key=lambda x: int(x["buy_in"]))})
    return {"types": types}
