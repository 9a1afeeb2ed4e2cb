"""The pure hand state machine (see the package docstring for the API and the dealing order).

``Hand`` is the public face: construction, the legal actions, ``act`` (all or nothing, R-ACT-1), views, and the
flow from one decision to the next (``_run``). The rules live in its parts: :mod:`~riverboat.engine.betting` (forced
bets, betting rounds, legal actions), :mod:`~riverboat.engine.dealing` (streets, draws, reshuffles, run it twice)
and :mod:`~riverboat.engine.award` (pots, showdown, awards); their shared state is
:class:`~riverboat.engine.state.HandState`."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from riverboat.cards import ALL_CARDS, Card
from riverboat.engine.actions import AGGRESSIVE, Action, ActionKind, IllegalAction, LegalActions
from riverboat.engine.award import Award
from riverboat.engine.betting import Betting
from riverboat.engine.config import HandConfig
from riverboat.engine.dealing import Dealing, _future_cards
from riverboat.engine.events import Event
from riverboat.engine.results import HandResult, PotAward
from riverboat.engine.state import (
    _BET,
    _CS,
    _DONE,
    _DRAW,
    _RIT,
    DRAW,
    FIXED_LIMIT,
    NO_LIMIT,
    SPREAD_LIMIT,
    STAND_PAT,
    STRADDLE,
    HandState,
)
from riverboat.engine.views import HandView, PlayerView

__all__ = ["Hand", "HandResult", "PotAward"]

_SIZED = AGGRESSIVE - {STRADDLE}  # the kinds whose amount the player chooses

def _refill(target: Any, value: Any) -> None:
    if isinstance(target, list):
        target[:] = value
    else:
        target.clear()
        target.update(value)


class Hand(Betting, Dealing, Award):
    """One hand. Construct with a :class:`HandConfig`; forced bets are posted and cards dealt at once."""

    __slots__ = ()

    def __init__(self, config: HandConfig) -> None:
        self.config = config
        game = self.game = config.game
        self.structure = config.structure
        stakes = self.stakes = config.stakes
        self.settings = config.settings
        if config.structure not in game.structures:
            raise ValueError(f"{game.name} is not played {config.structure.name} (allowed: "
                             f"{', '.join(s.name for s in game.structures)})")
        seats = list(config.seats)
        if len(seats) != len(config.stacks):
            raise ValueError("seats and stacks differ in length")
        if not 2 <= len(seats) <= game.max_players:
            raise ValueError(f"{game.name} needs 2 to {game.max_players} players, got {len(seats)}")
        for s in seats:  # loops, not all(generator): a generator per hand (issue #33)
            if type(s) is not int or s < 0:
                raise ValueError(f"seats must be distinct non-negative integers: {seats}")
        if len(set(seats)) != len(seats):
            raise ValueError(f"seats must be distinct non-negative integers: {seats}")
        for s in config.stacks:
            if type(s) is not int or s <= 0:
                raise ValueError(f"stacks must be positive integers: {list(config.stacks)}")
        if config.structure is FIXED_LIMIT and not stakes.fixed_small:
            raise ValueError("fixed limit needs small_bet (or big_blind) > 0")
        if config.structure is SPREAD_LIMIT and not stakes.spread:
            raise ValueError("spread limit needs stakes.spread")
        deck = list(config.deck)
        members = game.deck._members
        if len(set(deck)) != len(deck) or not members.issuperset(deck):
            deck = game.deck.validate(deck)  # raises CardError naming the bad card
        self._deck = deck
        button = config.button
        stack_of = dict(zip(seats, config.stacks, strict=True))
        ranked = sorted(seats)
        k = bisect_right(ranked, button)
        order = ranked[k:] + ranked[:k]  # clockwise from the left of the button
        self.seats = order
        n = self.n = len(order)
        self._pos = dict(zip(order, range(n)))  # noqa: B905 (same length)
        self.stacks = list(map(stack_of.__getitem__, order))
        self.start_stacks = list(self.stacks)
        self.bets = [0] * n
        self.total = [0] * n
        self.dead = [0] * n  # antes and dead posts (not part of any bet)
        self._dead_money = 0  # dead posts: always in the main pot (R-MISSED-3)
        self.folded = [False] * n
        self.allin = [False] * n
        self.cards = [[] for _ in range(n)]
        self.up = [[] for _ in range(n)]
        self.board = []
        self.boards = []
        self.events = []
        self._dpos = 0
        self.street = 0
        self._phase = _BET
        self._actor = None
        self._pending = [False] * n
        self._acted_level = [-1] * n
        self.cur_bet = 0
        self._min_raise = 0
        self._raises = 0
        self._last_aggr = None
        self._round_actions = 0
        self._legal = None
        self._bb_pos = None
        self._queue = []
        self._qi = 0
        self._completed = True
        self._big_used = False
        self._open_pair = False
        self._discards = [[] for _ in range(n)]
        self._round_discards = []
        self._muck = []  # (owner position, card): reshuffle candidates
        self._owed = []  # Game.deal_after_discards: (position, discards) to replace
        self._split_agreed = set()
        self._split_open = False
        self._split_voting = False
        self._rit_votes = 0
        self._runs = 1
        self.result = None
        self._community_card = False
        self._pot_collected = 0
        self._odd_chip = self.settings.odd_chip or game.odd_chip
        self._showed_first = []
        self._bring_in_pos = None
        self._round_first = 0
        self._rit_checked = False
        self._reopen = 0
        self._aai = set()
        self._allin_runout = False  # betting closed with a player all-in and cards still to come
        future = self._future = _future_cards(game.streets)
        most = 0
        for per_player, board in future:
            if per_player * n + board > most:
                most = per_player * n + board
        self._future_most = most
        self._bet_size = 0
        self._post_forced()
        # Offered to the player left of the big blind also when the table names the blinds itself (a returning
        # player's live post, a skipped waiting player): the room passes explicit blinds in those hands.
        self._straddle_ok = (game.straddle and self.settings.straddle and config.structure is NO_LIMIT
                             and self._bb_pos is not None and n > 2)
        self._start_street(0)
        self._run()

    @property
    def is_over(self) -> bool:
        return self._phase == _DONE

    @property
    def to_act(self) -> int | None:
        """Seat number of the player who must act now, or None when the hand is over."""
        return None if self._actor is None or self._phase == _DONE else self.seats[self._actor]

    def is_due(self, seat: int) -> bool:
        """Whether the player of ``seat`` still has to act in the current betting round (False for a seat not in
        the hand)."""
        i = self._pos.get(seat)
        return i is not None and self._pending[i]

    def deck_order(self) -> tuple[Card, ...]:
        """The deck as dealt so far and still to come, in order (reshuffled cards, R-INSUF, appended at the end)."""
        return tuple(self._deck)

    def act(self, action: Action) -> None:
        """Apply an action of the player to act. Raises IllegalAction (state unchanged) if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action.seat != legal.seat:
            raise IllegalAction(f"seat {action.seat} cannot act: it is seat {legal.seat}'s turn")
        kind = action.kind
        if type(kind) is not ActionKind:
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise IllegalAction(f"unknown action kind {kind!r}") from None
        if kind not in legal.kinds:
            raise IllegalAction(f"{kind.value} is not allowed now; allowed: "
                                f"{', '.join(sorted(k.value for k in legal.kinds))}")
        i = self._actor
        assert i is not None
        if kind in _SIZED:
            amt = action.amount
            if type(amt) is not int and (not isinstance(amt, int) or isinstance(amt, bool)):
                raise IllegalAction(f"{kind.value} needs an integer amount, got {amt!r}")
            if legal.allowed_to and amt not in legal.allowed_to:
                raise IllegalAction(f"{kind.value} to {amt} is not allowed; allowed: {list(legal.allowed_to)}")
            if not legal.min_to <= amt <= legal.max_to:
                raise IllegalAction(f"{kind.value} to {amt} is out of range: "
                                    f"{legal.min_to} to {legal.max_to}")
        elif kind is DRAW or kind is STAND_PAT:
            discard = self._checked_discard(legal, i, action.cards) if kind is DRAW else []
            self._legal = None
            # a drawer still to come when the replacements are dealt after everyone has discarded: nothing is
            # dealt before that decision, so nothing can run short (``_cards_may_run_out``'s first answer, inline)
            q, k = self._queue, self._qi + 1
            if not (k < len(q) and not self.folded[q[k]] and self.game.deal_after_discards) and \
                    self._cards_may_run_out(len(discard)):
                self._atomically(self._apply_draw, i, discard)
            else:
                self._apply_draw(i, discard)
                q, k = self._queue, self._qi
                if k < len(q) and not self.folded[q[k]]:
                    self._actor = q[k]  # the next drawer decides: ``_run``'s answer, without the call
                else:
                    self._run()
            return
        self._legal = None
        # R-ACT-1: a betting action deals at most ``_future_most`` cards before the next decision (nothing is owed
        # outside a draw), so with that many left nothing can refuse it and the full check is skipped
        if (len(self._deck) - self._dpos < self._future_most or self._owed) and self._cards_may_run_out(0):
            self._atomically(self._apply, i, kind, action.amount)
        else:  # nothing can refuse the action while it is applied (R-ACT-1)
            self._apply(i, kind, action.amount)
            self._run()

    def _checked_discard(self, legal: LegalActions, i: int, cards: Sequence[int]) -> list[Card]:
        """The cards of a DRAW as the hand's Card objects; IllegalAction unless they are distinct card codes of the
        drawer's hand, at most ``legal.max_discards`` of them."""
        discard = tuple(cards)
        hand = self.cards[i]
        for c in discard:
            if type(c) is not int and not isinstance(c, Card):
                raise IllegalAction(f"discards must be card codes (ints), got {discard!r}")
        if len(discard) > legal.max_discards:
            raise IllegalAction(f"at most {legal.max_discards} cards may be discarded, got {len(discard)}")
        out: list[Card] = []
        for c in discard:
            if c not in hand or c in out:
                raise IllegalAction(f"discards must be distinct cards of your hand: "
                                    f"{' '.join(str(Card(c)) for c in discard if 0 <= c < 52)}")
            out.append(ALL_CARDS[c])
        return out

    def _atomically(self, apply: Callable[..., None], *args: Any) -> None:
        """Apply a checked action and advance the hand; all or nothing (R-ACT-1), for an action after which the
        cards left could fall short before the next decision (``_cards_may_run_out``): only the deck can still
        refuse an action while it is applied (R-INSUF: a draw the reshuffle cannot complete, a street that cannot
        be dealt), so the state is copied first and put back if it does."""
        saved = self._saved_state()
        try:
            apply(*args)
            self._run()
        except IllegalAction:
            self._restore_state(saved)
            raise

    def _cards_may_run_out(self, drawn: int) -> bool:
        """Whether the cards left in the deck could be fewer than the hand may deal before the next decision:
        this draw's replacements ``drawn`` (and the replacements owed to earlier drawers, Game.deal_after_discards),
        then every street after this one up to the next draw (a draw street is a decision for every player still
        in, and deals nothing until then), each alive player dealt every card, every board run three times (R-RIT):
        ``_future``. Any card dealt later is dealt by a later action, which makes its own check. When the
        replacements are dealt once everyone has discarded (Game.deal_after_discards), a draw with a drawer still
        to come deals nothing before that drawer's decision."""
        if self._phase == _DRAW and self.game.deal_after_discards:
            q, k, folded = self._queue, self._qi + 1, self.folded
            while k < len(q):  # a later drawer decides before any replacement is dealt
                if not folded[q[k]]:
                    return False
                k += 1
        per_player, board = self._future[self.street]
        need = drawn + per_player * self.folded.count(False) + board
        if self._owed:
            for _, d in self._owed:
                need += len(d)
        return need > len(self._deck) - self._dpos

    def _saved_state(self) -> list[object]:
        """A copy of the state an action may change: the event log as its length (it is only appended to), lists
        of lists one level deeper, other containers shallow, the rest shared (immutable)."""
        values = list(_GET_STATE(self))
        for k in _NESTED_AT:
            values[k] = [list(v) for v in values[k]]
        for k in _CONTAINERS_AT:
            values[k] = values[k].copy()
        values.append(len(self.events))
        return values

    def _restore_state(self, saved: list[object]) -> None:
        events_len = saved[-1]
        assert isinstance(events_len, int)
        del self.events[events_len:]  # in place: whoever holds ``hand.events`` sees it restored
        for name, value in zip(_STATE_SLOTS, saved, strict=False):
            current = getattr(self, name)
            if type(current) is type(value) and isinstance(value, list | set):
                _refill(current, value)  # in place, as the event log
            else:
                setattr(self, name, value)

    def artificial_allin(self, seat: int) -> None:
        """R-AAI-1: the player to act (disconnected) is treated as all-in for the chips already in the pot; the
        rest of the stack is not at risk and the others keep betting into a side pot. Only in Fixed and Spread
        Limit (R-AAI-4) and only for a player with money in the pot; otherwise IllegalAction, nothing changes."""
        legal = self.legal_actions()
        if seat != legal.seat:
            raise IllegalAction(f"seat {seat} cannot act: it is seat {legal.seat}'s turn")
        if self.structure is not FIXED_LIMIT and self.structure is not SPREAD_LIMIT:
            raise IllegalAction("artificial all-in exists only in Fixed and Spread Limit games (R-AAI-4)")
        if self._phase != _BET:
            raise IllegalAction("artificial all-in applies to a betting decision")
        i = self.seats.index(seat)
        if self.total[i] - self.dead[i] <= 0 and self.total[i] <= 0:
            raise IllegalAction("no money in the pot: the player is folded, not all-in (R-AAI-1)")
        self._legal = None
        if self._cards_may_run_out(0):
            self._atomically(self._artificial_allin, i)
        else:
            self._artificial_allin(i)
            self._run()

    def _artificial_allin(self, i: int) -> None:
        self.allin[i] = True
        self._aai.add(i)
        self._pending[i] = False
        self._round_actions += 1
        self._emit("acted", self.seats[i], action="artificial_allin", committed=self.total[i])

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (``None``: a spectator), as a JSON-able dict."""
        shown = set(self.result.shown) if self.result else set()
        players: list[PlayerView] = []
        for i, s in enumerate(self.seats):
            cards = []
            for c, u in zip(self.cards[i], self.up[i], strict=True):
                cards.append(_CS[c] if (u or s == seat or s in shown) else "??")
            players.append({
                "seat": s, "stack": self.stacks[i], "bet": self.bets[i], "folded": self.folded[i],
                "all_in": self.allin[i], "cards": cards, "up": list(self.up[i]),
            })
        out: HandView = {
            "game": self.game.id, "structure": self.structure.value, "street": self.street,
            "button": self.config.button, "board": [_CS[c] for c in self.board],
            "boards": [[_CS[c] for c in b] for b in self.boards], "pot": self.pot, "players": players,
            "to_act": self.to_act, "over": self.is_over,
        }
        if seat is not None and seat == self.to_act:
            out["legal"] = self.legal_actions().to_dict()
        if self.result is not None:
            out["result"] = self.result.to_dict()
        return out

    def events_for(self, seat: int | None) -> list[Event]:
        return [e for e in self.events if e.visible(seat)]

    def _run(self) -> None:
        """Advance automatically until a player must decide or the hand is over."""
        while True:
            phase = self._phase
            if phase == _BET:  # the usual case first (issue #33, fifth pass)
                if self.folded.count(False) == 1:
                    self._finish()
                    return
                actor = self._actor
                if actor is not None:
                    p = self._pending
                    if p[actor]:
                        return
                    # _next_pending_from(actor + 1), inline: the step after every action (issue #33)
                    if True in p:
                        start = actor + 1
                        nxt = p.index(True, start) if start < len(p) and True in p[start:] else p.index(True)
                    else:
                        nxt = None
                else:
                    nxt = self._next_pending_from(self._round_first) if any(self._pending) else None
                if nxt is not None:
                    if self.bets[nxt] >= self.cur_bet and not self._others_can_act(nxt):
                        self._pending[nxt] = False  # nothing to call and nobody to bet against: no decision
                        self._actor = nxt
                        continue
                    self._actor = nxt
                    return
                self._close_round()
                if self._phase == _DONE:
                    return
                if self.street + 1 >= len(self.game.streets):
                    self._finish()
                    return
                closed = self._betting_closed()
                if closed:
                    # R-SHOW-4 reading: the hands of an all-in run-out are tabled before it, so all are shown down
                    self._allin_runout = True
                if closed and not self._rit_checked:
                    self._rit_checked = True
                    if self._rit_eligible():
                        self._phase = _RIT
                        self._queue = [j for j in range(self.n) if not self.folded[j]]
                        self._qi = 0
                        self._rit_votes = 0
                        continue
                self._start_street(self.street + 1)
                continue
            if phase == _DONE:
                self._actor = None
                return
            if phase == _DRAW:
                q, k, folded = self._queue, self._qi, self.folded
                while k < len(q) and folded[q[k]]:
                    k += 1
                self._qi = k
                if k < len(q):
                    self._actor = q[k]
                    return
                owed, self._owed = self._owed, []
                for i, discard in owed:  # Game.deal_after_discards: the replacements once everyone has discarded
                    self._replace(i, discard)
                self._round_discards = []
                self._begin_betting()
                continue
            if phase == _RIT:
                q = self._queue
                if self._rit_votes >= 0 and self._qi < len(q):
                    self._actor = q[self._qi]
                    return
                self._phase = _BET
                self._actor = None
                if self._rit_votes == len(q):
                    self._runs = 2
                    self._emit("run_it_twice", None)
                    self._finish_board_and_showdown()
                    return
                self._start_street(self.street + 1)
                continue
            return  # _SPLIT: a split vote waits for its player


#: the slots an action may change (the configuration and the seating never change during a hand)
_STATE_SLOTS: tuple[str, ...] = tuple(
    name for name in HandState.__slots__ if name not in ("config", "game", "structure", "stakes", "settings", "seats", "n",
                                                     "_pos", "start_stacks", "events", "_future", "_future_most"))
_GET_STATE = attrgetter(*_STATE_SLOTS)
#: where the lists of lists are among them (copied one level deep), and the other lists and sets (copied)
_NESTED_AT = tuple(k for k, name in enumerate(_STATE_SLOTS) if name in ("cards", "up", "_discards"))
_CONTAINERS_AT = tuple(k for k, name in enumerate(_STATE_SLOTS) if name in (
    "stacks", "bets", "total", "dead", "folded", "allin", "board", "boards", "_deck", "_pending", "_acted_level",
    "_queue", "_round_discards", "_muck", "_owed", "_split_agreed", "_showed_first", "_aai"))

