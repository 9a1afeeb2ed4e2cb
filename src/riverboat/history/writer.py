"""Write a finished engine hand as a PHH record (reads back through :func:`riverboat.history.replay`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from typing import Any

from riverboat.engine import Hand, Settings
from riverboat.games.catalog import GAMES, Kind, get_game, phh_game
from riverboat.history.phh import ARTIFICIAL_ALLIN_FIELD, PHH_VARIANTS, READINGS_FIELD, dumps, user_code

_VERB = {
    "fold": "f", "check": "cc", "call": "cc", "bet": "cbr", "raise": "cbr", "complete": "cbr", "straddle": "cbr",
    "bring_in": "pb", "agree_split": "split", "decline_split": "nosplit", "run_twice": "rit2", "run_once": "rit1",
}


def _variant(hand: Hand) -> str:
    """The standard PHH code of the game and structure when there is one (issue #31 item 6: ``F7S`` rather than
    ``RB/stud/FL``), else our user code. A room game that reads differently from the PHH reading of the code (the
    R-FL-4 cap counting the blind, the R-STUD-6 open pair, the R-INSUF reshuffles...) keeps its readings in
    ``_game_<name>`` fields (:func:`setting_fields`): our replay reads them back, other readers ignore them."""
    base = GAMES.get(hand.game.id)
    for code, (gid, structure) in PHH_VARIANTS.items():
        if structure is hand.structure and gid == hand.game.id and (
                hand.game == phh_game(get_game(gid)) or hand.game == base):
            return code
    return user_code(hand.game, hand.structure)


def _code_game(hand: Hand) -> Any:
    """The game the variant code stands for when read back (the PHH reading for a standard code)."""
    base = GAMES.get(hand.game.id)
    if base is None:
        return None
    return base if _variant(hand).startswith("RB/") else phh_game(base)


_GAME_KNOBS = ("max_players", "visible_suits", "open_pair_rule", "post_draw_first", "odd_chip", "split_agreement",
               "straddle", "run_it_twice", "fl_cap_counts_blind", "reshuffle_folded", "reshuffle_all",
               "deal_after_discards")


def setting_fields(hand: Hand) -> dict[str, Any]:
    """``_setting_<name>`` / ``_game_<name>`` fields for every table setting or game setting that differs from
    the defaults, so that the record replays under the same readings."""
    out: dict[str, Any] = {}
    defaults = Settings()
    for f in dataclasses.fields(Settings):
        value = getattr(hand.settings, f.name)
        if value != getattr(defaults, f.name) and value is not None:
            out[f"_setting_{f.name}"] = value.value if isinstance(value, Enum) else value
    base = _code_game(hand)
    if base is not None:
        for name in _GAME_KNOBS:
            value = getattr(hand.game, name)
            if value != getattr(base, name):
                out[f"_game_{name}"] = value.value if isinstance(value, Enum) else value
    return out


def _phh_order(values: list[int]) -> list[int]:
    return [values[1], values[0]] if len(values) == 2 else values


def hand_to_phh(hand: Hand, /, **extra: Any) -> str:
    """``hand`` as PHH text. ``extra`` adds fields (PHH ``table``, ``hand``, ``players``...); ``players`` may be
    a mapping seat -> name (written in the record's player order)."""
    return dumps(phh_fields(hand, **extra))


def phh_fields(hand: Hand, /, **extra: Any) -> dict[str, Any]:
    """The PHH fields of ``hand`` (players ``p1..pn`` in the engine's seat order, left of the button first)."""
    cfg, stakes, n = hand.config, hand.stakes, hand.n
    pos = {s: i for i, s in enumerate(hand.seats)}
    antes = [0] * n
    for s, a in (cfg.antes if cfg.antes is not None else {s: stakes.ante for s in hand.seats}).items():
        if s in pos:
            antes[pos[s]] += a
    blinds = [0] * n
    if hand.game.kind is not Kind.STUD:
        if cfg.blinds is not None:
            for s, a in cfg.blinds.items():
                if s in pos:
                    blinds[pos[s]] = a
        elif n == 2:
            blinds[1], blinds[0] = stakes.small_blind, stakes.big_blind
        else:
            blinds[0], blinds[1] = stakes.small_blind, stakes.big_blind
    variant = _variant(hand)
    fields: dict[str, Any] = {
        "variant": variant,
        "ante_trimming_status": True,
        "antes": _phh_order(antes),
    }
    if not variant.startswith("RB/") and hand.game != phh_game(get_game(hand.game.id)):
        fields[READINGS_FIELD] = "riverboat"  # a room hand under a standard code: read with the room's readings
    if hand.game.kind is not Kind.STUD:
        fields["blinds_or_straddles"] = _phh_order(blinds)
    else:
        fields["bring_in"] = stakes.bring_in
    if stakes.small_bet or stakes.big_bet:
        fields["small_bet"] = stakes.fixed_small
        fields["big_bet"] = stakes.fixed_big
    fields["min_bet"] = stakes.opening_min(hand.game.kind is Kind.STUD)
    fields["starting_stacks"] = list(hand.start_stacks)
    actions: list[str] = []
    aai: list[list[int]] = []  # R-AAI-1: [number of actions before it, player number]
    dealt: dict[int, list[str]] = {}

    def flush() -> None:
        for p in sorted(dealt):
            actions.append(f"d dh p{p + 1} {''.join(dealt[p])}")
        dealt.clear()

    for e in hand.events:
        k = e.kind
        if k == "dealt":
            p = pos[e.seat]  # type: ignore[index]
            dealt.setdefault(p, []).extend(e.data["cards"])
            continue
        if k in ("board", "acted", "drew_cards", "street", "showed"):
            flush()
        if k == "board":
            actions.append(f"d db {''.join(e.data['cards'])}")
        elif k == "acted" and e.data["action"] == "artificial_allin":
            aai.append([len(actions), pos[e.seat] + 1])  # type: ignore[index]
        elif k == "acted":
            verb = _VERB[e.data["action"]]
            text = f"p{pos[e.seat] + 1} {verb}"  # type: ignore[index]
            if verb == "cbr":
                text += f" {e.data['to']}"
            actions.append(text)
        elif k == "drew" and e.data["count"] == 0:
            actions.append(f"p{pos[e.seat] + 1} sd")  # type: ignore[index]
        elif k == "drew_cards":
            p = pos[e.seat]  # type: ignore[index]
            actions.append(f"p{p + 1} sd {''.join(e.data['discarded'])}")
            actions.append(f"d dh p{p + 1} {''.join(e.data['cards'])}")
        elif k == "showed":
            actions.append(f"p{pos[e.seat] + 1} sm {''.join(e.data['cards'])}")  # type: ignore[index]
    flush()
    fields["actions"] = actions
    if aai:
        fields[ARTIFICIAL_ALLIN_FIELD] = aai
    if hand.result is not None:
        fields["finishing_stacks"] = [hand.result.stacks[s] for s in hand.seats]
    if stakes.spread:
        fields["_spread"] = list(stakes.spread)
    for key, posts in (("_dead_posts", cfg.dead_posts), ("_live_posts", cfg.live_posts)):
        if posts:
            per_position = [0] * n
            for s, a in posts.items():
                if s in pos:
                    per_position[pos[s]] = a
            fields[key] = _phh_order(per_position)
    fields["seats"] = list(hand.seats)
    fields.update(setting_fields(hand))
    for key, value in extra.items():
        if key == "players" and isinstance(value, Mapping):
            value = [str(value.get(s, "")) for s in hand.seats]
        fields[key] = value
    return fields
