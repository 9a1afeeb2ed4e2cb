"""What a tournament tells its players (part of the director, issue #29 item 3): the ``tournament`` frames, each
player's ``state`` (their table, the hand, everyone seated with their bounty, the HUD: issue #11 item 8), the HUD,
the chip rank, the bounties a hand paid (R-TOURN-KO-1, R-TOURN-PKO-1..3, R-TOURN-BOUNTY-1) and the public aliases
the tables show (R-ALIAS-1)."""

from __future__ import annotations

import bisect
from collections.abc import Awaitable, Callable
from typing import Protocol

from riverboat.room import frames
from riverboat.room.frames import TournamentData, TournamentEventName
from riverboat.room.hand_driver import HandDriver
from riverboat.room.tournament.awards import Outcome
from riverboat.room.tournament.state import Result, TournamentState
from riverboat.room.tournament.tables import Entrant, TourneyTable


class Windows(Protocol):
    """The prize pool and whether a re-buy / the add-on is open to a player (:class:`~.purse.Purse`, or what a
    cluster's director sent with a deal)."""

    @property
    def prize_pool(self) -> int: ...

    def rebuy_open(self, e: Entrant, chips: int | None = None) -> bool: ...

    def addon_open(self, e: Entrant) -> bool: ...


AliasOf = Callable[[int], Awaitable[str | None]]


class Herald:
    def __init__(self, st: TournamentState, windows: Windows, alias_of: AliasOf | None) -> None:
        self.st = st
        self.windows = windows
        self.alias_of = alias_of  # None: a host that names nobody (a simulation)

    def notify(self, player_id: int, event: TournamentEventName, data: TournamentData) -> None:
        """Send the player the ``tournament`` frame of ``event`` (its ``data`` the model of
        ``frames.TOURNAMENT_DATA[event]``)."""
        if self.st.notify_players:
            self.st.host.send(player_id, frames.tournament_frame(self.st.id, event, data))

    def notify_all(self, event: TournamentEventName, data: TournamentData) -> None:
        if self.st.notify_players:
            for pid in list(self.st.entrants_by_id) or self.st.registered:
                self.notify(pid, event, data)

    def notify_table(self, table: TourneyTable, event: TournamentEventName,
                     data: Callable[[str, int], TournamentData]) -> None:
        """Tell everyone at ``table`` (``data(table_id, seat)``: each player's frame data)."""
        for seat, e in table.seats.items():
            self.notify(e.player_id, event, data(table.id, seat))

    # ------------------------------------------------------------------ the player's table
    def send_table_state(self, table: TourneyTable, player_id: int) -> None:
        """The player's ``state`` frame: their table, the hand view (``legal`` when it is their turn), everyone at
        the table and the HUD (issue #11 item 8)."""
        st = self.st
        if not st.notify_players:
            return
        e = st.entrants_by_id.get(player_id)
        seat = e.seat if e is not None and e.table_id == table.id else None
        driver = table.driver
        view = None
        if driver is not None:
            view = driver.view(seat if seat is not None and driver.players.get(seat) == player_id else None)
        data = frames.tournament_state(table.id, seat, view, self.hud())
        data["seats"] = [self.seat_view(s, x) for s, x in sorted(table.seats.items())]
        data["hand_id"] = driver.hand_id if driver is not None else None
        data["seq"] = table.address.counter.last
        data["rank"] = self.chip_rank(e.chips) if e is not None else None
        data["rebuy"] = e is not None and (e.player_id in st.offers or self.windows.rebuy_open(e))
        data["addon"] = e is not None and e.chips > 0 and self.windows.addon_open(e)
        data["sitting_out"] = e is not None and e.sat_out  # the page offers "I'm back" (R-SITOUT-1)
        self.notify(player_id, "state", data)

    def seat_view(self, seat: int, x: Entrant) -> frames.TournamentSeatView:
        """A player at the table as everyone there sees them (their bounty in a knockout, R-TOURN-KO-1 / PKO-2)."""
        view: frames.TournamentSeatView = {"seat": seat, "player": x.player_id,
                                           "alias": self.st.aliases.get(x.player_id), "stack": x.chips}
        if self.st.spec.knockout is not None:
            view["bounty"] = x.bounty
        if x.folded_away:
            view["away"] = True
        return view

    def show_deal(self, table: TourneyTable) -> None:
        """A new hand: every player at the table (not the in-process bots) gets the table as it is now (who sits
        there after balancing, the stacks, the hand just dealt)."""
        if not self.st.notify_players:
            return
        driver = table.driver
        acting = driver.hand.to_act if isinstance(driver, HandDriver) else None  # told by on_turn, with `legal`
        for seat, e in list(table.seats.items()):
            if e.player_id not in self.st.bots and not (seat == acting and driver is not None
                                                        and driver.players.get(seat) == e.player_id):
                self.send_table_state(table, e.player_id)

    def hud(self) -> frames.TournamentHud:
        """What the table shows (issue #11 item 8): level, blinds, time to the next level or break, players left,
        average stack."""
        st = self.st
        pos = st.levels.position(st.now) if st.levels is not None else None
        lv = st.spec.level(pos.level if pos else 0)
        return {"level": (pos.level + 1) if pos else 0, "small_blind": lv.small_blind, "big_blind": lv.big_blind,
                "ante": lv.ante, "on_break": bool(pos and pos.on_break),
                "seconds_left": pos.seconds_left if pos else None,
                "next_break_in": pos.next_break_in if pos else None, "players_left": st.alive,
                "entrants": st.entries, "average_stack": st.chips_issued // max(1, st.alive),
                "prize_pool": self.windows.prize_pool, "hand_for_hand": st.h4h_round > 0}

    def chip_rank(self, chips: int) -> int:
        """The place by chips of a stack among the players left (1 = the chip leader); the sorted stacks are
        re-read at most once per hand (only when frames are sent: never in simulations)."""
        st = self.st
        if st.stacks_dirty or st.stacks is None:
            st.stacks = sorted(-x.chips for x in st.entrants_by_id.values())
            st.stacks_dirty = False
        return bisect.bisect_left(st.stacks, -chips) + 1

    async def learn_aliases(self, player_ids: list[int]) -> None:
        """Remember the public alias (R-ALIAS-1) of players the table shows."""
        if self.alias_of is None or not self.st.notify_players:
            return
        for pid in player_ids:
            if pid not in self.st.aliases:
                self.st.aliases[pid] = await self.alias_of(pid)

    # ------------------------------------------------------------------ results
    def announce_bounties(self, table: TourneyTable, hand_id: str, outcome: Outcome) -> None:
        """Every bounty the hand paid, to everyone at its table (and the players it knocked out): the hand log
        shows who won which bounty and what is on their head now (R-TOURN-KO-1, R-TOURN-PKO-1/3,
        R-TOURN-BOUNTY-1)."""
        st = self.st
        if not outcome.won or not st.notify_players:
            return
        audience = {e.player_id for e in table.seats.values()} | {w.busted for w in outcome.won}
        for w in outcome.won:
            e = st.entrants_by_id.get(w.player)
            data: frames.TournamentBountyData = {
                "table": table.id, "hand_id": hand_id, "player": w.player, "alias": st.aliases.get(w.player),
                "busted": w.busted, "busted_alias": st.aliases.get(w.busted), "cash": w.cash, "added": w.added,
                "bounty": e.bounty if e is not None else 0, "named": w.named,
                "rule": "R-TOURN-BOUNTY-1" if w.named else "R-TOURN-PKO-3" if w.added else "R-TOURN-KO-1"}
            for pid in sorted(audience):
                if pid not in st.bots:
                    self.notify(pid, "bounty", data)

    def finished(self, r: Result) -> None:
        """The player's place and prize; in a tournament with bounties also the bounties they won (R-TOURN-KO-1)."""
        data: frames.TournamentFinishedData = {"place": r.place, "place_to": r.place_to, "prize": r.prize}
        if self.st.spec.knockout is not None or self.st.spec.named_bounties:
            data["bounties"] = r.bounties
        self.notify(r.player_id, "finished", data)
