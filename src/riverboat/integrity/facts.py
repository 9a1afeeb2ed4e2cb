"""What the detectors need to know about one hand, read from its PHH record (R-INTEG-8).

:func:`hand_facts` turns a PHH record (a file's record or the text stored with every hand by the room) into a
:class:`HandFacts`: the players by name (PHH ``players``; the room writes player ids), the net result of each,
the hole cards when the record has them, and every voluntary action with its street, the player it faced (the
last bettor or raiser of the street) and how many players were still in. Amounts are read as the record gives
them; the big blind (or small bet) is the unit the detectors measure pots in.

When ``finishing_stacks`` is missing the record is replayed through the engine (:func:`riverboat.history.replay`)
to find them. A record that cannot be read raises :class:`FactsError`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from riverboat.cards import Card
from riverboat.evaluate import Ranking
from riverboat.evaluate.batch import evaluate_batch
from riverboat.history import PhhError, PhhHand, loads, replay

HOLDEM_VARIANTS = frozenset({"NT", "FT", "RB/holdem/NL", "RB/holdem/FL", "RB/holdem/PL", "RB/holdem/SL",
                             "RB/holdem/HPL"})


class FactsError(ValueError):
    """A hand record the detectors cannot use (the message says why)."""


@dataclass(frozen=True, slots=True)
class Act:
    """One voluntary action: ``verb`` is fold, check, call, bet or raise (``to``: the amount raised to)."""

    player: str
    street: int  # 0 = first betting round (pre-flop), 1 = flop...
    verb: str
    to: int | None
    facing: str | None  # the last bettor/raiser of this street (None: nothing to call, or only the blinds)
    others: tuple[str, ...]  # the other players still in the hand (not folded) when acting
    board: tuple[int, ...]  # community cards seen at the time (card codes)
    call: int = 0  # chips needed to call
    pot: int = 0  # chips in the pot before the action (all streets, capped stacks ignored)

    @property
    def active(self) -> int:
        return len(self.others) + 1

    @property
    def price(self) -> float:
        """The share of the pot after a call that the call costs (pot odds)."""
        return self.call / (self.pot + self.call) if self.call else 0.0


@dataclass(slots=True)
class HandFacts:
    hand_id: str
    table: str  # the table session: the unit of the table-overlap test
    players: tuple[str, ...]
    net: dict[str, int]
    unit: int  # big blind (or small bet): the measure of a pot
    holes: dict[str, tuple[int, ...]]  # only the known hole cards
    acts: list[Act]
    board: tuple[int, ...]
    holdem: bool  # two hole cards, 52 cards, high hand: equities can be estimated
    showdown: frozenset[str]  # players who did not fold
    artificial_allin: list[str] = field(default_factory=list)  # R-AAI-1: players made artificially all-in
    aai_facing: list[bool] = field(default_factory=list)  # for each: was there a bet to call at that moment

    def flows(self) -> dict[tuple[str, str], float]:
        """Chips that went from one player to another: each loser's loss is shared among the winners in
        proportion to their winnings (loser, winner) -> chips."""
        won = {p: v for p, v in self.net.items() if v > 0}
        total = sum(won.values())
        if not total:
            return {}
        return {(p, w): -v * g / total for p, v in self.net.items() if v < 0 for w, g in won.items()}


def _cards(text: str) -> tuple[int, ...] | None:
    if "?" in text:
        return None
    try:
        return tuple(int(Card(text[i:i + 2])) for i in range(0, len(text), 2))
    except ValueError:
        return None


def _unit(f: Mapping[str, Any]) -> int:
    blinds = [int(x) for x in f.get("blinds_or_straddles", []) or [] if isinstance(x, int | float)]
    for v in (max(blinds, default=0), f.get("small_bet"), f.get("min_bet"), f.get("bring_in")):
        if isinstance(v, int | float) and v > 0:
            return int(v)
    return 1


def hand_facts(ph: PhhHand) -> HandFacts:
    """The facts of one PHH record."""
    f = ph.fields
    stacks = [int(x) for x in f["starting_stacks"]]
    n = len(stacks)
    names_raw = f.get("players")
    names = [str(x) for x in names_raw] if isinstance(names_raw, list) and len(names_raw) == n else None
    if names is None or len(set(names)) != n:
        raise FactsError(f"{ph.source}[{ph.index}]: the record does not name its {n} players")
    table = str(f.get("table", ph.source))
    hand_id = f"{table}/{f['hand']}" if "hand" in f else f"{ph.source}/{ph.index}"
    finishing = f.get("finishing_stacks")
    if not isinstance(finishing, list) or len(finishing) != n:
        res = replay(ph)
        if res.finishing_stacks is None:
            raise FactsError(f"{hand_id}: no finishing stacks and the record does not replay ({res.error})")
        finishing = res.finishing_stacks
    net = {names[i]: int(finishing[i]) - stacks[i] for i in range(n)}
    facts = HandFacts(hand_id=hand_id, table=table, players=tuple(names), net=net, unit=_unit(f), holes={},
                      acts=[], board=(), holdem=ph.variant in HOLDEM_VARIANTS, showdown=frozenset())
    _read_actions(facts, ph, names)
    return facts


def facts_from_text(text: str, source: str, session: str | None = None) -> HandFacts:
    """The facts of a stored hand's PHH text (``Hands`` records of the store); :class:`FactsError` if unusable.
    ``session`` replaces the table as the unit of the table-overlap test: a room's tables live for ever, so the
    database scans use the table and the day (``T1@2026-12-01``)."""
    try:
        records = loads(text, source, many=False)
    except PhhError as exc:
        raise FactsError(str(exc)) from None
    facts = hand_facts(records[0])
    if session is not None:
        facts.table = session
    return facts


def split_hand_ref(ref: str) -> tuple[str, str]:
    """``"<table>/<hand>"`` (an evidence hand id) -> (table id, hand id)."""
    table, _, hand = ref.rpartition("/")
    return table, hand


def _read_actions(facts: HandFacts, ph: PhhHand, names: list[str]) -> None:
    f = ph.fields
    n = len(names)
    blinds = [int(x) for x in f.get("blinds_or_straddles", []) or []]
    commit = {i: (blinds[i] if i < len(blinds) else 0) for i in range(n)}
    level = max(commit.values(), default=0)
    antes = [int(x) for x in f.get("antes", []) or []]
    pot = sum(commit.values()) + sum(antes)
    aggressor: int | None = None
    folded: set[int] = set()
    street = 0
    acted_since_deal = False
    board: list[int] = []
    aai = {int(k): int(p) - 1 for k, p in f.get("_artificial_allin", []) or []}
    for k, line in enumerate(ph.actions):
        if k in aai:
            facts.artificial_allin.append(names[aai[k]])
            facts.aai_facing.append(level > commit[aai[k]])
            folded.add(aai[k])  # no further voluntary action
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "d":
            new_street = (parts[1] == "db") or (parts[1] == "dh" and acted_since_deal and not facts.holdem)
            if parts[1] == "dh" and len(parts) > 3 and not acted_since_deal:
                cards = _cards(parts[3])
                if cards is not None:
                    who = names[int(parts[2][1:]) - 1]
                    facts.holes[who] = facts.holes.get(who, ()) + cards
            if parts[1] == "db":
                board.extend(_cards(parts[2]) or ())
            if new_street:
                street += 1
                commit = dict.fromkeys(range(n), 0)
                level, aggressor, acted_since_deal = 0, None, False
            continue
        try:
            i = int(parts[0][1:]) - 1
        except ValueError:
            continue
        if not 0 <= i < n:
            continue
        verb = parts[1]
        facing = names[aggressor] if aggressor is not None else None
        others = tuple(names[j] for j in range(n) if j != i and j not in folded)
        call = max(0, level - commit[i])
        if verb == "f":
            facts.acts.append(Act(names[i], street, "fold", None, facing, others, tuple(board), call, pot))
            folded.add(i)
        elif verb == "cc":
            kind = "call" if call else "check"
            facts.acts.append(Act(names[i], street, kind, None, facing, others, tuple(board), call, pot))
            commit[i] = level
            pot += call
        elif verb == "pb":  # stud bring-in: forced, not a choice
            amount = int(float(parts[2])) if len(parts) > 2 else level
            pot += max(0, amount - commit[i])
            level = commit[i] = max(level, amount)
            continue
        elif verb == "cbr":
            to = int(float(parts[2])) if len(parts) > 2 else level
            kind = "raise" if level > 0 else "bet"
            facts.acts.append(Act(names[i], street, kind, to, facing, others, tuple(board), call, pot))
            pot += max(0, to - commit[i])
            commit[i], level, aggressor = to, max(level, to), i
        else:
            continue
        acted_since_deal = True
    facts.board = tuple(board)
    facts.showdown = frozenset(names[i] for i in range(n) if i not in folded)


_EQUITY_CACHE: dict[tuple[tuple[int, ...], tuple[int, ...], int], float] = {}


def equity(hole: tuple[int, ...], board: tuple[int, ...], samples: int = 100) -> float:
    """Hold'em equity of ``hole`` against one random hand given ``board`` (ties half), by Monte Carlo with a
    seed derived from the cards (so a scan gives the same answer every time)."""
    key = (hole, board, samples)
    cached = _EQUITY_CACHE.get(key)
    if cached is not None:
        return cached
    seed = int.from_bytes(hashlib.blake2b(bytes(hole + board) + samples.to_bytes(4, 'big'), digest_size=8).digest(), "big")
    rng = np.random.default_rng(seed)
    seen = set(hole) | set(board)
    deck = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    need = 5 - len(board)
    # every deal at once: distinct cards per row (argsort of random keys), evaluated by the batch evaluator
    draw = deck[np.argsort(rng.random((samples, len(deck))), axis=1)[:, :need + 2]]
    shared = np.hstack([np.broadcast_to(np.array(board, dtype=np.int64), (samples, len(board))), draw[:, :need]])
    mine = evaluate_batch(Ranking.HIGH, np.hstack([np.broadcast_to(np.array(hole, dtype=np.int64), (samples, 2)),
                                                   shared]), check=False)
    theirs = evaluate_batch(Ranking.HIGH, np.hstack([draw[:, need:need + 2], shared]), check=False)
    value = float((mine > theirs).sum() + 0.5 * (mine == theirs).sum()) / samples
    if len(_EQUITY_CACHE) > 200_000:
        _EQUITY_CACHE.clear()
    _EQUITY_CACHE[key] = value
    return value


def act_equity(facts: HandFacts, act: Act) -> float | None:
    """The actor's equity (against one random hand) when they acted, when it can be known."""
    hole = facts.holes.get(act.player)
    if not facts.holdem or hole is None or len(hole) != 2:
        return None
    return equity(hole, act.board)
