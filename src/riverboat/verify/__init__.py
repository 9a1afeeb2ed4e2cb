"""Verification of the rules engine: the differential harness against PokerKit and random-play helpers.

Usable from tests and scripts (PokerKit is a test-only dependency and is imported lazily by
:mod:`riverboat.verify.pokerkit_side`)::

    from riverboat.verify.differential import play_hand, run
    outcome = play_hand("NT", seed=7)      # one hand on both engines; outcome.ok, outcome.known, .reproduction()
    summary = run("FO/8", hands=1000, seed=0)   # summary.failures, summary.known, summary.to_dict()

Modules: :mod:`~riverboat.verify.decisions` (neutral decisions/actions, the seeded random actor),
:mod:`~riverboat.verify.setups` (variant table, reproducible random set-ups),
:mod:`~riverboat.verify.pokerkit_side`, :mod:`~riverboat.verify.riverboat_side`,
:mod:`~riverboat.verify.known` (recognisers of the documented rule differences),
:mod:`~riverboat.verify.differential` (the comparison), :mod:`~riverboat.verify.randomplay` (engine-only random
hands for every game and structure, used by ``riverboat simulate`` and the property tests).
"""
