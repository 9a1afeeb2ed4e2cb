"""Issue #31 (the statistics over every hand): the play flags written with each hand (history/play_flags.py) are
the tracker definitions ``GET /api/stats`` computed in Python before (tests/stats_reference.py), player by player,
on random hands of every game and structure and on real hands from the PHH corpus (../shared/phh/pluribus)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from tests.stats_reference import Counts, add_hand

from riverboat.history.phh import dumps
from riverboat.history.play_flags import NOT_FLOP, Play, play_flags

from .random_play import random_room_hand

PLURIBUS = Path(__file__).resolve().parents[3] / "shared" / "phh" / "pluribus"


def _expected(fields: dict, me: int, net: int) -> Play:
    """The flags of the player at ``me`` as the first pass's Python counted them."""
    if str(fields.get("variant", "")).startswith(NOT_FLOP):
        return Play(0)
    c = Counts()
    add_hand(c, fields, me, net)
    got = Play.FLOP_GAME
    for flag, n in ((Play.VPIP, c.vpip), (Play.PFR, c.pfr), (Play.THREE_BET_CHANCE, c.three_bet_chances),
                    (Play.THREE_BET, c.three_bet), (Play.SAW_FLOP, c.saw_flop), (Play.SHOWDOWN, c.showdowns),
                    (Play.WON_AT_SHOWDOWN, c.won_at_showdown)):
        if n:
            got |= flag
    return got


def _random_phh(seed: int) -> tuple[str, dict[int, int]]:
    return random_room_hand(seed, range(101, 107))


def _check(phh: str, changes: dict[int, int]) -> dict[int, Play]:
    fields = tomllib.loads(phh)
    players = [str(p) for p in fields["players"]]
    got = play_flags(phh, changes, changes)
    assert play_flags(phh, changes) == got  # every player the record names
    assert got == {pid: _expected(fields, players.index(str(pid)), net) for pid, net in changes.items()
                   if str(pid) in players}, phh
    return got


def test_issue_31_play_flags_equal_the_first_pass_on_random_hands_of_every_game() -> None:
    seen = Play(0)
    flop_hands = 0
    for seed in range(600):
        phh, changes = _random_phh(seed)
        got = _check(phh, changes)
        for f in got.values():
            seen |= f
        flop_hands += any(f & Play.FLOP_GAME for f in got.values())
        # written other ways (a multi-line actions array; a comment the quick reading leaves to TOML): the same
        spread = phh.replace("actions = [", "actions = [\n  ").replace('", "', '",\n  "')
        commented = phh.replace("\nstarting_stacks = [", "\nstarting_stacks = [  # chips\n")
        assert play_flags(spread, changes) == got == play_flags(commented, changes)
    assert seen == Play(255) and flop_hands > 200  # every flag was set somewhere


@pytest.mark.skipif(not PLURIBUS.is_dir(), reason="the PHH corpus (../shared/phh) is not here")
def test_issue_31_play_flags_equal_the_first_pass_on_real_hands() -> None:
    files = sorted(PLURIBUS.rglob("*.phh"))[:400]
    assert files
    for path in files:
        fields = tomllib.loads(path.read_text(encoding="utf-8"))
        ids = {name: 500 + i for i, name in enumerate(fields["players"])}
        fields["players"] = [str(ids[name]) for name in fields["players"]]
        stacks = fields.get("finishing_stacks") or fields["starting_stacks"]
        changes = {500 + i: int(end - start) for i, (start, end) in
                   enumerate(zip(fields["starting_stacks"], stacks, strict=True))}
        _check(dumps(fields), changes)


def test_issue_31_players_the_record_does_not_name_get_no_flags() -> None:
    phh, changes = _random_phh(4)
    assert play_flags(phh, {}, [1, 2]) == {}
    assert play_flags(None, changes) == {}
    assert play_flags("not = [toml", changes) == {}
