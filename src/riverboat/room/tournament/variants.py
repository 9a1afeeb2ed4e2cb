"""Tournament variants: how a format such as Twister (issue #12, R-TWIST) plugs into the director without editing it.

A variant is an object with any of the hooks of :class:`Variant` (each has a default that changes nothing) and is
registered under a name with :func:`register_variant`; a :class:`~riverboat.room.tournament.spec.TournamentSpec`
names it in ``variant`` and the director calls the hooks:

- ``create(ctx)`` (async): declare the tournament in the store instead of ``store.tournaments.create`` (return
  True; False: the director does it) -- Twister tournaments are declared by ``store.twister.create``;
- ``before_start(ctx)`` (async): once the field is complete and seated, before the first hand -- e.g. the Twister
  prize draw (R-TWIST-4), which may add room money to the pool (``ctx.add_to_pool``) and fix the prizes;
- ``prizes(ctx, pool, entrants)``: the prize of place 1, 2, ... (None: the spec's payout table);
- ``auto(ctx, driver, seat)``: an action to play at once for ``seat`` instead of asking its player (Wild Twister's
  all-in, R-WILD-2); None: the player (or the bot) decides;
- ``start_delay(ctx)``: seconds between ``before_start`` and the first deal (the Twister spin shown to the table,
  R-TWIST-3; the Age of the Gods jackpot game, R-AOG-3); the level clock starts at the first deal;
- ``on_resume(ctx)`` (async): after a restart, the director rebuilt from the store (:mod:`.resume`) before it
  deals again -- a variant restores what it keeps outside the store snapshot (the Twister spin and its prizes);
- ``level_hands(ctx)``/``on_finished(ctx)``: informational hooks.

``ctx`` is the running tournament as :class:`VariantContext` says (its
:class:`~riverboat.room.tournament.director.Director` is one): read its ``spec``, ``entrants_by_id``, ``prize_pool``;
call ``add_to_pool``/``set_prizes``. This module does not import the director (no import cycle, issue #29).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from riverboat.engine import Action
from riverboat.room import frames
from riverboat.room.errors import RoomError
from riverboat.room.frames import TournamentData, TournamentEventName
from riverboat.room.gateway import StoreGateway
from riverboat.room.hand_driver import HandDriver
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament.tables import Entrant, TourneyTable


class VariantContext(Protocol):
    """What a variant's hooks may read and do of their tournament (its director is one)."""

    @property
    def id(self) -> str: ...

    @property
    def spec(self) -> TournamentSpec: ...

    @property
    def gw(self) -> StoreGateway: ...

    @property
    def tables(self) -> Mapping[str, TourneyTable]: ...

    @property
    def entrants_by_id(self) -> Mapping[int, Entrant]: ...

    @property
    def prize_pool(self) -> int: ...

    def add_to_pool(self, amount: int) -> None: ...

    def set_prizes(self, prizes: list[int], *, ticket_for: str | None = None) -> None: ...

    def hud(self) -> frames.TournamentHud: ...

    def notify(self, player_id: int, event: TournamentEventName, data: TournamentData) -> None: ...

    def notify_all(self, event: TournamentEventName, data: TournamentData) -> None: ...

    def notify_table(self, table: TourneyTable, event: TournamentEventName,
                     data: Callable[[str, int], TournamentData]) -> None: ...


class Variant(Protocol):
    async def create(self, ctx: VariantContext) -> bool: ...

    def start_delay(self, ctx: VariantContext) -> float: ...

    async def before_start(self, ctx: VariantContext) -> None: ...

    def prizes(self, ctx: VariantContext, pool: int, entrants: int) -> Sequence[int] | None: ...

    def auto(self, ctx: VariantContext, driver: HandDriver, seat: int) -> Action | None: ...

    async def on_finished(self, ctx: VariantContext) -> None: ...

    async def on_resume(self, ctx: VariantContext) -> None: ...


class BaseVariant:
    """Defaults for every hook: subclass and override what the variant changes."""

    async def create(self, ctx: VariantContext) -> bool:
        return False

    def start_delay(self, ctx: VariantContext) -> float:
        return 0.0

    async def before_start(self, ctx: VariantContext) -> None:
        return None

    def prizes(self, ctx: VariantContext, pool: int, entrants: int) -> Sequence[int] | None:
        return None

    def auto(self, ctx: VariantContext, driver: HandDriver, seat: int) -> Action | None:
        return None

    async def on_finished(self, ctx: VariantContext) -> None:
        return None

    async def on_resume(self, ctx: VariantContext) -> None:
        return None


_VARIANTS: dict[str, Variant] = {}


def register_variant(name: str, variant: Variant) -> None:
    """Make ``variant`` available to specs with ``"variant": name`` (re-registering a name replaces it)."""
    if not isinstance(name, str) or not name:
        raise ValueError("a variant needs a name")
    _VARIANTS[name] = variant


def get_variant(name: str | None) -> Variant:
    if name is None:
        return BaseVariant()
    try:
        return _VARIANTS[name]
    except KeyError:
        raise RoomError("bad_settings", f"unknown tournament variant {name!r}; registered: "
                                        f"{', '.join(sorted(_VARIANTS)) or 'none'}") from None


def registered_variants() -> list[str]:
    return sorted(_VARIANTS)
