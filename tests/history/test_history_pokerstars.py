"""PokerStars-format hand histories (issue #14 part 2: the export PokerTracker and Hold'em Manager import), read
back with an independent parser: PokerKit's ``pokerkit.notation.PokerStarsParser`` (which reads No Limit Hold'em).

For random No Limit Hold'em hands played by the engine, the text written for each player from the events that
player may see (R-GEN-5) parses into the same hand: the same players, seats and starting stacks, the same blinds,
the same actions in order (folds, checks and calls, bets and raises to the same totals), the same board, the
player's own hole cards (and nobody else's face-down cards), the cards shown down, and PokerKit's replay of it
ends at the engine's final stacks.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from riverboat.engine import Hand, HandConfig, Settings
from riverboat.games import Stakes, Structure, get_game
from riverboat.history.masking import masked_phh
from riverboat.history.pokerstars import HandSheet, SheetSeat, pokerstars_session, pokerstars_text

from .random_play import act_randomly

pokerkit_notation = pytest.importorskip("pokerkit.notation")

STAKES = Stakes(small_blind=50, big_blind=100)


def _hand(seed: int) -> Hand:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    seats = sorted(rng.sample(range(9), n))
    game = get_game("holdem")
    hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=STAKES, seats=seats,
                           stacks=[rng.randint(6, 120) * 100 for _ in seats], button=rng.choice(seats),
                           deck=game.deck.shuffled(rng), settings=Settings(run_it_twice=False), shuffle=rng.shuffle))
    while not hand.is_over:
        act_randomly(hand, hand.legal_actions(), rng)
    return hand


def _stored_events(hand: Hand) -> list[dict[str, Any]]:
    """The events as the room stores them with a settled hand."""
    return [e.to_dict() | {"visible_to": sorted(e.visible_to) if e.visible_to is not None else None} for e in hand.events]


def _sheet(hand: Hand, viewer: int, hand_id: str = "1-abc") -> HandSheet:
    visible = [e for e in _stored_events(hand) if e["visible_to"] is None or viewer in e["visible_to"]]
    return HandSheet(
        table_id="t1-riga-000000", hand_id=hand_id, table_name="Riga", game="holdem", structure="NL", family="flop",
        currency="PLAY", started_at=datetime(2026, 12, 1, 18, 0, tzinfo=UTC),
        seats=tuple(SheetSeat(s, f"Player{s}", hand.start_stacks[i]) for i, s in enumerate(hand.seats)),
        button=hand.config.button, max_seats=9, events=tuple(visible), hero_seat=viewer, small_blind=50,
        big_blind=100, small_bet=100, big_bet=200)


def _our_actions(hand: Hand, order: list[str]) -> list[str]:
    """The hand's betting and dealing in PokerKit's notation, players numbered as PokerKit numbers them."""
    index = {name: i + 1 for i, name in enumerate(order)}
    out = []
    for e in hand.events:
        who = f"p{index[f'Player{e.seat}']}" if e.seat is not None else ""
        if e.kind == "board":
            out.append("d db " + "".join(e.data["cards"]))
        elif e.kind == "acted":
            action = e.data["action"]
            if action == "fold":
                out.append(f"{who} f")
            elif action in ("check", "call"):
                out.append(f"{who} cc")
            else:
                out.append(f"{who} cbr {e.data['to']}")
        elif e.kind == "showed":
            out.append(f"{who} sm " + "".join(e.data["cards"]))
    return out


def _without_idle_checks(theirs: list[str], ours: list[str]) -> list[str]:
    """PokerKit asks the last player with chips to check when everyone else is all-in or folded; the engine (and
    PokerStars) deal on without a line for it. Drop exactly those checks: a ``cc`` of PokerKit's where the engine
    went straight on."""
    out, j = [], 0
    for i, action in enumerate(theirs):
        if j < len(ours) and action == ours[j]:
            out.append(action)
            j += 1
        elif action.endswith(" cc") and (j >= len(ours) or (i + 1 < len(theirs) and theirs[i + 1] == ours[j])):
            continue
        else:
            out.append(action)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_pokerstars_text_reads_back_with_pokerkit_as_the_same_hand(seed: int) -> None:
    hand = _hand(seed)
    viewer = hand.seats[seed % len(hand.seats)]
    text = pokerstars_text(_sheet(hand, viewer))
    (parsed,) = list(pokerkit_notation.PokerStarsParser()(text + "\n\n", error_status=True))
    names = list(parsed.players)
    assert sorted(names) == sorted(f"Player{s}" for s in hand.seats)
    assert {n: s - 1 for n, s in zip(names, parsed.seats, strict=True)} == {f"Player{s}": s for s in hand.seats}
    start = {f"Player{s}": hand.start_stacks[i] for i, s in enumerate(hand.seats)}
    assert dict(zip(names, parsed.starting_stacks, strict=True)) == start
    blinds = dict(zip(names, parsed.blinds_or_straddles, strict=True))
    assert sorted(b for b in blinds.values() if b) == [50, 100]
    # the player's own hole cards are dealt; every other player's are unknown (R-GEN-5)
    dealing = [a for a in parsed.actions if a.startswith("d dh")]
    mine = "".join(next(e.data["cards"] for e in hand.events if e.kind == "dealt" and e.seat == viewer))
    me = f"p{names.index(f'Player{viewer}') + 1}"
    assert f"d dh {me} {mine}" in dealing
    assert all(a.endswith("????") for a in dealing if not a.startswith(f"d dh {me} "))
    # (PokerKit turns all-in hands face up before the run-out, so showdowns are compared apart from the order)
    def betting(actions: list[str]) -> list[str]:
        return [a for a in actions if not a.startswith("d dh") and " sm " not in a]

    def shown(actions: list[str]) -> set[str]:
        return {a for a in actions if " sm " in a and "?" not in a}

    ours = _our_actions(hand, names)
    assert _without_idle_checks(betting(list(parsed.actions)), betting(ours)) == betting(ours)
    assert shown(list(parsed.actions)) == shown(ours)
    # PokerKit's replay of the text ends where the engine ended
    final = list(parsed)[-1]
    assert dict(zip(names, final.stacks, strict=True)) == {f"Player{s}": hand.result.stacks[s] for s in hand.seats}


def test_session_export_holds_every_hand_and_pokerkit_reads_them_all() -> None:
    hands = [_hand(100 + i) for i in range(5)]
    text = pokerstars_session([_sheet(h, h.seats[0], hand_id=f"{i}-x") for i, h in enumerate(hands)])
    parsed = list(pokerkit_notation.PokerStarsParser()(text + "\n\n", error_status=True))
    assert len(parsed) == 5
    assert len(set(re.findall(r"PokerStars Hand #(\d+):", text))) == 5


def test_pokerstars_text_never_holds_another_players_face_down_cards() -> None:
    """R-GEN-5: the cards of a player who did not show are nowhere in another player's export."""
    for seed in range(30):
        hand = _hand(seed)
        shown = {e.seat for e in hand.events if e.kind == "showed"}
        for viewer in hand.seats:
            text = pokerstars_text(_sheet(hand, viewer))
            written = {c for group in re.findall(r"\[([^\]]*)\]", text) for c in group.split()}
            for i, s in enumerate(hand.seats):
                if s != viewer and s not in shown:
                    assert not {str(c) for c in hand.cards[i]} & written, (seed, viewer, s)


def test_masked_phh_keeps_own_and_shown_cards_and_blanks_the_rest() -> None:
    """The PHH export: the stored record (every hole card) as the viewer may see it, players by name."""
    from riverboat.history import hand_to_phh, loads, replay

    hand = next(h for h in (_hand(s) for s in range(60)) if any(e.kind == "mucked" for e in h.events)
                or sum(1 for e in h.events if e.kind == "showed") < len(h.seats))
    viewer = hand.seats[0]
    stored = hand_to_phh(hand, players={s: str(1000 + s) for s in hand.seats})
    visible = [e for e in _stored_events(hand) if e["visible_to"] is None or viewer in e["visible_to"]]
    text = masked_phh(stored, viewer_seat=viewer, events=visible,
                      names={str(1000 + s): f"Player{s}" for s in hand.seats}, extra={"table": "Riga"})
    shown = {e.seat for e in hand.events if e.kind == "showed"}
    for i, s in enumerate(hand.seats):
        cards = "".join(str(c) for c in hand.cards[i])
        if s == viewer or s in shown:
            assert cards in text
        else:
            assert cards not in text
    assert "Player" in text and "1000" not in text.replace("10000", "")
    (record,) = loads(text)  # still PHH, and a hand whose hidden cards were never shown still replays
    result = replay(record)
    assert result.error is None, result
