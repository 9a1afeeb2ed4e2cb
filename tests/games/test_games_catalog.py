"""Games as data (R-TABLE-1/2, R-CARD-1, R-RANK-6P-1, R-RANK-32-1, streets and rounds of each game) and the mixed
rotations (R-HORSE, R-8GAME)."""

from __future__ import annotations

import pytest

from riverboat.games import GAMES, HORSE, Rotation, Stakes, Structure, get_game

OURS = ["holdem", "omaha", "omaha5", "omaha_hl", "omaha5_hl", "six_plus", "stud", "stud_hl", "razz", "draw5",
        "triple_draw_27", "soko", "americana", "draw32"]


def test_r_table_1_every_game_of_rules_md_with_its_seat_limit():
    limits = {g: get_game(g).max_players for g in OURS}
    assert limits == {"holdem": 10, "omaha": 10, "omaha5": 8, "omaha_hl": 8, "omaha5_hl": 8, "six_plus": 10,
                      "stud": 8, "stud_hl": 8, "razz": 8, "draw5": 6, "triple_draw_27": 6, "soko": 8,
                      "americana": 6, "draw32": 5}


def test_r_table_2_omaha_seat_limit_is_a_setting():
    assert get_game("omaha").with_settings(max_players=8).max_players == 8


def test_decks_r_card_1_r_rank_6p_1_r_rank_32_1():
    sizes = {g: len(get_game(g).deck) for g in OURS}
    assert sizes["holdem"] == 52 and sizes["six_plus"] == 36
    assert sizes["americana"] == sizes["draw32"] == 32


def test_betting_rounds_per_game():
    rounds = {g: get_game(g).betting_rounds for g in OURS}
    assert rounds["holdem"] == rounds["omaha_hl"] == 4  # R-HOLDEM-4..7
    assert rounds["stud"] == rounds["razz"] == 5  # R-STUD-4
    assert rounds["soko"] == rounds["americana"] == rounds["triple_draw_27"] == 4  # R-SOKO-5, R-AMER-6, R-TD27-2
    assert rounds["draw5"] == rounds["draw32"] == 2  # R-DRAW5-6, R-DRAW32-6
    cards = {g: sum(s.down + s.up for s in get_game(g).streets) for g in ("stud", "soko", "americana")}
    assert cards == {"stud": 7, "soko": 5, "americana": 5}  # R-STUD-2, R-SOKO-3, R-AMER-4
    assert get_game("draw32").streets[1].draw == 4  # R-DRAW32-5


def test_hole_cards_and_card_use():
    assert [get_game(g).streets[0].down for g in ("holdem", "omaha", "omaha5")] == [2, 4, 5]
    assert get_game("omaha5_hl").omaha and get_game("omaha_hl").is_hi_lo and not get_game("holdem").omaha


def test_r_holdem_1_every_structure_offered_and_razz_fixed_limit():
    assert set(get_game("holdem").structures) == set(Structure)
    assert get_game("razz").structures == (Structure.FIXED_LIMIT,)
    assert Structure.HALF_POT_LIMIT.label == "½PL"


def test_unknown_game_lists_known_ids():
    with pytest.raises(KeyError, match="holdem"):
        get_game("canasta")
    assert set(OURS) <= set(GAMES)


def test_stakes_reject_negative_or_float_amounts():
    with pytest.raises(ValueError, match="non-negative integer"):
        Stakes(big_blind=-2)
    with pytest.raises(ValueError, match="non-negative integer"):
        Stakes(big_blind=2.5)  # type: ignore[arg-type]
    assert Stakes(big_blind=10).fixed_small == 10 and Stakes(big_blind=10).fixed_big == 20  # R-FL-3 default


def test_r_horse_1_2_rotation_order_all_fixed_limit():
    rot = Rotation.named("horse", hands_per_game=2)
    seen = []
    for _ in range(12):
        game, structure = rot.current()
        seen.append(game.id)
        assert structure is Structure.FIXED_LIMIT
        rot.hand_finished()
    assert seen == ["holdem", "holdem", "omaha_hl", "omaha_hl", "razz", "razz", "stud", "stud", "stud_hl",
                    "stud_hl", "holdem", "holdem"]
    assert len(HORSE) == 5


def test_r_8game_1_2_order_and_structures():
    rot = Rotation.named("8game", hands_per_game=1)
    seen = []
    for _ in range(8):
        game, structure = rot.current()
        seen.append((game.id, structure.value))
        rot.hand_finished()
    assert seen == [("triple_draw_27", "FL"), ("holdem", "FL"), ("omaha_hl", "FL"), ("razz", "FL"),
                    ("stud", "FL"), ("stud_hl", "FL"), ("holdem", "NL"), ("omaha", "PL")]


def test_r_horse_3_orbit_mode_changes_only_after_an_orbit():
    rot = Rotation.named("horse", mode="orbit")
    for _ in range(20):
        rot.hand_finished(orbit_completed=False)
    assert rot.current()[0].id == "holdem"
    rot.hand_finished(orbit_completed=True)
    assert rot.current()[0].id == "omaha_hl"
    with pytest.raises(ValueError, match="rotation mode"):
        Rotation.named("horse", mode="weekly")
