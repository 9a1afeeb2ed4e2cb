"""Dealing: the streets' cards, the draws and their replacements, the reshuffle when the stub runs short (R-INSUF),
and the second board of a run it twice (R-RIT-2)."""

from __future__ import annotations

from riverboat.cards import Card, Deck
from riverboat.engine.actions import IllegalAction
from riverboat.engine.events import Event
from riverboat.engine.state import _CS, _DRAW, _NEW, _ONLY, FLOP, STUD, HandState, _only
from riverboat.games.catalog import Street

_CS_OF = _CS.__getitem__  # card code -> "Ah", through map (no comprehension frame, issue #33)
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


class Dealing(HandState):
    """The cards of a hand (a part of :class:`~riverboat.engine.hand.Hand`)."""

    __slots__ = ()

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
            self._queue = self._alive_from(first)
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
        if need and need > left and self.game.kind is STUD and st.down + st.up == 1:
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
            seats, events, cs_of = self.seats, self.events, _CS_OF
            for m, i in enumerate(alive):
                got = deck[pos + m:end:k]  # one card at a time round the table: every k-th card
                cards[i].extend(got)
                ups[i].extend(flags)
                s_ = seats[i]
                if down:
                    e = _NEW(Event)  # Event(...) without its __init__ frame (issue #33, fifth pass)
                    e.kind, e.seat, e.data, e.visible_to = "dealt", s_, {"cards": list(map(cs_of, got[:down])),
                                                                           "up": False}, _ONLY.get(s_) or _only(s_)
                    events.append(e)
                if st.up:
                    events.append(Event("dealt", s_, {"cards": list(map(cs_of, got[down:])), "up": True}, None))
            self._dpos = end
        if st.board:
            pos, k = self._dpos, st.board
            if pos + k > len(self._deck):
                self._dpos = len(self._deck)  # as dealing card by card would leave it
                raise IllegalAction("the deck ran out of cards")
            new = self._deck[pos:pos + k]
            self._dpos = pos + k
            self.board.extend(new)
            self.events.append(Event("board", None, {"cards": list(map(_CS_OF, new))}, None))

    def _apply_draw(self, i: int, discard: list[Card]) -> None:
        seat = self.seats[i]
        e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
        e.kind, e.seat, e.data, e.visible_to = "drew", seat, {"count": len(discard)}, None
        self.events.append(e)
        if discard:
            hand = self.cards[i]
            up = self.up[i]
            if True in up:
                self.up[i] = [u for c, u in zip(hand, up, strict=True) if c not in discard]
            else:  # all down (every draw game): only the length changes
                del up[len(up) - len(discard):]
            self.cards[i] = [c for c in hand if c not in discard]
            self._discards[i].extend(discard)
            self._round_discards.extend([(i, c) for c in discard])
            if self.game.deal_after_discards:
                self._owed.append((i, discard))
            else:
                self._replace(i, discard)
        self._qi += 1

    def _replace(self, i: int, discard: list[Card]) -> None:
        k = len(discard)
        if len(self._deck) - self._dpos < k:
            self._ensure_cards(i, k)
        pos = self._dpos
        new = self._deck[pos:pos + k]
        self._dpos = pos + k
        self.cards[i] += new
        self.up[i] += [False] * k
        seat = self.seats[i]
        e = _NEW(Event)  # Event(...) without its __init__ frame: half the instructions (issue #33)
        e.kind, e.seat, e.data, e.visible_to = "drew_cards", seat, {"discarded": list(map(_CS_OF, discard)),
                                                              "cards": list(map(_CS_OF, new))}, _ONLY.get(seat) or _only(seat)
        self.events.append(e)

    def _ensure_cards(self, i: int, k: int) -> None:
        """R-INSUF-1/2: reshuffle earlier discards (never the drawer's own) when the stub is short."""
        left = len(self._deck) - self._dpos
        if left >= k:
            return
        # The PHH (PokerKit) reading: every card out of play at once, and the stub with them (a record does not
        # say which of its cards the dealer burnt)
        everything = self.game.reshuffle_all
        candidates, seen = self._reshuffle_candidates(i, everything)
        if everything:
            left = 0
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
        self._deck += candidates
        for lst in self._discards:
            if lst:
                lst[:] = [c for c in lst if c not in used]
        self._muck = [(o, c) for o, c in self._muck if c not in used]
        folded, cards = self.folded, self.cards
        for j in range(self.n):  # folded cards that go back into play are no longer that player's
            if folded[j] and not used.isdisjoint(cards[j]):
                self.up[j] = [u for c, u in zip(cards[j], self.up[j], strict=True) if c not in used]
                cards[j] = [c for c in cards[j] if c not in used]
        self._round_discards = [(o, c) for o, c in self._round_discards if c not in used]
        self.events.append(Event("reshuffled", None, {"count": len(candidates)}, None))

    def _reshuffle_candidates(self, i: int, everything: bool) -> tuple[list[Card], set[int]]:
        """The cards a reshuffle for position ``i`` takes, in order, before this draw's discards of the others
        (R-INSUF-1): the stub when ``everything``, the earlier discards (everything: all of them, this draw's and
        the drawer's too), then the folded cards (``Game.reshuffle_folded``); each once."""
        candidates: list[Card] = self._deck[self._dpos:] if everything else []
        seen: set[int] = set(candidates)
        if everything:
            for lst in self._discards:
                for c in lst:
                    if c not in seen:
                        seen.add(c)
                        candidates.append(c)
        else:
            current = {c for _, c in self._round_discards}
            for o, lst in enumerate(self._discards):
                if o != i:
                    for c in lst:
                        if c not in current and c not in seen:
                            seen.add(c)
                            candidates.append(c)
        if self.game.reshuffle_folded:
            for o, c in self._muck:
                if (o != i or everything) and c not in seen:
                    seen.add(c)
                    candidates.append(c)
        return candidates, seen

    def _rit_eligible(self) -> bool:
        if not (self.game.run_it_twice and self.settings.run_it_twice and self.game.kind is FLOP):
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
