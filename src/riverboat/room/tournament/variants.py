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

``ctx`` is the running :class:`~riverboat.room.tournament.director.Director` (read its ``spec``, ``entrants``,
``prize_pool``; call ``add_to_pool``/``set_prizes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from riverboat.engine import Action
from riverboat.room.errors import RoomError

if TYPE_CHECKING:  # pragma: no cover
    from riverboat.room.hand_driver import HandDriver
    from riverboat.room.tournament.director import Director


class Variant(Protocol):
    async def create(self, ctx: Director) -> bool: ...

    def start_delay(self, ctx: Director) -> float: ...

    async def before_start(self, ctx: Director) -> None: ...

    def prizes(self, ctx: Director, pool: int, entrants: int) -> Sequence[int] | None: ...

    def auto(self, ctx: Director, driver: HandDriver, seat: int) -> Action | None: ...

    async def on_finished(self, ctx: Director) -> None: ...

    async def on_resume(self, ctx: Director) -> None: ...


class BaseVariant:
    """Defaults for every hook: subclass and override what the variant changes."""

    async def create(self, ctx: Director) -> bool:
        return False

    def start_delay(self, ctx: Director) -> float:
        return 0.0

    async def before_start(self, ctx: Director) -> None:
        return None

    def prizes(self, ctx: Director, pool: int, entrants: int) -> Sequence[int] | None:
        return None

    def auto(self, ctx: Director, driver: HandDriver, seat: int) -> Action | None:
        return None

    async def on_finished(self, ctx: Director) -> None:
        return None

    async def on_resume(self, ctx: Director) -> None:
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
