"""The tournament director: one running tournament, from registration to the last prize (RULES.md section 20).

A :class:`Director` owns one tournament described by a :class:`~riverboat.room.tournament.spec.TournamentSpec`.
It runs in ONE actor (every table of the tournament posts into it, so balancing never races a hand). It is the
tournament's data (:class:`~.state.TournamentState`) and the parts it composes, one per responsibility (issue #29
item 3), each knowing only the state and the parts below it:

- :class:`~.purse.Purse`: the money -- the pool, each place's award, the overlay (R-TOURN-MTT-4), the ranking of the
  players out and what it pays (R-TOURN-GEN-5/6, R-TOURN-KO/PKO/BOUNTY), whether a re-buy or the add-on is open;
- :class:`~.herald.Herald`: the HUD and the ``tournament`` frames (issue #11 item 8), bounties on view;
- :class:`~.seating.Seating`: seats at the start, late entrants, balancing (R-TOURN-BAL-1..7);
- :class:`~.dealer.Dealer`: the level clock, breaks, the deal, hand-for-hand on the bubble;
- :class:`~.field.Field`: the field after every change (places told, the final table, the end, a flight's end);
- :class:`~.rebuys.Rebuys`: re-buys, the add-on and the decision window (R-TOURN-REBUY-3);
- :class:`~.discipline.Discipline`: disqualification (R-INTEG-5);
- :class:`~.recorder.Recorder`: every finished hand decided and recorded in one store call, hands of several
  tables in one group commit (R-SERVER-1);
- :class:`~.presence.Presence`: actions, bots, players away (R-TOURN-REG-5, R-SITOUT-1/2, R-DISC-1/2);
- :class:`~.registration.Registration`: the lifecycle, registration and the start (R-TOURN-REG, R-TOURN-SNG-1).

Its tables are :class:`~.tables.TourneyTable` (the shared hand driver, no rake: R-RAKE-12); formats plug in through
:mod:`.variants` (Twister). See docs/tournaments.md, "The director".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol, runtime_checkable

from riverboat.engine import Action
from riverboat.room import frames
from riverboat.room.frames import TournamentData, TournamentEventName
from riverboat.room.hand_driver import HandDriver, event_record
from riverboat.room.history_text import hand_history_text
from riverboat.room.move import Move
from riverboat.room.tournament.awards import PlaceAward
from riverboat.room.tournament.dealer import Dealer
from riverboat.room.tournament.discipline import Discipline
from riverboat.room.tournament.field import Field
from riverboat.room.tournament.herald import AliasOf, Herald
from riverboat.room.tournament.presence import Presence
from riverboat.room.tournament.purse import Purse
from riverboat.room.tournament.rebuys import Rebuys
from riverboat.room.tournament.recorder import Recorder
from riverboat.room.tournament.registration import Registration
from riverboat.room.tournament.seating import Seating
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.room.tournament.state import BotPolicy, DirectorHost, Result, Stats, TournamentState
from riverboat.room.tournament.tables import Entrant, FinishedHand, TournamentSettler, TourneyTable
from riverboat.room.tournament.variants import get_variant

__all__ = ["BotPolicy", "Dealing", "DealingFactory", "Director", "DirectorHost", "LocalDealing", "Result", "Stats"]

HandCallback = Callable[["Director", TourneyTable, FinishedHand], None]


class Director(TournamentState):
    """One tournament (see the module docstring). Public coroutines are commands run inside its actor."""

    def __init__(self, host: DirectorHost, tournament_id: str, spec: TournamentSpec, *,
                 bots: Mapping[int, BotPolicy] | None = None, notify_players: bool = True,
                 record_history: bool = True, seed: int | None = None, on_hand: HandCallback | None = None,
                 on_start: Callable[[Director], Awaitable[None]] | None = None, batch_hands: bool = True,
                 alias_of: AliasOf | None = None, dealing: DealingFactory | None = None) -> None:
        super().__init__(host, tournament_id, spec, bots=bots, notify_players=notify_players,
                         record_history=record_history, seed=seed, batch_hands=batch_hands)
        self.variant = get_variant(spec.variant)
        self.on_hand = on_hand
        self.on_start = on_start
        self.on_end: Callable[[Director], Awaitable[None]] | None = None  # a flight over (the lobby pokes Day 2)
        self.settler = TournamentSettler(self.record_hand)
        self.purse = Purse(self, lambda pool, entrants: self.variant.prizes(self, pool, entrants))
        #: where the tables deal (issue #29): here (LocalDealing), or a cluster's part spreading them over its hosts
        self.dealing: Dealing = (dealing or LocalDealing)(self)
        self.herald = self.dealing.herald(alias_of if alias_of is not None else _alias_of(host))
        self.seating = Seating(self, self.herald, self.dealing.table, host.is_connected)
        self.dealer = Dealer(self, self.herald, self.purse, self.herald.show_deal, self._end_flight)
        self.field = Field(self, self.herald, self.purse, self.seating, self.dealer,
                           on_finished=lambda: self.variant.on_finished(self), flight_ended=self._flight_ended)
        self.rebuys = Rebuys(self, self.herald, self.purse, self.dealer, self.field)
        self.discipline = Discipline(self, self.herald)
        self.recorder = Recorder(self, self.herald, self.purse, self.field, self.rebuys, self.discipline,
                                 history=self.dealing.history, on_hand=self._hand_done)
        self.presence = Presence(self, self.herald, lambda driver, seat: self.variant.auto(self, driver, seat))
        self.registration = Registration(self, self.herald, self.purse, self.seating, self.dealer, self.field,
                                         self.variant, self, self._started)

    # ------------------------------------------------------------------ hooks of the parts
    def _hand_done(self, table: TourneyTable, driver: FinishedHand) -> None:
        if self.on_hand is not None:
            self.on_hand(self, table, driver)

    async def _started(self) -> None:
        if self.on_start is not None:
            await self.on_start(self)

    async def _end_flight(self) -> None:
        await self.field.end_flight()

    async def _flight_ended(self) -> None:
        if self.on_end is not None:
            await self.on_end(self)

    # ------------------------------------------------------------------ commands (each run inside the actor)
    async def open(self) -> None:
        """Declare the tournament in the store and open it (registration opens now or at its time)."""
        await self.registration.open()

    async def register(self, player_id: int, *, promo_code: str | None = None, password: str | None = None,
                       ticket_id: int | None = None, idem_key: str | None = None) -> dict[str, object]:
        """Register (or enter late). ``idem_key``: the command's idempotency key (made from the player and the frame
        id, issue #29): a repeat of a used key moves no money (``id_reused``); without one, a fresh key."""
        return await self.actor.submit(
            lambda: self.registration.register(player_id, promo_code, password, ticket_id, idem_key))

    async def unregister(self, player_id: int, *, protection: bool = False) -> dict[str, object]:
        """``protection``: a time-out or self-exclusion ends the registration (issue #30, ``end_play``)."""
        return await self.actor.submit(lambda: self.registration.unregister(player_id, protection=protection))

    async def rebuy(self, player_id: int, *, idem_key: str | None = None) -> dict[str, object]:
        """A re-buy; ``idem_key`` as for :meth:`register` (a used key: ``id_reused``, no money, no chips)."""
        return await self.actor.submit(lambda: self.rebuys.pay_in(player_id, "rebuy", idem_key))

    async def addon(self, player_id: int, *, idem_key: str | None = None) -> dict[str, object]:
        return await self.actor.submit(lambda: self.rebuys.pay_in(player_id, "addon", idem_key))

    async def set_auto_rebuy(self, player_id: int, on: bool) -> dict[str, object]:
        return await self.rebuys.set_auto_rebuy(player_id, on)

    async def decline_rebuy(self, player_id: int) -> dict[str, object]:
        """The busted player declines to re-buy: their place is fixed now."""
        return await self.actor.submit(lambda: self.rebuys.decline(player_id))

    async def act(self, player_id: int, move: Move) -> dict[str, object]:
        """A player's action at their table (where it deals: :attr:`dealing`)."""
        return await self.dealing.act(player_id, move)

    async def sit_out(self, player_id: int, out: bool = True) -> dict[str, object]:
        """R-SITOUT-1/2: sit out (dealt in, blinded away, folded at once) or back in."""
        return await self.actor.submit(lambda: self.presence.sit_out(player_id, out))

    async def connected(self, player_id: int) -> None:
        """A player logged in or came back (run it inside the actor)."""
        await self.presence.connected(player_id)

    async def disconnected(self, player_id: int) -> None:
        """A player lost the connection (run it inside the actor): R-DISC-1/2."""
        await self.presence.disconnected(player_id)

    async def disqualify_now(self, player_id: int, operator_id: int) -> None:
        """R-INTEG-5 / R-WALLET-8 (inside the actor): out with no place, chips out of play, fees forfeited."""
        await self.discipline.now(player_id, operator_id)

    async def close(self) -> None:
        """Stop the tournament's actor (a server stop: the hands in progress are voided, R-SERVER-1)."""
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.close()
        for t in (self.timer, self.break_timer, *self.offers.values()):
            if t is not None:
                t.cancel()
        self.offers.clear()
        await self.actor.stop()

    # ------------------------------------------------------------------ what the tables call
    def auto_action(self, driver: HandDriver, seat: int) -> Action | None:
        return self.presence.auto_action(driver, seat)

    async def record_hand(self, table: TourneyTable, driver: FinishedHand) -> None:
        await self.recorder.record_hand(table, driver)

    async def hand_settled(self, table: TourneyTable, driver: FinishedHand) -> None:
        await self.recorder.hand_settled(table, driver)

    def send_table_state(self, table: TourneyTable, player_id: int) -> None:
        self.herald.send_table_state(table, player_id)

    # ------------------------------------------------------------------ what variants and the lobby read
    def notify(self, player_id: int, event: TournamentEventName, data: TournamentData) -> None:
        self.herald.notify(player_id, event, data)

    def notify_all(self, event: TournamentEventName, data: TournamentData) -> None:
        self.herald.notify_all(event, data)

    def notify_table(self, table: TourneyTable, event: TournamentEventName,
                     data: Callable[[str, int], TournamentData]) -> None:
        self.herald.notify_table(table, event, data)

    def hud(self) -> frames.TournamentHud:
        return self.herald.hud()

    def chip_rank(self, chips: int) -> int:
        return self.herald.chip_rank(chips)

    async def learn_aliases(self, player_ids: list[int]) -> None:
        await self.herald.learn_aliases(player_ids)

    def add_to_pool(self, amount: int) -> None:
        self.purse.add_to_pool(amount)

    def set_prizes(self, prizes: list[int], *, ticket_for: str | None = None) -> None:
        self.purse.set_prizes(prizes, ticket_for=ticket_for)

    @property
    def prize_pool(self) -> int:
        return self.purse.prize_pool

    def place_awards(self) -> list[PlaceAward]:
        return self.purse.place_awards()

    def paid_places(self) -> int:
        return self.purse.paid_places()

    def rebuy_open(self, e: Entrant, chips: int | None = None) -> bool:
        return self.purse.rebuy_open(e, chips)

    def addon_open(self, e: Entrant) -> bool:
        return self.purse.addon_open(e)


HandHistory = tuple[str, list[dict[str, object]]]  # a hand's history text and its event records (as stored)


class Dealing(Protocol):
    """Where a director's tables deal, as the director uses it (issue #29: the cluster composes its own part instead
    of subclassing the director): :class:`LocalDealing` in this process; a cluster host's
    ``cluster.tourney_tables.ClusterDealing`` deals a tournament's tables on several hosts."""

    def table(self, table_id: str) -> TourneyTable:
        """A new table of the tournament."""
        ...

    def herald(self, alias_of: AliasOf | None) -> Herald:
        """What tells the players (the table states, the deal)."""
        ...

    def history(self, table: TourneyTable, driver: FinishedHand) -> HandHistory:
        """The finished hand's history text and event records (empty without ``record_history``)."""
        ...

    async def act(self, player_id: int, move: Move) -> dict[str, object]:
        """The player's action at the hand of their table."""
        ...


DealingFactory = Callable[["Director"], Dealing]


class LocalDealing:
    """Every table of the tournament deals here, in the director's actor."""

    def __init__(self, director: Director) -> None:
        self.d = director

    def table(self, table_id: str) -> TourneyTable:
        return TourneyTable(self.d, table_id)

    def herald(self, alias_of: AliasOf | None) -> Herald:
        return Herald(self.d, self.d.purse, alias_of)

    def history(self, table: TourneyTable, driver: FinishedHand) -> HandHistory:
        if not self.d.record_history or not isinstance(driver, HandDriver):
            return "", []
        hand = driver.hand
        return (hand_history_text(hand, table.id, driver.hand_id, driver.players),
                [event_record(e) for e in hand.events])

    async def act(self, player_id: int, move: Move) -> dict[str, object]:
        d = self.d

        async def run() -> dict[str, object]:
            return d.presence.act(player_id, move)

        return await d.actor.submit(run)


@runtime_checkable
class NamingHost(Protocol):
    """A host that knows the players' public aliases (the room; a simulation's host names nobody)."""

    async def alias_of(self, player_id: int) -> str | None: ...


def _alias_of(host: DirectorHost) -> AliasOf | None:
    return host.alias_of if isinstance(host, NamingHost) else None
