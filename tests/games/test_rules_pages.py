"""The rules pages of every game in five languages (issue #32), generated from the games' data.

web/rules/<locale>.json is what ``python -m riverboat.games.rules_pages`` writes from games/catalog.py and the
translated sentences in games/rules_text/: the committed files must be exactly that (a change to a game's data or
to a sentence without regenerating fails here). Every room game and mixed rotation has a page in every locale with
the same structure, the pages cite rule IDs that docs/rules.md defines, and the translated sentence files have the
same keys and placeholders as the English one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from riverboat.games import GAMES
from riverboat.games.rules_pages import (
    LOCALES,
    MIXED,
    OUT_DIR,
    READINGS,
    ROOM_GAMES,
    TEXT_DIR,
    document,
    render,
)

DOCS_RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@pytest.mark.parametrize("locale", LOCALES)
def test_committed_pages_are_the_generated_ones(locale: str) -> None:
    """Issue #32: the pages stay in sync with the games' data (regenerate with python -m riverboat.games.rules_pages)."""
    assert (OUT_DIR / f"{locale}.json").read_text(encoding="utf-8") == render(locale)


def _shape(doc: dict) -> dict:
    return {gid: [(len(s["paragraphs"]), len(s["items"]), tuple(s["rules"])) for s in page["sections"]]
            for gid, page in doc["games"].items()}


def test_every_game_has_a_page_of_the_same_shape_in_every_language() -> None:
    """Issue #32: a rules page per game (and per mixed rotation) in all five languages, section for section."""
    english = document("en")
    assert english["order"] == [*ROOM_GAMES, *MIXED]
    assert set(ROOM_GAMES) == {g.id for g in GAMES.values() if "phh" not in g.tags}
    assert {"holdem", "omaha", "stud", "razz", "soko", "americana", "draw32", "triple_draw_27"} <= set(ROOM_GAMES)
    for locale in LOCALES[1:]:
        assert _shape(document(locale)) == _shape(english), locale


def test_pages_follow_the_game_data() -> None:
    """R-OMAHA-3, R-HOLDEM, R-STUD-1, R-RANK-SOKO-2: the deal has one step per street, Omaha names its hole-card
    count, Soko lists its twelve hands, and the overview cites the game's own rule IDs from the catalog."""
    doc = document("en")
    for gid in ROOM_GAMES:
        page = doc["games"][gid]["sections"]
        assert len(page[1]["items"]) == len(GAMES[gid].streets)
        assert page[0]["rules"] == GAMES[gid].rules.split()
        assert page[-1]["rules"] == list(READINGS[gid])
    omaha5 = doc["games"]["omaha5"]["sections"]
    assert any("exactly two of their 5 cards" in p for s in omaha5 for p in s["paragraphs"])
    soko_ranking = [s for s in doc["games"]["soko"]["sections"] if s["heading"] == "Hand rankings"][0]
    assert len(soko_ranking["items"]) == 12 and soko_ranking["items"][8] == "4-Flush"
    hilo = [s["heading"] for s in doc["games"]["omaha_hl"]["sections"]]
    assert "Hand rankings: the high hand" in hilo and "Hand rankings: the low hand" in hilo


def test_cited_rule_ids_are_defined_in_docs_rules() -> None:
    """The repository stands alone: every rule ID a page cites is defined in docs/rules.md."""
    defined = set(re.findall(r"\*\*(R-[A-Z0-9]+(?:-[A-Z0-9]+)*)\*\*", DOCS_RULES.read_text(encoding="utf-8")))
    areas = {re.sub(r"-\d+$", "", rid) for rid in defined}
    cited = {rid for page in document("en")["games"].values() for s in page["sections"] for rid in s["rules"]}
    missing = sorted(rid for rid in cited if rid not in defined and rid not in areas)
    assert missing == []


def test_translated_sentences_match_english_keys_and_placeholders() -> None:
    """Issue #32: every sentence in every language, with the same {placeholders} (lists: the same length)."""
    texts = {loc: json.loads((TEXT_DIR / f"{loc}.json").read_text(encoding="utf-8")) for loc in LOCALES}
    for loc in LOCALES[1:]:
        assert set(texts[loc]) == set(texts["en"]), loc
        for key, value in texts["en"].items():
            other = texts[loc][key]
            if isinstance(value, list):
                assert isinstance(other, list) and len(other) == len(value), (loc, key)
            else:
                assert set(re.findall(r"\{(\w+)\}", other)) == set(re.findall(r"\{(\w+)\}", value)), (loc, key)
