"""The end of a hand: pots (R-ALLIN-5), rake (R-RAKE), the showdown's order and who shows (R-SHOW), each pot's
winners with the cards that make each winning hand (R-CARD-2), odd chips (R-ODD) and the result."""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub

from riverboat.engine.config import RakeContext
from riverboat.engine.events import Event
from riverboat.engine.pots import Pot, build_pots, divide, divide_all_to_first, merge_equal_pots
from riverboat.engine.results import HandResult, PotAward
from riverboat.engine.showdown import evaluate_hands, label_of, winning_hand
from riverboat.engine.state import _CS, _DONE, DRAW_GAME, FLOP, STUD, HandState
from riverboat.engine.views import Share, WinningHand
from riverboat.games.catalog import OddChip, PostDrawFirst

_SHOWN_FIRST, _ALL_TO_FIRST = OddChip.SHOWN_FIRST, OddChip.LEFT_OF_BUTTON_ALL
_LEFT_OF_BB = PostDrawFirst.LEFT_OF_BIG_BLIND
_CS_OF = _CS.__getitem__  # card code -> "Ah", through map (no comprehension frame)


class Award(HandState):
    """Showdown and awards (a part of :class:`~riverboat.engine.hand.Hand`)."""

    __slots__ = ()

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
            stacks=dict(zip(self.seats, self.stacks)),  # noqa: B905 (same length; no comprehension frame)
            net=dict(zip(self.seats, map(sub, self.stacks, self.start_stacks))),  # noqa: B905
            pots=awards, rake=rake, shown=shown, labels=labels, showdown=showdown,
        )
        self._phase = _DONE
        self._actor = None
        self._legal = None
        self._emit("hand_over", None, stacks=self.result.stacks)

    def _rake_trigger(self) -> bool:
        kind = self.game.kind
        if kind is FLOP:
            return len(self.board) >= 3
        if kind is DRAW_GAME:
            return self.street >= 1
        cards = max(len(c) for c in self.cards)
        return cards >= (4 if len(self.game.streets) == 5 else 3)

    def _divide(self, amount: int, winners: list[int], show_order: list[int]) -> dict[int, int]:
        if len(winners) == 1:  # every odd-chip rule gives a lone winner the whole amount
            return {self.seats[winners[0]]: amount}
        rule = self._odd_chip
        if rule is _SHOWN_FIRST and show_order:
            ordered = sorted(winners, key=lambda j: show_order.index(j) if j in show_order else self.n + j)
            return {self.seats[j]: v for j, v in divide_all_to_first(amount, ordered).items()}
        ordered = sorted(winners)
        if rule is _ALL_TO_FIRST:
            return {self.seats[j]: v for j, v in divide_all_to_first(amount, ordered).items()}
        return {self.seats[j]: v for j, v in divide(amount, ordered).items()}

    def _show_order(self, alive: list[int]) -> list[int]:
        """R-SHOW: last aggressor of the final round first, else by game; then clockwise."""
        n = self.n
        if self._last_aggr is not None and not self.folded[self._last_aggr]:
            first = self._last_aggr
        elif self.game.kind is STUD:
            first = self._best_visible()
        elif self.game.post_draw_first is _LEFT_OF_BB and self._bb_pos is not None:
            first = (self._bb_pos + 1) % n
        else:
            first = 0
        return self._alive_from(first)

    def _showdown(self, pots: list[Pot], shown: dict[int, list[str]], labels: dict[int, str]) -> list[PotAward]:
        game = self.game
        folded = self.folded
        alive = [j for j in range(self.n) if not folded[j]]
        boards = self.boards if self._runs == 2 else [self.board]
        # values[run][ranking_index][position] -> strength or None
        values = [evaluate_hands(game, self.cards, board, alive) for board in boards]
        showing = self._show_hands(self._show_order(alive), values[0], pots, shown, labels)
        self._showed_first = showing
        if self.settings.merge_equal_pots and len(pots) > 1:  # the PHH reading; RULES.md: each pot on its own
            merged = merge_equal_pots(pots, self._pot_winners(pots, values, showing))
            if len(merged) < len(pots):
                pots = merged
        # a winner's cards depend only on the run, the ranking and the player: named once
        memo: dict[tuple[int, int, int], WinningHand | None] = {}
        return self._award_pots(pots, values, showing, memo)

    def _show_hands(self, order: list[int], vals0: list[list[int | None]], pots: list[Pot],
                    shown: dict[int, list[str]], labels: dict[int, str]) -> list[int]:
        """Who shows, in showing order (R-SHOW-4): every hand when losers may not muck (or all-in, or run twice),
        else the first and every hand that could still win a share of a pot it is in; the others muck."""
        game = self.game
        nr = len(vals0)
        rng = range(nr)
        best_in_pot: list[list[int]] = [[-1] * nr for _ in pots]
        allin, seats, cards, events = self.allin, self.seats, self.cards, self.events
        always = not self.settings.muck_losers or self._runs == 2 or self._allin_runout
        showing: list[int] = []
        for j in order:
            mine = [vals0[0][j]] if nr == 1 else [row[j] for row in vals0]
            if not (always or allin[j] or not showing):
                competitive = False
                for k, p in enumerate(pots):
                    if j in p.eligible:
                        best = best_in_pot[k]
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
            for k, p in enumerate(pots):
                if j in p.eligible:
                    best = best_in_pot[k]
                    for r in rng:
                        v = mine[r]
                        if v is not None and v > best[r]:
                            best[r] = v
            s = seats[j]
            sh = shown[s] = list(map(_CS_OF, cards[j]))
            label = labels[s] = label_of(game, mine)
            events.append(Event("showed", s, {"cards": sh, "label": label}, None))
        return showing

    def _pot_winners(self, pots: list[Pot], values: list[list[list[int | None]]], showing: list[int]) -> set[int]:
        """The positions that win a share of some pot as ``_award_pots`` pays them (the PHH merge keeps only
        them), found without building the awards."""
        two = len(self.game.rankings) == 2
        out: set[int] = set()
        for p in pots:
            contenders = [j for j in p.eligible if j in showing] or list(p.eligible)
            for vals in values:  # one per run
                out.update(_best_of(contenders, vals[0])[1])
                if two:
                    lows = [j for j in contenders if vals[1][j] is not None]
                    if lows:
                        out.update(_best_of(lows, vals[1])[1])
        return out

    def _award_pots(self, pots: list[Pot], values: list[list[list[int | None]]], showing: list[int],
                    memo: dict[tuple[int, int, int], WinningHand | None]
                    ) -> list[PotAward]:
        game = self.game
        awards: list[PotAward] = []
        runs = len(values)
        boards = self.boards if self._runs == 2 else [self.board]
        two = len(game.rankings) == 2
        for p in pots:
            contenders = [j for j in p.eligible if j in showing]
            if not contenders:
                contenders = list(p.eligible)
            amounts = [p.amount - p.amount // 2, p.amount // 2] if runs == 2 else [p.amount]
            for run, amount in enumerate(amounts):
                vals = values[run]
                if two:
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
        best, winners = _best_of(contenders, values[rank_ix])
        seats = self.seats
        # the cards that make each winning hand, for a winner whose cards were shown only (R-GEN-5, R-SHOW-4)
        hands: dict[int, WinningHand] = {}
        for j in winners:
            if j not in showing:
                continue
            key = (run, rank_ix, j)
            if key in memo:
                got = memo[key]
            else:
                got = memo[key] = winning_hand(self.game, rank_ix, self.cards[j], board, best)
            if got is not None:
                hands[seats[j]] = got
        return PotAward(amount, list(map(seats.__getitem__, pot.eligible)), self._divide(amount, winners, showing),
                        share=share, run=run, hands=hands)


def _best_of(group: list[int], row: list[int | None]) -> tuple[int, list[int]]:
    """The best strength in ``row`` among the positions of ``group`` and the positions that have it, in group
    order (at least one of them has a strength)."""
    best = -1
    winners: list[int] = []
    for j in group:
        v = row[j]
        if v is None or v < best:
            continue
        if v > best:
            best = v
            winners = [j]
        else:
            winners.append(j)
    return best, winners
