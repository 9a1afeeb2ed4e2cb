"""The detectors (R-INTEG-2..4, R-INTEG-6, R-INTEG-8): one pass over the hands gathers, for every pair of players
who shared hands, the counts each test needs; then every pair is tested against baselines taken from the whole
population (each player's own behaviour against everyone else, shrunk towards the population), and the p-values
of each pattern are corrected for the number of pairs tested (Benjamini-Hochberg). The statistics are explained in
docs/integrity.md.

Patterns:

* ``chip_dumping`` (R-INTEG-3, ordered: ``players[0]`` gave to ``players[1]``): among the big pots the giver lost
  to the receiver, how many were lost badly (a strong hand folded to the receiver's bet, a weak hand lost at
  showdown, or a big investment folded to a bet at long pot odds), against the giver's rate of such losses to
  everyone else.
* ``soft_play`` (R-INTEG-4, R-INTEG-8): heads-up with a strong hand against the partner, checking or calling
  instead of betting or raising, and heads-up pots checked down to showdown, against each player's rates with
  other opponents.
* ``collusion`` (R-INTEG-2): folding to the partner's bets and raises in multiway pots more than to anyone
  else's, and winning together in multiway pots beyond both players' own win rates, combined with the table
  overlap; raised only when one of the two play signals is there.
* ``sitting_together`` (R-INTEG-2, R-INTEG-8): sitting at the same tables beyond chance (hypergeometric over table
  seats) -- a lead for review on its own (friends who like the same table are not cheating by that alone).
* ``artificial_allin_abuse`` (R-AAI-3, R-INTEG-6, one player): artificial all-ins beyond the population's rate.
* ``multi_accounting`` (R-INTEG-7, R-ALIAS-3): two accounts seen on the same device or address (when the caller
  has that data).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from riverboat.integrity.facts import Act, HandFacts, act_equity, equity
from riverboat.integrity.stats import (
    bh_adjust,
    binom_sf,
    fisher_combine,
    hypergeom_sf,
    normal_sf,
    shrunk_rate,
)

Pair = tuple[str, str]
PATTERNS = ("chip_dumping", "soft_play", "collusion", "sitting_together", "artificial_allin_abuse", "multi_accounting")


class FlagDict(TypedDict):
    players: list[str]
    pattern: str
    score: float
    hands: int
    evidence: list[str]
    p_value: float
    detail: dict[str, float]


@dataclass(frozen=True, slots=True)
class Flag:
    """One suspicion: ``score`` in [0, 1] is one minus the pattern's Benjamini-Hochberg adjusted p-value."""

    players: tuple[str, ...]
    pattern: str
    score: float
    hands: int
    evidence: tuple[str, ...]
    p_value: float
    detail: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self) -> FlagDict:
        return {"players": list(self.players), "pattern": self.pattern, "score": round(self.score, 6),
                "hands": self.hands, "evidence": list(self.evidence), "p_value": self.p_value,
                "detail": {k: round(v, 4) for k, v in self.detail.items()}}


@dataclass(frozen=True, slots=True)
class ScanConfig:
    min_hands: int = 30  # shared hands before a pair is tested
    alpha: float = 0.01  # false discovery rate per pattern
    strong: float = 0.62  # equity (vs one random hand) that makes a hand strong
    weak: float = 0.35  # and weak
    very_strong: float = 0.75  # a hand that should bet heads-up
    big_pot: float = 8.0  # a big pot: at least this many big blinds went from one player to the other
    long_odds: float = 0.2  # folding a big investment when the call costs at most this share of the pot
    behaviour_gate: float = 0.05  # collusion needs folding-to or winning-together at least this significant
    prior_weight: float = 20.0  # the weight (in trials) of the population rate in a player's baseline
    max_evidence: int = 25


@dataclass(slots=True)
class _Counts:
    """Hits and trials of one behaviour, per (actor, opponent) and per actor in total."""

    hits: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    trials: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    hits_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    trials_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    evidence: dict[Pair, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, actor: str, other: str, hit: bool, hand_id: str) -> None:
        self.trials[actor, other] += 1
        self.trials_of[actor] += 1
        if hit:
            self.hits[actor, other] += 1
            self.hits_of[actor] += 1
            ev = self.evidence[actor, other]
            if not ev or ev[-1] != hand_id:
                ev.append(hand_id)

    def population_rate(self) -> float:
        t = sum(self.trials_of.values())
        return sum(self.hits_of.values()) / t if t else 0.0

    def test(self, a: str, b: str, prior: float, weight: float) -> tuple[float, int, int, float]:
        """One-sided test that ``a`` does it to ``b`` more than to others: (p, hits, trials, expected)."""
        k, n = self.hits.get((a, b), 0), self.trials.get((a, b), 0)
        if n == 0:
            return 1.0, 0, 0, 0.0
        p0 = shrunk_rate(self.hits_of[a] - k, self.trials_of[a] - n, prior, weight)
        return binom_sf(k, n, p0), k, n, n * p0

    def test_pair(self, a: str, b: str, prior: float, weight: float) -> tuple[float, int, int, float]:
        """Both directions pooled: observed hits of a->b and b->a against their summed expectations."""
        ka, na = self.hits.get((a, b), 0), self.trials.get((a, b), 0)
        kb, nb = self.hits.get((b, a), 0), self.trials.get((b, a), 0)
        n = na + nb
        if n == 0:
            return 1.0, 0, 0, 0.0
        pa = shrunk_rate(self.hits_of[a] - ka, self.trials_of[a] - na, prior, weight)
        pb = shrunk_rate(self.hits_of[b] - kb, self.trials_of[b] - nb, prior, weight)
        expected = na * pa + nb * pb
        return binom_sf(ka + kb, n, expected / n), ka + kb, n, expected


@dataclass(slots=True)
class _Gather:
    cfg: ScanConfig
    shared: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    shared_ids: dict[Pair, list[str]] = field(default_factory=lambda: defaultdict(list))
    hands_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    bad_loss: _Counts = field(default_factory=_Counts)  # chip dumping: (giver, receiver)
    flow: dict[Pair, float] = field(default_factory=lambda: defaultdict(float))  # in big blinds
    passive_strong: _Counts = field(default_factory=_Counts)  # soft play: heads-up with a strong hand
    checkdown: _Counts = field(default_factory=_Counts)  # heads-up flops checked down
    fold_multi: _Counts = field(default_factory=_Counts)  # collusion: folds to a bet/raise in multiway pots
    tables_of: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    table_size: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    net_multi: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # per player, per hand
    net_multi_with: dict[Pair, list[float]] = field(default_factory=lambda: defaultdict(list))  # a's net, b present
    win_together_ids: dict[Pair, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))
    aai: _Counts = field(default_factory=_Counts)  # (player, player): artificial all-ins per hand
    aai_facing: _Counts = field(default_factory=_Counts)  # (player, player): of those, facing a bet

    def hand(self, h: HandFacts) -> None:
        players = sorted(h.players)
        for p in players:
            self.hands_of[p] += 1
            self.tables_of[p].add(h.table)
            self.table_size[h.table].add(p)
            self.aai.add(p, p, p in h.artificial_allin, h.hand_id)
        for p, facing in zip(h.artificial_allin, h.aai_facing, strict=True):  # R-AAI-3: saved from a decision?
            self.aai_facing.add(p, p, facing, h.hand_id)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                self.shared[a, b] += 1
                if len(self.shared_ids[a, b]) < self.cfg.max_evidence:
                    self.shared_ids[a, b].append(h.hand_id)
        self._dumping(h)
        self._soft_play(h)
        self._multiway(h)

    # -- chip dumping
    def _dumping(self, h: HandFacts) -> None:
        unit = max(h.unit, 1)
        for (giver, receiver), chips in h.flows().items():
            self.flow[giver, receiver] += chips / unit
            if chips / unit < self.cfg.big_pot:
                continue
            self.bad_loss.add(giver, receiver, self._lost_badly(h, giver, receiver), h.hand_id)

    def _lost_badly(self, h: HandFacts, giver: str, receiver: str) -> bool:
        cfg = self.cfg
        mine = [a for a in h.acts if a.player == giver]
        last = mine[-1] if mine else None
        if last is not None and last.verb == "fold" and last.facing == receiver:
            e = act_equity(h, last)
            if e is not None and e >= cfg.strong:
                return True  # a strong hand folded to the receiver's bet
            if last.price <= cfg.long_odds and -h.net[giver] >= cfg.big_pot * h.unit:
                return True  # a big investment given up for a cheap call
            return False
        if giver in h.showdown and h.holdem and giver in h.holes and len(h.board) == 5:
            aggressive = any(a.verb in ("bet", "raise") for a in mine)
            return aggressive and equity(h.holes[giver], h.board) < cfg.weak  # bet big with nothing, lost
        return False

    # -- soft play
    def _soft_play(self, h: HandFacts) -> None:
        """One trial per player and hand: their first decision heads-up after the first round, when strong;
        and every heads-up flop: was it checked down to showdown (R-INTEG-8)?"""
        first_heads_up: list[str] | None = None
        aggression_after = False
        judged: set[str] = set()
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
                self.passive_strong.add(act.player, act.others[0], act.verb in ("check", "call"), h.hand_id)
        if first_heads_up is not None:
            a, b = first_heads_up
            checked_down = not aggression_after and set(h.showdown) == {a, b}
            self.checkdown.add(a, b, checked_down, h.hand_id)
            self.checkdown.add(b, a, checked_down, h.hand_id)

    # -- collusion
    def _multiway(self, h: HandFacts) -> None:
        faced: dict[Pair, bool] = {}
        for act in h.acts:  # one trial per (player, bettor) and hand: did the player fold to that bettor?
            if act.facing is not None and act.active >= 3 and act.facing != act.player:
                key = (act.player, act.facing)
                faced[key] = faced.get(key, False) or act.verb == "fold"
        for (player, bettor), folded in faced.items():
            self.fold_multi.add(player, bettor, folded, h.hand_id)
        if len(h.players) < 3:
            return
        unit = max(h.unit, 1)
        for p in h.players:
            self.net_multi[p].append(h.net[p] / unit)
        ordered = sorted(h.players)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                self.net_multi_with[a, b].append(h.net[a] / unit)
                self.net_multi_with[b, a].append(h.net[b] / unit)
                together = (h.net[a] + h.net[b]) / unit
                if together > 0:
                    self.win_together_ids[a, b].append((together, h.hand_id))


def _mean_var(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)


@dataclass(slots=True)
class _Candidate:
    players: tuple[str, ...]
    pattern: str
    p: float
    hands: int
    evidence: list[str]
    detail: dict[str, float]


class _Tests:
    def __init__(self, g: _Gather) -> None:
        self.g = g
        self.cfg = g.cfg
        self.rates = {name: c.population_rate() for name, c in (
            ("bad_loss", g.bad_loss), ("passive", g.passive_strong), ("checkdown", g.checkdown),
            ("fold", g.fold_multi), ("aai", g.aai))}
        self.seats = sum(len(v) for v in g.table_size.values())

    def pairs(self) -> list[Pair]:
        return [pair for pair, n in self.g.shared.items() if n >= self.cfg.min_hands]

    def dumping(self, a: str, b: str) -> list[_Candidate]:
        out = []
        for giver, receiver in ((a, b), (b, a)):
            p, k, n, expected = self.g.bad_loss.test(giver, receiver, self.rates["bad_loss"], self.cfg.prior_weight)
            net = self.g.flow.get((giver, receiver), 0.0) - self.g.flow.get((receiver, giver), 0.0)
            if n == 0 or net <= 0:
                continue
            out.append(_Candidate((giver, receiver), "chip_dumping", p, self.g.shared[a, b],
                                  self.g.bad_loss.evidence[giver, receiver],
                                  {"bad_losses": k, "big_losses": n, "expected": expected, "net_bb": net}))
        return out

    def soft_play(self, a: str, b: str) -> _Candidate | None:
        w = self.cfg.prior_weight
        p1, k1, n1, e1 = self.g.passive_strong.test_pair(a, b, self.rates["passive"], w)
        p2, k2, n2, e2 = self.g.checkdown.test(a, b, self.rates["checkdown"], w)
        if n1 + n2 == 0:
            return None
        tests = [p for p, n in ((p1, n1), (p2, n2)) if n]
        evidence = sorted(set(self.g.passive_strong.evidence[a, b] + self.g.passive_strong.evidence[b, a]
                              + self.g.checkdown.evidence[a, b]))
        return _Candidate((a, b), "soft_play", fisher_combine(tests), self.g.shared[a, b], evidence,
                          {"passive_strong": k1, "strong_heads_up": n1, "passive_expected": e1,
                           "checkdowns": k2, "heads_up_flops": n2, "checkdown_expected": e2})

    def collusion(self, a: str, b: str) -> list[_Candidate]:
        """``sitting_together`` (table overlap alone: a lead, not proof) and ``collusion`` (play together: folding
        to each other in multiway pots, winning together; with the overlap when one of those is there)."""
        g, w = self.g, self.cfg.prior_weight
        shared_tables = len(g.tables_of[a] & g.tables_of[b])
        ta, tb = len(g.tables_of[a]), len(g.tables_of[b])
        co_seats = sum(len(g.table_size[t]) - 1 for t in g.tables_of[a])
        p_sit = hypergeom_sf(shared_tables, self.seats - ta, tb, co_seats)
        sit = _Candidate((a, b), "sitting_together", p_sit, g.shared[a, b], list(g.shared_ids[a, b]),
                         {"shared_tables": shared_tables, "tables_a": ta, "tables_b": tb,
                          "expected_tables": co_seats * tb / max(1, self.seats - ta)})
        p_fold, k_fold, n_fold, e_fold = g.fold_multi.test_pair(a, b, self.rates["fold"], w)
        p_win, z = self._win_together(a, b)
        gated = min(p_fold, p_win) > self.cfg.behaviour_gate  # no play signal: tested with p = 1 (m stays whole)
        evidence = sorted(set(g.fold_multi.evidence[a, b] + g.fold_multi.evidence[b, a]))
        evidence += [hid for _, hid in sorted(g.win_together_ids[a, b], reverse=True)[:10] if hid not in evidence]
        p = 1.0 if gated else fisher_combine([p_sit, p_fold, p_win])
        return [sit, _Candidate((a, b), "collusion", p, g.shared[a, b],
                                evidence, {"shared_tables": shared_tables, "p_sit": p_sit, "folds_to_partner": k_fold,
                                           "faced_partner": n_fold, "folds_expected": e_fold, "win_together_z": z})]

    def _win_together(self, a: str, b: str) -> tuple[float, float]:
        """z of the pair's combined result in multiway hands together against their results without each
        other."""
        g = self.g
        with_a, with_b = g.net_multi_with.get((a, b), []), g.net_multi_with.get((b, a), [])
        n = len(with_a)
        if n < 2:
            return 1.0, 0.0
        all_a, all_b = g.net_multi[a], g.net_multi[b]
        base_a = (sum(all_a) - sum(with_a)) / max(1, len(all_a) - n)
        base_b = (sum(all_b) - sum(with_b)) / max(1, len(all_b) - n)
        combined = [x + y for x, y in zip(with_a, with_b, strict=True)]
        _, var = _mean_var(combined)
        if var <= 0:
            return 1.0, 0.0
        z = (sum(combined) - n * (base_a + base_b)) / (var * n) ** 0.5
        return normal_sf(z), z

    def aai(self, p: str) -> _Candidate | None:
        c = self.g.aai
        k, n = c.hits.get((p, p), 0), c.trials.get((p, p), 0)
        if k == 0 or n < self.cfg.min_hands:
            return None
        total_k, total_n = sum(c.hits_of.values()) - k, sum(c.trials_of.values()) - n
        rate = (total_k + 1) / (total_n + 2)  # the rest of the population, with a uniform prior
        f = self.g.aai_facing  # the share of them that came just when a bet was to be called or folded
        kf, nf = f.hits.get((p, p), 0), f.trials.get((p, p), 0)
        rate_f = (sum(f.hits_of.values()) - kf + 1) / (sum(f.trials_of.values()) - nf + 2)
        p_value = fisher_combine([binom_sf(k, n, rate), binom_sf(kf, nf, rate_f)])
        return _Candidate((p,), "artificial_allin_abuse", p_value, n, c.evidence[p, p],
                          {"artificial_allins": k, "expected": n * rate, "facing_a_bet": kf,
                           "facing_expected": nf * rate_f})


@dataclass(frozen=True, slots=True)
class ScanResult:
    flags: list[Flag]
    hands: int
    players: int
    tested_pairs: list[Pair]  # the pairs who shared at least ``min_hands`` hands


def scan(hands: Iterable[HandFacts], config: ScanConfig | None = None,
         devices: Mapping[str, Iterable[str]] | None = None,
         progress: Callable[[], None] | None = None) -> list[Flag]:
    """Every flag the hands (and, when given, each player's devices/addresses) raise, most suspicious first."""
    return scan_full(hands, config, devices, progress).flags


def scan_full(hands: Iterable[HandFacts], config: ScanConfig | None = None,
              devices: Mapping[str, Iterable[str]] | None = None,
              progress: Callable[[], None] | None = None) -> ScanResult:
    """:func:`scan` with what was scanned (hands, players, pairs tested)."""
    cfg = config or ScanConfig()
    g = _Gather(cfg)
    count = 0
    for h in hands:
        g.hand(h)
        count += 1
        if progress is not None:
            progress()
    t = _Tests(g)
    by_pattern: dict[str, list[_Candidate]] = defaultdict(list)
    for a, b in t.pairs():
        by_pattern["chip_dumping"].extend(t.dumping(a, b))
        sp = t.soft_play(a, b)
        if sp is not None:
            by_pattern["soft_play"].append(sp)
        for pc in t.collusion(a, b):
            by_pattern[pc.pattern].append(pc)
    for p in sorted(g.hands_of):
        c = t.aai(p)
        if c is not None:
            by_pattern["artificial_allin_abuse"].append(c)
    flags = [f for cands in by_pattern.values() for f in _corrected(cands, cfg)]
    flags += _shared_devices(g, devices or {}, cfg)
    flags.sort(key=lambda f: (-f.score, f.p_value, f.players))
    return ScanResult(flags, count, len(g.hands_of), t.pairs())


def _corrected(cands: list[_Candidate], cfg: ScanConfig) -> list[Flag]:
    qs = bh_adjust([c.p for c in cands])
    return [Flag(c.players, c.pattern, 1.0 - q, c.hands, tuple(c.evidence[:cfg.max_evidence]), c.p,
                 dict(c.detail, q_value=q))
            for c, q in zip(cands, qs, strict=True) if q <= cfg.alpha]


def _shared_devices(g: _Gather, devices: Mapping[str, Iterable[str]], cfg: ScanConfig) -> list[Flag]:
    """Multi-accounting (R-INTEG-7): two accounts on one device or address. Not a statistical test: the score is
    0.9 when they also played together (one person at two seats), 0.6 otherwise."""
    seen: dict[str, list[str]] = defaultdict(list)
    for player, keys in devices.items():
        for key in set(keys):
            seen[key].append(player)
    flags: dict[Pair, Flag] = {}
    for players in seen.values():
        players = sorted(players)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                n = g.shared.get((a, b), 0)
                prev = flags.get((a, b))
                shared_keys = (int(prev.detail["shared_devices"]) if prev else 0) + 1
                flags[a, b] = Flag((a, b), "multi_accounting", 0.9 if n else 0.6, n,
                                   tuple(g.shared_ids.get((a, b), [])[:cfg.max_evidence]), 0.0,
                                   {"shared_devices": shared_keys})
    return list(flags.values())


__all__ = ["PATTERNS", "Act", "Flag", "FlagDict", "ScanConfig", "ScanResult", "scan", "scan_full"]
