"""Hand histories as PokerStars-format text: the format PokerTracker, Hold'em Manager and most replayers import.

The text is written from what one player may see of a hand (their own hole cards, every public card and action,
the cards shown down): :class:`HandSheet` holds the hand's header (table, game, stakes, seats, button, the viewing
player) and the engine's events visible to that player, as stored with the hand (``store.hands``). Nothing hidden
from the player is written, so the text can be handed to them.

Lines follow PokerStars' hand histories: ``PokerStars Hand #N:  Hold'em No Limit (50/100) - 2026/12/01 18:00:00
UTC``, ``Table 'Riga' 6-max Seat #3 is the button``, ``Seat 1: Name (10000 in chips)``, posts, ``*** HOLE CARDS
***``, ``Dealt to Name [Ah Kd]``, ``Name: raises 200 to 300`` (the raise is by the increment over the bet faced,
then "to" the total), ``*** FLOP *** [..]``, ``*** SHOW DOWN ***``, ``Name collected N from pot`` and the
``*** SUMMARY ***``. Stud streets are ``*** 3rd STREET ***`` to ``*** RIVER ***``; draw rounds ``*** FIRST DRAW
***``... Seats are numbered from 1 as PokerStars does (Riverboat's seat + 1).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

# PokerStars' names of the games (Riverboat ids) and of the structures.
_GAMES = {
    "holdem": "Hold'em", "omaha": "Omaha", "omaha5": "5 Card Omaha", "omaha_hl": "Omaha Hi/Lo",
    "omaha5_hl": "5 Card Omaha Hi/Lo", "six_plus": "6+ Hold'em", "stud": "7 Card Stud", "stud_hl": "7 Card Stud Hi/Lo",
    "razz": "Razz", "draw5": "5 Card Draw", "triple_draw_27": "Triple Draw 2-7 Lowball", "draw32": "32 Card Draw",
    "soko": "Soko", "americana": "Americana",
}
_STRUCTURES = {"NL": "No Limit", "PL": "Pot Limit", "HPL": "Half Pot Limit", "FL": "Limit", "SL": "Spread Limit"}
_MIXED = {"horse": "HORSE", "8game": "8-Game"}
_STUD_STREETS = ["3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER"]
_DRAWS = ["FIRST DRAW", "SECOND DRAW", "THIRD DRAW"]
_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
_VOTES = frozenset({"run_once", "run_twice", "agree_split", "decline_split"})


@dataclass(frozen=True, slots=True)
class SheetSeat:
    seat: int  # Riverboat's seat number (0-based)
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """The tournament a hand was dealt in (issue #31 item 6: PokerStars' tournament header): its number, buy-in and
    fee (0 and 0: a freeroll) in ``currency`` ("PLAY": play money, written without a symbol), the level (1-based)
    and the table's number in the tournament."""

    number: int
    buy_in: int
    fee: int
    currency: str
    level: int
    table_no: str


def roman(n: int) -> str:
    """A level number as PokerStars writes it (``Level XIV``)."""
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                           (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out) or "0"


def tournament_number(tournament_id: str) -> int:
    """A stable numeric tournament number (PokerStars numbers its tournaments; Riverboat's ids are text)."""
    return int(hashlib.sha1(f"tournament:{tournament_id}".encode()).hexdigest()[:10], 16)


@dataclass(frozen=True, slots=True)
class HandSheet:
    """One hand as a player may see it."""

    table_id: str
    hand_id: str
    table_name: str
    game: str  # Riverboat game id
    structure: str  # FL, SL, PL, HPL, NL
    family: str  # "flop" | "stud" | "draw"
    currency: str
    started_at: datetime
    seats: tuple[SheetSeat, ...]
    button: int | None
    max_seats: int
    events: tuple[Mapping[str, Any], ...]
    hero_seat: int | None = None
    small_blind: int = 0
    big_blind: int = 0
    small_bet: int = 0
    big_bet: int = 0
    mixed: str | None = None
    tournament: TournamentInfo | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def hand_number(table_id: str, hand_id: str) -> int:
    """A stable numeric hand number (PokerStars numbers its hands; Riverboat's hand ids are text)."""
    return int(hashlib.sha1(f"{table_id}:{hand_id}".encode()).hexdigest()[:12], 16)


def _money(amount: int, currency: str) -> str:
    symbol = _SYMBOLS.get(currency)
    if symbol is None:
        return str(int(amount))
    whole, cents = divmod(int(amount), 100)
    return f"{symbol}{whole}" if cents == 0 else f"{symbol}{whole}.{cents:02d}"


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


class _Writer:
    def __init__(self, sheet: HandSheet) -> None:
        self.sheet = sheet
        self.names = {s.seat: s.name for s in sheet.seats}
        self.lines: list[str] = []
        self.bets: dict[int, int] = {s.seat: 0 for s in sheet.seats}
        self.board: list[str] = []
        self.folded: dict[int, str] = {}
        self.shown: dict[int, tuple[list[str], str]] = {}
        self.mucked: set[int] = set()
        self.won: dict[int, int] = {}
        self.street = "" if sheet.family == "flop" else "3rd Street"  # "": before the flop
        self.street_no = 0
        self.blinds_seen = 0
        self.roles: dict[int, list[str]] = {}
        self.rake = 0
        self.total = 0
        self.showdown = False
        self.draw_no = 0
        self.stud_dealt: dict[int, list[str]] = {}
        self.stud_known: dict[int, list[str]] = {}
        self.pots: list[int] = []  # the pots as awarded, main pot first (after the rake)
        self.pot_of: list[int] = []  # the pot index of each award, in order
        self.awards_seen = 0

    def m(self, amount: int) -> str:
        return _money(amount, self.sheet.currency)

    def name(self, seat: Any) -> str:
        return self.names.get(int(seat), f"Seat {int(seat) + 1}")

    # ---------------------------------------------------------------- header
    def header(self) -> None:
        s = self.sheet
        game = f"{_GAMES.get(s.game, s.game)} {_STRUCTURES.get(s.structure, s.structure)}"
        if s.family == "stud" or (s.structure in ("FL", "SL") and s.small_bet):
            stakes = f"{self.m(s.small_bet)}/{self.m(s.big_bet)}"
        else:
            stakes = f"{self.m(s.small_blind)}/{self.m(s.big_blind)}"
        currency = f" {s.currency}" if s.currency in _SYMBOLS else ""
        when = s.started_at.astimezone(UTC).strftime("%Y/%m/%d %H:%M:%S")
        t = s.tournament
        if t is not None:  # Tournament #T, buy-in+fee CUR Game - Level N (stakes)
            title = f"Tournament #{t.number}, {self.buy_in_text(t)} {game} - Level {roman(t.level)} ({stakes})"
            if s.mixed:
                title = f"Tournament #{t.number}, {self.buy_in_text(t)} {_MIXED.get(s.mixed, s.mixed)} ({game}) - " \
                        f"Level {roman(t.level)} ({stakes})"
            table = f"{t.number} {t.table_no}"
        elif s.mixed:
            title = f" {_MIXED.get(s.mixed, s.mixed)} ({game}, {stakes}{currency})"
            table = s.table_name
        else:
            title = f" {game} ({stakes}{currency})"
            table = s.table_name
        self.lines.append(f"PokerStars Hand #{hand_number(s.table_id, s.hand_id)}: {title} - {when} UTC")
        button = f" Seat #{s.button + 1} is the button" if s.button is not None and s.family != "stud" else ""
        self.lines.append(f"Table '{table}' {s.max_seats}-max{button}")
        for seat in sorted(s.seats, key=lambda x: x.seat):
            self.lines.append(f"Seat {seat.seat + 1}: {seat.name} ({self.m(seat.stack)} in chips)")
        if s.button is not None and s.family != "stud":
            self.roles.setdefault(s.button, []).append("button")

    @staticmethod
    def buy_in_text(t: TournamentInfo) -> str:
        """``€10+€1 EUR``, ``100+10`` (play money), ``Freeroll`` (nothing to pay; PokerStars adds a space)."""
        if not t.buy_in and not t.fee:
            return "Freeroll "
        if t.currency in _SYMBOLS:
            return f"{_money(t.buy_in, t.currency)}+{_money(t.fee, t.currency)} {t.currency}"
        return f"{t.buy_in}+{t.fee}"

    # ---------------------------------------------------------------- events
    def posted(self, ev: Mapping[str, Any]) -> None:
        seat, amount, what = int(ev["seat"]), int(ev["amount"]), ev.get("what")
        self.total += amount
        if what == "ante":
            self.lines.append(f"{self.name(seat)}: posts the ante {self.m(amount)}")
            return
        if what in ("blind", "live"):
            self.bets[seat] += amount
        if what == "blind":
            self.blinds_seen += 1
            kind = "small" if self.blinds_seen == 1 and amount <= self.sheet.small_blind and self.sheet.small_blind else "big"
            if kind == "big":
                self.blinds_seen = 2
            self.roles.setdefault(seat, []).append(f"{kind} blind")
            self.lines.append(f"{self.name(seat)}: posts {kind} blind {self.m(amount)}")
        elif what == "live":
            self.lines.append(f"{self.name(seat)}: posts big blind {self.m(amount)}")
        else:  # a dead small blind (R-MISSED)
            self.lines.append(f"{self.name(seat)}: posts small blind {self.m(amount)} (dead)")

    def dealt(self, ev: Mapping[str, Any]) -> None:
        seat, cards, up = int(ev["seat"]), list(ev.get("cards") or []), bool(ev.get("up"))
        if self.sheet.family == "stud":
            if up or seat == self.sheet.hero_seat:
                self.stud_dealt.setdefault(seat, []).extend(cards)
            return
        if seat == self.sheet.hero_seat and not up:
            if not any(line == "*** HOLE CARDS ***" or line.startswith("*** DEALING") for line in self.lines):
                self.lines.append("*** HOLE CARDS ***" if self.sheet.family == "flop" else "*** DEALING HANDS ***")
            self.lines.append(f"Dealt to {self.name(seat)} {_cards(cards)}")

    def flush_stud_deal(self) -> None:
        """A stud street's cards as PokerStars writes them: the cards known before, then the new ones
        (``Dealt to X [As 6h 4s] [Ts]``; another player's known cards are their up cards)."""
        if not self.stud_dealt:
            return
        for seat in sorted(self.stud_dealt):
            new = self.stud_dealt[seat]
            if not new:
                continue
            before = self.stud_known.setdefault(seat, [])
            prior = f"{_cards(before)} " if before else ""
            self.lines.append(f"Dealt to {self.name(seat)} {prior}{_cards(new)}")
            before.extend(new)
        self.stud_dealt = {}

    def street_start(self, ev: Mapping[str, Any]) -> None:
        n = int(ev.get("street") or 0)
        self.street_no = n
        fam = self.sheet.family
        if fam == "stud":
            label = _STUD_STREETS[min(n, len(_STUD_STREETS) - 1)]
            self.lines.append(f"*** {label} ***")
            self.street = label.title().replace("Rd", "rd").replace("Th", "th")
            self.flush_stud_deal()
        elif fam == "flop" and n == 0:
            if "*** HOLE CARDS ***" not in self.lines:
                self.lines.append("*** HOLE CARDS ***")
        elif fam == "draw" and n == 0 and not any(line.startswith("*** DEALING") for line in self.lines):
            self.lines.append("*** DEALING HANDS ***")
        if n > 0:
            self.bets = dict.fromkeys(self.bets, 0)

    def board_cards(self, ev: Mapping[str, Any]) -> None:
        cards = list(ev.get("cards") or [])
        if self.sheet.family == "stud":  # R-INSUF-3: a community card
            self.lines.append(f"*** COMMUNITY CARD *** {_cards(cards)}")
            return
        run = ev.get("run")
        if run is not None:
            self.lines.append(f"*** {'FIRST' if int(run) == 0 else 'SECOND'} BOARD *** {_cards(self.board + cards)}")
            return
        before = list(self.board)
        self.board.extend(cards)
        if len(self.board) == 3:
            self.lines.append(f"*** FLOP *** {_cards(self.board)}")
            self.street = "Flop"
        elif len(self.board) == 4:
            self.lines.append(f"*** TURN *** {_cards(before)} {_cards(cards)}")
            self.street = "Turn"
        else:
            self.lines.append(f"*** RIVER *** {_cards(before)} {_cards(cards)}")
            self.street = "River"
        self.bets = dict.fromkeys(self.bets, 0)

    def acted(self, ev: Mapping[str, Any]) -> None:
        seat, action = int(ev["seat"]), str(ev.get("action"))
        who = self.name(seat)
        allin = " and is all-in" if ev.get("all_in") else ""
        top = max(self.bets.values(), default=0)
        if action == "fold":
            self.lines.append(f"{who}: folds")
            self.folded[seat] = self.street
        elif action == "check":
            self.lines.append(f"{who}: checks")
        elif action in ("call", "bring_in"):
            paid = int(ev.get("amount") or 0)
            self.bets[seat] += paid
            self.total += paid
            verb = "brings in for" if action == "bring_in" else "calls"
            self.lines.append(f"{who}: {verb} {self.m(paid)}{allin}")
        elif action in ("bet", "raise", "complete", "straddle"):
            to = int(ev.get("to") or 0)
            self.total += to - self.bets[seat]
            self.bets[seat] = to
            if action == "complete":
                self.lines.append(f"{who}: bets {self.m(to)}{allin}" if top == 0 else f"{who}: completes it to {self.m(to)}{allin}")
            elif action == "bet" or top == 0:
                self.lines.append(f"{who}: bets {self.m(to)}{allin}")
            else:
                self.lines.append(f"{who}: raises {self.m(to - top)} to {self.m(to)}{allin}")
        elif action in _VOTES:
            return  # run-it-twice and split votes are not PokerStars actions
        elif action == "artificial_allin":
            self.lines.append(f"{who}: is all-in (disconnected)")
        else:
            self.lines.append(f"{who}: {action.replace('_', ' ')}")

    def drew(self, ev: Mapping[str, Any], private: Mapping[str, Any] | None) -> None:
        seat, count = int(ev["seat"]), int(ev.get("count") or 0)
        who = self.name(seat)
        if count == 0:
            self.lines.append(f"{who}: stands pat")
        elif private is not None:
            self.lines.append(f"{who}: discards {count} card{'s' if count > 1 else ''} {_cards(private.get('discarded') or [])}")
            self.lines.append(f"Dealt to {who} {_cards(private.get('cards') or [])}")
        else:
            self.lines.append(f"{who}: discards {count} card{'s' if count > 1 else ''}")

    def draw_round(self) -> None:
        if self.draw_no < len(_DRAWS):
            self.lines.append(f"*** {_DRAWS[self.draw_no]} ***")
        self.draw_no += 1

    def returned(self, ev: Mapping[str, Any]) -> None:
        amount = int(ev.get("amount") or 0)
        self.total -= amount
        self.lines.append(f"Uncalled bet ({self.m(amount)}) returned to {self.name(ev['seat'])}")

    def showed(self, ev: Mapping[str, Any]) -> None:
        if not self.showdown:
            self.lines.append("*** SHOW DOWN ***")
            self.showdown = True
        seat = int(ev["seat"])
        cards = list(ev.get("cards") or [])
        label = str(ev.get("label") or "")
        self.shown[seat] = (cards, label)
        self.lines.append(f"{self.name(seat)}: shows {_cards(cards)}{f' ({label})' if label else ''}")

    def plan_pots(self, events: list[Mapping[str, Any]]) -> None:
        """The pots of the hand, main pot first, from its awards in order: an award of run 0 that is not a pot's
        low half opens the next pot (the engine awards pot by pot; a low half and a second run follow their pot)."""
        for ev in events:
            if ev.get("kind") != "pot_awarded":
                continue
            if not self.pots or (int(ev.get("run") or 0) == 0 and ev.get("share") != "low"):
                self.pots.append(0)
            self.pots[-1] += int(ev.get("amount") or 0)
            self.pot_of.append(len(self.pots) - 1)

    def pot_name(self, index: int) -> str:
        """PokerStars' name of a pot: "pot" when there is one, else "main pot", "side pot" (one side pot) or
        "side pot-1", "side pot-2"..."""
        if len(self.pots) <= 1:
            return "pot"
        if index == 0:
            return "main pot"
        return "side pot" if len(self.pots) == 2 else f"side pot-{index}"

    def awarded(self, ev: Mapping[str, Any]) -> None:
        k = self.awards_seen
        self.awards_seen += 1
        pot = f" from {self.pot_name(self.pot_of[k] if k < len(self.pot_of) else 0)}"
        for seat, amount in (ev.get("winners") or {}).items():
            s = int(seat)
            self.won[s] = self.won.get(s, 0) + int(amount)
            self.lines.append(f"{self.name(s)} collected {self.m(int(amount))}{pot}")

    # ---------------------------------------------------------------- summary
    def summary(self) -> None:
        s = self.sheet
        self.lines.append("*** SUMMARY ***")
        pots = ""
        if len(self.pots) > 1:
            pots = "".join(f" {self.pot_name(i).capitalize()} {self.m(amount)}." for i, amount in enumerate(self.pots))
        self.lines.append(f"Total pot {self.m(self.total)}{pots} | Rake {self.m(self.rake)}")
        if self.board:
            self.lines.append(f"Board {_cards(self.board)}")
        for seat in sorted(s.seats, key=lambda x: x.seat):
            n = seat.seat
            roles = "".join(f" ({r})" for r in self.roles.get(n, []))
            head = f"Seat {n + 1}: {seat.name}{roles}"
            if n in self.folded:
                when = self.folded[n]
                self.lines.append(f"{head} folded {'before Flop' if not when else f'on the {when}'}")
            elif n in self.shown:
                cards, label = self.shown[n]
                won = self.won.get(n)
                result = f"and won ({self.m(won)})" if won else "and lost"
                self.lines.append(f"{head} showed {_cards(cards)} {result}{f' with {label}' if label else ''}")
            elif n in self.won:
                self.lines.append(f"{head} collected ({self.m(self.won[n])})")
            elif n in self.mucked:
                self.lines.append(f"{head} mucked")
            else:
                self.lines.append(f"{head}")

    def write(self) -> str:
        self.header()
        events = list(self.sheet.events)
        self.plan_pots(events)
        private_draws: dict[int, list[Mapping[str, Any]]] = {}
        for ev in events:
            if ev.get("kind") == "drew_cards":
                private_draws.setdefault(int(ev["seat"]), []).append(ev)
        draws_seen: dict[int, int] = {}
        in_draw = False
        for ev in events:
            kind = ev.get("kind")
            if kind == "posted":
                self.posted(ev)
            elif kind == "dealt":
                self.dealt(ev)
            elif kind == "street":
                in_draw = False
                self.street_start(ev)
            elif kind == "board":
                self.board_cards(ev)
            elif kind == "acted":
                self.acted(ev)
            elif kind == "drew":
                if not in_draw:
                    self.draw_round()
                    in_draw = True
                seat = int(ev["seat"])
                k = draws_seen.get(seat, 0)
                draws_seen[seat] = k + 1
                mine = private_draws.get(seat, [])
                self.drew(ev, mine[k] if k < len(mine) else None)
            elif kind == "returned":
                self.returned(ev)
            elif kind == "showed":
                self.showed(ev)
            elif kind == "mucked":
                self.mucked.add(int(ev["seat"]))
                self.lines.append(f"{self.name(ev['seat'])}: mucks hand")
            elif kind == "pot_awarded":
                self.awarded(ev)
            elif kind == "rake":
                self.rake += int(ev.get("amount") or 0)
        self.summary()
        return "\n".join(self.lines) + "\n"


def pokerstars_text(sheet: HandSheet) -> str:
    """One hand as PokerStars-format text (ends with a newline)."""
    return _Writer(sheet).write()


def pokerstars_session(sheets: Iterable[HandSheet]) -> str:
    """Several hands, oldest first, separated by blank lines as PokerStars writes them."""
    return "\n\n\n".join(pokerstars_text(s).rstrip("\n") for s in sheets) + "\n"
