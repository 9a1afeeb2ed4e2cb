"""Tournaments as data (R-TOURN-*, R-FEE-2), the level clock (R-TOURN-BREAK-1) and the lifecycle state machine
(R-TOURN-REG-1..4, R-TOURN-SNG-1, R-TOURN-MTT-1/2)."""

from __future__ import annotations

import json

import pytest

from riverboat.room.tournament import presets
from riverboat.room.tournament.levels import LevelClock
from riverboat.room.tournament.lifecycle import Lifecycle, LifecycleError, Status
from riverboat.room.tournament.spec import Knockout, Level, SpecError, TournamentSpec

LEVELS = [{"small_blind": 10, "big_blind": 20}, {"small_blind": 15, "big_blind": 30},
          {"small_blind": 25, "big_blind": 50, "ante": 5}, {"small_blind": 50, "big_blind": 100, "ante": 10}]


def mtt(**kw: object) -> TournamentSpec:
    base: dict[str, object] = {"name": "Sunday", "kind": "mtt", "starts_at": 1000.0, "buy_in": 1000, "fee": 100,
                               "levels": LEVELS, "level_seconds": 600}
    base.update(kw)
    return TournamentSpec.from_dict(base)


def test_every_kind_round_trips_through_json() -> None:
    """The description is data: to_dict -> JSON -> from_dict gives the same tournament, every kind's parameters
    included (KO/PKO, satellite, named bounties, private, flight, re-buys, HORSE)."""
    spec = mtt(knockout={"bounty": 250, "progressive": True, "share_ppb": 400_000_000},
               rebuy={"period_levels": 2, "price": 1000, "chips": 1500, "addon_price": 1000, "addon_chips": 2000},
               private={"promo_code": "SPRING", "password": "hunter22"}, named_bounties=[[42, 500]],
               guarantee=100_000)
    again = TournamentSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec
    for flights in ({"flight": {"event": "main", "day": "1A", "day2": "main-day2", "levels": 3}},  # R-TOURN-FLIGHT
                    {"day2_of": "main", "buy_in": 0, "fee": 0, "guarantee": 100_000}):
        fl = mtt(**flights)
        assert TournamentSpec.from_dict(json.loads(json.dumps(fl.to_dict()))) == fl and not fl.freeroll
    assert spec.knockout == Knockout(250, True, 400_000_000)
    assert spec.pool_per_entry == 750
    horse = mtt(mixed="horse", game="holdem", structure="FL", seats=8,
                levels=[vars_of(lv) for lv in presets.standard_levels(stud=True)[:3]])
    assert [g for g, _ in horse.games()] == ["holdem", "omaha_hl", "razz", "stud", "stud_hl"]
    sat = mtt(satellite={"target": "main", "seat_value": 11_000})
    assert TournamentSpec.from_dict(sat.to_dict()).satellite == sat.satellite


def vars_of(lv: Level) -> dict[str, int]:
    return {k: getattr(lv, k) for k in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet")}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"buy_in": 1000, "fee": 0}, "R-FEE-2"),
        ({"kind": "sng", "starts_at": 5.0}, "R-TOURN-SNG-1"),
        ({"starts_at": None}, "R-TOURN-MTT-2"),
        ({"seats": 11}, "R-TABLE-1"),
        ({"levels": []}, "blind level"),
        ({"levels": [{"small_blind": 30, "big_blind": 20}]}, "small_blind <= big_blind"),
        ({"knockout": {"bounty": 1000}}, "smaller than"),
        ({"payout": "nope"}, "unknown payout"),
        ({"game": "razz", "structure": "NL"}, "not played NL"),
        ({"unregister_deadline": 2000.0}, "R-TOURN-REG-3"),
        ({"colour": "red"}, "unknown tournament fields"),
        ({"rebuy": {"period_levels": 1, "price": 0, "chips": 10}}, "rebuy.price"),
        ({"min_entrants": 1}, "at least two"),
        ({"settings": {"action_seconds": -1}}, "bad table setting"),
    ],
)
def test_bad_descriptions_are_refused_with_a_clear_error(changes: dict[str, object], message: str) -> None:
    base = mtt().to_dict() | changes
    with pytest.raises(SpecError, match=message):
        TournamentSpec.from_dict(base)


def test_r_fee_1_2_play_money_tournament_takes_no_fee() -> None:
    """R-FEE-1/2 with R-GEN-3: play money never goes to the house (the ledger refuses the flow), so a PLAY
    tournament with an entry fee, or with re-buy / add-on fees, is refused when it is described (before, it was
    accepted and every registration then failed); a PLAY freeroll, and a fee-less PLAY variant, are fine."""
    for changes in ({"currency": "PLAY"},
                    {"currency": "PLAY", "buy_in": 0, "fee": 0,
                     "rebuy": {"period_levels": 1, "price": 100, "chips": 10, "fee": 10}},
                    {"currency": "PLAY", "buy_in": 0, "fee": 0,
                     "rebuy": {"period_levels": 1, "price": 100, "chips": 10, "addon_price": 100, "addon_chips": 10,
                               "addon_fee": 5}}):
        with pytest.raises(SpecError) as err:
            TournamentSpec.from_dict(mtt().to_dict() | changes)
        assert err.value.code == "bad_settings" and "play-money (PLAY) tournament takes no entry fee" in err.value.message
    assert mtt(currency="PLAY", buy_in=0, fee=0, added_prize=5000).freeroll
    assert mtt(currency="PLAY", buy_in=0, fee=0, rebuy={"period_levels": 1, "price": 100, "chips": 10}).rebuy


def test_r_tourn_break_1_level_clock_by_time_with_breaks() -> None:
    """Levels of 600 s, a 300 s break after every 2 levels: t=0 level 1; t=1199 level 2 with 1 s left; t=1200..1500
    the break (level 2 shown, 300 s to go at 1200); t=1500 level 3; level 4 (the last) lasts for ever."""
    clock = LevelClock(mtt(break_every_levels=2, break_seconds=300), started_at=100.0)
    p = clock.position(100.0)
    assert (p.level, p.on_break, p.seconds_left, p.next_break_in) == (0, False, 600.0, 1200.0)
    p = clock.position(100.0 + 1199)
    assert (p.level, p.on_break, p.seconds_left) == (1, False, 1.0)
    p = clock.position(100.0 + 1200)
    assert (p.level, p.on_break, p.seconds_left) == (1, True, 300.0)
    p = clock.position(100.0 + 1500)
    assert (p.level, p.on_break) == (2, False)
    assert clock.position(100.0 + 2100).level == 3
    p = clock.position(100.0 + 99_999)
    assert (p.level, p.on_break, p.seconds_left) == (3, False, None)


def test_level_clock_pause_and_resume_after_a_restart() -> None:
    """A pause stops the clock (R-AOG-3 jackpot game, operator); after a crash the clock resumes from the
    elapsed time persisted with the last hand, so the downtime does not eat the levels."""
    clock = LevelClock(mtt(), started_at=0.0)
    clock.pause(500.0)
    assert clock.position(5000.0).level == 0
    clock.resume(5000.0)
    assert clock.elapsed(5100.0) == 600.0 and clock.position(5100.0).level == 1
    clock.resume_from(1300.0, now=90_000.0)
    assert clock.position(90_000.0).level == 2


def test_levels_by_hands_advance_on_the_average_hands_per_table() -> None:
    """Fast formats: level_hands = 5. At 2 tables a level lasts 10 hands in all; a break after every 2 levels."""
    clock = LevelClock(mtt(level_hands=5, break_every_levels=2, break_seconds=60), started_at=0.0)
    clock.level_tables = 2
    ups = [clock.hand_finished(float(i), tables=2) for i in range(10)]
    assert ups == [False] * 9 + [True] and clock.position(10.0).level == 1
    for i in range(10):
        clock.hand_finished(20.0 + i, tables=2)
    p = clock.position(30.0)
    assert p.on_break and p.seconds_left == 59.0
    assert clock.position(90.0) .on_break is False and clock.position(90.0).level == 2


def test_r_tourn_mtt_2_scheduled_mtt_lifecycle() -> None:
    """scheduled -> registering (at registration_opens) -> running at the start time (R-TOURN-MTT-2), late
    registration during the first levels (R-TOURN-REG-1), final table, finished."""
    lc = Lifecycle(mtt(registration_opens=100.0, late_registration_levels=2, min_entrants=3))
    assert lc.due(50.0, 0) is None and lc.next_wakeup(50.0) == 100.0
    with pytest.raises(LifecycleError, match="not opened"):
        lc.check_register(50.0, 0)
    t = lc.due(100.0, 0)
    assert t is not None and t.to is Status.REGISTERING
    lc.apply(t, 100.0)
    lc.check_register(200.0, 10)
    assert lc.due(999.0, 10) is None and lc.next_wakeup(200.0) == 1000.0
    t = lc.due(1000.0, 10)
    assert t is not None and t.to is Status.RUNNING
    lc.apply(t, 1000.0)
    lc.check_register(1100.0, 10, level_index=1)  # late registration, level 2
    with pytest.raises(LifecycleError, match="closed"):
        lc.check_register(1100.0, 10, level_index=2)
    with pytest.raises(LifecycleError, match="R-TOURN-REG-3"):
        lc.check_unregister(1100.0)
    assert lc.on_field(players_left=12, tables=2) is None
    t = lc.on_field(players_left=9, tables=1)
    assert t is not None and t.to is Status.FINAL_TABLE
    lc.apply(t, 2000.0)
    t = lc.on_field(players_left=1, tables=1)
    assert t is not None and t.to is Status.FINISHED
    lc.apply(t, 3000.0)
    assert lc.status is Status.FINISHED and lc.ended_at == 3000.0


def test_r_tourn_reg_4_minimum_not_met_cancels_at_the_start() -> None:
    lc = Lifecycle(mtt(min_entrants=5))
    lc.apply(lc.due(0.0, 0), 0.0)  # type: ignore[arg-type]
    t = lc.due(1000.0, 4)
    assert t is not None and t.to is Status.CANCELLED and "R-TOURN-REG-4" in t.reason


def test_r_tourn_reg_3_unregistration_deadline() -> None:
    lc = Lifecycle(mtt(unregister_deadline=900.0))
    lc.apply(lc.due(0.0, 0), 0.0)  # type: ignore[arg-type]
    lc.check_unregister(899.0)
    with pytest.raises(LifecycleError, match="deadline"):
        lc.check_unregister(901.0)


def test_r_tourn_sng_1_starts_when_full_and_opens_the_next() -> None:
    """R-TOURN-SNG-1 / R-TOURN-SNG-2: a 6-seat Sit & Go starts when the 6th player registers; the transition
    says to open the next one at once; a 7th registration is refused (full)."""
    lc = Lifecycle(presets.sit_and_go(seats=6))
    lc.apply(lc.due(0.0, 0), 0.0)  # type: ignore[arg-type]
    assert lc.due(10.0, 5) is None
    with pytest.raises(LifecycleError, match="full"):
        lc.check_register(10.0, 6)
    t = lc.due(10.0, 6)
    assert t is not None and t.to is Status.RUNNING and t.open_next
    lc.apply(t, 10.0)
    assert lc.on_field(players_left=2, tables=1) is None  # a SNG has no separate final-table stage
    with pytest.raises(LifecycleError, match="cannot become"):
        lc.apply(t, 11.0)
