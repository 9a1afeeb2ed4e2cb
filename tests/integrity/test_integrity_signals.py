"""R-AAI-3 / R-INTEG-6 (artificial all-in abuse), R-INTEG-7 (one person, two accounts) and the layering of
``riverboat.integrity`` (pure code over hand records, below the store)."""

from __future__ import annotations

import ast
from pathlib import Path

from riverboat.bots.collusion import Population, simulate
from riverboat.integrity import hand_facts, scan
from riverboat.integrity.facts import equity


def _records(seed: int = 3, sessions: int = 8):  # type: ignore[no-untyped-def]
    return list(simulate(Population(players=8, sessions=sessions, hands_per_session=30, seed=seed)))


def test_artificial_allin_beyond_population_rate_is_flagged_r_aai_3_r_integ_6() -> None:
    recs = _records()
    abuser, used = "bot03", 0
    for i, r in enumerate(recs):
        names = r.fields["players"]
        pos = names.index(abuser) + 1 if abuser in names else 0
        if pos and i % 3 == 0:  # a third of the abuser's hands: made all-in for what they had in
            r.fields["_artificial_allin"] = [[0, pos]]
            used += 1
        elif names[0] != abuser and i % 97 == 0:  # others: now and then
            r.fields["_artificial_allin"] = [[0, 1]]
    flags = [f for f in scan(hand_facts(r) for r in recs) if f.pattern == "artificial_allin_abuse"]
    assert [f.players for f in flags] == [(abuser,)]
    assert flags[0].to_dict()["detail"]["artificial_allins"] == used


def test_shared_device_flags_two_accounts_r_integ_7() -> None:
    recs = _records(seed=4, sessions=3)
    devices = {"bot01": ["ip:10.0.0.9"], "bot02": ["ip:10.0.0.9", "dev:x"], "bot05": ["dev:y"]}
    flags = [f for f in scan((hand_facts(r) for r in recs), devices=devices) if f.pattern == "multi_accounting"]
    assert [f.players for f in flags] == [("bot01", "bot02")]
    assert 0 <= flags[0].score <= 1


def test_equity_is_deterministic_and_sensible_r_integ_8() -> None:
    aces, seven_two = (48, 49), (20, 1)  # AcAd (rank * 4 + suit), 7c2d
    assert equity(aces, ()) == equity(aces, ()) > 0.75
    assert equity(seven_two, ()) < 0.4


def test_integrity_imports_only_lower_layers() -> None:
    """Layering (README): integrity sits between history and store; it never imports store, room or server."""
    root = Path(__file__).resolve().parents[2] / "src" / "riverboat" / "integrity"
    allowed = {"cards", "evaluate", "games", "engine", "history", "integrity"}
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("riverboat."):
                assert node.module.split(".")[1] in allowed, (path.name, node.module)


def test_honest_regulars_who_always_share_a_table_are_not_flagged_r_integ_2() -> None:
    """Two honest players seated in every session (they meet at every table) raise no flag: the overlap expected
    for two players who play that much is every table (hypergeometric baseline)."""
    from riverboat.bots.collusion import Population

    recs = list(simulate(Population(players=12, sessions=20, hands_per_session=30, seed=9,
                                    regulars=("bot00", "bot01"))))
    flags = scan(hand_facts(r) for r in recs)
    assert not [f.to_dict() for f in flags if set(f.players) & {"bot00", "bot01"}]
