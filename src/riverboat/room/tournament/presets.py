"""Ready-made tournament descriptions: a standard blind progression and Sit & Go / MTT templates (the demo, the
simulate command and the tests start from these; an operator writes their own JSON)."""

from __future__ import annotations

from typing import Any

from riverboat.room.tournament.spec import Level, TournamentSpec

# Big blinds of the standard progression (each level about 1.3-1.5x the last), in chips.
_BIG_BLINDS = (20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000,
               4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000, 25000, 30000, 40000, 50000, 60000, 80000,
               100_000, 120_000, 150_000, 200_000, 250_000, 300_000, 400_000, 500_000, 600_000, 800_000,
               1_000_000, 1_500_000, 2_000_000, 3_000_000, 4_000_000, 6_000_000, 8_000_000, 10_000_000)


def standard_levels(*, scale: int = 1, antes_from: int = 4, stud: bool = False) -> tuple[Level, ...]:
    """The standard progression times ``scale``: small blind half the big blind; from level ``antes_from``
    (0-based) an ante of an eighth of the big blind. For stud games (``stud``): ante, bring-in and completion
    (small bet) instead of blinds."""
    out = []
    for i, bb in enumerate(_BIG_BLINDS):
        bb *= scale
        ante = bb // 8 if i >= antes_from else 0
        if stud:
            ante = max(1, bb // 8)
            out.append(Level(small_blind=bb // 2, big_blind=bb, ante=ante, bring_in=max(ante, bb // 4),
                             small_bet=bb, big_bet=2 * bb))
        else:
            out.append(Level(small_blind=bb // 2, big_blind=bb, ante=ante))
    return tuple(out)


def sit_and_go(name: str = "Sit & Go", *, seats: int = 9, buy_in: int = 1000, fee: int = 100,
               starting_stack: int = 1500, level_seconds: float = 300.0, **extra: Any) -> TournamentSpec:
    """A Sit & Go of ``seats`` players (R-TOURN-SNG): starts when full, pays per the ``sng`` table."""
    payout = "sng" if seats <= 10 else "mtt"
    fields: dict[str, Any] = dict(name=name, kind="sng", seats=seats, buy_in=buy_in, fee=fee,
                                  starting_stack=starting_stack, levels=standard_levels(), min_entrants=seats,
                                  level_seconds=level_seconds, payout=payout)
    fields.update(extra)
    spec = TournamentSpec(**fields)
    return spec.but()


def scheduled_mtt(name: str = "Tournament", *, starts_at: float, seats: int = 9, buy_in: int = 1000,
                  fee: int = 100, starting_stack: int = 5000, level_seconds: float = 600.0,
                  **extra: Any) -> TournamentSpec:
    """A multi-table tournament at a fixed start time (R-TOURN-MTT-2), paying per the ``mtt`` table."""
    fields: dict[str, Any] = dict(name=name, kind="mtt", seats=seats, buy_in=buy_in, fee=fee,
                                  starting_stack=starting_stack, levels=standard_levels(), starts_at=starts_at,
                                  level_seconds=level_seconds, payout="mtt")
    fields.update(extra)
    spec = TournamentSpec(**fields)
    return spec.but()
