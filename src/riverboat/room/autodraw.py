"""Automatic draw for a disconnected player (R-AUTODRAW-1..3).

High-hand draw games (5 Card Draw, 32 Card Draw) keep the cards forming the highest item of the keep list:

1. two pair or better (default, 000) -- or a pair or better (001), R-AUTODRAW-2 (CONFLICT C-9)
2. an open royal straight-flush draw (K-Q-J-T of one suit)
3. a high pair (AA, KK, QQ, JJ)
4. a four-card straight-flush or flush draw (R-AUTODRAW-3 reading)
5. a low pair (TT and lower)
6. an open-ended straight draw
7. a gutshot (any four cards of a five-rank straight window)
8. the single highest of A, K, Q, J
9. nothing (all cards replaced; when fewer may be replaced, e.g. 4 in 32 Card Draw, the highest cards are kept)

2-7 Triple Draw (R-AUTODRAW-3 reading): stand pat on a 9-high or better with no pair, straight or flush; otherwise
keep one card of each rank 7 or lower (a straight or flush among five kept cards loses its highest card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from riverboat.cards import Card, Rank
from riverboat.room.settings import AutodrawPriorityOne

_ACE = int(Rank.ACE)


def _by_rank(cards: Sequence[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for c in cards:
        out.setdefault(int(c.rank), []).append(c)
    return out


def _straight_windows(min_rank: int) -> list[list[int]]:
    """Five-rank windows of rank indices; the ace (index 12) also plays low, just below ``min_rank``."""
    ace_low = min_rank - 1
    return [[v + i for i in range(5)] for v in range(ace_low, _ACE - 3)]


def _ranks_in(window: list[int], ranks: set[int], min_rank: int) -> set[int]:
    """The card ranks (true indices) of ``ranks`` that fall in ``window`` (ace counted low where it fits)."""
    out = {r for r in ranks if r in window}
    if _ACE in ranks and window[0] == min_rank - 1:
        out.add(_ACE)
    return out


def _made_hand(cards: Sequence[Card], min_rank: int, pair_counts: bool) -> list[Card] | None:
    """Priority 1: the cards forming two pair or better (or a pair or better)."""
    groups = _by_rank(cards)
    counts = sorted((len(v) for v in groups.values()), reverse=True)
    flush = len({c.suit for c in cards}) == 1 and len(cards) == 5
    ranks = set(groups)
    straight = len(ranks) == 5 and any(
        len(_ranks_in(w, ranks, min_rank)) == 5 for w in _straight_windows(min_rank)
    )
    if flush or straight or counts[:2] == [3, 2]:
        return list(cards)
    if counts[0] >= 3:
        return [c for v in groups.values() if len(v) >= 3 for c in v]
    if counts[:2] == [2, 2] or (pair_counts and counts[0] == 2):
        return [c for v in groups.values() if len(v) == 2 for c in v]
    return None


def _four_suited(cards: Sequence[Card]) -> list[Card] | None:
    suits = Counter(c.suit for c in cards)
    suit, n = suits.most_common(1)[0]
    return [c for c in cards if c.suit == suit] if n == 4 else None


def _straight_draw(cards: Sequence[Card], min_rank: int, open_ended: bool) -> list[Card] | None:
    """Four cards of a straight: open-ended (four in a row, completable at both ends) or any four of a window."""
    groups = _by_rank(cards)
    ranks = set(groups)
    ace_low = min_rank - 1
    found: list[Card] | None = None
    for w in _straight_windows(min_rank):
        inside = _ranks_in(w, ranks, min_rank)
        if len(inside) < 4:
            continue
        if open_ended:
            runs = (w[:4], w[1:])
            for run in runs:
                if len(_ranks_in(run, ranks, min_rank)) == 4 and run[0] - 1 >= ace_low and run[-1] + 1 <= _ACE:
                    found = [groups[r][0] for r in sorted(_ranks_in(run, ranks, min_rank))]
        else:
            found = [groups[r][0] for r in sorted(inside)][:4]
    return found  # the highest window wins (windows run upwards)


def autodraw_high(
    hand: Sequence[Card],
    *,
    min_rank: int = 0,
    max_discards: int = 5,
    priority_one: AutodrawPriorityOne = AutodrawPriorityOne.TWO_PAIR_OR_BETTER,
) -> list[Card]:
    """The cards to DISCARD for a disconnected player in a high-hand draw game (R-AUTODRAW-1)."""
    cards = [Card(c) for c in hand]
    keep = _keep_high(cards, min_rank, priority_one is AutodrawPriorityOne.PAIR_OR_BETTER)
    return _discards(cards, keep, max_discards)


def _keep_high(cards: list[Card], min_rank: int, pair_counts: bool) -> list[Card]:
    made = _made_hand(cards, min_rank, pair_counts)
    if made is not None:  # 1
        return made
    royal = [c for c in cards if int(c.rank) in (8, 9, 10, 11)]
    if len(royal) >= 4:  # 2: K-Q-J-T of one suit
        for suit in {c.suit for c in royal}:
            same = [c for c in royal if c.suit == suit]
            if len({int(c.rank) for c in same}) == 4:
                return same
    groups = _by_rank(cards)
    pairs = sorted((r for r, v in groups.items() if len(v) == 2), reverse=True)
    if pairs and pairs[0] >= int(Rank.JACK):  # 3
        return groups[pairs[0]]
    suited = _four_suited(cards)
    if suited is not None:  # 4
        return suited
    if pairs:  # 5
        return groups[pairs[0]]
    oesd = _straight_draw(cards, min_rank, open_ended=True)
    if oesd is not None:  # 6
        return oesd
    gut = _straight_draw(cards, min_rank, open_ended=False)
    if gut is not None:  # 7
        return gut
    high = [c for c in cards if c.rank >= Rank.JACK]
    if high:  # 8
        return [max(high)]
    return []  # 9


def _discards(cards: list[Card], keep: list[Card], max_discards: int) -> list[Card]:
    kept = list(keep)
    need = len(cards) - max_discards
    if len(kept) < need:
        rest = sorted((c for c in cards if c not in kept), reverse=True)
        kept.extend(rest[: need - len(kept)])
    return [c for c in cards if c not in kept]


def autodraw_27(hand: Sequence[Card], *, max_discards: int = 5) -> list[Card]:
    """The cards to DISCARD in 2-7 lowball for a disconnected player (R-AUTODRAW-3 reading)."""
    cards = [Card(c) for c in hand]
    ranks = [int(c.rank) for c in cards]
    distinct = len(set(ranks)) == len(ranks)
    flush = len({c.suit for c in cards}) == 1 and len(cards) == 5
    srt = sorted(ranks)
    straight = distinct and len(cards) == 5 and srt[-1] - srt[0] == 4
    if distinct and not flush and not straight and max(ranks) <= int(Rank.NINE):
        return []
    keep: list[Card] = []
    seen: set[int] = set()
    for c in sorted(cards):
        if int(c.rank) <= int(Rank.SEVEN) and int(c.rank) not in seen:
            seen.add(int(c.rank))
            keep.append(c)
    if len(keep) == 5:  # a 7-high straight or flush: break it by drawing to the four lowest
        keep = keep[:4]
    return _discards(cards, keep, max_discards)
