"""The pure hand state machine (see the package docstring for the API and the dealing order)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from riverboat.cards import ALL_CARDS, Card, Deck
from riverboat.engine.actions import AGGRESSIVE, Action, ActionKind, IllegalAction, LegalActions
from riverboat.engine.config import HandConfig, RakeContext
from riverboat.engine.events import Event
from riverboat.engine.pots import Pot, build_pots, divide, divide_all_to_first, merge_equal_pots
from riverboat.engine.showdown import evaluate_hands, label_of, winning_hand
from riverboat.engine.views import HandView, PlayerView, PotView, ResultView, Share, WinningHand
from riverboat.engine.visible import bring_in_key, has_open_pair, visible_key
from riverboat.games.catalog import Kind, OddChip, PostDrawFirst, Street
from riverboat.games.structures import Structure

K = ActionKind
_CS = [str(c) for c in ALL_CARDS]  # card code -> "Ah"
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


@dataclass(slots=True)
class PotAward:
    """How one pot (or half of it, or one run of it) was won."""

    amount: int
    eligible: list[int]  # seats
    winners: dict[int, int]  # seat -> chips won
    share: Share = "all"  # "all", "high", "low", "split" (R-SPLIT agreement)
    run: int = 0  # run it twice: 0 or 1
    hands: dict[int, WinningHand] = field(default_factory=dict)  # seat -> winning cards and label (showdown only)

    def to_dict(self) -> PotView:
        out: PotView = {"amount": self.amount, "eligible": self.eligible, "winners": self.winners,
                        "share": self.share, "run": self.run}
        if self.hands:
            out["hands"] = self.hands
        return out


@dataclass(slots=True)
class HandResult:
    stacks: dict[int, int]  # seat -> final stack
    net: dict[int, int]  # seat -> final - initial
    pots: list[PotAward]
    rake: int
    shown: dict[int, list[str]] = field(default_factory=dict)
    labels: dict[int, str] = field(default_factory=dict)
    showdown: bool = False

    def to_dict(self) -> ResultView:
        return {
            "stacks": self.stacks,
            "net": self.net,
            "rake": self.rake,
            "pots": [p.to_dict() for p in self.pots],
            "shown": self.shown,
            "labels": self.labels,
            "showdown": self.showdown,
        }


_UNSET = object()


def _refill(target: Any, value: Any) -> None:
    if isinstance(target, list):
        target[:] = value
    else:
        target.clear()
        target.update(value)


_FUTURE: dict[int, tuple[tuple[Street, ...], tuple[tuple[int, int], ...]]] = {}


def _future_cards(streets: tuple[Street, ...]) -> tuple[tuple[int, int], ...]:
    """For each street: the cards the streets after it deal up to the next draw street (exclusive), as (cards per
    alive player, board cards x 3 for R-RIT runs); cached per streets tuple (held, so its id is never reused)."""
    got = _FUTURE.get(id(streets))
    if got is None:
        out = []
        for s in range(len(streets)):
            per_player = board = 0
            for st in streets[s + 1:]:
                if st.draw is not None:
                    break
                per_player += st.down + st.up
                board += 3 * st.board
            out.append((per_player, board))
        got = _FUTURE[id(streets)] = (streets, tuple(out))
    return got[1]


class Hand:
    """One hand. Construct with a :class:`HandConfig`; forced bets are posted and cards dealt at once."""

    __slots__ = (
        "config", "game", "structure", "stakes", "settings", "seats", "n", "_pos",
        "stacks", "start_stacks", "bets", "total", "dead", "folded", "allin", "cards", "up", "board", "boards",
        "events", "_deck", "_dpos", "street", "_phase", "_actor", "_pending", "_acted_level", "cur_bet",
        "_min_raise", "_raises", "_last_aggr", "_round_actions", "_legal", "_bb_pos", "_queue", "_qi",
        "_completed", "_big_used", "_open_pair", "_discards", "_round_discards", "_muck", "_owed", "_split_agreed",
        "_split_open", "_split_voting", "_rit_votes", "_runs", "result", "_community_card", "_pot_collected",
        "_odd_chip", "_reopen", "_dead_money", "_showed_first", "_bring_in_pos", "_round_first", "_rit_checked", "_straddle_ok", "_aai",
        "_allin_runout", "_future",
    )

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
        if len(set(seats)) != len(seats) or not all(type(s) is int and s >= 0 for s in seats):
            raise ValueError(f"seats must be distinct non-negative integers: {seats}")
        if not all(type(s) is int and s > 0 for s in config.stacks):
            raise ValueError(f"stacks must be positive integers: {list(config.stacks)}")
        if config.structure is Structure.FIXED_LIMIT and not stakes.fixed_small:
            raise ValueError("fixed limit needs small_bet (or big_blind) > 0")
        if config.structure is Structure.SPREAD_LIMIT and not stakes.spread:
            raise ValueError("spread limit needs stakes.spread")
        deck = list(config.deck)
        members = game.deck._members
        if len(set(deck)) != len(deck) or not members.issuperset(deck):
            deck = game.deck.validate(deck)  # raises CardError naming the bad card
        self._deck: list[Card] = deck
        button = config.button
        stack_of = dict(zip(seats, config.stacks, strict=True))
        order = sorted(seats, key=lambda s: (s <= button, s))
        self.seats = order
        n = self.n = len(order)
        self._pos = {s: i for i, s in enumerate(order)}
        self.stacks = [stack_of[s] for s in order]
        self.start_stacks = list(self.stacks)
        self.bets = [0] * n
        self.total = [0] * n
        self.dead = [0] * n  # antes and dead posts (not part of any bet)
        self._dead_money = 0  # dead posts: always in the main pot (R-MISSED-3)
        self.folded = [False] * n
        self.allin = [False] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.boards: list[list[Card]] = []
        self.events: list[Event] = []
        self._dpos = 0
        self.street = 0
        self._phase = _BET
        self._actor: int | None = None
        self._pending = [False] * n
        self._acted_level = [-1] * n
        self.cur_bet = 0
        self._min_raise = 0
        self._raises = 0
        self._last_aggr: int | None = None
        self._round_actions = 0
        self._legal: LegalActions | None = None
        self._bb_pos: int | None = None
        self._queue: list[int] = []
        self._qi = 0
        self._completed = True
        self._big_used = False
        self._open_pair = False
        self._discards: list[list[Card]] = [[] for _ in range(n)]
        self._round_discards: list[tuple[int, Card]] = []
        self._muck: list[tuple[int, Card]] = []  # (owner position, card): reshuffle candidates
        self._owed: list[tuple[int, list[Card]]] = []  # Game.deal_after_discards: (position, discards) to replace
        self._split_agreed: set[int] = set()
        self._split_open = False
        self._split_voting = False
        self._rit_votes = 0
        self._runs = 1
        self.result: HandResult | None = None
        self._community_card = False
        self._pot_collected = 0
        self._odd_chip = self.settings.odd_chip or game.odd_chip
        self._showed_first: list[int] = []
        self._bring_in_pos: int | None = None
        self._round_first = 0
        self._rit_checked = False
        self._reopen = 0
        self._aai: set[int] = set()
        self._allin_runout = False  # betting closed with a player all-in and cards still to come
        self._future = _future_cards(game.streets)
        self._post_forced()
        # Offered to the player left of the big blind also when the table names the blinds itself (a returning
        # player's live post, a skipped waiting player): the room passes explicit blinds in those hands.
        self._straddle_ok = (game.straddle and self.settings.straddle and config.structure is Structure.NO_LIMIT
                             and self._bb_pos is not None and n > 2)
        self._start_street(0)
        self._run()

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        return self._phase == _DONE

    @property
    def to_act(self) -> int | None:
        """Seat number of the player who must act now, or None when the hand is over."""
        return None if self._actor is None or self._phase == _DONE else self.seats[self._actor]

    @property
    def pot(self) -> int:
        """All chips in the middle: collected pots plus the bets of the current round."""
        return self._pot_collected + sum(self.bets)

    def is_due(self, seat: int) -> bool:
        """Whether the player of ``seat`` still has to act in the current betting round (False for a seat not in
        the hand)."""
        i = self._pos.get(seat)
        return i is not None and self._pending[i]

    def deck_order(self) -> tuple[Card, ...]:
        """The deck as dealt so far and still to come, in order (reshuffled cards, R-INSUF, appended at the end)."""
        return tuple(self._deck)

    def legal_actions(self) -> LegalActions:
        if self._legal is None:
            if self._phase == _DONE or self._actor is None:
                raise IllegalAction("the hand is over; nobody is to act")
            self._legal = self._compute_legal()
        return self._legal

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
        if kind in AGGRESSIVE and kind is not K.STRADDLE:
            amt = action.amount
            if not isinstance(amt, int) or isinstance(amt, bool):
                raise IllegalAction(f"{kind.value} needs an integer amount, got {amt!r}")
            if legal.allowed_to and amt not in legal.allowed_to:
                raise IllegalAction(f"{kind.value} to {amt} is not allowed; allowed: {list(legal.allowed_to)}")
            if not legal.min_to <= amt <= legal.max_to:
                raise IllegalAction(f"{kind.value} to {amt} is out of range: "
                                    f"{legal.min_to} to {legal.max_to}")
        elif kind is K.DRAW or kind is K.STAND_PAT:
            discard = tuple(action.cards) if kind is K.DRAW else ()
            if discard and not all(type(c) is int or isinstance(c, Card) for c in discard):
                raise IllegalAction(f"discards must be card codes (ints), got {discard!r}")
            if len(discard) > legal.max_discards:
                raise IllegalAction(f"at most {legal.max_discards} cards may be discarded, got {len(discard)}")
            hand = self.cards[i]
            if discard and (len(set(discard)) != len(discard) or any(c not in hand for c in discard)):
                raise IllegalAction(f"discards must be distinct cards of your hand: "
                                    f"{' '.join(str(Card(c)) for c in discard if 0 <= c < 52)}")
            self._legal = None
            if self._cards_may_run_out(len(discard)):
                self._atomically(lambda: self._apply_draw(i, [ALL_CARDS[c] for c in discard]))
            else:
                self._apply_draw(i, [ALL_CARDS[c] for c in discard])
                self._run()
            return
        self._legal = None
        if self._cards_may_run_out(0):
            self._atomically(lambda: self._apply(i, kind, action.amount))
        else:  # nothing can refuse the action while it is applied (R-ACT-1)
            self._apply(i, kind, action.amount)
            self._run()

    def _atomically(self, apply: Callable[[], None]) -> None:
        """Apply a checked action and advance the hand; all or nothing (R-ACT-1), for an action after which the
        cards left could fall short before the next decision (``_cards_may_run_out``): only the deck can still
        refuse an action while it is applied (R-INSUF: a draw the reshuffle cannot complete, a street that cannot
        be dealt), so the state is copied first and put back if it does."""
        saved = self._saved_state()
        try:
            apply()
            self._run()
        except IllegalAction:
            self._restore_state(saved)
            raise

    def _cards_may_run_out(self, drawn: int) -> bool:
        """Whether the cards left in the deck could be fewer than the hand may deal before the next decision:
        this draw's replacements ``drawn`` (and the replacements owed to earlier drawers, Game.deal_after_discards),
        then every street after this one up to the next draw (a draw street is a decision for every player still
        in, and deals nothing until then), each alive player dealt every card, every board run three times (R-RIT):
        ``_future``. Any card dealt later is dealt by a later action, which makes its own check."""
        per_player, board = self._future[self.street]
        need = drawn + per_player * self.folded.count(False) + board
        if self._owed:
            for _, d in self._owed:
                need += len(d)
        return need > len(self._deck) - self._dpos

    def _saved_state(self) -> list[object]:
        """A copy of the state an action may change: the event log as its length (it is only appended to), lists
        of lists one level deeper, other containers shallow, the rest shared (immutable)."""
        out: list[object] = [len(self.events)]
        for name in _STATE_SLOTS:
            value = getattr(self, name, _UNSET)
            if name in _NESTED:
                assert isinstance(value, list)
                out.append([list(v) for v in value])
            elif isinstance(value, list | set):
                out.append(value.copy())
            else:
                out.append(value)
        return out

    def _restore_state(self, saved: list[object]) -> None:
        events_len = saved[0]
        assert isinstance(events_len, int)
        del self.events[events_len:]  # in place: whoever holds ``hand.events`` sees it restored
        for name, value in zip(_STATE_SLOTS, saved[1:], strict=True):
            current = getattr(self, name, _UNSET)
            if value is _UNSET:
                if current is not _UNSET:
                    delattr(self, name)
            elif type(current) is type(value) and isinstance(value, list | set):
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
        if self.structure not in (Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT):
            raise IllegalAction("artificial all-in exists only in Fixed and Spread Limit games (R-AAI-4)")
        if self._phase != _BET:
            raise IllegalAction("artificial all-in applies to a betting decision")
        i = self.seats.index(seat)
        if self.total[i] - self.dead[i] <= 0 and self.total[i] <= 0:
            raise IllegalAction("no money in the pot: the player is folded, not all-in (R-AAI-1)")
        self._legal = None
        if self._cards_may_run_out(0):
            self._atomically(lambda: self._artificial_allin(i))
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

    # ------------------------------------------------------------------ setup
    def _emit(self, kind: str, seat: int | None = None, visible_to: frozenset[int] | None = None,
              **data: Any) -> None:
        self.events.append(Event(kind, seat, data, visible_to))

    def _put(self, i: int, amount: int, live: bool) -> int:
        amount = min(amount, self.stacks[i])
        self.stacks[i] -= amount
        self.total[i] += amount
        if live:
            self.bets[i] += amount
        else:
            self.dead[i] += amount
            self._pot_collected += amount
        if self.stacks[i] == 0:
            self.allin[i] = True
        return amount

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
        if game.kind is Kind.STUD:
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

    # ------------------------------------------------------------------ dealing
    def _next_card(self) -> Card:
        if self._dpos >= len(self._deck):
            raise IllegalAction("the deck ran out of cards")
        c = self._deck[self._dpos]
        self._dpos += 1
        return c

    def _start_street(self, s: int) -> None:
        self.street = s
        st = self.game.streets[s]
        if st.draw is not None:
            self._phase = _DRAW
            first = self._first_after_round_start()
            self._queue = [j for j in self._clockwise(first) if not self.folded[j]]
            self._qi = 0
            self._round_discards = []
            return
        self._deal_street(s)
        self._begin_betting()

    def _deal_street(self, s: int) -> None:
        st = self.game.streets[s]
        per = st.down + st.up
        if per:
            folded = self.folded
            alive = [i for i in range(self.n) if not folded[i]]
            need = per * len(alive)
        else:
            alive = []
            need = 0
        left = len(self._deck) - self._dpos
        if need and need > left and self.game.kind is Kind.STUD and st.down + st.up == 1:
            c = self._next_card()  # R-INSUF-3: one community card for everybody
            self.board.append(c)
            self._community_card = True
            self._emit("board", None, cards=[_CS[c]], community=True)
        elif need:
            deck, pos, cards, ups = self._deck, self._dpos, self.cards, self.up
            k = len(alive)
            end = pos + need
            if end > len(deck):
                raise IllegalAction("the deck ran out of cards")
            down = st.down
            flags = [False] * down + [True] * st.up
            seats, events, cs = self.seats, self.events, _CS
            for m, i in enumerate(alive):
                got = deck[pos + m:end:k]  # one card at a time round the table: every k-th card
                cards[i].extend(got)
                ups[i].extend(flags)
                s_ = seats[i]
                if down:
                    events.append(Event("dealt", s_, {"cards": [cs[c] for c in got[:down]], "up": False},
                                        _only(s_)))
                if st.up:
                    events.append(Event("dealt", s_, {"cards": [cs[c] for c in got[down:]], "up": True}, None))
            self._dpos = end
        if st.board:
            pos, k = self._dpos, st.board
            if pos + k > len(self._deck):
                self._dpos = len(self._deck)  # as dealing card by card would leave it
                raise IllegalAction("the deck ran out of cards")
            new = self._deck[pos:pos + k]
            self._dpos = pos + k
            self.board.extend(new)
            self.events.append(Event("board", None, {"cards": [_CS[c] for c in new]}, None))

    def _clockwise(self, first: int) -> list[int]:
        n = self.n
        return [(first + k) % n for k in range(n)]

    # ------------------------------------------------------------------ betting rounds
    def _can_bet(self, i: int) -> bool:
        return not self.folded[i] and not self.allin[i]

    def _first_after_round_start(self) -> int:
        """First position to act on a later round (or to draw)."""
        game = self.game
        if game.kind is Kind.STUD:
            return self._best_visible()
        if game.post_draw_first is PostDrawFirst.LEFT_OF_BIG_BLIND and self._bb_pos is not None:
            return (self._bb_pos + 1) % self.n
        return 0

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

    def _begin_betting(self) -> None:
        self._phase = _BET
        n = self.n
        s = self.street
        stud = self.game.kind is Kind.STUD
        structure = self.structure
        self._raises = 0
        self._reopen = 0  # largest bet/raise increment of the round (R-LIMIT-GEN-2 reopening threshold)
        self._last_aggr = None
        self._round_actions = 0
        self._acted_level = [-1] * n
        self._big_used = False
        self._open_pair = False
        self._min_raise = self._street_bet() if structure is Structure.FIXED_LIMIT else self.stakes.opening_min(stud)
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
                self._completed = structure is not Structure.FIXED_LIMIT
        elif s == 0 and self._bb_pos is not None:
            first = (self._bb_pos + 1) % n
            # R-FL-4 / R-LIMIT-GEN-2: the big blind is a full bet (PHH reading: it is not)
            self._reopen = self.cur_bet if self.game.fl_cap_counts_blind else 0
            if self.structure is Structure.FIXED_LIMIT and self.game.fl_cap_counts_blind:
                self._raises = 1  # R-FL-4: the big blind is the first bet
        else:
            first = self._first_after_round_start()
        if stud and s == 1 and self.game.open_pair_rule and structure is Structure.FIXED_LIMIT:
            self._open_pair = any(
                has_open_pair([c for c, u in zip(self.cards[i], self.up[i], strict=True) if u])
                for i in range(n) if not self.folded[i]
            )
        if self._community_card and not self.settings.stud_community_betting:
            pending = self._pending = [False] * n
        else:
            pending = self._pending = [not (f or a) for f, a in zip(self.folded, self.allin, strict=True)]
        self._actor = None
        self._split_open = bool(self.game.split_agreement and self.settings.split_agreement)
        self._split_voting = False
        self.events.append(Event("street", None, {"street": s}, None))
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

    def _street_bet(self) -> int:
        stakes = self.stakes
        return stakes.fixed_big if self.game.streets[self.street].big else stakes.fixed_small

    def _compute_legal(self) -> LegalActions:
        i = self._actor
        assert i is not None
        seat = self.seats[i]
        phase = self._phase
        if phase == _DRAW:
            mx = self.game.streets[self.street].draw or 0
            return LegalActions(seat, frozenset((K.DRAW, K.STAND_PAT)), max_discards=mx)
        if phase == _RIT:
            return LegalActions(seat, frozenset((K.RUN_TWICE, K.RUN_ONCE)))
        if phase == _SPLIT:  # an all-in player asked during a split vote
            return LegalActions(seat, frozenset((K.AGREE_SPLIT, K.DECLINE_SPLIT)))
        stack, bet, cur = self.stacks[i], self.bets[i], self.cur_bet
        if self._bring_in_pos == i and not self._round_actions:
            b = min(self.stakes.bring_in, stack)
            kinds = {K.BRING_IN}
            lo = hi = 0
            allowed: tuple[int, ...] = ()
            if stack > b:
                lo, hi, allowed = self._aggressive_bounds(i, completing=True)
                if hi:
                    kinds.add(K.COMPLETE)
            return LegalActions(seat, frozenset(kinds), bring_in=b, min_to=lo, max_to=hi, allowed_to=allowed)
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
        if stack > call and (level < 0 or cur - level >= self._reopen) and \
                self._others_can_act(i):
            completed = self._completed
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
        return LegalActions(seat, _kinds(mask), call, lo, hi, 0, 0, allowed)

    def _others_can_act(self, i: int) -> bool:
        """Some other player could still call a raise (a raise nobody can call is not offered)."""
        folded, allin, stacks, bets, cur = self.folded, self.allin, self.stacks, self.bets, self.cur_bet
        for j in range(self.n):
            if j != i and not folded[j] and not allin[j] and stacks[j] + bets[j] > cur:
                return True
        return False

    def _aggressive_bounds(self, i: int, completing: bool) -> tuple[int, int, tuple[int, ...]]:
        """(min_to, max_to, allowed_to) for a bet/raise/complete by position i; (0, 0, ()) if none."""
        stack, bet, cur = self.stacks[i], self.bets[i], self.cur_bet
        all_in_to = stack + bet
        if all_in_to <= cur:
            return 0, 0, ()
        structure = self.structure
        stud = self.game.kind is Kind.STUD
        allowed: tuple[int, ...] = ()
        if structure is Structure.FIXED_LIMIT:
            cap = 4
            if self._raises >= cap:
                return 0, 0, ()
            size = self._street_bet()
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
            opening = self.stakes.opening_min(stud)
            if completing and cur == 0:
                lo = max(opening, 2 * self.stakes.bring_in)  # open for more than the bring-in
            elif completing or cur == 0:
                lo = opening
            else:
                lo = cur + self._min_raise
            if structure is Structure.NO_LIMIT:
                hi = all_in_to
            elif structure is Structure.POT_LIMIT:
                hi = 2 * cur - bet + self.pot
            elif structure is Structure.HALF_POT_LIMIT:
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
            if kind is K.RUN_TWICE or kind is K.RUN_ONCE:
                self._emit("acted", seat, action=kind.value)
                if kind is K.RUN_ONCE:
                    self._rit_votes = -1
                    self._qi = len(self._queue)
                else:
                    self._rit_votes += 1
                    self._qi += 1
                return
            if kind is K.AGREE_SPLIT or kind is K.DECLINE_SPLIT:
                self._emit("acted", seat, action=kind.value)
                if kind is K.DECLINE_SPLIT:
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
        if kind is K.FOLD:
            self.folded[i] = True
            self._pending[i] = False
            self.events.append(Event("acted", seat, {"action": "fold"}, None))
            self._muck.extend([(i, c) for c in self.cards[i]])
            return
        if kind is K.CHECK:
            self._pending[i] = False
            self._acted_level[i] = self.cur_bet
            self.events.append(Event("acted", seat, {"action": "check"}, None))
            return
        if kind is K.CALL:
            cur = self.cur_bet
            paid = self._put(i, cur - self.bets[i], live=True)
            self._pending[i] = False
            self._acted_level[i] = cur
            self.events.append(Event("acted", seat, {"action": "call", "amount": paid, "to": self.bets[i],
                                                     "all_in": self.allin[i]}, None))
            return
        if kind is K.BRING_IN:
            paid = self._put(i, self.stakes.bring_in, live=True)
            if self.bets[i] - self.cur_bet > self._reopen:
                self._reopen = self.bets[i] - self.cur_bet
            self.cur_bet = max(self.cur_bet, self.bets[i])
            self._pending[i] = False
            self._acted_level[i] = self.cur_bet
            self._emit("acted", seat, action="bring_in", amount=paid, to=self.bets[i], all_in=self.allin[i])
            return
        # aggressive: BET / RAISE / COMPLETE / STRADDLE, amount is the new total bet this round
        if kind is K.STRADDLE:
            amount = 2 * self.stakes.big_blind
        cur = self.cur_bet
        increment = amount - cur
        self._put(i, amount - self.bets[i], live=True)
        full = kind is K.COMPLETE or increment >= self._min_raise or (
            self.structure is Structure.SPREAD_LIMIT and increment > 0 and not self.allin[i])
        if self.structure is Structure.FIXED_LIMIT:
            self._raises += 1
            if amount - cur > self._street_bet():
                self._big_used = True
            if kind is K.COMPLETE:
                self._min_raise = self._street_bet()
            full = full or increment >= self._street_bet()
        elif full and kind is not K.COMPLETE:
            self._min_raise = max(self._min_raise, increment)
        if kind is K.COMPLETE:
            self._completed = True
        if increment > self._reopen:
            self._reopen = increment
        self.cur_bet = amount
        self._last_aggr = i
        folded, allin, pending, acted_level = self.folded, self.allin, self._pending, self._acted_level
        for j in range(self.n):
            if j != i and not folded[j] and not allin[j]:
                pending[j] = True
                if full:
                    acted_level[j] = -1  # a full bet or raise reopens the betting for everyone
        pending[i] = False
        acted_level[i] = amount
        self.events.append(Event("acted", seat, {"action": _VALUE[kind], "to": amount, "all_in": allin[i],
                                                 "full": full}, None))

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

    def _apply_draw(self, i: int, discard: list[Card]) -> None:
        seat = self.seats[i]
        self.events.append(Event("drew", seat, {"count": len(discard)}, None))
        if discard:
            hand = self.cards[i]
            gone = set(discard)
            self.up[i] = [u for c, u in zip(hand, self.up[i], strict=True) if c not in gone]
            self.cards[i] = [c for c in hand if c not in gone]
            self._discards[i].extend(discard)
            self._round_discards.extend((i, c) for c in discard)
            if self.game.deal_after_discards:
                self._owed.append((i, discard))
            else:
                self._replace(i, discard)
        self._qi += 1

    def _replace(self, i: int, discard: list[Card]) -> None:
        k = len(discard)
        if len(self._deck) - self._dpos < k:
            self._ensure_cards(i, k)
        new = self._deck[self._dpos:self._dpos + k]
        self._dpos += k
        self.cards[i].extend(new)
        self.up[i].extend([False] * k)
        self.events.append(Event("drew_cards", self.seats[i], {"discarded": [_CS[c] for c in discard],
                                                               "cards": [_CS[c] for c in new]}, _only(self.seats[i])))

    def _ensure_cards(self, i: int, k: int) -> None:
        """R-INSUF-1/2: reshuffle earlier discards (never the drawer's own) when the stub is short."""
        left = len(self._deck) - self._dpos
        if left >= k:
            return
        current = {c for _, c in self._round_discards}
        # The PHH (PokerKit) reading: every card out of play at once, and the stub with them (a record does not
        # say which of its cards the dealer burnt)
        everything = self.game.reshuffle_all
        pool = [(o, c) for o, c in self._muck if o != i or everything] if self.game.reshuffle_folded else []
        earlier = [(o, c) for o, c in self._discards_history() if everything or (o != i and c not in current)]
        candidates: list[Card] = []
        seen: set[int] = set()
        if everything:
            candidates = self._deck[self._dpos:]
            seen = set(candidates)
            left = 0
        for _, c in earlier + pool:
            if c not in seen:
                seen.add(c)
                candidates.append(c)
        if left + len(candidates) < k:  # R-INSUF-1: other players' discards of this draw may be used too
            for o, c in self._round_discards:
                if o != i and c not in seen:
                    seen.add(c)
                    candidates.append(c)
        if left + len(candidates) < k:
            raise IllegalAction("not enough cards left to complete the draw")
        shuffle = self.config.shuffle
        stub = self._deck[self._dpos:]
        if everything:
            self._deck = self._deck[:self._dpos]  # the stub is among the candidates
        if shuffle is None:
            candidates = Deck("reshuffle", candidates).shuffled()
        else:
            shuffle(candidates)  # a replay's hook may also leave cards out (they stay out of play) or add some
            if left + len(candidates) < k:
                self._deck = self._deck[:self._dpos] + stub  # as it was
                raise IllegalAction("not enough cards left to complete the draw")
        used = set(candidates)
        self._deck = self._deck + candidates
        for lst in self._discards:
            lst[:] = [c for c in lst if c not in used]
        self._muck = [(o, c) for o, c in self._muck if c not in used]
        for j in range(self.n):  # folded cards that go back into play are no longer that player's
            if self.folded[j] and any(c in used for c in self.cards[j]):
                self.up[j] = [u for c, u in zip(self.cards[j], self.up[j], strict=True) if c not in used]
                self.cards[j] = [c for c in self.cards[j] if c not in used]
        self._round_discards = [(o, c) for o, c in self._round_discards if c not in used]
        self._emit("reshuffled", None, count=len(candidates))

    def _discards_history(self) -> list[tuple[int, Card]]:
        out: list[tuple[int, Card]] = []
        for o, lst in enumerate(self._discards):
            for c in lst:
                out.append((o, c))
        return out

    # ------------------------------------------------------------------ flow
    def _run(self) -> None:
        """Advance automatically until a player must decide or the hand is over."""
        while True:
            phase = self._phase
            if phase == _DONE:
                self._actor = None
                return
            if phase == _DRAW:
                q = self._queue
                while self._qi < len(q) and self.folded[q[self._qi]]:
                    self._qi += 1
                if self._qi < len(q):
                    self._actor = q[self._qi]
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
            if phase == _SPLIT:
                return
            # betting
            if self.folded.count(False) == 1:
                self._finish()
                return
            actor = self._actor
            if actor is not None:
                if self._pending[actor]:
                    return
                nxt = self._next_pending_from(actor + 1)
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
            if self._betting_closed():
                # R-SHOW-4 reading: the hands of an all-in run-out are tabled before it, so all are shown down
                self._allin_runout = True
            if not self._rit_checked and self._betting_closed():
                self._rit_checked = True
                if self._rit_eligible():
                    self._phase = _RIT
                    self._queue = [j for j in range(self.n) if not self.folded[j]]
                    self._qi = 0
                    self._rit_votes = 0
                    continue
            self._start_street(self.street + 1)

    def _betting_closed(self) -> bool:
        return sum(1 for j in range(self.n) if not self.folded[j] and not self.allin[j]) <= 1

    def _rit_eligible(self) -> bool:
        if not (self.game.run_it_twice and self.settings.run_it_twice and self.game.kind is Kind.FLOP):
            return False
        if len(self.board) not in (3, 4):
            return False
        alive = [j for j in range(self.n) if not self.folded[j]]
        return len(alive) >= 2 and sum(1 for j in alive if not self.allin[j]) <= 1 and any(
            self.allin[j] for j in alive)

    def _finish_board_and_showdown(self) -> None:
        """R-RIT-2: deal the remaining community cards twice from the same deck, then show down."""
        base = list(self.board)
        remaining = sum(st.board for st in self.game.streets) - len(base)
        run1 = [self._next_card() for _ in range(remaining)]
        run2 = [self._next_card() for _ in range(remaining)]
        self.boards = [base + run1, base + run2]
        self._emit("board", None, cards=[_CS[c] for c in run1], run=0)
        self._emit("board", None, cards=[_CS[c] for c in run2], run=1)
        self.street = len(self.game.streets) - 1
        self._finish()

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

    # ------------------------------------------------------------------ showdown and award
    def _finish(self, split_all: bool = False) -> None:
        if self._phase == _DONE:
            return
        self._close_round()
        n = self.n
        alive = [j for j in range(n) if not self.folded[j]]
        if self.settings.antes_dead_main_pot:
            live = [self.total[j] - self.dead[j] for j in range(n)]
            pots = build_pots(live, self.folded, dead=sum(self.dead))
        elif self._dead_money:
            posted = [0] * n
            for s, a in self.config.dead_posts.items():
                if s in self._pos:
                    posted[self._pos[s]] = min(a, self.total[self._pos[s]])
            live = [self.total[j] - posted[j] for j in range(n)]
            pots = build_pots(live, self.folded, dead=sum(posted))
        else:
            pots = build_pots(self.total, self.folded)
        total = sum(p.amount for p in pots)
        rake = 0
        if self.config.rake is not None and total:
            ctx = RakeContext(self.game, self.structure, self.stakes, n, self._rake_trigger())
            rake = max(0, min(total, int(self.config.rake(total, ctx))))
            left = rake
            for p in pots:
                take = min(left, p.amount)
                p.amount -= take
                left -= take
            if rake:
                self._emit("rake", None, amount=rake)
        awards: list[PotAward] = []
        shown: dict[int, list[str]] = {}
        labels: dict[int, str] = {}
        showdown = len(alive) > 1 and not split_all
        if len(alive) == 1:
            w = alive[0]
            for p in pots:
                if p.amount:
                    awards.append(PotAward(p.amount, [self.seats[j] for j in p.eligible],
                                           {self.seats[w]: p.amount}))
        elif split_all or self._split_agreed:
            rest = []
            for p in pots:
                if all(j in self._split_agreed for j in p.eligible) and len(p.eligible) > 1:
                    awards.append(PotAward(p.amount, [self.seats[j] for j in p.eligible],
                                           self._divide(p.amount, list(p.eligible), []), share="split"))
                else:
                    rest.append(p)
            if rest:
                showdown = True
                awards += self._showdown(rest, shown, labels)
        else:
            awards += self._showdown(pots, shown, labels)
        won = [0] * n
        for award in awards:
            for s, amt in award.winners.items():
                won[self._pos[s]] += amt
        for j in range(n):
            self.stacks[j] += won[j]
        for award in awards:
            if award.hands:
                self._emit("pot_awarded", None, amount=award.amount, winners=award.winners, share=award.share,
                           run=award.run, hands=award.hands)
            else:
                self._emit("pot_awarded", None, amount=award.amount, winners=award.winners, share=award.share,
                           run=award.run)
        self.result = HandResult(
            stacks={self.seats[j]: self.stacks[j] for j in range(n)},
            net={self.seats[j]: self.stacks[j] - self.start_stacks[j] for j in range(n)},
            pots=awards, rake=rake, shown=shown, labels=labels, showdown=showdown,
        )
        self._phase = _DONE
        self._actor = None
        self._legal = None
        self._emit("hand_over", None, stacks=self.result.stacks)

    def _rake_trigger(self) -> bool:
        kind = self.game.kind
        if kind is Kind.FLOP:
            return len(self.board) >= 3
        if kind is Kind.DRAW:
            return self.street >= 1
        cards = max(len(c) for c in self.cards)
        return cards >= (4 if len(self.game.streets) == 5 else 3)

    def _divide(self, amount: int, winners: list[int], show_order: list[int]) -> dict[int, int]:
        if len(winners) == 1:  # every odd-chip rule gives a lone winner the whole amount
            return {self.seats[winners[0]]: amount}
        rule = self._odd_chip
        if rule is OddChip.SHOWN_FIRST and show_order:
            ordered = sorted(winners, key=lambda j: show_order.index(j) if j in show_order else self.n + j)
            return {self.seats[j]: v for j, v in divide_all_to_first(amount, ordered).items()}
        ordered = sorted(winners)
        if rule is OddChip.LEFT_OF_BUTTON_ALL:
            return {self.seats[j]: v for j, v in divide_all_to_first(amount, ordered).items()}
        return {self.seats[j]: v for j, v in divide(amount, ordered).items()}

    def _show_order(self, alive: list[int]) -> list[int]:
        """R-SHOW: last aggressor of the final round first, else by game; then clockwise."""
        n = self.n
        if self._last_aggr is not None and not self.folded[self._last_aggr]:
            first = self._last_aggr
        elif self.game.kind is Kind.STUD:
            first = self._best_visible()
        elif self.game.post_draw_first is PostDrawFirst.LEFT_OF_BIG_BLIND and self._bb_pos is not None:
            first = (self._bb_pos + 1) % n
        else:
            first = 0
        return [j for j in self._clockwise(first) if not self.folded[j]]

    def _showdown(self, pots: list[Pot], shown: dict[int, list[str]], labels: dict[int, str]) -> list[PotAward]:
        game = self.game
        alive = [j for j in range(self.n) if not self.folded[j]]
        boards = self.boards if self._runs == 2 else [self.board]
        # values[run][ranking_index][position] -> strength or None
        values = [evaluate_hands(game, self.cards, board, alive) for board in boards]
        order = self._show_order(alive)
        showing: list[int] = []
        nr = len(game.rankings)
        rng = range(nr)
        best_in_pot: list[list[int]] = [[-1] * nr for _ in pots]
        pots_of = {j: [best_in_pot[k] for k, p in enumerate(pots) if j in p.eligible] for j in alive}
        vals0 = values[0]
        allin, seats, cards, events = self.allin, self.seats, self.cards, self.events
        always = not self.settings.muck_losers or self._runs == 2 or self._allin_runout
        for j in order:
            mine = [vals0[r][j] for r in rng]
            bests = pots_of[j]
            if not (always or allin[j] or not showing):
                competitive = False
                for best in bests:
                    for r in rng:
                        v = mine[r]
                        if v is not None and v >= best[r]:
                            competitive = True
                            break
                    if competitive:
                        break
                if not competitive:
                    events.append(Event("mucked", seats[j], {}, None))
                    continue
            showing.append(j)
            for best in bests:
                for r in rng:
                    v = mine[r]
                    if v is not None and v > best[r]:
                        best[r] = v
            s = seats[j]
            sh = shown[s] = [_CS[c] for c in cards[j]]
            label = labels[s] = label_of(game, mine)
            events.append(Event("showed", s, {"cards": sh, "label": label}, None))
        self._showed_first = showing
        awards = self._award_pots(pots, values, showing)
        if self.settings.merge_equal_pots and len(pots) > 1:  # the PHH reading; RULES.md: each pot on its own
            merged = merge_equal_pots(pots, {self._pos[s] for a in awards for s in a.winners})
            if len(merged) < len(pots):
                awards = self._award_pots(merged, values, showing)
        return awards

    def _award_pots(self, pots: list[Pot], values: list[list[list[int | None]]], showing: list[int]
                    ) -> list[PotAward]:
        game = self.game
        awards: list[PotAward] = []
        runs = len(values)
        boards = self.boards if self._runs == 2 else [self.board]
        memo: dict[tuple[int, int, int], WinningHand | None] = {}
        for p in pots:
            contenders = [j for j in p.eligible if j in showing]
            if not contenders:
                contenders = list(p.eligible)
            amounts = [p.amount - p.amount // 2, p.amount // 2] if runs == 2 else [p.amount]
            for run, amount in enumerate(amounts):
                vals = values[run]
                if len(game.rankings) == 2:
                    lows = [j for j in contenders if vals[1][j] is not None]
                    if lows:
                        high_amt = amount - amount // 2
                        awards.append(self._award(high_amt, p, contenders, vals, 0, "high", run, showing,
                                                  boards[run], memo))
                        awards.append(self._award(amount // 2, p, lows, vals, 1, "low", run, showing,
                                                  boards[run], memo))
                        continue
                awards.append(self._award(amount, p, contenders, vals, 0, "all", run, showing, boards[run], memo))
        return awards

    def _award(self, amount: int, pot: Pot, contenders: list[int], values: list[list[int | None]], rank_ix: int,
               share: Share, run: int, showing: list[int], board: Sequence[int],
               memo: dict[tuple[int, int, int], WinningHand | None]) -> PotAward:
        vals = values[rank_ix]
        best = max(v for j in contenders if (v := vals[j]) is not None)
        winners = [j for j in contenders if vals[j] == best]
        # the cards that make each winning hand, for a winner whose cards were shown only (R-GEN-5, R-SHOW-4)
        hands: dict[int, WinningHand] = {}
        for j in winners:
            if j not in showing:
                continue
            key = (run, rank_ix, j)
            if key not in memo:
                memo[key] = winning_hand(self.game, rank_ix, self.cards[j], board, best)
            got = memo[key]
            if got is not None:
                hands[self.seats[j]] = got
        return PotAward(amount, [self.seats[j] for j in pot.eligible], self._divide(amount, winners, showing),
                        share=share, run=run, hands=hands)


#: the slots an action may change (the configuration and the seating never change during a hand)
_STATE_SLOTS: tuple[str, ...] = tuple(
    name for name in Hand.__slots__ if name not in ("config", "game", "structure", "stakes", "settings", "seats", "n",
                                                     "_pos", "start_stacks", "events", "_future"))
#: the lists of lists among them
_NESTED = frozenset(("cards", "up", "_discards"))
