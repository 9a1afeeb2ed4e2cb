"""Issue #31 ("What to add"): VPIP, PFR, 3-bet, WTSD and won at showdown from a player's stored hands, counted as
trackers count them (server/player_stats.py), on hands whose answers are known."""

from __future__ import annotations

from types import SimpleNamespace

from riverboat.server.player_stats import play_stats

ME = 7


def _hand(actions: list[str], players: list[int], net: int, variant: str = "NT", blinds: list[int] | None = None
          ) -> SimpleNamespace:
    n = len(players)
    blinds = blinds if blinds is not None else ([1, 2] + [0] * (n - 2) if n > 2 else [1, 2])
    acts = ", ".join(f'"{a}"' for a in actions)
    phh = (f'variant = "{variant}"\nantes = {[0] * n}\nblinds_or_straddles = {blinds}\nmin_bet = 2\n'
           f"starting_stacks = {[200] * n}\nactions = [{acts}]\nplayers = {[str(p) for p in players]}\n")
    return SimpleNamespace(phh=phh, changes={ME: net})


def test_issue_31_vpip_pfr_3bet_wtsd_and_won_at_showdown() -> None:
    three = [1, 2, ME]  # p3 is the player (first to act preflop, after the blinds)
    hands = [
        # 1. folds preflop: nothing
        _hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 f", "p1 cc", "p2 cc"], three, 0),
        # 2. raises first in (VPIP, PFR), wins without a showdown on the flop
        _hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 cbr 6", "p1 cc", "p2 f", "d db 2c3d4h",
               "p1 cc", "p3 cbr 8", "p1 f"], three, 9),
        # 3. calls a raise (VPIP, a 3-bet chance not taken), to showdown, loses
        _hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 cc", "p1 cbr 6", "p2 f", "p3 cc",
               "d db 2c3d4h", "p1 cc", "p3 cc", "d db 5s", "p1 cc", "p3 cc", "d db 6s", "p1 cc", "p3 cc",
               "p1 sm KcKd", "p3 sm AcAd"], three, -6),
        # 4. re-raises a raise (VPIP, PFR, 3-bet), to showdown, wins
        _hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 AcAd", "p3 cc", "p1 cbr 6", "p2 f", "p3 cbr 18", "p1 cc",
               "d db 2c3d4h", "p1 cc", "p3 cc", "d db 5s", "p1 cc", "p3 cc", "d db 6s", "p1 cc", "p3 cc",
               "p1 sm KcKd", "p3 sm AcAd"], three, 19),
        # 5. heads-up big blind (p1) checks the small blind's limp: not VPIP; sees the flop, folds
        _hand(["d dh p1 AcAd", "d dh p2 ????", "p2 cc", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cbr 2", "p1 f"],
              [ME, 9], -2),
        # 6. a stud hand: counted apart
        _hand(["d dh p1 AcAd2c", "d dh p2 ????3c", "p2 pb", "p1 f"], [ME, 9], 0, variant="F7S", blinds=[0, 0]),
    ]
    got = play_stats(hands, ME)
    assert got["hands"] == 5 and got["other_hands"] == 1
    assert got["counts"] == {"vpip": 3, "pfr": 2, "three_bet": 1, "three_bet_chances": 2, "saw_flop": 4,
                             "showdowns": 2, "won_at_showdown": 1}
    assert (got["vpip"], got["pfr"], got["three_bet"], got["wtsd"], got["wsd"]) == (60.0, 40.0, 50.0, 50.0, 50.0)


def test_no_hands_no_percentages() -> None:
    assert play_stats([], ME)["vpip"] is None
