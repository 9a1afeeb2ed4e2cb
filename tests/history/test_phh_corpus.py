"""Real hands: every PHH record of the public PHH dataset replays through the engine to the recorded finishing stacks
(or winnings). CI replays all non-Pluribus hands plus a deterministic 1,000-hand Pluribus sample; the full
replay is ``make replay-all``. Every exception is explained by a test below.

The corpus is found at $RIVERBOAT_PHH_DIR, else ../shared/phh, else corpus/phh (what ``make corpus`` fetches: the
dataset at a pinned commit); without it these tests skip and say how to get it (issue #32)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from riverboat.engine import Action, ActionKind, Hand, IllegalAction
from riverboat.history import config_from_phh, load, replay

REPO = Path(__file__).resolve().parents[2]


def corpus_dir() -> Path:
    """$RIVERBOAT_PHH_DIR, else ../shared/phh beside the repository, else corpus/phh (``make corpus``)."""
    if os.environ.get("RIVERBOAT_PHH_DIR"):
        return Path(os.environ["RIVERBOAT_PHH_DIR"])
    shared = REPO.parent / "shared" / "phh"
    return shared if shared.is_dir() else REPO / "corpus" / "phh"


PHH_DIR = corpus_dir()
pytestmark = pytest.mark.skipif(
    not PHH_DIR.is_dir(),
    reason=f"PHH corpus not found at {PHH_DIR}: run `make corpus` (fetches the public PHH dataset at a pinned "
           "commit into corpus/phh) or set RIVERBOAT_PHH_DIR to a copy of its data/ folder")


def _files(pluribus: bool) -> list[Path]:
    if not PHH_DIR.is_dir():
        return []
    out = sorted(p for p in PHH_DIR.rglob("*") if p.suffix in (".phh", ".phhs"))
    return [p for p in out if ("pluribus" in p.parts) == pluribus]


def _has_half_chips(path: Path) -> bool:
    return ".5" in path.read_text().split("finishing_stacks", 1)[1]


def pluribus_sample(size: int = 1000) -> list[Path]:
    """Every Pluribus hand recorded with half chips, then evenly spaced hands up to ``size`` (deterministic)."""
    files = _files(pluribus=True)
    if not files:
        return []
    half = [p for p in files if _has_half_chips(p)]
    rest = [p for p in files if p not in set(half)]
    step = len(rest) / (size - len(half))
    spaced = [rest[int(k * step)] for k in range(size - len(half))]
    return sorted(half + spaced)


NON_PLURIBUS = _files(pluribus=False)


@pytest.mark.parametrize("path", NON_PLURIBUS, ids=lambda p: str(p.relative_to(PHH_DIR)))
def test_every_non_pluribus_hand_reproduces_the_record(path):
    for record in load(path):
        res = replay(record)
        assert res.match, (res.error, res.finishing_stacks, res.expected)
        assert res.error is None


def test_corpus_covers_every_phh_variant_we_map():
    variants = {r.variant for p in NON_PLURIBUS for r in load(p)}
    assert variants >= {"NT", "FT", "PO", "FO/8", "NS", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"}


@pytest.mark.slow
def test_pluribus_sample_of_1000_hands_including_every_half_chip_split():
    sample = pluribus_sample()
    assert len(sample) == 1000
    half = [p for p in sample if _has_half_chips(p)]
    assert len(half) == 8
    for path in sample:
        (record,) = load(path)
        res = replay(record)
        assert res.match, (path, res.error, res.finishing_stacks, res.expected)


def test_half_chip_splits_compare_in_the_records_own_unit():
    """Pluribus writes an odd pot split two ways as x.5 chips. The record's unit is then half a chip, in which the
    split is exact, so the engine reproduces it instead of needing an exception."""
    path = next(p for p in _files(pluribus=True) if _has_half_chips(p))
    (record,) = load(path)
    cfg, scale, _, _ = config_from_phh(record)
    assert scale == 10
    res = replay(record)
    assert res.match and any(isinstance(x, float) and x % 1 == 0.5 for x in res.finishing_stacks)


def test_wsop_2019_big_blind_ante_stays_in_the_pot_and_missing_fold_is_implied():
    """Two quirks of wsop/2019/42/3/00-01-07.phh. (1) The big blind's ante is dead money in the main pot (the
    recorded stacks are only reached if it is not returned, whatever ``ante_trimming_status`` says). (2) After
    p7's raise the record goes straight to p1: p8 never acts. PHH tools (PokerKit) read a skipped player as a
    fold; the replay does the same."""
    path = PHH_DIR / "wsop/2019/42/3/00-01-07.phh"
    (record,) = load(path)
    assert record.fields["ante_trimming_status"] is True
    assert not any(a.startswith("p8 ") for a in record.actions)
    res = replay(record)
    assert res.match and res.finishing_stacks[0] == 18_100_000


def test_wsop_85_razz_raise_to_the_opponents_all_in_is_read_as_a_full_raise():
    """wsop/2023/43/5/85.phh, sixth street: p1 bets 600,000 with 750,000 behind... then has 150,000 left; p2
    "raises to 750,000", less than a full raise (1,200,000), which R-LIMIT-GEN-1 forbids. But 750,000 is all p1 can
    call, so any raise from 750,000 up has the same outcome (the excess is returned, R-POT-4): the replay reads
    it as the minimum full raise. The engine itself rejects the short raise."""
    (record,) = load(PHH_DIR / "wsop/2023/43/5/85.phh")
    cfg, _, _, _ = config_from_phh(record)
    hand = Hand(cfg)
    actions = record.actions
    k = actions.index("p2 cbr 750000")
    for a in actions[:k]:
        t = a.split()
        if t[0] == "d":
            continue
        seat = int(t[0][1:])
        la = hand.legal_actions()
        if t[1] == "pb":
            hand.act(Action(seat, ActionKind.BRING_IN))
        elif t[1] == "cc":
            hand.act(Action(seat, ActionKind.CHECK if ActionKind.CHECK in la.kinds else ActionKind.CALL))
        elif t[1] == "cbr":
            kind = next(x for x in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE) if x in la.kinds)
            hand.act(Action(seat, kind, int(t[2])))
    la = hand.legal_actions()
    assert la.min_to == 1_200_000
    with pytest.raises(IllegalAction, match="out of range"):
        hand.act(Action(2, ActionKind.RAISE, 750_000))
    res = replay(record)
    assert res.match and res.finishing_stacks == [0, 29_700_000]


def test_unknown_cards_are_replayed_with_stand_ins():
    """53.phh (stud hi/lo) deals p5 three unknown cards (??????), one of them face up; 60.phh (2-7 triple draw)
    has an unknown hole card that is later discarded (``p2 sd Kh??``). Stand-ins are cards the record never
    mentions, chosen so an unknown up card cannot become the bring-in."""
    for name in ("53.phh", "60.phh"):
        (record,) = load(PHH_DIR / "wsop/2023/43/5" / name)
        res = replay(record)
        assert res.match, (name, res.error)


def test_handhq_winnings_are_after_rake():
    """The Absolute Poker records give ``winnings`` after the room's rake, not finishing stacks: the same players
    collect, and the record's amounts are the engine's minus a rake of at most 10% of the pot."""
    records = load(PHH_DIR / "handhq/abs-nlh-handhq-1-first6.phhs")
    assert len(records) == 6
    rakes = []
    for r in records[:5]:
        res = replay(r)
        assert res.match
        rakes.append(sum(res.finishing_stacks) - sum(res.expected))
    assert min(rakes) >= 0 and max(rakes) > 0


def test_handhq_hand_without_result_uses_the_shown_cards():
    """The sixth HandHQ record has unknown hole cards (????), no winnings, and a showdown of AhAc against AsAd:
    the shown cards replace the unknown ones, so the pot is split; nothing is recorded to compare with."""
    record = load(PHH_DIR / "handhq/abs-nlh-handhq-1-first6.phhs")[5]
    res = replay(record)
    assert res.expected is None and not res.checked and res.error is None
    start = [1492.50, 2107.40, 1960, 1146, 1762.50, 1980]
    net = [round(f - s, 2) for f, s in zip(res.finishing_stacks, start, strict=True)]
    assert net == [-7.5, -12.5, -2.5, 32.5, 32.5, -42.5]  # p4 and p5 split the pot


def test_fb_badugi_hand_replays_to_pokerkits_stacks():
    """alice-carol-wikipedia.phh is fixed-limit triple-draw badugi (FB), the corpus's one hand of a game RULES.md does
    not have: it replays (the record has no finishing stacks), and to the stacks PokerKit's own replay of the file
    gives (Carol's 8-7-5-3 badugi beats Alice's 9-6-4-2)."""
    pokerkit = pytest.importorskip("pokerkit")
    path = PHH_DIR / "alice-carol-wikipedia.phh"
    (record,) = load(path)
    res = replay(record)
    assert res.match and res.error is None and not res.unsupported
    with path.open("rb") as f:
        *_, final = pokerkit.HandHistory.load(f)
    assert res.finishing_stacks == list(final.stacks)
    assert res.finishing_stacks[1] > 200 > res.finishing_stacks[3]  # Carol (p2) won, Alice (p4) lost
