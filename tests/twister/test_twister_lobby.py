"""The lobby offer (R-TWIST-11, R-TWIST-1, R-WILD-5)."""

from __future__ import annotations

from riverboat.twister import TwisterSettings
from riverboat.twister.lobby import offer


def test_r_twist_11_offer_lists_the_enabled_types_their_buy_ins_and_prizes() -> None:
    """R-TWIST-11 / R-WILD-5: types in the room's order, each with its published buy-ins; R-TWIST-1: every prize
    with its published chance; R-TWIST-5: the split shown where it applies (EUR 100 at 10x = EUR 1000)."""
    o = offer()
    assert [t["kind"] for t in o["types"]] == ["twister", "aog", "wild"]
    twister = o["types"][0]
    assert [b["buy_in"] for b in twister["buy_ins"]] == [100, 200, 500, 1000, 2000, 5000, 10000]
    top = twister["buy_ins"][-1]
    assert top["table"] == "twister-50-100"
    ten = next(p for p in top["prizes"] if p["multiplier"] == 10)
    assert ten == {"multiplier": 10, "prize": 100_000, "probability_percent": "0.50", "split": [80_000, 10_000,
                                                                                              10_000]}
    assert o["types"][1]["starting_chips"] == 100 and o["types"][2]["ticket_prizes"] is True
    assert [t["kind"] for t in offer(TwisterSettings(enabled_kinds=("wild",)))["types"]] == ["wild"]
