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
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from riverboat.cards import Card
from riverboat.evaluate.versus import GAME_FAMILY, Family, holdem_versus_random_batch, versus_random
from riverboat.history import PhhError, PhhHand, loads, replay, resolve_variant

_STUD = frozenset({Family.STUD, Family.STUD_HL, Family.RAZZ})
_DRAW = frozenset({Family.DRAW, Family.DRAW_27})


class FactsError(ValueError):
    """A hand record the detectors cannot use (the message says why)."""


@dataclass(frozen=True, slots=True)
class Act:
    """One voluntary action: ``verb`` is fold, check, call, bet or raise (``to``: the amount raised to)."""

    player: str
    street: int  # 0 = first betting round (pre-flop, third street), 1 = flop...
    verb: str
    to: int | None
    facing: str | None  # the last bettor/raiser of this street (None: nothing to call, or only the blinds)
    others: tuple[str, ...]  # the other players still in the hand (not folded) when acting
    nboard: int  # community cards seen at the time (the first ``nboard`` of ``HandFacts.board``)
    call: int = 0  # chips needed to call
    pot: int = 0  # chips in the pot before the action (all streets, capped stacks ignored)
    cards: tuple[int, ...] | None = None  # stud and draw: the actor's own cards at the time (else the hole cards)

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
    holes: dict[str, tuple[int, ...]]  # only the known hole cards (stud: every card dealt to the player)
    acts: list[Act]
    board: tuple[int, ...]
    family: Family | None  # the equity family of the game (None: equities cannot be estimated)
    showdown: frozenset[str]  # players who did not fold
    artificial_allin: list[str] = field(default_factory=list)  # R-AAI-1: players made artificially all-in
    aai_facing: list[bool] = field(default_factory=list)  # for each: was there a bet to call at that moment
    invested: dict[str, int] = field(default_factory=dict)  # chips each player put in (blinds, antes, bets)

    @property
    def holdem(self) -> bool:
        return self.family is Family.HOLDEM

    def flows(self) -> dict[tuple[str, str], float]:
        """Chips that went from one player to another: each loser's loss is shared among the winners in
        proportion to their winnings (loser, winner) -> chips."""
        won = {p: v for p, v in self.net.items() if v > 0}
        total = sum(won.values())
        if not total:
            return {}
        return {(p, w): -v * g / total for p, v in self.net.items() if v < 0 for w, g in won.items()}


_CARD_CODE = {str(Card(c)): int(Card(c)) for c in range(52)}


def _cards(text: str) -> tuple[int, ...] | None:
    try:
        return tuple(_CARD_CODE[text[i:i + 2]] for i in range(0, len(text), 2))
    except KeyError:
        return None


def _unit(f: Mapping[str, Any]) -> int:
    blinds = [int(x) for x in f.get("blinds_or_straddles", []) or [] if isinstance(x, int | float)]
    for v in (max(blinds, default=0), f.get("small_bet"), f.get("min_bet"), f.get("bring_in")):
        if isinstance(v, int | float) and v > 0:
            return int(v)
    return 1


@lru_cache(maxsize=256)
def family_of(variant: str) -> Family | None:
    """The equity family of a PHH variant code (``NT``, ``PO``, ``F7S``, ``RB/omaha5_hl/PL``...), None when the
    game has none (the card tests are skipped there; the money and action tests still run)."""
    try:
        game, _ = resolve_variant(variant)
    except PhhError:
        return None
    return GAME_FAMILY.get(game.id)


def hand_facts(ph: PhhHand) -> HandFacts:
    """The facts of one PHH record."""
    return _facts(ph.fields, ph.source, ph.index, ph)


def _facts(f: Mapping[str, Any], source: str, index: int, ph: PhhHand | None) -> HandFacts:
    stacks = [int(x) for x in f["starting_stacks"]]
    n = len(stacks)
    names_raw = f.get("players")
    names = [sys.intern(str(x)) for x in names_raw] if isinstance(names_raw, list) and len(names_raw) == n else None
    if names is None or len(set(names)) != n:
        raise FactsError(f"{source}[{index}]: the record does not name its {n} players")
    table = str(f.get("table", source))
    hand_id = f"{table}/{f['hand']}" if "hand" in f else f"{source}/{index}"
    finishing = f.get("finishing_stacks")
    if not isinstance(finishing, list) or len(finishing) != n:
        res = replay(ph if ph is not None else PhhHand(dict(f), source, index))
        if res.finishing_stacks is None:
            raise FactsError(f"{hand_id}: no finishing stacks and the record does not replay ({res.error})")
        finishing = res.finishing_stacks
    net = {names[i]: int(finishing[i]) - stacks[i] for i in range(n)}
    facts = HandFacts(hand_id=hand_id, table=table, players=tuple(names), net=net, unit=_unit(f), holes={},
                      acts=[], board=(), family=family_of(str(f.get("variant", ""))), showdown=frozenset())
    _read_actions(facts, f, names)
    return facts


def _fields(text: str) -> dict[str, Any] | None:
    """The fields of one PHH record as the room writes it (``key = value`` per line, every value JSON-compatible):
    ten times faster than a TOML parser; None when the text is anything else (then TOML reads it)."""
    out: dict[str, Any] = {}
    try:
        for line in text.splitlines():
            if not line:
                continue
            key, sep, value = line.partition(" = ")
            if not sep or not key.replace("_", "a").isalnum():
                return None
            out[key] = value == "true" if value in ("true", "false") else json.loads(value)
    except ValueError:
        return None
    return out


def facts_from_text(text: str, source: str, session: str | None = None) -> HandFacts:
    """The facts of a stored hand's PHH text (``Hands`` records of the store); :class:`FactsError` if unusable.
    ``session`` replaces the table as the unit of the table-overlap test: a room's tables live for ever, so the
    database scans use the table and the day (``T1@2026-12-01``)."""
    fields = _fields(text)
    if fields is None or not isinstance(fields.get("actions"), list) or not isinstance(
            fields.get("starting_stacks"), list):
        try:
            records = loads(text, source, many=False)
        except PhhError as exc:
            raise FactsError(str(exc)) from None
        facts = hand_facts(records[0])
    else:
        try:
            facts = _facts(fields, source, 0, None)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, FactsError):
                raise
            raise FactsError(f"{source}: unusable record ({exc})") from None
    if session is not None:
        facts.table = session
    return facts


def split_hand_ref(ref: str) -> tuple[str, str]:
    """``"<table>/<hand>"`` (an evidence hand id) -> (table id, hand id)."""
    table, _, hand = ref.rpartition("/")
    return table, hand


def _read_actions(facts: HandFacts, f: Mapping[str, Any], names: list[str]) -> None:
    n = len(names)
    blinds = [int(x) for x in f.get("blinds_or_straddles", []) or []]
    commit = {i: (blinds[i] if i < len(blinds) else 0) for i in range(n)}
    level = max(commit.values(), default=0)
    antes = [int(x) for x in f.get("antes", []) or []]
    invested = [commit[i] + (antes[i] if i < len(antes) else 0) for i in range(n)]
    pot = sum(invested)
    aggressor: int | None = None
    folded: set[int] = set()
    street = 0
    acted_since_deal = False
    board: list[int] = []
    fam = facts.family
    per_card = fam in _STUD or fam in _DRAW
    holes: dict[str, tuple[int, ...]] = facts.holes
    acts = facts.acts
    aai = {int(k): int(p) - 1 for k, p in f.get("_artificial_allin", []) or []}
    for k, line in enumerate(f["actions"]):
        if k in aai:
            facts.artificial_allin.append(names[aai[k]])
            facts.aai_facing.append(level > commit[aai[k]])
            folded.add(aai[k])  # no further voluntary action
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "d":
            if parts[1] == "dh" and len(parts) > 3:
                who = names[int(parts[2][1:]) - 1]
                cards = _cards(parts[3])
                if cards is not None and (not acted_since_deal or per_card):
                    holes[who] = holes.get(who, ()) + cards
            new_street = parts[1] == "db" or (parts[1] == "dh" and acted_since_deal and fam in _STUD)
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
        me = names[i]
        facing = names[aggressor] if aggressor is not None else None
        others = tuple(names[j] for j in range(n) if j != i and j not in folded)
        call = max(0, level - commit[i])
        cards = holes.get(me) if per_card else None
        if verb == "f":
            acts.append(Act(me, street, "fold", None, facing, others, len(board), call, pot, cards))
            folded.add(i)
        elif verb == "cc":
            acts.append(Act(me, street, "call" if call else "check", None, facing, others, len(board), call, pot,
                            cards))
            commit[i] = level
            pot += call
            invested[i] += call
        elif verb == "pb":  # stud bring-in: forced, not a choice
            amount = int(float(parts[2])) if len(parts) > 2 else level
            pot += max(0, amount - commit[i])
            invested[i] += max(0, amount - commit[i])
            level = commit[i] = max(level, amount)
            continue
        elif verb == "cbr":
            to = int(float(parts[2])) if len(parts) > 2 else level
            acts.append(Act(me, street, "raise" if level > 0 else "bet", to, facing, others, len(board), call, pot,
                            cards))
            pot += max(0, to - commit[i])
            invested[i] += max(0, to - commit[i])
            commit[i], level, aggressor = to, max(level, to), i
        elif verb == "sd":  # draw: the discards leave the hand; the replacements come with the next "d dh"
            thrown = _cards(parts[2]) if len(parts) > 2 else ()
            if me in holes and thrown:
                holes[me] = tuple(c for c in holes[me] if c not in thrown)
            if acted_since_deal:
                street += 1
                commit = dict.fromkeys(range(n), 0)
                level, aggressor = 0, None
            continue
        else:
            continue
        acted_since_deal = True
    facts.board = tuple(board)
    facts.showdown = frozenset(names[i] for i in range(n) if i not in folded)
    facts.invested = {names[i]: invested[i] for i in range(n)}


_EQUITY_CACHE: dict[tuple[Family, tuple[int, ...], tuple[int, ...], int], float] = {}
_CACHE_LIMIT = 150_000


def equity(hole: tuple[int, ...], board: tuple[int, ...], samples: int = 100,
           family: Family = Family.HOLDEM) -> float:
    """Equity of ``hole`` (with ``board``) against one random hand (ties and splits as the share won), by Monte
    Carlo that gives the same answer every time: hold'em by the batch of :func:`prefetch` (fixed deal positions,
    :func:`riverboat.evaluate.versus.holdem_versus_random_batch`), other games with a seed derived from the cards
    (:func:`riverboat.evaluate.versus.versus_random`)."""
    key = (family, hole, board, samples)
    cached = _EQUITY_CACHE.get(key)
    if cached is not None:
        return cached
    if family is Family.HOLDEM:
        value = float(holdem_versus_random_batch([(hole, board)], samples)[0])
    else:
        seed = int.from_bytes(hashlib.blake2b(bytes(hole + board) + samples.to_bytes(4, "big"),
                                              digest_size=8).digest(), "big")
        value = versus_random(family, hole, board, samples=samples, seed=seed)
    if len(_EQUITY_CACHE) > _CACHE_LIMIT:
        _EQUITY_CACHE.clear()
    _EQUITY_CACHE[key] = value
    return value


def prefetch(queries: Iterable[tuple[tuple[int, ...], tuple[int, ...]]], samples: int = 100) -> None:
    """Compute the hold'em equities of many (hole, board) queries in one batch (the same values :func:`equity`
    gives one at a time), so the scan's per-hand work finds them cached."""
    todo = sorted({q for q in queries if (Family.HOLDEM, q[0], q[1], samples) not in _EQUITY_CACHE})
    if not todo:
        return
    if len(_EQUITY_CACHE) + len(todo) > _CACHE_LIMIT:
        _EQUITY_CACHE.clear()
    for start in range(0, len(todo), 4000):
        part = todo[start:start + 4000]
        for (hole, board), v in zip(part, holdem_versus_random_batch(part, samples), strict=True):
            _EQUITY_CACHE[Family.HOLDEM, hole, board, samples] = float(v)


def act_equity(facts: HandFacts, act: Act) -> float | None:
    """The actor's equity (against one random hand) when they acted, when it can be known."""
    fam = facts.family
    if fam is None:
        return None
    if act.cards is not None:
        own = act.cards
        if fam in _DRAW and len(own) != 5 or not own or len(own) > 7:
            return None
        return equity(own, (), family=fam)
    hole = facts.holes.get(act.player)
    if hole is None or len(hole) != (2 if fam is Family.HOLDEM else len(hole)) or len(hole) not in (2, 4, 5):
        return None
    return equity(hole, facts.board[:act.nboard], family=fam)


def final_equity(facts: HandFacts, player: str) -> float | None:
    """The player's equity against one random hand with every card they saw (the river, seventh street)."""
    fam = facts.family
    hole = facts.holes.get(player)
    if fam is None or hole is None:
        return None
    if fam in _STUD or fam in _DRAW:
        return equity(hole, (), family=fam) if 1 <= len(hole) <= 7 and (fam not in _DRAW or len(hole) == 5) else None
    if len(facts.board) != 5 or len(hole) not in ((2,) if fam is Family.HOLDEM else (4, 5)):
        return None
    return equity(hole, facts.board, family=fam)
