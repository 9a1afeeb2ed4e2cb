"""The pure hand state machine: one hand of any game in :mod:`riverboat.games`, any betting structure.

Pure: no I/O, no clock, no randomness inside. The deck order comes in with the config; the only randomness is the
R-INSUF reshuffle of discards, which calls ``config.shuffle`` (tests inject a seeded one; by default the CSPRNG
of :mod:`riverboat.cards`).

API (stable)::

    from riverboat.engine import Hand, HandConfig, Settings, Action, ActionKind, LegalActions, IllegalAction
    hand = Hand(HandConfig(game=get_game("holdem"), structure=Structure.NO_LIMIT,
                           stakes=Stakes(small_blind=1, big_blind=2), seats=[1, 3, 4], stacks=[200, 200, 200],
                           button=4, deck=DECK_52.shuffled()))
    hand.to_act                  # seat number, or None when the hand is over
    la = hand.legal_actions()    # LegalActions: seat, kinds, call, min_to, max_to, bring_in, max_discards
    hand.act(Action(seat, ActionKind.RAISE, amount=6))   # amounts are "to" totals for this betting round
    hand.act(Action(seat, ActionKind.DRAW, cards=(c1, c2)))   # draw games; STAND_PAT = discard nothing
    hand.events                  # list[Event]: .kind, .seat, .data, .visible_to (None = everyone)
    hand.events_for(seat)        # the events that seat may see; hand.view(seat) -> JSON-able dict
    hand.is_over; hand.result    # HandResult: stacks, net, pots (PotAward: amount, winners, share, run), rake,
                                 # shown cards and labels
    hand.artificial_allin(seat)  # R-AAI-1 (FL/SL only): the player to act is all-in for what is in the pot
    # read-only state: hand.seats (seat order, left of the button first), hand.stacks, hand.bets, hand.total,
    # hand.folded, hand.allin, hand.cards, hand.up, hand.board, hand.street, hand.cur_bet, hand.pot

Kinds offered by ``legal_actions()``: FOLD (always, R-ACT-2), CHECK or CALL, one of BET / RAISE / COMPLETE with
``min_to..max_to`` (``allowed_to`` lists the only two amounts on a stud open-pair street), STRADDLE (2 x BB,
R-STRADDLE), BRING_IN, DRAW / STAND_PAT (``max_discards``), AGREE_SPLIT / DECLINE_SPLIT (R-SPLIT votes),
RUN_TWICE / RUN_ONCE (R-RIT votes). A player with no real choice is not asked.

An illegal action raises :class:`IllegalAction` with a clear message and changes nothing.

Seat order and dealing order (documented contract): players are ordered clockwise starting with the first seat
after ``button`` (the button in flop/draw games, the fixed dealer box in stud games; it need not be dealt in).
On each street every player still in the hand receives the street's face-down cards, then its face-up cards,
one card at a time in that order (all first cards, then all second cards, ...). Community cards follow the
players' cards of the same street. Draw replacements are dealt from the top of the stub to each drawer right
after their discard, in drawing order. Run it twice deals the first run's remaining board, then the second's.

Forced bets: antes and dead posts are dead money; blinds and live posts are live bets. Default blinds: small
blind left of the button, big blind next; heads-up the button posts the small blind and acts first pre-flop
(R-BLIND-3). Pass ``blinds={seat: amount}`` for anything else the table decides (dead button, PHH straddles).

Settings for CONFLICT/UNCLEAR readings live in :class:`Settings` (table) and the :class:`~riverboat.games.Game`
fields (game). The rake is ``config.rake(pot_total, RakeContext) -> int`` (default no rake).
"""

from riverboat.engine.actions import AGGRESSIVE, Action, ActionKind, IllegalAction, LegalActions
from riverboat.engine.config import HandConfig, RakeContext, RakeRule, Settings, Shuffler
from riverboat.engine.events import Event
from riverboat.engine.hand import Hand, HandResult, PotAward
from riverboat.engine.pots import Pot, build_pots, divide

__all__ = [
    "AGGRESSIVE",
    "Action",
    "ActionKind",
    "Event",
    "Hand",
    "HandConfig",
    "HandResult",
    "IllegalAction",
    "LegalActions",
    "Pot",
    "PotAward",
    "RakeContext",
    "RakeRule",
    "Settings",
    "Shuffler",
    "build_pots",
    "divide",
]
