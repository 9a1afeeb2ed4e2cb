"""Who is dealt in, the button and the forced bets of the next hand, as pure functions any table can use.

:func:`plan_deal` takes the seats' statuses (see :class:`~riverboat.room.blinds.SeatStatus`) and the previous
button and returns a :class:`DealPlan`: stud games deal every ready seat from the fixed dealer box (R-TABLE-4);
blind games move the button and place the blinds, live and dead posts (R-TABLE-3, R-BLIND, R-NEWPLAYER,
R-MISSED, through :func:`~riverboat.room.blinds.plan_blinds`). :func:`hand_config` turns a plan into the engine's
:class:`~riverboat.engine.HandConfig` with a freshly shuffled deck.

A tournament table uses the same functions with every seated player who has chips marked ready (dealt in even when
sitting out or disconnected, R-SITOUT-1, R-TOURN-REG-5) and no blind debts; its stakes come from its level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from riverboat.cards import RandomSource
from riverboat.engine import HandConfig
from riverboat.engine import Settings as EngineSettings
from riverboat.evaluate import Ranking
from riverboat.games import Game, Kind, Stakes, Structure
from riverboat.games.catalog import OddChip, PostDrawFirst
from riverboat.room.blinds import BlindPlan, SeatStatus, clockwise_after, plan_blinds
from riverboat.room.settings import GAME_DEFAULT, MissedBlindPolicy, TableSettings, TableSpec


@dataclass(frozen=True, slots=True)
class DealPlan:
    """The next hand's seating: ``dealt`` seats, ``button`` (the dealer box in stud), explicit ``blinds`` when the
    standard order does not apply (None: the engine's standard blinds), live and dead posts, and the blind plan of
    a blind game (None in stud)."""

    dealt: tuple[int, ...]
    button: int
    blinds: Mapping[int, int] | None = None
    live_posts: Mapping[int, int] = field(default_factory=dict)
    dead_posts: Mapping[int, int] = field(default_factory=dict)
    blind_plan: BlindPlan | None = None


def plan_deal(game: Game, stakes: Stakes, statuses: Mapping[int, SeatStatus], *, max_seats: int,
              prev_button: int | None, min_players: int = 2,
              policy: MissedBlindPolicy = MissedBlindPolicy.BB_LIVE_PLUS_SB_DEAD) -> DealPlan | None:
    """The next hand, or None when fewer than ``min_players`` (at least 2) can be dealt in."""
    if game.kind is Kind.STUD:
        ready = [s for s, v in statuses.items() if v.ready]
        if len(ready) < max(2, min_players):
            return None
        button = max_seats - 1  # R-TABLE-4: the fixed dealer box
        return DealPlan(tuple(clockwise_after(button, ready, max_seats)), button)
    plan = plan_blinds(statuses, max_seats=max_seats, prev_button=prev_button, small_blind=stakes.small_blind,
                       big_blind=stakes.big_blind, policy=policy)
    if plan is None or len(plan.dealt) < min_players:
        return None
    dealt = plan.dealt
    button = plan.button
    blinds: dict[int, int] | None = None
    standard = (plan.heads_up and plan.small_blind == button) or (
        not plan.heads_up and plan.small_blind == dealt[0] and plan.big_blind == dealt[1]
    )
    if not standard:
        blinds = {plan.big_blind: stakes.big_blind}
        if plan.small_blind is not None and plan.small_blind != plan.big_blind:
            blinds[plan.small_blind] = stakes.small_blind
    return DealPlan(dealt, button, blinds, dict(plan.live_posts), dict(plan.dead_posts), plan)


def hand_config(game: Game, structure: Structure, stakes: Stakes, plan: DealPlan, stacks: Mapping[int, int],
                rng: RandomSource, settings: EngineSettings | None = None) -> HandConfig:
    """The engine configuration of a planned hand (no rake: the driver adds its settler's rule)."""
    return HandConfig(
        game=game,
        structure=structure,
        stakes=stakes,
        seats=list(plan.dealt),
        stacks=[stacks[s] for s in plan.dealt],
        button=plan.button,
        deck=game.deck.shuffled(rng),
        settings=settings if settings is not None else EngineSettings(),
        blinds=plan.blinds,
        live_posts=plan.live_posts,
        dead_posts=plan.dead_posts,
        shuffle=lambda cards: rng.shuffle(cards),
    )


def engine_settings(settings: TableSettings, **fixed: bool) -> EngineSettings:
    """The engine's readings for a table's hands (RULES.md section 27: odd chip, mucking, R-INSUF-4; straddle and
    run it twice), from its settings; ``fixed``: what the table kind decides itself (Speed Poker: no straddle)."""
    chosen: dict[str, object] = {
        "odd_chip": None if settings.odd_chip == GAME_DEFAULT else OddChip(settings.odd_chip),
        "muck_losers": settings.muck_losers,
        "stud_community_betting": settings.stud_community_betting,
        "straddle": settings.straddle,
        "run_it_twice": settings.run_it_twice,
    }
    return EngineSettings(**{**chosen, **fixed})  # type: ignore[arg-type]


_TIES = {"split": Ranking.THIRTY_TWO.name, "suits": Ranking.THIRTY_TWO_SUITED.name}
_THIRTY_TWO = {Ranking.THIRTY_TWO.name, Ranking.THIRTY_TWO_SUITED.name}


def table_game(game: Game, settings: TableSettings) -> Game:
    """``game`` with the table's readings of its own rules: who acts first after the draw (C-2, R-DRAW32-6) and
    how the 32-card games break ties (C-14, R-RANK-32-9: split, or suits decide). "game": unchanged."""
    changes: dict[str, object] = {}
    if settings.post_draw_first != GAME_DEFAULT and game.kind is Kind.DRAW:
        changes["post_draw_first"] = PostDrawFirst(settings.post_draw_first)
    if settings.thirty_two_ties != GAME_DEFAULT and set(game.rankings) <= _THIRTY_TWO:
        changes["rankings"] = (_TIES[settings.thirty_two_ties],)
    return game.with_settings(**changes) if changes else game


def stakes_for(spec: TableSpec, game: Game, structure: Structure) -> Stakes:
    """The engine stakes of one cash-table hand; a mixed table's antes apply only to its stud games."""
    small_bet = spec.small_bet or spec.big_blind
    big_bet = spec.big_bet or 2 * small_bet
    if game.kind is Kind.STUD:
        ante = spec.ante
        bring_in = spec.bring_in or (2 * ante if ante else max(1, small_bet // 4))
        return Stakes(ante=ante, bring_in=min(bring_in, small_bet), small_bet=small_bet, big_bet=big_bet,
                      spread=tuple(spec.spread))
    return Stakes(
        small_blind=spec.small_blind,
        big_blind=spec.big_blind,
        ante=0 if spec.mixed else spec.ante,
        small_bet=small_bet if structure is Structure.FIXED_LIMIT else 0,
        big_bet=big_bet if structure is Structure.FIXED_LIMIT else 0,
        spread=tuple(spec.spread),
    )
