"""A running tournament after a server restart (R-SERVER-1, issue #11 item 6 "Crash"): the director is rebuilt from
``store.tournament_play.snapshot``. Nothing of a hand in progress was ever written (each hand is recorded once,
complete, by ``hand_done``), so every stack is the one after that table's last completed hand; the tables, seats,
buttons and big blinds, the level clock (seconds played), the eliminated players' places and prizes, re-buys,
add-ons and bounties come back as they were, and play goes on. The prizes already paid count the satellite tickets
already issued (``EntryRow.tickets``) as well as the cash: the pool, the seats left and the results are those of
the run before the stop (R-TOURN-SAT-1). An operator may instead interrupt it
(R-TOURN-INT, :mod:`.compensation`).

A player left with no chips (out in a hand-for-hand round that had not been ranked yet, or a re-buy not paid) is
ranked at once, as if out together (R-TOURN-GEN-6 by their entry order and stack 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from riverboat.room.tournament.awards import Outcome
from riverboat.room.tournament.director import Director
from riverboat.room.tournament.lifecycle import Status
from riverboat.room.tournament.ranking import Bust
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament.state import BotPolicy, DirectorHost, Result
from riverboat.room.tournament.tables import Entrant
from riverboat.store.tournament_play import EntryRow, Snapshot


async def resume(host: DirectorHost, tournament_id: str, *, bots: Mapping[int, BotPolicy] | None = None,
                 seed: int | None = None, **options: Any) -> Director:
    """Rebuild and restart the director of a running tournament from the store (``options``: the
    :class:`Director`'s, e.g. a cluster host's ``dealing``, whose tables may be dealt on other hosts)."""
    gw = host.gateway
    snap: Snapshot = await gw.call(gw.store.tournament_play.snapshot, tournament_id)
    if snap.status != "running" or snap.spec is None:
        raise ValueError(f"tournament {tournament_id!r} is {snap.status}: nothing to resume")
    spec = TournamentSpec.from_dict(snap.spec)
    d = Director(host, tournament_id, spec, bots=bots, seed=seed, **options)
    _restore_field(d, snap)
    _restore_tables(d, snap)
    await d.variant.on_resume(d)  # e.g. the Twister spin and its prizes, kept by the variant's store
    d.actor.start()
    await d.actor.submit(lambda: _restart(d))
    return d


def _restore_field(d: Director, snap: Snapshot) -> None:
    entered = [e for e in snap.entries if e.status in ("registered", "eliminated", "won")]
    d.entries = len(entered)
    timebank = d.settings.timebank_seconds
    prizes = 0
    for row in entered:
        won = row.prize + row.tickets  # cash prizes and the value of the tickets already issued (satellites)
        prizes += won
        if row.status == "registered":
            d.entrants_by_id[row.player_id] = _entrant(row, timebank, d)
            if won:  # a named bounty collected before the player's own finish
                d.early[row.player_id] = won
        else:
            d.results[row.player_id] = Result(row.player_id, row.place or 0, row.place_to or 0, won)
    d.alive = len(d.entrants_by_id)
    d.chips_issued = sum(e.chips for e in d.entrants_by_id.values())
    d.prize_paid = prizes
    d.overlay = snap.overlay
    d.pool_collected = snap.prize_pool + prizes - snap.overlay
    d.pool_final = snap.overlay > 0
    d.named_left = {p: b for p, b in spec_named(d) if p in d.entrants_by_id}
    d.lifecycle.status = Status.RUNNING


def spec_named(d: Director) -> list[tuple[int, int]]:
    return list(d.spec.named_bounties)


def _entrant(row: EntryRow, timebank: float, d: Director) -> Entrant:
    e = Entrant(row.player_id, row.entry_no, row.chips, timebank, rebuys=row.rebuys, addons=row.addons,
                bounty=row.bounty)
    # nobody is connected to a process that has just started (a room only learns of disconnections, so it would
    # call them connected and wait for each on the timers): every player but the bots is folded at once until
    # they come back (Director.connected), as R-SERVER-3 sits out a crashed cash table's players (R-TOURN-REG-5)
    e.sitting_out = row.player_id not in d.bots
    return e


def _restore_tables(d: Director, snap: Snapshot) -> None:
    elapsed = 0.0
    for row in snap.tables:
        if row.status != "open":
            continue
        table = d.dealing.table(row.table_id)
        table.button, table.big_blind, table.hand_no = row.button, row.big_blind, row.hands
        d.tables[row.table_id] = table
        elapsed = max(elapsed, row.elapsed)
        try:
            d.table_seq = max(d.table_seq, int(row.table_id.rsplit("/t", 1)[1]))
        except (IndexError, ValueError):
            pass
    for entry in snap.entries:
        e = d.entrants_by_id.get(entry.player_id)
        if e is None or entry.table_id not in d.tables or entry.seat is None:
            continue
        d.tables[entry.table_id].add(e, entry.seat)
    for tid in [t for t, table in d.tables.items() if not table.seats]:
        del d.tables[tid]
    for table in d.tables.values():
        d.balancer.add_table(table.id, len(table.seats))
    from riverboat.room.tournament.levels import LevelClock

    d.levels = LevelClock(d.spec, started_at=d.now)
    d.levels.resume_from(elapsed, d.now)
    d.level_seen = d.levels.position(d.now).level


async def _restart(d: Director) -> None:
    """Rank anybody left with no chips, rebalance, then deal every table."""
    broke = [e for e in d.entrants_by_id.values() if e.chips <= 0]
    if broke:
        out = Outcome()
        d.purse.rank([Bust(e.player_id, 0, e.entry_no) for e in broke], out)
        await d.gw.call(d.gw.store.tournament_play.finish_unplayed, d.id, out.finishes, out.payments,
                        f"resume-out:{d.alive}")
        d.purse.count(out)
        d.field.finish_players(out, [e.player_id for e in broke])
    flight = d.spec.flight
    if flight is not None and (d.alive <= 1 or d.level_index() >= flight.levels):
        await d.field.end_flight()  # a Day 1 flight stopped after its last level: the survivors go to Day 2
        return
    if d.alive <= 1:
        await d.field.finished()
        return
    await d.purse.maybe_finalize_pool()
    await d.seating.rebalance()
    t = d.lifecycle.on_field(d.alive, len(d.tables))
    if t is not None and t.to is Status.FINAL_TABLE:
        d.lifecycle.apply(t, d.now)
    d.waiting = {tid for tid, table in d.tables.items() if len(table.seats) >= 2}
    await d.dealer.pump()
