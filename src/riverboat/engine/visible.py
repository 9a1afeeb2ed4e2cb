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


def visible_key(up: Sequence[int], how: Visible, suits: bool) -> tuple[int, ...]:
    """Key of the visible (up) cards; the best visible hand has the LARGEST key.

    High: quads > trips > two pair > pair > high cards, then the ranks of the groups, then kickers. Low (Razz):
    unpaired beats paired, then the lowest cards from the top (aces low). ``suits``: R-SUIT-1 decides ties by the
    suit of the highest card (otherwise the caller breaks ties by position).
    """
    counts: dict[int, int] = {}
    if how is Visible.HIGH:
        for c in up:
            r = c >> 2
            counts[r] = counts.get(r, 0) + 1
    else:
        for c in up:
            r = _low_rank(c)
            counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    if shape[0] == 4:
        cat = 4
    elif shape[0] == 3:
        cat = 3
    elif shape[0] == 2:
        cat = 2 if len(shape) > 1 and shape[1] == 2 else 1
    else:
        cat = 0
    ranks = [r for r, _ in groups]
    if how is Visible.HIGH:
        key = [cat, *ranks]
    else:
        key = [-cat, *(-r for r in ranks)]
    if suits and up:
        top = max(up) if how is Visible.HIGH else min(up, key=lambda c: (_low_rank(c), -(c & 3)))
        key.append(top & 3)
    return tuple(key)


def has_open_pair(up: Sequence[int]) -> bool:
    ranks = [c >> 2 for c in up]
    return len(set(ranks)) < len(ranks)
