"""The room's tournaments: the lobby's Sit & Go and Tournament tabs, players' commands and the operator's powers
(R-OPER-1..5) over the running :class:`~riverboat.room.tournament.director.Director` s.

- ``create(spec)``: a scheduled MTT or a Sit & Go; ``series=True`` for a Sit & Go reopens the same description as
  soon as one starts (R-TOURN-SNG-1); ``create_flights(event)``: a flight event, its Day 1 flights and its Day 2
  (R-TOURN-FLIGHT, :mod:`.flights`);
- ``edit(id, changes)``: before the start only, any field of the spec (time, guarantee, conditions), validated
  (R-OPER-2);
- ``cancel(id)``: before the start: every buy-in and fee back (R-TOURN-REG-4, R-OPER-3);
- ``interrupt(id)``: a running tournament stops and each remaining player is paid the compensation of its kind
  (:mod:`.compensation`, R-TOURN-INT, R-WALLET-7) through the ledger;
- ``disqualify(id, player, operator)``: the player leaves the tournament, their chips leave play and their buy-ins
  and fees are forfeited (R-INTEG-5, R-WALLET-8);
- ``lobby()`` / ``detail(id)``: what the lobby shows (fee breakdown R-FEE-1, entrants, pool, payouts, structure,
  tables and players).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from riverboat.errors import declare
from riverboat.room.errors import RoomError
from riverboat.room.settings import TableSettings
from riverboat.room.tournament import edits
from riverboat.room.tournament.balancing import Balancer
from riverboat.room.tournament.compensation import CompensationInput, Remaining, compensate
from riverboat.room.tournament.director import BotPolicy, Director, DirectorHost
from riverboat.room.tournament.flights import FlightEvent
from riverboat.room.tournament.lifecycle import OVER, PLAYING, Status, Transition
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.store.tournament_play import Award
from riverboat.store.twister import ID_PREFIX

TWISTER_PREFIXES = tuple(sorted(set(ID_PREFIX.values())))  # Twister tournaments belong to hub.twister

declare("no_tournament", 404)


class TournamentLobby:
    def __init__(self, host: DirectorHost, *, bots: Mapping[int, BotPolicy] | None = None) -> None:
        self.host = host
        self.bots: dict[int, BotPolicy] = dict(bots or {})
        self.directors: dict[str, Director] = {}
        self._seq = itertools.count(1)

    # ------------------------------------------------------------------ creating
    async def create(self, spec: TournamentSpec, tournament_id: str | None = None, *, series: bool = False,
                     fill: list[int] | None = None) -> Director:
        """A new tournament; ``fill``: in-process bots (ids in ``self.bots``) registered at once (the demo: a Sit &
        Go one seat short of full, so that a player who joins starts it)."""
        tid = tournament_id or await self._fresh_id("sng" if spec.is_sng else "mtt")
        if tid in self.directors:
            raise RoomError("bad_settings", f"tournament {tid!r} already exists")

        async def reopen(d: Director) -> None:
            await self.create(d.spec, await self._fresh_id(f"{tid.split('.')[0]}."), series=True, fill=fill)

        d = Director(self.host, tid, spec, bots=self.bots, on_start=reopen if series else None)
        await d.open()
        self.directors[tid] = d
        for pid in fill or ():
            await d.register(pid)
        return d

    async def _fresh_id(self, stem: str) -> str:
        """The next id of the form ``stem + n`` that neither this lobby nor the store has used: the counter
        starts again at 1 in every process, the store keeps the tournaments of earlier runs."""
        gw = self.host.gateway
        while True:
            tid = f"{stem}{next(self._seq)}"
            if tid not in self.directors and not await gw.call(gw.store.tournaments.exists, tid):
                return tid

    async def create_flights(self, event: FlightEvent) -> dict[str, Any]:
        """R-TOURN-FLIGHT-1: a flight event: its Day 2 (registering: nobody enters it, the flights' survivors are
        entered as they qualify) and its Day 1 flights, each a scheduled MTT whose buy-ins go to the Day 2 pool.
        A flight that ends wakes Day 2 (which starts at its time once every flight is over)."""
        ids = [event.day2_id, *(tid for tid, _ in event.flights)]
        for tid in ids:
            if tid in self.directors or await self.host.gateway.call(self.host.gateway.store.tournaments.exists,
                                                                      tid):
                raise RoomError("bad_settings", f"tournament {tid!r} already exists")
        day2 = await self.create(event.day2, event.day2_id)

        async def flight_over(_: Director) -> None:
            day2.actor.post(day2.registration.tick)

        for tid, spec in event.flights:
            d = await self.create(spec, tid)
            d.on_end = flight_over
        return {"event": event.event, "day2": event.day2_id, "flights": ids[1:]}

    def get(self, tournament_id: str) -> Director:
        d = self.directors.get(tournament_id)
        if d is None:
            raise RoomError("no_tournament", f"no tournament {tournament_id!r}")
        return d

    # ------------------------------------------------------------------ operator powers (R-OPER)
    async def edit(self, tournament_id: str, changes: Mapping[str, Any]) -> Director:
        """R-OPER-2: change a tournament's time, guarantee or conditions. Nobody entered yet: any field, the
        tournament re-created under a new id. Players in: the same tournament, changed in place as far as
        :mod:`.edits` allows (else ``bad_state`` / ``bad_settings`` and nothing changes), every player told."""
        d = self.get(tournament_id)
        if d.registered or d.status not in (Status.SCHEDULED, Status.REGISTERING):
            await d.actor.submit(lambda: edit_in_place(d, changes))
            return d
        spec = await self.retire_for_edit(tournament_id, changes)
        return await self.create(spec, f"{tournament_id.split('.')[0]}.{next(self._seq)}")

    async def retire_for_edit(self, tournament_id: str, changes: Mapping[str, Any]) -> TournamentSpec:
        """The first half of an edit (R-OPER-2): the changed spec (validated first: a bad change changes nothing),
        the tournament closed and cancelled in the store; the caller creates the edited one (a cluster host
        declares it in the cluster)."""
        d = self.get(tournament_id)
        if d.status not in (Status.SCHEDULED, Status.REGISTERING) or d.registered:
            raise RoomError("bad_state", "only a tournament nobody has entered yet can be edited")
        data = d.spec.to_dict() | dict(changes)
        spec = TournamentSpec.from_dict(data)
        await d.close()
        del self.directors[tournament_id]
        await self.host.gateway.call(self.host.gateway.store.tournaments.cancel, tournament_id)
        return spec

    async def cancel(self, tournament_id: str) -> dict[str, Any]:
        """R-OPER-3 / R-TOURN-REG-4: before the start, every buy-in and fee back."""
        d = self.get(tournament_id)

        async def run() -> None:
            if d.status not in (Status.SCHEDULED, Status.REGISTERING):
                raise RoomError("bad_state", "a running tournament is interrupted, not cancelled (R-TOURN-INT)")
            await d.registration.cancel("cancelled by the operator (R-OPER-3)")

        await d.actor.submit(run)
        return {"tournament": tournament_id, "status": d.status.value}

    async def interrupt(self, tournament_id: str) -> dict[str, Any]:
        """R-TOURN-INT / R-WALLET-7: stop a running tournament and pay each remaining player its compensation."""
        d = self.get(tournament_id)
        return await d.actor.submit(lambda: self._interrupt(d))

    async def _interrupt(self, d: Director) -> dict[str, Any]:
        if d.status not in PLAYING:
            raise RoomError("bad_state", f"only a running tournament can be interrupted (it is {d.status.value})")
        for table in d.tables.values():  # the hands in progress are void (R-TOURN-INT-1): stacks as before them
            if table.driver is not None:
                table.driver.close()
                table.driver = None
        inp = compensation_input(d)
        result = compensate(inp)
        awards: dict[int, Award] = {}
        fees = 0
        for name, total in result.payouts.items():
            parts = result.parts.get(name, {})
            refund = parts.get("refund", 0) + parts.get("fee", 0)
            fees += parts.get("fee", 0)
            awards[int(name)] = Award(refund=refund > 0, cash=total - refund)
        house_in = max(0, result.from_house - fees)
        gw = d.gw
        await gw.call(gw.store.tournament_play.interrupt, d.id, awards, house_in)
        d.lifecycle.apply(Transition(Status.INTERRUPTED, "interrupted by the operator (R-TOURN-INT)"), d.now)
        for pid, total in result.payouts.items():
            d.notify(int(pid), "interrupted", {"compensation": total})
        d.done.set()
        return {"tournament": d.id, "status": d.status.value, "payouts": result.payouts,
                "from_pool": result.from_pool, "from_house": result.from_house}

    async def disqualify(self, tournament_id: str, player_id: int, operator_id: int) -> dict[str, Any]:
        """R-INTEG-5 / R-WALLET-8: out of the tournament, chips out of play, buy-ins and fees forfeited."""
        d = self.get(tournament_id)

        async def run() -> dict[str, Any]:
            return dict(await d.discipline.disqualify(player_id, operator_id))

        return await d.actor.submit(run)

    # ------------------------------------------------------------------ reading
    def lobby(self) -> dict[str, list[dict[str, Any]]]:
        """The lobby's two tabs: Sit & Go's and Tournaments (finished ones are left out)."""
        out: dict[str, list[dict[str, Any]]] = {"sng": [], "mtt": []}
        for d in self.directors.values():
            if d.status in OVER and d.status is not Status.FINISHED:
                continue
            out["sng" if d.spec.is_sng else "mtt"].append(entry(d))
        return out

    def detail(self, tournament_id: str) -> dict[str, Any]:
        d = self.get(tournament_id)
        out = entry(d)
        spec = d.spec
        out["structure"] = {"levels": [_level(lv) for lv in spec.levels],
                            "level_seconds": spec.level_seconds, "level_hands": spec.level_hands,
                            "break_every_levels": spec.break_every_levels, "break_seconds": spec.break_seconds,
                            "late_registration_levels": spec.late_registration_levels}
        out["limit"] = spec.structure  # the betting structure ("structure" is the level structure here)
        out["payouts"] = [a.cash for a in d.place_awards()]
        out["tickets"] = [a.ticket for a in d.place_awards()]  # satellite places pay a ticket worth the amount
        out["overlay"] = d.overlay if d.pool_final else max(0, spec.guarantee - d.pool_collected)
        out["rebuy"] = dataclasses.asdict(spec.rebuy) if spec.rebuy is not None else None
        out["unregister_deadline"] = spec.unregister_deadline
        out["entrant_list"] = [{"player": pid, "alias": d.aliases.get(pid)} for pid in d.registered]
        ko = spec.knockout is not None  # each player's bounty now and the bounties won (R-TOURN-KO-1, PKO-2)
        out["tables"] = [{"id": t.id, "players": [{"player": e.player_id, "alias": d.aliases.get(e.player_id),
                                                   "seat": s, "chips": e.chips,
                                                   **({"bounty": e.bounty,
                                                       "bounties_won": d.bounties_won.get(e.player_id, 0)}
                                                      if ko else {})}
                                                  for s, e in sorted(t.seats.items())]}
                         for t in d.tables.values()]
        out["results"] = [{"player": r.player_id, "alias": d.aliases.get(r.player_id), "place": r.place,
                           "place_to": r.place_to, "prize": r.prize, "bounties": r.bounties}
                          for r in sorted(d.results.values(), key=lambda r: r.place)]
        return out

    async def recover(self) -> dict[str, list[str]]:
        """After a restart (R-SERVER-1): every running tournament of the store resumes from the stacks after its
        tables' last completed hands (:mod:`.resume`); one still registering is cancelled and every buy-in and fee
        refunded (R-TOURN-REG-4 reading: its director is gone, the operator opens it again). Returns the ids."""
        from riverboat.room.tournament.resume import resume

        gw = self.host.gateway
        out: dict[str, list[str]] = {"resumed": [], "cancelled": [], "reopened": []}
        for tid in await gw.call(gw.store.tournament_play.unfinished):
            if tid in self.directors or tid.startswith(TWISTER_PREFIXES):
                continue
            status = await gw.call(gw.store.tournaments.status, tid)
            if status == "running":
                try:
                    self.directors[tid] = await resume(self.host, tid, bots=self.bots)
                except (ValueError, RoomError):
                    continue  # not a tournament of this lobby (e.g. a Twister of hub.twister)
                out["resumed"].append(tid)
            elif status == "registering" and await self._reopen_day2(tid):
                out["reopened"].append(tid)  # a Day 2 keeps its qualifiers and the event's pool
            elif status == "registering":
                await gw.call(gw.store.tournaments.cancel, tid)
                out["cancelled"].append(tid)
        return out

    async def _reopen_day2(self, tid: str) -> bool:
        """A Day 2 still waiting for its flights after a restart opens again as it was (R-TOURN-FLIGHT)."""
        gw = self.host.gateway
        snap = await gw.call(gw.store.tournament_play.snapshot, tid)
        if not snap.spec or not snap.spec.get("day2_of"):
            return False
        d = Director(self.host, tid, TournamentSpec.from_dict(snap.spec), bots=self.bots)
        d.lifecycle.status = Status.REGISTERING
        d.actor.start()
        self.directors[tid] = d
        await d.actor.submit(d.registration.tick)
        return True

    async def alias_changed(self, player_id: int, alias: str | None) -> None:
        """R-ALIAS-2 (issue #31 item 7): a new alias reaches the tournaments entered before it: their lists, tables
        and results name the player by it, and everyone at the player's table gets the table with it."""
        for d in self.directors.values():
            if player_id not in d.aliases and player_id not in d.entrants_by_id and player_id not in d.registered:
                continue
            d.aliases[player_id] = alias
            e = d.entrants_by_id.get(player_id)
            table = d.tables.get(e.table_id or "") if e is not None else None
            if table is not None:
                for seated in [x.player_id for x in table.seats.values()]:
                    d.send_table_state(table, seated)

    async def connected(self, player_id: int) -> None:
        """A player logged in: in each tournament they play, no longer sitting out (R-TOURN-REG-5)."""
        for d in list(self.directors.values()):
            if player_id in d.entrants_by_id:
                await d.actor.submit(lambda d=d: d.connected(player_id))  # type: ignore[misc]

    def disconnected(self, player_id: int) -> None:
        """A player's last connection closed: each tournament they play gives them the reconnect window at their
        turn and deals them in as away until they return (R-DISC-1/2, R-TOURN-DISC-1)."""
        for d in list(self.directors.values()):
            if player_id in d.entrants_by_id:
                d.actor.post(functools.partial(d.disconnected, player_id))

    async def sit_out(self, tournament_id: str, player_id: int, out: bool) -> dict[str, Any]:
        """R-SITOUT-1/2: the player sits out of (or back into) their tournament: blinded away meanwhile."""
        return await self.get(tournament_id).sit_out(player_id, out)

    async def close(self) -> None:
        for d in self.directors.values():
            await d.close()


def _level(lv: Any) -> dict[str, int]:
    return {k: getattr(lv, k) for k in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet")}


def entry(d: Director) -> dict[str, Any]:
    """One row of the lobby (R-FEE-1: the "i" breakdown is buy_in + fee)."""
    spec = d.spec
    return {"id": d.id, "name": spec.name, "kind": spec.kind, "status": d.status.value, "game": spec.game,
            "structure": spec.structure, "mixed": spec.mixed, "seats": spec.seats, "buy_in": spec.buy_in,
            "starting_stack": spec.starting_stack,  # issue #31 item 5: shown in the lobby and the detail
            "fee": spec.fee, "currency": spec.currency, "guarantee": spec.guarantee,
            "entrants": d.entries if d.status in PLAYING | OVER else len(d.registered),
            "players_left": d.alive, "prize_pool": d.prize_pool, "starts_at": spec.starts_at,
            "private": spec.private is not None, "knockout": spec.knockout is not None,
            # R-TOURN-KO-1 / PKO-1: the starting bounty and whether it grows (the lobby row says KO or PKO)
            "bounty": spec.knockout.bounty if spec.knockout else 0,
            "progressive": bool(spec.knockout and spec.knockout.progressive),
            "rebuys": spec.rebuy is not None, "satellite": spec.satellite.target if spec.satellite else None,
            "registered": len(d.registered) if d.status not in PLAYING | OVER else d.entries,
            "max_players": spec.capacity, "players": list(d.registered),
            "late_registration": d.status in PLAYING and d.level_index() < spec.late_registration_levels,
            "event": spec.flight.event if spec.flight else spec.day2_of,  # R-TOURN-FLIGHT-1: Day 1A, 1B..., Day 2
            "day": spec.flight.day if spec.flight else "2" if spec.day2_of else None}


async def edit_in_place(d: Director, changes: Mapping[str, Any]) -> dict[str, Any]:
    """R-OPER-2 on a tournament players have entered (inside its actor): validate, refuse by :func:`.edits.refusal`,
    store the new description, swap it in and tell every player (``edited`` event). Returns the changes."""
    if d.status not in {Status.SCHEDULED, Status.REGISTERING} | PLAYING:
        raise RoomError("bad_state", f"a {d.status.value} tournament cannot be edited")
    spec = edits.apply(d.spec, changes)
    entrants = len(d.registered) if d.status not in PLAYING else d.entries
    why = edits.refusal(d.spec, spec, entrants=entrants, started=d.status in PLAYING, prizes_fixed=d.pool_final,
                        now=d.now)
    if why is not None:
        raise RoomError("bad_state", why)
    diff = edits.changed(d.spec, spec)
    if not diff:
        return {}
    deadline = (datetime.fromtimestamp(spec.unregister_deadline, UTC)
                if spec.unregister_deadline is not None else None)
    await d.gw.call(d.gw.store.tournaments.edit, d.id, spec=spec.to_dict(), name=spec.name,
                    guarantee=spec.guarantee, unregister_deadline=deadline)
    d.spec = d.lifecycle.spec = spec
    d.settings = TableSettings.from_dict(spec.settings)
    if d.status not in PLAYING:  # seats per table (an MTT) are used from the start on
        d.balancer = Balancer(spec.seats, rng=d.choice)
    d.awards = None
    d.notify_all("edited", {"changes": diff, "rule": "R-OPER-2"})
    if d.status not in PLAYING:
        await d.registration.tick()  # the start time may have moved: the timer follows it
    return diff


def compensation_input(d: Director) -> CompensationInput:
    """The state of ``d`` as :func:`~riverboat.room.tournament.compensation.compensate` reads it."""
    spec = d.spec
    kind = ("freeroll" if spec.freeroll else "heads_up" if d.entries == 2 else "sng" if spec.is_sng else "mtt")
    rb = spec.rebuy
    eliminated = list(d.results.values())
    remaining = tuple(Remaining(str(e.player_id), e.chips, e.rebuys, e.addons)
                      for e in sorted(d.entrants_by_id.values(), key=lambda e: -e.chips))
    return CompensationInput(
        kind=kind, buy_in=spec.buy_in, fee=spec.fee, prize_pool=d.prize_pool, remaining=remaining,
        guarantee=spec.guarantee, rebuy_period_over=rb is None or d.level_index() >= rb.period_levels,
        rebuy_price=rb.price if rb else 0, addon_price=rb.addon_price if rb else 0,
        rebuy_fee=rb.fee if rb else 0, addon_fee=rb.addon_fee if rb else 0,
        payouts=tuple(a.cash for a in d.place_awards()), paid_so_far=d.prize_paid,
        eliminated_buy_ins=spec.buy_in * len(eliminated))
