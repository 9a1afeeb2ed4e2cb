"""R-AAI-1 artificial all-in in PHH: the writer records it in the user field ``_artificial_allin`` (PHH has no
verb for it; docs/phh-variants.md) and the reader replays the hand to the same finishing stacks."""

from __future__ import annotations

import random

import pytest

from riverboat.cards import parse_cards
from riverboat.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, Settings
from riverboat.games import GAMES, Stakes, Structure, get_game
from riverboat.history import dumps, hand_to_phh, loads, phh_fields, replay

from .random_play import act_randomly

K = ActionKind
FL_STAKES = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)


def _scripted_hand() -> Hand:
    """Three-handed FL hold'em; seat 3 (aces) is made artificially all-in on the flop for the 4 chips it has in."""
    game = get_game("holdem")
    per = ["2c3d", "KsKh", "AsAh"]  # seats 1, 2, 3 (button 3): dealt one card at a time round the table
    deck = [parse_cards(p)[r] for r in range(2) for p in per] + parse_cards("Ac Kd 7h 8s 9c")
    deck += [c for c in game.deck.cards if c not in deck]
    hand = Hand(HandConfig(game=game, structure=Structure.FIXED_LIMIT, stakes=FL_STAKES, seats=[1, 2, 3],
                           stacks=[100, 100, 100], button=3, deck=deck, settings=Settings(muck_losers=False)))
    for a in [Action(3, K.CALL), Action(1, K.CALL), Action(2, K.RAISE, 4), Action(3, K.CALL), Action(1, K.CALL),
              Action(1, K.BET, 2), Action(2, K.CALL)]:
        hand.act(a)
    hand.artificial_allin(3)
    while not hand.is_over:
        la = hand.legal_actions()
        hand.act(Action(la.seat, K.CHECK if K.CHECK in la.kinds else K.CALL))
    return hand


def test_r_aai_1_hand_writes_reads_back_and_replays_to_the_same_stacks():
    hand = _scripted_hand()
    assert hand.result is not None and hand.result.stacks[3] == 96 + 12  # main pot only (R-AAI-1)
    text = hand_to_phh(hand)  # raised KeyError: 'artificial_allin' before the fix
    fields = phh_fields(hand)
    # p3 (seat 3, the button) after the flop actions "p1 cbr 2", "p2 cc"
    k, p = fields["_artificial_allin"][0]
    assert p == 3 and fields["actions"][k - 2:k] == ["p1 cbr 2", "p2 cc"]
    assert not any("artificial" in a for a in fields["actions"])  # only standard PHH verbs in actions
    (record,) = loads(text)
    res = replay(record)
    assert res.error is None and res.match, (text, res)
    assert res.finishing_stacks == [hand.result.stacks[s] for s in hand.seats] == [94, 98, 108]


def test_r_aai_1_replay_without_the_field_does_not_reach_the_same_stacks():
    """The field is what the replay needs: without it the record's actions are out of turn."""
    fields = phh_fields(_scripted_hand())
    del fields["_artificial_allin"]
    res = replay(loads(dumps(fields))[0])
    assert not res.match and res.error


def _random_aai_hand(game, structure, n, seed) -> tuple[Hand, int]:
    rng = random.Random(seed)
    seats = list(range(1, n + 1))
    stakes = Stakes(small_blind=1, big_blind=2, ante=1, bring_in=2, small_bet=4, big_bet=8, spread=(2, 2, 4, 6))
    hand = Hand(HandConfig(game=game, structure=structure, stakes=stakes, seats=seats,
                           stacks=[rng.randint(20, 300) for _ in seats], button=rng.choice(seats),
                           deck=game.deck.shuffled(rng), settings=Settings(), shuffle=rng.shuffle))
    used = 0
    while not hand.is_over:
        la = hand.legal_actions()
        if rng.random() < 0.25 and K.DRAW not in la.kinds and K.STAND_PAT not in la.kinds:
            try:
                hand.artificial_allin(la.seat)
                used += 1
                continue
            except IllegalAction:
                pass
        act_randomly(hand, la, rng)
    return hand, used


LIMIT_CASES = [(gid, s) for gid, g in sorted(GAMES.items()) for s in g.structures
               if s in (Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT)]


@pytest.mark.parametrize("case", LIMIT_CASES, ids=lambda c: f"{c[0]}-{c[1].value}")
def test_r_aai_1_random_limit_hands_with_artificial_all_ins_round_trip(case):
    game_id, structure = case
    game = get_game(game_id)
    used = 0
    for seed in range(15):
        n = 2 + seed % (min(game.max_players, 6) - 1)
        hand, k = _random_aai_hand(game, structure, n, seed)
        used += k
        (record,) = loads(hand_to_phh(hand))
        res = replay(record)
        assert res.error is None and res.match, (hand_to_phh(hand), res)
        assert res.finishing_stacks == [hand.result.stacks[s] for s in hand.seats]
    assert used > 0


@pytest.mark.parametrize("bad", ["1", "[[1]]", "[[0, 9]]", "[[999, 1]]", '[["a", 1]]', "[[true, 1]]"])
def test_bad_artificial_allin_field_is_a_clear_error(bad):
    text = hand_to_phh(_scripted_hand())
    text = "\n".join(line for line in text.splitlines() if not line.startswith("_artificial_allin"))
    res = replay(loads(text + f"\n_artificial_allin = {bad}\n")[0])
    assert not res.match and "_artificial_allin" in (res.error or "")


def test_artificial_allin_where_the_engine_forbids_it_is_reported():
    """R-AAI-4: a record claiming an artificial all-in in a No Limit hand is refused with the engine's reason."""
    fields = phh_fields(_scripted_hand())
    fields["variant"] = "RB/holdem/NL"
    res = replay(loads(dumps(fields))[0])
    assert not res.match and "R-AAI-4" in (res.error or "")
