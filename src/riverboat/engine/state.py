"""The state of one hand shared by its parts (:mod:`~riverboat.engine.betting`, :mod:`~riverboat.engine.dealing`,
:mod:`~riverboat.engine.award`, :mod:`~riverboat.engine.hand`): every attribute with its type, the constants of the
hand's phases and bet kinds, and the few helpers all parts use (events, chips into the pot, seat order)."""

from __future__ import annotations

from typing import Any

from riverboat.cards import ALL_CARDS, Card
from riverboat.engine.actions import ActionKind, LegalActions
from riverboat.engine.config import HandConfig, Settings
from riverboat.engine.events import Event
from riverboat.engine.results import HandResult
from riverboat.engine.visible import visible_key
from riverboat.games.catalog import Game, Kind, OddChip
from riverboat.games.structures import Stakes, Structure

K = ActionKind
# Enum members as module constants for the hot paths: on Python 3.11 every attribute read of an Enum class
# (``ActionKind.FOLD``) goes through EnumType.__getattr__'s slow hook (8% of a draw game's time, issue #33)
FOLD, CHECK, CALL, BET, RAISE = K.FOLD, K.CHECK, K.CALL, K.BET, K.RAISE
BRING_IN, COMPLETE, STRADDLE, DRAW, STAND_PAT = K.BRING_IN, K.COMPLETE, K.STRADDLE, K.DRAW, K.STAND_PAT
AGREE_SPLIT, DECLINE_SPLIT, RUN_TWICE, RUN_ONCE = K.AGREE_SPLIT, K.DECLINE_SPLIT, K.RUN_TWICE, K.RUN_ONCE
FIXED_LIMIT, SPREAD_LIMIT, NO_LIMIT = Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT, Structure.NO_LIMIT
POT_LIMIT, HALF_POT_LIMIT = Structure.POT_LIMIT, Structure.HALF_POT_LIMIT
STUD, FLOP, DRAW_GAME = Kind.STUD, Kind.FLOP, Kind.DRAW
_CS = [str(c) for c in ALL_CARDS]  # card code -> "Ah"
# Events are built as object.__new__(Event) and four slot stores in the hot paths: Event(...) goes through type_call
# and a Python __init__ frame, about twice the instructions (callgrind, issue #33 fifth pass); same object
_NEW = object.__new__
_M_CHECK, _M_BET, _M_RAISE, _M_COMPLETE, _M_STRADDLE, _M_SPLIT = 1, 2, 4, 8, 16, 32
_KINDS: dict[int, frozenset[ActionKind]] = {}


def _kinds(mask: int) -> frozenset[ActionKind]:
    """The betting kinds for a bit mask (FOLD always; CALL unless CHECK), cached."""
    got = _KINDS.get(mask)
    if got is None:
        ks = {K.FOLD, K.CHECK if mask & _M_CHECK else K.CALL}
        for bit, kind in ((_M_BET, K.BET), (_M_RAISE, K.RAISE), (_M_COMPLETE, K.COMPLETE),
                          (_M_STRADDLE, K.STRADDLE), (_M_SPLIT, K.AGREE_SPLIT)):
            if mask & bit:
                ks.add(kind)
        got = _KINDS[mask] = frozenset(ks)
    return got
_BET, _DRAW, _SPLIT, _RIT, _DONE = "bet", "draw", "split", "rit", "done"
_VALUE = {k: k.value for k in ActionKind}  # Enum.value is a slow property
_VOTES = frozenset((K.RUN_TWICE, K.RUN_ONCE, K.AGREE_SPLIT, K.DECLINE_SPLIT))
_ONLY: dict[int, frozenset[int]] = {}  # seat -> frozenset((seat,)), shared (frozensets are immutable)


def _only(seat: int) -> frozenset[int]:
    got = _ONLY.get(seat)
    if got is None:
        got = _ONLY[seat] = frozenset((seat,))
    return got


class HandState:
    """The attributes of a hand (set by ``Hand.__init__``) and the helpers every part uses. The parts are mixins of
    this class; ``Hand`` combines them. Methods one part calls in another are declared here."""

    __slots__ = (
        "config", "game", "structure", "stakes", "settings", "seats", "n", "_pos",
        "stacks", "start_stacks", "bets", "total", "dead", "folded", "allin", "cards", "up", "board", "boards",
        "events", "_deck", "_dpos", "street", "_phase", "_actor", "_pending", "_acted_level", "cur_bet",
        "_min_raise", "_raises", "_last_aggr", "_round_actions", "_legal", "_bb_pos", "_queue", "_qi",
        "_completed", "_big_used", "_open_pair", "_discards", "_round_discards", "_muck", "_owed", "_split_agreed",
        "_split_open", "_split_voting", "_rit_votes", "_runs", "result", "_community_card", "_pot_collected",
        "_odd_chip", "_reopen", "_dead_money", "_showed_first", "_bring_in_pos", "_round_first", "_rit_checked", "_straddle_ok", "_aai",
        "_allin_runout", "_future", "_future_most", "_bet_size",
    )

    config: HandConfig
    game: Game
    structure: Structure
    stakes: Stakes
    settings: Settings
    seats: list[int]  # clockwise from the left of the button
    n: int
    _pos: dict[int, int]  # seat -> position
    stacks: list[int]
    start_stacks: list[int]
    bets: list[int]  # this betting round
    total: list[int]  # this hand
    dead: list[int]  # antes and dead posts (not part of any bet)
    _dead_money: int  # dead posts: always in the main pot (R-MISSED-3)
    folded: list[bool]
    allin: list[bool]
    cards: list[list[Card]]
    up: list[list[bool]]
    board: list[Card]
    boards: list[list[Card]]
    events: list[Event]
    _deck: list[Card]
    _dpos: int
    street: int
    _phase: str
    _actor: int | None
    _pending: list[bool]
    _acted_level: list[int]
    cur_bet: int
    _min_raise: int
    _raises: int
    _last_aggr: int | None
    _round_actions: int
    _legal: LegalActions | None
    _bb_pos: int | None
    _queue: list[int]
    _qi: int
    _completed: bool
    _big_used: bool
    _open_pair: bool
    _discards: list[list[Card]]
    _round_discards: list[tuple[int, Card]]
    _muck: list[tuple[int, Card]]  # (owner position, card): reshuffle candidates
    _owed: list[tuple[int, list[Card]]]  # Game.deal_after_discards: (position, discards) to replace
    _split_agreed: set[int]
    _split_open: bool
    _split_voting: bool
    _rit_votes: int
    _runs: int
    result: HandResult | None
    _community_card: bool
    _pot_collected: int
    _odd_chip: OddChip
    _reopen: int
    _showed_first: list[int]
    _bring_in_pos: int | None
    _round_first: int
    _rit_checked: bool
    _straddle_ok: bool
    _aai: set[int]
    _allin_runout: bool  # betting closed with a player all-in and cards still to come
    _future: tuple[tuple[int, int], ...]  # per street: cards dealt until the next draw (dealing._future_cards)
    _future_most: int  # the most cards any street's ``_future`` deals with every player still in (R-ACT-1 check)
    _bet_size: int  # the fixed-limit bet of the current betting round (small or big bet)

    @property
    def pot(self) -> int:
        """All chips in the middle: collected pots plus the bets of the current round."""
        return self._pot_collected + sum(self.bets)


    def _emit(self, kind: str, seat: int | None = None, visible_to: frozenset[int] | None = None,
              **data: Any) -> None:
        e = _NEW(Event)  # Event(...) without its __init__ frame (issue #33, fifth pass)
        e.kind, e.seat, e.data, e.visible_to = kind, seat, data, visible_to
        self.events.append(e)

    def _put(self, i: int, amount: int, live: bool) -> int:
        stacks = self.stacks
        stack = stacks[i]
        if amount > stack:
            amount = stack
        stack = stacks[i] = stack - amount
        self.total[i] += amount
        if live:
            self.bets[i] += amount
        else:
            self.dead[i] += amount
            self._pot_collected += amount
        if stack == 0:
            self.allin[i] = True
        return amount

    def _clockwise(self, first: int) -> list[int]:
        n = self.n
        return [(first + k) % n for k in range(n)]

    def _alive_from(self, first: int) -> list[int]:
        """The positions not folded, clockwise from ``first`` (itself included): ``_clockwise`` filtered in one
        comprehension per side of the table (issue #33, fifth pass)."""
        n, folded = self.n, self.folded
        if first >= n:
            first %= n
        if not first:
            return [j for j in range(n) if not folded[j]]
        return [j for j in range(first, n) if not folded[j]] + [j for j in range(first) if not folded[j]]

    def _best_visible(self) -> int:
        game = self.game
        best, best_key = 0, None
        for i in range(self.n):
            if self.folded[i]:
                continue
            up = [c for c, u in zip(self.cards[i], self.up[i], strict=True) if u]
            key = visible_key(up, game.visible, game.visible_suits)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    # ------------------------------------------------------------------ one part calls another
    def _begin_betting(self) -> None:  # betting
        raise NotImplementedError

    def _first_after_round_start(self) -> int:  # betting
        raise NotImplementedError

    def _close_round(self) -> None:  # betting
        raise NotImplementedError

    def _finish(self, split_all: bool = False) -> None:  # award
        raise NotImplementedError
