"""Score the integrity detectors on a simulated population (docs/integrity.md): precision and recall on the planted
pairs, false positives among honest pairs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from riverboat.integrity import Flag

from .collusion import Plant

MODE_PATTERN = {"dump": "chip_dumping", "soft": "soft_play", "bubble": "chip_dumping"}


@dataclass(frozen=True, slots=True)
class Evaluation:
    planted: int
    detected: int  # planted pairs flagged with their own pattern
    pair_flags: int  # flags on two players (any pattern)
    true_flags: int  # pair flags on a planted pair
    honest_pairs: int  # pairs of two honest players who shared enough hands to be tested
    honest_flagged: int  # of those, flagged with any pattern
    by_plant: dict[str, bool]
    friends_flagged: int = 0  # honest pairs who sit together often, flagged with any pattern

    @property
    def recall(self) -> float:
        return self.detected / self.planted if self.planted else 1.0

    @property
    def precision(self) -> float:
        return self.true_flags / self.pair_flags if self.pair_flags else 1.0

    @property
    def honest_fp_rate(self) -> float:
        return self.honest_flagged / self.honest_pairs if self.honest_pairs else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"planted": self.planted, "detected": self.detected, "recall": round(self.recall, 4),
                "pair_flags": self.pair_flags, "precision": round(self.precision, 4),
                "honest_pairs": self.honest_pairs, "honest_flagged": self.honest_flagged,
                "honest_fp_rate": round(self.honest_fp_rate, 5), "friends_flagged": self.friends_flagged,
                "by_plant": self.by_plant}


def evaluate(flags: Sequence[Flag], plants: Sequence[Plant], tested_pairs: Sequence[tuple[str, str]],
             friends: Sequence[tuple[str, str]] = ()) -> Evaluation:
    """Recall: planted pairs flagged with their own pattern (a dumping pair: giver first). Precision: the share of
    pair flags that name exactly a planted pair. Honest pairs (friends who sit together included) should raise
    nothing."""
    cheaters = {p.a for p in plants} | {p.b for p in plants}
    planted = {frozenset((p.a, p.b)): p for p in plants}
    by_plant: dict[str, bool] = {}
    for p in plants:
        hit = any(f.pattern == MODE_PATTERN[p.mode] and set(f.players) == {p.a, p.b}
                  and (p.mode == "soft" or f.players == (p.a, p.b)) for f in flags)
        by_plant[f"{p.mode}:{p.strength}:{p.a}-{p.b}"] = hit
    pair_flags = [f for f in flags if len(f.players) == 2]
    true_flags = [f for f in pair_flags if frozenset(f.players) in planted]
    honest = [pair for pair in tested_pairs if not set(pair) & cheaters]
    flagged_pairs = {frozenset(f.players) for f in pair_flags}
    honest_flagged = sum(1 for pair in honest if frozenset(pair) in flagged_pairs)
    friends_flagged = sum(1 for pair in friends if frozenset(pair) in flagged_pairs)
    return Evaluation(len(plants), sum(by_plant.values()), len(pair_flags), len(true_flags), len(honest),
                      honest_flagged, by_plant, friends_flagged)
