"""Twister, Age of the Gods Twister and Wild Twister on the director's variant hooks (RULES.md section 21).

One :class:`TwisterVariant` per type, registered under the type's name (``twister``, ``aog``, ``wild``); a
:func:`~riverboat.room.twister.spec.twister_spec` names it. The hooks:

- ``create``: the tournament is declared by ``store.twister.create`` (a Twister game at a published buy-in, fee 0,
  an id starting ``twister:`` or ``wild:``).
- ``before_start`` (the three are seated at random by the director, R-TWIST-2): ``store.twister.spin`` draws the
  multiplier with the CSPRNG from the published table (Wild: the persisted prize deck), Age of the Gods first moves
  0.99% of the stakes to the four jackpot tiers and draws every player's jackpot trigger (R-AOG-3..6, independent
  of the result), all in one transaction with the draws stored for audit. The prize of every place (winner takes
  all, or 80/10/10 from the threshold, R-TWIST-5/10) is fixed on the director (``set_prizes``; Wild Twister: as a
  ticket valid for ``twister:*`` tournaments, R-WILD-1), and every player is shown the spin as a ``twister_spin``
  tournament event (R-TWIST-3) and told of every jackpot win (``jackpot`` event, R-AOG-3).
- ``start_delay``: the first hand waits ``spin_seconds`` (the spin shown to the table) plus, when a jackpot game was
  triggered, ``jackpot_game_seconds`` (the tournament pauses while it runs, R-AOG-3).
- ``auto`` (Wild Twister only): every decision of every player is the all-in (R-WILD-2).

Settings and the random source are the defaults (:class:`~riverboat.twister.TwisterSettings`, the CSPRNG) unless
whoever opens the tournament :meth:`TwisterVariant.configure` s it (a room's settings; a test's seeded source).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from riverboat.engine import Action
from riverboat.room.frames import TwisterSpinData, tournament_state
from riverboat.room.tournament.variants import BaseVariant, VariantContext, register_variant
from riverboat.store.twister import TICKET_SCOPE, SpinResult
from riverboat.twister import KINDS, BitSource, TwisterSettings
from riverboat.twister.events import JackpotNotice, SpinEvent
from riverboat.twister.wild import wild_action

if TYPE_CHECKING:  # pragma: no cover
    from riverboat.room.hand_driver import HandDriver


@dataclass(frozen=True, slots=True)
class TwisterConfig:
    settings: TwisterSettings
    rng: BitSource | None = None  # None: the store draws with the CSPRNG (production)


class TwisterVariant(BaseVariant):
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._configs: dict[str, TwisterConfig] = {}
        self.spins: dict[str, SpinResult] = {}  # the spin of every running tournament of this type
        self._shown: set[tuple[str, str]] = set()  # Wild Twister hands already shown to their players

    def configure(self, tournament_id: str, settings: TwisterSettings | None = None,
                  rng: BitSource | None = None) -> None:
        """Settings / random source of one tournament (before ``Director.open``)."""
        self._configs[tournament_id] = TwisterConfig(settings or TwisterSettings(), rng)

    def config(self, tournament_id: str) -> TwisterConfig:
        return self._configs.get(tournament_id) or TwisterConfig(TwisterSettings())

    # ------------------------------------------------------------------ hooks
    async def create(self, ctx: VariantContext) -> bool:
        spec = ctx.spec
        await ctx.gw.call(ctx.gw.store.twister.create, ctx.id, self.kind, spec.buy_in, currency=spec.currency,
                          settings=self.config(ctx.id).settings, name=spec.name, spec=spec.to_dict())
        return True

    async def before_start(self, ctx: VariantContext) -> None:
        cfg = self.config(ctx.id)
        extra = {} if cfg.rng is None else {"rng": cfg.rng}
        spin: SpinResult = await ctx.gw.call(ctx.gw.store.twister.spin, ctx.id, settings=cfg.settings, **extra)
        self.spins[ctx.id] = spin
        ctx.add_to_pool(spin.prize - ctx.prize_pool)  # the pool is now the drawn prize (R-TOURN-GEN-1)
        ctx.set_prizes(list(spin.places), ticket_for=TICKET_SCOPE if self.kind == "wild" else None)
        notices = tuple(JackpotNotice(_seat(ctx, w.player_id), w.tier, w.amount) for w in spin.jackpot_wins)
        event = SpinEvent(ctx.id, spin.kind, spin.currency, spin.buy_in, spin.table_name, spin.multiplier,
                          spin.prize, spin.places, notices).to_dict()
        first = ctx.spec.level(0)  # the table shows the blinds with the prize before the first hand

        def spin_data(table_id: str, seat: int) -> TwisterSpinData:
            return {"table": table_id, "seat": seat, "rule": "R-TWIST-3", "tournament_id": event["tournament_id"],
                    "kind": event["kind"], "currency": event["currency"], "buy_in": event["buy_in"],
                    "multiplier": event["multiplier"], "prize": event["prize"], "places": event["places"],
                    "ticket": event["ticket"], "reel": event["reel"], "jackpots": event["jackpots"],
                    "seconds": cfg.settings.spin_seconds, "small_blind": first.small_blind,
                    "big_blind": first.big_blind, "ante": first.ante}

        for table in ctx.tables.values():
            ctx.notify_table(table, "twister_spin", spin_data)
        for w, n in zip(spin.jackpot_wins, notices, strict=True):  # R-AOG-3: every player is told of a win
            ctx.notify_all("jackpot", {"rule": "R-AOG-3", "player": w.player_id, "seat": n.seat, "tier": w.tier,
                                       "amount": w.amount, "seconds": cfg.settings.jackpot_game_seconds})

    def start_delay(self, ctx: VariantContext) -> float:
        settings = self.config(ctx.id).settings
        spin = self.spins.get(ctx.id)
        jackpot = settings.jackpot_game_seconds if spin is not None and spin.jackpot_wins else 0.0
        return float(settings.spin_seconds + jackpot)

    def auto(self, ctx: VariantContext, driver: HandDriver, seat: int) -> Action | None:
        if self.kind != "wild":
            return None
        key = (ctx.id, driver.hand_id)
        if key not in self._shown:  # nobody is asked to act: show each player the hand as it starts
            self._shown.add(key)
            table = driver.host
            for s, pid in driver.players.items():
                view = driver.view(s)
                view.pop("legal", None)  # the table decides for everyone (R-WILD-2)
                data = tournament_state(getattr(table, "id", ""), s, view, ctx.hud())
                data["automatic"] = True
                ctx.notify(pid, "state", data)
        return wild_action(driver.hand.legal_actions())  # R-WILD-2: all-in at every decision

    async def on_resume(self, ctx: VariantContext) -> None:
        """After a restart (R-SERVER-1): the stored spin fixes the prizes again (cash, or Wild Twister tickets),
        as before the stop; a tournament stopped between its start and its spin is spun now."""
        spin: SpinResult | None = await ctx.gw.call(ctx.gw.store.twister.result, ctx.id)
        if spin is None:
            await self.before_start(ctx)
            return
        self.spins[ctx.id] = spin
        ctx.set_prizes(list(spin.places), ticket_for=TICKET_SCOPE if self.kind == "wild" else None)

    async def on_finished(self, ctx: VariantContext) -> None:
        self._configs.pop(ctx.id, None)
        self.spins.pop(ctx.id, None)
        self._shown = {k for k in self._shown if k[0] != ctx.id}


def _seat(ctx: VariantContext, player_id: int) -> int:
    e = ctx.entrants_by_id.get(player_id)
    return e.seat if e is not None and e.seat is not None else -1


VARIANTS: dict[str, TwisterVariant] = {kind: TwisterVariant(kind) for kind in KINDS}
for _kind, _variant in VARIANTS.items():
    register_variant(_kind, _variant)
