"""Names like people's for the demo bots: :func:`riverboat.store.person_names.person_alias` (kept here for the
bots' code and tests)."""

from riverboat.store.person_names import FIRST, STYLE, person_alias

__all__ = ["FIRST", "STYLE", "person_alias"]
