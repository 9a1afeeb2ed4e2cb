"""Replay PHH hands through the engine and compare the finishing stacks (or winnings) with the record.

The deck is rebuilt from the record's dealing actions in the engine's documented dealing order; unknown cards
(``????``) are filled with cards the record does not mention. Player actions are applied one by one; an illegal
one is reported with its number and the engine's reason. ``sm`` (show/muck) actions are not needed: the engine
shows hands down itself.

Amounts are scaled to integers by the finest decimal unit used anywhere in the record (``2.50`` -> cents). In the
Pluribus records split pots that cannot divide evenly are written with half chips; in the record's own unit
(half chips) the engine's split is exact, so they compare equal.

``winnings`` (HandHQ records, after rake): the record's amounts are what each player collected after the room's
rake. They match when the same players collect and the total difference (the rake) is at most
``RAKE_TOLERANCE`` of the pot and never negative.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any

from riverboat.cards import Card, CardError, parse_card
from riverboat.engine import Action, ActionKind, Hand, HandConfig, IllegalAction, Settings
from riverboat.games.catalog import BringIn, Game, Kind, OddChip, PostDrawFirst, deck_capacity
from riverboat.games.structures import Stakes, Structure
from riverboat.history.phh import ARTIFICIAL_ALLIN_FIELD, READINGS_FIELD, PhhError, PhhHand, resolve_variant

RAKE_TOLERANCE = Decimal("0.10")
_AMOUNT_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
                  "starting_stacks", "finishing_stacks", "winnings", "_spread", "_live_posts", "_dead_posts")
_PLAYER = re.compile(r"^p(\d+)$")


@dataclass(slots=True)
class ReplayResult:
    file: str
    index: int
    variant: str
    match: bool
    finishing_stacks: list[Any] | None
    expected: list[Any] | None
    error: str | None = None
    unsupported: bool = False  # a valid record of a game Riverboat does not deal (e.g. FB, badugi)
    checked: bool = True  # False: the record has neither finishing_stacks nor winnings to compare with
    hand: Hand | None = None  # the replayed hand (not part of to_dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file, "index": self.index, "variant": self.variant, "match": self.match,
            "finishing_stacks": self.finishing_stacks, "expected": self.expected, "error": self.error,
        }


def _dec(x: Any) -> Decimal:
    try:
        return Decimal(str(x))
    except InvalidOperation:
        raise PhhError(f"not a number: {x!r}") from None


def _strip(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _scale_of(fields: dict[str, Any]) -> int:
    exp = 0
    values: list[Any] = []
    for key in _AMOUNT_FIELDS:
        v = fields.get(key)
        if isinstance(v, list):
            values.extend(v)
        elif v is not None:
            values.append(v)
    for a in fields.get("actions", []):
        t = _strip(a)
        if len(t) >= 3 and t[1] == "cbr":
            values.append(t[2])
    for v in values:
        e = _dec(v).as_tuple().exponent
        if isinstance(e, int) and e < exp:
            exp = e
    return int(10 ** (-exp))


def _scaled(x: Any, scale: int) -> int:
    v = _dec(x) * scale
    if v != v.to_integral_value():
        raise PhhError(f"amount {x!r} is finer than the record's unit")
    return int(v)


def _unscale(v: int, scale: int) -> int | float:
    if scale == 1:
        return v
    q = Decimal(v) / scale
    return int(q) if q == q.to_integral_value() else float(q)


def _cards(text: str) -> list[int | None]:
    """Cards of a dealing/discard token; ``??`` is an unknown card (None)."""
    out: list[int | None] = []
    if text in ("-", ""):
        return out
    if len(text) % 2:
        raise PhhError(f"bad cards {text!r}")
    for k in range(0, len(text), 2):
        tok = text[k:k + 2]
        if tok == "??":
            out.append(None)
        else:
            try:
                out.append(int(parse_card(tok)))
            except CardError as exc:
                raise PhhError(str(exc)) from None
    return out


def _player(token: str, n: int) -> int:
    m = _PLAYER.match(token)
    if not m or not 1 <= int(m.group(1)) <= n:
        raise PhhError(f"bad player {token!r}")
    return int(m.group(1)) - 1


def build_deck(game: Game, actions: list[str], n: int) -> tuple[list[int], set[int], list[int]]:
    """The deck in the engine's dealing order that reproduces the record's deals, the cards that stand in for
    unknown (``??``) ones, and the whole dealing sequence (with repeats when discards were reshuffled)."""
    order: list[int | None] = []
    owner: list[int] = []  # who each dealt card went to (-1: the board)
    group: dict[int, list[int | None]] = {}
    awaiting: set[int] = set()  # players who discarded and wait for replacements
    drew: set[int] = set()

    def flush() -> None:
        if not group:
            return
        width = max(len(v) for v in group.values())
        for r in range(width):
            for p in sorted(group):
                if r < len(group[p]):
                    order.append(group[p][r])
                    owner.append(p)
        group.clear()

    for a in actions:
        t = _strip(a)
        if not t:
            continue
        if t[0] == "d":
            if len(t) < 3:
                raise PhhError(f"bad dealing action {a!r}")
            if t[1] == "dh":
                if len(t) < 4:
                    raise PhhError(f"bad dealing action {a!r}")
                p = _player(t[2], n)
                cards = _cards(t[3])
                if p in awaiting:
                    flush()
                    awaiting.discard(p)
                    order.extend(cards)
                    owner.extend([p] * len(cards))
                else:
                    if p in group:
                        flush()
                    group[p] = cards
            elif t[1] == "db":
                flush()
                board = _cards(t[2])
                order.extend(board)
                owner.extend([-1] * len(board))
            else:
                raise PhhError(f"unknown dealing action {a!r}")
        else:
            flush()
            if len(t) >= 2 and t[1] == "sd":
                p = _player(t[0], n)
                drew.add(p)
                if len(t) >= 3 and _cards(t[2]):
                    awaiting.add(p)
            elif len(t) >= 3 and t[1] == "sm":  # shown cards reveal unknown hole cards
                p = _player(t[0], n)
                shown = _cards(t[2])
                mine = [k for k, o in enumerate(owner) if o == p]
                if p not in drew and len(shown) == len(mine):
                    for k, c in zip(mine, shown, strict=True):
                        if order[k] is None and c is not None:
                            order[k] = c
    flush()
    known = [c for c in order if c is not None]
    repeats = len(set(known)) != len(known)
    if repeats and game.kind is not Kind.DRAW:
        raise PhhError("a card is dealt twice")
    deck_cards = [int(c) for c in game.deck.cards]
    for c in known:
        if c not in deck_cards:
            raise PhhError(f"card {c} is not in the {game.deck.name} deck")
    known_set = set(known)
    spare_list = [c for c in deck_cards if c not in known_set]
    # Unknown cards get spare cards that cannot make their holder the bring-in (they are folded players'
    # cards in the records): high cards where the lowest card brings in, low cards otherwise.
    if game.bring_in is BringIn.LOWEST:
        spare_list.sort(reverse=True)
    elif game.bring_in is BringIn.HIGHEST_ACE_LOW:
        spare_list.sort(key=lambda c: (0 if c >> 2 == 12 else (c >> 2) + 1, c & 3))
    spare = iter(spare_list)
    full = [c if c is not None else next(spare) for c in order]
    fillers = {c for c, o in zip(full, order, strict=True) if o is None}
    if repeats:
        # R-INSUF reshuffles: the deck holds the cards dealt before the first card dealt again (the stub ran out
        # there); everything later comes from the reshuffles, which the replay orders as the record deals them
        # (see record_shuffle in config_from_phh). A card first seen after that point was burnt by the dealer
        # before the stub ran out (PokerKit burns, the engine does not) and comes back with the reshuffle.
        first: list[int] = []
        seen: set[int] = set()
        for c in full:
            if c in seen:
                break
            seen.add(c)
            first.append(c)
        return first, fillers, full
    used = set(full)
    full.extend(c for c in deck_cards if c not in used)
    return full, fillers, full


def _per_position(values: list[Any] | None, n: int, scale: int) -> list[int]:
    if not values:
        return [0] * n
    if len(values) != n:
        raise PhhError(f"expected {n} values, got {len(values)}")
    out = [abs(_scaled(v, scale)) for v in values]
    if n == 2:  # PHH/PokerKit heads-up: player 1 (big blind) posts the second entry
        out = [out[1], out[0]]
    return out


def config_from_phh(ph: PhhHand) -> tuple[HandConfig, int, set[int], list[Hand]]:
    """The engine config for a record, the amount scale, the stand-ins for unknown cards, and a list to put the
    hand in once built (the reshuffle hook reads its deck position)."""
    f = ph.fields
    game, structure = resolve_variant(ph.variant)
    scale = _scale_of(f)
    stacks = [_scaled(v, scale) for v in f["starting_stacks"]]
    n = len(stacks)
    if n < 2:
        raise PhhError("a hand needs at least two players")
    antes = _per_position(f.get("antes"), n, scale)
    blinds = _per_position(f.get("blinds_or_straddles"), n, scale) if game.kind is not Kind.STUD else [0] * n
    bring_in = _scaled(f.get("bring_in", 0), scale)
    small_bet = _scaled(f.get("small_bet", 0), scale)
    big_bet = _scaled(f.get("big_bet", 0), scale)
    min_bet = _scaled(f.get("min_bet", 0), scale)
    big_blind = max(blinds) if any(blinds) else 0
    small_blind = min((b for b in blinds if b), default=0)
    stakes = Stakes(small_blind=small_blind if small_blind < big_blind else 0, big_blind=big_blind,
                    bring_in=bring_in, small_bet=small_bet, big_bet=big_bet, min_bet=min_bet)
    if structure is Structure.FIXED_LIMIT and not (small_bet or big_blind or bring_in):
        raise PhhError("fixed-limit record without small_bet")
    rb = ph.variant.startswith("RB/") or f.get(READINGS_FIELD) == "riverboat"
    live = _per_position(f.get("_live_posts"), n, scale)
    dead = _per_position(f.get("_dead_posts"), n, scale)
    settings = Settings(
        antes_dead_main_pot=not rb,
        muck_losers=False, run_it_twice=rb, straddle=False, split_agreement=rb,
        odd_chip=None if rb else OddChip.LEFT_OF_BUTTON_ALL,  # PokerKit: whole remainder to the first winner
        merge_equal_pots=not rb,  # PokerKit: the pots left with the same players after the showdown are one pot
    )
    if rb:
        settings, game = _apply_setting_fields(f, settings, game)
    # A table's size (R-TABLE-1, e.g. 8 for Omaha Hi/Lo) is the room's limit, not the record's: every player
    # count the deck can deal replays.
    game = game.with_settings(max_players=max(game.max_players, deck_capacity(game)))
    seats = list(range(1, n + 1))
    deck, fillers, sequence = build_deck(game, [str(a) for a in f["actions"]], n)
    holder: list[Hand] = []

    def record_shuffle(cards: list[Card]) -> None:
        """The reshuffled cards as the record deals them next (the record fixes the outcome): the cards the record
        deals from here on, in its order, up to the first one that is not among them (still in a hand: it comes
        with a later reshuffle) or comes again. The cards the deck never gave (a dealer's burn cards) may be among
        them; the rest stays out of play for the next reshuffle."""
        hand = holder[0]
        order = hand.deck_order()
        start = len(order)
        held = {c for cs in hand.cards for c in cs}
        placed = set(order) | set(cards) | set(hand.board) | held
        pool = set(cards) | {c for c in game.deck.cards if c not in placed}
        segment: list[Card] = []
        for c in sequence[start:]:
            if c not in pool:
                break
            pool.discard(c)
            segment.append(Card(c))
        cards[:] = segment

    if len(f.get("_spread", [])):
        stakes = Stakes(small_blind=stakes.small_blind, big_blind=stakes.big_blind, bring_in=bring_in,
                        small_bet=small_bet, big_bet=big_bet, min_bet=min_bet,
                        spread=tuple(_scaled(v, scale) for v in f["_spread"]))
    cfg = HandConfig(
        game=game, structure=structure, stakes=stakes, seats=seats, stacks=stacks, button=n,
        deck=deck,  # type: ignore[arg-type]
        settings=settings,
        blinds={s: b for s, b in zip(seats, blinds, strict=True) if b},
        antes={s: a for s, a in zip(seats, antes, strict=True) if a},
        live_posts={s: a for s, a in zip(seats, live, strict=True) if a},
        dead_posts={s: a for s, a in zip(seats, dead, strict=True) if a},
        shuffle=record_shuffle,
    )
    return cfg, scale, fillers, holder


_ENUMS: dict[str, type[Enum]] = {"odd_chip": OddChip, "post_draw_first": PostDrawFirst}


def _apply_setting_fields(f: dict[str, Any], settings: Settings, game: Game) -> tuple[Settings, Game]:
    """Read back the ``_setting_<name>`` and ``_game_<name>`` fields written by the writer."""
    table: dict[str, Any] = {}
    knobs: dict[str, Any] = {}
    names = {x.name for x in dataclasses.fields(Settings)}
    for key, value in f.items():
        for prefix, target in (("_setting_", table), ("_game_", knobs)):
            if key.startswith(prefix):
                name = key[len(prefix):]
                if prefix == "_setting_" and name not in names:
                    raise PhhError(f"unknown setting field {key!r}")
                if prefix == "_game_" and not hasattr(game, name):
                    raise PhhError(f"unknown game field {key!r}")
                try:
                    target[name] = _ENUMS[name](value) if name in _ENUMS else value
                except ValueError:
                    raise PhhError(f"bad value for {key}: {value!r}") from None
    if table:
        settings = dataclasses.replace(settings, **table)
    if knobs:
        game = game.with_settings(**knobs)
    return settings, game


def _apply(hand: Hand, tokens: list[str], n: int, scale: int, fillers: set[int]) -> None:
    p = _player(tokens[0], n)
    seat = p + 1
    verb = tokens[1] if len(tokens) > 1 else ""
    if verb == "sm":
        return
    if verb in ("cc", "cbr") and _nobody_else_can_call(hand, p) and (hand.is_over or hand.to_act != seat):
        # PokerKit asks for a check (or a bet nobody can call, returned at once) that the engine does not ask
        # for, as every other player still in is all-in (R-NL-1 reading, docs/rules-differences.md): no change
        return
    if hand.is_over:
        raise IllegalAction("the hand is already over")
    la = hand.legal_actions()
    if la.seat != seat:
        _implicit_folds(hand, seat)
        la = hand.legal_actions()
    kinds = la.kinds
    if verb == "f":
        hand.act(Action(seat, ActionKind.FOLD))
    elif verb == "cc":
        hand.act(Action(seat, ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.CALL))
    elif verb == "cbr":
        if len(tokens) < 3:
            raise PhhError("cbr needs an amount")
        amount = _scaled(tokens[2], scale)
        if la.min_to and amount < la.min_to and amount >= _most_any_opponent_can_reach(hand, p):
            amount = la.min_to  # same outcome: the part nobody can call is returned (R-POT-4)
        for k in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
            if k in kinds:
                hand.act(Action(seat, k, amount))
                return
        raise IllegalAction(f"no bet or raise is allowed now (allowed: {', '.join(sorted(x.value for x in kinds))})")
    elif verb == "pb":
        hand.act(Action(seat, ActionKind.BRING_IN))
    elif verb == "sd":
        tokens_cards = _cards(tokens[2]) if len(tokens) > 2 else []
        discards = [c for c in tokens_cards if c is not None]
        unknown = len(tokens_cards) - len(discards)
        if unknown:  # unknown discards: the stand-ins for unknown cards in that hand
            stand_ins = [int(c) for c in hand.cards[p] if c in fillers and c not in discards]
            if len(stand_ins) < unknown:
                raise PhhError("more unknown discards than unknown cards in the hand")
            discards += stand_ins[:unknown]
        hand.act(Action(seat, ActionKind.DRAW, cards=tuple(discards)))
    elif verb in ("split", "nosplit", "rit2", "rit1"):
        kind = {"split": ActionKind.AGREE_SPLIT, "nosplit": ActionKind.DECLINE_SPLIT,
                "rit2": ActionKind.RUN_TWICE, "rit1": ActionKind.RUN_ONCE}[verb]
        hand.act(Action(seat, kind))
    else:
        raise PhhError(f"unknown action {' '.join(tokens)!r}")


def _artificial_allins(fields: dict[str, Any], n: int) -> dict[int, list[int]]:
    """``_artificial_allin = [[k, p], ...]`` (R-AAI-1) as {number of actions before it: [seat, ...]}."""
    raw = fields.get(ARTIFICIAL_ALLIN_FIELD)
    out: dict[int, list[int]] = {}
    if raw is None:
        return out
    count = len(fields.get("actions", []))
    if not isinstance(raw, list):
        raise PhhError(f"{ARTIFICIAL_ALLIN_FIELD} must be a list of [action index, player] pairs")
    for entry in raw:
        if (not isinstance(entry, list) or len(entry) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry)
                or not 0 <= entry[0] <= count or not 1 <= entry[1] <= n):
            raise PhhError(f"bad {ARTIFICIAL_ALLIN_FIELD} entry {entry!r}: expected [k, p] with 0 <= k <= {count}"
                           f" actions and 1 <= p <= {n}")
        out.setdefault(entry[0], []).append(entry[1])
    return out


def _nobody_else_can_call(hand: Hand, p: int) -> bool:
    if not 0 <= p < hand.n or hand.folded[p] or hand.allin[p]:
        return False
    return all(hand.folded[j] or hand.allin[j] for j in range(hand.n) if j != p)


def _most_any_opponent_can_reach(hand: Hand, p: int) -> int:
    return max((hand.stacks[j] + hand.bets[j] for j in range(hand.n) if j != p and not hand.folded[j]),
               default=0)


def _implicit_folds(hand: Hand, seat: int) -> None:
    """PokerKit's reading of a record that skips a player: the skipped players fold (only within the current
    betting round, and only when the named player is still due to act in it)."""
    legal = hand.legal_actions()
    if ActionKind.FOLD not in legal.kinds:
        raise IllegalAction(f"p{seat} acts out of turn (p{legal.seat} is to act)")
    p = seat - 1
    if not (0 <= p < hand.n) or hand.folded[p] or not hand.is_due(seat):
        raise IllegalAction(f"p{seat} acts out of turn (p{legal.seat} is to act)")
    while hand.to_act is not None and hand.to_act != seat:
        la = hand.legal_actions()
        if ActionKind.FOLD not in la.kinds:
            raise IllegalAction(f"p{seat} acts out of turn (p{la.seat} is to act)")
        hand.act(Action(la.seat, ActionKind.FOLD))
    if hand.to_act != seat:
        raise IllegalAction(f"p{seat} acts out of turn")


def replay(ph: PhhHand) -> ReplayResult:
    """Replay one record. Never raises for bad input: errors are reported in the result."""
    variant = ph.variant
    expected_raw = ph.fields.get("finishing_stacks")
    use_winnings = expected_raw is None and ph.fields.get("winnings") is not None
    if use_winnings:
        expected_raw = ph.fields.get("winnings")
    res = ReplayResult(ph.source, ph.index, variant, False, None,
                       list(expected_raw) if isinstance(expected_raw, list) else None)
    try:
        resolve_variant(variant)
    except PhhError as exc:
        res.error = str(exc)
        res.unsupported = True
        return res
    try:
        cfg, scale, fillers, holder = config_from_phh(ph)
        hand = Hand(cfg)
        holder.append(hand)
        n = len(cfg.seats)
        aai = _artificial_allins(ph.fields, n)
        actions = ph.actions
        for k in range(len(actions) + 1):
            for p in aai.get(k, ()):
                try:
                    hand.artificial_allin(p)  # seats are 1..n in record order
                except IllegalAction as exc:
                    raise PhhError(f"{ARTIFICIAL_ALLIN_FIELD} p{p} after action {k}: {exc}") from None
            if k == len(actions):
                break
            a = actions[k]
            t = _strip(a)
            if not t or t[0] == "d":
                continue
            try:
                _apply(hand, t, n, scale, fillers)
            except IllegalAction as exc:
                raise PhhError(f"action {k + 1} {a!r}: {exc}") from None
        if not hand.is_over or hand.result is None:
            raise PhhError(f"the record ends before the hand is over (p{hand.to_act} to act)")
        result = hand.result
        res.hand = hand
        finals = [result.stacks[s] for s in cfg.seats]
        res.finishing_stacks = [_unscale(v, scale) for v in finals]
        if expected_raw is None:
            res.match = True  # replayed legally to the end; nothing recorded to compare with
            res.checked = False
            return res
        if not isinstance(expected_raw, list) or len(expected_raw) != n:
            raise PhhError("finishing_stacks/winnings must list one number per player")
        expected = [_scaled(v, scale) for v in expected_raw]
        if use_winnings:
            won = [0] * n
            for pot in result.pots:
                for s, amt in pot.winners.items():
                    won[s - 1] += amt
            res.finishing_stacks = [_unscale(v, scale) for v in won]
            pot_total = sum(won)
            rake = pot_total - sum(expected)
            res.match = (
                all((w > 0) == (e > 0) and e <= w for w, e in zip(won, expected, strict=True))
                and 0 <= rake <= RAKE_TOLERANCE * pot_total
            )
        else:
            res.match = finals == expected
    except (PhhError, IllegalAction, ValueError) as exc:
        res.error = str(exc)
        res.match = False
    return res
