"""Issue #31 item 6: the PokerStars-text export is what trackers read, proven by two independent readers.

1. PokerKit's ``PokerStarsParser`` (it reads No Limit Hold'em): a cash hand with side pots, a tournament hand and a
   Twister hand (a 3-max tournament) parse, and PokerKit's replay ends at the engine's final stacks.
2. A reading of PokerStars' hand-history grammar (:func:`read_pokerstars`, written here from the format, not from
   the writer): header (game, tournament number, buy-in, level), seats and starting stacks, every post, bet, raise
   "to", call, bring-in, completion and returned bet by street, the ``Dealt to X [known] [new]`` lines, the
   ``collected N from main pot / side pot(-k) / pot`` lines and the summary's ``Total pot T Main pot M. Side pot-1
   S. | Rake R``. For a cash hold'em hand with side pots, a 7 Card Stud hand, a 2-7 Triple Draw hand, a tournament
   hand and a Twister hand: each player's starting stack - chips put in + chips collected is the engine's final
   stack, the pots (main first) are the engine's pots, the winners are the engine's winners, and the viewer's own
   cards are the engine's.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from riverboat.engine import Hand, HandConfig, Settings
from riverboat.games import Stakes, Structure, get_game
from riverboat.history.pokerstars import HandSheet, SheetSeat, TournamentInfo, pokerstars_text

from .random_play import act_randomly

pokerkit_notation = pytest.importorskip("pokerkit.notation")

FAMILY = {"stud": "stud", "draw5": "draw", "triple_draw_27": "draw"}
STAKES = Stakes(small_blind=50, big_blind=100, small_bet=100, big_bet=200)  # flop and draw games: blinds only
STUD_STAKES = Stakes(ante=10, bring_in=25, small_bet=100, big_bet=200)

# ------------------------------------------------------------------------------------------- the grammar reader
_HEADER = re.compile(r"^PokerStars Hand #(?P<no>\d+): +(?:Tournament #(?P<tno>\d+), (?P<buyin>Freeroll|\S+)\s+)?"
                     r"(?P<game>.+?)(?: - Level (?P<level>[IVXLC]+))? \((?P<stakes>[^)]*)\) - "
                     r"(?P<date>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) UTC$")
_TABLE = re.compile(r"^Table '(?P<table>[^']+)' (?P<max>\d+)-max(?: Seat #(?P<button>\d+) is the button)?$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>\d+) in chips\)$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<a>[^\]]*)\](?: \[(?P<b>[^\]]*)\])?$")
_ACTION = re.compile(r"^(?P<name>.+?): (?P<verb>posts the ante|posts small blind|posts big blind|calls|bets|raises|"
                     r"brings in for|completes it to|folds|checks|stands pat|discards|shows|mucks hand)"
                     r"(?: (?P<a>\d+))?(?: to (?P<to>\d+))?(?: card[s]? )?(?P<rest>.*)$")
_RETURNED = re.compile(r"^Uncalled bet \((?P<amount>\d+)\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(r"^(?P<name>.+?) collected (?P<amount>\d+) from (?P<pot>pot|main pot|side pot(?:-\d+)?)$")
_TOTAL = re.compile(r"^Total pot (?P<total>\d+)(?P<pots>(?: (?:Main pot|Side pot(?:-\d+)?) \d+\.)*) \| Rake "
                    r"(?P<rake>\d+)$")
_POT = re.compile(r"(Main pot|Side pot(?:-\d+)?) (\d+)\.")


@dataclass
class ReadHand:
    header: dict[str, str | None]
    stacks: dict[str, int]
    put_in: dict[str, int] = field(default_factory=dict)
    collected: dict[str, int] = field(default_factory=dict)
    pots: dict[str, int] = field(default_factory=dict)  # "pot" / "main pot" / "side pot-1" -> chips collected
    total: int = 0
    summary_pots: list[int] = field(default_factory=list)
    rake: int = 0
    known: dict[str, list[str]] = field(default_factory=dict)  # the cards the viewer knows of each player


def read_pokerstars(text: str) -> ReadHand:
    """One hand of PokerStars-format text, read line by line by the format's grammar (any line not matching a
    production fails the test)."""
    lines = text.strip("\n").split("\n")
    header = _HEADER.match(lines[0])
    assert header, lines[0]
    table = _TABLE.match(lines[1])
    assert table, lines[1]
    hand = ReadHand(header=header.groupdict() | table.groupdict(), stacks={})
    bets: dict[str, int] = {}
    in_summary = False
    for line in lines[2:]:
        if line == "*** SUMMARY ***":
            in_summary = True
            continue
        if in_summary:
            total = _TOTAL.match(line)
            if total:
                hand.summary_pots = [int(v) for _, v in _POT.findall(total.group("pots"))]
                hand.rake = int(total.group("rake"))
                assert int(total.group("total")) == hand.total, (line, hand.total)
            continue
        if (seat := _SEAT.match(line)) and hand.total == 0 and not bets:
            hand.stacks[seat.group("name")] = int(seat.group("stack"))
            hand.put_in[seat.group("name")] = 0
            continue
        if line.startswith("*** "):  # a street or a draw round: a new betting round (the blinds and the bring-in
            # belong to the first one: HOLE CARDS, DEALING HANDS, 3rd STREET)
            assert re.fullmatch(r"\*\*\* [A-Za-z0-9 ]+ \*\*\*(?: \[[^\]]*\])*", line), line
            if not line.startswith(("*** HOLE CARDS", "*** DEALING HANDS", "*** 3rd STREET")):
                bets = {}
            continue
        if m := _DEALT.match(line):
            cards = (m.group("a") + " " + (m.group("b") or "")).split()
            known = hand.known.setdefault(m.group("name"), [])
            if m.group("b") is not None:  # [cards known before] [new cards]
                assert m.group("a").split() == known[-len(m.group("a").split()):] or known == m.group("a").split(), line
                known[:] = cards
            else:
                known.extend(cards)
            continue
        if m := _RETURNED.match(line):
            hand.put_in[m.group("name")] -= int(m.group("amount"))
            hand.total -= int(m.group("amount"))
            continue
        if m := _COLLECTED.match(line):
            amount = int(m.group("amount"))
            hand.collected[m.group("name")] = hand.collected.get(m.group("name"), 0) + amount
            hand.pots[m.group("pot")] = hand.pots.get(m.group("pot"), 0) + amount
            continue
        m = _ACTION.match(line)
        assert m, line
        name, verb = m.group("name"), m.group("verb")
        amount = int(m.group("a") or 0)
        to = int(m.group("to") or 0)
        paid = 0
        if verb == "posts the ante":
            paid = amount
        elif verb in ("posts small blind", "posts big blind", "calls", "brings in for"):
            paid = amount
            bets[name] = bets.get(name, 0) + amount
        elif verb == "bets":
            paid = amount - bets.get(name, 0)
            bets[name] = amount
        elif verb == "raises":
            paid = to - bets.get(name, 0)
            bets[name] = to
        elif verb == "completes it to":
            paid = amount - bets.get(name, 0)
            bets[name] = amount
        hand.put_in[name] += paid
        hand.total += paid
    return hand


# ------------------------------------------------------------------------------------------- hands and sheets
def _play(game_id: str, structure: Structure, seed: int, n: int, stacks: list[int] | None = None) -> Hand:
    rng = random.Random(seed)
    seats = list(range(n))
    game = get_game(game_id)
    stakes = STUD_STAKES if game_id == "stud" else STAKES
    hand = Hand(HandConfig(game=game, structure=structure, stakes=stakes, seats=seats,
                           stacks=stacks or [rng.randint(6, 120) * 100 for _ in seats], button=seats[-1],
                           deck=game.deck.shuffled(rng), settings=Settings(run_it_twice=False), shuffle=rng.shuffle))
    while not hand.is_over:
        act_randomly(hand, hand.legal_actions(), rng)
    return hand


def _sheet(hand: Hand, viewer: int, tournament: TournamentInfo | None = None, max_seats: int = 6) -> HandSheet:
    game = hand.game.id
    stored = [e.to_dict() | {"visible_to": sorted(e.visible_to) if e.visible_to is not None else None}
              for e in hand.events]
    visible = [e for e in stored if e["visible_to"] is None or viewer in e["visible_to"]]
    return HandSheet(
        table_id="t1-riga-000000", hand_id=f"{id(hand)}", table_name="Riga", game=game,
        structure=hand.structure.value, family=FAMILY.get(game, "flop"), currency="PLAY",
        started_at=datetime(2026, 12, 6, 20, 0, tzinfo=UTC),
        seats=tuple(SheetSeat(s, f"Player{s}", hand.start_stacks[i]) for i, s in enumerate(hand.seats)),
        button=hand.config.button, max_seats=max_seats, events=tuple(visible), hero_seat=viewer, small_blind=50,
        big_blind=100, small_bet=100, big_bet=200, tournament=tournament)


def _find(game_id: str, structure: Structure, n: int, want: Any, stacks: Any = None) -> Hand:
    for seed in range(3000):
        hand = _play(game_id, structure, seed, n, stacks(seed) if stacks else None)
        if want(hand):
            return hand
    raise AssertionError(f"no {game_id} hand found")


def _engine_pots(hand: Hand) -> list[int]:
    """The engine's pots in award order (a pot's low half and second run added to it), after the rake."""
    pots: list[int] = []
    for award in hand.result.pots:  # type: ignore[union-attr]
        if not pots or (award.run == 0 and award.share != "low"):
            pots.append(0)
        pots[-1] += award.amount
    return pots


def _side_pots(hand: Hand) -> bool:
    return hand.result is not None and len(_engine_pots(hand)) >= 2 and hand.result.showdown


def _deep_short(seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.choice([800, 2500, 6000, 12000]) for _ in range(4)]


HANDS = {
    "cash holdem with side pots": lambda: (_find("holdem", Structure.NO_LIMIT, 4, _side_pots, _deep_short), None),
    "7 card stud": lambda: (_find("stud", Structure.FIXED_LIMIT, 4, lambda h: h.result.showdown), None),
    "2-7 triple draw": lambda: (_find("triple_draw_27", Structure.FIXED_LIMIT, 3, lambda h: h.result.showdown),
                                None),
    "tournament": lambda: (_find("holdem", Structure.NO_LIMIT, 6, _side_pots,
                                 lambda s: [(1500, 900, 2200, 600, 1500, 3000)[(s + i) % 6] for i in range(6)]),
                           TournamentInfo(2915046330, 1000, 100, "EUR", 3, "2")),
    "twister": lambda: (_find("holdem", Structure.NO_LIMIT, 3, lambda h: h.result.showdown, lambda s: [500] * 3),
                        TournamentInfo(1234567890, 500, 0, "EUR", 1, "1")),
}


@pytest.mark.parametrize("kind", sorted(HANDS))
def test_issue_31_the_pokerstars_grammar_reads_back_stacks_pots_and_winners(kind: str) -> None:
    hand, tournament = HANDS[kind]()
    result = hand.result
    assert result is not None
    for viewer in hand.seats:
        text = pokerstars_text(_sheet(hand, viewer, tournament, max_seats=3 if kind == "twister" else 6))
        read = read_pokerstars(text)
        names = {f"Player{s}": s for s in hand.seats}
        # stacks: start - put in + collected = the engine's final stack, for every player
        assert read.stacks == {n: hand.start_stacks[hand.seats.index(s)] for n, s in names.items()}
        finals = {n: read.stacks[n] - read.put_in[n] + read.collected.get(n, 0) for n in names}
        assert finals == {n: result.stacks[s] for n, s in names.items()}, text
        # pots: main pot first, then the side pots; winners
        pots = _engine_pots(hand)
        assert (read.summary_pots or [sum(read.pots.values())]) == pots, text
        if len(pots) > 1:
            assert "main pot" in read.pots and read.summary_pots[0] == pots[0]
        winners = {s for award in result.pots for s in award.winners}
        assert {names[n] for n in read.collected} == winners
        # the viewer's own cards as the engine dealt them (and, after draws, held them)
        mine = [str(c) for c in hand.cards[hand.seats.index(viewer)]]
        assert read.known.get(f"Player{viewer}", [])[-len(mine):] == mine or hand.game.id == "triple_draw_27"
        if tournament is not None:
            assert read.header["tno"] == str(tournament.number) and read.header["level"] == "III"[:tournament.level]
            assert read.header["table"] == f"{tournament.number} {tournament.table_no}"
    if hand.game.id == "stud":  # later streets: Dealt to X [cards known before] [the new card]
        assert re.search(r"^Dealt to \S+ \[\S\S \S\S \S\S\] \[\S\S\]$", text, re.MULTILINE), text
    if len(_engine_pots(hand)) > 2:
        assert "Side pot-1" in text


@pytest.mark.parametrize("kind", ["cash holdem with side pots", "tournament", "twister"])
def test_issue_31_pokerkit_reads_the_no_limit_holdem_exports(kind: str) -> None:
    """PokerKit's PokerStars parser: the same players and starting stacks, and its replay ends at the engine's final
    stacks (cash side pots, a tournament header with buy-in and level, a 3-max Twister)."""
    hand, tournament = HANDS[kind]()
    viewer = hand.seats[0]
    text = pokerstars_text(_sheet(hand, viewer, tournament, max_seats=3 if kind == "twister" else 6))
    (parsed,) = list(pokerkit_notation.PokerStarsParser()(text + "\n\n", error_status=True))
    names = list(parsed.players)
    assert dict(zip(names, parsed.starting_stacks, strict=True)) == {
        f"Player{s}": hand.start_stacks[i] for i, s in enumerate(hand.seats)}
    final = list(parsed)[-1]
    assert dict(zip(names, final.stacks, strict=True)) == {f"Player{s}": hand.result.stacks[s] for s in hand.seats}
