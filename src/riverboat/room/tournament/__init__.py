"""Tournaments: Sit & Go's and multi-table tournaments of every kind (RULES.md section 20, R-FEE, R-TOURN-*).

Pure parts (no clock, no I/O; the director passes ``now``):

- :mod:`~riverboat.room.tournament.spec`: a tournament described as data (:class:`TournamentSpec`);
- :mod:`~riverboat.room.tournament.payouts` + ``payouts.json``: payout structures growing with the field;
- :mod:`~riverboat.room.tournament.levels`: the level clock (levels by time or by hands, breaks, pauses);
- :mod:`~riverboat.room.tournament.lifecycle`: scheduled -> registering -> running -> final table -> finished;
- :mod:`~riverboat.room.tournament.ranking`: places at elimination (R-TOURN-GEN-6), shared prizes, eliminators;
- :mod:`~riverboat.room.tournament.balancing`: table balancing (R-TOURN-BAL) in O(seats) per step;
- :mod:`~riverboat.room.tournament.compensation`: interrupted tournaments (R-TOURN-INT).
"""

from riverboat.room.tournament.spec import (
    Flight,
    Knockout,
    Level,
    Private,
    Rebuy,
    Satellite,
    SpecError,
    TournamentSpec,
)

__all__ = ["Flight", "Knockout", "Level", "Private", "Rebuy", "Satellite", "SpecError", "TournamentSpec"]
