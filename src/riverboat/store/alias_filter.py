"""The offensive-alias filter (R-ALIAS-4): a small shipped word list matched after normalising case, digits used
as letters ("leetspeak") and repeated letters."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from importlib import resources

_LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t", "8": "b", "9": "g", "2": "z"}
_LEET_ALT = {"1": "l", "9": "q", "6": "b"}


def _squeeze(text: str) -> str:
    """Collapse runs of the same letter: 'biiitch' -> 'bitch' (also applied to the word list)."""
    return "".join(ch for ch, _ in itertools.groupby(text))


def normal_forms(alias: str) -> set[str]:
    """Every reading of ``alias`` the filter checks: lower-cased, digits read as letters (both readings of the
    ambiguous ones), repeated letters collapsed; also the letters alone with digits dropped."""
    low = alias.lower()
    forms = {
        "".join(_LEET.get(c, c) for c in low),
        "".join(_LEET_ALT.get(c, _LEET.get(c, c)) for c in low),
        re.sub(r"[0-9]", "", low),
    }
    return {_squeeze(f) for f in forms if f}


@lru_cache(maxsize=1)
def word_lists() -> tuple[frozenset[str], frozenset[str]]:
    """(words refused anywhere, words refused as the whole alias), both squeezed."""
    text = resources.files("riverboat.store").joinpath("offensive_words.txt").read_text(encoding="utf-8")
    anywhere: set[str] = set()
    whole: set[str] = set()
    for line in text.splitlines():
        line = line.strip().lower()
        if not line or line.startswith("#"):
            continue
        if line.startswith("="):
            whole.add(_squeeze(line[1:]))
        else:
            anywhere.add(_squeeze(line))
    return frozenset(anywhere), frozenset(whole)


def offensive_word(alias: str) -> str | None:
    """The offensive word found in ``alias``, or ``None`` if it is clean."""
    anywhere, whole = word_lists()
    for form in sorted(normal_forms(alias)):
        for word in sorted(anywhere):
            if word in form:
                return word
        stripped = re.sub(r"[0-9]", "", alias.lower())
        for candidate in {form, _squeeze(stripped)}:
            if candidate in whole:
                return candidate
    return None
