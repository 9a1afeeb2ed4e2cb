"""Betting: forced bets, the betting rounds, the legal actions at a decision and applying them (R-BLIND, R-ANTE,
R-ACT, R-LIMIT-GEN, R-NL, R-PL, R-FL, R-SL, R-BRINGIN, R-STRADDLE, R-SPLIT votes)."""

from __future__ import annotations

from itertools import repeat
from operator import or_

from riverboat.engine.actions import ActionKind, IllegalAction, LegalActions
from riverboat.engine.events import Event
from riverboat.engine.state import (
    _BET,
    _DONE,
    _DRAW,
    _KINDS,
    _M_BET,
    _M_CHECK,
    _M_COMPLETE,
    _M_RAISE,
    _M_SPLIT,
    _M_STRADDLE,
    _NEW,
    _RIT,
    _SPLIT,
    _VALUE,
    _VOTES,
    AGREE_SPLIT,
    BRING_IN,
    CALL,
    CHECK,
    COMPLETE,
    DECLINE_SPLIT,
    DRAW,
    FIXED_LIMIT,
    FOLD,
    HALF_POT_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    RUN_ONCE,
    RUN_TWICE,
    SPREAD_LIMIT,
    STAND_PAT,
    STRADDLE,
    STUD,
    HandState,
    _kinds,
)
from riverboat.engine.visible import bring_in_key, has_open_pair
from riverboat.games.catalog import PostDrawFirst

_DRAW_KINDS = frozenset((DRAW, STAND_PAT))
_RIT_KINDS = frozenset((RUN_TWICE, RUN_ONCE))
_SPLIT_KINDS = frozenset((AGREE_SPLIT, DECLINE_SPLIT))
_LEFT_OF_BB = PostDrawFirst.LEFT_OF_BIG_BLIND
# Offers shared between decisions and hands (LegalActions is read-only by contract, nobody writes to one): the draw
# offers by (seat, most discards), the fixed-limit betting offers by their values; bounded, cleared when full
_DRAW_OFFERS: dict[tuple[int, int], LegalActions] = {}
_FL_OFFERS: dict[tuple[int, int, int, int, int, tuple[int, ...]], LegalActions] = {}
_OFFERS_MAX = 1 << 14


class Betting(HandState):
    """The betting rounds of a hand (a part of :class:`~riverboat.engine.hand.Hand`)."""

    __slots__ = ()

    def _post_forced(self) -> None:
        cfg, stakes, game = self.config, self.stakes, self.game
        pos = self._pos
        antes = cfg.antes if cfg.antes is not None else (
            {s: stakes.ante for s in self.seats} if stakes.ante else {})
        for s, a in antes.items():
            if a and s in pos:
                paid = self._put(pos[s], a, live=False)
                self._emit("posted", s, what="ante", amount=paid)
        for s, a in cfg.dead_posts.items():
            if a and s in pos:
                paid = self._put(pos[s], a, live=False)
                self._dead_money += paid
                self._emit("posted", s, what="dead", amount=paid)
        if game.kind is STUD:
            return
        if cfg.blinds is not None:
            blinds = [(pos[s], a) for s, a in cfg.blinds.items() if s in pos and a]
        elif self.n == 2:
            blinds = [(1, stakes.small_blind), (0, stakes.big_blind)]
        else:
            blinds = [(0, stakes.small_blind), (1, stakes.big_blind)]
        top = 0
        for i, a in blinds:
            if a <= 0:
                continue
            paid = self._put(i, a, live=True)
            self._emit("posted", self.seats[i], what="blind", amount=paid)
            if a >= top:
                top = a
                self._bb_pos = i
        for s, a in cfg.live_posts.items():
            if a and s in pos:
                paid = self._put(pos[s], a, live=True)
                self._emit("posted", s, what="live", amount=paid)
        self.cur_bet = max(self.bets)

    def _can_bet(self, i: int) -> bool:
        return not self.folded[i] and not self.allin[i]

    def _first_after_round_start(self) -> int:
        """First position to act on a later round (or to draw)."""
        game = self.game
        if game.kind is STUD:
            return self._best_visible()
        if game.post_draw_first is _LEFT_OF_BB and self._bb_pos is not None:
            return (self._bb_pos + 1) % self.n
        return 0

    def _begin_betting(self) -> None:
        self._phase = _BET
        n = self.n
        s = self.street
        stud = self.game.kind is STUD
        structure = self.structure
        self._raises = 0
        self._reopen = 0  # largest bet/raise increment of the round (R-LIMIT-GEN-2 reopening threshold)
        self._last_aggr = None
        self._round_actions = 0
        self._acted_level = [-1] * n
        self._big_used = False
        self._open_pair = False
        stakes = self.stakes
        # the fixed-limit bet of this round
        size = self._bet_size = stakes.fixed_big if self.game.streets[s].big else stakes.fixed_small
        self._min_raise = size if structure is FIXED_LIMIT else self.stakes.opening_min(stud)
        self._completed = True
        self._bring_in_pos = None
        first: int
        if s == 0 and stud:
            cands = [i for i in range(n) if not self.folded[i]]
            rule = self.game.bring_in
            assert rule is not None
            first = min(cands, key=lambda i: (bring_in_key(self._last_up(i), rule), i))
            k = 0
            while self.allin[first] and k < n:  # the low card is all-in from the ante: the next player brings in
                first = (first + 1) % n
                k += 1
            if self.stakes.bring_in and not self.allin[first]:
                self._bring_in_pos = first
                self._completed = structure is not FIXED_LIMIT
        elif s == 0 and self._bb_pos is not None:
            first = (self._bb_pos + 1) % n
            # R-FL-4 / R-LIMIT-GEN-2: the big blind is a full bet (PHH reading: it is not)
            self._reopen = self.cur_bet if self.game.fl_cap_counts_blind else 0
            if self.structure is FIXED_LIMIT and self.game.fl_cap_counts_blind:
                self._raises = 1  # R-FL-4: the big blind is the first bet
        else:
            first = self._first_after_round_start()
        if stud and s == 1 and self.game.open_pair_rule and structure is FIXED_LIMIT:
            self._open_pair = any(
                has_open_pair([c for c, u in zip(self.cards[i], self.up[i], strict=True) if u])
                for i in range(n) if not self.folded[i]
            )
        if self._community_card and not self.settings.stud_community_betting:
            pending = self._pending = [False] * n
        else:
            folded, allin = self.folded, self.allin
            pending = self._pending = [not (folded[j] or allin[j]) for j in range(n)]
        self._actor = None
        self._split_open = bool(self.game.split_agreement and self.settings.split_agreement)
        self._split_voting = False
        e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
        e.kind, e.seat, e.data, e.visible_to = "street", None, {"street": s}, None
        self.events.append(e)
        self._round_first = first
        live = pending.count(True)
        if not live or (live == 1 and self.bets[pending.index(True)] >= self.cur_bet):
            self._pending = [False] * n  # nobody to bet against: no betting round (and no bring-in)
            self._bring_in_pos = None
            self._actor = None
            return
        self._actor = self._next_pending_from(first)

    def _last_up(self, i: int) -> int:
        for c, u in zip(reversed(self.cards[i]), reversed(self.up[i]), strict=True):
            if u:
                return c
        return self.cards[i][-1]

    def _next_pending_from(self, start: int) -> int | None:
        """The first pending position clockwise from ``start`` (itself included), or None."""
        p = self._pending
        if True not in p:
            return None
        n = self.n
        if start >= n:
            start %= n
        if True in p[start:]:
            return p.index(True, start)
        return p.index(True)

    def legal_actions(self) -> LegalActions:
        """What the player to act may do now; IllegalAction when the hand is over. Computed once per decision (kept
        in ``_legal`` until the state changes); one method, not a check calling a computation (issue #33, fifth
        pass: a Python call is several hundred instructions)."""
        legal = self._legal
        if legal is not None:
            return legal
        i = self._actor
        if i is None or self._phase == _DONE:
            raise IllegalAction("the hand is over; nobody is to act")
        seat = self.seats[i]
        phase = self._phase
        if phase != _BET:
            if phase == _DRAW:
                mx = self.game.streets[self.street].draw or 0
                key = (seat, mx)
                got = _DRAW_OFFERS.get(key)
                if got is None:
                    if len(_DRAW_OFFERS) >= _OFFERS_MAX:
                        _DRAW_OFFERS.clear()
                    got = _DRAW_OFFERS[key] = LegalActions(seat, _DRAW_KINDS, 0, 0, 0, 0, mx)
                self._legal = got
                return got
            if phase == _RIT:
                legal = self._legal = LegalActions(seat, _RIT_KINDS)
                return legal
            if phase == _SPLIT:  # an all-in player asked during a split vote
                legal = self._legal = LegalActions(seat, _SPLIT_KINDS)
                return legal
        stack, bet, cur = self.stacks[i], self.bets[i], self.cur_bet
        if self._bring_in_pos == i and not self._round_actions:
            b = min(self.stakes.bring_in, stack)
            kinds = {BRING_IN}
            lo = hi = 0
            allowed: tuple[int, ...] = ()
            if stack > b:
                lo, hi, allowed = self._aggressive_bounds(i, completing=True)
                if hi:
                    kinds.add(COMPLETE)
            legal = self._legal = LegalActions(seat, frozenset(kinds), bring_in=b, min_to=lo, max_to=hi,
                                               allowed_to=allowed)
            return legal
        call = cur - bet
        if call > stack:
            call = stack
        mask = 0
        if call <= 0:
            call = 0
            mask = _M_CHECK
        lo = hi = 0
        allowed = ()
        level = self._acted_level[i]
        if stack > call and (level < 0 or cur - level >= self._reopen):
            completed = self._completed
            if completed and self.structure is FIXED_LIMIT and not self._open_pair:
                # _aggressive_bounds(i, False) for a fixed-limit bet or raise, inline (issue #33, fifth pass): one
                # bet size up, or all in for less; none once the cap is reached (stack > call: all in is above cur)
                if self._raises < 4:
                    # _others_can_act(i), inline: another player still in could call a raise
                    folded, allin, stacks, bets = self.folded, self.allin, self.stacks, self.bets
                    for j in range(self.n):
                        if not folded[j] and not allin[j] and stacks[j] + bets[j] > cur and j != i:
                            lo = hi = cur + self._bet_size
                            if stack + bet < lo:
                                lo = hi = stack + bet
                            if hi:
                                mask |= _M_RAISE if cur else _M_BET
                            break
            elif self._others_can_act(i):
                lo, hi, allowed = self._aggressive_bounds(i, not completed)
                if hi:
                    mask |= _M_BET if (completed and cur == 0) else (_M_RAISE if completed else _M_COMPLETE)
        if self._straddle_ok and self.street == 0 and self._round_actions == 0 and \
                i == (self._bb_pos + 1) % self.n:  # type: ignore[operator]
            amt = 2 * self.stakes.big_blind
            if stack + bet >= amt and cur < amt:
                mask |= _M_STRADDLE
        if self._split_open:
            mask |= _M_SPLIT
        if self.structure is FIXED_LIMIT:
            # a fixed-limit offer takes few values (the seat, the kinds, the call and one raise size): shared, as
            # the draw offers, instead of built at every decision (issue #33, fifth pass; LegalActions is read-only)
            fl_key = (seat, mask, call, lo, hi, allowed)
            got = _FL_OFFERS.get(fl_key)
            if got is None:
                if len(_FL_OFFERS) >= _OFFERS_MAX:
                    _FL_OFFERS.clear()
                got = _FL_OFFERS[fl_key] = LegalActions(seat, _KINDS.get(mask) or _kinds(mask), call, lo, hi, 0, 0,
                                                     allowed)
            self._legal = got
            return got
        legal = self._legal = LegalActions(seat, _KINDS.get(mask) or _kinds(mask), call, lo, hi, 0, 0, allowed)
        return legal

    def _others_can_act(self, i: int) -> bool:
        """Some other player could still call a raise (a raise nobody can call is not offered)."""
        cur = self.cur_bet
        folded, allin, stacks, bets = self.folded, self.allin, self.stacks, self.bets
        for j in range(self.n):  # indexing: cheaper than zip(..., strict=True) here (issue #33)
            if not folded[j] and not allin[j] and stacks[j] + bets[j] > cur and j != i:
                return True
        return False

    def _aggressive_bounds(self, i: int, completing: bool) -> tuple[int, int, tuple[int, ...]]:
        """(min_to, max_to, allowed_to) for a bet/raise/complete by position i; (0, 0, ()) if none."""
        stack, bet, cur = self.stacks[i], self.bets[i], self.cur_bet
        all_in_to = stack + bet
        if all_in_to <= cur:
            return 0, 0, ()
        structure = self.structure
        stud = self.game.kind is STUD
        allowed: tuple[int, ...] = ()
        if structure is FIXED_LIMIT:
            cap = 4
            if self._raises >= cap:
                return 0, 0, ()
            size = self._bet_size
            if completing:
                lo = hi = self.stakes.fixed_small
            elif self._open_pair and not self._big_used:
                lo, hi = cur + size, cur + self.stakes.fixed_big
                allowed = (lo, hi)
            elif self._open_pair:
                lo = hi = cur + self.stakes.fixed_big
            else:
                lo = hi = cur + size
        else:
            if completing and cur == 0:
                lo = max(self.stakes.opening_min(stud), 2 * self.stakes.bring_in)  # open for more than the bring-in
            elif completing or cur == 0:
                lo = self.stakes.opening_min(stud)
            else:
                lo = cur + self._min_raise
            if structure is NO_LIMIT:
                hi = all_in_to
            elif structure is POT_LIMIT:
                hi = 2 * cur - bet + self.pot
            elif structure is HALF_POT_LIMIT:
                hi = cur + (self.pot + cur - bet) // 2
            else:  # spread limit (R-SL)
                spread = self.stakes.spread
                smax = spread[min(self.street, len(spread) - 1)]
                hi = min(cur + smax, 3 * smax)
                if hi <= cur:
                    return 0, 0, ()
                if lo > hi:
                    lo = hi  # R-SL-3 reading: a final raise up to the cap
            if hi < lo:
                hi = lo
        if all_in_to < lo:
            return all_in_to, all_in_to, ()
        if hi > all_in_to:
            hi = all_in_to
            if allowed:
                allowed = tuple(a for a in allowed if a < all_in_to) + (all_in_to,)
        return lo, hi, allowed

    def _apply(self, i: int, kind: ActionKind, amount: int) -> None:
        seat = self.seats[i]
        if kind in _VOTES:
            if kind is RUN_TWICE or kind is RUN_ONCE:
                self._emit("acted", seat, action=kind.value)
                if kind is RUN_ONCE:
                    self._rit_votes = -1
                    self._qi = len(self._queue)
                else:
                    self._rit_votes += 1
                    self._qi += 1
                return
            if kind is AGREE_SPLIT or kind is DECLINE_SPLIT:
                self._emit("acted", seat, action=kind.value)
                if kind is DECLINE_SPLIT:
                    self._end_split_vote(refused=True)
                else:
                    if not self._split_voting:
                        self._split_agreed = set()
                    self._split_agreed.add(i)
                    self._split_voting = True
                    self._split_advance(i)
                return
        if self._split_open:
            if self._split_voting:
                self._emit("split_refused", seat)
            self._split_open = False
            self._split_voting = False
            if self._phase == _SPLIT:
                self._phase = _BET
        self._round_actions += 1
        if kind is FOLD:
            self.folded[i] = True
            self._pending[i] = False
            e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
            e.kind, e.seat, e.data, e.visible_to = "acted", seat, {"action": "fold"}, None
            self.events.append(e)
            self._muck.extend(zip(repeat(i), self.cards[i]))  # noqa: B905 (repeat is endless): (i, card) pairs
            return
        if kind is CHECK:
            self._pending[i] = False
            self._acted_level[i] = self.cur_bet
            e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
            e.kind, e.seat, e.data, e.visible_to = "acted", seat, {"action": "check"}, None
            self.events.append(e)
            return
        if kind is CALL:
            # _put(i, cur - bets[i], live=True), inline (issue #33, fifth pass: the most common chips moved)
            cur, bets, stacks = self.cur_bet, self.bets, self.stacks
            paid = cur - bets[i]
            left = stacks[i] - paid
            if left <= 0:  # all in for the call or less
                paid += left
                left = 0
                self.allin[i] = True
            stacks[i] = left
            self.total[i] += paid
            bets[i] += paid
            self._pending[i] = False
            self._acted_level[i] = cur
            e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
            e.kind, e.seat, e.data, e.visible_to = "acted", seat, {"action": "call", "amount": paid, "to": self.bets[i],
                                                        "all_in": self.allin[i]}, None
            self.events.append(e)
            return
        if kind is BRING_IN:
            paid = self._put(i, self.stakes.bring_in, live=True)
            if self.bets[i] - self.cur_bet > self._reopen:
                self._reopen = self.bets[i] - self.cur_bet
            self.cur_bet = max(self.cur_bet, self.bets[i])
            self._pending[i] = False
            self._acted_level[i] = self.cur_bet
            self._emit("acted", seat, action="bring_in", amount=paid, to=self.bets[i], all_in=self.allin[i])
            return
        # aggressive: BET / RAISE / COMPLETE / STRADDLE, amount is the new total bet this round
        if kind is STRADDLE:
            amount = 2 * self.stakes.big_blind
        cur = self.cur_bet
        increment = amount - cur
        self._put(i, amount - self.bets[i], live=True)
        full = kind is COMPLETE or increment >= self._min_raise or (
            self.structure is SPREAD_LIMIT and increment > 0 and not self.allin[i])
        if self.structure is FIXED_LIMIT:
            self._raises += 1
            size = self._bet_size
            if increment > size:
                self._big_used = True
            if kind is COMPLETE:
                self._min_raise = size
            full = full or increment >= size
        elif full and kind is not COMPLETE:
            self._min_raise = max(self._min_raise, increment)
        if kind is COMPLETE:
            self._completed = True
        if increment > self._reopen:
            self._reopen = increment
        self.cur_bet = amount
        self._last_aggr = i
        folded, allin = self.folded, self.allin
        if full:  # a full bet or raise reopens the betting for everyone (issue #33, fifth pass: lists built in C)
            # every player still able to bet is due again; the levels of the others are never read this round
            pending = self._pending = [not (folded[j] or allin[j]) for j in range(self.n)]
            acted_level = self._acted_level = [-1] * self.n
        else:
            pending, acted_level = self._pending, self._acted_level
            for j in range(self.n):
                if j != i and not folded[j] and not allin[j]:
                    pending[j] = True
        pending[i] = False
        acted_level[i] = amount
        e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
        e.kind, e.seat, e.data, e.visible_to = "acted", seat, {"action": _VALUE[kind], "to": amount, "all_in": allin[i],
                                                    "full": full}, None
        self.events.append(e)

    def _split_advance(self, i: int) -> None:
        """After ``i`` agreed to split: ask the next player (all-in players included, R-SPLIT-2/4)."""
        n = self.n
        if all(x in self._split_agreed for x in range(n) if not self.folded[x]):
            self._end_split_vote(refused=False)
            return
        for k in range(1, n + 1):
            j = (i + k) % n
            if self.folded[j] or j in self._split_agreed:
                continue
            self._actor = j
            self._phase = _SPLIT if self.allin[j] else _BET
            return

    def _end_split_vote(self, refused: bool) -> None:
        self._split_open = False
        self._split_voting = False
        if self._phase == _DONE:
            return
        alive = [x for x in range(self.n) if not self.folded[x]]
        if not refused and all(x in self._split_agreed for x in alive):
            self._emit("split_agreed", None, seats=[self.seats[x] for x in sorted(self._split_agreed)])
            self._close_round()
            self._finish(split_all=True)
            return
        if refused:
            self._emit("split_refused", self.seats[self._actor] if self._actor is not None else None)
        self._phase = _BET
        self._actor = None

    def _close_round(self) -> None:
        """End a betting round: return the uncalled part of the top bet (R-POT-4), collect the bets."""
        bets = self.bets
        if any(bets):
            ranked = sorted(bets)
            top, second = ranked[-1], ranked[-2]  # second: the largest bet of the others
            ti = bets.index(top)
            if top > second:
                back = top - second
                bets[ti] -= back
                self.total[ti] -= back
                self.stacks[ti] += back
                if self.stacks[ti] > 0 and ti not in self._aai:
                    self.allin[ti] = False
                self._emit("returned", self.seats[ti], amount=back)
            self._pot_collected += sum(bets)
            self.bets = [0] * self.n
        self.cur_bet = 0
        self._pending = [False] * self.n

    def _betting_closed(self) -> bool:
        """At most one player still in can bet (neither folded nor all-in)."""
        able: int = self.n - sum(map(or_, self.folded, self.allin))  # no generator (issue #33, fifth pass)
        return able <= 1
