"""What the detectors remember of the hands scanned so far (issue #34): additive counts per player and per pair,
nothing per hand, so

* a scan can stop and go on later: :meth:`ScanState.to_bytes` / :meth:`ScanState.from_bytes` keep it in the store
  and the scheduled scan reads only the hands recorded since (``store.integrity.ScanCursor``);
* scanning in ten increments gives exactly the flags of one full scan (the same additions in the same order; floats
  survive the JSON round trip exactly);
* memory grows with players, pairs and table sessions, never with hands.

:meth:`ScanState.add` folds one hand in (docs/integrity.md says what is counted); the tests themselves are in
:mod:`riverboat.integrity.detect`.
"""

from __future__ import annotations

import bisect
import itertools
import json
import sys
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from riverboat.evaluate.versus import Family
from riverboat.integrity.facts import Act, HandFacts, act_equity, final_equity, prefetch

Pair = tuple[str, str]
SEP = "\x1f"
FORMAT = 4  # bump when the counts change meaning: a stored state of another format is rebuilt from the hands


@dataclass(frozen=True, slots=True)
class GatherConfig:
    """What counts as an event (changing these changes the counts: part of the stored state)."""

    strong: float = 0.62  # equity (vs one random hand) that makes a hand strong
    weak: float = 0.35  # and weak
    # equity bands of the heads-up aggression test: 0.05 wide, so a band's rate fits every hand in it (issue #34:
    # with (0.5, 0.65, 0.75, 0.85) honest stud bots checked 64 % of hands at 0.85 and 0 % at 0.95, one rate of 19 %)
    buckets: tuple[float, ...] = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
    min_flow: float = 4.0  # a transfer worth judging: at least this many big blinds from one player to the other
    big_investment: float = 6.0  # folding after putting in this many big blinds...
    long_odds: float = 0.2  # ...when the call costs at most this share of the pot
    far_behind: float = 0.2  # a call whose equity is this far below its price
    cap: float = 60.0  # transfers are counted up to this many big blinds per hand (one huge pot is not a pattern)
    max_evidence: int = 25
    session_idle: int = 50_000  # a table session not seen for this many hands is closed (its seat list dropped)


def _k(pair: Pair) -> str:
    return pair[0] + SEP + pair[1]


def _unk(key: str) -> Pair:
    a, _, b = key.partition(SEP)
    return sys.intern(a), sys.intern(b)


def _top(lst: list[Any], item: list[Any], k: int) -> None:
    """Keep the flat list ``lst`` (``weight, hand id, why`` repeated: no list object per item, a third of the
    memory of the evidence) the ``k`` largest items, largest first (ties: by hand id, so the order never depends
    on when a hand was scanned)."""
    key = (-item[0], item[1])
    n = len(lst) // 3
    if n >= k and key >= (-lst[-3], lst[-2]):
        return
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if (-lst[3 * mid], lst[3 * mid + 1]) < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < k:
        lst[3 * lo:3 * lo] = item
        del lst[3 * k:]


def triples(lst: list[Any]) -> list[list[Any]]:
    """The items ``[weight, hand id, why]`` of a flat evidence list (:func:`_top`)."""
    return [lst[i:i + 3] for i in range(0, len(lst), 3)]


@dataclass(slots=True)
class Counts:
    """Hits and trials of one behaviour, per (actor, opponent) and per actor in total, with the biggest hits as
    evidence (flat lists: weight, hand id, why, repeated)."""

    hits: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    trials: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    hits_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    trials_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    evidence: dict[Pair, list[Any]] = field(default_factory=lambda: defaultdict(list))
    keys: dict[Pair, Pair] = field(default_factory=dict)  # one tuple per pair, shared by every dict (memory)

    def add(self, actor: str, other: str, hit: bool, hand_id: str, weight: float = 0.0, why: str = "",
            keep: int = 25) -> None:
        key = (actor, other)
        key = self.keys.setdefault(key, key)
        self.trials[key] += 1
        self.trials_of[actor] += 1
        if hit:
            self.hits[key] += 1
            self.hits_of[actor] += 1
            _top(self.evidence[key], [round(weight, 3), hand_id, why], keep)

    def population_rate(self) -> float:
        t = sum(self.trials_of.values())
        return sum(self.hits_of.values()) / t if t else 0.0


class Moments:
    """[n, sum, sum of squares] per key (floats added in scan order)."""

    __slots__ = ("m",)

    def __init__(self) -> None:
        self.m: dict[Any, list[float]] = {}

    def add(self, key: Any, x: float) -> None:
        v = self.m.get(key)
        if v is None:
            self.m[key] = [1, x, x * x]
        else:
            v[0] += 1
            v[1] += x
            v[2] += x * x

    def get(self, key: Any) -> tuple[int, float, float]:
        v = self.m.get(key)
        return (int(v[0]), v[1], v[2]) if v is not None else (0, 0.0, 0.0)


_COUNTS = ("bad_loss", "checkdown", "fold_multi", "aai", "aai_facing")
_MOMENTS = {"transfer": True, "out": False, "net_multi": False, "together": True}


class ScanState:
    """The additive counts of every hand scanned so far (see the module docstring)."""

    def __init__(self, cfg: GatherConfig | None = None) -> None:
        self.cfg = cfg or GatherConfig()
        self.hands = 0
        self.hands_of: dict[str, int] = defaultdict(int)
        self.shared: dict[Pair, int] = defaultdict(int)
        self.shared_ids: dict[Pair, list[str]] = defaultdict(list)
        self.table_players: dict[str, list[str]] = defaultdict(list)
        self.table_seen: dict[str, int] = {}  # table session -> the last hand (count) it was seen in
        self.tables_of: dict[str, int] = defaultdict(int)
        self.co_seats: dict[str, int] = defaultdict(int)
        self.shared_tables: dict[Pair, int] = defaultdict(int)
        self.seats = 0
        # one tuple object per (ordered) pair, shared by every dict below: most of the memory is pair keys
        self.keys: dict[Pair, Pair] = {}
        self.bad_loss = Counts(keys=self.keys)  # chip dumping: (giver, receiver)
        # soft play: heads-up after the first round, each player's first decision of each street with equity in
        # band k (``cfg.buckets``): checked or called (or folded) instead of betting or raising
        self.passive = [Counts(keys=self.keys) for _ in self.cfg.buckets]
        self.checkdown = Counts(keys=self.keys)  # heads-up flops checked down
        self.fold_multi = Counts(keys=self.keys)  # collusion: folds to a bet/raise in multiway pots
        self.aai = Counts(keys=self.keys)  # (player, player): artificial all-ins per hand
        self.aai_facing = Counts(keys=self.keys)  # (player, player): of those, facing a bet
        self.flow: dict[Pair, float] = defaultdict(float)  # chips (in big blinds) from one player to another
        self.transfer = Moments()  # (a, b), a < b: net transfer a -> b per hand both played (capped)
        self.out = Moments()  # per player: net transfer to each opponent, per (hand, opponent) (capped)
        self.net_multi = Moments()  # per player: result per multiway hand
        self.net_with: dict[Pair, float] = defaultdict(float)  # (a, b): a's result in multiway hands with b
        self.together = Moments()  # (a, b), a < b: combined result in multiway hands together
        self.win_ids: dict[Pair, list[Any]] = defaultdict(list)  # (a, b): the biggest wins together
        self.transfer_ids: dict[Pair, list[Any]] = defaultdict(list)  # (giver, receiver): biggest transfers

    # ------------------------------------------------------------------------------------------------ one hand
    def add_many(self, hands: Iterable[HandFacts], chunk: int = 1000,
                 progress: Callable[[], None] | None = None) -> None:
        """:meth:`add` every hand, ``chunk`` at a time: the hold'em equities a chunk needs are computed first in
        one batch (:func:`riverboat.integrity.facts.prefetch`); the counts are exactly those of adding one by one."""
        buf: list[HandFacts] = []
        for h in hands:
            buf.append(h)
            if len(buf) >= chunk:
                self._add_chunk(buf, progress)
                buf = []
        if buf:
            self._add_chunk(buf, progress)

    def _add_chunk(self, hands: list[HandFacts], progress: Callable[[], None] | None) -> None:
        prefetch(q for h in hands for q in self._equity_queries(h))
        for h in hands:
            self.add(h)
            if progress is not None:
                progress()

    def _equity_queries(self, h: HandFacts) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        """The hold'em (hole, board) equities :meth:`add` may ask for this hand: the heads-up decisions after the
        first round, and every decision of a player who lost a transfer worth judging."""
        if h.family is not Family.HOLDEM:
            return
        losers = {p for p, v in h.net.items() if -v >= self.cfg.min_flow * max(h.unit, 1) * 0.999}
        for act in h.acts:
            hole = h.holes.get(act.player)
            if hole is None or len(hole) != 2:
                continue
            if act.player in losers or (act.street >= 1 and act.active == 2):
                yield hole, h.board[:act.nboard]
        if len(h.board) == 5:
            for p in losers & h.showdown:
                hole = h.holes.get(p)
                if hole is not None and len(hole) == 2:
                    yield hole, h.board

    def add(self, h: HandFacts) -> None:
        self.hands += 1
        if self.hands % self.cfg.session_idle == 0:
            self._close_sessions()
        players = sorted(h.players)
        keep = self.cfg.max_evidence
        self._tables(h.table, players)
        for p in players:
            self.hands_of[p] += 1
            self.aai.add(p, p, p in h.artificial_allin, h.hand_id, keep=keep)
        for p, facing in zip(h.artificial_allin, h.aai_facing, strict=True):  # R-AAI-3: saved from a decision?
            self.aai_facing.add(p, p, facing, h.hand_id, keep=keep)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                key = self._pair(a, b)
                self.shared[key] += 1
                ids = self.shared_ids[key]
                if len(ids) < 5:
                    ids.append(h.hand_id)
        self._money(h, players)
        self._soft_play(h)
        self._multiway(h, players)

    def _pair(self, a: str, b: str) -> Pair:
        """The one tuple kept for the ordered pair (a, b)."""
        key = (a, b)
        return self.keys.setdefault(key, key)

    def _close_sessions(self) -> None:
        """Drop the seat lists of table sessions not seen for ``session_idle`` hands (memory bounded by the
        sessions of the last ``2 * session_idle`` hands, not by every session ever played): their counts stay.
        Done every ``session_idle`` hands (a fixed hand count), so the counts do not depend on how the hands
        were split into scans."""
        idle = self.hands - self.cfg.session_idle
        for table in [t for t, last in self.table_seen.items() if last <= idle]:
            del self.table_seen[table]
            self.table_players.pop(table, None)

    def _tables(self, table: str, players: list[str]) -> None:
        """Table overlap, kept incrementally: a player new to a table session meets everyone already seen there."""
        self.table_seen[table] = self.hands
        seen = self.table_players[table]
        for p in players:
            if p in seen:
                continue
            for q in seen:
                self.shared_tables[self._pair(p, q) if p < q else self._pair(q, p)] += 1
                self.co_seats[q] += 1
            self.co_seats[p] += len(seen)
            self.tables_of[p] += 1
            self.seats += 1
            seen.append(p)

    # ------------------------------------------------------------------------------------------ chip dumping
    def _money(self, h: HandFacts, players: list[str]) -> None:
        """Transfers between every two players of the hand (the pair's own record and each player's baseline),
        and, for every transfer worth judging, whether the giver lost it badly (R-INTEG-3)."""
        cfg = self.cfg
        unit = max(h.unit, 1)
        flows = h.flows()
        for (giver, receiver), chips in flows.items():
            self.flow[self._pair(giver, receiver)] += chips / unit
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                t = (flows.get((a, b), 0.0) - flows.get((b, a), 0.0)) / unit
                t = max(-cfg.cap, min(cfg.cap, t))
                self.transfer.add(self._pair(a, b), t)
                self.out.add(a, t)
                self.out.add(b, -t)
                if t >= cfg.min_flow:
                    _top(self.transfer_ids[self._pair(a, b)], [t, h.hand_id, ""], cfg.max_evidence)
                elif -t >= cfg.min_flow:
                    _top(self.transfer_ids[self._pair(b, a)], [-t, h.hand_id, ""], cfg.max_evidence)
        judged: dict[str, tuple[bool, str]] = {}
        for (giver, receiver), chips in sorted(flows.items()):
            if chips / unit < cfg.min_flow:
                continue
            if giver not in judged:
                judged[giver] = self._lost_badly(h, giver)
            bad, why = judged[giver]
            if bad and why.startswith("folded"):
                last = next(a for a in reversed(h.acts) if a.player == giver)
                bad = last.facing == receiver  # a fold is given to the player who bet
            self.bad_loss.add(giver, receiver, bad, h.hand_id, chips / unit,
                              f"{why}; {chips / unit:.1f} bb to [{receiver}]" if bad else "", cfg.max_evidence)

    def _lost_badly(self, h: HandFacts, giver: str) -> tuple[bool, str]:
        """Did ``giver`` lose this hand in a way their cards and the price do not explain? (and why)"""
        cfg = self.cfg
        unit = max(h.unit, 1)
        mine = [a for a in h.acts if a.player == giver]
        if not mine:
            return False, ""
        last = mine[-1]
        put_in = h.invested.get(giver, 0) / unit
        if last.verb == "fold" and last.facing is not None:
            e = act_equity(h, last)
            if e is not None and e >= cfg.strong:
                return True, f"folded a hand with {e:.0%} equity to [{last.facing}]'s bet"
            if last.price <= cfg.long_odds and put_in >= cfg.big_investment:
                return True, (f"folded to [{last.facing}]'s bet after putting in {put_in:.1f} bb "
                              f"(the call was {last.price:.0%} of the pot)")
            return False, ""
        bad_chips = 0.0
        whys = []
        for act in mine:
            if act.verb not in ("call", "bet", "raise"):
                continue
            e = act_equity(h, act)
            if e is None:
                continue
            chips = (act.call if act.verb == "call" else (act.to or 0)) / unit
            if act.verb == "call" and e < act.price - cfg.far_behind:
                bad_chips += chips
                whys.append(f"called {chips:.1f} bb with {e:.0%} equity at a price of {act.price:.0%}")
            elif act.verb != "call" and e < cfg.weak:
                bad_chips += chips
                whys.append(f"{act.verb} to {chips:.1f} bb with {e:.0%} equity")
        if giver in h.showdown and not whys and any(a.verb in ("bet", "raise") for a in mine):
            e = final_equity(h, giver)
            if e is not None and e < cfg.weak:
                return True, f"bet with {e:.0%} equity at the end and lost"
        if whys and bad_chips >= 0.5 * max(-h.net.get(giver, 0) / unit, 0.0):
            return True, "; ".join(whys[:3])
        return False, ""

    # ------------------------------------------------------------------------------------------------ soft play
    def _soft_play(self, h: HandFacts) -> None:
        """Heads-up after the first round (R-INTEG-4, R-INTEG-8): each player's first decision of each street,
        by equity band: was it passive (no bet or raise)? And every heads-up flop: was it checked down?"""
        first_heads_up: list[str] | None = None
        aggression_after = False
        judged: set[tuple[str, int]] = set()
        keep = self.cfg.max_evidence
        buckets = self.cfg.buckets
        for act in h.acts:
            if act.street < 1 or act.active != 2:
                continue
            if first_heads_up is None:
                first_heads_up = sorted((act.player, *act.others))
            aggression_after = aggression_after or act.verb in ("bet", "raise")
            if (act.player, act.street) in judged:
                continue
            judged.add((act.player, act.street))
            e = act_equity(h, act)
            if e is None or e < buckets[0]:
                continue
            band = bisect.bisect_right(buckets, e) - 1
            passive = act.verb not in ("bet", "raise")
            self.passive[band].add(act.player, act.others[0], passive, h.hand_id, e,
                                   f"[{act.player}] {act.verb}ed with {e:.0%} equity heads-up against "
                                   f"[{act.others[0]}]" if passive else "", keep)
        if first_heads_up is not None:
            a, b = first_heads_up
            checked_down = not aggression_after and set(h.showdown) == {a, b}
            why = "checked down heads-up" if checked_down else ""
            self.checkdown.add(a, b, checked_down, h.hand_id, 0.0, why, keep)
            self.checkdown.add(b, a, checked_down, h.hand_id, 0.0, why, keep)

    # ------------------------------------------------------------------------------------------------ collusion
    def _multiway(self, h: HandFacts, players: list[str]) -> None:
        faced: dict[Pair, Act] = {}
        for act in h.acts:  # one trial per (player, bettor) and hand: did the player fold to that bettor?
            if act.facing is not None and act.active >= 3 and act.facing != act.player:
                key = (act.player, act.facing)
                if key not in faced or act.verb == "fold":
                    faced[key] = act
        keep = self.cfg.max_evidence
        for (player, bettor), act in faced.items():
            folded = act.verb == "fold"
            self.fold_multi.add(player, bettor, folded, h.hand_id, act.pot / max(h.unit, 1),
                                f"[{player}] folded to [{bettor}] in a {act.active}-way pot" if folded else "", keep)
        if len(players) < 3:
            return
        unit = max(h.unit, 1)
        for p in players:
            self.net_multi.add(p, h.net[p] / unit)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                na, nb = h.net[a] / unit, h.net[b] / unit
                ab = self._pair(a, b)
                self.net_with[ab] += na
                self.net_with[self._pair(b, a)] += nb
                together = na + nb
                self.together.add(ab, together)
                if together > 0:
                    _top(self.win_ids[ab], [together, h.hand_id, ""], 10)

    # ------------------------------------------------------------------------------------------ persistence
    def _cfg_json(self) -> list[Any]:
        """The configuration as it reads back from JSON (tuples become lists)."""
        out: list[Any] = json.loads(json.dumps([getattr(self.cfg, f) for f in GatherConfig.__dataclass_fields__]))
        return out

    def _tables_json(self) -> Iterator[tuple[str, dict[Any, Any], bool]]:
        """Every dict of counts, by name, and whether it is keyed by pairs (what :meth:`to_bytes` writes)."""
        yield "hands_of", self.hands_of, False
        yield "table_players", self.table_players, False
        yield "table_seen", self.table_seen, False
        yield "tables_of", self.tables_of, False
        yield "co_seats", self.co_seats, False
        for name in ("shared", "shared_ids", "shared_tables", "flow", "win_ids", "transfer_ids", "net_with"):
            yield name, getattr(self, name), True
        counts = [(name, getattr(self, name)) for name in _COUNTS] + [(f"passive{i}", c)
                                                                       for i, c in enumerate(self.passive)]
        for name, c in counts:
            yield f"{name}.hits", c.hits, True
            yield f"{name}.trials", c.trials, True
            yield f"{name}.hits_of", c.hits_of, False
            yield f"{name}.trials_of", c.trials_of, False
            yield f"{name}.evidence", c.evidence, True
        for name, pairs in _MOMENTS.items():
            yield name, getattr(self, name).m, pairs

    def to_bytes(self, chunk: int = 20_000) -> bytes:
        """The counts as zlib-compressed JSON lines (a head, then ``[name, {key: value}]`` parts of at most
        ``chunk`` entries each), written part by part: saving never holds a second copy of the counts."""
        z = zlib.compressobj(6)
        parts = [z.compress(json.dumps({"format": FORMAT, "cfg": self._cfg_json(), "hands": self.hands,
                                        "seats": self.seats}).encode() + b"\n")]
        for name, table, pairs in self._tables_json():
            items = iter(table.items())
            while True:
                part = [(_k(k) if pairs else k, v) for k, v in itertools.islice(items, chunk)]
                if not part:
                    break
                parts.append(z.compress(json.dumps([name, dict(part)], separators=(",", ":")).encode() + b"\n"))
        parts.append(z.flush())
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, blob: bytes, cfg: GatherConfig | None = None) -> ScanState | None:
        """The stored state, or None when it was counted with another format or configuration (start over)."""
        st = cls(cfg)
        lines = _lines(blob)
        try:
            head = json.loads(next(lines))
        except (ValueError, StopIteration):
            return None
        if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("cfg") != st._cfg_json():
            return None
        st.hands, st.seats = head["hands"], head["seats"]
        tables = {name: (table, pairs) for name, table, pairs in st._tables_json()}
        for line in lines:
            name, part = json.loads(line)
            table, pairs = tables[name]
            table.update({(st._pair(*_unk(k)) if pairs else sys.intern(k)): v for k, v in part.items()})
        return st


def _lines(blob: bytes, size: int = 1 << 20) -> Iterator[bytes]:
    """The lines of a compressed blob, decompressed a piece at a time."""
    z = zlib.decompressobj()
    rest = b""
    for i in range(0, len(blob), size):
        rest += z.decompress(blob[i:i + size])
        *done, rest = rest.split(b"\n")
        yield from done
    rest += z.flush()
    if rest:
        yield rest


__all__ = ["Counts", "GatherConfig", "Moments", "Pair", "ScanState", "triples"]
