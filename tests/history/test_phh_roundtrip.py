"""Every hand Riverboat plays can be written as PHH and read back: the replay reaches the same stacks. Covers the
user variant codes (RB/<game>/<structure>) of every game and structure, run it twice, the split agreement and
R-INSUF reshuffles; plus PHH reading/writing errors."""

from __future__ import annotations

import random

import pytest

from riverboat.cards import parse_cards
from riverboat.engine import AGGRESSIVE, Action, ActionKind, Hand, HandConfig, Settings
from riverboat.games import GAMES, Stakes, Structure, get_game, phh_game
from riverboat.history import (
    PhhError,
    dumps,
    dumps_many,
    hand_to_phh,
    loads,
    phh_fields,
    replay,
    resolve_variant,
    user_code,
)

from .random_play import act_randomly

K = ActionKind
STAKES = Stakes(small_blind=1, big_blind=2, ante=1, bring_in=2, small_bet=4, big_bet=8, spread=(2, 2, 4, 6))
CASES = [(gid, s) for gid, g in sorted(GAMES.items()) for s in g.structures]


def random_hand(game, structure, n, seed, settings=None, **kw) -> Hand:
    rng = random.Random(seed)
    seats = list(range(1, n + 1))
    hand = Hand(HandConfig(game=game, structure=structure, stakes=STAKES, seats=seats,
                           stacks=[rng.randint(5, 300) for _ in seats], button=rng.choice(seats),
                           deck=game.deck.shuffled(rng), settings=settings or Settings(), shuffle=rng.shuffle, **kw))
    while not hand.is_over:
        la = hand.legal_actions()
        act_randomly(hand, la, rng)
    return hand


def roundtrip(hand: Hand) -> None:
    text = hand_to_phh(hand)
    (record,) = loads(text)
    res = replay(record)
    assert res.error is None and res.match, (text, res)
    assert res.finishing_stacks == [hand.result.stacks[s] for s in hand.seats]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1].value}")
def test_every_game_and_structure_writes_and_reads_back(case):
    game_id, structure = case
    game = get_game(game_id)
    for seed in range(12):
        n = 2 + seed % (min(game.max_players, 6) - 1)
        roundtrip(random_hand(game, structure, n, seed))


def test_phh_reading_games_keep_their_phh_code():
    hand = random_hand(phh_game(get_game("holdem")), Structure.NO_LIMIT, 3, 1)
    assert phh_fields(hand)["variant"] == "NT"
    roundtrip(hand)


@pytest.mark.parametrize(("game_id", "structure", "code"), [
    ("holdem", Structure.NO_LIMIT, "NT"), ("holdem", Structure.FIXED_LIMIT, "FT"), ("omaha", Structure.POT_LIMIT, "PO"),
    ("omaha_hl", Structure.FIXED_LIMIT, "FO/8"), ("stud", Structure.FIXED_LIMIT, "F7S"),
    ("stud_hl", Structure.FIXED_LIMIT, "F7S/8"), ("razz", Structure.FIXED_LIMIT, "FR"),
    ("triple_draw_27", Structure.FIXED_LIMIT, "F2L3D"), ("soko", Structure.FIXED_LIMIT, "RB/soko/FL"),
    ("holdem", Structure.POT_LIMIT, "RB/holdem/PL"),
])
def test_issue_31_room_games_use_the_standard_phh_code_where_one_exists(game_id, structure, code):
    """Issue #31 item 6: a room's stud hand is F7S, not RB/stud/FL; the room's readings that differ from the PHH
    reading ride along as _game_ fields, so the record still replays to the same stacks here."""
    for seed in range(6):
        hand = random_hand(get_game(game_id), structure, 2 + seed % 4, seed)
        fields = phh_fields(hand)
        assert fields["variant"] == code
        if game_id == "stud":
            assert fields["_game_open_pair_rule"] is True  # R-STUD-6, not in PHH's F7S
        roundtrip(hand)


def test_user_codes_resolve_for_every_game_and_structure():
    for game_id, structure in CASES:
        game = get_game(game_id)
        assert resolve_variant(user_code(game, structure)) == (game, structure)
    with pytest.raises(PhhError, match="unsupported PHH variant"):
        resolve_variant("XYZ")
    with pytest.raises(PhhError, match="not played"):
        resolve_variant("RB/razz/NL")
    with pytest.raises(PhhError, match="unknown game"):
        resolve_variant("RB/bridge/NL")


def test_r_rit_hand_round_trips():
    game = get_game("holdem")
    deck = parse_cards("As Ks Ah Kh 2c 7d 9h 3c 4d Kd 5s")
    deck += [c for c in game.deck.cards if c not in deck]
    hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=STAKES, seats=[1, 2],
                           stacks=[100, 100], button=2, deck=deck))
    for a in [Action(2, K.CALL), Action(1, K.CHECK), Action(1, K.BET, 97), Action(2, K.CALL),
              Action(1, K.RUN_TWICE), Action(2, K.RUN_TWICE)]:
        hand.act(a)
    assert hand.is_over and len(hand.boards) == 2
    assert "p1 rit2" in hand_to_phh(hand)
    roundtrip(hand)


def test_r_insuf_reshuffled_hands_round_trip():
    reshuffled = 0
    for seed in range(60):
        hand = random_hand(get_game("draw32"), Structure.FIXED_LIMIT, 5, seed)
        reshuffled += any(e.kind == "reshuffled" for e in hand.events)
        roundtrip(hand)
    assert reshuffled >= 2


def test_r_split_agreement_hand_round_trips():
    game = get_game("draw32")
    per = ["KsKhQdJc9s", "QsQhJdTc8s", "AsAhAdAc7c"]  # seats 2, 3, 1 (button 1)
    deck = [parse_cards(p)[r] for r in range(5) for p in per]
    deck += [c for c in game.deck.cards if c not in deck]
    hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=1, big_blind=2),
                           seats=[2, 3, 1],
                           stacks=[100, 100, 10], button=1, deck=deck))
    for a in [Action(1, K.RAISE, 10), Action(2, K.CALL), Action(3, K.CALL), Action(1, K.STAND_PAT),
              Action(2, K.STAND_PAT), Action(3, K.STAND_PAT), Action(2, K.AGREE_SPLIT), Action(3, K.AGREE_SPLIT),
              Action(1, K.DECLINE_SPLIT), Action(2, K.BET, 20), Action(3, K.CALL)]:
        hand.act(a)
    assert hand.is_over and {p.share for p in hand.result.pots} == {"all", "split"}
    roundtrip(hand)


def test_extra_fields_players_table_hand_number():
    hand = random_hand(get_game("omaha"), Structure.POT_LIMIT, 3, 4)
    fields = phh_fields(hand, table="T1", hand=42, players={1: "ann", 2: "bob", 3: "cy"})
    assert fields["table"] == "T1" and fields["hand"] == 42
    assert fields["players"] == [str({1: "ann", 2: "bob", 3: "cy"}[s]) for s in hand.seats]
    (record,) = loads(dumps(fields))
    assert record.fields["players"] == fields["players"]


def test_phhs_many_hands_in_one_file():
    hands = [random_hand(get_game("razz"), Structure.FIXED_LIMIT, 4, s) for s in range(3)]
    records = loads(dumps_many(phh_fields(h) for h in hands), many=True)
    assert [r.index for r in records] == [0, 1, 2]
    assert all(replay(r).match for r in records)


@pytest.mark.parametrize(("text", "message"), [
    ("variant = 'NT'\nstarting_stacks = [1, 2", "not valid TOML"),
    ("variant = 'NT'\nactions = []", "missing required field 'starting_stacks'"),
    ("variant = 'NT'\nstarting_stacks = 'x'\nactions = []", "starting_stacks must be"),
    ("variant = 3\nstarting_stacks = [1]\nactions = []", "variant must be a string"),
])
def test_invalid_phh_gives_a_clear_error(text, message):
    with pytest.raises(PhhError, match=message):
        loads(text)


@pytest.mark.parametrize(("actions", "message"), [
    ("['d dh p1 AsAh', 'd dh p2 KsKh', 'p1 cc']", "out of turn"),
    ("['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 1']", "out of range"),
    ("['d dh p1 AsAh', 'd dh p2 AsKh']", "dealt twice"),
    ("['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 xx']", "unknown action"),
    ("['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cc']", "ends before the hand is over"),
    ("['d dh p1 AsAh', 'd dh p9 KsKh']", "bad player"),
])
def test_illegal_or_broken_records_are_reported_not_raised(actions, message):
    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            f"starting_stacks = [100, 100]\nactions = {actions}\nfinishing_stacks = [100, 100]\n")
    res = replay(loads(text)[0])
    assert not res.match and message in (res.error or "")


def test_dead_and_live_posts_with_side_pots_round_trip():
    game = get_game("holdem")
    for seed in range(25):
        rng = random.Random(seed)
        hand = Hand(HandConfig(game=game, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=1, big_blind=2),
                               seats=[1, 2, 3, 4], stacks=[rng.randint(3, 40) for _ in range(4)], button=4,
                               deck=game.deck.shuffled(rng), dead_posts={3: 1}, live_posts={3: 2}))
        while not hand.is_over:
            la = hand.legal_actions()
            kind = rng.choice(sorted(la.kinds))
            amount = rng.randint(la.min_to, la.max_to) if kind in AGGRESSIVE and kind is not K.STRADDLE else 0
            hand.act(Action(la.seat, kind, amount))
        assert "_dead_posts" in phh_fields(hand)
        roundtrip(hand)


def test_table_and_game_settings_are_written_and_read_back():
    """A hand played under non-default readings (R-ODD-1 whole remainder, no run it twice, no split votes, the
    other R-DRAW32-6 reading) replays under the same readings."""
    from riverboat.games import OddChip, PostDrawFirst

    settings = Settings(odd_chip=OddChip.LEFT_OF_BUTTON_ALL, run_it_twice=False, split_agreement=False)
    draw32 = get_game("draw32").with_settings(post_draw_first=PostDrawFirst.LEFT_OF_BUTTON)
    for seed in range(20):
        hand = random_hand(draw32, Structure.NO_LIMIT, 4, seed, settings=settings)
        fields = phh_fields(hand)
        assert fields["_setting_odd_chip"] == "left_of_button_all" and fields["_setting_split_agreement"] is False
        assert fields["_game_post_draw_first"] == "left_of_button"
        roundtrip(hand)
    for seed in range(20):
        roundtrip(random_hand(get_game("holdem"), Structure.NO_LIMIT, 3, seed, settings=settings))
