"""Write the sample frames the harness renders (tests/web/harness/fixtures/*.json).

The shapes follow docs/protocol.md: a ``table_state`` frame carries ``view`` = the table (name, game, stakes,
seats with aliases and stacks) plus ``hand`` = the engine's per-seat view (``Hand.view(seat)``: players with
``cards`` where hidden cards are ``"??"``, ``up`` flags, ``pot`` with bets included, ``legal`` for the player to act,
``result`` at the end). Run: ``python tests/web/harness/make_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "fixtures"


def table(tid: str, name: str, game: str, structure: str, currency: str, max_seats: int, hero: int,
          seats: list[dict[str, Any] | None], hand: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "table": tid, "name": name, "game": game, "structure": structure, "currency": currency,
        "max_seats": max_seats, "you": {"seat": hero, "player_id": 100 + hero},
        "seats": [None if s is None else {"seat": i, "player_id": 100 + i, **s} for i, s in enumerate(seats)],
        "hand": None if hand is None else {"game": game, "structure": structure, **hand},
    }
    view.update(extra)
    return {"v": 1, "type": "table_state", "table": tid, "view": view}


def player(seat: int, stack: int, bet: int, cards: list[str], up: list[bool] | None = None, *, folded: bool = False,
           all_in: bool = False) -> dict[str, Any]:
    return {"seat": seat, "stack": stack, "bet": bet, "folded": folded, "all_in": all_in, "cards": cards,
            "up": up if up is not None else [False] * len(cards)}


def event(tid: str, **e: Any) -> dict[str, Any]:
    return {"v": 1, "type": "event", "table": tid, "event": e}


def write(name: str, frames: list[dict[str, Any]]) -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps({"frames": frames}, indent=1) + "\n")


def main() -> None:
    hidden2 = ["??", "??"]
    # Hold'em NL on the flop, the hero facing a bet (action timer with time bank).
    holdem_action = [
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              [{"alias": "Ainars", "stack": 1840}, {"alias": "Birute", "stack": 990}, {"alias": "Hero", "stack": 1500},
               {"alias": "Carol", "stack": 2210}, None, {"alias": "Dmitri", "stack": 700, "status": "sitting_out"}],
              {"hand_id": 41, "street": "flop", "button": 5, "board": ["Kh", "7d", "2c"], "boards": [], "pot": 155,
               "players": [player(0, 1840, 60, hidden2), player(1, 990, 0, hidden2, folded=True),
                           player(2, 1500, 0, ["Ah", "Kd"]), player(3, 2210, 0, hidden2)],
               "to_act": 2, "over": False,
               "legal": {"seat": 2, "kinds": ["call", "fold", "raise"], "call": 60, "min_to": 120, "max_to": 1500,
                         "bring_in": 0, "max_discards": 0}},
              small_blind=5, big_blind=10, min_buy_in=400, max_buy_in=2000,
              timer={"seat": 2, "remaining": 17, "total": 20, "timebank": 30}),
    ]
    # As the room sends it: the table, the opponent's bet, the turn, then the hero's decision view.
    write("holdem_action", [holdem_action[0], event("t1", kind="acted", seat=0, action="bet", to=60, all_in=False, full=True),
                            event("t1", kind="turn", seat=2, phase="action", remaining=17.0), holdem_action[0]])
    # Hold'em NL river -> showdown, as the room sends it: the hero's decision view, then events for everything
    # that follows (checks, shown hands with labels, pots awarded), then a view with no hand in progress.
    river = ["Kh", "6d", "6c", "Qd", "2s"]
    after_showdown = [{"alias": "Ainars", "stack": 1200}, {"alias": "Birute", "stack": 990},
                      {"alias": "Hero", "stack": 1260}, {"alias": "Carol", "stack": 1800}, None, None]
    write("holdem_showdown", [
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              [{"alias": "Ainars", "stack": 0}, {"alias": "Birute", "stack": 990}, {"alias": "Hero", "stack": 860},
               {"alias": "Carol", "stack": 1800}, None, None],
              {"hand_id": 42, "street": 3, "button": 1, "board": river, "boards": [], "pot": 1600, "to_act": 2,
               "over": False,
               "players": [player(0, 0, 0, hidden2, all_in=True), player(1, 990, 0, hidden2, folded=True),
                           player(2, 860, 0, ["Ah", "Kd"]), player(3, 1800, 0, hidden2)],
               "legal": {"seat": 2, "kinds": ["bet", "check", "fold"], "call": 0, "min_to": 10, "max_to": 860,
                         "bring_in": 0, "max_discards": 0}},
              small_blind=5, big_blind=10, hand_id=42),
        event("t1", kind="acted", seat=2, action="check"),
        event("t1", kind="acted", seat=3, action="check"),
        event("t1", kind="showed", seat=0, cards=["Qc", "Qs"], label="Full House, Queens over Sixes"),
        event("t1", kind="showed", seat=2, cards=["Ah", "Kd"], label="Two Pair, Kings and Sixes"),
        event("t1", kind="showed", seat=3, cards=["9h", "9d"], label="Two Pair, Nines and Sixes"),
        event("t1", kind="pot_awarded", amount=1200, winners={"0": 1200}, share="all", run=0,
              hands={"0": {"cards": ["Qc", "Qs", "Qd", "6d", "6c"], "label": "Full House, Queens over Sixes"}}),
        event("t1", kind="pot_awarded", amount=400, winners={"2": 400}, share="all", run=0,
              hands={"2": {"cards": ["Kh", "Kd", "6d", "6c", "Ah"], "label": "Two Pair, Kings and Sixes"}}),
        event("t1", kind="hand_over", hand_id=42, rake=0, stacks={"0": 1200, "2": 1260, "3": 1800}),
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              after_showdown,
              None, small_blind=5, big_blind=10, hand_id=None),
    ])
    # 7 Card Stud FL on fourth street: own down cards greyed (R-GEN-5), others' down cards hidden.
    write("stud_action", [
        table("t2", "Vilnius", "stud", "FL", "EUR", 8, 0,
              [{"alias": "Hero", "stack": 780}, {"alias": "Egle", "stack": 640}, {"alias": "Fjodor", "stack": 910},
               {"alias": "Gints", "stack": 1200}, None, None, None, None],
              {"hand_id": 7, "street": "fourth", "button": None, "board": [], "boards": [], "pot": 81,
               "players": [player(0, 780, 0, ["9s", "9d", "Kc", "4h"], [False, False, True, True]),
                           player(1, 640, 20, ["??", "??", "Qs", "Qh"], [False, False, True, True]),
                           player(2, 910, 0, ["??", "??", "3d"], [False, False, True], folded=True),
                           player(3, 1200, 0, ["??", "??", "Jc", "8c"], [False, False, True, True])],
               "to_act": 0, "over": False,
               "legal": {"seat": 0, "kinds": ["call", "fold", "raise"], "call": 20, "min_to": 40, "max_to": 40,
                         "bring_in": 0, "max_discards": 0}},
              small_bet=20, big_bet=40, ante=2, bring_in=5,
              timer={"seat": 0, "remaining": 12, "total": 20, "timebank": 20}),
    ])
    # 7 Card Stud from events only, as an opponent sees it between its own decisions: the hand starts, antes,
    # third street dealt one seat at a time (hidden down cards of the others are never sent), bring-in, a call,
    # a completion; then fourth street.
    write("stud_events", [
        table("t6", "Jurmala", "stud", "FL", "PLAY", 8, 2,
              [{"alias": "Egle", "stack": 1000}, None, {"alias": "Hero", "stack": 1000}, {"alias": "Gints", "stack": 1000},
               None, None, None, None],
              None, small_bet=100, big_bet=200, ante=10, bring_in=25, hand_id=None),
        event("t6", kind="hand_started", hand_id="9-abc", button=None, seats=[0, 2, 3], game="stud", structure="FL"),
        event("t6", kind="posted", seat=0, what="ante", amount=10),
        event("t6", kind="posted", seat=2, what="ante", amount=10),
        event("t6", kind="posted", seat=3, what="ante", amount=10),
        event("t6", kind="dealt", seat=0, cards=["3c"], up=True),
        event("t6", kind="dealt", seat=2, cards=["Ks", "Kd"], up=False),
        event("t6", kind="dealt", seat=2, cards=["7h"], up=True),
        event("t6", kind="dealt", seat=3, cards=["Jd"], up=True),
        event("t6", kind="street", street=0),
        event("t6", kind="acted", seat=0, action="bring_in", amount=25, to=25, all_in=False),
        event("t6", kind="acted", seat=2, action="complete", to=100, all_in=False, full=True),
        event("t6", kind="acted", seat=3, action="call", amount=100, to=100, all_in=False),
        event("t6", kind="acted", seat=0, action="fold"),
        event("t6", kind="dealt", seat=2, cards=["2s"], up=True),
        event("t6", kind="dealt", seat=3, cards=["Jh"], up=True),
        event("t6", kind="street", street=1),
    ])
    # 5 Card Draw PL: the hero chooses discards (R-DRAW5-5) under the 30 s draw timer (R-TIME-4).
    draw_discard = [
        table("t3", "Tallinn", "draw5", "PL", "PLAY", 6, 1,
              [{"alias": "Helmi", "stack": 9800}, {"alias": "Hero", "stack": 10000}, {"alias": "Ilze", "stack": 7350},
               None, None, None],
              {"hand_id": 3, "street": "draw 1", "button": 2, "board": [], "boards": [], "pot": 300,
               "players": [player(0, 9800, 0, ["??"] * 5), player(1, 10000, 0, ["Ac", "Ad", "7h", "4s", "Jc"]),
                           player(2, 7350, 0, ["??"] * 5)],
               "to_act": 1, "over": False,
               "legal": {"seat": 1, "kinds": ["draw", "stand_pat"], "call": 0, "min_to": 0, "max_to": 0, "bring_in": 0,
                         "max_discards": 5}},
              small_blind=50, big_blind=100, timer={"seat": 1, "phase": "draw", "remaining": 30}),
    ]
    write("draw_discard", [draw_discard[0], event("t3", kind="drew", seat=0, count=2),
                           event("t3", kind="turn", seat=1, phase="draw", remaining=30.0), draw_discard[0]])
    # 32 Card Draw: the first player to act sees the split-pot button (R-SPLIT-1).
    write("draw32_split", [
        table("t4", "Kaunas", "draw32", "NL", "EUR", 5, 3,
              [{"alias": "Jonas", "stack": 1490}, {"alias": "Kaia", "stack": 1480}, None, {"alias": "Hero", "stack": 2000}, None],
              {"hand_id": 11, "street": "predraw", "button": 4, "board": [], "boards": [], "pot": 30,
               "players": [player(0, 1490, 10, ["??"] * 5), player(1, 1480, 20, ["??"] * 5),
                           player(3, 2000, 0, ["Ah", "Ad", "Kh", "Ks", "9c"])],
               "to_act": 3, "over": False,
               "legal": {"seat": 3, "kinds": ["agree_split", "call", "fold", "raise"], "call": 20, "min_to": 40,
                         "max_to": 2000, "bring_in": 0, "max_discards": 0}},
              small_blind=10, big_blind=20, timer={"seat": 3, "remaining": 20, "total": 20}),
    ])
    # Hold'em all-in on the flop: run it twice or once (R-RIT).
    write("holdem_rit", [
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              [{"alias": "Ainars", "stack": 0}, None, {"alias": "Hero", "stack": 300}, None, None, None],
              {"hand_id": 43, "street": "flop", "button": 0, "board": ["Kh", "7d", "2c"], "boards": [], "pot": 2000,
               "players": [player(0, 0, 0, ["Qc", "Qs"], [True, True], all_in=True), player(2, 300, 0, ["Ah", "Kd"])],
               "to_act": 2, "over": False,
               "legal": {"seat": 2, "kinds": ["run_once", "run_twice"], "call": 0, "min_to": 0, "max_to": 0,
                         "bring_in": 0, "max_discards": 0}},
              small_blind=5, big_blind=10),
    ])
    # Run it twice played out (R-RIT-2): the rest of the board dealt twice, each run wins half of the pot.
    write("holdem_rit_runs", [
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              [{"alias": "Ainars", "stack": 0}, None, {"alias": "Hero", "stack": 0}, None, None, None],
              {"hand_id": 44, "street": 1, "button": 0, "board": ["Kh", "7d", "2c"], "boards": [], "pot": 2000,
               "players": [player(0, 0, 0, ["??", "??"], all_in=True), player(2, 0, 0, ["Ah", "Kd"], all_in=True)],
               "to_act": 2, "over": False,
               "legal": {"seat": 2, "kinds": ["run_once", "run_twice"], "call": 0, "min_to": 0, "max_to": 0,
                         "bring_in": 0, "max_discards": 0}},
              small_blind=5, big_blind=10, hand_id=44),
        event("t1", kind="acted", seat=2, action="run_twice"),
        event("t1", kind="acted", seat=0, action="run_twice"),
        event("t1", kind="run_it_twice"),
        event("t1", kind="board", cards=["Qd", "2s"], run=0),
        event("t1", kind="board", cards=["Qs", "Qh"], run=1),
        # the shown hand's label is its hand on the first board (docs/protocol.md "The winning hand"); each run's
        # award names its winner's hand on that run's board (riverboat.evaluate.card_use.best_hand)
        event("t1", kind="showed", seat=0, cards=["Qc", "Jc"], label="Two Pair, Queens and Deuces"),
        event("t1", kind="showed", seat=2, cards=["Ah", "Kd"], label="Two Pair, Kings and Deuces"),
        event("t1", kind="pot_awarded", amount=1000, winners={"2": 1000}, share="all", run=0,
              hands={"2": {"cards": ["Kh", "Kd", "2s", "2c", "Ah"], "label": "Two Pair, Kings and Deuces"}}),
        event("t1", kind="pot_awarded", amount=1000, winners={"0": 1000}, share="all", run=1,
              hands={"0": {"cards": ["Qs", "Qh", "Qc", "Kh", "Jc"], "label": "Three of a Kind, Queens"}}),
        event("t1", kind="hand_over", hand_id=44, rake=0, stacks={"0": 1000, "2": 1000}),
    ])
    # The showdown of holdem_showdown as a page opened (or reloaded) while its result shows gets it: one view of the
    # finished hand, no events; its result's pots carry the winning hands ("The winning hand").
    write("holdem_result_reload", [
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              after_showdown,
              {"hand_id": 42, "street": 3, "button": 1, "board": river, "boards": [], "pot": 0, "to_act": None,
               "over": True,
               "players": [player(0, 1200, 0, ["Qc", "Qs"], [True, True]), player(1, 990, 0, hidden2, folded=True),
                           player(2, 1260, 0, ["Ah", "Kd"]), player(3, 1800, 0, ["9h", "9d"], [True, True])],
               "result": {
                   "stacks": {"0": 1200, "2": 1260, "3": 1800}, "net": {"0": 400, "2": -140, "3": -260}, "rake": 0,
                   "pots": [
                       {"amount": 1200, "eligible": [0, 2, 3], "winners": {"0": 1200}, "share": "all", "run": 0,
                        "hands": {"0": {"cards": ["Qc", "Qs", "Qd", "6d", "6c"],
                                        "label": "Full House, Queens over Sixes"}}},
                       {"amount": 400, "eligible": [2, 3], "winners": {"2": 400}, "share": "all", "run": 0,
                        "hands": {"2": {"cards": ["Kh", "Kd", "6d", "6c", "Ah"],
                                        "label": "Two Pair, Kings and Sixes"}}}],
                   "shown": {"0": ["Qc", "Qs"], "2": ["Ah", "Kd"], "3": ["9h", "9d"]},
                   "labels": {"0": "Full House, Queens over Sixes", "2": "Two Pair, Kings and Sixes",
                              "3": "Two Pair, Nines and Sixes"},
                   "showdown": True}},
              small_blind=5, big_blind=10, hand_id=42),
    ])
    # The same run-it-twice hand reloaded while its result shows: one view, its result's pots one per run.
    write("holdem_rit_reload", [
        table("t1", "Riga", "holdem", "NL", "EUR", 6, 2,
              [{"alias": "Ainars", "stack": 1000}, None, {"alias": "Hero", "stack": 1000}, None, None, None],
              {"hand_id": 44, "street": 3, "button": 0, "board": ["Kh", "7d", "2c", "Qd", "2s"],
               "boards": [["Kh", "7d", "2c", "Qd", "2s"], ["Kh", "7d", "2c", "Qs", "Qh"]], "pot": 0, "to_act": None,
               "over": True,
               "players": [player(0, 1000, 0, ["Qc", "Jc"], [True, True], all_in=True),
                           player(2, 1000, 0, ["Ah", "Kd"], all_in=True)],
               "result": {
                   "stacks": {"0": 1000, "2": 1000}, "net": {"0": 0, "2": 0}, "rake": 0,
                   "pots": [
                       {"amount": 1000, "eligible": [0, 2], "winners": {"2": 1000}, "share": "all", "run": 0,
                        "hands": {"2": {"cards": ["Kh", "Kd", "2s", "2c", "Ah"], "label": "Two Pair, Kings and Deuces"}}},
                       {"amount": 1000, "eligible": [0, 2], "winners": {"0": 1000}, "share": "all", "run": 1,
                        "hands": {"0": {"cards": ["Qs", "Qh", "Qc", "Kh", "Jc"], "label": "Three of a Kind, Queens"}}}],
                   "shown": {"0": ["Qc", "Jc"], "2": ["Ah", "Kd"]},
                   "labels": {"0": "Two Pair, Queens and Deuces", "2": "Two Pair, Kings and Deuces"},
                   "showdown": True}},
              small_blind=5, big_blind=10, hand_id=44),
    ])
    # Omaha Hi/Lo PL pre-flop: four hole cards and pot-size shortcuts bounded by the PL maximum (R-PL).
    write("omaha_pl", [
        table("t5", "Helsinki", "omaha_hl", "PL", "EUR", 8, 4,
              [{"alias": "Lauri", "stack": 2990}, {"alias": "Maris", "stack": 2480}, {"alias": "Nora", "stack": 3940}, None,
               {"alias": "Hero", "stack": 5000}, None, {"alias": "Otto", "stack": 800}, None],
              {"hand_id": 5, "street": "preflop", "button": 7, "board": [], "boards": [], "pot": 90,
               "players": [player(0, 2990, 10, ["??"] * 4), player(1, 2480, 20, ["??"] * 4),
                           player(2, 3940, 60, ["??"] * 4), player(4, 5000, 0, ["As", "2s", "3d", "Kh"]),
                           player(6, 800, 0, ["??"] * 4)],
               "to_act": 4, "over": False,
               "legal": {"seat": 4, "kinds": ["call", "fold", "raise"], "call": 60, "min_to": 100, "max_to": 210,
                         "bring_in": 0, "max_discards": 0}},
              small_blind=10, big_blind=20, timer={"seat": 4, "remaining": 20, "total": 20}),
    ])


if __name__ == "__main__":
    main()
