"""Registration and the start (part of the director, issue #29 item 3): the lifecycle on its clock's timers
(scheduled -> registering -> running, or cancelled with refunds: R-TOURN-REG, R-TOURN-SNG-1, R-TOURN-MTT-2,
R-TOURN-REG-4), registering and unregistering through the store's money (R-FEE, R-TOURN-REG-1..4, private
tournaments R-TOURN-PRIV-1, late registration), and the start: the seating, the pool (added money, a Day 2's
flights), the variant's draw, the first deal."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from riverboat.room.errors import RoomError
from riverboat.room.tournament import flights
from riverboat.room.tournament.dealer import Dealer
from riverboat.room.tournament.field import Field
from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.levels import LevelClock
from riverboat.room.tournament.lifecycle import PLAYING, LifecycleError, Status, Transition
from riverboat.room.tournament.purse import Purse
from riverboat.room.tournament.seating import Seating
from riverboat.room.tournament.state import TournamentState
from riverboat.room.tournament.variants import Variant, VariantContext


class Registration:
    def __init__(self, st: TournamentState, herald: Herald, purse: Purse, seating: Seating, dealer: Dealer,
                 field: Field, variant: Variant, ctx: VariantContext,
                 on_start: Callable[[], Awaitable[None]]) -> None:
        self.st = st
        self.herald = herald
        self.purse = purse
        self.seating = seating
        self.dealer = dealer
        self.field = field
        self.variant = variant
        self.ctx = ctx
        self.on_start = on_start  # R-TOURN-SNG-1: the next Sit & Go opens at once

    async def open(self) -> None:
        """Declare the tournament in the store and open it (registration opens now or at its time)."""
        st = self.st
        spec = st.spec
        deadline = (datetime.fromtimestamp(spec.unregister_deadline, UTC)
                    if spec.unregister_deadline is not None else None)
        if not await self.variant.create(self.ctx):  # a variant may declare it itself (Twister: store.twister)
            await st.gw.call(st.gw.store.tournaments.create, st.id, spec.currency, spec.buy_in, spec.fee,
                             unregister_deadline=deadline, name=spec.name, kind=spec.kind, spec=spec.to_dict(),
                             guarantee=spec.guarantee, bounty=spec.knockout.bounty if spec.knockout else 0,
                             pool_id=spec.flight.day2 if spec.flight else None)
        st.actor.start()
        await st.actor.submit(self.tick)

    async def tick(self) -> None:
        """The lifecycle's next step by the clock and the field, and the timer of the one after it."""
        st = self.st
        held = False  # a Day 2 waits for every flight of its event (R-TOURN-FLIGHT-1..3)
        if st.spec.day2_of is not None and st.status is Status.REGISTERING:
            held = not await self._day2_ready()
        entrants = len(st.registered)
        if st.spec.day2_of is not None and entrants:  # a Day 2 never cancels a qualifier's prize (FLIGHT-4)
            entrants = max(entrants, st.spec.min_entrants)
        t = None if held else st.lifecycle.due(st.now, entrants)
        if t is not None:
            await self._apply(t)
        wake = st.lifecycle.next_wakeup(st.now)
        if held and wake is not None:
            wake = max(wake, st.now + flights.POLL_SECONDS)
        if st.timer is not None:
            st.timer.cancel()
            st.timer = None
        if wake is not None and st.status not in PLAYING:
            st.timer = st.clock.call_later(wake - st.now, lambda: st.actor.post(self.tick))

    async def _day2_ready(self) -> bool:
        """A Day 2: reload its qualifiers and their stacks from the store; True once every flight is over (none
        registering or running), so that it may start."""
        st = self.st
        players, flights = await st.gw.call(st.gw.store.tournament_play.qualifiers, st.id)
        st.registered = [pid for pid, _ in players]
        st.carried = dict(players)
        return all(status not in ("registering", "running") for _, status in flights)

    async def _apply(self, t: Transition) -> None:
        if t.to is Status.RUNNING:
            await self._start()
        elif t.to is Status.CANCELLED:
            await self.cancel(t.reason)
        else:
            self.st.lifecycle.apply(t, self.st.now)  # registration opens (R-TOURN-REG-1): nobody to tell yet

    # ------------------------------------------------------------------ registration (R-TOURN-REG)
    def _check(self, player_id: int, promo_code: str | None, password: str | None) -> None:
        st = self.st
        if st.spec.day2_of is not None:
            raise RoomError("registration_closed", "Day 2 is entered by surviving a Day 1 flight (R-TOURN-FLIGHT-2, "
                                                   "R-TOURN-FLIGHT-3)")
        priv = st.spec.private
        if priv is not None and (promo_code != priv.promo_code or password != priv.password):
            raise RoomError("bad_password", "this private tournament needs its promo code and password "
                                            "(R-TOURN-PRIV-1)")
        if player_id in st.entrants_by_id or player_id in st.is_registered or player_id in st.results:
            raise RoomError("already_registered", "you are already registered for this tournament")
        try:
            st.lifecycle.check_register(st.now, len(st.registered) if st.status is Status.REGISTERING
                                        else st.entries, st.level_index())
        except LifecycleError as exc:
            raise RoomError(exc.code, exc.message) from None
        if st.status in PLAYING and st.pool_final:
            raise RoomError("registration_closed", "the tournament is in the money: its prizes are fixed and late "
                                                   "registration is over (R-TOURN-REG-1)")

    async def register(self, player_id: int, promo_code: str | None, password: str | None,
                       ticket_id: int | None, idem_key: str | None) -> dict[str, object]:
        """Register (or enter late); ``idem_key``: the command's idempotency key (a used one: ``id_reused``)."""
        st = self.st
        self._check(player_id, promo_code, password)
        late = st.status in PLAYING
        await st.gw.call(st.gw.store.tournaments.register, player_id, st.id,
                         f"t_register:{st.id}:{player_id}:{idem_key or secrets.token_hex(6)}",
                         ticket_id=ticket_id, late=late, once=idem_key is not None)
        st.pool_collected += st.spec.pool_per_entry
        if late:
            table = await self.seating.late(player_id)
            if len(table.seats) >= 2 and not table.in_hand:
                st.waiting.add(table.id)
                await self.dealer.pump()
        else:
            st.registered.append(player_id)
            st.is_registered.add(player_id)
            await self.herald.learn_aliases([player_id])
            self.herald.notify(player_id, "registered", {"entrants": len(st.registered)})
            t = st.lifecycle.due(st.now, len(st.registered))
            if t is not None:
                await self._apply(t)
        return {"tournament": st.id, "registered": True, "entrants": len(st.registered) or st.entries}

    async def unregister(self, player_id: int, *, protection: bool = False) -> dict[str, object]:
        """R-TOURN-REG-3: before the start and the unregistration deadline, buy-in and fee back. ``protection``
        (issue #30, ``end_play``): the player's time-out or self-exclusion, which the store checks, ends the
        registration of a tournament not yet started, deadline or not."""
        st = self.st
        if player_id not in st.is_registered:
            raise RoomError("not_registered", "you are not registered for this tournament")
        try:
            if not protection or st.lifecycle.status is not Status.REGISTERING:
                st.lifecycle.check_unregister(st.now)
        except LifecycleError as exc:
            raise RoomError(exc.code, exc.message) from None
        await st.gw.call(st.gw.store.tournaments.unregister, player_id, st.id,
                         f"t_unregister:{st.id}:{player_id}:{secrets.token_hex(6)}", protection=protection)
        st.registered.remove(player_id)
        st.is_registered.discard(player_id)
        st.pool_collected -= st.spec.pool_per_entry
        self.herald.notify(player_id, "unregistered", {})
        return {"tournament": st.id, "registered": False}

    async def cancel(self, reason: str) -> None:
        """R-TOURN-REG-4 (or the operator, R-OPER-3): every buy-in and fee back."""
        st = self.st
        st.lifecycle.apply(Transition(Status.CANCELLED, reason), st.now)
        await st.gw.call(st.gw.store.tournaments.cancel, st.id)
        for pid in st.registered:
            self.herald.notify(pid, "cancelled", {"reason": reason})
        st.done.set()

    # ------------------------------------------------------------------ the start
    async def _start(self) -> None:
        st = self.st
        st.lifecycle.apply(Transition(Status.RUNNING, "start"), st.now)
        st.entries = st.alive = len(st.registered)
        seating = self.seating.initial()
        await self.herald.learn_aliases(list(st.registered))
        stacks = {pid: e.chips for pid, e in st.entrants_by_id.items()}
        st.chips_issued = sum(stacks.values())
        st.levels = LevelClock(st.spec, started_at=st.now)
        await st.gw.call(st.gw.store.tournament_play.start, st.id, seating, stacks, {"started": st.now})
        await self._fill_pool()
        await self.on_start()  # R-TOURN-SNG-1: the next Sit & Go opens at once
        await self.variant.before_start(self.ctx)
        await self.purse.maybe_finalize_pool()
        if st.alive == 1:  # a Day 2 with a single qualifier: they win at once (R-TOURN-FLIGHT-4)
            await self.field.lone_winner()
            return
        for table in st.tables.values():
            self.herald.notify_table(table, "started", lambda tid, seat: {"table": tid, "seat": seat,
                                                                          "entrants": st.entries})
        delay = self.variant.start_delay(self.ctx)  # e.g. the Twister spin shown before the first hand (R-TWIST-3)
        if delay > 0:
            st.clock.call_later(delay, lambda: st.actor.post(self.dealer.first_deal))
            return
        await self.dealer.first_deal()

    async def _fill_pool(self) -> None:
        """A Day 2's pool holds every flight's buy-ins (R-TOURN-FLIGHT-4); the room's added prize is paid in."""
        st = self.st
        if st.spec.day2_of is not None:
            st.pool_collected = await st.gw.call(st.gw.store.tournaments.prize_pool, st.id)
        if st.spec.added_prize:
            await st.gw.call(st.gw.store.tournaments.add_to_prize_pool, st.id, st.spec.added_prize,
                             f"t_added:{st.id}")
            st.pool_collected += st.spec.added_prize
