"""The tournament description of a Twister-family Sit & Go (R-TWIST-1, R-AOG-1, R-WILD-2): three seats, No-Limit
Hold'em, the turbo structure of ``riverboat/twister/structures.json``, 500 chips (Age of the Gods: 100), the whole
stake as buy-in (no entry fee: the house's share is what the drawn prize leaves, R-TWIST-8)."""

from __future__ import annotations

from typing import Any

from riverboat.room.tournament.spec import Level, TournamentSpec
from riverboat.store.postings import PLAY
from riverboat.twister import SEATS, TwisterSettings, table_for
from riverboat.twister.lobby import TITLES
from riverboat.twister.structure import structure_for


def money(amount: int, currency: str) -> str:
    """The buy-in in the tournament's name as the client shows amounts: play money in whole chips ("100 chips"),
    a currency in units and cents ("EUR 0.50")."""
    if currency == PLAY:
        return f"{amount:,} chips"
    whole, cents = divmod(amount, 100)
    return f"{currency} {whole}" if not cents else f"{currency} {whole}.{cents:02d}"


def twister_spec(kind: str, buy_in: int, *, settings: TwisterSettings | None = None, currency: str = "EUR",
                 table_settings: dict[str, Any] | None = None) -> TournamentSpec:
    """The Sit & Go of ``kind`` (twister | aog | wild) at a published ``buy_in`` (minor units); refuses a type the
    room does not offer (R-WILD-5) or a buy-in without a published table (R-TWIST-7)."""
    settings = settings or TwisterSettings()
    table_for(kind, buy_in)  # raises TwisterError for an unpublished buy-in
    if kind not in settings.enabled_kinds:
        from riverboat.twister import TwisterError

        raise TwisterError(f"this room does not offer {TITLES.get(kind, kind)} (R-WILD-5)")
    structure = structure_for(kind)
    levels = tuple(Level(lv.small_blind, lv.big_blind, lv.ante) for lv in structure.levels)
    spec = TournamentSpec(
        name=f"{TITLES[kind]} {money(buy_in, currency)}", kind="sng", game="holdem", structure="NL", seats=SEATS,
        starting_stack=settings.starting_chips_for(kind), levels=levels, level_seconds=float(structure.level_seconds),
        min_entrants=SEATS, buy_in=buy_in, fee=0, currency=currency, payout="sng", variant=kind,
        settings=dict(table_settings or {}))
    return spec.but()
