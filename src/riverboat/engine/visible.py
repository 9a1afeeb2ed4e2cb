"""Stud helpers: bring-in card choice (R-BRINGIN, R-SUIT-1) and the best visible hand (R-STUD-5, R-RAZZ-2).

Cards are ints ``rank * 4 + suit`` with suits clubs < diamonds < hearts < spades, which is the R-SUIT-1 order.
"""

from __future__ import annotations

from collections.abc import Sequence

from riverboat.games.catalog import BringIn, Visible


def _low_rank(card: int) -> int:
    r = card >> 2
    return 0 if r == 12 else r + 1  # ace low: A=0, 2=1, ..., K=12


def bring_in_key(card: int, rule: BringIn) -> int:
    """A key where the bring-in is the player with the SMALLEST key."""
    if rule is BringIn.LOWEST:
        return card  # lowest rank, then clubs lowest (R-STUD-3)
    if rule is BringIn.HIGHEST:
        return -card  # highest rank, then spades highest (R-BRINGIN-1)
    return -(_low_rank(card) * 4 + (card & 3))  # Razz: highest with the ace low, suits R-SUIT-1


def _count(group: list[int]) -> int:
    return group[0]


def visible_key(up: Sequence[int], how: Visible, suits: bool) -> tuple[int, ...]:
    """Key of the visible (up) cards; the best visible hand has the LARGEST key.

    High: quads > trips > two pair > pair > high cards, then the ranks of the groups, then kickers. Low (Razz):
    unpaired beats paired, then the lowest cards from the top (aces low). ``suits``: R-SUIT-1 decides ties by the
    suit of the highest card (otherwise the caller breaks ties by position).
    """
    high = how is Visible.HIGH
    # ranks from the best down (high: highest first; low: lowest first, aces low), then (count, rank) groups;
    # a stable sort by count keeps the ranks of equal counts in that order
    if high:
        rs = sorted([c >> 2 for c in up], reverse=True)
    else:
        rs = sorted([_low_rank(c) for c in up], reverse=True)
    groups: list[list[int]] = []
    for r in rs:
        if groups and groups[-1][1] == r:
            groups[-1][0] += 1
        else:
            groups.append([1, r])
    groups.sort(key=_count, reverse=True)
    top_count = groups[0][0]
    if top_count == 4:
        cat = 4
    elif top_count == 3:
        cat = 3
    elif top_count == 2:
        cat = 2 if len(groups) > 1 and groups[1][0] == 2 else 1
    else:
        cat = 0
    if high:
        key = [cat, *[g[1] for g in groups]]
    else:
        key = [-cat, *[-g[1] for g in groups]]
    if suits and up:
        top = max(up) if high else min(up, key=lambda c: (_low_rank(c), -(c & 3)))
        key.append(top & 3)
    return tuple(key)


def has_open_pair(up: Sequence[int]) -> bool:
    ranks = [c >> 2 for c in up]
    return len(set(ranks)) < len(ranks)
