"""The rules page of every game, in every language of the client (issue #32), built from the games' data.

Each page is assembled from the game's definition in :mod:`riverboat.games.catalog` (deck, streets, forced bets,
structures, rankings, card use, odd chip, split agreement, run it twice, rule IDs) and the translated sentences in
``rules_text/<locale>.json``, so a change to a game's data changes its page in all five languages at once. The room's
readings of the CONFLICT/UNCLEAR points of the rules (docs/rules.md) are listed per game with their rule IDs.

The result is ``web/rules/<locale>.json`` (read by the browser's ``rules_view.js``); regenerate it with
``python -m riverboat.games.rules_pages`` (tests/games/test_rules_pages.py fails while it is out of date).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from riverboat.games.catalog import GAMES, BringIn, Game, Kind, OddChip
from riverboat.games.rotation import MIXED_ROTATIONS
from riverboat.games.structures import Structure

LOCALES = ("en", "lv", "ru", "lt", "fi")
TEXT_DIR = Path(__file__).resolve().parent / "rules_text"
OUT_DIR = Path(__file__).resolve().parents[1] / "web" / "rules"

#: the games of the room, in the lobby's order (the PHH-only variants have no page)
ROOM_GAMES: tuple[str, ...] = tuple(g.id for g in GAMES.values() if "phh" not in g.tags)
MIXED: tuple[str, ...] = tuple(MIXED_ROTATIONS)

#: the rule IDs with a room reading (CONFLICT / UNCLEAR points of docs/rules.md) that matter for each game
READINGS: dict[str, tuple[str, ...]] = {
    "holdem": ("R-HOLDEM-1", "R-HOLDEM-8", "R-BLIND-3", "R-STRADDLE-2", "R-RIT-2", "R-LIMIT-GEN-2", "R-ODD-1"),
    "omaha": ("R-OMAHA-4", "R-TABLE-2", "R-HOLDEM-8", "R-PL-4", "R-BLIND-3", "R-LIMIT-GEN-2", "R-ODD-1"),
    "omaha5": ("R-TABLE-2", "R-HOLDEM-8", "R-PL-4", "R-BLIND-3", "R-ODD-1"),
    "omaha_hl": ("R-TABLE-2", "R-LOW-8B-2", "R-LOW-8B-6", "R-PL-4", "R-ODD-1"),
    "omaha5_hl": ("R-TABLE-2", "R-LOW-8B-2", "R-LOW-8B-6", "R-PL-4", "R-ODD-1"),
    "six_plus": ("R-RANK-6P-3", "R-SIXPLUS-4", "R-HOLDEM-8", "R-BLIND-3", "R-ODD-1"),
    "stud": ("R-STUD-5", "R-STUD-7", "R-INSUF-4", "R-ANTE-3", "R-ODD-1"),
    "stud_hl": ("R-STUD-5", "R-STUD-7", "R-LOW-8B-2", "R-LOW-8B-6", "R-ODD-1"),
    "razz": ("R-RAZZ-2", "R-LOW-RAZZ-2", "R-STUD-7"),
    "draw5": ("R-FL-5", "R-LIMIT-GEN-2", "R-ODD-1"),
    "triple_draw_27": ("R-LOW-27-3", "R-FL-5", "R-LIMIT-GEN-2"),
    "soko": ("R-SOKO-6", "R-RANK-SOKO-3", "R-ODD-3"),
    "americana": ("R-RANK-32-8", "R-RANK-32-9", "R-ODD-1"),
    "draw32": ("R-DRAW32-6", "R-DRAW32-8", "R-RANK-32-9"),
    "horse": ("R-HORSE-3",),
    "8game": ("R-HORSE-3", "R-8GAME-2"),
}

#: the rule IDs of each ranking's definition
RANKING_RULES: dict[str, tuple[str, ...]] = {
    "HIGH": ("R-CARD-3", "R-CARD-4", "R-CARD-5"),
    "SIX_PLUS": ("R-RANK-6P-1", "R-RANK-6P-2", "R-RANK-6P-3"),
    "THIRTY_TWO": ("R-RANK-32-4", "R-RANK-32-8"),
    "THIRTY_TWO_SUITED": ("R-RANK-32-4", "R-RANK-32-5", "R-RANK-32-7"),
    "SOKO": ("R-RANK-SOKO-1", "R-RANK-SOKO-2", "R-RANK-SOKO-3"),
    "LOW_8B": ("R-LOW-8B-1", "R-LOW-8B-2", "R-LOW-8B-3"),
    "LOW_A5": ("R-LOW-RAZZ-1", "R-LOW-RAZZ-2"),
    "LOW_27": ("R-LOW-27-1", "R-LOW-27-2", "R-LOW-27-3"),
}

STRUCTURE_RULES = {"FL": "R-FL", "SL": "R-SL", "PL": "R-PL", "HPL": "R-HPL", "NL": "R-NL"}


class Text:
    """One locale's sentences: ``text(key, **params)`` fills ``{name}`` placeholders; ``items(key)`` is a list."""

    def __init__(self, data: dict[str, str | list[str]]) -> None:
        self.data = data

    def __call__(self, key: str, **params: object) -> str:
        value = self.data[key]
        if not isinstance(value, str):
            raise TypeError(f"{key} is a list")
        return value.format(**params) if params else value

    def items(self, key: str) -> list[str]:
        value = self.data[key]
        if not isinstance(value, list):
            raise TypeError(f"{key} is not a list")
        return list(value)


def load_text(locale: str) -> Text:
    return Text(json.loads((TEXT_DIR / f"{locale}.json").read_text(encoding="utf-8")))


def _section(heading: str, *, paragraphs: list[str] | None = None, items: list[str] | None = None,
             rules: tuple[str, ...] | list[str] = (), ordered: bool = False) -> dict[str, object]:
    out: dict[str, object] = {"heading": heading, "paragraphs": paragraphs or [], "items": items or [],
                              "rules": list(rules)}
    if ordered:
        out["ordered"] = True
    return out


def _deal_items(game: Game, t: Text) -> list[str]:
    items = []
    for n, street in enumerate(game.streets, 1):
        parts = []
        if street.down and street.up:
            parts.append(t("deal.down_up", down=street.down, up=street.up))
        elif street.down:
            parts.append(t("deal.down", count=street.down))
        elif street.up:
            parts.append(t("deal.up", count=street.up))
        if street.board:
            parts.append(t("deal.flop" if street.board == 3 else "deal.turn" if n == 3 else "deal.river"))
        if street.draw is not None:
            parts.append(t("deal.draw", count=street.draw))
        items.append(t("deal.step", n=n, what="; ".join(parts)))
    return items


def _forced(game: Game, t: Text) -> tuple[list[str], list[str]]:
    if game.kind is Kind.STUD:
        key = {BringIn.LOWEST: "forced.bringin_lowest", BringIn.HIGHEST: "forced.bringin_highest",
               BringIn.HIGHEST_ACE_LOW: "forced.bringin_highest_ace_low"}[game.bring_in or BringIn.LOWEST]
        return [t("forced.ante"), t(key)], ["R-ANTE", "R-BRINGIN"]
    paragraphs = [t("forced.blinds"), t("forced.newplayer")]
    rules = ["R-BLIND", "R-NEWPLAYER", "R-MISSED"]
    if game.straddle:
        paragraphs.append(t("forced.straddle"))
        rules.append("R-STRADDLE")
    return paragraphs, rules


def _betting(game: Game, t: Text) -> dict[str, object]:
    structures = [s for s in Structure if s in game.structures]
    items = [t(f"struct.{s.value}") for s in structures]
    paragraphs = [t("betting.rounds", count=game.betting_rounds), t("betting.default", name=t(f"name.{game.default_structure.value}"))]
    if game.open_pair_rule:
        paragraphs.append(t("betting.open_pair"))
    return _section(t("h.betting"), paragraphs=paragraphs, items=items,
                    rules=["R-LIMIT-GEN", *(STRUCTURE_RULES[s.value] for s in structures), "R-ACT"])


def _ranking(game: Game, t: Text) -> list[dict[str, object]]:
    out = []
    for i, name in enumerate(game.rankings):
        heading = t("h.ranking")
        if game.is_hi_lo:
            heading = t("h.ranking_high" if i == 0 else "h.ranking_low")
        out.append(_section(heading, paragraphs=[t(f"ranking.{name}.intro")], items=t.items(f"ranking.{name}"),
                            rules=RANKING_RULES[name], ordered=True))
    return out


def _showdown(game: Game, t: Text) -> dict[str, object]:
    if game.omaha:
        use = t("sd.omaha", hole=game.streets[0].down)
    elif game.kind is Kind.FLOP:
        use = t("sd.holdem")
    elif game.kind is Kind.STUD:
        use = t("sd.stud", cards=sum(s.down + s.up for s in game.streets))
    else:
        use = t("sd.draw")
    paragraphs = [use]
    if game.is_hi_lo:
        paragraphs.append(t("sd.hilo"))
    paragraphs.append(t("sd.order"))
    paragraphs.append(t("sd.suits") if game.id == "draw32" else t("sd.tie"))
    paragraphs.append(t(f"sd.odd.{game.odd_chip.value}"))
    if game.split_agreement:
        paragraphs.append(t("sd.split_agreement"))
    if game.run_it_twice:
        paragraphs.append(t("sd.rit"))
    rules = ["R-SHOW", "R-POT", "R-ODD-3" if game.odd_chip is OddChip.SHOWN_FIRST else "R-ODD-1"]
    if game.split_agreement:
        rules.append("R-SPLIT")
    if game.run_it_twice:
        rules.append("R-RIT")
    return _section(t("h.showdown"), paragraphs=paragraphs, rules=rules)


def _readings(game_id: str, t: Text) -> dict[str, object]:
    ids = READINGS[game_id]
    return _section(t("h.readings"), paragraphs=[t("readings.intro")],
                    items=[f"{rid}: {t(f'reading.{rid}')}" for rid in ids], rules=ids)


def game_page(game: Game, t: Text) -> dict[str, object]:
    """One game's page: overview, the deal, forced bets, betting, hand rankings, showdown, the room's readings."""
    overview = [t(f"intro.{game.id}"), t("overview.deck", cards=len(game.deck), players=game.max_players)]
    forced, forced_rules = _forced(game, t)
    sections = [
        _section(t("h.overview"), paragraphs=overview, rules=game.rules.split()),
        _section(t("h.deal"), paragraphs=[t(f"deal.intro.{game.kind.value}")], items=_deal_items(game, t), ordered=True),
        _section(t("h.forced"), paragraphs=forced, rules=forced_rules),
        _betting(game, t),
        *_ranking(game, t),
        _showdown(game, t),
        _readings(game.id, t),
    ]
    return {"name": t(f"name.{game.id}"), "sections": sections}


def mixed_page(name: str, t: Text) -> dict[str, object]:
    """A mixed rotation's page: the games in their order with their structures; each game's own page applies."""
    items = [f"{t(f'name.{g}')} — {t(f'name.{s.value}')}" for g, s in MIXED_ROTATIONS[name]]
    return {"name": t(f"name.{name}"), "sections": [
        _section(t("h.overview"), paragraphs=[t(f"intro.{name}"), t("mixed.rotation")], items=items, ordered=True,
                 rules=["R-HORSE" if name == "horse" else "R-8GAME"]),
        _readings(name, t),
    ]}


def document(locale: str) -> dict[str, object]:
    """The rules document of one locale: the order of the games and each game's page."""
    t = load_text(locale)
    games: dict[str, object] = {gid: game_page(GAMES[gid], t) for gid in ROOM_GAMES}
    games.update({name: mixed_page(name, t) for name in MIXED})
    return {"locale": locale, "title": t("doc.title"), "intro": t("doc.intro"),
            "order": [*ROOM_GAMES, *MIXED], "games": games}


def render(locale: str) -> str:
    return json.dumps(document(locale), ensure_ascii=False, indent=1) + "\n"


def write(out_dir: Path = OUT_DIR) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for locale in LOCALES:
        path = out_dir / f"{locale}.json"
        path.write_text(render(locale), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - the command line
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT_DIR):
        print(p)
