"""Integrity detectors over hand records (R-INTEG-2..8, R-AAI-3): pure code between history and store.

API::

    from riverboat.integrity import hand_facts, scan, ScanConfig, Flag, facts_from_records
    flags = scan(hand_facts(r) for r in riverboat.history.load("session.phhs"))
    for f in flags:                     # most suspicious first
        f.players, f.pattern, f.score, f.hands, f.evidence   # score in [0, 1]; evidence: hand ids
        f.to_dict()                     # the JSON object of ``riverboat integrity scan --json``

Hand ids are ``<table>/<hand>`` (the PHH ``table`` and ``hand`` fields; the room writes both). See
docs/integrity.md for the statistics.
"""

from riverboat.integrity.detect import (
           PATTERNS,
           Flag,
           FlagDict,
           ScanConfig,
           ScanResult,
           evaluate_state,
           gather,
           plain,
           scan,
           scan_full,
)
from riverboat.integrity.facts import (
           Act,
           FactsError,
           HandFacts,
           equity,
           facts_from_text,
           hand_facts,
           split_hand_ref,
)
from riverboat.integrity.state import GatherConfig, ScanState

__all__ = ["PATTERNS", "Act", "FactsError", "Flag", "FlagDict", "GatherConfig", "HandFacts", "ScanConfig",
           "ScanResult", "ScanState", "equity", "evaluate_state", "facts_from_text", "gather", "hand_facts", "plain",
           "scan", "scan_full", "split_hand_ref"]
