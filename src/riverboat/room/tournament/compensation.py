"""Interrupted-tournament compensation (R-TOURN-INT-1..11, R-WALLET-7) as pure integer arithmetic.

:func:`compensate` takes the state of an interrupted tournament and returns what each remaining player is paid,
and how much of it comes out of the prize pool and how much the house pays (refunded fees, overlay, any shortfall).
Players already eliminated get nothing more (R-TOURN-INT-1). The cases, by ``kind``:

- ``heads_up`` (INT-2): buy-in(s) and fee back.
- ``sng`` (INT-3): buy-in(s) and fee back, plus an equal share of the eliminated players' buy-ins not already paid
  out as prizes (INT-3 reading).
- ``mtt`` (INT-4/5/6): buy-in(s) and fee back; once the money stage is reached (every remaining player is in a paid
  place) also the prize of place N (N = players remaining, the prize the next player out would have won); the rest
  of the pool 50% in equal shares and 50% in proportion to chips. The pool: the collected pool while the re-buy
  period runs; after it, the larger of the guarantee and the collected pool (INT-11c); a non-guaranteed MTT
  (``guarantee`` 0, INT-6) always uses the collected pool.
- ``freeroll`` (INT-7/8): nothing to refund; the prize of place N once in the money; the rest 50/50.
- ``twister`` (INT-9/10): buy-in back (the fee is not named by the rule and is not refunded); below
  ``split_threshold`` the rest of the pool by chips; at or above it, each remaining player also gets 10% of the pool
  left after the buy-in refunds (INT-11d), and what is left after that goes by chips.

Readings of INT-11: (a) refunded buy-ins, re-buys and add-ons come out of the pool first and the split applies to
what is left; refunded fees and any overlay are paid by the house. (b) "buy-ins" = every buy-in, re-buy and add-on
the player paid, and "fee(s)" the entry fee and every re-buy and add-on fee (``rebuy_fee``, ``addon_fee``), as the
store refunds them. (c) as above. (d) as above. (e) every share is rounded down to the minor unit and the remainder
goes to the largest stack (the first such player listed on a tie).

"The pool left" is always the pool minus the prizes already paid (``paid_so_far``). If the pool cannot cover what
the rule promises (refunds plus the place-N prize), the house pays the difference (``from_house``); the split parts
are then zero. Whatever stays in the pool (a heads-up or Sit & Go pool holding added money) goes back to the house
when the tournament is closed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("heads_up", "sng", "mtt", "freeroll", "twister")
DEFAULT_SPLIT_THRESHOLD = 100_000  # R-TOURN-INT-9/10: EUR 1000 in cents


class CompensationError(ValueError):
    """Input that does not describe an interrupted tournament."""


@dataclass(frozen=True, slots=True)
class Remaining:
    player: str
    chips: int
    rebuys: int = 0
    add_ons: int = 0


@dataclass(frozen=True, slots=True)
class CompensationInput:
    kind: str
    buy_in: int
    fee: int
    prize_pool: int
    remaining: tuple[Remaining, ...]
    guarantee: int = 0
    rebuy_period_over: bool = True
    rebuy_price: int = 0
    addon_price: int = 0
    rebuy_fee: int = 0  # the fee of each re-buy and of the add-on: refunded with it (R-TOURN-INT-4..6 "fee(s)")
    addon_fee: int = 0
    payouts: tuple[int, ...] = ()
    paid_so_far: int = 0
    eliminated_buy_ins: int = 0
    split_threshold: int = DEFAULT_SPLIT_THRESHOLD

    def to_dict(self) -> dict[str, Any]:
        """The JSON input of ``riverboat tournament compensation`` (``from_dict(to_dict())`` is equal): an
        operator quotes a running tournament's compensation with the same arithmetic the interruption pays."""
        out = asdict(self)
        out["payouts"] = list(self.payouts)
        out["remaining"] = [asdict(r) for r in self.remaining]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CompensationInput:
        if not isinstance(data, Mapping):
            raise CompensationError("the input is one JSON object")
        allowed = {"kind", "buy_in", "fee", "guarantee", "rebuy_period_over", "rebuy_price", "addon_price",
                   "rebuy_fee", "addon_fee", "prize_pool", "payouts", "paid_so_far", "eliminated_buy_ins",
                   "split_threshold", "remaining"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise CompensationError(f"unknown field(s): {', '.join(unknown)}")
        for key in ("kind", "buy_in", "fee", "prize_pool", "remaining"):
            if key not in data:
                raise CompensationError(f"missing field {key!r}")
        kind = data["kind"]
        if kind not in KINDS:
            raise CompensationError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        ints = {k: _amount(data, k) for k in ("buy_in", "fee", "guarantee", "rebuy_price", "addon_price",
                                               "rebuy_fee", "addon_fee", "prize_pool", "paid_so_far",
                                               "eliminated_buy_ins")}
        threshold = _amount(data, "split_threshold", DEFAULT_SPLIT_THRESHOLD)
        over = data.get("rebuy_period_over", True)
        if not isinstance(over, bool):
            raise CompensationError("rebuy_period_over must be true or false")
        payouts = data.get("payouts", [])
        if not isinstance(payouts, list) or not all(_is_amount(p) for p in payouts):
            raise CompensationError("payouts must be a list of non-negative integers (minor units)")
        rem = data["remaining"]
        if not isinstance(rem, list) or not rem:
            raise CompensationError("remaining must be a non-empty list of players")
        players: list[Remaining] = []
        for i, r in enumerate(rem):
            if not isinstance(r, Mapping):
                raise CompensationError(f"remaining[{i}] must be an object")
            extra = sorted(set(r) - {"player", "chips", "rebuys", "add_ons"})
            if extra:
                raise CompensationError(f"remaining[{i}]: unknown field(s) {', '.join(extra)}")
            name = r.get("player")
            if not isinstance(name, str) or not name:
                raise CompensationError(f"remaining[{i}].player must be a non-empty string")
            chips = r.get("chips")
            if not isinstance(chips, int) or not _is_amount(chips) or chips == 0:
                raise CompensationError(f"remaining[{i}].chips must be a positive integer (a player with no "
                                        "chips is eliminated)")
            players.append(Remaining(name, chips, _amount(r, "rebuys"), _amount(r, "add_ons")))
        if len({p.player for p in players}) != len(players):
            raise CompensationError("a player is listed twice in remaining")
        return cls(kind=kind, remaining=tuple(players), rebuy_period_over=over, payouts=tuple(payouts),
                   split_threshold=threshold, **ints)


def _is_amount(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _amount(data: Mapping[str, Any], key: str, default: int = 0) -> int:
    v = data.get(key, default)
    if not _is_amount(v):
        raise CompensationError(f"{key} must be a non-negative integer (minor units), got {v!r}")
    return int(v)


@dataclass(slots=True)
class CompensationResult:
    payouts: dict[str, int]
    from_pool: int
    from_house: int
    rule: str
    parts: dict[str, dict[str, int]] = field(default_factory=dict)  # per player: refund, fee, prize, equal, chips
    tickets: dict[str, list[int]] = field(default_factory=dict)  # an interrupted Wild Twister: shares as tickets

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``riverboat tournament compensation``."""
        return {"payouts": dict(self.payouts), "from_pool": self.from_pool, "from_house": self.from_house}


class _Book:
    """Per-player parts, then the 50/50 (or chips-only) split with the INT-11(e) remainder rule."""

    def __init__(self, players: Sequence[Remaining]) -> None:
        self.players = list(players)
        self.parts: dict[str, dict[str, int]] = {
            p.player: {"refund": 0, "fee": 0, "prize": 0, "equal": 0, "chips": 0, "remainder": 0} for p in players
        }
        largest = max(p.chips for p in players)
        self.largest = next(p.player for p in players if p.chips == largest)

    def add(self, part: str, amounts: Mapping[str, int]) -> None:
        for name, v in amounts.items():
            self.parts[name][part] += v

    def split(self, amount: int, equal_pct: int, *, equal_each: int | None = None) -> None:
        """Share ``amount``: ``equal_pct`` percent in equal shares (or ``equal_each`` to every player), the rest by
        chips; each share rounded down, the remainder to the largest stack."""
        n = len(self.players)
        if equal_each is None:
            equal_total = amount * equal_pct // 100
            equal_each = equal_total // n
        else:
            equal_total = equal_each * n
        chips_total = amount - equal_total
        total_chips = sum(p.chips for p in self.players)
        given = 0
        for p in self.players:
            share = chips_total * p.chips // total_chips
            self.parts[p.player]["equal"] += equal_each
            self.parts[p.player]["chips"] += share
            given += equal_each + share
        self.parts[self.largest]["remainder"] += amount - given

    def totals(self) -> dict[str, int]:
        return {name: sum(v.values()) for name, v in self.parts.items()}


def _refund(inp: CompensationInput, p: Remaining) -> int:
    """INT-11(b): every buy-in, re-buy and add-on the player paid."""
    return inp.buy_in + p.rebuys * inp.rebuy_price + p.add_ons * inp.addon_price


def _fees(inp: CompensationInput, p: Remaining) -> int:
    """R-TOURN-INT-2..6 "entry fee(s)": the entry fee and the fee of every re-buy and add-on the player paid."""
    return inp.fee + p.rebuys * inp.rebuy_fee + p.add_ons * inp.addon_fee


def _compensate_mtt(inp: CompensationInput, book: _Book) -> tuple[str, int, int]:
    """A multi-table tournament or freeroll (R-TOURN-INT-4..8): the rule, what is owed, the house's part."""
    players = inp.remaining
    n = len(players)
    refundable = inp.kind == "mtt"
    pool = inp.prize_pool
    if refundable and inp.guarantee and inp.rebuy_period_over:
        pool = max(inp.guarantee, inp.prize_pool)  # INT-4 / INT-11(c)
    house = pool - inp.prize_pool  # the overlay
    paid_places = sum(1 for v in inp.payouts if v > 0)
    in_money = n <= paid_places
    if inp.kind == "mtt":
        rule = ("R-TOURN-INT-5" if in_money else "R-TOURN-INT-4") if inp.guarantee else "R-TOURN-INT-6"
    else:
        rule = "R-TOURN-INT-8" if in_money else "R-TOURN-INT-7"
    refunds = 0
    if refundable:
        book.add("refund", {p.player: _refund(inp, p) for p in players})
        book.add("fee", {p.player: _fees(inp, p) for p in players})
        house += sum(_fees(inp, p) for p in players)
        refunds = sum(_refund(inp, p) for p in players)
    next_prize = inp.payouts[n - 1] if in_money else 0
    book.add("prize", {p.player: next_prize for p in players})
    rest = pool - inp.paid_so_far - refunds - n * next_prize
    book.split(max(0, rest), 50)
    return rule, pool - inp.paid_so_far + max(0, -rest), house


def compensate(inp: CompensationInput) -> CompensationResult:
    players = inp.remaining
    n = len(players)
    book = _Book(players)
    left = inp.prize_pool - inp.paid_so_far
    if left < 0:
        raise CompensationError("paid_so_far is larger than the prize pool")
    house = 0
    if inp.kind == "heads_up":
        if n > 2:
            raise CompensationError("a heads-up tournament has at most two players")
        rule = "R-TOURN-INT-2"
        book.add("refund", {p.player: _refund(inp, p) for p in players})
        book.add("fee", {p.player: _fees(inp, p) for p in players})
        house += sum(_fees(inp, p) for p in players)
        owed = sum(_refund(inp, p) for p in players)
    elif inp.kind == "sng":
        rule = "R-TOURN-INT-3"
        book.add("refund", {p.player: _refund(inp, p) for p in players})
        book.add("fee", {p.player: _fees(inp, p) for p in players})
        house += sum(_fees(inp, p) for p in players)
        refunds = sum(_refund(inp, p) for p in players)
        share = max(0, min(inp.eliminated_buy_ins - inp.paid_so_far, left - refunds))
        book.split(share, 100)
        owed = refunds + share
    elif inp.kind in ("mtt", "freeroll"):
        rule, owed, house = _compensate_mtt(inp, book)
    else:  # twister
        if n > 3:
            raise CompensationError("a Twister has at most three players")
        large = inp.prize_pool >= inp.split_threshold
        rule = "R-TOURN-INT-10" if large else "R-TOURN-INT-9"
        book.add("refund", {p.player: inp.buy_in for p in players})
        rest = left - n * inp.buy_in
        if large and rest > 0:
            book.split(rest, 0, equal_each=rest * 10 // 100)
        else:
            book.split(max(0, rest), 0)
        owed = n * inp.buy_in + max(0, rest)
    totals = book.totals()
    total = sum(totals.values())
    pool_part = total - house
    shortfall = max(0, pool_part - left)
    house += shortfall
    from_pool = total - house
    assert 0 <= from_pool <= left, (from_pool, left)
    assert total == owed + (sum(_fees(inp, p) for p in players) if inp.kind in ("heads_up", "sng", "mtt") else 0)
    return CompensationResult(totals, from_pool, house, rule, book.parts)
