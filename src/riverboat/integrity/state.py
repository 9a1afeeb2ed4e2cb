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
import json
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from riverboat.integrity.facts import Act, HandFacts, act_equity, final_equity

Pair = tuple[str, str]
SEP = "\x1f"
FORMAT = 2  # bump when the counts change meaning: a stored state of another format is rebuilt from the hands


@dataclass(frozen=True, slots=True)
class GatherConfig:
    """What counts as an event (changing these changes the counts: part of the stored state)."""

    strong: float = 0.62  # equity (vs one random hand) that makes a hand strong
    weak: float = 0.35  # and weak
    very_strong: float = 0.75  # a hand that should bet heads-up
    min_flow: float = 4.0  # a transfer worth judging: at least this many big blinds from one player to the other
    big_investment: float = 6.0  # folding after putting in this many big blinds...
    long_odds: float = 0.2  # ...when the call costs at most this share of the pot
    far_behind: float = 0.2  # a call whose equity is this far below its price
    cap: float = 60.0  # transfers are counted up to this many big blinds per hand (one huge pot is not a pattern)
    max_evidence: int = 25


def _k(pair: Pair) -> str:
    return pair[0] + SEP + pair[1]


def _unk(key: str) -> Pair:
    a, _, b = key.partition(SEP)
    return a, b


def _top(lst: list[list[Any]], item: list[Any], k: int) -> None:
    """Keep ``lst`` the ``k`` largest items, largest first (ties: by hand id, so the order never depends on when
    a hand was scanned)."""
    key = (-item[0], item[1])
    keys = [(-x[0], x[1]) for x in lst]
    pos = bisect.bisect_left(keys, key)
    if pos < k:
        lst.insert(pos, item)
        del lst[k:]


@dataclass(slots=True)
class Counts:
    """Hits and trials of one behaviour, per (actor, opponent) and per actor in total, with the biggest hits as
    evidence: ``[weight, hand id, why]``."""

    hits: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    trials: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    hits_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    trials_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    evidence: dict[Pair, list[list[Any]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, actor: str, other: str, hit: bool, hand_id: str, weight: float = 0.0, why: str = "",
            keep: int = 25) -> None:
        self.trials[actor, other] += 1
        self.trials_of[actor] += 1
        if hit:
            self.hits[actor, other] += 1
            self.hits_of[actor] += 1
            _top(self.evidence[actor, other], [round(weight, 3), hand_id, why], keep)

    def population_rate(self) -> float:
        t = sum(self.trials_of.values())
        return sum(self.hits_of.values()) / t if t else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"hits": {_k(p): v for p, v in self.hits.items()}, "trials": {_k(p): v for p, v in self.trials.items()},
                "hits_of": dict(self.hits_of), "trials_of": dict(self.trials_of),
                "evidence": {_k(p): v for p, v in self.evidence.items()}}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Counts:
        c = cls()
        c.hits.update({_unk(k): v for k, v in d["hits"].items()})
        c.trials.update({_unk(k): v for k, v in d["trials"].items()})
        c.hits_of.update(d["hits_of"])
        c.trials_of.update(d["trials_of"])
        c.evidence.update({_unk(k): v for k, v in d["evidence"].items()})
        return c


class Moments:
    """n, sum and sum of squares per key (floats added in scan order)."""

    __slots__ = ("n", "s", "ss")

    def __init__(self) -> None:
        self.n: dict[Any, int] = defaultdict(int)
        self.s: dict[Any, float] = defaultdict(float)
        self.ss: dict[Any, float] = defaultdict(float)

    def add(self, key: Any, x: float) -> None:
        self.n[key] += 1
        self.s[key] += x
        self.ss[key] += x * x

    def to_json(self, pairs: bool) -> dict[str, Any]:
        f = _k if pairs else str
        return {"n": {f(k): v for k, v in self.n.items()}, "s": {f(k): v for k, v in self.s.items()},
                "ss": {f(k): v for k, v in self.ss.items()}}

    @classmethod
    def from_json(cls, d: dict[str, Any], pairs: bool) -> Moments:
        m = cls()
        for name in ("n", "s", "ss"):
            getattr(m, name).update({(_unk(k) if pairs else k): v for k, v in d[name].items()})
        return m


_COUNTS = ("bad_loss", "passive_strong", "checkdown", "fold_multi", "aai", "aai_facing")
_MOMENTS = {"transfer": True, "out": False, "net_multi": False, "net_with": True, "together": True}


class ScanState:
    """The additive counts of every hand scanned so far (see the module docstring)."""

    def __init__(self, cfg: GatherConfig | None = None) -> None:
        self.cfg = cfg or GatherConfig()
        self.hands = 0
        self.hands_of: dict[str, int] = defaultdict(int)
        self.shared: dict[Pair, int] = defaultdict(int)
        self.shared_ids: dict[Pair, list[str]] = defaultdict(list)
        self.table_players: dict[str, list[str]] = defaultdict(list)
        self.tables_of: dict[str, int] = defaultdict(int)
        self.co_seats: dict[str, int] = defaultdict(int)
        self.shared_tables: dict[Pair, int] = defaultdict(int)
        self.seats = 0
        self.bad_loss = Counts()  # chip dumping: (giver, receiver)
        self.passive_strong = Counts()  # soft play: heads-up with a strong hand, checked or called
        self.checkdown = Counts()  # heads-up flops checked down
        self.fold_multi = Counts()  # collusion: folds to a bet/raise in multiway pots
        self.aai = Counts()  # (player, player): artificial all-ins per hand
        self.aai_facing = Counts()  # (player, player): of those, facing a bet
        self.flow: dict[Pair, float] = defaultdict(float)  # chips (in big blinds) from one player to another
        self.transfer = Moments()  # (a, b), a < b: net transfer a -> b per hand both played (capped)
        self.out = Moments()  # per player: net transfer to each opponent, per (hand, opponent) (capped)
        self.net_multi = Moments()  # per player: result per multiway hand
        self.net_with = Moments()  # (a, b): a's result in multiway hands with b
        self.together = Moments()  # (a, b), a < b: combined result in multiway hands together
        self.win_ids: dict[Pair, list[list[Any]]] = defaultdict(list)  # (a, b): the biggest wins together
        self.transfer_ids: dict[Pair, list[list[Any]]] = defaultdict(list)  # (giver, receiver): biggest transfers

    # ------------------------------------------------------------------------------------------------ one hand
    def add(self, h: HandFacts) -> None:
        self.hands += 1
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
                self.shared[a, b] += 1
                ids = self.shared_ids[a, b]
                if len(ids) < 10:
                    ids.append(h.hand_id)
        self._money(h, players)
        self._soft_play(h)
        self._multiway(h, players)

    def _tables(self, table: str, players: list[str]) -> None:
        """Table overlap, kept incrementally: a player new to a table session meets everyone already seen there."""
        seen = self.table_players[table]
        for p in players:
            if p in seen:
                continue
            for q in seen:
                self.shared_tables[(p, q) if p < q else (q, p)] += 1
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
            self.flow[giver, receiver] += chips / unit
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                t = (flows.get((a, b), 0.0) - flows.get((b, a), 0.0)) / unit
                t = max(-cfg.cap, min(cfg.cap, t))
                self.transfer.add((a, b), t)
                self.out.add(a, t)
                self.out.add(b, -t)
                if t >= cfg.min_flow:
                    _top(self.transfer_ids[a, b], [round(t, 2), h.hand_id, ""], cfg.max_evidence)
                elif -t >= cfg.min_flow:
                    _top(self.transfer_ids[b, a], [round(-t, 2), h.hand_id, ""], cfg.max_evidence)
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
        """One trial per player and hand: their first decision heads-up after the first round, when strong;
        and every heads-up flop: was it checked down to showdown (R-INTEG-4, R-INTEG-8)?"""
        first_heads_up: list[str] | None = None
        aggression_after = False
        judged: set[str] = set()
        keep = self.cfg.max_evidence
        for act in h.acts:
            if act.street < 1 or act.active != 2:
                continue
            if first_heads_up is None:
                first_heads_up = sorted((act.player, *act.others))
            aggression_after = aggression_after or act.verb in ("bet", "raise")
            if act.player in judged or act.verb == "fold":
                continue
            judged.add(act.player)
            e = act_equity(h, act)
            if e is not None and e >= self.cfg.very_strong:
                self.passive_strong.add(act.player, act.others[0], act.verb in ("check", "call"), h.hand_id, e,
                                        f"[{act.player}] only {act.verb}ed with {e:.0%} equity heads-up", keep)
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
                self.net_with.add((a, b), h.net[a] / unit)
                self.net_with.add((b, a), h.net[b] / unit)
                together = (h.net[a] + h.net[b]) / unit
                self.together.add((a, b), together)
                if together > 0:
                    _top(self.win_ids[a, b], [round(together, 2), h.hand_id, ""], 10)

    # ------------------------------------------------------------------------------------------ persistence
    def to_bytes(self) -> bytes:
        d: dict[str, Any] = {
            "format": FORMAT, "cfg": [getattr(self.cfg, f) for f in GatherConfig.__dataclass_fields__],
            "hands": self.hands, "hands_of": dict(self.hands_of), "seats": self.seats,
            "shared": {_k(p): v for p, v in self.shared.items()},
            "shared_ids": {_k(p): v for p, v in self.shared_ids.items()},
            "table_players": dict(self.table_players), "tables_of": dict(self.tables_of),
            "co_seats": dict(self.co_seats), "shared_tables": {_k(p): v for p, v in self.shared_tables.items()},
            "flow": {_k(p): v for p, v in self.flow.items()},
            "win_ids": {_k(p): v for p, v in self.win_ids.items()},
            "transfer_ids": {_k(p): v for p, v in self.transfer_ids.items()},
        }
        for name in _COUNTS:
            d[name] = getattr(self, name).to_json()
        for name, pairs in _MOMENTS.items():
            d[name] = getattr(self, name).to_json(pairs)
        return zlib.compress(json.dumps(d, separators=(",", ":")).encode(), 6)

    @classmethod
    def from_bytes(cls, blob: bytes, cfg: GatherConfig | None = None) -> ScanState | None:
        """The stored state, or None when it was counted with another format or configuration (start over)."""
        d = json.loads(zlib.decompress(blob))
        st = cls(cfg)
        if d.get("format") != FORMAT or d.get("cfg") != [getattr(st.cfg, f) for f in GatherConfig.__dataclass_fields__]:
            return None
        st.hands, st.seats = d["hands"], d["seats"]
        st.hands_of.update(d["hands_of"])
        for name in ("shared", "shared_ids", "shared_tables", "flow", "win_ids", "transfer_ids"):
            getattr(st, name).update({_unk(k): v for k, v in d[name].items()})
        st.table_players.update(d["table_players"])
        st.tables_of.update(d["tables_of"])
        st.co_seats.update(d["co_seats"])
        for name in _COUNTS:
            setattr(st, name, Counts.from_json(d[name]))
        for name, pairs in _MOMENTS.items():
            setattr(st, name, Moments.from_json(d[name], pairs))
        return st


__all__ = ["Counts", "GatherConfig", "Moments", "Pair", "ScanState"]
