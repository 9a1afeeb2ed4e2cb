"""A tournament described as data: :class:`TournamentSpec` and the parameters of every kind (R-TOURN-*).

Everything the director needs comes from here: the game and structure (HORSE and 8-Game through ``mixed``), seats
per table, starting stack, the level schedule (by time, or by hands for fast formats) with its breaks
(R-TOURN-BREAK), the registration window with late registration by level (R-TOURN-REG-1), the unregistration
deadline (R-TOURN-REG-3), minimum and maximum entrants (R-TOURN-REG-4), guarantee (R-TOURN-MTT-4), buy-in and fee
(R-FEE), the payout structure (R-TOURN-GEN-4) and each kind's parameters (freeroll, satellite, knockout,
progressive knockout, named bounties, private, flight, re-buys/add-ons).

``TournamentSpec.from_dict(json_object)`` validates and raises :class:`SpecError` (a ``RoomError`` with code
``bad_settings``) saying what is wrong; ``spec.to_dict()`` is its JSON form (``from_dict(to_dict())`` round-trips).
All amounts are integer minor units; chips are integers; times are Unix seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from riverboat.games import MIXED_ROTATIONS, Kind, Structure, get_game
from riverboat.room.errors import RoomError
from riverboat.room.tournament import payouts as payout_tables
from riverboat.store.postings import PLAY


class SpecError(RoomError):
    def __init__(self, message: str) -> None:
        super().__init__("bad_settings", message)


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level: blinds (flop and draw games), ante, and for stud the bring-in and completion (small bet).
    Fixed-limit bets default to ``big_blind`` / twice it, as at the cash tables (R-FL-3 default)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0


@dataclass(frozen=True, slots=True)
class Satellite:
    """R-TOURN-SAT-1 / R-TOURN-GEN-2: the prizes are non-cashable tickets to ``target`` worth ``seat_value``
    (the target's buy-in + fee). Seats = pool // seat_value; the remainder is paid in cash to the next place."""

    target: str
    seat_value: int


@dataclass(frozen=True, slots=True)
class Knockout:
    """R-TOURN-KO-1 (fixed bounty) or, with ``progressive``, R-TOURN-PKO (reading of PKO-3): ``bounty`` of every
    buy-in goes to the bounty pool. On an elimination the eliminator gets ``share_ppb`` of the eliminated player's
    bounty in cash and the rest is added to their own bounty; the winner gets their own bounty. A plain knockout
    pays the whole bounty (``share_ppb`` = PPB)."""

    bounty: int
    progressive: bool = False
    share_ppb: int = 500_000_000  # 50% (R-TOURN-PKO-3 reading: configurable, commonly 50%)


@dataclass(frozen=True, slots=True)
class Rebuy:
    """R-TOURN-REBUY-3 reading: re-buys while the level index is below ``period_levels`` for a stack at or below
    ``max_stack`` (default: the starting stack), ``price`` to the pool (plus ``fee`` to the house) for ``chips``;
    one add-on per player during the level after the period (and the break before it) for ``addon_price`` /
    ``addon_chips``. ``max_rebuys`` (0 = no limit)."""

    period_levels: int
    price: int
    chips: int
    max_stack: int = 0
    fee: int = 0
    addon_price: int = 0
    addon_chips: int = 0
    addon_fee: int = 0
    max_rebuys: int = 0
    decision_seconds: float = 20.0  # a busted player may re-buy within this time before being eliminated


@dataclass(frozen=True, slots=True)
class Private:
    """R-TOURN-PRIV-1: entry needs the promo code AND the password."""

    promo_code: str
    password: str


@dataclass(frozen=True, slots=True)
class Flight:
    """R-TOURN-FLIGHT: a Day 1 flight (``day`` "1A", "1B"...) of ``event``, ending after ``levels`` levels; the
    survivors go to ``day2`` with their chips (the largest stack if they qualified twice, R-TOURN-FLIGHT-6 reading).
    Flight buy-ins go to the Day 2 prize pool."""

    event: str
    day: str
    day2: str
    levels: int


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    name: str
    kind: str = "mtt"  # "sng" | "mtt"
    game: str = "holdem"
    structure: str = "NL"
    mixed: str | None = None  # "horse" | "8game" (R-HORSE, R-8GAME)
    seats: int = 9
    starting_stack: int = 1500
    levels: tuple[Level, ...] = ()
    level_seconds: float = 600.0  # length of a level by time ...
    level_hands: int = 0  # ... or, when > 0, by hands (fast formats)
    break_every_levels: int = 0  # R-TOURN-BREAK: a break after every N levels (0 = none) ...
    break_seconds: float = 300.0  # ... of this length
    registration_opens: float | None = None  # Unix seconds; None = open at once
    starts_at: float | None = None  # MTT start (R-TOURN-MTT-2); a SNG starts when full (R-TOURN-SNG-1)
    late_registration_levels: int = 0  # registration stays open during the first N levels (R-TOURN-REG-1)
    unregister_deadline: float | None = None  # R-TOURN-REG-3 (None: until the start)
    min_entrants: int = 2
    max_entrants: int = 0  # 0 = no maximum (R-TOURN-MTT-2); a SNG is full at ``seats``
    buy_in: int = 0
    fee: int = 0
    currency: str = "EUR"
    guarantee: int = 0  # R-TOURN-MTT-4: 0 = not guaranteed; any overlay is paid by the house
    added_prize: int = 0  # room money added to the pool (freerolls, R-TOURN-GEN-1/3)
    payout: str = "mtt"  # a structure of payouts.json ...
    payout_table: tuple[Mapping[str, Any], ...] = ()  # ... or rows of the same form
    satellite: Satellite | None = None
    knockout: Knockout | None = None
    named_bounties: tuple[tuple[int, int], ...] = ()  # R-TOURN-BOUNTY: (player id, amount from the pool)
    private: Private | None = None
    flight: Flight | None = None
    day2_of: str | None = None  # a flight event's Day 2 (R-TOURN-FLIGHT-1): entered only by qualifying on Day 1
    rebuy: Rebuy | None = None
    variant: str | None = None  # a registered variant (riverboat.room.tournament.variants), e.g. Twister
    settings: dict[str, Any] = field(default_factory=dict)  # TableSettings of the tables (timers...)

    # ------------------------------------------------------------------ derived
    @property
    def freeroll(self) -> bool:
        """R-TOURN-FREE-1 / R-FEE-2: no buy-in and no fee; the room funds the pool (a Day 2 takes no buy-in either,
        its pool is the flights' buy-ins: not a freeroll)."""
        return self.buy_in == 0 and self.fee == 0 and self.day2_of is None

    @property
    def is_sng(self) -> bool:
        return self.kind == "sng"

    @property
    def capacity(self) -> int:
        """Most entrants (0 = unlimited); a Sit & Go seats exactly one table."""
        return self.seats if self.is_sng else self.max_entrants

    @property
    def pool_per_entry(self) -> int:
        """What one entry adds to the place prizes (the buy-in minus the knockout bounty)."""
        return self.buy_in - (self.knockout.bounty if self.knockout else 0)

    def payout_rows(self) -> tuple[payout_tables.PayoutRow, ...]:
        return payout_tables.structure(list(self.payout_table) if self.payout_table else self.payout)

    def level(self, index: int) -> Level:
        """Level ``index`` (0-based); past the end the last level stays."""
        return self.levels[min(index, len(self.levels) - 1)]

    def games(self) -> list[tuple[str, Structure]]:
        if self.mixed:
            return [(g, s) for g, s in MIXED_ROTATIONS[self.mixed]]
        return [(self.game, Structure(self.structure))]

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["levels"] = [asdict(lv) for lv in self.levels]
        out["payout_table"] = [dict(r) for r in self.payout_table]
        out["named_bounties"] = [list(b) for b in self.named_bounties]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSpec:
        if not isinstance(data, Mapping):
            raise SpecError("a tournament description is a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SpecError(f"unknown tournament fields: {', '.join(unknown)}")
        if "name" not in data:
            raise SpecError("a tournament needs a name")
        conv: dict[str, Any] = dict(data)
        try:
            conv["levels"] = tuple(_make(Level, lv, "level") for lv in data.get("levels", ()))
            for key, kind in (("satellite", Satellite), ("knockout", Knockout), ("private", Private),
                              ("flight", Flight), ("rebuy", Rebuy)):
                if data.get(key) is not None:
                    conv[key] = _make(kind, data[key], key)
            conv["named_bounties"] = tuple((int(p), int(a)) for p, a in data.get("named_bounties", ()))
            conv["payout_table"] = tuple(data.get("payout_table", ()))
            conv["settings"] = dict(data.get("settings", {}))
        except (TypeError, ValueError) as exc:
            raise SpecError(f"bad tournament field: {exc}") from None
        spec = cls(**conv)
        validate(spec)
        return spec

    def but(self, **changes: Any) -> TournamentSpec:
        """A copy with ``changes`` applied, validated (operator edits, R-OPER-2)."""
        spec = replace(self, **changes)
        validate(spec)
        return spec


def _make(kind: type, value: Any, what: str) -> Any:
    if isinstance(value, kind):
        return value
    if not isinstance(value, Mapping):
        raise SpecError(f"{what} must be an object")
    names = {f.name for f in fields(kind)}
    unknown = sorted(set(value) - names)
    if unknown:
        raise SpecError(f"unknown {what} fields: {', '.join(unknown)}")
    try:
        return kind(**value)
    except TypeError as exc:
        raise SpecError(f"{what}: {exc}") from None


def _int(spec: TournamentSpec, name: str, *, minimum: int = 0) -> int:
    v = getattr(spec, name)
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise SpecError(f"{name} must be an integer of at least {minimum}, got {v!r}")
    return v


def _ints(obj: object, names: Sequence[str], what: str, minimum: int = 0) -> None:
    for n in names:
        v = getattr(obj, n)
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            raise SpecError(f"{what}.{n} must be an integer of at least {minimum}, got {v!r}")


def _number(v: object, name: str, *, allow_none: bool = False) -> None:
    if v is None and allow_none:
        return
    if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
        raise SpecError(f"{name} must be a non-negative number, got {v!r}")


def validate(spec: TournamentSpec) -> None:
    """Refuse a tournament the rules (or the engine) do not allow; raises :class:`SpecError`."""
    if not isinstance(spec.name, str) or not 1 <= len(spec.name) <= 64:
        raise SpecError("name must be 1 to 64 characters")
    if spec.kind not in ("sng", "mtt"):
        raise SpecError(f"kind must be 'sng' or 'mtt', got {spec.kind!r}")
    for name in ("seats", "starting_stack", "min_entrants"):
        _int(spec, name, minimum=1 if name != "seats" else 2)
    for name in ("max_entrants", "buy_in", "fee", "guarantee", "added_prize", "late_registration_levels",
                 "level_hands", "break_every_levels"):
        _int(spec, name)
    for name in ("level_seconds", "break_seconds"):
        _number(getattr(spec, name), name)
    for name in ("registration_opens", "starts_at", "unregister_deadline"):
        _number(getattr(spec, name), name, allow_none=True)
    if spec.level_hands == 0 and spec.level_seconds <= 0:
        raise SpecError("levels need a length: level_seconds > 0 or level_hands > 0")
    if (spec.buy_in == 0) != (spec.fee == 0) and not (spec.variant is not None and spec.fee == 0):
        # a variant may take no fee (Twister: the house's share is what the drawn prize leaves, R-TWIST-8)
        raise SpecError("a tournament has both a buy-in and an entry fee, or neither (a freeroll, R-FEE-2)")
    if not isinstance(spec.currency, str) or not spec.currency.isupper() or not 3 <= len(spec.currency) <= 8:
        raise SpecError("currency must be a code such as 'EUR' or 'PLAY'")
    if spec.currency == PLAY and (spec.fee or (spec.rebuy is not None and (spec.rebuy.fee or spec.rebuy.addon_fee))):
        raise SpecError("a play-money (PLAY) tournament takes no entry fee: play money never goes to the house "
                        "(R-FEE-1, R-FEE-2); make it a freeroll (buy_in and fee 0), or use a real currency")
    if spec.min_entrants < 2:
        raise SpecError("a tournament needs at least two entrants (min_entrants >= 2)")
    if spec.is_sng:
        if spec.starts_at is not None:
            raise SpecError("a Sit & Go has no start time: it starts when every seat is taken (R-TOURN-SNG-1)")
        if spec.max_entrants not in (0, spec.seats):
            raise SpecError("a Sit & Go seats exactly one table: max_entrants must be 0 or equal to seats")
        if spec.flight is not None:
            raise SpecError("a Sit & Go cannot be a flight")
    elif spec.starts_at is None:
        raise SpecError("an MTT has a fixed start time announced in advance (starts_at, R-TOURN-MTT-2)")
    if spec.max_entrants and spec.max_entrants < spec.min_entrants:
        raise SpecError("max_entrants is below min_entrants")
    if (spec.registration_opens is not None and spec.starts_at is not None
            and spec.registration_opens > spec.starts_at):
        raise SpecError("registration cannot open after the start")
    if spec.unregister_deadline is not None and spec.starts_at is not None and spec.unregister_deadline > spec.starts_at:
        raise SpecError("the unregistration deadline cannot be after the start (R-TOURN-REG-3)")
    _validate_game(spec)
    _validate_kinds(spec)
    try:
        rows = spec.payout_rows()
    except payout_tables.PayoutError as exc:
        raise SpecError(str(exc)) from None
    if spec.max_entrants and rows[-1].hi < spec.max_entrants:
        raise SpecError("the payout structure does not cover max_entrants")
    _validate_settings(spec)


def _validate_settings(spec: TournamentSpec) -> None:
    if not isinstance(spec.settings, dict):
        raise SpecError("settings must be an object of table settings")
    from riverboat.room.settings import TableSettings

    try:
        TableSettings.from_dict(spec.settings)
    except RoomError as exc:
        raise SpecError(exc.message) from None
    cash_only = sorted(set(spec.settings) & CASH_ONLY_SETTINGS)
    if cash_only:  # R-TOURN-GEN-7: accepted and then dropped would be a rule the room does not keep
        raise SpecError(f"table settings a tournament does not use (cash tables only): {', '.join(cash_only)}")


#: table settings only cash tables (or Speed Poker) apply: a tournament refuses them (R-TOURN-GEN-7). Every other
#: setting applies to a tournament's hands as at a cash table: the timers, the readings of RULES.md section 27
#: (odd_chip, muck_losers, stud_community_betting, post_draw_first, thirty_two_ties) and the mixed-game rotation.
CASH_ONLY_SETTINGS = frozenset({
    "straddle", "run_it_twice",  # no straddle, no run it twice in a tournament
    "cash_out_on_crash", "sitout_evict_seconds", "missed_blind_policy", "min_players", "speed_max_wait_seconds",
    "disconnect_policy",  # tournament disconnection is R-DISC-1/2 (no artificial all-in)
})


def _validate_game(spec: TournamentSpec) -> None:
    if spec.mixed is not None and spec.mixed not in MIXED_ROTATIONS:
        raise SpecError(f"unknown mixed game {spec.mixed!r}; known: {', '.join(MIXED_ROTATIONS)}")
    if not spec.levels:
        raise SpecError("a tournament needs at least one blind level")
    for i, lv in enumerate(spec.levels):
        _ints(lv, ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet"), f"levels[{i}]")
    if spec.mixed is None:  # before spec.games(), which builds the Structure (a ValueError, not a refusal)
        try:
            Structure(spec.structure)
        except ValueError:
            raise SpecError(f"unknown structure {spec.structure!r}; known: {', '.join(s.value for s in Structure)}") from None
    for gid, structure in spec.games():
        try:
            game = get_game(gid)
        except KeyError as exc:
            raise SpecError(str(exc.args[0])) from None
        if spec.mixed is None:
            try:
                structure = Structure(spec.structure)
            except ValueError:
                raise SpecError(f"unknown structure {spec.structure!r}") from None
            if structure not in game.structures:
                raise SpecError(f"{game.name} is not played {spec.structure}")
        if not 2 <= spec.seats <= game.max_players:
            raise SpecError(f"{game.name} seats 2 to {game.max_players} players (R-TABLE-1), not {spec.seats}")
        for i, lv in enumerate(spec.levels):
            if game.kind is Kind.STUD:
                if not (lv.small_bet or lv.big_blind):
                    raise SpecError(f"levels[{i}]: stud games need small_bet (or big_blind) for {game.name}")
            elif lv.big_blind <= 0 or lv.small_blind <= 0 or lv.small_blind > lv.big_blind:
                raise SpecError(f"levels[{i}]: blinds must be positive with small_blind <= big_blind")


def _validate_kinds(spec: TournamentSpec) -> None:
    if spec.freeroll and spec.guarantee:
        raise SpecError("a freeroll's pool is what the room adds (added_prize), not a guarantee")
    if spec.satellite is not None:
        _ints(spec.satellite, ("seat_value",), "satellite", minimum=1)
        if not isinstance(spec.satellite.target, str) or not spec.satellite.target:
            raise SpecError("satellite.target names the tournament the tickets are for")
    ko = spec.knockout
    if ko is not None:
        _ints(ko, ("bounty",), "knockout", minimum=1)
        _ints(ko, ("share_ppb",), "knockout")
        if ko.share_ppb > payout_tables.PPB:
            raise SpecError("knockout.share_ppb is at most 1,000,000,000 (100%)")
        if ko.bounty >= spec.buy_in:
            raise SpecError("the knockout bounty is part of the buy-in and must be smaller than it")
        if spec.satellite is not None:
            raise SpecError("a satellite cannot also be a knockout")
    seen: set[int] = set()
    for pid, amount in spec.named_bounties:
        if pid in seen or amount <= 0:
            raise SpecError("named_bounties: one positive amount per named player (R-TOURN-BOUNTY-1)")
        seen.add(pid)
    if spec.private is not None:
        for name in ("promo_code", "password"):
            v = getattr(spec.private, name)
            if not isinstance(v, str) or not 1 <= len(v) <= 64:
                raise SpecError(f"private.{name} must be 1 to 64 characters (R-TOURN-PRIV-1)")
    if spec.flight is not None or spec.day2_of is not None:
        _validate_flights(spec)
    rb = spec.rebuy
    if rb is not None:
        _ints(rb, ("period_levels", "price", "chips"), "rebuy", minimum=1)
        _ints(rb, ("max_stack", "fee", "addon_price", "addon_chips", "addon_fee", "max_rebuys"), "rebuy")
        _number(rb.decision_seconds, "rebuy.decision_seconds")
        if (rb.addon_price == 0) != (rb.addon_chips == 0):
            raise SpecError("an add-on has both a price and chips, or there is none")
        if spec.freeroll and (rb.fee or rb.addon_fee):
            raise SpecError("a freeroll has no fees, for re-buys neither")


def _validate_flights(spec: TournamentSpec) -> None:
    """R-TOURN-FLIGHT-1..6: a Day 1 flight ends after its levels and pays no prize (its buy-ins go to the Day 2
    pool); a Day 2 is entered only by the flights' survivors, with their chips, and pays every place."""
    if spec.flight is not None:
        fl = spec.flight
        _ints(fl, ("levels",), "flight", minimum=1)
        for name in ("event", "day", "day2"):
            if not isinstance(getattr(fl, name), str) or not getattr(fl, name):
                raise SpecError(f"flight.{name} must be a non-empty string")
        if not fl.day.startswith("1"):
            raise SpecError("flight.day is a Day 1 flight ('1A', '1B'...) and flight.day2 names the Day 2 event")
        if spec.freeroll:
            raise SpecError("a Day 1 flight has a buy-in and a fee: they make the Day 2 prize pool (R-TOURN-FLIGHT-4)")
        blocked: dict[str, object] = {"guarantee": spec.guarantee, "added_prize": spec.added_prize, "satellite": spec.satellite,
                   "knockout": spec.knockout, "named_bounties": spec.named_bounties, "rebuy": spec.rebuy,
                   "day2_of": spec.day2_of}
    else:
        if not isinstance(spec.day2_of, str) or not spec.day2_of:
            raise SpecError("day2_of names the flight event of this Day 2")
        if spec.buy_in or spec.fee:
            raise SpecError("a Day 2 takes no buy-in: its players qualify from the Day 1 flights (R-TOURN-FLIGHT-2)")
        blocked = {"late_registration_levels": spec.late_registration_levels, "satellite": spec.satellite,
                   "knockout": spec.knockout, "named_bounties": spec.named_bounties, "rebuy": spec.rebuy,
                   "private": spec.private, "added_prize": spec.added_prize}
    wrong = sorted(name for name, value in blocked.items() if value)
    if wrong:
        what = "a Day 1 flight" if spec.flight is not None else "a Day 2"
        raise SpecError(f"{what} cannot have {', '.join(wrong)} (R-TOURN-FLIGHT: the prizes are Day 2's)")
