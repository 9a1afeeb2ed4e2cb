"""The Twister family in the room (RULES.md section 21; issue #12 phase B): Twister, Age of the Gods Twister and
Wild Twister as variants of the tournament director (:mod:`riverboat.room.tournament.variants`).

* :mod:`.variants` -- :class:`TwisterVariant` (one per type, registered as ``twister``, ``aog``, ``wild``): the
  tournament is declared by ``store.twister.create``; once the three players are seated at random (R-TWIST-2) and
  before the first hand the prize is spun with the CSPRNG in the store (``store.twister.spin``: multiplier, AoG
  jackpot contributions and triggers, the draw stored for audit) and shown to the table as a ``twister_spin``
  tournament event (R-TWIST-3); the tournament pauses while a jackpot game runs (R-AOG-3); Wild Twister plays
  every player all-in (R-WILD-2) and pays a Twister ticket (R-WILD-1).
* :mod:`.spec` -- :func:`twister_spec`: the Sit & Go description of a type and buy-in (3 seats, NL Hold'em turbo,
  500 / 100 chips, R-TWIST-1, R-AOG-1).
* :mod:`.offers` -- :class:`TwisterOffers`: the lobby's "Play" (R-TWIST-11): one open Sit & Go per type and buy-in,
  the next opens when one starts (R-TOURN-SNG-1).
* :mod:`.interrupt` -- an interrupted Twister compensated by R-TOURN-INT-9/10.
"""

from __future__ import annotations

from riverboat.room.twister.spec import twister_spec
from riverboat.room.twister.variants import VARIANTS, TwisterVariant

__all__ = ["VARIANTS", "TwisterVariant", "twister_spec"]
