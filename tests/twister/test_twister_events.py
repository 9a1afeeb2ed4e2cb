"""The twister_spin event (R-TWIST-3, R-AOG-3, R-WILD-1) as docs/protocol.md describes it."""

from __future__ import annotations

from riverboat.twister.events import JackpotNotice, SpinEvent


def test_r_twist_3_spin_event_carries_the_prize_the_split_and_the_reel_of_its_table() -> None:
    """R-TWIST-3: shown to every player: multiplier, prize, places; the reel is the table used, highest first;
    R-AOG-3: jackpot wins by seat; R-WILD-1: a Wild prize is flagged as a ticket."""
    ev = SpinEvent("twister:9", "aog", "EUR", 1000, "aog", 100, 100_000, (80_000, 10_000, 10_000),
                   (JackpotNotice(2, "power", 495),)).to_dict()
    assert ev == {"type": "twister_spin", "tournament_id": "twister:9", "kind": "aog", "currency": "EUR",
                  "buy_in": 1000, "multiplier": 100, "prize": 100_000, "places": [80_000, 10_000, 10_000],
                  "ticket": False, "reel": [100, 50, 20, 10, 4, 2],
                  "jackpots": [{"seat": 2, "tier": "power", "amount": 495}]}
    wild = SpinEvent("wild:3", "wild", "EUR", 50, "wild", 2, 100, (100,)).to_dict()
    assert wild["ticket"] is True and wild["reel"] == [100, 40, 20, 10, 4, 2]
