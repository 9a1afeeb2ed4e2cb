"""A tournament's money (part of the director, issue #29 item 3): the prize pool, the award of each place, the
moment the pool becomes final and the house pays the guarantee's overlay (R-TOURN-MTT-4, R-TOURN-GEN-1), the
ranking of the players out and what it pays (R-TOURN-GEN-5/6, R-TOURN-KO/PKO/BOUNTY), and whether a re-buy or the
add-on is open (R-TOURN-REBUY-3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from riverboat.room.tournament import awards, flights
from riverboat.room.tournament.awards import Outcome, PlaceAward
from riverboat.room.tournament.lifecycle import Status
from riverboat.room.tournament.ranking import Bust
from riverboat.room.tournament.state import TournamentState
from riverboat.room.tournament.tables import Entrant


class PrizeRule(Protocol):
    """The variant's prizes (:meth:`riverboat.room.tournament.variants.Variant.prizes`, bound to its director)."""

    def __call__(self, pool: int, entrants: int) -> Sequence[int] | None: ...


class Purse:
    def __init__(self, st: TournamentState, variant_prizes: PrizeRule) -> None:
        self.st = st
        self.variant_prizes = variant_prizes

    # ------------------------------------------------------------------ the pool
    def add_to_pool(self, amount: int) -> None:
        """A variant's room money added to the pool (call from ``before_start``; paid by ``set_prizes``)."""
        self.st.pool_collected += amount

    def set_prizes(self, prizes: list[int], *, ticket_for: str | None = None) -> None:
        """A variant fixes the prize of every place (e.g. the Twister draw); with ``ticket_for`` each prize is a
        non-cashable ticket valid for that tournament id or scope (Wild Twister, R-WILD-1)."""
        self.st.override = list(prizes)
        self.st.override_ticket_for = ticket_for
        self.st.awards = None

    @property
    def prize_pool(self) -> int:
        """The pool: what was collected plus the overlay; before the start also the room's added prize
        (R-TOURN-FREE-1: a freeroll's lobby shows the pool it will play for), which is paid in at the start."""
        st = self.st
        added = st.spec.added_prize if st.status in (Status.SCHEDULED, Status.REGISTERING) else 0
        return st.pool_collected + st.overlay + added

    def place_awards(self) -> list[PlaceAward]:
        """The award of each place; before the start, for the field registered so far (at least the minimum)."""
        st = self.st
        if st.awards is not None:
            return st.awards
        entrants = st.entries or max(len(st.registered), st.spec.min_entrants, 1)
        pool = self.prize_pool - sum(b for _, b in st.spec.named_bounties)
        override = st.override
        if st.spec.flight is not None:
            return []  # a Day 1 flight pays nothing: its buy-ins are Day 2's pool (R-TOURN-FLIGHT-4)
        if override is None and st.spec.day2_of is not None:
            override = flights.day2_awards(st.spec, max(0, pool), entrants)
        if override is None:
            maybe = self.variant_prizes(pool, entrants)
            override = list(maybe) if maybe is not None else None
        out = awards.place_awards(st.spec, max(0, pool), entrants, override, ticket_for=st.override_ticket_for)
        if st.entries:
            st.awards = out
        return out

    def paid_places(self) -> int:
        return len(self.place_awards())

    async def maybe_finalize_pool(self, *, money: bool = False) -> None:
        """Once no more money can come in (late registration and re-buy/add-on periods over), the house pays any
        overlay of the guarantee (R-TOURN-MTT-4, R-TOURN-GEN-1) and the prizes are fixed. ``money``: a hand about
        to be recorded pays the first prize: the pool is final now (late registration and re-buys end with it)."""
        st = self.st
        if st.pool_final:
            return
        spec = st.spec
        last_money_level = spec.late_registration_levels
        if spec.rebuy is not None:
            last_money_level = max(last_money_level, spec.rebuy.period_levels + (1 if spec.rebuy.addon_price else 0))
        if not money and st.level_index() < last_money_level and st.alive > self.paid_places():
            return
        st.pool_final = True
        if spec.guarantee:
            st.overlay += await st.gw.call(st.gw.store.tournaments.pay_overlay, st.id, f"t_overlay:{st.id}")
        st.awards = None

    async def money_at(self, out: int) -> None:
        """``out`` players are about to be ranked: if that pays a place (or decides the winner) while the pool is
        still open, it becomes final first, so that the guarantee's overlay is in it before the first prize is
        paid (R-TOURN-MTT-4, R-TOURN-GEN-5); no entry or re-buy comes in after that."""
        st = self.st
        if out and not st.pool_final and st.spec.flight is None and st.alive - out < max(self.paid_places(), 2):
            await self.maybe_finalize_pool(money=True)

    # ------------------------------------------------------------------ places and prizes
    def rank(self, gone: list[Bust], out: Outcome) -> None:
        """Rank ``gone`` (out at the same moment) and add their places and prizes to ``out``; the last player left
        wins (their own bounty and any named bounty nobody collected)."""
        st = self.st
        if not gone:
            return
        prizes = self.place_awards()
        # players ranked by a hand decided before this one (another table, same group commit) count as out
        alive = st.alive - len(st.out_pending)
        paid = self.paid_places()
        if alive > paid >= alive - len(gone) and len(st.tables) > 1 and not st.h4h_round:
            st.stats.bubble_outside_hand_for_hand += 1
        awards.rank_and_pay(st.spec, gone, alive, prizes, out)
        st.out_pending.update(b.player_id for b in gone)
        if alive - len(gone) == 1 and st.spec.flight is None:  # the last of a flight goes to Day 2, not wins
            waiting = {b.player_id for b, _ in st.round_busts}
            last = next(pid for pid in st.entrants_by_id if pid not in st.out_pending and pid not in waiting)
            e = st.entrants_by_id[last]
            awards.winner(st.spec, last, prizes, out.bounties.get(last, e.bounty) if st.spec.knockout else 0,
                          sum(st.named_left.values()), out)
            st.named_left.clear()
            st.out_pending.add(last)

    def count(self, out: Outcome) -> None:
        """What ``out`` paid, counted (totals, bounties won, named bounties won before the player's finish)."""
        st = self.st
        st.paid_total += sum(p.amount for p in out.payments)
        st.prize_paid += sum(p.amount for p in out.payments if p.kind != "bounty")
        st.payments_made += len(out.payments)
        for w in out.won:
            st.bounties_won[w.player] = st.bounties_won.get(w.player, 0) + w.cash
        finishing = {f.player_id for f in out.finishes}
        for pid, amount in out.prizes.items():  # a named bounty won before the player's own finish
            if pid not in finishing:
                st.early[pid] = st.early.get(pid, 0) + amount

    # ------------------------------------------------------------------ re-buys and the add-on (R-TOURN-REBUY)
    def rebuy_open(self, e: Entrant, chips: int | None = None) -> bool:
        """A re-buy is open to ``e`` now (``chips``: their stack after the hand just decided, else ``e.chips``)."""
        st = self.st
        rb = st.spec.rebuy
        if rb is None or st.level_index() >= rb.period_levels or st.pool_final:
            return False  # the period is over, or the money reached (the pool is final)
        if rb.max_rebuys and e.rebuys >= rb.max_rebuys:
            return False
        return (e.chips if chips is None else chips) <= (rb.max_stack or st.spec.starting_stack)

    def addon_open(self, e: Entrant) -> bool:
        st = self.st
        rb = st.spec.rebuy
        if rb is None or not rb.addon_price or e.addons or st.pool_final:
            return False
        pos = st.levels.position(st.now) if st.levels is not None else None
        return pos is not None and (pos.level == rb.period_levels or (pos.on_break and pos.level + 1 ==
                                                                      rb.period_levels))

    def wants_rebuy(self, e: Entrant, chips: int | None = None) -> bool:
        """A bot, or a player with automatic re-buys, re-buys at once when busted in the period."""
        return (e.player_id in self.st.bots or e.auto_rebuy) and self.rebuy_open(e, chips)

    def may_decide(self, e: Entrant, chips: int | None = None) -> bool:
        """A busted human during the re-buy period gets ``decision_seconds`` to re-buy before being ranked."""
        rb = self.st.spec.rebuy
        return rb is not None and rb.decision_seconds > 0 and self.rebuy_open(e, chips)
