"""What eliminations pay, as pure code: places and prizes (R-TOURN-GEN-5/6), satellite tickets (R-TOURN-SAT-1,
R-TOURN-GEN-2), knockout and progressive knockout bounties (R-TOURN-KO-1, R-TOURN-PKO-3 reading) and named
bounties (R-TOURN-BOUNTY-1). The director turns the result into one store transaction per hand.

Readings (docs/tournaments.md): a satellite pays a ticket worth ``seat_value`` to each of the first
``pool // seat_value`` places and the remainder in cash to the next place; tied players of a ticket place each
take one of the group's awards in registration order (a ticket cannot be split). A named bounty nobody collected
(the named player won) goes to the winner with the first prize.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from riverboat.room.tournament import payouts as payout_tables
from riverboat.room.tournament.ranking import Bust, PlaceGroup, group_prizes, rank_busts, split_evenly
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.store.tournament_play import Finish, Payment


@dataclass(frozen=True, slots=True)
class PlaceAward:
    """What one place pays: ``cash`` from the prize pool, or a satellite ``ticket`` worth ``cash``."""

    cash: int
    ticket: bool = False
    ticket_for: str | None = None  # a ticket's tournament id or scope (None: the satellite's target)


@dataclass(slots=True)
class Outcome:
    """Everything one hand (or one hand-for-hand round) decided."""

    finishes: list[Finish] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    bounties: dict[int, int] = field(default_factory=dict)  # player -> new bounty on their head
    prizes: dict[int, int] = field(default_factory=dict)  # player -> cash/ticket value won by their place
    won: list[BountyWon] = field(default_factory=list)  # every bounty won (the table's hand log, the results)


@dataclass(frozen=True, slots=True)
class BountyWon:
    """A bounty won in a hand: ``player`` took ``cash`` for eliminating ``busted`` (``added``: the part added to
    their own bounty in a progressive knockout, R-TOURN-PKO-3; ``named``: a named bounty, R-TOURN-BOUNTY-1;
    ``busted`` is the winner themself for the winner's own bounty)."""

    player: int
    busted: int
    cash: int
    added: int = 0
    named: bool = False


def place_awards(spec: TournamentSpec, pool: int, entrants: int,
                 override: Sequence[int] | None = None, *, ticket_for: str | None = None) -> list[PlaceAward]:
    """The award of place 1, 2, ... for a field of ``entrants`` and a place-prize pool of ``pool``."""
    sat = spec.satellite
    if sat is not None:
        seats = min(entrants, pool // sat.seat_value)
        out = [PlaceAward(sat.seat_value, ticket=True) for _ in range(seats)]
        rest = pool - seats * sat.seat_value
        if rest:
            out.append(PlaceAward(rest))
        return out
    if override is not None:
        return [PlaceAward(int(a), ticket=ticket_for is not None, ticket_for=ticket_for) for a in override]
    row = payout_tables.row_for(spec.payout_rows(), max(1, entrants))
    return [PlaceAward(a) for a in payout_tables.prizes(pool, row, entrants)]


def rank_and_pay(spec: TournamentSpec, busts: Sequence[Bust], players_left_before: int,
                 awards: Sequence[PlaceAward], out: Outcome) -> None:
    """Rank ``busts`` (out at the same moment) and add their finishes and prize payments to ``out``."""
    for group in rank_busts(busts, players_left_before):
        _pay_group(spec, group, awards, out)


def _pay_group(spec: TournamentSpec, group: PlaceGroup, awards: Sequence[PlaceAward], out: Outcome) -> None:
    last = group.places[-1]
    tickets = any(i - 1 < len(awards) and awards[i - 1].ticket for i in group.places)
    if tickets:  # a ticket cannot be shared: each takes one place of the group, in registration order
        for pid, place in zip(group.players, group.places, strict=True):
            out.finishes.append(Finish(pid, place, place))
            if place - 1 < len(awards):
                _pay(spec, pid, awards[place - 1], out)
        return
    cash = group_prizes(group, [a.cash for a in awards])
    for pid in group.players:
        out.finishes.append(Finish(pid, group.best, last))
        if cash.get(pid):
            _pay(spec, pid, PlaceAward(cash[pid]), out)


def _pay(spec: TournamentSpec, pid: int, award: PlaceAward, out: Outcome) -> None:
    if award.cash <= 0:
        return
    if award.ticket:
        target = award.ticket_for or (spec.satellite.target if spec.satellite is not None else None)
        assert target is not None
        out.payments.append(Payment(pid, "ticket", award.cash, ticket_for=target))
    else:
        out.payments.append(Payment(pid, "prize", award.cash))
    out.prizes[pid] = out.prizes.get(pid, 0) + award.cash


def winner(spec: TournamentSpec, pid: int, awards: Sequence[PlaceAward], own_bounty: int,
           unclaimed_named: int, out: Outcome) -> None:
    """The last player: first place, their own knockout bounty (R-TOURN-PKO-3 reading) and any named bounty
    nobody collected."""
    out.finishes.append(Finish(pid, 1, 1, won=True))
    if awards:
        _pay(spec, pid, awards[0], out)
    if own_bounty:
        out.payments.append(Payment(pid, "bounty", own_bounty))
        out.won.append(BountyWon(pid, pid, own_bounty))
    if unclaimed_named:
        out.payments.append(Payment(pid, "prize", unclaimed_named))
        out.prizes[pid] = out.prizes.get(pid, 0) + unclaimed_named


def knockout(spec: TournamentSpec, busted: int, bounty: int, eliminators: Sequence[int],
             bounties: Mapping[int, int], out: Outcome) -> None:
    """The bounty on ``busted``'s head to its eliminators (shared evenly, remainder in their order): a plain
    knockout pays all of it (R-TOURN-KO-1); a progressive one pays ``share_ppb`` in cash and adds the rest to the
    eliminators' own bounties (R-TOURN-PKO-3 reading)."""
    ko = spec.knockout
    if ko is None or bounty <= 0 or not eliminators:
        return
    cash = bounty if not ko.progressive else bounty * ko.share_ppb // payout_tables.PPB
    cash_of = split_evenly(cash, list(eliminators))
    added_of = split_evenly(bounty - cash, list(eliminators)) if bounty - cash else {}
    for pid, amount in cash_of.items():
        if amount:
            out.payments.append(Payment(pid, "bounty", amount))
    for pid, amount in added_of.items():
        out.bounties[pid] = out.bounties.get(pid, bounties.get(pid, 0)) + amount
    for pid in eliminators:
        if cash_of.get(pid) or added_of.get(pid):
            out.won.append(BountyWon(pid, busted, cash_of.get(pid, 0), added_of.get(pid, 0)))


def named_bounty(busted: int, named: Mapping[int, int], eliminators: Sequence[int], out: Outcome) -> int:
    """R-TOURN-BOUNTY-1: eliminating a named player pays their bounty (from the prize pool, set aside). Returns the
    amount paid (0: not a named player, or nobody to pay)."""
    amount = named.get(busted, 0)
    if not amount or not eliminators:
        return 0
    for pid, share in split_evenly(amount, list(eliminators)).items():
        if share:
            out.payments.append(Payment(pid, "prize", share))
            out.prizes[pid] = out.prizes.get(pid, 0) + share
            out.won.append(BountyWon(pid, busted, share, named=True))
    return amount
