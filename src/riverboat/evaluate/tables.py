"""Precomputed lookup tables, built once per ranking on first use (a few tens of milliseconds each).

Rank-only hashing: a multiset of ranks is identified by the sum of per-rank weights. ``W5`` makes every multiset of
five ranks (at most four of a rank) sum to a distinct value, ``W7`` every multiset of seven; both are checked when a
table is built. Flushes are looked up by the 13-bit mask of the suited ranks.

* ``nf5[sum5]``: strength of five cards that are not all one suit (0 where no multiset has that sum, or where a
  qualifier fails);
* ``f5[mask]``: strength of five suited cards with those ranks;
* ``nf7[sum7]``: best rank-only strength of five out of seven ranks; ``f7[mask]``: best suited five among the ranks
  of ``mask`` (5 to 7 bits). Only for rankings where a flush never hurts (``SEVEN_CARD_RANKINGS``).
"""

from __future__ import annotations

import array
import hashlib
import itertools
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from riverboat.evaluate.base import Ranking
from riverboat.evaluate.high import HIGH
from riverboat.evaluate.low_27 import LOW_27
from riverboat.evaluate.low_a5 import LOW_8B, LOW_A5
from riverboat.evaluate.six_plus import SHORT_DECK_PHH, SIX_PLUS
from riverboat.evaluate.soko import SOKO
from riverboat.evaluate.spec import RankSpec
from riverboat.evaluate.thirty_two import THIRTY_TWO, THIRTY_TWO_SUITED

W5 = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
W7 = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)

SPECS: dict[Ranking, RankSpec] = {
    s.ranking: s
    for s in (HIGH, SIX_PLUS, SHORT_DECK_PHH, THIRTY_TWO, THIRTY_TWO_SUITED, SOKO, LOW_8B, LOW_A5, LOW_27)
}
# Rankings in which a flush never makes a hand worse, so best-of-seven = max(rank-only best, best flush).
SEVEN_CARD_RANKINGS = frozenset(
    {
        Ranking.HIGH,
        Ranking.SIX_PLUS,
        Ranking.SHORT_DECK_PHH,
        Ranking.THIRTY_TWO,
        Ranking.LOW_A5,
        Ranking.LOW_8B,
    }
)

I64 = npt.NDArray[np.int64]

_W5 = np.array(W5, dtype=np.int64)
_W7 = np.array(W7, dtype=np.int64)
_COMBOS_7_5 = np.array(list(itertools.combinations(range(7), 5)), dtype=np.intp)


def multisets_array(ranks: tuple[int, ...], size: int) -> I64:
    """Every multiset of ``size`` ranks drawn from ``ranks`` with at most four of a rank (one deck), as sorted
    rows of an array."""
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations_with_replacement(ranks, size)), dtype=np.int64
    )
    m = flat.reshape(-1, size)
    # in a sorted row, some rank appears five times exactly when m[i] == m[i + 4] for some i
    ok = np.ones(m.shape[0], dtype=bool)
    for i in range(size - 4):
        ok &= m[:, i] != m[:, i + 4]
    out: I64 = m[ok]
    return out


def multisets(ranks: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """:func:`multisets_array` as a list of tuples."""
    return [tuple(row) for row in multisets_array(ranks, size).tolist()]


@dataclass(frozen=True)
class FiveTables:
    nf5: list[int]
    f5: list[int]
    nf5_np: I64
    f5_np: I64


@dataclass(frozen=True)
class SevenTables:
    nf7_np: I64
    nf7: array.array[int]
    f7: list[int]
    f7_np: I64


def _check_unique(sums: list[int], what: str) -> None:
    if len(set(sums)) != len(sums):  # pragma: no cover - guards the weight constants
        raise AssertionError(f"rank weights are not a perfect hash for {what}")


_SOURCES = (
    "base.py",
    "spec.py",
    "tables.py",
    "high.py",
    "six_plus.py",
    "thirty_two.py",
    "soko.py",
    "low_a5.py",
    "low_27.py",
)


def _source_digest() -> str:
    here = Path(__file__).parent
    h = hashlib.sha256(repr((W5, W7)).encode())
    for name in _SOURCES:
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path | None:
    """Where built tables are cached (``RIVERBOAT_TABLE_CACHE``; ``off`` disables it), keyed by a source digest."""
    setting = os.environ.get("RIVERBOAT_TABLE_CACHE", "")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    import platformdirs

    return Path(platformdirs.user_cache_dir("riverboat")) / "evaluate"


def _cached(name: str, build: Callable[[], dict[str, I64]]) -> dict[str, I64]:
    """Arrays built by ``build``, loaded from the cache file when present (written atomically otherwise)."""
    folder = cache_dir()
    path = folder / f"{name}-{_source_digest()}.npz" if folder is not None else None
    if path is not None and path.exists():
        try:
            with np.load(path) as data:
                return {k: data[k] for k in data.files}
        except (OSError, ValueError):  # a damaged cache file is rebuilt
            pass
    arrays = build()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz")
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **arrays)  # type: ignore[arg-type]
            os.replace(tmp, path)
        except OSError:  # a read-only cache location only costs build time
            pass
    return arrays


@cache
def five(ranking: Ranking) -> FiveTables:
    a = _cached(f"five-{ranking.value}", lambda: _build_five(ranking))
    nf5, f5 = a["nf5"], a["f5"]
    return FiveTables(nf5.tolist(), f5.tolist(), nf5, f5)


def _build_five(ranking: Ranking) -> dict[str, I64]:
    spec = SPECS[ranking]
    ms = multisets(spec.ranks, 5)
    sums = [sum(W5[r] for r in m) for m in ms]
    _check_unique(sums, "five ranks")
    nf5 = [0] * (4 * W5[12] + W5[11] + 1)
    for m, s in zip(ms, sums, strict=True):
        nf5[s] = spec.strength(m, False)
    f5 = [0] * 8192
    for m in itertools.combinations(spec.ranks, 5):
        f5[sum(1 << r for r in m)] = spec.strength(m, True)
    return {"nf5": np.array(nf5, dtype=np.int64), "f5": np.array(f5, dtype=np.int64)}


@cache
def seven(ranking: Ranking) -> SevenTables:
    if ranking not in SEVEN_CARD_RANKINGS:
        raise ValueError(f"no seven-card table for {ranking.value}")
    a = _cached(f"seven-{ranking.value}", lambda: _build_seven(ranking))
    keys, best, f7 = a["keys"], a["best"], a["f7"]
    nf7_np = np.zeros(int(keys.max()) + 1, dtype=np.int64)
    nf7_np[keys] = best
    # A flat int32 array (about 31 MB for 7.8 M slots): indexing it from Python is much cheaper than a dict lookup
    # keyed by large ints, and a quarter the size of a list of int objects.
    if int(best.max()) >= 2**31:  # pragma: no cover - guards the strength encoding
        raise AssertionError("seven-card strengths no longer fit the int32 lookup array")
    nf7 = array.array("i")
    nf7.frombytes(nf7_np.astype(np.int32).tobytes())
    return SevenTables(nf7_np, nf7, f7.tolist(), f7)


def _build_seven(ranking: Ranking) -> dict[str, I64]:
    spec = SPECS[ranking]
    t5 = five(ranking)
    ms = multisets_array(spec.ranks, 7)
    sums7 = _W7[ms].sum(axis=1)
    if np.unique(sums7).size != sums7.size:  # pragma: no cover - guards the weight constants
        raise AssertionError("rank weights are not a perfect hash for seven ranks")
    best = t5.nf5_np[_W5[ms[:, _COMBOS_7_5]].sum(axis=2)].max(axis=1)
    # best suited five among 5..7 suited ranks: grow from the five-card flush table one rank at a time
    masks = np.arange(8192, dtype=np.int64)
    popcount = np.zeros(8192, dtype=np.int64)
    for b in range(13):
        popcount += (masks >> b) & 1
    f7 = np.where(popcount == 5, t5.f5_np, 0)
    for level in (6, 7):
        at_level = np.flatnonzero((popcount == level) & (masks & ~spec.deck_mask == 0))
        for b in range(13):
            rows = at_level[(at_level >> b) & 1 == 1]
            f7[rows] = np.maximum(f7[rows], f7[rows ^ (1 << b)])
    return {"keys": sums7, "best": best, "f7": f7}
