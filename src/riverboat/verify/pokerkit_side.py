"""The PokerKit side of the differential harness (PokerKit is a test-only dependency; import this lazily).

:func:`create_pokerkit_state` builds a PokerKit ``State`` for one of the ten PHH variant codes both projects play
(NT, FT, PO, FO/8, NS, F7S, F7S/8, FR, F2L3D, N2L1D, FB). PokerKit's own dealing is never used: :class:`PokerKitHand`
deals exactly the cards Riverboat dealt, taken from a :class:`CardFeed` (per-player hole cards in deal order, draw
replacements included, and the board), so both engines play the same deck order. Burns are given as the unknown card
``??`` because no burn card is ever seen by anyone.

Player order is PokerKit's: index 0 is the first seat clockwise from the button (small blind; big blind when heads
up), the last index is the button. In stud games index 0 is the first seat after the dealer box.

Known PokerKit readings that differ from RULES.md (see ``docs/findings/engine-verification.md``):
fixed-limit cap of four bets *not* counting the big blind / bring-in; in tournament mode a player may not fold when
they could check; an odd-chip remainder of a tied pot goes entirely to the first tied player in PokerKit order; and a
hi/lo side pot is halved whenever *any* live player holds a qualifying low, even if no player eligible for that side
pot does.
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from riverboat.verify.decisions import BRING_IN, CALL, CHECK, DRAW, FOLD, RAISE, Action, Decision

VARIANT_CODES: tuple[str, ...] = ("NT", "FT", "PO", "FO/8", "NS", "F7S", "F7S/8", "FR", "F2L3D", "N2L1D", "FB")

STUD_CODES = frozenset({"F7S", "F7S/8", "FR"})
DRAW_CODES = frozenset({"F2L3D", "N2L1D", "FB"})
FIXED_LIMIT_CODES = frozenset({"FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"})


@dataclass(frozen=True, slots=True)
class Stakes:
    """Forced bets and limits in chips. Blind games use the blinds; stud games use ante and bring-in.

    ``small_bet``/``big_bet`` are the fixed-limit bet sizes (the no/pot-limit minimum bet is ``big_blind``, or
    ``small_bet`` in stud).
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0


class CardFeed(Protocol):
    """Where the PokerKit side takes its cards from: what Riverboat dealt, in Riverboat's deal order."""

    def hole_cards(self, player: int) -> Sequence[str]:
        """Every card dealt to ``player`` so far (PokerKit order), replacements after a draw included."""
        ...

    def board_cards(self) -> Sequence[str]:
        """The community cards dealt so far."""
        ...


def _automations() -> tuple[Any, ...]:
    import pokerkit as pk

    a = pk.Automation
    return (
        a.ANTE_POSTING,
        a.BET_COLLECTION,
        a.BLIND_OR_STRADDLE_POSTING,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.CHIPS_PUSHING,
        a.CHIPS_PULLING,
    )


def create_pokerkit_game(code: str, stakes: Stakes, ante_trimming: bool = True) -> Any:
    """The PokerKit game (a ``Poker`` object: call it with stacks and a player count for a ``State``) of variant
    ``code`` with the given stakes. ``ante_trimming``: PokerKit's ``ante_trimming_status`` (True: antes are layered
    into the pots like bets, R-ALLIN-5; False, the PHH default: antes are dead money in the main pot)."""
    import pokerkit as pk

    autos = _automations()
    trim = ante_trimming
    blinds = (stakes.small_blind, stakes.big_blind)
    fixed = (stakes.small_bet, stakes.big_bet)
    stud = (stakes.bring_in, stakes.small_bet, stakes.big_bet)
    factories: dict[str, Callable[[], Any]] = {
        "NT": lambda: pk.NoLimitTexasHoldem(autos, trim, stakes.ante, blinds, stakes.big_blind),
        "NS": lambda: pk.NoLimitShortDeckHoldem(autos, trim, stakes.ante, blinds, stakes.big_blind),
        "PO": lambda: pk.PotLimitOmahaHoldem(autos, trim, stakes.ante, blinds, stakes.big_blind),
        "N2L1D": lambda: pk.NoLimitDeuceToSevenLowballSingleDraw(autos, trim, stakes.ante, blinds,
                                                                 stakes.big_blind),
        "FT": lambda: pk.FixedLimitTexasHoldem(autos, trim, stakes.ante, blinds, *fixed),
        "FO/8": lambda: _fixed_limit_omaha_hi_lo()(autos, trim, stakes.ante, blinds, *fixed),
        "F2L3D": lambda: pk.FixedLimitDeuceToSevenLowballTripleDraw(autos, trim, stakes.ante, blinds, *fixed),
        "FB": lambda: pk.FixedLimitBadugi(autos, trim, stakes.ante, blinds, *fixed),
        "F7S": lambda: pk.FixedLimitSevenCardStud(autos, trim, stakes.ante, *stud),
        "F7S/8": lambda: pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter(autos, trim, stakes.ante, *stud),
        "FR": lambda: pk.FixedLimitRazz(autos, trim, stakes.ante, *stud),
    }
    if code not in factories:
        raise ValueError(f"unknown variant code {code!r}; expected one of {', '.join(VARIANT_CODES)}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return factories[code]()


def create_pokerkit_state(code: str, stakes: Stakes, stacks: Sequence[int]) -> Any:
    """A fresh PokerKit ``State`` for variant ``code`` with the given stakes and starting stacks."""
    game = create_pokerkit_game(code, stakes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return game(tuple(stacks), len(stacks))


_FO8_CLASS: Any = None


def _fixed_limit_omaha_hi_lo() -> Any:
    """PokerKit 0.7.7's ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` inherits ``PotLimitPokerMixin`` (it plays
    pot limit, uncapped); this is the same game with the fixed-limit mixin, as PHH ``FO/8`` means."""
    global _FO8_CLASS
    if _FO8_CLASS is None:
        import pokerkit as pk

        class FixedLimitOmahaHiLo(pk.FixedLimitPokerMixin, pk.OmahaHoldemMixin, pk.Holdem):
            hand_types = (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand)

        _FO8_CLASS = FixedLimitOmahaHiLo
    return _FO8_CLASS


def _single_pot_shortcut(state: Any) -> Callable[[int], bool]:
    real = state.can_win_now

    def can_win_now(player_index: int) -> bool:
        pots = iter(state.pots)
        if next(pots, None) is None or next(pots, None) is None:
            return True
        return bool(real(player_index))

    return can_win_now


def card_text(card: Any) -> str:
    """``"Ah"`` for a PokerKit card."""
    return f"{card.rank.value}{card.suit.value}"


class PokerKitHand:
    """One PokerKit hand driven by Riverboat's cards and by :class:`Action` values."""

    def __init__(
        self, code: str, stakes: Stakes, stacks: Sequence[int], feed: CardFeed | None, *,
        fast_showdown: bool = True, deck: Sequence[str] | None = None, ante_trimming: bool = True,
    ) -> None:
        """``feed=None``: PokerKit deals from its own deck (``deck``, top card first, if given), burns included."""
        self.code = code
        self.feed = feed
        self.game = create_pokerkit_game(code, stakes, ante_trimming)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.state = self.game(tuple(stacks), len(stacks))
        if deck is not None:
            import pokerkit as pk

            self.state.deck_cards = deque(pk.Card.parse("".join(deck)))
        self.applied: list[Action] = []  # the actions played, in order (a replayable script)
        self.reshuffled = False
        self._taken = 0  # cards PokerKit dealt or burnt from its own deck
        self._deck_size = len(self.state.deck_cards)
        self.player_count = len(stacks)
        self._hole_cursor = [0] * self.player_count
        self._board_cursor = 0
        if fast_showdown:
            # With a single pot, show every live hand and kill none before the chips are pushed: PokerKit would
            # otherwise evaluate every hand again to decide who "can win now" (most of its run time), which cannot
            # change who wins one pot. With side pots PokerKit decides as shipped: it kills the hands that win
            # nothing and merges the pots whose remaining players are then the same, which moves odd chips and
            # hi/lo halves; the engine side plays that PHH reading (``Settings.merge_equal_pots``; R-ALLIN-5
            # divides each pot on its own). ``fast_showdown=False`` keeps PokerKit exactly as shipped (benchmarks).
            self.state.can_win_now = _single_pot_shortcut(self.state)

    # -- dealing -----------------------------------------------------------------------------------------------
    def deal_pending(self) -> None:
        """Burn and deal (from the feed) until a player decision is pending or the hand is over.

        Raises ``LookupError`` when PokerKit wants a card Riverboat has not dealt (a dealing difference).
        """
        s = self.state
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            while s.status:
                if self.feed is None and self._deal_own():
                    continue
                if s.can_burn_card("??"):
                    s.burn_card("??")
                    continue
                dealee = s.hole_dealee_index
                if dealee is not None and self.feed is not None:
                    cards = self.feed.hole_cards(dealee)
                    k = self._hole_cursor[dealee]
                    if k >= len(cards):
                        raise LookupError(
                            f"PokerKit deals a hole card to p{dealee} that Riverboat did not deal"
                        )
                    s.deal_hole(cards[k], dealee)
                    self._hole_cursor[dealee] = k + 1
                    continue
                count = s.board_dealing_count
                if count and self.feed is not None:
                    board = self.feed.board_cards()
                    k = self._board_cursor
                    if k + count > len(board):
                        raise LookupError(
                            f"PokerKit deals {count} board card(s) after {k}; Riverboat's board is {list(board)}"
                        )
                    s.deal_board("".join(board[k : k + count]))
                    self._board_cursor = k + count
                    continue
                break

    def _deal_own(self) -> bool:
        """One dealing step from PokerKit's own deck; False when no card is due. ``reshuffled`` tells whether
        PokerKit ever dealt cards out of play again (its stub ran out: more cards taken than the deck lost)."""
        s = self.state
        if s.can_burn_card():
            op = s.burn_card()
        elif s.hole_dealee_index is not None:
            op = s.deal_hole()
        elif s.board_dealing_count:
            op = s.deal_board()
        else:
            return False
        self._taken += len(getattr(op, "cards", ())) if hasattr(op, "cards") else 1
        if self._deck_size - len(s.deck_cards) < self._taken:
            self.reshuffled = True
        return True

    # -- decisions ---------------------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return not self.state.status

    @property
    def stacks(self) -> list[int]:
        return [int(x) for x in self.state.stacks]

    def decision(self) -> Decision | None:
        """The pending player decision, or ``None`` when the hand is over (call :meth:`deal_pending` first)."""
        s = self.state
        if not s.status:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawer = s.stand_patter_or_discarder_index
            if drawer is not None:
                hand = tuple(card_text(c) for c in s.hole_cards[drawer])
                return Decision(drawer, frozenset({DRAW}), hand=hand, max_discards=len(hand))
            actor = s.actor_index
            if actor is None:
                raise LookupError("PokerKit has neither a card to deal nor a player to act")
            kinds: set[str] = set()
            min_to = max_to = None
            if s.can_complete_bet_or_raise_to():
                kinds.add(RAISE)
                min_to = int(s.min_completion_betting_or_raising_to_amount)
                max_to = int(s.max_completion_betting_or_raising_to_amount)
            if s.can_post_bring_in():
                kinds.add(BRING_IN)
                bring_in = int(s.effective_bring_in_amount)
                if max_to is not None and max_to <= bring_in:
                    # PokerKit quirk: a "completion" to no more than the bring-in (the stack is that small)
                    kinds.discard(RAISE)
                    min_to = max_to = None
                return Decision(
                    actor,
                    frozenset(kinds),
                    min_to=min_to,
                    max_to=max_to,
                    bring_in_amount=bring_in,
                )
            call = int(s.checking_or_calling_amount or 0)
            kinds.add(CALL if call else CHECK)
            if call and s.can_fold():
                kinds.add(FOLD)
            return Decision(actor, frozenset(kinds), call_amount=call, min_to=min_to, max_to=max_to)

    def apply(self, action: Action) -> None:
        s = self.state
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if action.kind == FOLD:
                s.fold()
            elif action.kind in (CHECK, CALL):
                s.check_or_call()
            elif action.kind == RAISE:
                s.complete_bet_or_raise_to(action.amount)
            elif action.kind == BRING_IN:
                s.post_bring_in()
            elif action.kind == DRAW:
                s.stand_pat_or_discard("".join(action.cards))
            else:
                raise ValueError(f"unknown action kind {action.kind!r}")
        self.applied.append(action)


class RecordedFeed:
    """A :class:`CardFeed` replaying cards recorded from an earlier hand (benchmarks)."""

    def __init__(self, hole: Sequence[Sequence[str]], board: Sequence[str]) -> None:
        self.hole = [list(h) for h in hole]
        self.board = list(board)

    def hole_cards(self, player: int) -> Sequence[str]:
        return self.hole[player]

    def board_cards(self) -> Sequence[str]:
        return self.board
