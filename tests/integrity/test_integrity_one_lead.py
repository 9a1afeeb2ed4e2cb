"""R-INTEG-2/3 (issue #34): one lead per cheater. A dumper's or soft player's own baselines are distorted by the
cheating, so a flag of another pattern on that player with someone else is told in the chip-dumping or
soft-play flag, whichever of the two is the more significant. Pot-limit Omaha seed 1 (docs/integrity.md): the
0.25 dumper bot00 was flagged giver first at q = 0.009, and also ``collusion`` with the honest bot39 at
q = 0.0005 (winning together is measured against each one's results apart, and the dumper's results apart are his
dumping losses); taken most significant first, the collusion flag came before the lead it belongs to and was
raised on its own."""

from __future__ import annotations

from riverboat.integrity.detect import Flag, _fold_in


def _flag(players: tuple[str, ...], pattern: str, q: float) -> Flag:
    return Flag(players, pattern, 1.0 - q, 100, ("T/1",), q / 100, {"q_value": q}, f"{pattern} {players}")


def test_a_more_significant_collusion_flag_is_told_in_the_dumpers_lead_issue_34() -> None:
    lead = _flag(("bot00", "bot01"), "chip_dumping", 0.009)
    side = _flag(("bot00", "bot39"), "collusion", 0.0005)
    out = _fold_in([side, lead])
    assert [f.players for f in out] == [("bot00", "bot01")]
    assert out[0].detail["related"] == 1.0
    assert "collusion [bot00] / [bot39]" in out[0].why


def test_leads_keep_their_order_and_other_flags_stay_issue_34() -> None:
    # a stronger soft-play flag hosts a weaker dumping flag of the same player in another role (as before)
    soft = _flag(("bot06", "bot07"), "soft_play", 0.0001)
    dump = _flag(("bot06", "bot20"), "chip_dumping", 0.005)
    # a giver feeding a second account: the same pattern in the same role stays a flag of its own
    dump2 = _flag(("bot00", "bot02"), "chip_dumping", 0.002)
    dump1 = _flag(("bot00", "bot01"), "chip_dumping", 0.001)
    # a collusion flag between players without a lead elsewhere stays, and so does one on the lead's own pair
    other = _flag(("bot30", "bot31"), "collusion", 0.0001)
    same = _flag(("bot00", "bot01"), "collusion", 0.00001)
    out = _fold_in([soft, dump, dump2, dump1, other, same])
    assert {(f.pattern, f.players) for f in out} == {
        ("soft_play", ("bot06", "bot07")), ("chip_dumping", ("bot00", "bot02")),
        ("chip_dumping", ("bot00", "bot01")), ("collusion", ("bot30", "bot31")), ("collusion", ("bot00", "bot01"))}
    assert next(f for f in out if f.pattern == "soft_play").detail["related"] == 1.0
