"""The Twister family (RULES.md section 21): Twister, Age of the Gods Twister and Wild Twister, as pure code.

Layer: pure, between ``riverboat.engine`` and ``riverboat.store`` (it imports only the engine's action types;
never the store, the room or the server, which import it). What it holds:

* :mod:`~riverboat.twister.tables` - the published prize tables (``prize_tables.json``, R-TWIST-7, R-AOG-7,
  R-WILD-3) as exact integer weights (normalisation of R-TWIST-8 / R-AOG-8); ``table_for(kind, buy_in)``.
* :mod:`~riverboat.twister.draw` - the CSPRNG draws (one code path, seedable): ``draw_multiplier``,
  ``draw_from_deck`` (Wild Twister's 250,000-game cycle, R-WILD-4), ``split_prize`` (R-TWIST-5),
  ``sample_counts`` (what ``riverboat twister draws`` prints).
* :mod:`~riverboat.twister.jackpot` - the Age of the Gods jackpot: contributions in integer minor units and the
  trigger / tier draws (R-AOG-3..6, R-WALLET-9).
* :mod:`~riverboat.twister.settings` - ``TwisterSettings`` (every CONFLICT a setting with its default).
* :mod:`~riverboat.twister.structure` - the turbo blind structures (``structures.json``, 500 / 100 chips).
* :mod:`~riverboat.twister.wild` - ``wild_action(legal)``: Wild Twister's automatic all-in (R-WILD-2).
* :mod:`~riverboat.twister.events` - ``SpinEvent``: the ``twister_spin`` event shown before the first hand.

The money (pool balancing, jackpot pools, Wild tickets) and the audit trail of every draw are in
:mod:`riverboat.store.twister`. The figures and their derivations are in ``docs/twister.md``.
"""

from __future__ import annotations

from riverboat.twister.draw import (
    BitSource,
    DeckState,
    Draw,
    draw_from_deck,
    draw_multiplier,
    multiplier_at,
    sample_counts,
    split_prize,
    system_source,
    uniform_below,
)
from riverboat.twister.errors import TwisterError
from riverboat.twister.settings import TIERS, TwisterSettings
from riverboat.twister.tables import KINDS, SEATS, PrizeRow, PrizeTable, load_tables, table_by_name, table_for

__all__ = [
    "KINDS",
    "SEATS",
    "TIERS",
    "BitSource",
    "DeckState",
    "Draw",
    "PrizeRow",
    "PrizeTable",
    "TwisterError",
    "TwisterSettings",
    "draw_from_deck",
    "draw_multiplier",
    "load_tables",
    "multiplier_at",
    "sample_counts",
    "split_prize",
    "system_source",
    "table_by_name",
    "table_for",
    "uniform_below",
]
