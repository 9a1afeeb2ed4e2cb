"""What a finished hand returns: each pot's award and the hand's result (``Hand.result``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from riverboat.engine.views import PotView, ResultView, Share, WinningHand


@dataclass(slots=True)
class PotAward:
    """How one pot (or half of it, or one run of it) was won."""

    amount: int
    eligible: list[int]  # seats
    winners: dict[int, int]  # seat -> chips won
    share: Share = "all"  # "all", "high", "low", "split" (R-SPLIT agreement)
    run: int = 0  # run it twice: 0 or 1
    hands: dict[int, WinningHand] = field(default_factory=dict)  # seat -> winning cards and label (showdown only)

    def to_dict(self) -> PotView:
        out: PotView = {"amount": self.amount, "eligible": self.eligible, "winners": self.winners,
                        "share": self.share, "run": self.run}
        if self.hands:
            out["hands"] = self.hands
        return out


@dataclass(slots=True)
class HandResult:
    stacks: dict[int, int]  # seat -> final stack
    net: dict[int, int]  # seat -> final - initial
    pots: list[PotAward]
    rake: int
    shown: dict[int, list[str]] = field(default_factory=dict)
    labels: dict[int, str] = field(default_factory=dict)
    showdown: bool = False

    def to_dict(self) -> ResultView:
        return {
            "stacks": self.stacks,
            "net": self.net,
            "rake": self.rake,
            "pots": [p.to_dict() for p in self.pots],
            "shown": self.shown,
            "labels": self.labels,
            "showdown": self.showdown,
        }
