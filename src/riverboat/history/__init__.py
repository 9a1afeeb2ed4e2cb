"""Hand histories in the PHH format: read, write, map variant codes, replay through the engine.

API::

    from riverboat.history import load, loads, dumps, dumps_many, replay, PhhHand, PhhError, ReplayResult
    from riverboat.history import hand_to_phh, resolve_variant, user_code, PHH_VARIANTS
    for record in load("hand.phh"):          # .phh: one hand; .phhs: several ([1], [2]...)
        result = replay(record)              # ReplayResult: match, finishing_stacks, expected, error
    text = hand_to_phh(hand, table="T1", hand=42, players={1: "ann", 3: "bob"})   # PHH text of an engine Hand
    fields = phh_fields(hand)                # the same as a dict; loads(text)[0] reads it back for replay()
"""

from riverboat.history.phh import (
    PHH_VARIANTS,
    USER_PREFIX,
    PhhError,
    PhhHand,
    dumps,
    dumps_many,
    load,
    loads,
    resolve_variant,
    user_code,
)
from riverboat.history.replay import ReplayResult, build_deck, config_from_phh, replay
from riverboat.history.writer import hand_to_phh, phh_fields

__all__ = [
    "PHH_VARIANTS",
    "USER_PREFIX",
    "PhhError",
    "PhhHand",
    "ReplayResult",
    "build_deck",
    "config_from_phh",
    "dumps",
    "dumps_many",
    "hand_to_phh",
    "load",
    "phh_fields",
    "loads",
    "replay",
    "resolve_variant",
    "user_code",
]
