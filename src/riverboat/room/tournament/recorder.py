"""Hand recording (part of the director, issue #29 item 3): everything a finished hand decided -- stacks,
eliminations, places, prizes, bounties (R-TOURN-GEN-5/6, R-WALLET-6, R-TOURN-KO/PKO/BOUNTY) -- recorded in ONE store
call per hand (``tournament_play.hand_done``), hands of several tables in one group commit, and only then acted on
(the players told, the table dealt again: R-SERVER-1)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from riverboat.room.hand_driver import SETTLE_RETRY_SECONDS
from riverboat.room.tournament.awards import Outcome, knockout, named_bounty
from riverboat.room.tournament.discipline import Discipline
from riverboat.room.tournament.field import Field
from riverboat.room.tournament.herald import Herald
from riverboat.room.tournament.lifecycle import PLAYING
from riverboat.room.tournament.purse import Purse
from riverboat.room.tournament.ranking import Bust, eliminators
from riverboat.room.tournament.rebuys import Rebuys
from riverboat.room.tournament.state import TournamentState
from riverboat.room.tournament.tables import FinishedHand, TourneyTable
from riverboat.store.tournament_play import HandCheckpoint

log = logging.getLogger("riverboat.room.tournament")

History = Callable[[TourneyTable, FinishedHand], tuple[str, list[dict[str, Any]]]]
HandHook = Callable[[TourneyTable, FinishedHand], None]
Decision = tuple[Outcome, list[int], list[int], bool]


class Recorder:
    def __init__(self, st: TournamentState, herald: Herald, purse: Purse, field: Field, rebuys: Rebuys,
                 discipline: Discipline, *, history: History, on_hand: HandHook) -> None:
        self.st = st
        self.herald = herald
        self.purse = purse
        self.field = field
        self.rebuys = rebuys
        self.discipline = discipline
        self.history = history
        self.on_hand = on_hand

    async def record_hand(self, table: TourneyTable, driver: FinishedHand) -> None:
        """Decide everything the hand decided and record it in ONE store call, ``tournament_play.hand_done``.

        Group commit: hands that end together at several tables are decided one after the other, in the order
        their tables settle, and then recorded together (:meth:`commit_staged`: the gateway's group commit, one
        database transaction for up to ``max_batch`` hands, each in its own savepoint). Nothing a hand decided is
        acted on before its commit: its table stays in the hand, its players hear nothing and the next hand
        there is not dealt (:meth:`hand_settled` waits for the commit), so a crash loses only hands nobody was
        told the outcome of, and resume starts from the stacks after the last committed hand (R-SERVER-1).
        Hands are recorded one by one (as soon as decided) while money can still come in (re-buys, add-ons, late
        registration, a pool not yet final), when prizes could change between two decisions. Idempotent: a retry
        (the driver's, after a failed commit) sends the same checkpoint."""
        st = self.st
        key = (table.id, driver.hand_id)
        if key in st.committed:
            return
        if key not in st.outcomes:
            await self._money_reached(driver)
            st.outcomes[key] = self._decide(table, driver)
            st.staged[key] = self._checkpoint(table, driver, st.outcomes[key][0])
        if self._can_batch():
            if not st.flush_posted:
                st.flush_posted = True
                st.actor.post(self._flush)  # after the other tables' settlements already queued
            return
        await self.commit_staged()

    def _can_batch(self) -> bool:
        """Hands are decided ahead of their commit only when no decision can change the next one's prizes: the pool
        is final and no re-buy or add-on can come in."""
        st = self.st
        if not st.batch_hands or not st.pool_final:
            return False
        rb = st.spec.rebuy
        return rb is None or st.level_index() > rb.period_levels

    def _checkpoint(self, table: TourneyTable, driver: FinishedHand, outcome: Outcome) -> HandCheckpoint:
        st = self.st
        hand = driver.hand
        result = hand.result
        assert result is not None
        start = {driver.players[s]: chips for s, chips in zip(hand.seats, hand.start_stacks, strict=True)}
        after = {driver.players[s]: chips for s, chips in result.stacks.items()}
        if sum(start.values()) != sum(after.values()):
            st.stats.chips_conserved = False
        elapsed = st.levels.elapsed(st.now) if st.levels is not None else 0.0
        phh, events = self.history(table, driver)
        return HandCheckpoint(
            table_id=table.id, hand_id=driver.hand_id, start_stacks=start, stacks=after, phh=phh, events=events,
            button=table.button, big_blind=table.big_blind, elapsed=elapsed, finishes=outcome.finishes,
            payments=outcome.payments, bounties=outcome.bounties)

    async def commit_staged(self) -> None:
        """Record every staged hand, in decision order, through the gateway's group commit. A hand the store
        refused stays staged (its table waits; the next commit or the driver's retry sends it again) and the first
        refusal is raised."""
        st = self.st
        if not st.staged:
            return
        items = list(st.staged.items())
        calls = [(st.gw.store.tournament_play.hand_done, (st.id, cp)) for _, cp in items]
        outcomes = await st.gw.call_all(calls)
        st.stats.hand_commits += -(-len(items) // st.gw.max_batch)
        failed: BaseException | None = None
        for (key, _cp), (ok, value) in zip(items, outcomes, strict=True):
            if ok:
                del st.staged[key]
                st.committed.add(key)
            elif failed is None:
                failed = value
            else:
                log.error("tournament %s: recording hand %s failed: %r", st.id, key, value)
        if failed is not None:
            raise failed

    async def _flush(self) -> None:
        """The group commit of the hands staged since the last one, then each of their tables carries on."""
        st = self.st
        st.flush_posted = False
        try:
            await self.commit_staged()
        except Exception:
            log.exception("tournament %s: recording %d hands failed; retrying in %s s", st.id, len(st.staged),
                          SETTLE_RETRY_SECONDS)
            st.clock.call_later(SETTLE_RETRY_SECONDS, lambda: st.actor.post(self._flush))
        await self._carry_on()

    async def _money_reached(self, driver: FinishedHand) -> None:
        """Before the hand's eliminations are ranked: if they reach a paid place while late registration or
        re-buys still keep the pool open, the pool becomes final first (:meth:`Purse.money_at`)."""
        st = self.st
        result = driver.hand.result
        if st.pool_final or result is None:
            return
        out = 0
        for s, chips in result.stacks.items():
            e = st.entrants_by_id[driver.players[s]]
            # busted: judged with the stack after the hand (0), as _decide does; a player who busts from above the
            # re-buy limit may re-buy too, so they are not "out" yet (R-TOURN-REBUY-3)
            out += chips == 0 and not (self.purse.wants_rebuy(e, 0) or self.purse.may_decide(e, 0))
        await self.purse.money_at(out)

    def _decide(self, table: TourneyTable, driver: FinishedHand) -> Decision:
        """(outcome, players out now, players who re-buy, whether they were ranked now: not while hand-for-hand,
        where they are ranked with the whole round) of a finished hand."""
        st = self.st
        hand = driver.hand
        result = hand.result
        assert result is not None
        pots = [(list(p.eligible), dict(p.winners)) for p in result.pots]
        start = dict(zip(hand.seats, hand.start_stacks, strict=True))
        out = Outcome()
        rebuyers: list[int] = []
        gone: list[Bust] = []
        for seat in [s for s, chips in result.stacks.items() if chips == 0]:
            e = st.entrants_by_id[driver.players[seat]]  # its chips stay as before the hand until carried on
            if self.purse.wants_rebuy(e, 0) or self.purse.may_decide(e, 0):
                rebuyers.append(e.player_id)
                continue
            killers = [driver.players[w] for w in eliminators(seat, pots)]
            knockout(st.spec, e.player_id, out.bounties.get(e.player_id, e.bounty), killers,
                     {k: st.entrants_by_id[k].bounty for k in killers}, out)
            if named_bounty(e.player_id, st.named_left, killers, out):
                st.named_left.pop(e.player_id, None)
            gone.append(Bust(e.player_id, start[seat], e.entry_no))
        ranked = not st.h4h_round
        if ranked:
            self.purse.rank(gone, out)
        else:
            st.round_busts.extend((b, table.id) for b in gone)
        return out, [b.player_id for b in gone], rebuyers, ranked

    # ------------------------------------------------------------------ after the hand
    async def hand_settled(self, table: TourneyTable, driver: FinishedHand) -> None:
        """The table's hand is over and settled: it carries on once recorded, in the order the tables settled."""
        self.st.settling.append((table, driver))
        await self._carry_on()

    async def _carry_on(self) -> None:
        st = self.st
        while st.settling:
            table, driver = st.settling[0]
            key = (table.id, driver.hand_id)
            if key not in st.committed:
                return
            st.settling.popleft()
            st.committed.discard(key)
            await self._after_hand(table, driver)

    async def _after_hand(self, table: TourneyTable, driver: FinishedHand) -> None:
        st = self.st
        table.hand_over()
        st.in_hand -= 1
        st.stats.hands += 1
        st.balancer.set_idle(table.id, True)
        outcome, gone, rebuyers, ranked = st.outcomes.pop((table.id, driver.hand_id))
        self._carry_stacks(driver, outcome)
        for pid in rebuyers:
            if self.purse.wants_rebuy(st.entrants_by_id[pid]):
                await self.rebuys.bust(pid)
            else:
                self.rebuys.offer(pid)
        await self.discipline.after_hand(list(driver.players.values()))
        await self.rebuys.bot_addons(table)
        if st.levels is not None:
            st.levels.hand_finished(st.now, len(st.tables))
        self.on_hand(table, driver)
        self.purse.count(outcome)
        self.herald.announce_bounties(table, driver.hand_id, outcome)
        if ranked:
            self.field.finish_players(outcome, gone)
        else:
            self.field.mark_round(gone)
        if st.status in PLAYING and not st.in_hand and st.round_busts:
            await self.field.close_round()
        await self.field.changed(table)

    def _carry_stacks(self, driver: FinishedHand, outcome: Outcome) -> None:
        """The stacks and bounties the recorded hand left become the players' own."""
        st = self.st
        result = driver.hand.result
        assert result is not None
        for s, chips in result.stacks.items():
            st.entrants_by_id[driver.players[s]].chips = chips
        for pid, b in outcome.bounties.items():
            if pid in st.entrants_by_id:
                st.entrants_by_id[pid].bounty = b
        st.stacks_dirty = True
