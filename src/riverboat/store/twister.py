"""Twister money and audit (R-TWIST, R-AOG, R-WILD, R-WALLET-9; issue #12).

A Twister-family tournament is a :class:`~riverboat.store.models.Tournament` whose stake is all buy-in (fee 0:
the house's share is not a fixed fee but the part of the three stakes above the drawn prize, R-TWIST-8) plus a
:class:`~riverboat.store.models.TwisterGame`. Players register with ``store.tournaments.register`` (cash, or a
Twister ticket whose face value is the buy-in). :meth:`TwisterStore.spin`, once the three are in and the
tournament has started, does in ONE database transaction:

1. Age of the Gods only: move the stakes' 0.99% into the four jackpot tiers (exact integer arithmetic of
   :mod:`riverboat.twister.jackpot`), draw a jackpot trigger for every player and pay each triggered player the
   whole balance of the tier drawn, to their balance, apart from any tournament prize (R-AOG-3..6, R-WALLET-9);
2. draw the multiplier (the published table, or the persisted Wild Twister deck) with the CSPRNG;
3. set the prize pool to ``multiplier * buy_in``: the stakes above it go to the house's Twister account
   (``fees:<cur>:r:twister``), a prize above the stakes is room money from ``external`` (R-TOURN-GEN-1);
4. store every draw with its random value in ``twister_draws`` (the audit trail).

A spin is final: calling it again returns the stored result and draws nothing. :meth:`TwisterStore.pay_place`
pays a finishing place its share (R-TWIST-5) at once (R-TOURN-GEN-5): cash for Twister and AoG, a Twister ticket
(non-cashable, R-TOURN-GEN-2) for Wild Twister (R-WILD-1), valid for tournaments whose id starts ``twister:``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.store._tx import Database, request_hash
from riverboat.store.errors import InvalidRequest, LedgerCorrupt, NotFound
from riverboat.store.ledger import _check_id
from riverboat.store.models import (
    Account,
    Tournament,
    TournamentEntry,
    TwisterDeck,
    TwisterDraw,
    TwisterGame,
    TwisterJackpot,
)
from riverboat.store.postings import AccountKey, check_currency, lock_accounts, post
from riverboat.store.tournament_history import TWISTER_KINDS, HistoryRow, player_history
from riverboat.store.tournaments import Tournaments, get_tournament
from riverboat.twister import (
    SEATS,
    TIERS,
    BitSource,
    DeckState,
    Draw,
    TwisterError,
    TwisterSettings,
    draw_from_deck,
    draw_multiplier,
    multiplier_at,
    split_prize,
    system_source,
    table_by_name,
    table_for,
)
from riverboat.twister.jackpot import draw_jackpots, tier_totals

TICKET_SCOPE = "twister:*"  # a Wild Twister ticket buys into any tournament whose id starts "twister:" (R-WILD-1)
ID_PREFIX = {"twister": "twister:", "aog": "twister:", "wild": "wild:"}
JACKPOT_TABLE = "aog-jackpot"


def jackpot_key(tier: str, currency: str) -> AccountKey:
    return AccountKey.jackpot(f"aog-{tier}", currency)


@dataclass(frozen=True, slots=True)
class JackpotWin:
    player_id: int
    tier: str
    amount: int


@dataclass(frozen=True, slots=True)
class SpinResult:
    tournament_id: str
    kind: str
    currency: str
    buy_in: int
    table_name: str
    multiplier: int
    prize: int
    places: tuple[int, ...]  # prize per finishing place, 1st first (one entry: winner takes all)
    random_value: int
    random_range: int
    jackpot_wins: tuple[JackpotWin, ...] = ()


@dataclass(frozen=True, slots=True)
class DrawRecord:
    tournament_id: str
    seq: int
    kind: str
    table_name: str
    currency: str
    buy_in: int
    multiplier: int | None
    random_value: int
    random_range: int
    deck_cycle: int | None
    deck_position: int | None
    player_id: int | None
    tier: str | None
    amount: int | None


class TwisterStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ games
    def create(self, tournament_id: str, kind: str, buy_in: int, *, currency: str = "EUR",
               settings: TwisterSettings | None = None, name: str | None = None,
               spec: dict[str, Any] | None = None) -> None:
        """Declare a Twister-family tournament at a published buy-in (R-TWIST-7, R-AOG-7, R-WILD-3) of a type the
        room offers (R-WILD-5). Its id starts ``twister:`` (Twister, AoG) or ``wild:`` (Wild Twister)."""
        settings = settings or TwisterSettings()
        _check_id(tournament_id, "tournament_id")
        check_currency(currency)
        try:
            table = table_for(kind, buy_in)
        except TwisterError as exc:
            raise InvalidRequest(str(exc)) from None
        if kind not in settings.enabled_kinds:
            raise InvalidRequest(f"this room does not offer {kind} (R-WILD-5)")
        if not tournament_id.startswith(ID_PREFIX[kind]):
            raise InvalidRequest(f"a {kind} tournament id starts with {ID_PREFIX[kind]!r}, got {tournament_id!r}")

        def body(s: Session) -> None:
            s.add(Tournament(tournament_id=tournament_id, currency=currency, buy_in=buy_in, fee=0,
                             status="registering", name=name, kind=kind, spec=spec, created_at=self._db.now()))
            s.add(TwisterGame(tournament_id=tournament_id, kind=kind, currency=currency, buy_in=buy_in,
                              table_name=table.name))
            s.flush()

        try:
            self._db.run(body)
        except IntegrityError:
            raise InvalidRequest(f"tournament {tournament_id!r} already exists") from None

    def spin(self, tournament_id: str, *, settings: TwisterSettings | None = None,
             rng: BitSource | None = None) -> SpinResult:
        """The Twister spin (R-TWIST-3, R-AOG-2/3, R-WILD-1): see the module docstring. ``rng`` defaults to the
        CSPRNG; tests pass ``random.Random(seed)``."""
        settings = settings or TwisterSettings()
        source = rng if rng is not None else system_source()

        def body(s: Session) -> SpinResult:
            t = get_tournament(s, tournament_id, lock=True)
            game = self._game(s, tournament_id)
            if game.multiplier is not None:
                return self._result(s, game)
            if t.status != "running":
                raise InvalidRequest(f"tournament {tournament_id!r} is {t.status}; the spin comes after the start")
            players = self._players(s, t)
            if len(players) != SEATS:
                raise InvalidRequest(f"a Twister spins with {SEATS} players registered, not {len(players)}")
            if game.kind == "aog":
                self._jackpots(s, game, players, settings, source)
            self._draw_prize(s, game, settings, source)
            return self._result(s, game)

        return self._db.run(body)

    def result(self, tournament_id: str) -> SpinResult | None:
        """The spin of a tournament, or None before it."""

        def body(s: Session) -> SpinResult | None:
            game = self._game(s, tournament_id)
            return None if game.multiplier is None else self._result(s, game)

        return self._db.read(body)

    def kind(self, tournament_id: str) -> str:
        return self._db.read(lambda s: self._game(s, tournament_id).kind)

    def pay_place(self, tournament_id: str, place: int, player_id: int) -> int:
        """Pay finishing ``place`` (1 = winner) its part of the drawn prize, at once (R-TWIST-5, R-TOURN-GEN-5):
        cash (Twister, AoG) or a Twister ticket (Wild, R-WILD-1). Each place is paid once: a repeat for the same
        player returns the first result, for another player it is refused. Returns the transaction id (cash) or
        the ticket id (Wild); 0 for a place without a prize."""

        def body(s: Session) -> tuple[str, str, int]:
            game = self._game(s, tournament_id)
            if game.multiplier is None:
                raise InvalidRequest(f"tournament {tournament_id!r} has not been spun")
            places = list(game.places)
            if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= SEATS:
                raise InvalidRequest(f"place must be 1 to {SEATS}, got {place!r}")
            t = get_tournament(s, tournament_id)
            if player_id not in self._players(s, t):
                raise InvalidRequest(f"player {player_id} did not play {tournament_id!r}")
            return game.kind, game.currency, places[place - 1] if place <= len(places) else 0

        kind, currency, amount = self._db.read(body)
        if amount == 0:
            return 0
        key = f"twister_place:{tournament_id}:{place}"
        tournaments = Tournaments(self._db)
        if kind == "wild":
            return tournaments.issue_ticket(player_id, currency, amount, key, tournament_id=TICKET_SCOPE,
                                            from_tournament=tournament_id)
        return tournaments.pay_prize(tournament_id, player_id, amount, key)

    def history(self, player_id: int, limit: int = 50) -> list[HistoryRow]:
        """The player's Twister-family tournaments, newest first (R-TWIST-11: the result in the account's history):
        the same rows as the account's tournament history (:mod:`riverboat.store.tournament_history`) — type,
        buy-in or the ticket used, drawn multiplier and prize, place, cash won, the Twister ticket won (Wild
        Twister, R-WILD-1) and the Age of the Gods jackpots won apart (R-WALLET-9)."""
        return player_history(self._db, player_id, limit=limit, kinds=TWISTER_KINDS)

    # ------------------------------------------------------------------ audit
    def draws(self, *, tournament_id: str | None = None, kind: str | None = None) -> list[DrawRecord]:
        def body(s: Session) -> list[DrawRecord]:
            q = select(TwisterDraw)
            if tournament_id is not None:
                q = q.where(TwisterDraw.tournament_id == tournament_id)
            if kind is not None:
                q = q.where(TwisterDraw.kind == kind)
            return [DrawRecord(d.tournament_id, d.seq, d.kind, d.table_name, d.currency, d.buy_in, d.multiplier,
                               d.random_value, d.random_range, d.deck_cycle, d.deck_position, d.player_id,
                               d.tier, d.amount)
                    for d in s.scalars(q.order_by(TwisterDraw.id))]

        return self._db.read(body)

    def audit(self) -> dict[str, Any]:
        """Re-derive every stored prize spin from its random value and count the multipliers per table. Raises
        :class:`LedgerCorrupt` if a stored multiplier is not the one its random value selects or a Wild cycle
        paid more of a prize than the published counts. Returns ``{table: {"draws", "counts"}}``."""
        out: dict[str, dict[str, Any]] = {}
        per_cycle: Counter[tuple[str, int, int]] = Counter()
        for d in self.draws():
            if d.seq != 0 or d.multiplier is None:
                continue
            table = table_by_name(d.table_name)
            if table.cycle_games is None:
                if d.random_range != table.total_weight or multiplier_at(table, d.random_value) != d.multiplier:
                    raise LedgerCorrupt(f"draw of {d.tournament_id!r} does not follow table {table.name}")
            else:
                per_cycle[(f"{d.currency}:{d.buy_in}", d.deck_cycle or 0, d.multiplier)] += 1
            entry = out.setdefault(table.name, {"draws": 0, "counts": dict.fromkeys(table.multipliers, 0)})
            entry["draws"] += 1
            entry["counts"][d.multiplier] += 1
        wild = table_for("wild", table_by_name("wild").buy_ins[0])
        published = {r.multiplier: r.weight for r in wild.rows}
        for (_deck, cycle, mult), n in per_cycle.items():
            if n > published[mult]:
                raise LedgerCorrupt(f"Wild cycle {cycle} paid {n} x {mult}, more than the {published[mult]} published")
        return out

    def deck(self, buy_in: int, currency: str = "EUR") -> DeckState:
        """Where the Wild Twister deck of this buy-in stands (a fresh cycle 1 before its first game)."""
        table = table_for("wild", buy_in)

        def body(s: Session) -> DeckState:
            row = s.scalar(select(TwisterDeck).where(TwisterDeck.deck_key == f"wild:{currency}:{buy_in}"))
            if row is None:
                return DeckState.fresh(table)
            return DeckState(row.cycle, row.position, tuple(row.remaining))

        return self._db.read(body)

    def jackpots(self, currency: str = "EUR") -> dict[str, int]:
        """Balance of each Age of the Gods tier (R-AOG-4), Power first."""

        def body(s: Session) -> dict[str, int]:
            keys = {tier: jackpot_key(tier, currency).key for tier in TIERS}
            rows = {k: b for k, b in s.execute(select(Account.key, Account.balance)
                                               .where(Account.key.in_(keys.values())))}
            return {tier: int(rows.get(k, 0)) for tier, k in keys.items()}

        return self._db.read(body)

    def jackpot_progress(self, currency: str = "EUR") -> tuple[int, tuple[int, ...]]:
        """(all AoG stakes counted, what each tier has received in all)."""

        def body(s: Session) -> tuple[int, tuple[int, ...]]:
            row = s.scalar(select(TwisterJackpot).where(TwisterJackpot.currency == currency))
            return (0, (0,) * len(TIERS)) if row is None else (row.stakes_total, tuple(row.contributed))

        return self._db.read(body)

    # ------------------------------------------------------------------ inside the spin
    def _jackpots(self, s: Session, game: TwisterGame, players: list[int], settings: TwisterSettings,
                  rng: BitSource) -> None:
        cur, tid = game.currency, game.tournament_id
        jp = _locked_row(s, TwisterJackpot, TwisterJackpot.currency, cur,
                         {"stakes_total": 0, "contributed": [0] * len(TIERS)})
        stakes = SEATS * game.buy_in
        targets = tier_totals(jp.stakes_total + stakes, settings)
        deltas = [max(0, target - done) for target, done in zip(targets, jp.contributed, strict=True)]
        prize = AccountKey.prize(tid, cur)
        tiers = [jackpot_key(tier, cur) for tier in TIERS]
        wallets = [AccountKey.wallet(p, cur) for p in players]
        accts = lock_accounts(s, [prize, *tiers, *wallets])
        transfers = [(prize, key, d) for key, d in zip(tiers, deltas, strict=True) if d > 0]
        if transfers:
            post(s, accts, idem_key=f"twister_jackpot_in:{tid}", kind="jackpot_in", now=self._db.now(),
                 req_hash=request_hash("jackpot_in", tournament_id=tid, deltas=deltas), transfers=transfers)
        jp.stakes_total += stakes
        jp.contributed = [done + d for done, d in zip(jp.contributed, deltas, strict=True)]
        for jd in draw_jackpots(len(players), game.buy_in, settings, rng):
            pid, amount = players[jd.seat], None
            if jd.tier is not None:
                key = jackpot_key(jd.tier, cur)
                amount = accts[key].balance
                if amount > 0:
                    post(s, accts, idem_key=f"twister_jackpot_out:{tid}:{jd.seat}", kind="jackpot_out",
                         now=self._db.now(), transfers=[(key, wallets[jd.seat], amount)],
                         req_hash=request_hash("jackpot_out", tournament_id=tid, seat=jd.seat, amount=amount))
            s.add(TwisterDraw(tournament_id=tid, seq=1 + jd.seat, kind="jackpot", table_name=JACKPOT_TABLE,
                              currency=cur, buy_in=game.buy_in, random_value=jd.trigger_value,
                              random_range=jd.trigger_range, player_id=pid, tier=jd.tier, tier_value=jd.tier_value,
                              tier_range=jd.tier_range, amount=amount, created_at=self._db.now()))

    def _draw_prize(self, s: Session, game: TwisterGame, settings: TwisterSettings, rng: BitSource) -> None:
        cur, tid = game.currency, game.tournament_id
        table = table_by_name(game.table_name)
        draw: Draw
        if table.cycle_games is not None:
            row = _locked_row(s, TwisterDeck, TwisterDeck.deck_key, f"wild:{cur}:{game.buy_in}",
                              {"cycle": 1, "position": 0, "remaining": [r.weight for r in table.rows]})
            state = DeckState(row.cycle, row.position, tuple(row.remaining))
            state.check(table)
            draw, state = draw_from_deck(table, state, rng)
            row.cycle, row.position, row.remaining = state.cycle, state.position, list(state.remaining)
        else:
            draw = draw_multiplier(table, rng)
        prize_amount = draw.multiplier * game.buy_in
        prize, house, ext = AccountKey.prize(tid, cur), AccountKey.twister_house(cur), AccountKey.external(cur)
        accts = lock_accounts(s, [prize, house, ext])
        pool = accts[prize].balance
        if pool > prize_amount:
            post(s, accts, idem_key=f"twister_house:{tid}", kind="twister_house", now=self._db.now(),
                 req_hash=request_hash("twister_house", tournament_id=tid), transfers=[(prize, house,
                                                                                        pool - prize_amount)])
        elif pool < prize_amount:
            post(s, accts, idem_key=f"twister_overlay:{tid}", kind="twister_overlay", now=self._db.now(),
                 req_hash=request_hash("twister_overlay", tournament_id=tid), transfers=[(ext, prize,
                                                                                          prize_amount - pool)])
        threshold, split = settings.split_for(game.kind)
        game.multiplier, game.prize = draw.multiplier, prize_amount
        game.places = list(split_prize(prize_amount, threshold, split))
        game.spun_at = self._db.now()
        s.add(TwisterDraw(tournament_id=tid, seq=0, kind=game.kind, table_name=table.name, currency=cur,
                          buy_in=game.buy_in, multiplier=draw.multiplier, random_value=draw.random_value,
                          random_range=draw.random_range, deck_cycle=draw.cycle, deck_position=draw.position,
                          amount=prize_amount, created_at=self._db.now()))
        s.flush()

    # ------------------------------------------------------------------ helpers
    def _result(self, s: Session, game: TwisterGame) -> SpinResult:
        rows = list(s.scalars(select(TwisterDraw).where(TwisterDraw.tournament_id == game.tournament_id)
                              .order_by(TwisterDraw.seq)))
        spin = rows[0]
        wins = tuple(JackpotWin(d.player_id, d.tier, d.amount or 0) for d in rows[1:]
                     if d.tier is not None and d.player_id is not None)
        assert game.multiplier is not None and game.prize is not None
        return SpinResult(game.tournament_id, game.kind, game.currency, game.buy_in, game.table_name,
                          game.multiplier, game.prize, tuple(game.places), spin.random_value, spin.random_range,
                          wins)

    @staticmethod
    def _game(s: Session, tournament_id: str) -> TwisterGame:
        game = s.scalar(select(TwisterGame).where(TwisterGame.tournament_id == tournament_id))
        if game is None:
            raise NotFound(f"no Twister tournament {tournament_id!r}")
        return game

    @staticmethod
    def _players(s: Session, t: Tournament) -> list[int]:
        return list(s.scalars(select(TournamentEntry.player_id).where(
            TournamentEntry.tournament_pk == t.id, TournamentEntry.status == "registered")
            .order_by(TournamentEntry.id)))


def _locked_row(s: Session, model: Any, column: Any, value: str, defaults: dict[str, Any]) -> Any:
    """The row of ``model`` whose unique ``column`` is ``value``, created with ``defaults`` if missing (a concurrent
    creator wins harmlessly), locked for update."""
    insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
    s.execute(insert(model).values({column.key: value, **defaults}).on_conflict_do_nothing(
        index_elements=[column.key]))
    return s.scalar(select(model).where(column == value).with_for_update())
